/* test_front_module — the module-constant evaluator (src/front/consteval.c, module.c): Python integer
 * and float semantics, tuple assignment, unknown right-hand sides, overflow, -D overrides; and the
 * builder scope of a nested class (scope.c) through front_parse_bound. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "front/front_internal.h"
#include "test.h"

static const char *const SRC =
    "import pypto.language as pl\n"
    "A = 7\n"
    "B = A // 2\n"
    "C = -7 // 2\n"
    "D = -7 % 3\n"
    "E = 2 ** 10\n"
    "F = 7 / 2\n"
    "G = min(3, A, 5)\n"
    "H = abs(-4) + max(1, 2.5)\n"
    "I = int(7.9) + int(-7.9)\n"
    "T, K, N = 16, 32, 64\n"
    "X, Y = (1, 2)\n"
    "P = (A + 1) * 2 - T\n"
    "U = foo(1)\n"
    "V = U + 1\n"
    "W = 2 ** 63\n"
    "Z = 1 // 0\n"
    "EPS = 1e-6\n"
    "NEG = -9223372036854775808\n"
    "Q = 2 ** -1\n"
    "DYN = pl.dynamic(\"DYN\")\n"
    "R = 3\n"
    "R = R + 1\n"
    "S: int = 5\n"
    "L = [1, 2]\n"
    "M2, N2 = 1, 2, 3\n"
    "PW = -2 ** 2\n"
    "if A:\n"
    "    A = 100\n"
    "def f():\n"
    "    J = 1\n";

static const FrontConst *get(const FrontModule *m, const char *name) {
    const FrontConst *c = front_module_find(m, name);
    CHECK_MSG(c != NULL, "constant %s recorded", name);
    return c;
}

static void check_int(const FrontModule *m, const char *name, int64_t want) {
    const FrontConst *c = get(m, name);
    if (!c) return;
    CHECK_MSG(c->known && !c->is_float && c->ival == want, "%s == %lld: known %d float %d value %lld", name, (long long)want,
              c->known, c->is_float, (long long)c->ival);
}

static void check_float(const FrontModule *m, const char *name, double want) {
    const FrontConst *c = get(m, name);
    if (!c) return;
    CHECK_MSG(c->known && c->is_float && fabs(c->fval - want) <= 1e-12 * fabs(want), "%s == %g: got %g", name, want, c->fval);
}

static void check_unknown(const FrontModule *m, const char *name) {
    const FrontConst *c = get(m, name);
    if (c) CHECK_MSG(!c->known, "%s unknown", name);
}

TEST(module_constants) {
    DiagSink diag;
    diag_init(&diag);
    IrCtx *c = ir_ctx_new(&diag);
    SrcFile src = { "m.py", SRC, strlen(SRC) };
    FrontModule m;
    CHECK(front_module_consts(c, &src, NULL, &m));
    check_int(&m, "A", 7);
    check_int(&m, "B", 3);
    check_int(&m, "C", -4);
    check_int(&m, "D", 2);
    check_int(&m, "E", 1024);
    check_float(&m, "F", 3.5);
    check_int(&m, "G", 3);
    check_float(&m, "H", 6.5);
    check_int(&m, "I", 0);
    check_int(&m, "T", 16);
    check_int(&m, "K", 32);
    check_int(&m, "N", 64);
    check_int(&m, "X", 1);
    check_int(&m, "Y", 2);
    check_int(&m, "P", 0);
    check_unknown(&m, "U");
    check_unknown(&m, "V");
    check_unknown(&m, "W");
    check_unknown(&m, "Z");
    check_float(&m, "EPS", 1e-6);
    check_int(&m, "NEG", INT64_MIN);
    check_float(&m, "Q", 0.5);
    check_unknown(&m, "DYN");
    check_int(&m, "R", 4);
    check_int(&m, "S", 5);
    check_unknown(&m, "L");
    check_unknown(&m, "M2");
    check_int(&m, "PW", -4);
    CHECK(front_module_find(&m, "J") == NULL);            /* a function's local is no module constant */
    CHECK_EQ_INT(get(&m, "U")->span.line, 14);
    front_module_free(&m);

    /* -D A=9: B follows; -D DYN=128 binds the dynamic dim; a define of a new name is added */
    FrontArg defs[3] = { { .name = "A", .kind = FA_INT, .ival = 9 }, { .name = "DYN", .kind = FA_INT, .ival = 128 },
                         { .name = "NEW", .kind = FA_FLOAT, .fval = 0.25 } };
    FrontBinding b = { NULL, 0, defs, 3, 0, 0 };
    CHECK(front_module_consts(c, &src, &b, &m));
    check_int(&m, "A", 9);
    check_int(&m, "B", 4);
    check_int(&m, "DYN", 128);
    check_float(&m, "NEW", 0.25);
    front_module_free(&m);
    CHECK_EQ_INT(diag.nerrors, 0);
    ir_ctx_free(c);
    diag_free(&diag);
}

static const char *const BUILDER =
    "import pypto.language as pl\n"
    "W = 16\n"
    "def build(M, N=W * 2, flag=None):\n"
    "    n = M // W\n"
    "    if M > 64:\n"
    "        n = 0\n"
    "    @pl.program\n"
    "    class P:\n"
    "        @pl.function(type=pl.FunctionType.Orchestration)\n"
    "        def main(self, x: pl.Tensor[[M, N], pl.FP32]) -> pl.Tensor[[M, N], pl.FP32]:\n"
    "            return x\n"
    "    return P\n"
    "if __name__ == '__main__':\n"
    "    build(W * 4)\n";

TEST(builder_scope) {
    DiagSink diag;
    diag_init(&diag);
    IrCtx *c = ir_ctx_new(&diag);
    SrcFile src = { "b.py", BUILDER, strlen(BUILDER) };
    Program *p = front_parse(c, &src, "build.P");
    CHECK(p != NULL);
    if (p) {
        StrBuf sb = { 0 };
        ir_print_program(p, &sb, (PrintOpts){ 0 });
        CHECK_CONTAINS(sb_cstr(&sb), "pl.Tensor[[64, 32], pl.FP32]");
        sb_free(&sb);
    }
    FrontArg defs[1] = { { .name = "M", .kind = FA_INT, .ival = 128 } };
    FrontBinding b = { NULL, 0, defs, 1, 0, 0 };
    p = front_parse_bound(c, &src, "P", &b);
    CHECK(p != NULL);
    if (p) {
        StrBuf sb = { 0 };
        ir_print_program(p, &sb, (PrintOpts){ 0 });
        CHECK_CONTAINS(sb_cstr(&sb), "pl.Tensor[[128, 32], pl.FP32]");
        sb_free(&sb);
    }
    CHECK_EQ_INT(diag.nerrors, 0);
    ir_ctx_free(c);
    diag_free(&diag);
}

int main(void) {
    RUN(module_constants);
    RUN(builder_scope);
    return test_summary();
}
