/* test_interp_vec — the interpreter's vector ops (src/interp/interp_vec*.c) against hand-computed
 * values: every op in every dtype it accepts (FP32, FP16, BF16, INT8, INT16, INT32, UINT8 where
 * legal), tile and tensor forms, rounding ties, integer wrap, NaN in max/min, IEEE division by
 * zero, cast modes, fills and pads, FP32 accumulation of FP16/BF16 sums, broadcasts, valid
 * regions and the run-time errors.
 *
 * Calls are built directly (ir_call with call->type set by hand: this branch has no vector type
 * deduction) over variables bound in an interpreter frame, and evaluated by interp_eval_op, so the
 * dispatch from interp_ops.c is exercised too. Expected values are exact (NaN matches NaN, and the
 * sign of zero is compared). Every input is checked to be representable in its dtype, so a typo in
 * a table cannot silently change a case. */
#include "interp/interp.h"
#include "interp/interp_internal.h"
#include "test.h"

#include <stdarg.h>

#define NaN NAN
#define INF INFINITY

#include "test_interp_harness.h"

static Expr *row(Env *e, DType dt, int n, const double *vals, bool tile) { return arr(e, dt, 1, n, 1, n, vals, tile); }
static Expr *cflt(Env *e, double v) { return ir_const_float(e->c, v, DT_FP32); }
static Expr *cint(Env *e, int64_t v) { return ir_const_int(e->c, v, DT_INDEX); }
static Expr *cdt(Env *e, DType dt) {
    Expr *x = ARENA_NEW(e->c->arena, Expr);
    x->kind = EX_ENUM;
    x->enm = ir_av_dtype(dt);
    return x;
}

static Expr *mk(Env *e, OpId op, Type *t, int n, ...) {
    Expr *args[4];
    va_list ap;
    va_start(ap, n);
    for (int i = 0; i < n; i++) args[i] = va_arg(ap, Expr *);
    va_end(ap);
    Expr *call = ir_call(e->c, op, args, n);
    call->type = t;
    return call;
}

/* Evaluates the call; the result stays owned by the frame (bound to a fresh variable). */
static InterpArray *run(Env *e, Expr *call) {
    InterpValue out;
    bool ok = interp_eval_op(&e->ic, &e->f, call, &out);
    CHECK_MSG(ok && out.kind == IV_ARRAY, "%s: evaluation failed: %s", e->what, last_msg(e));
    if (!ok) return NULL;
    interp_env_put(&e->f.env, ir_var_new(e->c, "r", call->type), out);
    return out.kind == IV_ARRAY ? out.arr : NULL;
}

static void expect(Env *e, const InterpArray *r, const double *want, int n) {
    if (!r) return;
    CHECK_MSG(r->numel == n, "%s: %lld elements, want %d", e->what, (long long)r->numel, n);
    for (int i = 0; i < n && i < r->numel; i++)
        CHECK_MSG(same(interp_get(r, i), want[i]), "%s: element %d is %.17g (%a), want %.17g (%a)", e->what, i, interp_get(r, i),
                  interp_get(r, i), want[i], want[i]);
}

static void expect_valid(Env *e, const InterpArray *r, int64_t vr, int64_t vc) {
    if (!r) return;
    CHECK_MSG(r->valid[0] == vr && r->valid[1] == vc, "%s: valid [%lld, %lld], want [%lld, %lld]", e->what,
              (long long)r->valid[0], (long long)r->valid[1], (long long)vr, (long long)vc);
}

/* The call must fail with a message containing needle. */
static void expect_error(Env *e, Expr *call, const char *needle) {
    InterpValue out;
    int before = e->d.nerrors;
    bool ok = interp_eval_op(&e->ic, &e->f, call, &out);
    if (ok) interp_release(out);
    CHECK_MSG(!ok && e->d.nerrors == before + 1, "%s: expected an error", e->what);
    CHECK_CONTAINS(last_msg(e), needle);
}

static OpId op2(const char *prefix, const char *op) {
    char name[64];
    snprintf(name, sizeof name, "%s.%s", prefix, op);
    OpId id = ir_op_lookup(name);
    CHECK_MSG(id != OP_NONE, "no op %s", name);
    return id;
}

/* ---------------------------------------------------------------- table-driven elementwise cases */
/* op(a, b) on a [1, n] row; scalar ops take b[0] as the scalar, a float literal, or an integer
 * literal when the op name ends in '#' ("adds#"). */
typedef struct Case {
    const char *op;
    DType dt;
    int n;
    double a[6], b[6], want[6];
} Case;

static bool is_scalar_op(const char *op) {
    size_t n = strlen(op);
    return op[n - 1] == 's' && strcmp(op, "abs") != 0;
}

static bool is_unary(const char *op) {
    static const char *const u[] = { "exp", "log", "sqrt", "rsqrt", "recip", "abs", "neg", "relu", NULL };
    for (int i = 0; u[i]; i++)
        if (strcmp(op, u[i]) == 0) return true;
    return false;
}

static void run_case(const Case *k, bool tile) {
    Env e;
    env_open(&e);
    char what[96], name[32];
    snprintf(name, sizeof name, "%s", k->op);
    bool sint = name[strlen(name) - 1] == '#';
    if (sint) name[strlen(name) - 1] = 0;
    snprintf(what, sizeof what, "%s.%s %s", tile ? "tile" : "tensor", name, dtype_name(k->dt));
    e.what = what;
    OpId op = op2(tile ? "tile" : "tensor", name);
    Expr *x = row(&e, k->dt, k->n, k->a, tile), *call;
    Type *t = ty(&e, k->dt, 1, k->n, tile);
    if (is_unary(name)) call = mk(&e, op, t, 1, x);
    else if (is_scalar_op(name)) call = mk(&e, op, t, 2, x, sint ? cint(&e, (int64_t)k->b[0]) : cflt(&e, k->b[0]));
    else call = mk(&e, op, t, 2, x, row(&e, k->dt, k->n, k->b, tile));
    expect(&e, run(&e, call), k->want, k->n);
    env_close(&e);
}

static void run_cases(const Case *cases, int n) {
    for (int i = 0; i < n; i++) {
        run_case(&cases[i], true);
        run_case(&cases[i], false);
    }
}

#define RUN_CASES(t) run_cases(t, (int)(sizeof t / sizeof t[0]))

/* ---------------------------------------------------------------- binary */
static const Case add_cases[] = {
    /* FP32: 1 + 2^-24 is a tie (to even: 1); 2^24 + 1 ties to 2^24; 1 + 2^-23 + 2^-24 ties up */
    { "add", DT_FP32, 6, { 1, 16777216, 1 + 0x1p-23, 1, INF, -0.0 }, { 0x1p-24, 1, 0x1p-24, 0x1p-23, -INF, -0.0 },
      { 1, 16777216, 1 + 0x1p-22, 1 + 0x1p-23, NaN, -0.0 } },
    /* FP16: 1 + 2^-11 -> 1; 2048 + 1 -> 2048; 65504 + 15 stays, + 16 ties to inf; 1 + 3·2^-11 -> 1 + 2^-9 */
    { "add", DT_FP16, 6, { 1, 2048, 65504, 65504, 1, -3 }, { 0x1p-11, 1, 15, 16, 3 * 0x1p-11, 1 },
      { 1, 2048, 65504, INF, 1 + 0x1p-9, -2 } },
    /* BF16: 1 + 2^-8 -> 1; 256 + 1 -> 256; 1 + 3·2^-8 -> 1 + 2^-6; 255 + 0.5 -> 256; 3 + 2^-7 -> 3 */
    { "add", DT_BF16, 6, { 1, 256, 1, 255, -1, 3 }, { 0x1p-8, 1, 3 * 0x1p-8, 0.5, 0.5, 0x1p-7 },
      { 1, 256, 1 + 0x1p-6, 256, -0.5, 3 } },
    { "add", DT_INT8, 6, { 127, -128, 100, -100, 5, 0 }, { 1, -1, 27, -28, -7, 0 }, { -128, 127, 127, -128, -2, 0 } },
    { "add", DT_INT16, 4, { 32767, -32768, 1000, -5 }, { 1, -1, 2000, 3 }, { -32768, 32767, 3000, -2 } },
    { "add", DT_INT32, 4, { 2147483647, -2147483648.0, 123456789, -1 }, { 1, -1, 876543211, 1 },
      { -2147483648.0, 2147483647, 1000000000, 0 } },
    { "add", DT_UINT8, 4, { 255, 200, 10, 0 }, { 1, 100, 20, 0 }, { 0, 44, 30, 0 } },
};

static const Case sub_cases[] = {
    /* 1 - 2^-25 ties to 1; 2^24 + 1 ties to 2^24; inf - inf = NaN; -0 - 0 = -0 */
    { "sub", DT_FP32, 6, { 1, 16777216, 1, 3, INF, -0.0 }, { 0x1p-25, -1, 1, 5, INF, 0 }, { 1, 16777216, 0, -2, NaN, -0.0 } },
    { "sub", DT_FP16, 6, { 2048, 1, 2048, 5, -65504, 1 }, { -1, 0x1p-12, 0.5, 7, 16, 1 + 0x1p-10 },
      { 2048, 1, 2048, -2, -INF, -0x1p-10 } },
    { "sub", DT_BF16, 6, { 1, 256, -256, 3, 2, 0.5 }, { -0x1p-8, -1, 1, 1, 0x1p-8, 1 }, { 1, 256, -256, 2, 2, -0.5 } },
    { "sub", DT_INT8, 4, { -128, 127, 0, 10 }, { 1, -1, -128, 20 }, { 127, -128, -128, -10 } },
    { "sub", DT_INT16, 4, { -32768, 32767, 100, 0 }, { 1, -1, 300, -32768 }, { 32767, -32768, -200, -32768 } },
    { "sub", DT_INT32, 4, { -2147483648.0, 2147483647, 5, 0 }, { 1, -1, 10, -2147483648.0 },
      { 2147483647, -2147483648.0, -5, -2147483648.0 } },
    { "sub", DT_UINT8, 4, { 0, 10, 255, 3 }, { 1, 20, 255, 5 }, { 255, 246, 0, 254 } },
};

static const Case mul_cases[] = {
    /* (2^24 - 1)^2 = 2^48 - 2^25 + 1 -> 2^48 - 2^25; (1 + 2^-12)^2 = 1 + 2^-11 + 2^-24 ties down */
    { "mul", DT_FP32, 6, { 3, 16777215, 1 + 0x1p-12, -2, INF, 0 }, { 0.5, 16777215, 1 + 0x1p-12, 3, 0, -1 },
      { 1.5, 281474943156224.0, 1 + 0x1p-11, -6, NaN, -0.0 } },
    /* 45·91 = 4095 ties to 4096; 2^-14·2^-10 = the smallest subnormal; 2^-25 ties to 0 */
    { "mul", DT_FP16, 6, { 45, 0x1p-14, 0x1p-14, 256, 1 + 0x1p-10, -3 }, { 91, 0x1p-10, 0x1p-11, 256, 1 + 0x1p-10, 0.5 },
      { 4096, 0x1p-24, 0, INF, 1 + 0x1p-9, -1.5 } },
    /* 255·255 = 65025 -> 65024; 2^200 overflows BF16 (not FP32's range: it is rounded to BF16) */
    { "mul", DT_BF16, 6, { 1 + 0x1p-7, 255, 0x1p100, -1, 1.5, 3 }, { 1 + 0x1p-7, 255, 0x1p100, 0, 1.5, 3 },
      { 1 + 0x1p-6, 65024, INF, -0.0, 2.25, 9 } },
    { "mul", DT_INT8, 4, { 16, -128, 11, -3 }, { 8, -1, 12, 5 }, { -128, -128, -124, -15 } },
    { "mul", DT_INT16, 4, { 256, 181, -32768, 7 }, { 256, 182, -1, -3 }, { 0, -32594, -32768, -21 } },
    /* (2^31 - 1)^2 = 2^62 - 2^32 + 1 wraps to 1: needs exact 64-bit products, not doubles */
    { "mul", DT_INT32, 4, { 2147483647, 65536, 46341, -7 }, { 2147483647, 65536, 46341, 6 }, { 1, 0, -2147479015, -42 } },
    { "mul", DT_UINT8, 4, { 16, 15, 255, 0 }, { 16, 17, 255, 9 }, { 0, 255, 1, 0 } },
};

static const Case div_cases[] = {   /* div: INT16 INT32 FP16 FP32 */
    { "div", DT_FP32, 6, { 1, 1, -1, 0, 7, -0.0 }, { 3, 0, 0, 0, 2, 5 }, { 0.3333333432674408, INF, -INF, NaN, 3.5, -0.0 } },
    { "div", DT_FP16, 6, { 1, 1, 65504, -6, 1, 0 }, { 3, -0.0, 0.5, 4, 1024, 0 }, { 0.333251953125, -INF, INF, -1.5, 0x1p-10, NaN } },
    { "div", DT_INT16, 5, { 7, -7, 7, -32768, 100 }, { 2, 2, -2, -1, 7 }, { 3, -3, -3, -32768, 14 } },
    { "div", DT_INT32, 5, { 7, -7, -2147483648.0, 2147483647, 0 }, { -2, -2, -1, 2, 5 }, { -3, 3, -2147483648.0, 1073741823, 0 } },
};

static const Case maxmin_cases[] = {
    /* std::max(a, b) = a < b ? b : a: max(1, NaN) = 1, max(NaN, 1) = NaN, max(-0, 0) = -0 */
    { "maximum", DT_FP32, 6, { 1, NaN, -1, -0.0, 3.5, -INF }, { NaN, 1, -2, 0, 3.25, -INF }, { 1, NaN, -1, -0.0, 3.5, -INF } },
    { "minimum", DT_FP32, 6, { 1, NaN, -1, -0.0, 3.5, -INF }, { NaN, 1, -2, 0, 3.25, -INF }, { 1, NaN, -2, -0.0, 3.25, -INF } },
    { "maximum", DT_FP16, 4, { 65504, NaN, -0x1p-24, 1 }, { -INF, 2, 0, 1 + 0x1p-10 }, { 65504, NaN, 0, 1 + 0x1p-10 } },
    { "minimum", DT_FP16, 4, { 65504, NaN, -0x1p-24, 1 }, { -INF, 2, 0, 1 + 0x1p-10 }, { -INF, NaN, -0x1p-24, 1 } },
    { "maximum", DT_BF16, 4, { 0x1p100, NaN, 1, -3 }, { 0x1p99, 0, NaN, -2 }, { 0x1p100, NaN, 1, -2 } },
    { "minimum", DT_BF16, 4, { 0x1p100, NaN, 1, -3 }, { 0x1p99, 0, NaN, -2 }, { 0x1p99, NaN, 1, -3 } },
    { "maximum", DT_INT8, 4, { -128, 127, 5, -1 }, { 127, -128, 5, 0 }, { 127, 127, 5, 0 } },
    { "minimum", DT_INT8, 4, { -128, 127, 5, -1 }, { 127, -128, 5, 0 }, { -128, -128, 5, -1 } },
    { "maximum", DT_INT16, 3, { -32768, 300, -5 }, { 32767, 299, -6 }, { 32767, 300, -5 } },
    { "minimum", DT_INT16, 3, { -32768, 300, -5 }, { 32767, 299, -6 }, { -32768, 299, -6 } },
    { "maximum", DT_INT32, 3, { -2147483648.0, 2147483647, 0 }, { 2147483647, 0, -1 }, { 2147483647, 2147483647, 0 } },
    { "minimum", DT_INT32, 3, { -2147483648.0, 2147483647, 0 }, { 2147483647, 0, -1 }, { -2147483648.0, 0, -1 } },
    { "maximum", DT_UINT8, 3, { 0, 255, 128 }, { 255, 254, 127 }, { 255, 255, 128 } },
    { "minimum", DT_UINT8, 3, { 0, 255, 128 }, { 255, 254, 127 }, { 0, 254, 127 } },
};

/* ---------------------------------------------------------------- scalar forms */
/* The scalar is converted to the element dtype first: 2^-11 + 2^-30 is 2^-11 in FP16, so 1 + s
 * ties to 1 (the unconverted double would give 1 + 2^-10); 2.7 truncates to 2 in INT8. */
static const Case scalar_cases[] = {
    { "adds", DT_FP32, 2, { 1, -1 }, { 0x1p-24 + 0x1p-60 }, { 1, -1 + 0x1p-24 } },
    { "adds", DT_FP16, 2, { 1, 2048 }, { 0x1p-11 + 0x1p-30 }, { 1, 2048 } },
    { "adds", DT_BF16, 2, { 1, 256 }, { 0x1p-8 + 0x1p-20 }, { 1, 256 } },
    { "adds", DT_INT8, 3, { 127, -128, 0 }, { 2.7 }, { -127, -126, 2 } },
    { "adds#", DT_INT8, 3, { 127, -128, 0 }, { 1 }, { -128, -127, 1 } },
    { "adds#", DT_INT16, 2, { 32767, 5 }, { 1 }, { -32768, 6 } },
    { "adds#", DT_INT32, 2, { 2147483647, 5 }, { 4294967301.0 }, { -2147483644.0, 10 } },   /* 2^32 + 5 wraps to 5 */
    { "adds#", DT_UINT8, 2, { 250, 0 }, { 10 }, { 4, 10 } },
    { "subs", DT_FP32, 2, { 1, 16777216 }, { 0x1p-25 }, { 1, 16777216 } },
    { "subs", DT_FP16, 2, { 2048, 1 }, { -1 }, { 2048, 2 } },
    { "subs", DT_BF16, 2, { 256, 1 }, { -1 }, { 256, 2 } },
    { "subs#", DT_INT8, 2, { -128, 0 }, { 1 }, { 127, -1 } },
    { "subs#", DT_INT16, 2, { -32768, 0 }, { 1 }, { 32767, -1 } },
    { "subs#", DT_INT32, 2, { -2147483648.0, 0 }, { 1 }, { 2147483647, -1 } },
    { "muls", DT_FP32, 2, { 16777215, -0.0 }, { 16777215 }, { 281474943156224.0, -0.0 } },
    { "muls", DT_FP16, 2, { 45, 1 }, { 91 }, { 4096, 91 } },
    { "muls", DT_BF16, 2, { 255, 1 }, { 255 }, { 65024, 255 } },
    { "muls#", DT_INT8, 2, { 16, -1 }, { 8 }, { -128, -8 } },
    { "muls#", DT_INT16, 2, { 256, -2 }, { 256 }, { 0, -512 } },
    { "muls#", DT_INT32, 2, { 65536, 3 }, { 65536 }, { 0, 196608 } },
    { "muls#", DT_UINT8, 2, { 16, 3 }, { 16 }, { 0, 48 } },
    { "divs", DT_FP32, 3, { 1, -1, 0 }, { 0 }, { INF, -INF, NaN } },
    { "divs", DT_FP32, 1, { 1 }, { 3 }, { 0.3333333432674408 } },
    { "divs", DT_FP16, 2, { 1, 65504 }, { 3 }, { 0.333251953125, 21840 } },
    { "divs", DT_BF16, 1, { 1 }, { 3 }, { 0.333984375 } },
    { "divs#", DT_INT8, 2, { -128, 7 }, { -1 }, { -128, -7 } },
    { "divs#", DT_INT16, 2, { -32768, -7 }, { -1 }, { -32768, 7 } },
    { "divs#", DT_INT32, 2, { 7, -7 }, { 2 }, { 3, -3 } },
    { "divs#", DT_UINT8, 2, { 255, 1 }, { 2 }, { 127, 0 } },
    { "maximums", DT_FP32, 2, { NaN, 1 }, { 2 }, { NaN, 2 } },
    { "maximums", DT_FP32, 1, { 1 }, { NaN }, { 1 } },
    { "minimums", DT_FP32, 2, { NaN, 1 }, { 2 }, { NaN, 1 } },
    { "maximums", DT_FP16, 2, { 1, -1 }, { 1 + 0x1p-12 }, { 1, 1 } },   /* the scalar is FP16 1 */
    { "minimums", DT_FP16, 2, { 2, -1 }, { 1 + 0x1p-12 }, { 1, -1 } },
    { "maximums", DT_BF16, 2, { 1, -1 }, { 0.5 }, { 1, 0.5 } },
    { "minimums", DT_BF16, 2, { 1, -1 }, { 0.5 }, { 0.5, -1 } },
    { "maximums#", DT_INT8, 2, { -5, 100 }, { 3 }, { 3, 100 } },
    { "minimums#", DT_INT8, 2, { -5, 100 }, { 3 }, { -5, 3 } },
    { "maximums#", DT_INT16, 2, { -32768, 7 }, { 0 }, { 0, 7 } },
    { "minimums#", DT_INT16, 2, { -32768, 7 }, { 0 }, { -32768, 0 } },
    { "maximums#", DT_INT32, 2, { -1, 2147483647 }, { -2 }, { -1, 2147483647 } },
    { "minimums#", DT_INT32, 2, { -1, 2147483647 }, { -2 }, { -2, -2 } },
    { "maximums#", DT_UINT8, 2, { 0, 200 }, { 100 }, { 100, 200 } },
    { "minimums#", DT_UINT8, 2, { 0, 200 }, { 100 }, { 0, 100 } },
};

/* ---------------------------------------------------------------- unary */
static const Case unary_cases[] = {
    { "exp", DT_FP32, 4, { 0, 1, -INF, 89 }, { 0 }, { 1, 2.7182817459106445, 0, INF } },
    { "exp", DT_FP16, 4, { 0, 1, 12, -20 }, { 0 }, { 1, 2.71875, INF, 0 } },
    { "exp", DT_BF16, 3, { 1, 0, 89 }, { 0 }, { 2.71875, 1, INF } },
    { "log", DT_FP32, 4, { 1, 0, -1, 2 }, { 0 }, { 0, -INF, NaN, 0.6931471824645996 } },
    { "log", DT_FP16, 4, { 2, 0, -0.0, 1 }, { 0 }, { 0.693359375, -INF, -INF, 0 } },
    { "sqrt", DT_FP32, 4, { 4, 2, -1, -0.0 }, { 0 }, { 2, 1.4142135381698608, NaN, -0.0 } },
    { "sqrt", DT_FP16, 3, { 2, 65504, 0x1p-24 }, { 0 }, { 1.4140625, 255.875, 0x1p-12 } },
    { "sqrt", DT_BF16, 2, { 2, 0x1p100 }, { 0 }, { 1.4140625, 0x1p50 } },
    { "rsqrt", DT_FP32, 4, { 4, 0, -0.0, 2 }, { 0 }, { 0.5, INF, -INF, 0.7071067690849304 } },
    { "rsqrt", DT_FP16, 3, { 0, 4, 2 }, { 0 }, { INF, 0.5, 0.70703125 } },
    { "rsqrt", DT_BF16, 2, { 4, 0x1p-100 }, { 0 }, { 0.5, 0x1p50 } },
    { "recip", DT_FP32, 4, { 0, -0.0, 3, 4 }, { 0 }, { INF, -INF, 0.3333333432674408, 0.25 } },
    { "recip", DT_FP16, 3, { 3, 0, 0x1p-15 }, { 0 }, { 0.333251953125, INF, 32768 } },
    { "recip", DT_BF16, 2, { 3, 0x1p-130 }, { 0 }, { 0.333984375, INF } },   /* 2^130 overflows BF16 */
    { "recip", DT_INT32, 4, { 1, -1, 2, -3 }, { 0 }, { 1, -1, 0, 0 } },
    { "abs", DT_FP32, 4, { -1.5, -0.0, -INF, NaN }, { 0 }, { 1.5, 0, INF, NaN } },
    { "abs", DT_FP16, 2, { -65504, 0x1p-24 }, { 0 }, { 65504, 0x1p-24 } },
    { "abs", DT_BF16, 2, { -0x1p100, 3 }, { 0 }, { 0x1p100, 3 } },
    { "abs", DT_INT8, 3, { -128, -5, 7 }, { 0 }, { -128, 5, 7 } },
    { "abs", DT_INT16, 2, { -32768, -1 }, { 0 }, { -32768, 1 } },
    { "abs", DT_INT32, 2, { -2147483648.0, -7 }, { 0 }, { -2147483648.0, 7 } },
    { "abs", DT_UINT8, 2, { 200, 0 }, { 0 }, { 200, 0 } },
    { "neg", DT_FP32, 3, { 1, 0, -INF }, { 0 }, { -1, -0.0, INF } },
    { "neg", DT_FP16, 2, { 0x1p-24, -65504 }, { 0 }, { -0x1p-24, 65504 } },
    { "neg", DT_BF16, 2, { 3, -0x1p100 }, { 0 }, { -3, 0x1p100 } },
    { "neg", DT_INT8, 2, { -128, 127 }, { 0 }, { -128, -127 } },
    { "neg", DT_INT16, 2, { -32768, 5 }, { 0 }, { -32768, -5 } },
    { "neg", DT_INT32, 2, { -2147483648.0, 5 }, { 0 }, { -2147483648.0, -5 } },
    { "neg", DT_UINT8, 2, { 1, 0 }, { 0 }, { 255, 0 } },
    /* relu = std::max(x, 0): NaN and -0 pass through (the first operand wins a non-less compare) */
    { "relu", DT_FP32, 4, { -1, 2, -0.0, NaN }, { 0 }, { 0, 2, -0.0, NaN } },
    { "relu", DT_FP16, 2, { -65504, 65504 }, { 0 }, { 0, 65504 } },
    { "relu", DT_BF16, 2, { -1, 0x1p100 }, { 0 }, { 0, 0x1p100 } },
    { "relu", DT_INT8, 2, { -128, 127 }, { 0 }, { 0, 127 } },
    { "relu", DT_INT16, 2, { -1, 1 }, { 0 }, { 0, 1 } },
    { "relu", DT_INT32, 2, { -2147483648.0, 5 }, { 0 }, { 0, 5 } },
    { "relu", DT_UINT8, 2, { 0, 255 }, { 0 }, { 0, 255 } },
};

TEST(test_binary) {
    RUN_CASES(add_cases);
    RUN_CASES(sub_cases);
    RUN_CASES(mul_cases);
    RUN_CASES(div_cases);
    RUN_CASES(maxmin_cases);
}

TEST(test_scalar_forms) { RUN_CASES(scalar_cases); }
TEST(test_unary) { RUN_CASES(unary_cases); }

/* ---------------------------------------------------------------- cast */
typedef struct CastCase {
    DType from, to;
    const char *mode;             /* NULL: no kwarg (round); digits: the mode's number */
    int n;
    double in[6], want[6];
} CastCase;

#define F16_IN { 1 + 0x1p-11, 1 + 0x1p-11 + 0x1p-23, -(1 + 0x1p-11), 65520, 0x1p-25, 1 + 0x1p-10 + 0x1p-11 }
#define F16_ODD_IN { 1 + 0x1p-11, 1 + 0x1p-11 + 0x1p-23, -(1 + 0x1p-11), 65519, 0x1p-25, 1 + 0x1p-10 + 0x1p-11 }
#define CAST_IN { 2.5, -2.5, 3.5, -0.5, 2.75, -2.75 }
#define BIG_IN { 16777217, -16777217 }

static const CastCase cast_cases[] = {
    /* FP32 -> INT32 under each mode; none truncates as the C conversion */
    { DT_FP32, DT_INT32, "none", 6, CAST_IN, { 2, -2, 3, 0, 2, -2 } },
    { DT_FP32, DT_INT32, "rint", 6, CAST_IN, { 2, -2, 4, 0, 3, -3 } },
    { DT_FP32, DT_INT32, "round", 6, CAST_IN, { 3, -3, 4, -1, 3, -3 } },
    { DT_FP32, DT_INT32, NULL, 6, CAST_IN, { 3, -3, 4, -1, 3, -3 } },
    { DT_FP32, DT_INT32, "floor", 6, CAST_IN, { 2, -3, 3, -1, 2, -3 } },
    { DT_FP32, DT_INT32, "ceil", 6, CAST_IN, { 3, -2, 4, 0, 3, -2 } },
    { DT_FP32, DT_INT32, "trunc", 6, CAST_IN, { 2, -2, 3, 0, 2, -2 } },
    { DT_FP32, DT_INT32, "odd", 6, CAST_IN, { 3, -3, 3, -1, 3, -3 } },
    { DT_FP32, DT_INT32, "1", 6, CAST_IN, { 2, -2, 4, 0, 3, -3 } },
    { DT_FP32, DT_INT32, "4", 6, CAST_IN, { 3, -2, 4, 0, 3, -2 } },
    /* float -> integer saturates; NaN -> 0 */
    { DT_FP32, DT_INT8, "round", 4, { 300, -300, 127.5, NaN }, { 127, -128, 127, 0 } },
    { DT_FP32, DT_UINT8, "round", 3, { -5, 300, 2.5 }, { 0, 255, 3 } },
    { DT_FP32, DT_INT16, "floor", 2, { -32768.5, 40000 }, { -32768, 32767 } },
    { DT_FP16, DT_INT16, "round", 3, { 65504, -65504, -2.5 }, { 32767, -32768, -3 } },
    { DT_FP16, DT_INT8, "trunc", 2, { -0.5, 127.75 }, { 0, 127 } },
    /* FP32 -> FP16: ties at 1 + 2^-11, above it, negative, at the overflow boundary, at half the
     * smallest subnormal, and 1 + 2^-10 + 2^-11 (between an odd and an even neighbour) */
    { DT_FP32, DT_FP16, "rint", 6, F16_IN, { 1, 1 + 0x1p-10, -1, INF, 0, 1 + 0x1p-9 } },
    { DT_FP32, DT_FP16, "none", 6, F16_IN, { 1, 1 + 0x1p-10, -1, INF, 0, 1 + 0x1p-9 } },
    { DT_FP32, DT_FP16, "round", 6, F16_IN, { 1 + 0x1p-10, 1 + 0x1p-10, -(1 + 0x1p-10), INF, 0x1p-24, 1 + 0x1p-9 } },
    { DT_FP32, DT_FP16, "floor", 6, F16_IN, { 1, 1, -(1 + 0x1p-10), 65504, 0, 1 + 0x1p-10 } },
    { DT_FP32, DT_FP16, "ceil", 6, F16_IN, { 1 + 0x1p-10, 1 + 0x1p-10, -1, INF, 0x1p-24, 1 + 0x1p-9 } },
    { DT_FP32, DT_FP16, "trunc", 6, F16_IN, { 1, 1, -1, 65504, 0, 1 + 0x1p-10 } },
    { DT_FP32, DT_FP16, "odd", 6, F16_ODD_IN, { 1 + 0x1p-10, 1 + 0x1p-10, -(1 + 0x1p-10), 65504, 0x1p-24, 1 + 0x1p-10 } },
    /* FP32 -> BF16: 1 + 2^-8 is a tie */
    { DT_FP32, DT_BF16, "rint", 3, { 1 + 0x1p-8, -(1 + 0x1p-8), 1 + 0x1p-8 + 0x1p-20 }, { 1, -1, 1 + 0x1p-7 } },
    { DT_FP32, DT_BF16, "round", 3, { 1 + 0x1p-8, -(1 + 0x1p-8), 1 + 0x1p-8 + 0x1p-20 }, { 1 + 0x1p-7, -(1 + 0x1p-7), 1 + 0x1p-7 } },
    { DT_FP32, DT_BF16, "floor", 3, { 1 + 0x1p-8, -(1 + 0x1p-8), 1 + 0x1p-8 + 0x1p-20 }, { 1, -(1 + 0x1p-7), 1 } },
    { DT_FP32, DT_BF16, "ceil", 3, { 1 + 0x1p-8, -(1 + 0x1p-8), 1 + 0x1p-8 + 0x1p-20 }, { 1 + 0x1p-7, -1, 1 + 0x1p-7 } },
    { DT_FP32, DT_BF16, "trunc", 3, { 1 + 0x1p-8, -(1 + 0x1p-8), 1 + 0x1p-8 + 0x1p-20 }, { 1, -1, 1 } },
    { DT_FP32, DT_BF16, "odd", 3, { 1 + 0x1p-8, -(1 + 0x1p-8), 1 + 0x1p-8 + 0x1p-20 }, { 1 + 0x1p-7, -(1 + 0x1p-7), 1 + 0x1p-7 } },
    { DT_FP16, DT_FP32, "floor", 3, { 65504, 0x1p-24, -0.0 }, { 65504, 0x1p-24, -0.0 } },
    { DT_BF16, DT_FP16, "rint", 3, { 0x1p100, 1 + 0x1p-7, 0x1p-30 }, { INF, 1 + 0x1p-7, 0 } },
    { DT_FP16, DT_BF16, "rint", 2, { 1 + 0x1p-10, 65504 }, { 1, 65536 } },
    /* INT32 -> FP32: 2^24 + 1 is a tie between 2^24 (even) and 2^24 + 2 (odd) */
    { DT_INT32, DT_FP32, "rint", 2, BIG_IN, { 16777216, -16777216 } },
    { DT_INT32, DT_FP32, "round", 2, BIG_IN, { 16777218, -16777218 } },
    { DT_INT32, DT_FP32, "floor", 2, BIG_IN, { 16777216, -16777218 } },
    { DT_INT32, DT_FP32, "ceil", 2, BIG_IN, { 16777218, -16777216 } },
    { DT_INT32, DT_FP32, "trunc", 2, BIG_IN, { 16777216, -16777216 } },
    { DT_INT32, DT_FP32, "odd", 2, BIG_IN, { 16777218, -16777218 } },
    { DT_INT32, DT_FP16, "rint", 3, { 2049, 65520, 100000 }, { 2048, INF, INF } },
    /* integer -> integer wraps */
    { DT_INT32, DT_INT8, "round", 3, { 300, -129, 127 }, { 44, 127, 127 } },
    { DT_INT32, DT_UINT8, "round", 2, { -1, 256 }, { 255, 0 } },
    { DT_UINT8, DT_INT8, "round", 2, { 255, 128 }, { -1, -128 } },
    { DT_INT8, DT_FP16, "round", 2, { -128, 127 }, { -128, 127 } },
    { DT_INT16, DT_FP32, "round", 2, { -32768, 32767 }, { -32768, 32767 } },
};

static void run_cast(const CastCase *k, bool tile) {
    Env e;
    env_open(&e);
    char what[96];
    snprintf(what, sizeof what, "%s.cast %s -> %s mode %s", tile ? "tile" : "tensor", dtype_name(k->from), dtype_name(k->to),
             k->mode ? k->mode : "(default)");
    e.what = what;
    Expr *call = mk(&e, op2(tile ? "tile" : "tensor", "cast"), ty(&e, k->to, 1, k->n, tile), 2,
                    row(&e, k->from, k->n, k->in, tile), cdt(&e, k->to));
    if (k->mode && k->mode[0] >= '0' && k->mode[0] <= '9') ir_attr_set(e.c, &call->call.kwargs, "mode", ir_av_int(atoi(k->mode)));
    else if (k->mode) ir_attr_set(e.c, &call->call.kwargs, "mode", ir_av_str(k->mode));
    InterpArray *r = run(&e, call);
    if (r) CHECK_MSG(r->dtype == k->to, "%s: result dtype %s", what, dtype_name(r->dtype));
    expect(&e, r, k->want, k->n);
    env_close(&e);
}

TEST(test_cast) {
    for (size_t i = 0; i < sizeof cast_cases / sizeof cast_cases[0]; i++) {
        run_cast(&cast_cases[i], true);
        run_cast(&cast_cases[i], false);
    }
    /* without a call type the target comes from the dtype argument */
    Env e;
    env_open(&e);
    e.what = "tile.cast without a type";
    const double in[2] = { 2.5, 1 + 0x1p-11 }, want[2] = { 2.5, 1 + 0x1p-10 };   /* round: ties away */
    Expr *call = mk(&e, OP_TILE_CAST, NULL, 2, row(&e, DT_FP32, 2, in, true), cdt(&e, DT_FP16));
    InterpArray *r = run(&e, call);
    if (r) CHECK_EQ_INT(r->dtype, DT_FP16);
    expect(&e, r, want, 2);
    env_close(&e);
}

/* ---------------------------------------------------------------- fills */
static void full_case(DType dt, bool tile, Expr *(*value)(Env *, double), double v, double want) {
    Env e;
    env_open(&e);
    char what[96];
    snprintf(what, sizeof what, "%s.full %s %.17g", tile ? "tile" : "tensor", dtype_name(dt), v);
    e.what = what;
    int64_t shape[2] = { 2, 3 };
    Expr *call = mk(&e, tile ? OP_TILE_FULL : OP_TENSOR_FULL, ty(&e, dt, 2, 3, tile), 3, ir_int_tuple(e.c, shape, 2),
                    cdt(&e, dt), value(&e, v));
    InterpArray *r = run(&e, call);
    double w[6] = { want, want, want, want, want, want };
    expect(&e, r, w, 6);
    expect_valid(&e, r, 2, 3);
    env_close(&e);
}

static Expr *vflt(Env *e, double v) { return cflt(e, v); }
static Expr *vint(Env *e, double v) { return cint(e, (int64_t)v); }

TEST(test_full) {
    for (int t = 0; t < 2; t++) {
        full_case(DT_FP16, t, vflt, 2049, 2048);
        full_case(DT_FP32, t, vflt, 0.1, 0.10000000149011612);
        full_case(DT_BF16, t, vflt, 1 + 0x1p-8, 1);
        full_case(DT_INT8, t, vint, 300, 44);        /* an integer wraps */
        full_case(DT_INT8, t, vflt, 300, 127);       /* a float truncates and saturates */
        full_case(DT_UINT8, t, vint, -1, 255);
        full_case(DT_INT16, t, vflt, -2.9, -2);
        full_case(DT_INT32, t, vflt, 2.9, 2);
        full_case(DT_FP16, t, vint, 65535, INF);
    }
}

TEST(test_expands) {
    Env e;
    env_open(&e);
    e.what = "tile.expands FP16";
    double z[8] = { 0 };
    Expr *call = mk(&e, OP_TILE_EXPANDS, ty(&e, DT_FP16, 2, 4, true), 2, arr(&e, DT_FP16, 2, 4, 1, 3, z, true), cflt(&e, 2049));
    InterpArray *r = run(&e, call);
    const double w1[8] = { 2048, 2048, 2048, 0, 0, 0, 0, 0 };
    expect(&e, r, w1, 8);
    expect_valid(&e, r, 1, 3);
    e.what = "tile.expands INT8";
    call = mk(&e, OP_TILE_EXPANDS, ty(&e, DT_INT8, 1, 2, true), 2, row(&e, DT_INT8, 2, z, true), cint(&e, -129));
    const double w2[2] = { 127, 127 };
    expect(&e, run(&e, call), w2, 2);
    e.what = "tensor.expands INT32 promoted to FP32";
    call = mk(&e, OP_TENSOR_EXPANDS, ty(&e, DT_FP32, 1, 2, false), 2, row(&e, DT_INT32, 2, z, false), cflt(&e, 2.5));
    const double w3[2] = { 2.5, 2.5 };
    r = run(&e, call);
    expect(&e, r, w3, 2);
    if (r) CHECK_EQ_INT(r->dtype, DT_FP32);
    env_close(&e);
}

/* fillpad of a [2, 4] tile whose valid box is [1, 2]: the pads of each dtype */
static void fillpad_case(DType dt, int how, double pad) {
    static const char *const names[] = { "zero (default)", "pl.PadValue.zero", "pl.PadValue.max", "3 (min)" };
    Env e;
    env_open(&e);
    char what[96];
    snprintf(what, sizeof what, "tile.fillpad %s %s", dtype_name(dt), names[how]);
    e.what = what;
    const double in[8] = { 1, 2, 9, 9, 9, 9, 9, 9 };
    Expr *call = mk(&e, OP_TILE_FILLPAD, ty(&e, dt, 2, 4, true), 1, arr(&e, dt, 2, 4, 1, 2, in, true));
    if (how == 1) ir_attr_set(e.c, &call->call.kwargs, "pad_value", ir_av_enum("pl.PadValue.zero"));
    if (how == 2) ir_attr_set(e.c, &call->call.kwargs, "pad_value", ir_av_enum("pl.PadValue.max"));
    if (how == 3) ir_attr_set(e.c, &call->call.kwargs, "pad_value", ir_av_int(PAD_MIN));
    InterpArray *r = run(&e, call);
    double w[8] = { 1, 2, pad, pad, pad, pad, pad, pad };
    expect(&e, r, w, 8);
    expect_valid(&e, r, 2, 4);
    env_close(&e);
}

TEST(test_fillpad) {
    static const struct { DType dt; double max, min; } pads[] = {
        { DT_FP32, INF, -INF }, { DT_FP16, INF, -INF }, { DT_BF16, INF, -INF }, { DT_INT8, 127, -128 },
        { DT_INT16, 32767, -32768 }, { DT_INT32, 2147483647, -2147483648.0 }, { DT_UINT8, 255, 0 },
    };
    for (size_t i = 0; i < sizeof pads / sizeof pads[0]; i++) {
        fillpad_case(pads[i].dt, 0, 0);
        fillpad_case(pads[i].dt, 1, 0);
        fillpad_case(pads[i].dt, 2, pads[i].max);
        fillpad_case(pads[i].dt, 3, pads[i].min);
    }
    Env e;   /* the tensor form: a tensor is all valid, so fillpad copies it */
    env_open(&e);
    e.what = "tensor.fillpad";
    const double in[3] = { 1, -2, 3 };
    Expr *call = mk(&e, OP_TENSOR_FILLPAD, ty(&e, DT_INT16, 1, 3, false), 1, row(&e, DT_INT16, 3, in, false));
    ir_attr_set(e.c, &call->call.kwargs, "pad_value", ir_av_enum("pl.PadValue.max"));
    expect(&e, run(&e, call), in, 3);
    env_close(&e);
}

/* ---------------------------------------------------------------- reductions */
/* op over an [r, c] array with valid box [vr, vc]; tile row reductions get a tmp operand, col ones
 * once with and once without. Result dtype rdt. */
static InterpArray *reduce(Env *e, const char *op, bool tile, DType dt, DType rdt, int64_t r, int64_t c, int64_t vr,
                           int64_t vc, const double *in, bool with_tmp) {
    bool rows = op[0] == 'r';
    Expr *x = arr(e, dt, r, c, vr, vc, in, tile);
    Type *t = rows ? ty(e, rdt, r, 1, tile) : ty(e, rdt, 1, c, tile);
    Expr *call = with_tmp ? mk(e, op2(tile ? "tile" : "tensor", op), t, 2, x, arr(e, dt, r, 128, r, 128, NULL, true))
                          : mk(e, op2(tile ? "tile" : "tensor", op), t, 1, x);
    return run(e, call);
}

typedef struct RedCase {
    const char *op;
    DType dt, rdt;
    int64_t r, c;
    double in[9], want[3];
} RedCase;

static const RedCase red_cases[] = {
    /* FP16/BF16 sums accumulate in FP32 and round once: [2048, 1, 1] is 2050 (FP16 steps: 2048) */
    { "row_sum", DT_FP16, DT_FP16, 1, 3, { 2048, 1, 1 }, { 2050 } },
    { "row_sum", DT_FP16, DT_FP16, 1, 3, { 65504, 65504, -65504 }, { 65504 } },
    { "row_sum", DT_FP16, DT_FP32, 1, 4, { 2048, 1, 1, 0x1p-11 }, { 2050 + 0x1p-11 } },
    { "row_sum", DT_BF16, DT_BF16, 1, 3, { 256, 1, 1 }, { 258 } },
    { "row_sum", DT_FP32, DT_FP32, 1, 3, { 16777216, 1, 1 }, { 16777216 } },   /* each addition rounds to FP32 */
    { "row_sum", DT_FP32, DT_FP32, 2, 2, { 1, 0x1p-24, -1, 0x1p-24 }, { 1, -1 + 0x1p-24 } },
    { "row_sum", DT_INT16, DT_INT16, 1, 3, { 32767, 1, 0 }, { -32768 } },
    { "row_sum", DT_INT16, DT_INT32, 1, 2, { 32767, 1 }, { -32768 } },        /* wraps in the source type */
    { "row_sum", DT_INT32, DT_INT32, 1, 3, { 2147483647, 1, 1 }, { -2147483647 } },
    /* max/min: column 0 first, then std::max(acc, x): a leading NaN propagates, later ones are skipped */
    { "row_max", DT_FP32, DT_FP32, 3, 3, { NaN, 1, 2, 1, NaN, 2, -INF, -1, -0.0 }, { NaN, 2, -0.0 } },
    { "row_min", DT_FP32, DT_FP32, 3, 3, { NaN, 1, 2, 1, NaN, 2, -INF, -1, -0.0 }, { NaN, 1, -INF } },
    { "row_max", DT_FP16, DT_FP16, 1, 3, { -65504, -INF, 3 }, { 3 } },
    { "row_min", DT_FP16, DT_FP16, 1, 3, { -65504, -INF, 3 }, { -INF } },
    { "row_max", DT_BF16, DT_BF16, 1, 3, { 0x1p100, 1, -0x1p100 }, { 0x1p100 } },
    { "row_max", DT_INT16, DT_INT16, 1, 3, { -32768, 5, 32767 }, { 32767 } },
    { "row_min", DT_INT16, DT_INT16, 1, 3, { -32768, 5, 32767 }, { -32768 } },
    { "row_max", DT_INT32, DT_INT32, 1, 3, { -5, -2147483648.0, -7 }, { -5 } },
    { "row_min", DT_INT32, DT_INT32, 1, 3, { -5, -2147483648.0, -7 }, { -2147483648.0 } },
    /* columns: top to bottom, FP16/BF16 in FP32 as well (decision 5) */
    { "col_sum", DT_FP16, DT_FP16, 3, 1, { 2048, 1, 1 }, { 2050 } },
    { "col_sum", DT_BF16, DT_BF16, 3, 1, { 256, 1, 1 }, { 258 } },
    { "col_sum", DT_FP32, DT_FP32, 3, 1, { 16777216, 1, 1 }, { 16777216 } },
    { "col_sum", DT_INT16, DT_INT16, 2, 1, { 32767, 1 }, { -32768 } },
    { "col_sum", DT_INT32, DT_INT32, 2, 2, { 1, 2, 3, 4 }, { 4, 6 } },
    { "col_max", DT_FP32, DT_FP32, 3, 2, { NaN, 1, 1, NaN, 3, 2 }, { NaN, 2 } },
    { "col_min", DT_FP32, DT_FP32, 3, 2, { NaN, 1, 1, NaN, 3, 2 }, { NaN, 1 } },
    { "col_max", DT_FP16, DT_FP16, 2, 2, { -INF, 65504, -1, 0x1p-24 }, { -1, 65504 } },
    { "col_min", DT_FP16, DT_FP16, 2, 2, { -INF, 65504, -1, 0x1p-24 }, { -INF, 0x1p-24 } },
    { "col_max", DT_INT16, DT_INT16, 2, 2, { -32768, 7, 32767, -7 }, { 32767, 7 } },
    { "col_min", DT_INT32, DT_INT32, 2, 2, { -2147483648.0, 7, 2147483647, -7 }, { -2147483648.0, -7 } },
    /* products: an FP32 running product (FP16 256 * 256 would overflow in FP16 steps; FP32 2^100 *
     * 2^100 overflows although the total is 2^100), integers wrap */
    { "row_prod", DT_FP16, DT_FP16, 1, 3, { 256, 256, 0x1p-10 }, { 64 } },
    { "row_prod", DT_FP32, DT_FP32, 2, 3, { 0x1p100, 0x1p100, 0x1p-100, NaN, 0, 1 }, { INF, NaN } },
    { "row_prod", DT_BF16, DT_BF16, 1, 3, { 3, 3, -3 }, { -27 } },
    { "row_prod", DT_INT16, DT_INT16, 1, 3, { 300, 300, 1 }, { 24464 } },
    { "row_prod", DT_INT32, DT_INT32, 1, 3, { 65536, 32768, 3 }, { -2147483648.0 } },
    { "col_prod", DT_FP16, DT_FP16, 3, 1, { 256, 256, 0x1p-10 }, { 64 } },
    { "col_prod", DT_INT32, DT_INT32, 2, 2, { 65536, -7, 32768, 11 }, { -2147483648.0, -77 } },
    /* arg reductions: INT32 index of the first strictly better cell; NaN first -> 0, later NaN skipped */
    { "row_argmax", DT_FP32, DT_INT32, 3, 3, { NaN, 1, 2, 1, NaN, 2, 5, 5, -1 }, { 0, 2, 0 } },
    { "row_argmin", DT_FP32, DT_INT32, 3, 3, { NaN, 1, 2, 1, NaN, 2, 5, 5, -1 }, { 0, 0, 2 } },
    { "row_argmax", DT_INT8, DT_INT32, 1, 3, { -128, 127, 127 }, { 1 } },
    { "row_argmin", DT_INT16, DT_INT32, 1, 3, { 5, -32768, -32768 }, { 1 } },
    { "col_argmax", DT_FP16, DT_INT32, 3, 2, { 1, -INF, 7, -INF, 7, 0 }, { 1, 2 } },
    { "col_argmin", DT_FP32, DT_INT32, 3, 2, { 1, 3, NaN, 3, -1, 3 }, { 2, 0 } },
    { "col_argmin", DT_INT32, DT_INT32, 2, 2, { 2147483647, -2147483648.0, -2147483648.0, -2147483648.0 }, { 1, 0 } },
};

TEST(test_reductions) {
    for (size_t i = 0; i < sizeof red_cases / sizeof red_cases[0]; i++)
        for (int form = 0; form < 3; form++) {   /* tile with tmp, tile without (col only), tensor */
            const RedCase *k = &red_cases[i];
            bool rows = k->op[0] == 'r';
            if (rows && form == 1) continue;
            Env e;
            env_open(&e);
            char what[96];
            snprintf(what, sizeof what, "%s.%s %s -> %s%s", form < 2 ? "tile" : "tensor", k->op, dtype_name(k->dt),
                     dtype_name(k->rdt), form == 0 ? " (tmp)" : "");
            e.what = what;
            InterpArray *r = reduce(&e, k->op, form < 2, k->dt, k->rdt, k->r, k->c, k->r, k->c, k->in, form == 0);
            expect(&e, r, k->want, (int)(rows ? k->r : k->c));
            if (r) CHECK_MSG(r->dtype == k->rdt, "%s: dtype %s", what, dtype_name(r->dtype));
            env_close(&e);
        }
}

/* Reductions read only the valid cells; the result's valid box is [vR, 1] / [1, vC]. */
TEST(test_reduction_valid) {
    Env e;
    env_open(&e);
    const double in[12] = { 1, 2, 4, 100, 0.5, 0.25, 0x1p-11, 100, 7, 7, 7, 7 };
    e.what = "tile.row_sum valid [2, 3]";
    InterpArray *r = reduce(&e, "row_sum", true, DT_FP16, DT_FP16, 3, 4, 2, 3, in, true);
    const double w1[3] = { 7, 0.75 + 0x1p-11, 0 };
    expect(&e, r, w1, 3);
    expect_valid(&e, r, 2, 1);
    e.what = "tile.row_max valid [2, 3]";
    r = reduce(&e, "row_max", true, DT_FP16, DT_FP16, 3, 4, 2, 3, in, true);
    const double w2[3] = { 4, 0.5, 0 };
    expect(&e, r, w2, 3);
    e.what = "tile.col_sum valid [2, 3]";
    r = reduce(&e, "col_sum", true, DT_FP16, DT_FP16, 3, 4, 2, 3, in, false);
    const double w3[4] = { 1.5, 2.25, 4, 0 };   /* 4 + 2^-11 rounds to 4 in FP16 */
    expect(&e, r, w3, 4);
    expect_valid(&e, r, 1, 3);
    e.what = "tile.col_min valid [2, 3]";
    r = reduce(&e, "col_min", true, DT_FP16, DT_FP16, 3, 4, 2, 3, in, false);
    const double w4[4] = { 0.5, 0.25, 0x1p-11, 0 };
    expect(&e, r, w4, 4);
    env_close(&e);
}

/* ---------------------------------------------------------------- expand family */
static const double T23[6] = { 1, 2, 3, 4, 5, 6 };

typedef struct ExpCase { const char *op; double want[6]; } ExpCase;

TEST(test_expand_fp32) {
    static const ExpCase rowc[] = {   /* t [2, 3] with v [2, 1] = {10, -1} */
        { "row_expand", { 10, 10, 10, -1, -1, -1 } },
        { "row_expand_add", { 11, 12, 13, 3, 4, 5 } },
        { "row_expand_sub", { -9, -8, -7, 5, 6, 7 } },
        { "row_expand_mul", { 10, 20, 30, -4, -5, -6 } },
        { "row_expand_div", { 0.10000000149011612, 0.20000000298023224, 0.30000001192092896, -4, -5, -6 } },
        { "row_expand_max", { 10, 10, 10, 4, 5, 6 } },
        { "row_expand_min", { 1, 2, 3, -1, -1, -1 } },
    };
    static const ExpCase colc[] = {   /* t [2, 3] with v [1, 3] = {10, -1, 0} */
        { "col_expand", { 10, -1, 0, 10, -1, 0 } },
        { "col_expand_add", { 11, 1, 3, 14, 4, 6 } },
        { "col_expand_sub", { -9, 3, 3, -6, 6, 6 } },
        { "col_expand_mul", { 10, -2, 0, 40, -5, 0 } },
        { "col_expand_div", { 0.10000000149011612, -2, INF, 0.4000000059604645, -5, INF } },
        { "col_expand_max", { 10, 2, 3, 10, 5, 6 } },
        { "col_expand_min", { 1, -1, 0, 4, -1, 0 } },
    };
    const double rv[2] = { 10, -1 }, cv[3] = { 10, -1, 0 };
    for (int tile = 0; tile < 2; tile++)
        for (int i = 0; i < 14; i++) {
            const ExpCase *k = i < 7 ? &rowc[i] : &colc[i - 7];
            Env e;
            env_open(&e);
            char what[96];
            snprintf(what, sizeof what, "%s.%s FP32", tile ? "tile" : "tensor", k->op);
            e.what = what;
            Expr *t = arr(&e, DT_FP32, 2, 3, 2, 3, T23, tile);
            Expr *v = i < 7 ? arr(&e, DT_FP32, 2, 1, 2, 1, rv, tile) : arr(&e, DT_FP32, 1, 3, 1, 3, cv, tile);
            expect(&e, run(&e, mk(&e, op2(tile ? "tile" : "tensor", k->op), ty(&e, DT_FP32, 2, 3, tile), 2, t, v)), k->want, 6);
            env_close(&e);
        }
}

/* op(t [1, 2], v) in dtype dt, v a [1, 1] row vector or [1, 2] column vector */
static void expand_case(const char *op, DType dt, const double *t, const double *v, double w0, double w1) {
    Env e;
    env_open(&e);
    char what[96];
    snprintf(what, sizeof what, "tile.%s %s", op, dtype_name(dt));
    e.what = what;
    Expr *vv = op[0] == 'r' ? arr(&e, dt, 1, 1, 1, 1, v, true) : row(&e, dt, 2, v, true);
    const double w[2] = { w0, w1 };
    expect(&e, run(&e, mk(&e, op2("tile", op), ty(&e, dt, 1, 2, true), 2, row(&e, dt, 2, t, true), vv)), w, 2);
    env_close(&e);
}

TEST(test_expand_dtypes) {
    expand_case("row_expand_add", DT_FP16, (double[]){ 2048, 1 }, (double[]){ 1 }, 2048, 2);
    expand_case("row_expand_sub", DT_FP16, (double[]){ 1, 2 }, (double[]){ 0x1p-11 }, 1 - 0x1p-11, 2);   /* 2 - 2^-11 ties to 2 */
    expand_case("row_expand_div", DT_FP16, (double[]){ 1, -1 }, (double[]){ 0 }, INF, -INF);
    expand_case("row_expand_add", DT_INT16, (double[]){ 32767, 0 }, (double[]){ 1 }, -32768, 1);
    expand_case("row_expand_div", DT_INT32, (double[]){ 7, -7 }, (double[]){ 2 }, 3, -3);
    expand_case("row_expand_mul", DT_UINT8, (double[]){ 16, 3 }, (double[]){ 16 }, 0, 48);
    expand_case("row_expand_max", DT_INT32, (double[]){ -2147483648.0, 5 }, (double[]){ 0 }, 0, 5);
    expand_case("row_expand_min", DT_INT16, (double[]){ -3, 5 }, (double[]){ 0 }, -3, 0);
    expand_case("row_expand", DT_INT16, (double[]){ 1, 2 }, (double[]){ -32768 }, -32768, -32768);
    expand_case("col_expand_sub", DT_INT32, (double[]){ -2147483648.0, 0 }, (double[]){ 1, 1 }, 2147483647, -1);
    expand_case("col_expand_div", DT_FP16, (double[]){ 1, 1 }, (double[]){ 3, 0 }, 0.333251953125, INF);
    expand_case("col_expand_mul", DT_FP16, (double[]){ 45, 256 }, (double[]){ 91, 256 }, 4096, INF);
    expand_case("col_expand_add", DT_INT16, (double[]){ 32767, 1 }, (double[]){ 1, 1 }, -32768, 2);
    expand_case("col_expand_max", DT_INT16, (double[]){ -7, 7 }, (double[]){ 0, 0 }, 0, 7);
    expand_case("col_expand_min", DT_FP16, (double[]){ NaN, 1 }, (double[]){ 0, NaN }, NaN, 1);
    expand_case("col_expand", DT_FP16, (double[]){ 0, 0 }, (double[]){ 65504, -0x1p-24 }, 65504, -0x1p-24);
}

/* The result keeps t's valid box; the row-major row-vector form [R, 8] uses each row's column 0. */
TEST(test_expand_valid_and_forms) {
    Env e;
    env_open(&e);
    e.what = "tile.row_expand_add valid [1, 2]";
    const double rv[2] = { 10, -1 };
    InterpArray *r = run(&e, mk(&e, OP_TILE_ROW_EXPAND_ADD, ty(&e, DT_FP32, 2, 3, true), 2, arr(&e, DT_FP32, 2, 3, 1, 2, T23, true),
                                arr(&e, DT_FP32, 2, 1, 2, 1, rv, true)));
    const double w1[6] = { 11, 12, 0, 0, 0, 0 };
    expect(&e, r, w1, 6);
    expect_valid(&e, r, 1, 2);
    e.what = "tile.row_expand_mul with a [2, 8] row-major vector";
    const double v8[16] = { 2, 9, 9, 9, 9, 9, 9, 9, 3, 9, 9, 9, 9, 9, 9, 9 };
    r = run(&e, mk(&e, OP_TILE_ROW_EXPAND_MUL, ty(&e, DT_FP32, 2, 3, true), 2, arr(&e, DT_FP32, 2, 3, 2, 3, T23, true),
                   arr(&e, DT_FP32, 2, 8, 2, 8, v8, true)));
    const double w2[6] = { 2, 4, 6, 12, 15, 18 };
    expect(&e, r, w2, 6);
    env_close(&e);
}

/* ---------------------------------------------------------------- broadcasting binary ops */
static InterpArray *bin2(Env *e, OpId op, bool tile, Expr *x, Expr *y, DType dt) {
    return run(e, mk(e, op, ty(e, dt, 2, 3, tile), 2, x, y));
}

TEST(test_broadcast) {
    Env e;
    env_open(&e);
    const double col[2] = { 10, -1 }, rowv[3] = { 10, -1, 0 }, two[1] = { 2 };
    e.what = "tensor.sub column on the left (lhs - rhs, decision 2)";
    const double w1[6] = { 9, 8, 7, -5, -6, -7 };
    expect(&e, bin2(&e, OP_TENSOR_SUB, false, arr(&e, DT_FP32, 2, 1, 2, 1, col, false), arr(&e, DT_FP32, 2, 3, 2, 3, T23, false),
                    DT_FP32), w1, 6);
    e.what = "tensor.sub column on the right";
    const double w2[6] = { -9, -8, -7, 5, 6, 7 };
    expect(&e, bin2(&e, OP_TENSOR_SUB, false, arr(&e, DT_FP32, 2, 3, 2, 3, T23, false), arr(&e, DT_FP32, 2, 1, 2, 1, col, false),
                    DT_FP32), w2, 6);
    e.what = "tensor.div row on the left";
    const double w3[6] = { 10, -0.5, 0, 2.5, -0.20000000298023224, 0 };
    expect(&e, bin2(&e, OP_TENSOR_DIV, false, arr(&e, DT_FP32, 1, 3, 1, 3, rowv, false), arr(&e, DT_FP32, 2, 3, 2, 3, T23, false),
                    DT_FP32), w3, 6);
    e.what = "tensor.add row on the right";
    const double w4[6] = { 11, 1, 3, 14, 4, 6 };
    expect(&e, bin2(&e, OP_TENSOR_ADD, false, arr(&e, DT_FP32, 2, 3, 2, 3, T23, false), arr(&e, DT_FP32, 1, 3, 1, 3, rowv, false),
                    DT_FP32), w4, 6);
    e.what = "tensor.mul by a [1, 1] tensor";
    const double w5[6] = { 2, 4, 6, 8, 10, 12 };
    expect(&e, bin2(&e, OP_TENSOR_MUL, false, arr(&e, DT_FP32, 2, 3, 2, 3, T23, false), arr(&e, DT_FP32, 1, 1, 1, 1, two, false),
                    DT_FP32), w5, 6);
    e.what = "tile.maximum with a [2, 1] tile";
    const double w6[6] = { 10, 10, 10, 4, 5, 6 };
    expect(&e, bin2(&e, OP_TILE_MAXIMUM, true, arr(&e, DT_FP32, 2, 3, 2, 3, T23, true), arr(&e, DT_FP32, 2, 1, 2, 1, col, true),
                    DT_FP32), w6, 6);
    e.what = "tensor.maximum with a scalar rhs";
    const double w7[6] = { 2.5, 2.5, 3, 4, 5, 6 };
    expect(&e, bin2(&e, OP_TENSOR_MAXIMUM, false, arr(&e, DT_FP32, 2, 3, 2, 3, T23, false), cflt(&e, 2.5), DT_FP32), w7, 6);
    e.what = "tile.sub column on the left keeps its valid rows and the rhs's valid columns";
    InterpArray *r = bin2(&e, OP_TILE_SUB, true, arr(&e, DT_FP32, 2, 1, 1, 1, col, true), arr(&e, DT_FP32, 2, 3, 2, 2, T23, true),
                          DT_FP32);
    const double w8[6] = { 9, 8, 0, 0, 0, 0 };
    expect(&e, r, w8, 6);
    expect_valid(&e, r, 1, 2);
    env_close(&e);
}

/* Mixed dtypes: operands are converted to the result dtype first. */
TEST(test_mixed_dtypes) {
    Env e;
    env_open(&e);
    const double one[1] = { 1 }, small[1] = { 0x1p-11 + 0x1p-20 };
    e.what = "tile.add FP16 + FP32 -> FP32";
    InterpArray *r = run(&e, mk(&e, OP_TILE_ADD, ty(&e, DT_FP32, 1, 1, true), 2, row(&e, DT_FP16, 1, one, true),
                                row(&e, DT_FP32, 1, small, true)));
    const double w1[1] = { 1 + 0x1p-11 + 0x1p-20 };
    expect(&e, r, w1, 1);
    e.what = "tile.add FP16 + FP32 -> FP16";
    r = run(&e, mk(&e, OP_TILE_ADD, ty(&e, DT_FP16, 1, 1, true), 2, row(&e, DT_FP16, 1, one, true), row(&e, DT_FP32, 1, small, true)));
    const double w2[1] = { 1 + 0x1p-10 };
    expect(&e, r, w2, 1);
    e.what = "tensor.muls INT32 * 2.5 promoted to FP32";
    const double i3[2] = { 3, -7 };
    r = run(&e, mk(&e, OP_TENSOR_MULS, ty(&e, DT_FP32, 1, 2, false), 2, row(&e, DT_INT32, 2, i3, false), cflt(&e, 2.5)));
    const double w3[2] = { 7.5, -17.5 };
    expect(&e, r, w3, 2);
    env_close(&e);
}

/* Elementwise results cover the first operand's valid box; the rest stays 0. */
TEST(test_valid_regions) {
    Env e;
    env_open(&e);
    const double x[8] = { 1, 2, 3, 4, 5, 6, 7, 8 }, y[8] = { 10, 10, 10, 10, 10, 10, 10, 10 };
    e.what = "tile.add valid [1, 3]";
    Type *t = ty(&e, DT_FP32, 2, 4, true);
    InterpArray *r = run(&e, mk(&e, OP_TILE_ADD, t, 2, arr(&e, DT_FP32, 2, 4, 1, 3, x, true), arr(&e, DT_FP32, 2, 4, 2, 4, y, true)));
    const double w1[8] = { 11, 12, 13, 0, 0, 0, 0, 0 };
    expect(&e, r, w1, 8);
    expect_valid(&e, r, 1, 3);
    e.what = "tile.exp valid [1, 1]";
    r = run(&e, mk(&e, OP_TILE_EXP, t, 1, arr(&e, DT_FP32, 2, 4, 1, 1, x, true)));
    const double w2[8] = { 2.7182817459106445, 0, 0, 0, 0, 0, 0, 0 };
    expect(&e, r, w2, 8);
    expect_valid(&e, r, 1, 1);
    e.what = "tile.cast valid [2, 1]";
    r = run(&e, mk(&e, OP_TILE_CAST, ty(&e, DT_INT8, 2, 4, true), 2, arr(&e, DT_FP32, 2, 4, 2, 1, x, true), cdt(&e, DT_INT8)));
    const double w3[8] = { 1, 0, 0, 0, 5, 0, 0, 0 };
    expect(&e, r, w3, 8);
    expect_valid(&e, r, 2, 1);
    e.what = "tile.muls valid [0, 4]";
    r = run(&e, mk(&e, OP_TILE_MULS, t, 2, arr(&e, DT_FP32, 2, 4, 0, 4, x, true), cflt(&e, 2)));
    const double w4[8] = { 0 };
    expect(&e, r, w4, 8);
    expect_valid(&e, r, 0, 4);
    env_close(&e);
}

/* ---------------------------------------------------------------- a whole program */
static Var *let_call(Env *e, Function *f, const char *name, Expr *call) {
    Var *v = ir_var_new(e->c, name, call->type);
    ir_list_push(e->c, &f->body, ir_assign(e->c, v, call));
    return v;
}

/* softmax at the tensor level through interp_run (caller buffers in and out): m = row_max(x),
 * d = x - m ([4, 1] broadcast), p = exp(d), s = row_sum(p), y = p / s, assembled into y. The
 * reference below applies the same rules in C: float subtraction and division, exp in double
 * rounded to float, a float running sum. */
TEST(test_softmax_program) {
    Env e;
    env_open(&e);
    e.what = "softmax";
    IrCtx *c = e.c;
    Function *f = ir_func_new(c, "softmax", FT_ORCHESTRATION);
    Var *x = ir_var_new(c, "x", ty(&e, DT_FP32, 4, 8, false)), *y = ir_var_new(c, "y", ty(&e, DT_FP32, 4, 8, false));
    ir_func_add_param(c, f, x, PD_IN);
    ir_func_add_param(c, f, y, PD_OUT);
    Var *m = let_call(&e, f, "m", mk(&e, OP_TENSOR_ROW_MAX, ty(&e, DT_FP32, 4, 1, false), 1, ir_ref(x)));
    Var *d = let_call(&e, f, "d", mk(&e, OP_TENSOR_SUB, ty(&e, DT_FP32, 4, 8, false), 2, ir_ref(x), ir_ref(m)));
    Var *p = let_call(&e, f, "p", mk(&e, OP_TENSOR_EXP, ty(&e, DT_FP32, 4, 8, false), 1, ir_ref(d)));
    Var *s = let_call(&e, f, "s", mk(&e, OP_TENSOR_ROW_SUM, ty(&e, DT_FP32, 4, 1, false), 1, ir_ref(p)));
    Var *q = let_call(&e, f, "q", mk(&e, OP_TENSOR_DIV, ty(&e, DT_FP32, 4, 8, false), 2, ir_ref(p), ir_ref(s)));
    int64_t zero[2] = { 0, 0 };
    Expr *as = mk(&e, OP_TENSOR_ASSEMBLE, NULL, 3, ir_ref(y), ir_ref(q), ir_int_tuple(c, zero, 2));
    CHECK(ir_deduce_call(c, as));
    Var *o = let_call(&e, f, "o", as);
    Expr *r = ir_ref(o);
    ir_list_push(c, &f->body, ir_return(c, &r, 1));
    f->return_types = ARENA_ARRAY(c->arena, Type *, 1);
    f->return_types[0] = o->type;
    f->nreturns = 1;
    Program *prog = ir_program_new(c, "softmax");
    ir_program_add(c, prog, f);
    float xv[32], yv[32];
    for (int i = 0; i < 32; i++) xv[i] = (float)((i * 7) % 11) * 0.375f - 1.5f;
    InterpTensor args[2] = { { DT_FP32, 2, { 4, 8 }, xv }, { DT_FP32, 2, { 4, 8 }, yv } };
    CHECK_MSG(interp_run(prog, NULL, args, 2, &e.d), "softmax: %s", last_msg(&e));
    int bad = 0;
    for (int i = 0; i < 4; i++) {
        float mx = xv[i * 8], sum, pe[8];
        for (int j = 1; j < 8; j++) mx = mx < xv[i * 8 + j] ? xv[i * 8 + j] : mx;
        for (int j = 0; j < 8; j++) pe[j] = (float)exp((double)(xv[i * 8 + j] - mx));
        sum = pe[0];
        for (int j = 1; j < 8; j++) sum += pe[j];
        for (int j = 0; j < 8; j++) bad += yv[i * 8 + j] != pe[j] / sum;
    }
    CHECK_EQ_INT(bad, 0);
    CHECK_MSG(yv[0] > 0 && yv[0] < 1, "softmax: y[0] = %g", yv[0]);
    env_close(&e);
}

/* ---------------------------------------------------------------- errors */
TEST(test_errors) {
    Env e;
    env_open(&e);
    const double a[2] = { 1, 2 }, z[2] = { 1, 0 }, zero[1] = { 0 };
    e.what = "tile.div INT32 by 0";
    expect_error(&e, mk(&e, OP_TILE_DIV, ty(&e, DT_INT32, 1, 2, true), 2, row(&e, DT_INT32, 2, a, true), row(&e, DT_INT32, 2, z, true)),
                 "tile.div: integer division by zero (row 0, column 1)");
    e.what = "tensor.divs INT8 by 0";
    expect_error(&e, mk(&e, OP_TENSOR_DIVS, ty(&e, DT_INT8, 1, 2, false), 2, row(&e, DT_INT8, 2, a, false), cint(&e, 0)),
                 "tensor.divs: integer division by zero");
    e.what = "tile.row_expand_div INT16 by 0";
    expect_error(&e, mk(&e, OP_TILE_ROW_EXPAND_DIV, ty(&e, DT_INT16, 1, 2, true), 2, row(&e, DT_INT16, 2, a, true),
                        arr(&e, DT_INT16, 1, 1, 1, 1, zero, true)), "tile.row_expand_div: integer division by zero");
    e.what = "tensor.col_expand_div INT32 by 0";
    expect_error(&e, mk(&e, OP_TENSOR_COL_EXPAND_DIV, ty(&e, DT_INT32, 1, 2, false), 2, row(&e, DT_INT32, 2, a, false),
                        row(&e, DT_INT32, 2, z, false)), "tensor.col_expand_div: integer division by zero");
    e.what = "tile.recip INT32 of 0";
    expect_error(&e, mk(&e, OP_TILE_RECIP, ty(&e, DT_INT32, 1, 2, true), 1, row(&e, DT_INT32, 2, z, true)),
                 "tile.recip: integer division by zero (row 0, column 1)");
    e.what = "tile.exp INT32";
    expect_error(&e, mk(&e, OP_TILE_EXP, ty(&e, DT_INT32, 1, 2, true), 1, row(&e, DT_INT32, 2, a, true)),
                 "tile.exp: needs a float element type, not INT32");
    e.what = "type mismatch";
    expect_error(&e, mk(&e, OP_TILE_ADD, ty(&e, DT_FP32, 1, 3, true), 2, row(&e, DT_FP32, 2, a, true), row(&e, DT_FP32, 2, a, true)),
                 "tile.add: the interpreter computes a [1, 2] result but the call's type is");
    e.what = "bad broadcast";
    expect_error(&e, mk(&e, OP_TENSOR_ADD, NULL, 2, arr(&e, DT_FP32, 2, 3, 2, 3, T23, false), arr(&e, DT_FP32, 3, 2, 3, 2, T23, false)),
                 "tensor.add: operands [2, 3] FP32 and [3, 2] FP32 do not broadcast");
    e.what = "bad mode";
    Expr *c = mk(&e, OP_TILE_CAST, ty(&e, DT_INT32, 1, 2, true), 2, row(&e, DT_FP32, 2, a, true), cdt(&e, DT_INT32));
    ir_attr_set(e.c, &c->call.kwargs, "mode", ir_av_str("banker"));
    expect_error(&e, c, "tile.cast: unknown rounding mode");
    e.what = "null pad";
    c = mk(&e, OP_TILE_FILLPAD, ty(&e, DT_FP32, 1, 2, true), 1, row(&e, DT_FP32, 2, a, true));
    ir_attr_set(e.c, &c->call.kwargs, "pad_value", ir_av_enum("pl.PadValue.null"));
    expect_error(&e, c, "tile.fillpad: pad_value must be");
    e.what = "row vector rows";
    expect_error(&e, mk(&e, OP_TILE_ROW_EXPAND_SUB, ty(&e, DT_FP32, 2, 3, true), 2, arr(&e, DT_FP32, 2, 3, 2, 3, T23, true),
                        arr(&e, DT_FP32, 3, 1, 3, 1, T23, true)), "tile.row_expand_sub: the row vector [3, 1] FP32 does not match");
    e.what = "column vector size";
    expect_error(&e, mk(&e, OP_TILE_COL_EXPAND_ADD, ty(&e, DT_FP32, 2, 3, true), 2, arr(&e, DT_FP32, 2, 3, 2, 3, T23, true),
                        row(&e, DT_FP32, 2, a, true)), "tile.col_expand_add: the column vector [1, 2] FP32 does not match");
    e.what = "adds of two tiles";
    expect_error(&e, mk(&e, OP_TILE_ADDS, ty(&e, DT_FP32, 1, 2, true), 2, row(&e, DT_FP32, 2, a, true), row(&e, DT_FP32, 2, a, true)),
                 "tile.adds: expects a tensor or tile and a scalar");
    e.what = "empty row reduction";
    expect_error(&e, mk(&e, OP_TILE_ROW_MAX, ty(&e, DT_FP32, 1, 1, true), 2, arr(&e, DT_FP32, 1, 2, 1, 0, a, true),
                        arr(&e, DT_FP32, 1, 128, 1, 128, NULL, true)), "tile.row_max: the valid region of [1, 2] FP32 is empty");
    env_close(&e);
}

int main(void) {
    RUN(test_binary);
    RUN(test_scalar_forms);
    RUN(test_unary);
    RUN(test_cast);
    RUN(test_full);
    RUN(test_expands);
    RUN(test_fillpad);
    RUN(test_reductions);
    RUN(test_reduction_valid);
    RUN(test_expand_fp32);
    RUN(test_expand_dtypes);
    RUN(test_expand_valid_and_forms);
    RUN(test_broadcast);
    RUN(test_mixed_dtypes);
    RUN(test_valid_regions);
    RUN(test_softmax_program);
    RUN(test_errors);
    return test_summary();
}
