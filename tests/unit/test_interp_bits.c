/* test_interp_bits — the interpreter's remainder, bitwise, leaky-relu, exp-difference and partial ops
 * (src/interp/interp_vec_bits.c) against hand-computed values: fmod / rem (truncated vs floor
 * modulo, the sign of zero, the one rounding of rem's correction), and / or / xor / shl / shr / not
 * in every integer dtype the spec allows (signed: wrap and arithmetic shift right; unsigned: logical),
 * lrelu / prelu / expdif in the float dtypes (the slope and the difference rounded to the element
 * type), part_* over differing valid regions, tile and tensor forms, and the run-time errors.
 * Calls are built directly (call->type set by hand) and evaluated by interp_eval_op. */
#include "interp/interp.h"
#include "interp/interp_internal.h"
#include "test.h"

#define NaN NAN
#define INF INFINITY

#include "test_interp_harness.h"

static OpId op_named(const char *form, const char *name) {
    char full[64];
    snprintf(full, sizeof full, "%s.%s", form, name);
    OpId id = ir_op_lookup(full);
    CHECK_MSG(id != OP_NONE, "no op %s", full);
    return id;
}

static Expr *call_of(Env *e, OpId op, Type *t, Expr **args, int n) {
    Expr *c = ir_call(e->c, op, args, n);
    c->type = t;
    return c;
}

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
        CHECK_MSG(same(interp_get(r, i), want[i]), "%s: element %d is %.17g (%a), want %.17g (%a)", e->what, i, interp_get(r, i), interp_get(r, i),
                  want[i], want[i]);
}

/* ---------------------------------------------------------------- element-wise tables */
/* op on a [1, n] row: binary ops take row b; scalar ops (name ending in 's', and lrelu) take s as an
 * integer literal (integer dtypes) or a float literal; unary ops take a only. The tile forms of xor,
 * rem and prelu get their scratch tile (ignored by the interpreter). */
typedef struct Case {
    const char *op;
    DType dt;
    int n;
    double s;
    double a[6], b[6], want[6];
} Case;

static const Case cases[] = {
    /* fmod: truncated (sign of the dividend); float x % 0 = NaN, x % inf = x */
    { "fmod", DT_FP32, 6, 0, { 5.5, -5.5, 5.5, -5.5, 1, 3 }, { 2, 2, -2, -2, 0, INF }, { 1.5, -1.5, 1.5, -1.5, NaN, 3 } },
    { "fmod", DT_FP16, 4, 0, { 7, -7, 0.75, 65504 }, { 3, 3, 0.5, 3 }, { 1, -1, 0.25, 2 } },
    { "fmod", DT_BF16, 3, 0, { 10, -10, 1.5 }, { 4, 4, 0.25 }, { 2, -2, 0 } },
    { "fmod", DT_INT8, 5, 0, { 7, -7, 7, -7, -128 }, { 3, 3, -3, -3, -1 }, { 1, -1, 1, -1, 0 } },
    { "fmod", DT_INT16, 3, 0, { 32767, -32768, 100 }, { 10, 7, -7 }, { 7, -1, 2 } },
    { "fmod", DT_INT32, 3, 0, { -2147483648.0, 2147483647, 9 }, { -1, 2, 4 }, { 0, 1, 1 } },
    { "fmod", DT_UINT8, 2, 0, { 255, 10 }, { 16, 3 }, { 15, 1 } },
    { "fmod", DT_UINT16, 2, 0, { 65535, 5 }, { 256, 7 }, { 255, 5 } },
    { "fmod", DT_UINT32, 1, 0, { 4294967295.0 }, { 65536 }, { 65535 } },
    { "fmods", DT_FP32, 2, 2, { -5.5, 5.5 }, { 0 }, { -1.5, 1.5 } },
    { "fmods", DT_INT16, 2, 3, { -7, 7 }, { 0 }, { -1, 1 } },
    /* rem: floor modulo (sign of the divisor); -4 rem 2 = -0.0 (no correction of a zero);
     * -2^-30 rem 1 = 1 - 2^-30 rounds to 1 in FP32, -2^-14 rem 2048 to 2048 in FP16 */
    { "rem", DT_FP32, 6, 0, { 5.5, -5.5, 5.5, -5.5, -4, -0x1p-30 }, { 2, 2, -2, -2, 2, 1 }, { 1.5, 0.5, -0.5, -1.5, -0.0, 1 } },
    { "rem", DT_FP16, 4, 0, { 7, -7, 7, -0x1p-14 }, { 3, 3, -3, 2048 }, { 1, 2, -2, 2048 } },
    { "rem", DT_BF16, 3, 0, { 10, -10, 10 }, { 4, 4, -4 }, { 2, 2, -2 } },
    { "rem", DT_INT8, 5, 0, { 7, -7, 7, -7, -128 }, { 3, 3, -3, -3, 127 }, { 1, 2, -2, -1, 126 } },
    { "rem", DT_INT16, 2, 0, { -1, 32767 }, { 32767, -2 }, { 32766, -1 } },
    { "rem", DT_INT32, 2, 0, { -7, 2147483647 }, { 2, -2147483648.0 }, { 1, -1 } },
    { "rem", DT_UINT8, 1, 0, { 200 }, { 7 }, { 4 } },
    { "rem", DT_UINT16, 1, 0, { 65535 }, { 1000 }, { 535 } },
    { "rems", DT_FP32, 2, 2, { 5.5, -5.5 }, { 0 }, { 1.5, 0.5 } },
    { "rems", DT_INT32, 2, -3, { -7, 7 }, { 0 }, { -1, -2 } },
    /* bitwise on two's-complement bits */
    { "and_", DT_INT8, 4, 0, { -1, 0x55, -128, 12 }, { 15, 15, 127, 10 }, { 15, 5, 0, 8 } },
    { "or_", DT_INT8, 4, 0, { -1, 0x55, -128, 12 }, { 15, 15, 127, 10 }, { -1, 95, -1, 14 } },
    { "xor", DT_INT8, 4, 0, { -1, 0x55, -128, 12 }, { 15, 15, 127, 10 }, { -16, 90, -1, 6 } },
    { "and_", DT_INT16, 2, 0, { -32768, 0x1234 }, { -1, 0xFF }, { -32768, 0x34 } },
    { "or_", DT_INT16, 2, 0, { -32768, 0x1234 }, { -1, 0xFF }, { -1, 0x12FF } },
    { "xor", DT_INT16, 2, 0, { -32768, 0x1234 }, { -1, 0xFF }, { 32767, 0x12CB } },
    { "and_", DT_INT32, 2, 0, { -1, 2147483647 }, { 0x12345678, -2147483648.0 }, { 0x12345678, 0 } },
    { "or_", DT_INT32, 2, 0, { -1, 2147483647 }, { 0x12345678, -2147483648.0 }, { -1, -1 } },
    { "xor", DT_INT32, 2, 0, { -1, 2147483647 }, { 0x12345678, -2147483648.0 }, { -305419897, -1 } },
    { "and_", DT_UINT8, 2, 0, { 0xF0, 0xFF }, { 0x3C, 1 }, { 0x30, 1 } },
    { "or_", DT_UINT8, 2, 0, { 0xF0, 0xFF }, { 0x3C, 1 }, { 0xFC, 255 } },
    { "xor", DT_UINT8, 2, 0, { 0xF0, 0xFF }, { 0x3C, 1 }, { 0xCC, 254 } },
    { "and_", DT_UINT16, 2, 0, { 65535, 32768 }, { 255, 32769 }, { 255, 32768 } },
    { "or_", DT_UINT16, 2, 0, { 65535, 32768 }, { 255, 32769 }, { 65535, 32769 } },
    { "xor", DT_UINT16, 2, 0, { 65535, 32768 }, { 255, 32769 }, { 65280, 1 } },
    { "and_", DT_UINT32, 2, 0, { 4294967295.0, 2147483648.0 }, { 1, 2147483648.0 }, { 1, 2147483648.0 } },
    { "or_", DT_UINT32, 2, 0, { 4294967295.0, 2147483648.0 }, { 1, 2147483648.0 }, { 4294967295.0, 2147483648.0 } },
    { "xor", DT_UINT32, 2, 0, { 4294967295.0, 2147483648.0 }, { 1, 2147483648.0 }, { 4294967294.0, 0 } },
    { "ands", DT_INT16, 2, 0xFF, { 0x0F0F, -1 }, { 0 }, { 15, 255 } },
    { "ors", DT_INT16, 2, 0xFF, { 0x0F0F, -1 }, { 0 }, { 0x0FFF, -1 } },
    { "xors", DT_INT16, 2, 0xFF, { 0x0F0F, -1 }, { 0 }, { 0x0FF0, -256 } },
    /* shifts: shl wraps; shr is arithmetic for signed, logical for unsigned */
    { "shl", DT_INT8, 5, 0, { 1, 64, -1, -128, 3 }, { 7, 1, 7, 0, 2 }, { -128, -128, -128, -128, 12 } },
    { "shr", DT_INT8, 5, 0, { 1, 64, -1, -128, 3 }, { 7, 1, 7, 0, 2 }, { 0, 32, -1, -128, 0 } },
    { "shl", DT_INT16, 3, 0, { 1, -32768, -5 }, { 15, 15, 1 }, { -32768, 0, -10 } },
    { "shr", DT_INT16, 3, 0, { 1, -32768, -5 }, { 15, 15, 1 }, { 0, -1, -3 } },
    { "shl", DT_INT32, 3, 0, { 1, -2147483648.0, -7 }, { 31, 31, 1 }, { -2147483648.0, 0, -14 } },
    { "shr", DT_INT32, 3, 0, { 1, -2147483648.0, -7 }, { 31, 31, 1 }, { 0, -1, -4 } },
    { "shl", DT_UINT8, 2, 0, { 255, 128 }, { 1, 7 }, { 254, 0 } },
    { "shr", DT_UINT8, 2, 0, { 255, 128 }, { 1, 7 }, { 127, 1 } },
    { "shl", DT_UINT16, 2, 0, { 65535, 32768 }, { 4, 15 }, { 65520, 0 } },
    { "shr", DT_UINT16, 2, 0, { 65535, 32768 }, { 4, 15 }, { 4095, 1 } },
    { "shl", DT_UINT32, 2, 0, { 4294967295.0, 2147483648.0 }, { 31, 31 }, { 2147483648.0, 0 } },
    { "shr", DT_UINT32, 2, 0, { 4294967295.0, 2147483648.0 }, { 31, 31 }, { 1, 1 } },
    { "shls", DT_INT32, 2, 2, { -8, 8 }, { 0 }, { -32, 32 } },
    { "shrs", DT_INT32, 2, 2, { -7, 8 }, { 0 }, { -2, 2 } },
    { "not_", DT_INT16, 4, 0, { 0, -1, 32767, -32768 }, { 0 }, { -1, 0, -32768, 32767 } },
    { "not_", DT_UINT16, 3, 0, { 0, 65535, 255 }, { 0 }, { 65535, 0, 65280 } },
    /* lrelu: the slope rounded to the element type first (0.1 -> 0x1.99999ap-4 in FP32, 0x1.998p-4 in
     * FP16: -3 * 0x1.998p-4 = -0x1.332p-2 ties to even -0x1.33p-2); 0 and -0 are not > 0 */
    { "lrelu", DT_FP32, 6, 0.1, { 2, -2, 0, -0.0, -INF, NaN }, { 0 }, { 2, -0x1.99999ap-3, 0, -0.0, -INF, NaN } },
    { "lrelu", DT_FP16, 2, 0.1, { 3, -3 }, { 0 }, { 3, -0x1.33p-2 } },
    { "lrelu", DT_BF16, 2, 0.25, { 1, -4 }, { 0 }, { 1, -1 } },
    { "prelu", DT_FP32, 3, 0, { 2, -2, -3 }, { 5, 0.5, -1 }, { 2, -1, 3 } },
    { "prelu", DT_FP16, 2, 0, { -1.5, 0 }, { 3, 3 }, { -4.5, 0 } },
    { "prelu", DT_BF16, 1, 0, { -1 }, { 0.125 }, { -0.125 } },
};

static bool is_scalar_op(const char *op) {
    size_t n = strlen(op);
    return strcmp(op, "lrelu") == 0 || (op[n - 1] == 's' && strcmp(op, "xor") != 0);
}

static void run_case(const Case *k, bool tile) {
    Env e;
    char what[96];
    snprintf(what, sizeof what, "%s.%s %s", tile ? "tile" : "tensor", k->op, dtype_name(k->dt));
    env_named(&e, what);
    if (!tile && strcmp(k->op, "prelu") == 0) { env_close(&e); return; }   /* tile only */
    bool scratch = tile && (!strcmp(k->op, "xor") || !strcmp(k->op, "xors") || !strcmp(k->op, "rem") || !strcmp(k->op, "rems") ||
                            !strcmp(k->op, "prelu"));
    Expr *args[3];
    int n = 0;
    args[n++] = arr(&e, k->dt, 1, k->n, 1, k->n, k->a, tile);
    if (is_scalar_op(k->op))
        args[n++] = dtype_is_float(k->dt) ? ir_const_float(e.c, k->s, DT_FP32) : ir_const_int(e.c, (int64_t)k->s, DT_INDEX);
    else if (strcmp(k->op, "not_") != 0) args[n++] = arr(&e, k->dt, 1, k->n, 1, k->n, k->b, tile);
    if (scratch) {
        static const double zeros[6] = { 0 };
        args[n++] = arr(&e, k->dt, 1, k->n, 1, k->n, zeros, true);
    }
    expect(&e, run(&e, call_of(&e, op_named(tile ? "tile" : "tensor", k->op), ty(&e, k->dt, 1, k->n, tile), args, n)), k->want, k->n);
    env_close(&e);
}

TEST(test_elementwise) {
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        run_case(&cases[i], true);
        run_case(&cases[i], false);
    }
}

/* Every op of the family has a case in every dtype the spec allows it. */
TEST(test_coverage) {
    static const struct { const char *ops; int n; DType dts[9]; } need[] = {
        { " fmod rem ", 8, { DT_FP32, DT_FP16, DT_BF16, DT_INT8, DT_INT16, DT_INT32, DT_UINT8, DT_UINT16 } },
        { " and_ or_ xor shl shr ", 6, { DT_INT8, DT_INT16, DT_INT32, DT_UINT8, DT_UINT16, DT_UINT32 } },
        { " not_ ", 2, { DT_INT16, DT_UINT16 } },
        { " lrelu prelu ", 3, { DT_FP32, DT_FP16, DT_BF16 } },
    };
    static const char *const ops[] = { "fmod", "rem", "and_", "or_", "xor", "shl", "shr", "not_", "lrelu", "prelu", NULL };
    for (int o = 0; ops[o]; o++) {
        char key[16];
        snprintf(key, sizeof key, " %s ", ops[o]);
        for (size_t g = 0; g < sizeof need / sizeof need[0]; g++) {
            if (!strstr(need[g].ops, key)) continue;
            for (int d = 0; d < need[g].n; d++) {
                bool found = false;
                for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) found |= !strcmp(cases[i].op, ops[o]) && cases[i].dt == need[g].dts[d];
                CHECK_MSG(found, "%s in %s has a case", ops[o], dtype_name(need[g].dts[d]));
            }
        }
    }
}

/* ---------------------------------------------------------------- expdif */
TEST(test_expdif) {
    static const struct { bool row; DType dt; double t[4], v[2], want[4]; } k[] = {
        /* exp(0) = 1, exp(1) = FP32(e) */
        { true, DT_FP32, { 1, 2, 3, 4 }, { 1, 3 }, { 1, 0x1.5bf0a8p+1, 1, 0x1.5bf0a8p+1 } },
        { false, DT_FP32, { 0, 1, 2, 3 }, { 0, 1 }, { 1, 1, 0x1.d8e64cp+2, 0x1.d8e64cp+2 } },
        /* FP16: 1 - 2^-12 is a tie and rounds to 1 before exp: FP16(e) = 0x1.5cp+1 (exp(1 - 2^-12) would
         * round to 0x1.5bcp+1) */
        { true, DT_FP16, { 1, 1, 0, 0 }, { 0x1p-12, 0 }, { 0x1.5cp+1, 0x1.5cp+1, 1, 1 } },
        { false, DT_BF16, { 0, 0, 1, 1 }, { 0, 1 }, { 1, 0x1.78p-2, 0x1.5cp+1, 1 } },
    };
    for (size_t i = 0; i < sizeof k / sizeof k[0]; i++)
        for (int tile = 0; tile < 2; tile++) {
            Env e;
            env_named(&e, k[i].row ? "row_expand_expdif" : "col_expand_expdif");
            Expr *args[2] = { arr(&e, k[i].dt, 2, 2, 2, 2, k[i].t, tile),
                              k[i].row ? arr(&e, k[i].dt, 2, 1, 2, 1, k[i].v, tile) : arr(&e, k[i].dt, 1, 2, 1, 2, k[i].v, tile) };
            OpId op = op_named(tile ? "tile" : "tensor", k[i].row ? "row_expand_expdif" : "col_expand_expdif");
            expect(&e, run(&e, call_of(&e, op, ty(&e, k[i].dt, 2, 2, tile), args, 2)), k[i].want, 4);
            env_close(&e);
        }
}

/* ---------------------------------------------------------------- part_* */
/* a [2, 4] valid [1, 3], b valid [2, 2]: the result's valid box is [2, 3]; (0, 0..1) both, (0, 2) a
 * only, (1, 0..1) b only, (1, 2) neither (0); outside the box 0. */
TEST(test_part) {
    static const double a[8] = { 1, 2, 3, 99, 98, 98, 98, 98 }, b[8] = { 10, 20, 97, 97, 30, 40, 97, 97 };
    static const struct { const char *op; double want[8]; } k[] = {
        { "part_add", { 11, 22, 3, 0, 30, 40, 0, 0 } },
        { "part_mul", { 10, 40, 3, 0, 30, 40, 0, 0 } },
        { "part_max", { 10, 20, 3, 0, 30, 40, 0, 0 } },
        { "part_min", { 1, 2, 3, 0, 30, 40, 0, 0 } },
    };
    static const DType dts[] = { DT_FP32, DT_FP16, DT_BF16, DT_INT8, DT_INT16, DT_INT32, DT_UINT8 };
    for (size_t i = 0; i < sizeof k / sizeof k[0]; i++)
        for (size_t d = 0; d < sizeof dts / sizeof dts[0]; d++) {
            Env e;
            char what[64];
            snprintf(what, sizeof what, "tile.%s %s", k[i].op, dtype_name(dts[d]));
            env_named(&e, what);
            Expr *args[2] = { arr(&e, dts[d], 2, 4, 1, 3, a, true), arr(&e, dts[d], 2, 4, 2, 2, b, true) };
            InterpArray *r = run(&e, call_of(&e, op_named("tile", k[i].op), ty(&e, dts[d], 2, 4, true), args, 2));
            expect(&e, r, k[i].want, 8);
            CHECK_MSG(!r || (r->valid[0] == 2 && r->valid[1] == 3), "%s: valid box [2, 3]", what);
            env_close(&e);
        }
    /* tensor form (wholly valid): the plain op; INT8 wraps, FP16 rounds once */
    Env e;
    env_named(&e, "tensor.part_add");
    static const double x[2] = { 100, -100 }, y[2] = { 100, -100 }, w[2] = { -56, 56 };
    Expr *args[2] = { arr(&e, DT_INT8, 1, 2, 1, 2, x, false), arr(&e, DT_INT8, 1, 2, 1, 2, y, false) };
    expect(&e, run(&e, call_of(&e, OP_TENSOR_PART_ADD, ty(&e, DT_INT8, 1, 2, false), args, 2)), w, 2);
    static const double p[2] = { 2048, 1 }, q[2] = { 1, 0x1p-11 }, pw[2] = { 2048, 1 };
    Expr *args2[2] = { arr(&e, DT_FP16, 1, 2, 1, 2, p, false), arr(&e, DT_FP16, 1, 2, 1, 2, q, false) };
    expect(&e, run(&e, call_of(&e, OP_TENSOR_PART_ADD, ty(&e, DT_FP16, 1, 2, false), args2, 2)), pw, 2);
    env_close(&e);
}

/* ---------------------------------------------------------------- run-time errors */
static void expect_error(const char *form, const char *op, DType dt, const double *a, const double *b, int nb_scalar,
                         const char *needle) {
    Env e;
    char what[64];
    snprintf(what, sizeof what, "%s.%s %s error", form, op, dtype_name(dt));
    env_named(&e, what);
    bool tile = !strcmp(form, "tile");
    Expr *args[3] = { arr(&e, dt, 1, 2, 1, 2, a, tile), NULL, NULL };
    int n = 2;
    args[1] = nb_scalar ? ir_const_int(e.c, (int64_t)b[0], DT_INDEX) : arr(&e, dt, 1, 2, 1, 2, b, tile);
    if (tile && (!strcmp(op, "rem") || !strcmp(op, "rems"))) args[n++] = arr(&e, dt, 1, 2, 1, 2, a, true);
    InterpValue out;
    bool ok = interp_eval_op(&e.ic, &e.f, call_of(&e, op_named(form, op), ty(&e, dt, 1, 2, tile), args, n), &out);
    if (ok) interp_release(out);
    CHECK_MSG(!ok, "%s: expected an error", what);
    CHECK_CONTAINS(last_msg(&e), needle);
    CHECK_CONTAINS(last_msg(&e), op);
    env_close(&e);
}

TEST(test_errors) {
    static const double a[2] = { 5, 7 }, zero_at_1[2] = { 3, 0 }, bad_count[2] = { 1, 8 }, neg_count[2] = { -1, 0 };
    static const double zero[1] = { 0 }, nine[1] = { 9 };
    expect_error("tile", "fmod", DT_INT32, a, zero_at_1, 0, "integer division by zero (row 0, column 1)");
    expect_error("tensor", "rem", DT_INT16, a, zero_at_1, 0, "integer division by zero");
    expect_error("tile", "fmods", DT_UINT8, a, zero, 1, "integer division by zero");
    expect_error("tensor", "rems", DT_INT8, a, zero, 1, "integer division by zero");
    expect_error("tile", "shl", DT_INT8, a, bad_count, 0, "shift count 8 is outside [0, 8)");
    expect_error("tensor", "shr", DT_INT16, a, neg_count, 0, "shift count -1 is outside [0, 16)");
    expect_error("tile", "shls", DT_UINT8, a, nine, 1, "shift count 9 is outside [0, 8)");
    /* float fmod by zero is IEEE, not an error */
    Env e;
    env_named(&e, "tile.fmod FP16 by zero");
    static const double fa[2] = { 1, -1 }, fb[2] = { 0, 0 }, want[2] = { NaN, NaN };
    Expr *args[2] = { arr(&e, DT_FP16, 1, 2, 1, 2, fa, true), arr(&e, DT_FP16, 1, 2, 1, 2, fb, true) };
    expect(&e, run(&e, call_of(&e, OP_TILE_FMOD, ty(&e, DT_FP16, 1, 2, true), args, 2)), want, 2);
    env_close(&e);
}

/* The interpreter's inline FP16 decode (interp_f16) against base's fp16_to_f32 on every bit pattern. */
static void test_f16_decode(void) {
    int bad = 0;
    for (uint32_t h = 0; h < 65536; h++) {
        float a = interp_f16((uint16_t)h), b = fp16_to_f32((uint16_t)h);
        if (memcmp(&a, &b, sizeof a)) bad++;
    }
    CHECK_EQ_INT(bad, 0);
}

int main(void) {
    RUN(test_f16_decode);
    RUN(test_elementwise);
    RUN(test_coverage);
    RUN(test_expdif);
    RUN(test_part);
    RUN(test_errors);
    return test_summary();
}
