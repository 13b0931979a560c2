/* sim/vec_arg — the index reductions of the vector unit: trowargmax / trowargmin (one index per
 * row) and tcolargmax / tcolargmin (one index per column).
 *
 * Requires: per-buffer views of the run; the row loaders of vec_row.c.
 * Produces: the checks of these instructions at issue and their effect on Vec memory.
 * Does: pto-isa's TReduceIdx: the best value starts as the first valid element of the line and is
 * replaced only by a strictly greater (argmax) / smaller (argmin) element, so ties give the first
 * occurrence; a NaN never compares true, so a NaN in the first place keeps index 0 and a NaN later
 * is skipped. Elements are compared as doubles (exact for every vector dtype). The result is an
 * INT32 (or UINT32) index in [0, valid extent); the scratch operand (src1) is not read. */
#include "sim/sim_int.h"

static bool arg_error(SimRun *s, const MirInst *i, const char *what) {
    const MirBuf *D = &s->k->bufs[i->dst], *A = &s->k->bufs[i->src0];
    return sim_hard_error(s, i, "%s: %s (dst %s %s valid %lldx%lld, src0 %s %s valid %lldx%lld)", mir_vop_pto(i->vop), what,
                          D->name, dtype_name(D->dtype), (long long)D->valid_rows, (long long)D->valid_cols, A->name,
                          dtype_name(A->dtype), (long long)A->valid_rows, (long long)A->valid_cols);
}

bool sim_vop_check_arg(SimRun *s, const MirInst *i) {
    bool row = mir_vop_kind(i->vop) == MVK_ROW_ARG;
    if (!SIM_IS_VEC_BUF(s, i->dst) || !SIM_IS_VEC_BUF(s, i->src0) || (i->src1 >= 0 && !SIM_IS_VEC_BUF(s, i->src1)))
        return sim_hard_error(s, i, "%s: missing operand or an operand outside Vec", mir_vop_pto(i->vop));
    const MirBuf *D = &s->k->bufs[i->dst], *A = &s->k->bufs[i->src0];
    if (D->dtype != DT_INT32 && D->dtype != DT_UINT32) return arg_error(s, i, "the index result must be INT32 or UINT32");
    if (dtype_bytes(A->dtype) > 4 || !dtype_is_supported(A->dtype) || A->dtype == DT_BOOL)
        return arg_error(s, i, "the source must be a vector element type");
    if (A->valid_rows <= 0 || A->valid_cols <= 0) return arg_error(s, i, "the source's valid region is empty");
    if (row && (D->valid_rows != A->valid_rows || D->valid_cols != 1))
        return arg_error(s, i, "the result's valid shape must be [valid rows of src0, 1]");
    if (!row && (D->valid_rows != 1 || D->valid_cols != A->valid_cols))
        return arg_error(s, i, "the result's valid shape must be [1, valid cols of src0]");
    if (row && (A->blayout != ML_ROW_MAJOR || A->slayout != ML_NONE_BOX)) return arg_error(s, i, "the source must be row-major ND");
    if (!row && (D->blayout != ML_ROW_MAJOR || D->slayout != ML_NONE_BOX)) return arg_error(s, i, "the result must be row-major ND");
    return true;
}

/* Whether v replaces the best value so far: strictly better (NaN compares false either way). */
static bool better(bool max, double v, double best) { return max ? v > best : v < best; }

bool sim_exec_vop_arg(SimRun *s, const SimDyn *d) {
    const MirInst *i = d->inst;
    const SimView *D = &s->views[i->dst], *A = &s->views[i->src0];
    int64_t R = A->buf->valid_rows, C = A->buf->valid_cols;
    bool max = mir_vop_fn(i->vop) == MVF_MAX;
    vec_reserve(&s->c->vrow, (int)(3 * C + 1));
    double *row = s->c->vrow.data, *best = row + C;
    int64_t *idx = (int64_t *)(void *)(best + C);
    if (mir_vop_kind(i->vop) == MVK_ROW_ARG) {
        for (int64_t r = 0; r < R; r++) {
            sim_vrow_load_d(A, r, 0, C, row);
            int64_t k = 0;
            for (int64_t c = 1; c < C; c++)
                if (better(max, row[c], row[k])) k = c;
            sim_vrow_store_i(D, r, 1, &k);
        }
        return true;
    }
    sim_vrow_load_d(A, 0, 0, C, best);                     /* columns walked top to bottom, row by row */
    for (int64_t c = 0; c < C; c++) idx[c] = 0;
    for (int64_t r = 1; r < R; r++) {
        sim_vrow_load_d(A, r, 0, C, row);
        for (int64_t c = 0; c < C; c++)
            if (better(max, row[c], best[c])) { best[c] = row[c]; idx[c] = r; }
    }
    sim_vrow_store_i(D, 0, C, idx);
    return true;
}
