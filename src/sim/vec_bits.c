/* sim/vec_bits — the remainder, bitwise, leaky-relu, exp-difference and partial instructions of the
 * vector unit (tfmod trem tand tor txor tshl tshr (+ scalar forms), tnot, tprelu tlrelu,
 * t{row,col}expandexpdif, tpart{add,mul,max,min}); spec/ops.md §4.1–§4.3, §4.7, docs/vector.md.
 *
 * Requires: vec.c (the element-wise driver calls the dense kernels here for the functions
 * MVF_FMOD and after; tnot is a unary kernel of vec_row.c); per-buffer views of the run.
 * Produces: the dtype rule of these instructions, their dense row kernels, and tpart* (check and
 * execution).
 * Does, per element (pto-isa ElementOp.h / TPartOp.hpp):
 *   fmod   float: C fmod in double (exact, so one rounding); integer: C %, truncated.
 *   rem    fmod, then + the divisor when (a >= 0) != (b >= 0) and the result is not 0 (floor modulo;
 *          the sum rounds once into the element type).
 *   and / or / xor / shl / shr on integers; shl wraps in the element width; shr of a signed type is
 *          arithmetic, of an unsigned one logical. A shift count outside [0, bits) is a run-time error
 *          (undefined upstream; ptoc rejects constant counts at compile time).
 *   prelu / lrelu  a > 0 ? a : a * b (one rounding).   expdif  exp(a - b), the difference rounded to
 *          the element type first, exp in double, rounded once.
 *   An integer fmod / rem by 0 is a run-time error (the driver names the op and the element).
 *   tpart*: over dst's valid region, src0 fn src1 where both are valid, the valid one's element where
 *          only one is, 0 where neither is. */
#include "sim/sim_int.h"

#include <math.h>
#include <string.h>

bool sim_vfn_is_bits(MirVecFn fn) { return fn >= MVF_FMOD; }

const char *sim_vop_bits_dtype_error(MirVecOp op, DType dt) {
    MirVecFn fn = mir_vop_fn(op);
    bool is_int = !dtype_is_float(dt);
    if (op == VOP_NOT) return dt == DT_INT16 || dt == DT_UINT16 ? NULL : "tnot takes INT16 or UINT16";
    if (fn >= MVF_AND && fn <= MVF_SHR) return is_int ? NULL : "bit operations take integer dtypes";
    if (fn == MVF_PRELU || fn == MVF_EXPDIF) return is_int ? "needs a float dtype (FP16, BF16, FP32)" : NULL;
    if (mir_vop_kind(op) == MVK_PART && !(dtype_is_float(dt) || dt == DT_INT8 || dt == DT_INT16 || dt == DT_INT32 || dt == DT_UINT8))
        return "partial ops take FP16, BF16, FP32, INT8, INT16, INT32 or UINT8";
    return NULL;
}

/* ---------------------------------------------------------------- dense kernels */

void sim_vrow_bits_d(MirVecFn fn, DType dt, double *o, const double *a, const double *b, int64_t n) {
    for (int64_t j = 0; j < n; j++) {
        double x = a[j], y = b[j], r;
        switch (fn) {
        case MVF_FMOD: r = fmod(x, y); break;
        case MVF_REM:
            r = fmod(x, y);
            if ((x >= 0) != (y >= 0) && r != 0) r += y;   /* double then the store's rounding: one rounding (53 >= 2p + 2) */
            break;
        case MVF_PRELU: r = x > 0 ? x : x * y; break;
        case MVF_EXPDIF: r = exp(dtype_round_float(dt, x - y)); break;
        default: PTOC_ASSERT(false, "not a float bit-family function: %d", (int)fn); r = 0;
        }
        o[j] = r;
    }
}

static int64_t shift_right(int64_t x, int64_t k) { return x < 0 ? ~(~x >> k) : x >> k; }   /* arithmetic, no impl.-defined >> */

int64_t sim_vrow_bits_i(MirVecFn fn, DType dt, int64_t *o, const int64_t *a, const int64_t *b, int64_t n) {
    int bits = dtype_bits(dt);
    for (int64_t j = 0; j < n; j++) {
        int64_t x = a[j], y = b[j], r;
        switch (fn) {
        case MVF_FMOD: case MVF_REM:
            if (y == 0) return j;
            r = x % y;                                    /* |values| < 2^32: no INT64_MIN % -1 */
            if (fn == MVF_REM && (x >= 0) != (y >= 0) && r != 0) r += y;
            break;
        case MVF_AND: r = x & y; break;
        case MVF_OR: r = x | y; break;
        case MVF_XOR: r = x ^ y; break;
        case MVF_SHL: case MVF_SHR:
            if (y < 0 || y >= bits) return j;
            r = fn == MVF_SHL ? (int64_t)((uint64_t)x << y) : shift_right(x, y);   /* the store wraps */
            break;
        case MVF_PRELU: r = x > 0 ? x : (int64_t)((uint64_t)x * (uint64_t)y); break;
        default: PTOC_ASSERT(false, "not an integer bit-family function: %d", (int)fn); r = 0;
        }
        o[j] = r;
    }
    return -1;
}

/* ---------------------------------------------------------------- tpart* */

bool sim_vop_check_part(SimRun *s, const MirInst *i) {
    if (!SIM_IS_VEC_BUF(s, i->dst) || !SIM_IS_VEC_BUF(s, i->src0) || !SIM_IS_VEC_BUF(s, i->src1))
        return sim_hard_error(s, i, "%s: missing operand or an operand outside Vec", mir_vop_pto(i->vop));
    const MirBuf *D = &s->k->bufs[i->dst], *A = &s->k->bufs[i->src0], *B = &s->k->bufs[i->src1];
    if (A->dtype != D->dtype || B->dtype != D->dtype)
        return sim_hard_error(s, i, "%s: operand dtypes differ (dst %s, src0 %s, src1 %s)", mir_vop_pto(i->vop),
                              dtype_name(D->dtype), dtype_name(A->dtype), dtype_name(B->dtype));
    const char *bad = sim_vop_bits_dtype_error(i->vop, D->dtype);
    if (bad) return sim_hard_error(s, i, "%s: %s, not %s", mir_vop_pto(i->vop), bad, dtype_name(D->dtype));
    return true;
}

static int64_t min64(int64_t a, int64_t b) { return a < b ? a : b; }

/* Columns [0, n) of row r of v when r is a valid row, else none. */
static int64_t valid_span(const SimView *v, int64_t r, int64_t cols) {
    return r < v->buf->valid_rows ? min64(v->buf->valid_cols, cols) : 0;
}

bool sim_exec_vop_part(SimRun *s, const SimDyn *d) {
    const MirInst *i = d->inst;
    const SimView *D = &s->views[i->dst], *A = &s->views[i->src0], *B = &s->views[i->src1];
    MirVecFn fn = mir_vop_fn(i->vop);
    int64_t R = D->buf->valid_rows, C = D->buf->valid_cols;
    if (R <= 0 || C <= 0) return true;
    PTOC_ASSERT(C < INT32_MAX / 3, "vector scratch of %lld elements", (long long)C);
    vec_reserve(&s->c->vrow, (int)(3 * C) + 1);
    bool fl = dtype_is_float(D->buf->dtype);
    double *fa = s->c->vrow.data, *fb = fa + C, *fo = fb + C;
    int64_t *ia = (int64_t *)(void *)fa, *ib = ia + C, *io = ib + C;
    for (int64_t r = 0; r < R; r++) {
        int64_t na = valid_span(A, r, C), nb = valid_span(B, r, C), both = min64(na, nb);
        if (fl) {
            sim_vrow_load_d(A, r, 0, na, fa);
            sim_vrow_load_d(B, r, 0, nb, fb);
            sim_vrow_bin_d(fn, fo, fa, fb, both);
            for (int64_t j = both; j < C; j++) fo[j] = j < na ? fa[j] : j < nb ? fb[j] : 0.0;
            sim_vrow_store_d(D, r, C, fo);
        } else {
            sim_vrow_load_i(A, r, 0, na, ia);
            sim_vrow_load_i(B, r, 0, nb, ib);
            sim_vrow_bin_i(fn, io, ia, ib, both);        /* add mul max min: no divisor */
            for (int64_t j = both; j < C; j++) io[j] = j < na ? ia[j] : j < nb ? ib[j] : 0;
            sim_vrow_store_i(D, r, C, io);
        }
    }
    return true;
}
