/* score — explanation helpers over the chooser's own arithmetic: the full cost breakdown of one
 * candidate (tile_score), candidate legality (tile_candidate_legal), the six-key comparison and the
 * per-regime top-N ranking used by `ptoc tile` to show runner-ups. Not on the chooser hot path. */
#include <limits.h>
#include <stdlib.h>

#include "tile/tile_int.h"

static int64_t tile_sat_add(int64_t a, int64_t b) {
    int64_t r;
    return __builtin_add_overflow(a, b, &r) ? INT64_MAX : r;
}

static int64_t tile_sat_mul(int64_t a, int64_t b) {
    int64_t r;
    return tile_mul(a, b, &r) ? r : INT64_MAX;
}

/* §7.2: the A/B parts follow the C_load route; saturates at INT64_MAX (inspection only). */
static int64_t tile_traffic(const TileCtx *c, const TilePair *p, int64_t k, Stationarity st) {
    const L0TileConfig *g = c->cfg;
    int64_t cdm = g->M / p->m + (g->M % p->m != 0), cdn = g->N / p->n + (g->N % p->n != 0);
    int64_t a_part, b_part;
    bool full = k >= g->K;
    if (st == STAT_A || (st == STAT_OUTPUT && full && p->holds_a)) {
        a_part = c->amk;
        b_part = tile_sat_mul(c->bkn, cdm);
    } else if (st == STAT_B || (st == STAT_OUTPUT && full)) {
        a_part = tile_sat_mul(c->amk, cdn);
        b_part = c->bkn;
    } else {
        a_part = tile_sat_mul(c->amk, cdn);
        b_part = tile_sat_mul(c->bkn, cdm);
    }
    int64_t c_part = tile_sat_mul(tile_sat_mul(tile_sat_mul(g->c_read ? 2 : 1, g->bytes_c), g->M), g->N);
    return tile_sat_add(tile_sat_add(a_part, b_part), c_part);
}

static bool tile_basic_valid(const L0TileConfig *g) {
    return g->M > 0 && g->N > 0 && g->K > 0 && g->bytes_a > 0 && g->bytes_b > 0 && g->bytes_c > 0 &&
           g->min_m > 0 && g->min_n > 0 && g->min_k > 0 && g->align_m > 0 && g->align_n > 0 && g->align_k > 0 &&
           g->l0c_align_m > 0 && g->box_align_m > 0 && g->box_align_n > 0 && g->drain_c0_bytes > 0;
}

bool tile_score(const L0TileConfig *g, int64_t m, int64_t n, int64_t k, Stationarity st, bool dbc,
                TileScore *out) {
    if (!tile_basic_valid(g) || m <= 0 || n <= 0 || k <= 0) return false;
    TileCtx c;
    tile_ctx_init(&c, g);
    int64_t bm, bn;
    if (!tile_alignup(m, g->box_align_m, &bm) || !tile_alignup(n, g->box_align_n, &bn)) return false;
    TilePair p;
    TileCand cand;
    if (!tile_pair_init(&c, m, n, bm, bn, INT64_MAX, INT64_MAX, st, &p)) return false;
    if (!tile_eval_k(&c, &p, k, dbc, &cand)) return false;
    *out = (TileScore){
        .m = m, .n = n, .k = k, .stat = st, .dbc = dbc,
        .held_a = p.held_a, .held_b = p.held_b, .holds_a = p.holds_a, .c_load = cand.load,
        .c_mad = cand.mad, .kblk = cand.kblk, .kfrac = cand.kfrac, .tiles = p.tiles, .n1 = p.n1,
        .per_row = p.per_row, .c_drain = p.drain, .wall = cand.wall_exact, .cost = cand.wall,
        .pvol = cand.pvol, .traffic = tile_traffic(&c, &p, k, st),
    };
    return true;
}

static bool tile_on_grid(int64_t x, int64_t min, int64_t align) { return x >= min && (x - min) % align == 0; }

bool tile_candidate_legal(const L0TileConfig *g, int64_t m, int64_t n, int64_t k, Stationarity st, bool dbc) {
    if (!tile_basic_valid(g)) return false;
    if (!tile_on_grid(m, g->min_m, g->align_m) || !tile_on_grid(n, g->min_n, g->align_n) ||
        !tile_on_grid(k, g->min_k, g->align_k))
        return false;                                                          /* L1, L10 */
    TileCtx c;
    tile_ctx_init(&c, g);
    if (m > c.m_top || n > c.n_top) return false;                              /* L2 */
    int64_t a0 = tile_budget(g->l0a_bytes, g->bytes_a, st == STAT_A ? 1 : 2);
    int64_t b0 = tile_budget(g->l0b_bytes, g->bytes_b, st == STAT_B ? 1 : 2);
    int64_t c0 = tile_budget(g->l0c_bytes, g->bytes_c, dbc ? 2 : 1);
    int64_t bm, pm, bn, phys;
    if (!tile_alignup(m, g->box_align_m, &bm) || !tile_alignup(bm, g->l0c_align_m, &pm) ||
        !tile_alignup(n, g->box_align_n, &bn) || !tile_mul(pm, bn, &phys) || phys > c0)
        return false;                                                          /* L3 */
    TilePair p;
    TileCand cand;
    if (!tile_pair_init(&c, m, n, bm, bn, a0, b0, st, &p)) return false;
    if (k > p.k_top) return false;                                             /* L4, L5 */
    if (!c.any_k && g->K % k != 0) return false;                               /* L6 */
    if ((st != STAT_OUTPUT || dbc) && k != g->K) return false;                 /* L7 */
    if (dbc) {                                                                 /* L8 */
        bool rows_outer = st == STAT_A || (st == STAT_OUTPUT && p.holds_a);
        if ((rows_outer ? g->N / n : g->M / m) < 2) return false;
    }
    if (k == g->K && p.grid_mn && p.cap_fail) return false;                    /* L9 */
    return tile_eval_k(&c, &p, k, dbc, &cand);
}

int tile_compare(const TileScore *x, const TileScore *y) {
#define TILE_KEY(i, a, b, lower_wins) \
    if ((a) != (b)) return (((a) < (b)) == (lower_wins)) ? (i) : -(i)
    TILE_KEY(1, x->cost, y->cost, true);
    TILE_KEY(2, x->pvol, y->pvol, true);
    TILE_KEY(3, x->kblk, y->kblk, true);
    TILE_KEY(4, x->c_load, y->c_load, true);
    TILE_KEY(5, x->m * x->n, y->m * y->n, false);
    TILE_KEY(6, x->k, y->k, false);
#undef TILE_KEY
    return 0;
}

const char *tile_key_name(int key) {
    static const char *names[] = { "tie", "wall", "pvol", "k-blocks", "load", "m*n", "k" };
    if (key < 0) key = -key;
    return key <= 6 ? names[key] : "?";
}

int tile_rank_regime(const L0TileConfig *g, Stationarity st, bool dbc, TileScore *top, int ntop) {
    if (ntop <= 0 || !tile_basic_valid(g)) return 0;
    int64_t a0 = tile_budget(g->l0a_bytes, g->bytes_a, st == STAT_A ? 1 : 2);
    int64_t b0 = tile_budget(g->l0b_bytes, g->bytes_b, st == STAT_B ? 1 : 2);
    int64_t c0 = tile_budget(g->l0c_bytes, g->bytes_c, dbc ? 2 : 1);
    if (c0 < tile_min_phys(g)) return -1;
    TileCand *cands = malloc(sizeof *cands * (size_t)ntop);
    if (!cands) return 0;
    TileCtx c;
    tile_ctx_init(&c, g);
    int cnt = tile_search(&c, st, dbc, a0, b0, c0, cands, ntop), out = 0;
    for (int i = 0; i < cnt; i++)
        if (tile_score(g, cands[i].m, cands[i].n, cands[i].k, st, dbc, &top[out])) out++;
    free(cands);
    return out;
}
