/* sim/vec_cmp — compare and select on the vector unit (tcmp, tcmps, tsel; spec/ops.md §4.8).
 *
 * Requires: per-buffer views of the run; the scalar operand of tcmps evaluated at issue (SimDyn.off0)
 * or the instruction's imm.
 * Produces: the checks of these instructions at issue and their effect on Vec memory.
 * Does: a compare writes a packed predicate mask: the predicate of column c of row r is bit c % 8
 * (LSB first) of byte c / 8 of mask row r, bits beyond the valid columns 0; every comparison with a
 * NaN is false except ne. A select reads the mask the same way, per row (decision 7), and copies the
 * element of src1 where the bit is set, of src2 where it is not. Only dst's valid region is written. */
#include "sim/sim_int.h"

#include <string.h>

static bool cmp_error(SimRun *s, const MirInst *i, const char *what) {
    return sim_hard_error(s, i, "%s: %s", mir_vop_pto(i->vop), what);
}

bool sim_vop_check_cmp(SimRun *s, const MirInst *i) {
    MirVecKind vk = mir_vop_kind(i->vop);
    const Kernel *k = s->k;
    bool sel = vk == MVK_SEL || vk == MVK_SELS;
    if (!SIM_IS_VEC_BUF(s, i->dst) || !SIM_IS_VEC_BUF(s, i->src0) || ((vk == MVK_CMP || sel) && !SIM_IS_VEC_BUF(s, i->src1)) ||
        (vk == MVK_SEL && !SIM_IS_VEC_BUF(s, i->src2)))
        return cmp_error(s, i, "missing operand or an operand outside Vec");
    const MirBuf *D = &k->bufs[i->dst], *A = &k->bufs[i->src0];
    if (sel) {
        const MirBuf *X = &k->bufs[i->src1], *Y = vk == MVK_SEL ? &k->bufs[i->src2] : X;
        if (X->dtype != D->dtype || Y->dtype != D->dtype) return cmp_error(s, i, "the selected operands and dst differ in dtype");
        if (X->valid_rows != D->valid_rows || X->valid_cols != D->valid_cols || Y->valid_rows != D->valid_rows ||
            Y->valid_cols != D->valid_cols)
            return cmp_error(s, i, "valid shapes of dst and the selected operands differ");
        if (A->dtype != DT_UINT8 || A->rows < D->valid_rows || A->cols * 8 < D->valid_cols)
            return cmp_error(s, i, "the mask (src0) must be UINT8 covering dst's valid rows and columns (8 per byte)");
        return true;
    }
    if (i->mode < MCMP_EQ || i->mode > MCMP_GE) return cmp_error(s, i, "compare mode out of range");
    if (vk == MVK_CMP) {
        const MirBuf *B = &k->bufs[i->src1];
        if (B->dtype != A->dtype || B->valid_rows != A->valid_rows || B->valid_cols != A->valid_cols)
            return cmp_error(s, i, "the compared operands differ in dtype or valid shape");
    }
    if (D->dtype != DT_UINT8 || D->valid_rows != A->valid_rows || D->valid_cols != (A->valid_cols + 7) / 8)
        return cmp_error(s, i, "dst must be a UINT8 mask of valid shape [valid rows, ceil(valid cols / 8)] of src0");
    return true;
}

static bool pred(int mode, double a, double b) {
    switch (mode) {
    case MCMP_EQ: return a == b;
    case MCMP_NE: return a != b;
    case MCMP_LT: return a < b;
    case MCMP_LE: return a <= b;
    case MCMP_GT: return a > b;
    default: return a >= b;
    }
}


/* Elements are compared as doubles: exact for every vector dtype (integers of at most 32 bits). */
static void exec_cmp(SimRun *s, const SimDyn *d, bool scalar) {
    const MirInst *i = d->inst;
    const SimView *D = &s->views[i->dst], *A = &s->views[i->src0], *B = scalar ? NULL : &s->views[i->src1];
    DType t = A->buf->dtype;
    double sv = 0;
    if (scalar) sv = sim_vop_scalar(d, t);
    int64_t R = A->buf->valid_rows, C = A->buf->valid_cols;
    for (int64_t r = 0; r < R; r++)
        for (int64_t w = 0; w * 8 < C; w++) {
            uint8_t byte = 0;
            for (int64_t bit = 0; bit < 8 && w * 8 + bit < C; bit++) {
                int64_t c = w * 8 + bit;
                double a = sim_read_elem(t, sim_elem_ptr(A, r, c)), b = scalar ? sv : sim_read_elem(t, sim_elem_ptr(B, r, c));
                if (pred(i->mode, a, b)) byte |= (uint8_t)(1u << bit);
            }
            *sim_elem_ptr(D, r, w) = byte;
        }
}

/* sel: src1 where the bit is set, src2 where not; sels: the scalar (converted to dst's element type
 * as the other scalar forms are) where not. */
static void exec_sel(SimRun *s, const SimDyn *d, bool scalar) {
    const MirInst *i = d->inst;
    const SimView *D = &s->views[i->dst], *M = &s->views[i->src0], *X = &s->views[i->src1];
    const SimView *Y = scalar ? NULL : &s->views[i->src2];
    int eb = D->eb;
    uint8_t sv[8] = { 0 };
    if (scalar) {
        DType t = D->buf->dtype;
        sim_write_elem(t, sv, sim_vop_scalar(d, t));
    }
    for (int64_t r = 0; r < D->buf->valid_rows; r++)
        for (int64_t c = 0; c < D->buf->valid_cols; c++) {
            bool on = (*sim_elem_ptr(M, r, c / 8) >> (c % 8)) & 1u;
            memmove(sim_elem_ptr(D, r, c), on ? sim_elem_ptr(X, r, c) : scalar ? sv : sim_elem_ptr(Y, r, c), (size_t)eb);
        }
}

bool sim_exec_vop_cmp(SimRun *s, const SimDyn *d) {
    MirVecKind vk = mir_vop_kind(d->inst->vop);
    if (vk == MVK_SEL || vk == MVK_SELS) exec_sel(s, d, vk == MVK_SELS);
    else exec_cmp(s, d, vk == MVK_CMPS);
    return true;
}
