/* sim/vec_move — data movement on the vector unit: ttrans (2-D transpose) and tconcat.
 *
 * Requires: per-buffer views of the run. Produces: the checks of these instructions at issue and
 * their effect on Vec memory. Does: element copies through the operands' views (any layout),
 * raw bytes, only dst's valid region written. The operands must not share dst's buffer (the
 * planner keeps them apart: not in-place safe). */
#include "sim/sim_int.h"

#include <string.h>

static bool move_error(SimRun *s, const MirInst *i, const char *what) {
    return sim_hard_error(s, i, "%s: %s", mir_vop_pto(i->vop), what);
}

bool sim_vop_check_move(SimRun *s, const MirInst *i) {
    bool concat = mir_vop_kind(i->vop) == MVK_CONCAT;
    if (!SIM_IS_VEC_BUF(s, i->dst) || !SIM_IS_VEC_BUF(s, i->src0) || (concat && !SIM_IS_VEC_BUF(s, i->src1)))
        return move_error(s, i, "missing operand or an operand outside Vec");
    const MirBuf *D = &s->k->bufs[i->dst], *A = &s->k->bufs[i->src0];
    if (A->dtype != D->dtype) return move_error(s, i, "dst and src0 differ in dtype");
    if (!concat) {
        if (D->valid_rows != A->valid_cols || D->valid_cols != A->valid_rows)
            return move_error(s, i, "dst's valid shape must be src0's transposed");
        return true;
    }
    const MirBuf *B = &s->k->bufs[i->src1];
    if (B->dtype != D->dtype || A->valid_rows != D->valid_rows || B->valid_rows != D->valid_rows ||
        A->valid_cols + B->valid_cols != D->valid_cols)
        return move_error(s, i, "dst must be [valid rows, valid cols of src0 + of src1] of two equal-row operands");
    return true;
}


bool sim_exec_vop_move(SimRun *s, const SimDyn *d) {
    const MirInst *i = d->inst;
    const SimView *D = &s->views[i->dst], *A = &s->views[i->src0];
    size_t eb = (size_t)D->eb;
    if (mir_vop_kind(i->vop) == MVK_TRANS) {
        for (int64_t r = 0; r < A->buf->valid_rows; r++)
            for (int64_t c = 0; c < A->buf->valid_cols; c++) memcpy(sim_elem_ptr(D, c, r), sim_elem_ptr(A, r, c), eb);
        return true;
    }
    const SimView *B = &s->views[i->src1];
    int64_t c0 = A->buf->valid_cols;
    for (int64_t r = 0; r < D->buf->valid_rows; r++) {
        for (int64_t c = 0; c < c0; c++) memcpy(sim_elem_ptr(D, r, c), sim_elem_ptr(A, r, c), eb);
        for (int64_t c = 0; c < B->buf->valid_cols; c++) memcpy(sim_elem_ptr(D, r, c0 + c), sim_elem_ptr(B, r, c), eb);
    }
    return true;
}
