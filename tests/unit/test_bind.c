/* test_bind — specialisation of @pl.jit functions (spec/language.md §1.1): --arg syntax
 * (drv_arg_parse), front_parse_bound with tensor and scalar bindings, precedence of the binding's
 * first entry, and the errors of a mismatched or unknown binding. */
#include <stdlib.h>
#include <string.h>

#include "driver/driver.h"
#include "test.h"

static const char *SRC =
    "import pypto.language as pl\n"
    "\n"
    "@pl.jit\n"
    "def f(x: pl.Tensor, y: pl.Out[pl.Tensor[[32, 64], pl.FP16]], n: pl.INDEX, k: pl.FP32):\n"
    "    R, C = x.shape\n"
    "    with pl.at(level=pl.Level.CORE_GROUP):\n"
    "        t = pl.load(x, [0, 0], [n, x.shape[-1]])\n"
    "        pl.store(pl.mul(t, k), [0, 0], y)\n"
    "    return y\n";

typedef struct Ctx { DiagSink diag; IrCtx *c; SrcFile src; } Ctx;

static Program *parse(Ctx *x, const FrontArg *args, int n) {
    diag_init(&x->diag);
    x->c = ir_ctx_new(&x->diag);
    x->src = (SrcFile){ "t.py", SRC, strlen(SRC) };
    FrontBinding b = { args, n, NULL, 0, 0, 0 };
    return front_parse_bound(x->c, &x->src, NULL, &b);
}

static char *text_of(Ctx *x, const Program *p) {
    StrBuf sb = { 0 };
    if (p) ir_print_program(p, &sb, (PrintOpts){ 0 });
    diag_format_all(&x->diag, &sb);
    return sb_take(&sb);
}

static void done(Ctx *x) {
    ir_ctx_free(x->c);
    diag_free(&x->diag);
}

TEST(arg_syntax) {
    FrontArg a;
    char name[32], err[256];
    CHECK(drv_arg_parse("a=64x128:FP16", &a, name, sizeof name, err, sizeof err));
    CHECK_EQ_STR(a.name, "a");
    CHECK_EQ_INT(a.kind, FA_TENSOR);
    CHECK_EQ_INT(a.rank, 2);
    CHECK_EQ_INT(a.dims[0], 64);
    CHECK_EQ_INT(a.dims[1], 128);
    CHECK_EQ_INT(a.dtype, DT_FP16);
    CHECK(drv_arg_parse("v=7:int8", &a, name, sizeof name, err, sizeof err) && a.rank == 1 && a.dtype == DT_INT8);
    CHECK(drv_arg_parse("n=64", &a, name, sizeof name, err, sizeof err) && a.kind == FA_INT && a.ival == 64);
    CHECK(drv_arg_parse("n=-3", &a, name, sizeof name, err, sizeof err) && a.kind == FA_INT && a.ival == -3);
    CHECK(drv_arg_parse("eps=1e-5", &a, name, sizeof name, err, sizeof err) && a.kind == FA_FLOAT && a.fval == 1e-5);
    CHECK(drv_arg_parse("b=True", &a, name, sizeof name, err, sizeof err) && a.kind == FA_BOOL && a.ival == 1);
    CHECK(!drv_arg_parse("a=64x128", &a, name, sizeof name, err, sizeof err));
    CHECK_CONTAINS(err, "a tensor needs a dtype");
    CHECK(!drv_arg_parse("a=64x:fp32", &a, name, sizeof name, err, sizeof err));
    CHECK(!drv_arg_parse("a=1x2x3x4x5x6x7x8x9:fp32", &a, name, sizeof name, err, sizeof err));
    CHECK(!drv_arg_parse("a=64:fp64", &a, name, sizeof name, err, sizeof err));
    CHECK_CONTAINS(err, "unknown dtype 'fp64'");
    CHECK(!drv_arg_parse("=64", &a, name, sizeof name, err, sizeof err));
    CHECK(!drv_arg_parse("n=99999999999999999999", &a, name, sizeof name, err, sizeof err));
    CHECK(!drv_arg_parse("n=abc", &a, name, sizeof name, err, sizeof err));
}

TEST(bound_parse) {
    Ctx x;
    FrontArg args[] = {
        { .name = "x", .kind = FA_TENSOR, .dtype = DT_FP16, .rank = 2, .dims = { 32, 64 } },
        { .name = "n", .kind = FA_INT, .ival = 16 },
        { .name = "k", .kind = FA_FLOAT, .fval = 0.25 },
        { .name = "x", .kind = FA_TENSOR, .dtype = DT_FP32, .rank = 2, .dims = { 8, 8 } },   /* the first one wins */
    };
    Program *p = parse(&x, args, 4);
    char *t = text_of(&x, p);
    CHECK_MSG(p != NULL, "%s", t);
    CHECK_CONTAINS(t, "def f(self, x: pl.Tensor[[32, 64], pl.FP16], y: pl.Out[pl.Tensor[[32, 64], pl.FP16]])");
    CHECK_CONTAINS(t, "pl.tile.load(x, [0, 0], [16, 64], [16, 64])");
    CHECK_CONTAINS(t, "0.25");
    free(t);
    done(&x);
}

TEST(bound_errors) {
    Ctx x;
    FrontArg mismatch[] = { { .name = "x", .kind = FA_TENSOR, .dtype = DT_FP16, .rank = 2, .dims = { 32, 64 } },
                            { .name = "y", .kind = FA_TENSOR, .dtype = DT_FP32, .rank = 2, .dims = { 32, 64 } } };
    char *t = text_of(&x, parse(&x, mismatch, 2));
    CHECK_CONTAINS(t, "t.py:4:21: error: parameter 'y' is declared pl.Tensor[[32, 64], pl.FP16] but is bound to a tensor [32, 64] of FP32");
    free(t);
    done(&x);
    FrontArg unknown[] = { { .name = "x", .kind = FA_TENSOR, .dtype = DT_FP16, .rank = 2, .dims = { 32, 64 } },
                           { .name = "z", .kind = FA_INT, .ival = 1 } };
    t = text_of(&x, parse(&x, unknown, 2));
    CHECK_CONTAINS(t, "'z' binds no parameter of 'f' (parameters: x, y, n, k)");
    free(t);
    done(&x);
    t = text_of(&x, parse(&x, NULL, 0));
    CHECK_CONTAINS(t, "parameter 'x' of 'f' is an unshaped pl.Tensor and nothing binds its shape");
    free(t);
    done(&x);
}

int main(void) {
    RUN(arg_syntax);
    RUN(bound_parse);
    RUN(bound_errors);
    return test_summary();
}
