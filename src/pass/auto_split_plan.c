/* auto_split_plan — the cost model of AutoSplitCores: estimated per-core time of an output block
 * and the choice of the core grid (issue 11 point 2).
 *
 * Requires: target.h (cube rate, GM -> Mat bandwidth and its shared cap, drain, per-task dispatch).
 * Produces: split_plan (auto_split.h).
 * Does: a block bm x bn x K on one core costs
 *     dispatch_cycles + max(cube, load) + drain
 *   cube  = ceil(bm/16) * ceil(bn/16) * ceil(K / kfrac) * passes   (kfrac = mad_k_fractal_bytes / operand
 *           bytes; passes = mad_fp32_passes for FP32 operands), the L0 chooser's MAD rate;
 *   load  = dma_fixed_cycles + (bm + bn) * K * operand bytes / bw_gm_to_mat, overlapped with the cube
 *           (the double-buffered GM -> L1 loads of AutoTileL1 hide the shorter of the two);
 *   drain = drain_fixed_cycles + bm * bn * accumulator bytes / bw_drain.
 *   With B blocks the GM figures (bw_gm_to_mat, bw_drain) are those one of B cores streaming at once
 *   gets (target_share_gm: capped at bw_gm_shared / B, docs/sim.md "Shared GM bandwidth").
 *   The makespan of a grid is the slowest block's (all blocks run at once, one per core). Candidate
 *   grids divide M and N evenly into 16-aligned blocks (a dimension may stay whole), use at most
 *   `cores` blocks, and give blocks of at least SPLIT_MIN_BLOCK_OUTPUTS outputs. The best is the
 *   smallest makespan, then the least GM traffic over all blocks (squarer blocks), then fewer
 *   blocks, then the taller block (bm >= bn: 4 x 6 rather than 6 x 4 for 6144^3 on 24 cores, the
 *   reference GEMM's grid). The split is made when the gain t1 / tn is at least SPLIT_MIN_GAIN.
 *   A block with an epilogue is a mixed kernel split UP_DOWN over its cluster's two vector cores
 *   (AutoSplitCores sets pl.split(UP_DOWN) on the region): bm must be a multiple of 32 and the half
 *   block's estimated vector working set (vec_bytes_per_output per output: the cross-core ring's two
 *   slots, a temporary, the epilogue's full-shape operands) must fit Vec. */
#include "pass/auto_split.h"

#include <math.h>

static double ceil_div(double a, double b) { return ceil(a / b); }

static void block_cost(const Target *t, int64_t bm, int64_t bn, int64_t K, DType in, DType acc,
                       double *time, double *traffic) {
    double eb = (double)dtype_bytes(in), ab = (double)dtype_bytes(acc);
    double kfrac = (double)t->cost.mad_k_fractal_bytes / eb;
    if (kfrac < 1) kfrac = 1;
    double passes = in == DT_FP32 ? (double)t->cost.mad_fp32_passes : 1.0;
    double cube = ceil_div((double)bm, 16) * ceil_div((double)bn, 16) * ceil_div((double)K, kfrac) * passes;
    double bytes = ((double)bm + (double)bn) * (double)K * eb;
    double load = t->dma_fixed_cycles + bytes / t->bw_gm_to_mat;
    double drain = t->cost.drain_fixed_cycles + (double)bm * (double)bn * ab / t->cost.bw_drain;
    *time = t->dispatch_cycles + (cube > load ? cube : load) + drain;
    *traffic = bytes;
}

/* a better than b: makespan, then traffic, then fewer blocks, then the taller block */
static bool better(const SplitPlan *a, const SplitPlan *b) {
    double eps = 1e-9 * (a->tn > b->tn ? a->tn : b->tn);
    if (fabs(a->tn - b->tn) > eps) return a->tn < b->tn;
    if (fabs(a->traffic - b->traffic) > 1e-9 * b->traffic) return a->traffic < b->traffic;
    if (a->gm * a->gn != b->gm * b->gn) return a->gm * a->gn < b->gm * b->gn;
    return a->bm >= a->bn && b->bm < b->bn;
}

/* The block size of a dimension split g ways, or 0 when g does not divide it into 16-aligned blocks. */
static int64_t block_of(int64_t dim, int g, bool uneven) {
    if (g == 1) return dim;
    if (uneven) {                                 /* ceil(dim / g) aligned to 16; the last block at least
                                                     the cube minimum (a sliver of N = 2 cannot be tiled) */
        int64_t b = (dim + g - 1) / g;
        b = (b + 15) / 16 * 16;
        return dim - b * (g - 1) >= 16 ? b : 0;
    }
    if (dim % g != 0) return 0;
    int64_t b = dim / g;
    return b % 16 == 0 ? b : 0;
}

/* A mixed block (epilogue) runs split UP_DOWN over the cluster's two vector cores: each gets bm / 2
 * rows, which must stay 16-aligned, and its estimated working set must fit Vec. */
static bool vec_fits(const Target *t, const SplitShape *s, int64_t bm, int64_t bn) {
    if (!s->epilogue) return true;
    if (bm % 32 != 0) return false;
    return (double)(bm / 2) * (double)bn * s->vec_bytes_per_output <= (double)t->capacity[MS_VEC];
}

static bool plan(const Target *t, int cores, const SplitShape *s, bool uneven, SplitPlan *out) {
    double tr;
    int64_t M = s->M, N = s->N, K = s->K;
    DType in = s->in, acc = s->acc;
    SplitPlan best = { .gm = 1, .gn = 1, .bm = M, .bn = N };
    block_cost(t, M, N, K, in, acc, &best.t1, &tr);
    best.tn = best.t1;
    best.traffic = tr;
    double t1 = best.t1;
    for (int gm = 1; gm <= cores; gm++) {
        int64_t bm = block_of(M, gm, uneven);
        if (!bm) continue;
        for (int gn = 1; gm * gn <= cores; gn++) {
            int64_t bn = block_of(N, gn, uneven);
            if (!bn || (gm * gn > 1 && (double)bm * (double)bn < SPLIT_MIN_BLOCK_OUTPUTS)) continue;
            if (gm * gn > 1 && !vec_fits(t, s, bm, bn)) continue;
            SplitPlan c = { .gm = gm, .gn = gn, .bm = bm, .bn = bn, .t1 = t1 };
            Target shared;                              /* the blocks stream from GM at once */
            block_cost(target_share_gm(t, (int64_t)gm * gn, &shared), bm, bn, K, in, acc, &c.tn, &tr);
            c.traffic = tr * gm * gn;
            if (better(&c, &best)) best = c;
        }
    }
    *out = best;
    return best.gm * best.gn > 1 && best.t1 >= SPLIT_MIN_GAIN * best.tn;
}

bool split_plan(const Target *t, int cores, const SplitShape *s, SplitPlan *out) { return plan(t, cores, s, false, out); }

bool split_plan_uneven(const Target *t, int cores, const SplitShape *s, SplitPlan *out) { return plan(t, cores, s, true, out); }
