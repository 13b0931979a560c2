/* test_sim_bits — the simulator's remainder, bitwise, leaky-relu, exp-difference and partial
 * instructions (src/sim/vec_bits.c): hand-computed results of tfmod trem tand tor txor tshl tshr
 * (and their scalar forms), tnot, tlrelu tprelu in every dtype they accept, texpdif on a DN row
 * vector and a row-major column vector, tpart* over differing valid regions (nothing outside dst's
 * valid region written), the run-time errors (integer division by zero, shift counts), the dtype
 * checks, and the cycle model of the new rows. */
#include "test.h"
#include "test_sim_util.h"

#define INF INFINITY

#include "test_vec_harness.h"

/* ---------------------------------------------------------------- element-wise table */
typedef struct ECase {
    MirVecOp op;
    DType dt;
    int n;
    double s;                 /* scalar forms: imm, a value of dt */
    double a[6], b[6], want[6];
} ECase;

static const ECase cases[] = {
    /* tfmod: truncated; float x % 0 = NaN (IEEE), x % inf = x */
    { VOP_FMOD, DT_FP32, 6, 0, { 5.5, -5.5, 5.5, -5.5, 1, 3 }, { 2, 2, -2, -2, 0, INF }, { 1.5, -1.5, 1.5, -1.5, NAN, 3 } },
    { VOP_FMOD, DT_FP16, 4, 0, { 7, -7, 0.75, 65504 }, { 3, 3, 0.5, 3 }, { 1, -1, 0.25, 2 } },
    { VOP_FMOD, DT_BF16, 3, 0, { 10, -10, 1.5 }, { 4, 4, 0.25 }, { 2, -2, 0 } },
    { VOP_FMOD, DT_INT8, 5, 0, { 7, -7, 7, -7, -128 }, { 3, 3, -3, -3, -1 }, { 1, -1, 1, -1, 0 } },
    { VOP_FMOD, DT_INT16, 3, 0, { 32767, -32768, 100 }, { 10, 7, -7 }, { 7, -1, 2 } },
    { VOP_FMOD, DT_INT32, 3, 0, { -2147483648.0, 2147483647, 9 }, { -1, 2, 4 }, { 0, 1, 1 } },
    { VOP_FMOD, DT_UINT8, 2, 0, { 255, 10 }, { 16, 3 }, { 15, 1 } },
    { VOP_FMOD, DT_UINT16, 2, 0, { 65535, 5 }, { 256, 7 }, { 255, 5 } },
    { VOP_FMODS, DT_FP32, 2, 2, { -5.5, 5.5 }, { 0 }, { -1.5, 1.5 } },
    { VOP_FMODS, DT_INT16, 2, 3, { -7, 7 }, { 0 }, { -1, 1 } },
    /* trem: floor modulo; the correction rounds once (1 - 2^-30 -> 1 in FP32, 2048 - 2^-14 -> 2048 in FP16) */
    { VOP_REM, DT_FP32, 6, 0, { 5.5, -5.5, 5.5, -5.5, -4, -0x1p-30 }, { 2, 2, -2, -2, 2, 1 }, { 1.5, 0.5, -0.5, -1.5, -0.0, 1 } },
    { VOP_REM, DT_FP16, 4, 0, { 7, -7, 7, -0x1p-14 }, { 3, 3, -3, 2048 }, { 1, 2, -2, 2048 } },
    { VOP_REM, DT_BF16, 3, 0, { 10, -10, 10 }, { 4, 4, -4 }, { 2, 2, -2 } },
    { VOP_REM, DT_INT8, 5, 0, { 7, -7, 7, -7, -128 }, { 3, 3, -3, -3, 127 }, { 1, 2, -2, -1, 126 } },
    { VOP_REM, DT_INT16, 2, 0, { -1, 32767 }, { 32767, -2 }, { 32766, -1 } },
    { VOP_REM, DT_INT32, 2, 0, { -7, 2147483647 }, { 2, -2147483648.0 }, { 1, -1 } },
    { VOP_REM, DT_UINT8, 1, 0, { 200 }, { 7 }, { 4 } },
    { VOP_REM, DT_UINT16, 1, 0, { 65535 }, { 1000 }, { 535 } },
    { VOP_REMS, DT_FP32, 2, 2, { 5.5, -5.5 }, { 0 }, { 1.5, 0.5 } },
    { VOP_REMS, DT_INT32, 2, -3, { -7, 7 }, { 0 }, { -1, -2 } },
    /* bit operations on the element bits */
    { VOP_AND, DT_INT8, 4, 0, { -1, 0x55, -128, 12 }, { 15, 15, 127, 10 }, { 15, 5, 0, 8 } },
    { VOP_OR, DT_INT8, 4, 0, { -1, 0x55, -128, 12 }, { 15, 15, 127, 10 }, { -1, 95, -1, 14 } },
    { VOP_XOR, DT_INT8, 4, 0, { -1, 0x55, -128, 12 }, { 15, 15, 127, 10 }, { -16, 90, -1, 6 } },
    { VOP_AND, DT_INT16, 2, 0, { -32768, 0x1234 }, { -1, 0xFF }, { -32768, 0x34 } },
    { VOP_OR, DT_INT16, 2, 0, { -32768, 0x1234 }, { -1, 0xFF }, { -1, 0x12FF } },
    { VOP_XOR, DT_INT16, 2, 0, { -32768, 0x1234 }, { -1, 0xFF }, { 32767, 0x12CB } },
    { VOP_AND, DT_INT32, 2, 0, { -1, 2147483647 }, { 0x12345678, -2147483648.0 }, { 0x12345678, 0 } },
    { VOP_OR, DT_INT32, 2, 0, { -1, 2147483647 }, { 0x12345678, -2147483648.0 }, { -1, -1 } },
    { VOP_XOR, DT_INT32, 2, 0, { -1, 2147483647 }, { 0x12345678, -2147483648.0 }, { -305419897, -1 } },
    { VOP_AND, DT_UINT8, 2, 0, { 0xF0, 0xFF }, { 0x3C, 1 }, { 0x30, 1 } },
    { VOP_OR, DT_UINT8, 2, 0, { 0xF0, 0xFF }, { 0x3C, 1 }, { 0xFC, 255 } },
    { VOP_XOR, DT_UINT8, 2, 0, { 0xF0, 0xFF }, { 0x3C, 1 }, { 0xCC, 254 } },
    { VOP_AND, DT_UINT16, 2, 0, { 65535, 32768 }, { 255, 32769 }, { 255, 32768 } },
    { VOP_OR, DT_UINT16, 2, 0, { 65535, 32768 }, { 255, 32769 }, { 65535, 32769 } },
    { VOP_XOR, DT_UINT16, 2, 0, { 65535, 32768 }, { 255, 32769 }, { 65280, 1 } },
    { VOP_AND, DT_UINT32, 2, 0, { 4294967295.0, 2147483648.0 }, { 1, 2147483648.0 }, { 1, 2147483648.0 } },
    { VOP_OR, DT_UINT32, 2, 0, { 4294967295.0, 2147483648.0 }, { 1, 2147483648.0 }, { 4294967295.0, 2147483648.0 } },
    { VOP_XOR, DT_UINT32, 2, 0, { 4294967295.0, 2147483648.0 }, { 1, 2147483648.0 }, { 4294967294.0, 0 } },
    { VOP_ANDS, DT_INT16, 2, 0xFF, { 0x0F0F, -1 }, { 0 }, { 15, 255 } },
    { VOP_ORS, DT_INT16, 2, 0xFF, { 0x0F0F, -1 }, { 0 }, { 0x0FFF, -1 } },
    { VOP_XORS, DT_INT16, 2, 0xFF, { 0x0F0F, -1 }, { 0 }, { 0x0FF0, -256 } },
    /* shifts: shl wraps, shr arithmetic (signed) / logical (unsigned) */
    { VOP_SHL, DT_INT8, 5, 0, { 1, 64, -1, -128, 3 }, { 7, 1, 7, 0, 2 }, { -128, -128, -128, -128, 12 } },
    { VOP_SHR, DT_INT8, 5, 0, { 1, 64, -1, -128, 3 }, { 7, 1, 7, 0, 2 }, { 0, 32, -1, -128, 0 } },
    { VOP_SHL, DT_INT16, 3, 0, { 1, -32768, -5 }, { 15, 15, 1 }, { -32768, 0, -10 } },
    { VOP_SHR, DT_INT16, 3, 0, { 1, -32768, -5 }, { 15, 15, 1 }, { 0, -1, -3 } },
    { VOP_SHL, DT_INT32, 3, 0, { 1, -2147483648.0, -7 }, { 31, 31, 1 }, { -2147483648.0, 0, -14 } },
    { VOP_SHR, DT_INT32, 3, 0, { 1, -2147483648.0, -7 }, { 31, 31, 1 }, { 0, -1, -4 } },
    { VOP_SHL, DT_UINT8, 2, 0, { 255, 128 }, { 1, 7 }, { 254, 0 } },
    { VOP_SHR, DT_UINT8, 2, 0, { 255, 128 }, { 1, 7 }, { 127, 1 } },
    { VOP_SHL, DT_UINT16, 2, 0, { 65535, 32768 }, { 4, 15 }, { 65520, 0 } },
    { VOP_SHR, DT_UINT16, 2, 0, { 65535, 32768 }, { 4, 15 }, { 4095, 1 } },
    { VOP_SHL, DT_UINT32, 2, 0, { 4294967295.0, 2147483648.0 }, { 31, 31 }, { 2147483648.0, 0 } },
    { VOP_SHR, DT_UINT32, 2, 0, { 4294967295.0, 2147483648.0 }, { 31, 31 }, { 1, 1 } },
    { VOP_SHLS, DT_INT32, 2, 2, { -8, 8 }, { 0 }, { -32, 32 } },
    { VOP_SHRS, DT_INT32, 2, 2, { -7, 8 }, { 0 }, { -2, 2 } },
    { VOP_NOT, DT_INT16, 4, 0, { 0, -1, 32767, -32768 }, { 0 }, { -1, 0, -32768, 32767 } },
    { VOP_NOT, DT_UINT16, 3, 0, { 0, 65535, 255 }, { 0 }, { 65535, 0, 65280 } },
    /* tlrelu with the slope already a value of the dtype (0x1.99999ap-4 = FP32(0.1), 0x1.998p-4 = FP16(0.1)) */
    { VOP_LRELU, DT_FP32, 6, 0x1.99999ap-4, { 2, -2, 0, -0.0, -INF, NAN }, { 0 }, { 2, -0x1.99999ap-3, 0, -0.0, -INF, NAN } },
    { VOP_LRELU, DT_FP16, 2, 0x1.998p-4, { 3, -3 }, { 0 }, { 3, -0x1.33p-2 } },
    { VOP_LRELU, DT_BF16, 2, 0.25, { 1, -4 }, { 0 }, { 1, -1 } },
    { VOP_PRELU, DT_FP32, 3, 0, { 2, -2, -3 }, { 5, 0.5, -1 }, { 2, -1, 3 } },
    { VOP_PRELU, DT_FP16, 2, 0, { -1.5, 0 }, { 3, 3 }, { -4.5, 0 } },
    { VOP_PRELU, DT_BF16, 1, 0, { -1 }, { 0.125 }, { -0.125 } },
};

/* [2, cols] buffers with valid [1, n]: dst = a op b / a op s / op(a) */
static void run_case(const ECase *e, int idx) {
    VT t;
    vt_init(&t);
    int64_t cols = 32 / dtype_bytes(e->dt);
    MirVecKind vk = mir_vop_kind(e->op);
    int a = vb(&t, "a", 0, e->dt, 2, cols, 1, e->n, false);
    int bb = vb(&t, "b", 1024, e->dt, 2, cols, 1, e->n, false);
    int d = vb(&t, "d", 2048, e->dt, 2, cols, 1, e->n, false);
    MirInst *i = vop(&t, e->op, d, a, vk == MVK_BINARY ? bb : -1);
    i->imm = e->s;
    fill_buf(&t, d, SENTINEL);
    for (int j = 0; j < e->n; j++) { put(&t, a, 0, j, e->a[j]); put(&t, bb, 0, j, e->b[j]); }
    bool ok = vt_run(&t);
    CHECK_MSG(ok, "case %d %s %s runs: %s", idx, mir_vop_pto(e->op), dtype_name(e->dt), t.err);
    for (int j = 0; ok && j < e->n; j++) {
        double got = get(&t, d, 0, j);
        CHECK_MSG(same(got, e->want[j]), "case %d %s %s element %d: got %a, want %a", idx, mir_vop_pto(e->op), dtype_name(e->dt), j,
                  got, e->want[j]);
    }
    CHECK_MSG(touched_outside(&t, d, 1, e->n, SENTINEL) == 0, "case %d %s writes outside the valid region", idx, mir_vop_pto(e->op));
    vt_free(&t);
}

TEST(test_elementwise) {
    for (int c = 0; c < (int)(sizeof cases / sizeof cases[0]); c++) run_case(&cases[c], c);
}

/* Every element-wise instruction of the family has a case in every dtype it accepts. */
TEST(test_coverage) {
    static const DType fl[] = { DT_FP32, DT_FP16, DT_BF16 };
    static const DType in[] = { DT_INT8, DT_INT16, DT_INT32, DT_UINT8, DT_UINT16, DT_UINT32 };
    for (int op = 0; op < VOP_COUNT; op++) {
        MirVecFn fn = mir_vop_fn((MirVecOp)op);
        MirVecKind vk = mir_vop_kind((MirVecOp)op);
        if (vk != MVK_BINARY && vk != MVK_UNARY && vk != MVK_SCALAR) continue;
        if (!(fn >= MVF_FMOD || op == VOP_NOT)) continue;
        bool scalar = vk == MVK_SCALAR;
        DType need[9];
        int n = 0;
        if (op == VOP_NOT) { need[n++] = DT_INT16; need[n++] = DT_UINT16; }
        else if (fn == MVF_FMOD || fn == MVF_REM) {
            if (scalar) { need[n++] = DT_FP32; need[n++] = fn == MVF_FMOD ? DT_INT16 : DT_INT32; }
            else { for (int i = 0; i < 3; i++) need[n++] = fl[i]; for (int i = 0; i < 5; i++) need[n++] = in[i]; }
        } else if (fn == MVF_PRELU) for (int i = 0; i < 3; i++) need[n++] = fl[i];
        else if (scalar) need[n++] = fn == MVF_AND || fn == MVF_OR || fn == MVF_XOR ? DT_INT16 : DT_INT32;
        else for (int i = 0; i < 6; i++) need[n++] = in[i];
        for (int d = 0; d < n; d++) {
            bool found = false;
            for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) found |= cases[c].op == (MirVecOp)op && cases[c].dt == need[d];
            CHECK_MSG(found, "%s in %s has a case", mir_vop_pto((MirVecOp)op), dtype_name(need[d]));
        }
    }
}

/* ---------------------------------------------------------------- expdif */
/* matrix [4, 8] FP32 valid [2, 3]; row vector DN [8, 1] valid [2, 1]; column vector [1, 8] valid [1, 3] */
TEST(test_expdif) {
    static const double m[2][3] = { { 1, 2, 3 }, { 4, 5, 6 } };
    for (int row = 0; row < 2; row++) {
        VT t;
        vt_init(&t);
        int a = vb(&t, "m", 0, DT_FP32, 4, 8, 2, 3, false);
        int v = row ? vb(&t, "v", 1024, DT_FP32, 8, 1, 2, 1, true) : vb(&t, "v", 1024, DT_FP32, 1, 8, 1, 3, false);
        int d = vb(&t, "d", 2048, DT_FP32, 4, 8, 2, 3, false);
        vop(&t, row ? VOP_ROWEXPANDEXPDIF : VOP_COLEXPANDEXPDIF, d, a, v);
        fill_buf(&t, d, SENTINEL);
        for (int r = 0; r < 2; r++)
            for (int c = 0; c < 3; c++) put(&t, a, r, c, m[r][c]);
        /* row: v = (1, 4) -> exp(0, 1, 2) per row; col: v = (1, 2, 1) -> (exp 0, exp 0, exp 2), (exp 3, exp 3, exp 5) */
        if (row) { put(&t, v, 0, 0, 1); put(&t, v, 1, 0, 4); }
        else { put(&t, v, 0, 0, 1); put(&t, v, 0, 1, 2); put(&t, v, 0, 2, 1); }
        static const double e0 = 1, e1 = 0x1.5bf0a8p+1, e2 = 0x1.d8e64cp+2, e3 = 0x1.415e5cp+4, e5 = 0x1.28d38ap+7;
        double want_row[2][3] = { { e0, e1, e2 }, { e0, e1, e2 } }, want_col[2][3] = { { e0, e0, e2 }, { e3, e3, e5 } };
        bool ok = vt_run(&t);
        CHECK_MSG(ok, "%s runs: %s", row ? "trowexpandexpdif" : "tcolexpandexpdif", t.err);
        for (int r = 0; ok && r < 2; r++)
            for (int c = 0; c < 3; c++) {
                double want = row ? want_row[r][c] : want_col[r][c], got = get(&t, d, r, c);
                CHECK_MSG(same(got, want), "%s (%d, %d): got %a, want %a", row ? "row" : "col", r, c, got, want);
            }
        CHECK_MSG(touched_outside(&t, d, 2, 3, SENTINEL) == 0, "expdif writes only the valid region");
        vt_free(&t);
    }
    /* FP16: the difference 1 - 2^-12 is a tie rounded to 1 before exp: FP16(e) = 0x1.5cp+1 */
    VT t;
    vt_init(&t);
    int a = vb(&t, "m", 0, DT_FP16, 1, 16, 1, 1, false);
    int v = vb(&t, "v", 1024, DT_FP16, 16, 1, 1, 1, true);
    int d = vb(&t, "d", 2048, DT_FP16, 1, 16, 1, 1, false);
    vop(&t, VOP_ROWEXPANDEXPDIF, d, a, v);
    put(&t, a, 0, 0, 1);
    put(&t, v, 0, 0, 0x1p-12);
    CHECK(vt_run(&t) && same(get(&t, d, 0, 0), 0x1.5cp+1));
    vt_free(&t);
}

/* ---------------------------------------------------------------- tpart* */
/* src0 [4, 8] valid [1, 3] (DN), src1 valid [2, 2], dst valid [2, 3]: both / src0 only / src1 only / neither (0) */
TEST(test_part) {
    static const struct { MirVecOp op; double want[2][3]; } k[] = {
        { VOP_PARTADD, { { 11, 22, 3 }, { 30, 40, 0 } } },
        { VOP_PARTMUL, { { 10, 40, 3 }, { 30, 40, 0 } } },
        { VOP_PARTMAX, { { 10, 20, 3 }, { 30, 40, 0 } } },
        { VOP_PARTMIN, { { 1, 2, 3 }, { 30, 40, 0 } } },
    };
    static const DType dts[] = { DT_FP32, DT_FP16, DT_BF16, DT_INT8, DT_INT16, DT_INT32, DT_UINT8 };
    for (size_t i = 0; i < sizeof k / sizeof k[0]; i++)
        for (size_t di = 0; di < sizeof dts / sizeof dts[0]; di++) {
            DType dt = dts[di];
            int64_t cols = 32 / dtype_bytes(dt);
            VT t;
            vt_init(&t);
            int a = vb(&t, "a", 0, dt, cols, cols, 1, 3, true);
            int b = vb(&t, "b", 4096, dt, 4, cols, 2, 2, false);
            int d = vb(&t, "d", 8192, dt, 4, cols, 2, 3, false);
            vop(&t, k[i].op, d, a, b);
            fill_buf(&t, a, 99);
            fill_buf(&t, b, 97);
            fill_buf(&t, d, SENTINEL);
            put(&t, a, 0, 0, 1); put(&t, a, 0, 1, 2); put(&t, a, 0, 2, 3);
            put(&t, b, 0, 0, 10); put(&t, b, 0, 1, 20); put(&t, b, 1, 0, 30); put(&t, b, 1, 1, 40);
            bool ok = vt_run(&t);
            CHECK_MSG(ok, "%s %s runs: %s", mir_vop_pto(k[i].op), dtype_name(dt), t.err);
            for (int r = 0; ok && r < 2; r++)
                for (int c = 0; c < 3; c++)
                    CHECK_MSG(same(get(&t, d, r, c), k[i].want[r][c]), "%s %s (%d, %d): got %g, want %g", mir_vop_pto(k[i].op),
                              dtype_name(dt), r, c, get(&t, d, r, c), k[i].want[r][c]);
            CHECK_MSG(touched_outside(&t, d, 2, 3, SENTINEL) == 0, "%s %s writes only dst's valid region", mir_vop_pto(k[i].op), dtype_name(dt));
            vt_free(&t);
        }
    /* INT8 wraps where both are valid */
    VT t;
    vt_init(&t);
    int a = vb(&t, "a", 0, DT_INT8, 1, 32, 1, 2, false), b = vb(&t, "b", 64, DT_INT8, 1, 32, 1, 1, false);
    int d = vb(&t, "d", 128, DT_INT8, 1, 32, 1, 2, false);
    vop(&t, VOP_PARTADD, d, a, b);
    put(&t, a, 0, 0, 100); put(&t, a, 0, 1, -100); put(&t, b, 0, 0, 100);
    CHECK(vt_run(&t) && get(&t, d, 0, 0) == -56 && get(&t, d, 0, 1) == -100);
    vt_free(&t);
}

/* ---------------------------------------------------------------- errors */
static void expect_error(MirVecOp op, DType dt, double a1, double b1, double imm, const char *needle) {
    VT t;
    vt_init(&t);
    int64_t cols = 32 / dtype_bytes(dt);
    int a = vb(&t, "a", 0, dt, 1, cols, 1, 2, false), b = vb(&t, "b", 1024, dt, 1, cols, 1, 2, false);
    int d = vb(&t, "d", 2048, dt, 1, cols, 1, 2, false);
    MirInst *i = vop(&t, op, d, a, mir_vop_kind(op) == MVK_BINARY || mir_vop_kind(op) == MVK_PART ? b : -1);
    i->imm = imm;
    put(&t, a, 0, 0, 5); put(&t, a, 0, 1, a1);
    put(&t, b, 0, 0, 1); put(&t, b, 0, 1, b1);
    CHECK_MSG(!vt_run(&t), "%s %s fails", mir_vop_pto(op), dtype_name(dt));
    CHECK_CONTAINS(t.err, needle);
    CHECK_CONTAINS(t.err, mir_vop_pto(op));
    vt_free(&t);
}

TEST(test_errors) {
    expect_error(VOP_FMOD, DT_INT32, 7, 0, 0, "integer division by zero computing element (0, 1)");
    expect_error(VOP_REM, DT_UINT16, 7, 0, 0, "integer division by zero");
    expect_error(VOP_FMODS, DT_INT8, 7, 0, 0, "integer division by zero computing element (0, 0)");
    expect_error(VOP_REMS, DT_INT16, 7, 0, 0, "integer division by zero");
    expect_error(VOP_SHL, DT_INT8, 1, 8, 0, "shift count 8 is outside [0, 8) computing element (0, 1)");
    expect_error(VOP_SHR, DT_INT32, 1, -1, 0, "shift count -1 is outside [0, 32)");
    expect_error(VOP_SHLS, DT_UINT16, 1, 0, 16, "shift count 16 is outside [0, 16)");
    /* dtype checks at issue */
    expect_error(VOP_AND, DT_FP32, 1, 1, 0, "bit operations take integer dtypes");
    expect_error(VOP_NOT, DT_INT32, 1, 1, 0, "tnot takes INT16 or UINT16");
    expect_error(VOP_LRELU, DT_INT16, 1, 1, 0, "needs a float dtype");
    expect_error(VOP_PARTADD, DT_UINT16, 1, 1, 0, "partial ops take");
}

/* ---------------------------------------------------------------- cycles */
static int64_t cycles_of(MirVecOp op, DType dt, int64_t vr, int64_t vc) {
    Arena *ar = arena_new();
    Kernel *k = mir_kernel_new(ar, "c", CORE_AIV);
    MirBuf d = tbuf("d", MS_VEC, 0, dt, vr, vc, NDL, 0), s = tbuf("s", MS_VEC, 65536, dt, vr, vc, NDL, 0);
    int di = mir_add_buf(k, d), si = mir_add_buf(k, s);
    MirInst *i = mir_inst_new(k, MI_VOP, PIPE_V);
    i->vop = op; i->dst = di; i->src0 = si; i->src1 = si;
    int64_t c = sim_inst_cycles(T(), k, i);
    arena_free(ar);
    return c;
}

TEST(test_cycles) {
    /* head + slope * rows * ceil(row bytes / 256) (+16 for a binary ALU op with a partial repeat) */
    CHECK_EQ_INT(cycles_of(VOP_AND, DT_INT32, 16, 64), 8 + 2 * 16);
    CHECK_EQ_INT(cycles_of(VOP_AND, DT_INT32, 16, 40), 8 + 2 * 16 + 16);
    CHECK_EQ_INT(cycles_of(VOP_XOR, DT_INT16, 8, 128), 8 + 6 * 8);
    CHECK_EQ_INT(cycles_of(VOP_NOT, DT_INT16, 16, 128), 8 + 2 * 16);
    CHECK_EQ_INT(cycles_of(VOP_FMOD, DT_FP32, 4, 128), 11 + 4 * 8);
    CHECK_EQ_INT(cycles_of(VOP_SHLS, DT_INT32, 4, 64), 11 + 4);
    CHECK_EQ_INT(cycles_of(VOP_PRELU, DT_FP16, 2, 128), 13 + 4 * 2);
    CHECK_EQ_INT(cycles_of(VOP_PARTADD, DT_FP32, 16, 64), 10 + 2 * 16);
    CHECK_EQ_INT(cycles_of(VOP_ROWEXPANDEXPDIF, DT_FP32, 8, 64), 15 * 8 + 35);
}

int main(void) {
    RUN(test_elementwise);
    RUN(test_coverage);
    RUN(test_expdif);
    RUN(test_part);
    RUN(test_errors);
    RUN(test_cycles);
    return test_summary();
}
