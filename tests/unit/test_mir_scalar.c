/* test_mir_scalar — kernel scalar expressions (mir_eval_num): hand-computed values (checked with
 * CPython) for integer and float arithmetic, casts and float variables, and agreement with the
 * IR's evaluator (ir/scalar.c) on many operand pairs: a kernel computes what the interpreter does. */
#include "test.h"

#include "ir/ir.h"
#include "mir/mir.h"

static Kernel *K;
static int64_t vars[4];

static MirExpr *I(int64_t v) { return mir_const(K, v); }
static MirExpr *F(double v) { return mir_fconst(K, v); }
static MirExpr *B(MirBinOp op, MirExpr *a, MirExpr *b) { return mir_bin(K, op, a, b); }

static void want_int(const MirExpr *e, int64_t want) {
    MirNum n;
    bool ok = mir_eval_num(e, vars, &n);
    CHECK_MSG(ok && !n.fp && n.i == want, "ok %d fp %d value %lld, want int %lld", ok, n.fp, (long long)n.i, (long long)want);
}

static void want_float(const MirExpr *e, double want) {
    MirNum n;
    bool ok = mir_eval_num(e, vars, &n);
    CHECK_MSG(ok && n.fp && n.f == want && signbit(n.f) == signbit(want), "ok %d fp %d value %.17g, want float %.17g", ok,
              n.fp, n.f, want);
}

static void want_fail(const MirExpr *e) {
    MirNum n;
    CHECK_MSG(!mir_eval_num(e, vars, &n), "expected an evaluation error");
}

TEST(test_hand_values) {
    want_int(B(MB_FLOORDIV, I(-7), I(2)), -4);                 /* -7 // 2 */
    want_int(B(MB_FLOORMOD, I(-7), I(2)), 1);                  /* -7 % 2 */
    want_float(B(MB_DIV, I(7), I(2)), 3.5);                    /* 7 / 2 */
    want_float(B(MB_FLOORDIV, F(-7.5), I(2)), -4.0);           /* -7.5 // 2 */
    want_float(B(MB_FLOORMOD, F(-7.5), I(2)), 0.5);            /* -7.5 % 2 */
    want_float(B(MB_FLOORMOD, F(7.5), F(-2.0)), -0.5);         /* 7.5 % -2.0 */
    want_float(B(MB_FLOORMOD, F(4.0), F(-2.0)), -0.0);         /* 4.0 % -2.0: sign of the divisor */
    want_float(B(MB_ADD, F(0.1), F(0.2)), 0.30000000000000004);
    want_float(B(MB_MUL, I(3), F(0.5)), 1.5);
    want_int(B(MB_LT, F(2.5), I(3)), 1);
    want_int(B(MB_EQ, F(3.0), I(3)), 1);
    want_int(B(MB_MIN, I(2), F(2.5)), 2);                      /* min(2, 2.5): the int operand */
    want_float(mir_cast(K, B(MB_MIN, I(2), F(2.5)), DT_NONE), 2.0);   /* as the lowering types it */
    want_float(B(MB_MAX, I(2), F(2.5)), 2.5);
    want_float(mir_unary(K, MX_NEG, F(0.0)), -0.0);
    want_float(mir_unary(K, MX_ABS, F(-1.25)), 1.25);
    want_int(mir_unary(K, MX_ABS, I(-9)), 9);
    want_float(mir_cast(K, F(0.1), DT_FP32), (double)0.1f);
    want_float(mir_cast(K, F(1.0009765625 + 0.000244140625), DT_FP16), 1.0009765625);   /* a tie: to even */
    want_int(mir_cast(K, F(-2.75), DT_INT32), -2);             /* toward zero */
    want_int(mir_cast(K, I(300), DT_INT8), 44);                /* wraps */
    want_int(mir_cast(K, I(-1), DT_UINT16), 65535);
    want_float(mir_cast(K, I(5), DT_NONE), 5.0);
    want_fail(B(MB_DIV, F(1.0), F(0.0)));                      /* ZeroDivisionError */
    want_fail(B(MB_FLOORDIV, I(1), I(0)));
    want_fail(B(MB_MUL, I(INT64_MAX), I(2)));
    want_fail(mir_cast(K, F(NAN), DT_INT32));
    int64_t out;
    CHECK(mir_eval_checked(B(MB_DIV, I(9), I(2)), vars, &out) && out == 4);   /* a float used as an int: truncated */
}

TEST(test_float_variables) {
    int v = mir_add_var(K, "s"), w = mir_add_var(K, "n");
    mir_set_var_fp(K, v);
    double s = -1.5;
    memcpy(&vars[v], &s, sizeof s);
    vars[w] = 4;
    MirExpr *sv = mir_var(K, v), *nv = mir_var(K, w);
    CHECK(sv->fp && !nv->fp);
    want_float(B(MB_ADD, B(MB_MUL, sv, nv), F(0.25)), -5.75);  /* s * n + 0.25 */
    want_int(B(MB_GT, sv, nv), 0);
    for (int i = 0; i < 20; i++) mir_add_var(K, "grow");        /* the fp flags follow the variables' growth */
    CHECK(mir_var(K, v)->fp && !mir_var(K, w)->fp);
}

/* mir_eval_num and ir_scalar_binary agree on every operator for integer, float and mixed pairs. */
TEST(test_agrees_with_ir_scalar) {
    static const struct { MirBinOp m; BinOp b; } ops[] = {
        { MB_ADD, BIN_ADD }, { MB_SUB, BIN_SUB }, { MB_MUL, BIN_MUL }, { MB_DIV, BIN_DIV }, { MB_FLOORDIV, BIN_FLOORDIV },
        { MB_FLOORMOD, BIN_FLOORMOD }, { MB_MIN, BIN_MIN }, { MB_MAX, BIN_MAX }, { MB_EQ, BIN_EQ }, { MB_NE, BIN_NE },
        { MB_LT, BIN_LT }, { MB_LE, BIN_LE }, { MB_GT, BIN_GT }, { MB_GE, BIN_GE },
    };
    static const double fv[] = { -7.5, -2.0, -0.0, 0.0, 0.5, 3.0, 1e300, -3.25 };
    static const int64_t iv[] = { -7, -2, 0, 1, 3, 100, INT64_MAX, INT64_MIN };
    int disagree = 0, n = 0;
    for (size_t o = 0; o < sizeof ops / sizeof ops[0]; o++)
        for (int a = 0; a < 16; a++)
            for (int b = 0; b < 16; b++) {
                bool af = a < 8, bf = b < 8;
                MirExpr *ma = af ? F(fv[a]) : I(iv[a - 8]), *mb = bf ? F(fv[b]) : I(iv[b - 8]);
                ScalarVal sa = af ? ir_scalar_float(fv[a]) : ir_scalar_int(iv[a - 8]);
                ScalarVal sb = bf ? ir_scalar_float(fv[b]) : ir_scalar_int(iv[b - 8]);
                ScalarVal r;
                MirNum m;
                bool ir_ok = ir_scalar_binary(ops[o].b, sa, sb, &r) == SCALAR_OK;
                bool mir_ok = mir_eval_num(B(ops[o].m, ma, mb), vars, &m);
                n++;
                if (ir_ok != mir_ok) { disagree++; continue; }
                if (!ir_ok) continue;
                double rv = r.kind == SV_FLOAT ? r.f : (double)r.i, mv = m.fp ? m.f : (double)m.i;
                bool same = (rv == mv && signbit(rv) == signbit(mv)) || (rv != rv && mv != mv);
                if (r.kind != SV_FLOAT && !m.fp) same = r.i == m.i;
                if (!same || (r.kind == SV_FLOAT) != m.fp) {
                    if (disagree++ < 5) printf("  op %d on %d, %d: ir %.17g (float %d), mir %.17g (float %d)\n", (int)ops[o].m, a, b,
                                               rv, r.kind == SV_FLOAT, mv, m.fp);
                }
            }
    CHECK_MSG(disagree == 0, "%d of %d evaluations disagree with ir/scalar.c", disagree, n);
}

int main(void) {
    Arena *a = arena_new();
    K = mir_kernel_new(a, "k", CORE_AIV);
    RUN(test_hand_values);
    RUN(test_float_variables);
    RUN(test_agrees_with_ir_scalar);
    arena_free(a);
    return test_summary();
}
