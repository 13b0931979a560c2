/* AutoTileL1 — the (mb, nb, kb) chooser (docs/passes/AutoTileL1.md §3).
 * Requires: a matmul problem (M, N, K, dtypes, transposes) and the Mat budget.
 * Produces: the output block mb x nb and the K chunk kb of the rung-3 form, with the model's cycles.
 * Does: enumerates power-of-two blocks (and the whole extent when it is smaller); keeps those whose
 *       double-buffered operand chunks fit Mat and whose carried accumulator the L0 chooser accepts as
 *       one output-stationary L0 block under the stage-2 pipeline (the same config AutoTileMatmulL0
 *       builds, budgets halved) — full and tail blocks alike — with the L0 bytes its tiles will occupy
 *       (head chunk included) within L0A / L0B; scores each by
 *       sum over blocks of (first chunk load + chunks x max(cube, GM->L1 load) + drain). A transposed
 *       INT8 left operand's M blocks are multiples of its 32-row boxes; the M tail is padded to them. */
#include "pass/auto_tile_l1.h"
#include "tile/tile.h"

static int64_t align_up(int64_t x, int64_t a) { return (x + a - 1) / a * a; }

/* The part of a buffer AutoTileL1 may plan for: all of it, less an eighth per retry (PassCtx.l1_shrink). */
int64_t at_l1_shrunk(const PassCtx *ctx, int64_t bytes) { return bytes / 8 * (8 - ctx->l1_shrink); }

int64_t at_l1_mat_bytes(const Target *t, DType dt, int64_t rows, int64_t cols) {
    int64_t eb = dtype_bytes(dt), cbox = eb ? 32 / eb : 16;
    (void)t;
    return align_up(rows, 16) * align_up(cols, cbox < 16 ? 16 : cbox) * eb;
}

/* Cycles one K chunk [m, n, k] keeps the cube side busy once its loads have landed, with L0 tiles of
 * k-step kt: the MAD time (the simulator's: mad_head per TMATMUL plus one unit per 16 x 16 x K-box
 * fractal, fp32 passes) or the L1 -> L0 extracts (bw_a / bw_b), whichever is longer — the two overlap
 * through the ping-pong L0 buffers. Not the L0 chooser's cost, which serialises them. */
static int64_t chunk_cube_cycles(const Target *t, const L1Problem *p, int64_t m, int64_t n, int64_t k, int64_t kt) {
    const L0CostModel *cm = &t->cost;
    int64_t ea = dtype_bytes(p->a), eb = dtype_bytes(p->b);
    int64_t kbox = cm->mad_k_fractal_bytes / ea, cpr = ea == 4 ? cm->mad_fp32_passes : ea / 2;
    if (kbox < 1) kbox = 1;
    if (cpr < 1) cpr = 1;
    int64_t steps = (k + kt - 1) / kt;
    int64_t mad = steps * cm->mad_head + cpr * ((m + 15) / 16) * ((k + kbox - 1) / kbox) * ((n + 15) / 16);
    double mte1 = (double)(align_up(m, 16) * align_up(k, 16) * ea) / cm->bw_a +
                  (double)(align_up(k, 16) * align_up(n, 16) * eb) / cm->bw_b;
    return (double)mad > mte1 ? mad : (int64_t)mte1;
}

/* The L0 chooser's verdict on the accumulator [m, n] over a K chunk k, run as AutoTileMatmulL0 will:
 * output-stationary (the whole block one L0 block, else PH-AT-006 downstream), L0A/L0B/L0C divided by
 * the enclosing pipeline's stages (2 for the chunk loop, 1 for the head chunk). Then the L0A / L0B bytes
 * its tiles will really occupy (*ua, *ub): per stage clone one k-tile and, when the tile does not divide
 * the chunk, the peeled K tail's tile; the Right tile's n boxed to 16 (the chooser counts it unpadded). */
static bool l0_usage(PassCtx *ctx, const L1Problem *p, int64_t m, int64_t n, int64_t k, int64_t stages, bool whole_acc,
                     int64_t *ua, int64_t *ub, int64_t *cycles) {
    const Target *t = ctx->target;
    *ua = *ub = 0;
    if (k == 0) return true;
    TilePassOpts o;
    tile_pass_opts_defaults(&o);
    o.memory_planner = (TileMemoryPlanner)ctx->planner;
    o.is_matmul_acc = true;
    o.force_output_stationary = true;
    int64_t ea = dtype_bytes(p->a), eb = dtype_bytes(p->b);
    if (p->a_trans && 32 / ea > t->l0_align) o.lhs_zn_rows = 32 / ea;
    if (p->b_trans && 32 / eb > t->l0_align) o.rhs_zn_rows = 32 / eb;
    /* the left operand's rows are boxed to 16 (ConvertTensorToTileOps), a transposed INT8 one's to its 32
     * (the M tail block's Mat tile is padded to them, as a whole matmul's is) */
    m = align_up(m, o.lhs_zn_rows > 16 ? o.lhs_zn_rows : 16);
    if (n < t->l0_min) return false;          /* below the cube minimum: PH-AT-005, untiled */
    L0TileConfig cfg;
    tile_pass_config(&cfg, t, m, n, k, p->a, p->b, p->c, &o);
    cfg.min_m = m, cfg.min_n = n;
    cfg.l0a_bytes /= stages, cfg.l0b_bytes /= stages;
    if (!whole_acc) cfg.l0c_bytes /= stages;
    L0TileResult r;
    char err[512];
    if (!tile_choose_l0(&cfg, &r, err, sizeof err) || r.m != m || r.n != n) return false;
    int64_t kt = k % r.k, np = align_up(n, 16);
    /* the accumulator as allocated: its columns boxed to 16 (the chooser counts n unpadded: a5's
     * [288, 225] FP32 block was 259,200 bytes counted, 276,480 allocated, over L0C's 262,144) */
    if (align_up(m, cfg.l0c_align_m) * np * dtype_bytes(p->c) > cfg.l0c_bytes) return false;
    *ua = stages * (m * align_up(r.k, 16) * ea + (kt ? m * align_up(kt, 16) * ea : 0));
    *ub = stages * (align_up(r.k, 16) * np * eb + (kt ? align_up(kt, 16) * np * eb : 0));
    *cycles = chunk_cube_cycles(t, p, m, n, k, r.k);
    return true;
}

/* A block shape [m, n] over all of K: the pipelined chunks of kb, the head chunk (outside the pipeline)
 * when it is a different size, and a sub-fractal K head (left untiled, whole in L0, one 32-byte K box of
 * each operand). Their L0 tiles are summed: the head's are not shared with the loop's (its loads are
 * hoisted beside the loop's), so all must fit L0A / L0B together. */
static bool l0_accepts(PassCtx *ctx, const L1Problem *p, int64_t m, int64_t n, int64_t kb, int64_t kal, bool tight,
                       int64_t *cycles) {
    const Target *t = ctx->target;
    int64_t head = p->K % kb ? p->K % kb : kb, tiled_head = head - head % kal, ua, ub, ha, hb, unused;
    if (!l0_usage(ctx, p, m, n, kb, 2, tight, &ua, &ub, cycles)) return false;
    if (tiled_head != kb && !l0_usage(ctx, p, m, n, tiled_head, 1, tight, &ha, &hb, &unused)) return false;
    if (tiled_head == kb) ha = hb = 0;
    /* the sub-fractal head's K extent in bytes, boxed to 32 (FP32: 12 elements are 48 bytes, two boxes) */
    int64_t subk = p->K % t->l0_align, sa = align_up(subk * dtype_bytes(p->a), 32), sb = align_up(subk * dtype_bytes(p->b), 32);
    ua += ha + align_up(m, 16) * sa, ub += hb + align_up(n, 16) * sb;
    return ua <= at_l1_shrunk(ctx, t->capacity[MS_LEFT]) && ub <= at_l1_shrunk(ctx, t->capacity[MS_RIGHT]);
}

/* Cycles of one block [m, n] over all of K: the chunks stream through the two Mat buffers, so after
 * the first load each chunk costs the slower of its cube time and its GM->L1 load; then the drain. */
static double block_cycles(PassCtx *ctx, const L1Problem *p, int64_t m, int64_t n, int64_t kb, int64_t cube) {
    const Target *t = ctx->target;
    int64_t chunks = (p->K + kb - 1) / kb;
    double load = t->dma_fixed_cycles * 2 +
                  (double)(at_l1_mat_bytes(t, p->a, m, kb) + at_l1_mat_bytes(t, p->b, kb, n)) / t->bw_gm_to_mat;
    double step = (double)cube > load ? (double)cube : load;
    /* the accumulator's FIX drain to GM (the simulator's tstore-from-Acc model) */
    double row = (double)(n * dtype_bytes(p->c)) / t->cost.bw_drain;
    double drain = t->cost.drain_fixed_cycles + (double)m * (row > t->cost.drain_row_cycles ? row : t->cost.drain_row_cycles);
    return load + (double)chunks * step + drain;
}

/* Block sizes for an extent: powers of two from al up to 512, each also balanced (the same block count,
 * the size ceil(ext / blocks) aligned to al) and, when its tail would be under the cube minimum (16:
 * such a tail block cannot be tiled — FP32's N = 4614 leaves 6 after every power of two), one
 * alignment step smaller; and the whole extent when at most 512. */
static int extent_candidates(int64_t ext, int64_t al, int64_t *out) {
    int n = 0;
    for (int64_t v = al; v <= 512 && v < ext; v *= 2) {
        int64_t blocks = (ext + v - 1) / v, bal = align_up((ext + blocks - 1) / blocks, al);
        out[n++] = v;
        if (bal != v && bal < ext) out[n++] = bal;
        if (ext % v && ext % v < 16 && v - al >= al && ext % (v - al) >= 16) out[n++] = v - al;
    }
    if (ext <= 512) out[n++] = ext;
    return n;
}

static bool score(PassCtx *ctx, const L1Problem *p, int64_t mb, int64_t nb, int64_t kb, int64_t kal, int64_t budget,
                  bool tight, L1Choice *c) {
    const Target *t = ctx->target;
    /* Tight (uniform blocks and chunks only: every block and chunk one shape, the head chunk a full
     * one): the head chunk's Mat tiles take the last stage's buffers (MemoryReuse) and its L0 tiles the
     * loop's (AutoTileMatmulL0 tiles a chain head with the pipeline's budget), and the carried
     * accumulator has the whole L0C (the clones chain one value). Otherwise, conservatively, the head
     * keeps buffers of its own beside the two stage buffers and L0C is split per stage, as for any
     * pipelined tile: ragged tails and sub-fractal heads add shapes whose placement is not predicted. */
    int64_t mat = (tight ? 2 : 3) * (at_l1_mat_bytes(t, p->a, mb, kb) + at_l1_mat_bytes(t, p->b, kb, nb));
    if (mat > budget) return false;
    int64_t mt = p->M % mb, nt = p->N % nb, cyc[4];
    /* every block shape that occurs must be accepted: full, M tail, N tail, corner */
    if (!l0_accepts(ctx, p, mb, nb, kb, kal, tight, &cyc[0])) return false;
    if (mt && !l0_accepts(ctx, p, mt, nb, kb, kal, tight, &cyc[1])) return false;
    if (nt && !l0_accepts(ctx, p, mb, nt, kb, kal, tight, &cyc[2])) return false;
    if (mt && nt && !l0_accepts(ctx, p, mt, nt, kb, kal, tight, &cyc[3])) return false;
    int64_t fm = p->M / mb, fn = p->N / nb;
    double total = (double)(fm * fn) * block_cycles(ctx, p, mb, nb, kb, cyc[0]);
    if (mt) total += (double)fn * block_cycles(ctx, p, mt, nb, kb, cyc[1]);
    if (nt) total += (double)fm * block_cycles(ctx, p, mb, nt, kb, cyc[2]);
    if (mt && nt) total += block_cycles(ctx, p, mt, nt, kb, cyc[3]);
    *c = (L1Choice){ mb, nb, kb, 0, total > 9e18 ? INT64_MAX : (int64_t)total, mat };
    return true;
}

bool at_l1_choose(PassCtx *ctx, const L1Problem *p, int64_t budget, L1Choice *out, const char **why) {
    const Target *t = ctx->target;
    budget = at_l1_shrunk(ctx, budget);
    int64_t kal = t->l0_align, eb = dtype_bytes(p->b), ea = dtype_bytes(p->a);
    if (p->b_trans && 32 / eb > kal) kal = 32 / eb;
    if (32 / ea > kal) kal = 32 / ea;         /* an INT8 K steps by its 32-byte box */
    /* a transposed INT8 A is boxed in 32 rows along M: its blocks start on whole boxes, the M tail's Mat
     * tile is padded to them (as a whole matmul's is) */
    int64_t zn = p->a_trans && 32 / ea > t->l0_align ? 32 / ea : 0;
    int64_t ms[32], ns[32], ks[48];
    int nm = extent_candidates(p->M, zn ? zn : 16, ms), nn = extent_candidates(p->N, 16, ns), nk = 0;
    int64_t kfull = p->K / kal * kal;
    for (int64_t v = kal; v <= 2048 && v < kfull; v *= 2) ks[nk++] = v;
    if (kfull > 0 && kfull <= 2048) ks[nk++] = kfull;
    /* chunks that divide K: no ragged head, one chunk shape (fewer distinct L0 tiles to place) */
    for (int64_t q = 2; q <= 64 && nk < 32; q++)
        if (p->K % q == 0 && (p->K / q) % kal == 0 && p->K / q <= 2048 && p->K / q >= 128) ks[nk++] = p->K / q;
    bool found = false;
    for (int i = 0; i < nm; i++)
        for (int j = 0; j < nn; j++)
            for (int q = 0; q < nk; q++) {
                L1Choice c, ct;
                bool uniform = p->M % ms[i] == 0 && p->N % ns[j] == 0 && p->K % ks[q] == 0;
                bool ok = score(ctx, p, ms[i], ns[j], ks[q], kal, budget, false, &c);
                if (uniform && score(ctx, p, ms[i], ns[j], ks[q], kal, budget, true, &ct) && (!ok || ct.cycles < c.cycles))
                    c = ct, ok = true;
                if (!ok) continue;
                c.kal = kal;
                /* ties: fewer blocks, then the larger K chunk (fewer loop trips) */
                if (!found || c.cycles < out->cycles ||
                    (c.cycles == out->cycles && c.mb * c.nb > out->mb * out->nb) ||
                    (c.cycles == out->cycles && c.mb * c.nb == out->mb * out->nb && c.kb > out->kb))
                    *out = c, found = true;
            }
    if (!found)
        *why = "no output block and K chunk both fit Mat (double-buffered) and form one L0 accumulator block";
    return found;
}
