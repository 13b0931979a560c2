/* search — the chooser's hot path: per-config constants, per-(m, n) costs, the k loop and SEARCH
 * of chooser.md §11. Costs follow §6 with its exact floating-point operation order; every integer
 * product is 64-bit and checked, an overflow makes the candidate illegal. k-independent terms are
 * hoisted out of the k loop (they are the same operations on the same operands, so bit-identical). */
#include <limits.h>
#include <math.h>

#include "tile/tile_int.h"

bool tile_mul(int64_t a, int64_t b, int64_t *r) { return !__builtin_mul_overflow(a, b, r); }

static inline int64_t tile_cdiv(int64_t a, int64_t b) { return a / b + (a % b != 0); }

bool tile_alignup(int64_t x, int64_t a, int64_t *r) { return tile_mul(tile_cdiv(x, a), a, r); }

static inline int64_t tile_odd(int64_t x) {
    while (x > 0 && (x & 1) == 0) x >>= 1;
    return x;
}

int64_t tile_budget(int64_t bytes, int64_t elem, int64_t depth) {
    int64_t d;
    if (!tile_mul(elem, depth, &d)) return 0;
    return bytes / d;
}

int64_t tile_min_phys(const L0TileConfig *g) {
    int64_t bm, pm, bn, p;
    if (!tile_alignup(g->min_m, g->box_align_m, &bm) || !tile_alignup(bm, g->l0c_align_m, &pm) ||
        !tile_alignup(g->min_n, g->box_align_n, &bn) || !tile_mul(pm, bn, &p))
        return INT64_MAX;
    return p;
}

void tile_ctx_init(TileCtx *c, const L0TileConfig *g) {
    c->cfg = g;
    int64_t kt = g->mad_k_fractal_bytes / g->bytes_a;
    c->kt = kt > 1 ? kt : 1;
    int64_t cpr = g->bytes_a == 4 ? g->mad_fp32_passes : g->bytes_a / 2;
    c->cpr = cpr > 1 ? cpr : 1;
    int64_t n0 = g->drain_c0_bytes / g->bytes_c;
    c->n0 = n0 > 1 ? n0 : 1;
    int64_t v;
    c->m_top = g->allow_padding ? (tile_alignup(g->M, g->align_m, &v) ? v : INT64_MAX) : g->M;
    c->n_top = g->allow_padding ? (tile_alignup(g->N, g->align_n, &v) ? v : INT64_MAX) : g->N;
    if (g->max_n > 0 && g->max_n < c->n_top) c->n_top = g->max_n;
    if (g->allow_padding) {
        v = tile_alignup(g->K, g->align_k, &v) ? v : INT64_MAX;
        c->kprob = v > g->min_k ? v : g->min_k;
    } else {
        c->kprob = g->K;
    }
    bool peel = g->allow_k_boundary && g->K % g->align_k == 0;
    c->any_k = g->allow_padding || peel;
    c->k_on_grid = g->K >= g->min_k && (g->K - g->min_k) % g->align_k == 0;
    c->amk_ok = tile_mul(g->bytes_a, g->M, &v) && tile_mul(v, g->K, &c->amk);
    c->bkn_ok = tile_mul(g->bytes_b, g->K, &v) && tile_mul(v, g->N, &c->bkn);
    c->a_full = c->amk_ok ? (double)c->amk / g->bw_a : 0.0;
    c->b_full = c->bkn_ok ? (double)c->bkn / g->bw_b : 0.0;
}

/* C_load of §6.1 for both routes, HOLDS_A, and the traffic-independent drain of §6.3. */
bool tile_pair_init(const TileCtx *c, int64_t m, int64_t n, int64_t bm, int64_t bn, int64_t a0, int64_t b0,
                    Stationarity st, TilePair *p) {
    const L0TileConfig *g = c->cfg;
    if (!c->amk_ok || !c->bkn_ok) return false;
    int64_t cdm = tile_cdiv(g->M, m), cdn = tile_cdiv(g->N, n), bstream, astream, padm, padn, bcn, v;
    if (!tile_mul(c->bkn, cdm, &bstream) || !tile_mul(c->amk, cdn, &astream)) return false;
    if (!tile_mul(cdm, cdn, &p->tiles) || !tile_mul(cdm, m, &padm) || !tile_mul(cdn, n, &padn) ||
        !tile_mul(padm, padn, &p->pad_mn))
        return false;
    if (!tile_mul(c->cpr, tile_cdiv(m, g->align_m), &v) || !tile_mul(v, tile_cdiv(n, g->align_n), &p->mad_mn))
        return false;
    if (!tile_mul(g->bytes_c, n, &bcn)) return false;
    p->m = m;
    p->n = n;
    double b_rows = (double)bstream / g->bw_b;   /* B re-streamed once per row block */
    double a_cols = (double)astream / g->bw_a;   /* A re-streamed once per column block */
    p->held_a = c->a_full + b_rows;
    p->held_b = a_cols + c->b_full;
    p->holds_a = p->held_a <= p->held_b;
    if (st == STAT_A) {
        p->load_full = p->load_split = p->held_a;
    } else if (st == STAT_B) {
        p->load_full = p->load_split = p->held_b;
    } else {
        p->load_full = p->holds_a ? p->held_a : p->held_b;
        p->load_split = a_cols + b_rows;
    }
    p->n1 = tile_cdiv(n, c->n0);
    double thr = (double)bcn / g->bw_drain;
    double floor_row = g->drain_row_cycles > thr ? g->drain_row_cycles : thr;
    p->per_row = floor_row + g->drain_penalty_cycles * (double)(tile_odd(p->n1) - 1);
    double per_tile = g->drain_fixed_cycles + (double)m * p->per_row;
    p->drain = (double)p->tiles * per_tile;
    int64_t cap = a0 / bm, capb = b0 / bn;
    if (capb < cap) cap = capb;
    if (c->kprob < cap) cap = c->kprob;
    p->k_top = (cap / g->align_k) * g->align_k;
    p->grid_mn = m != g->M || n != g->N;
    p->cap_fail = (g->max_n_pipelined > 0 && st != STAT_B && n > g->max_n_pipelined) ||
                  (g->max_n_nested_pipelined > 0 && st == STAT_OUTPUT && p->holds_a &&
                   n > g->max_n_nested_pipelined);
    return true;
}

bool tile_eval_k(const TileCtx *c, const TilePair *p, int64_t k, bool dbc, TileCand *out) {
    const L0TileConfig *g = c->cfg;
    int64_t K = g->K;
    int64_t kfull = K / k, ktail = K - kfull * k;
    int64_t kblk = kfull + (ktail > 0), kfrac, head, inner, mad, pk, pvol;
    if (!tile_mul(kfull, tile_cdiv(k, c->kt), &kfrac)) return false;
    if (ktail > 0) kfrac += tile_cdiv(ktail, c->kt);                    /* no overflow: < kfull*.. + K */
    if (!tile_mul(kblk, g->mad_head, &head) || !tile_mul(p->mad_mn, kfrac, &inner) ||
        __builtin_add_overflow(head, inner, &inner) || !tile_mul(p->tiles, inner, &mad))
        return false;
    if (!tile_mul(kblk, k, &pk) || !tile_mul(p->pad_mn, pk, &pvol)) return false;
    double load = k >= K ? p->load_full : p->load_split;
    double dmad = (double)mad;
    double comp = load > dmad ? load : dmad;
    double w;
    if (dbc) {
        double hi = comp > p->drain ? comp : p->drain, lo = comp > p->drain ? p->drain : comp;
        w = hi + lo / (double)p->tiles;
    } else {
        w = comp + p->drain;
    }
    if (!(w <= 9007199254740992.0) || !(w >= -9007199254740992.0)) return false;  /* NaN, inf, > 2^53 */
    out->m = p->m;
    out->n = p->n;
    out->k = k;
    out->wall = llround(w);
    out->wall_exact = w;
    out->pvol = pvol;
    out->kblk = kblk;
    out->kfrac = kfrac;
    out->mad = mad;
    out->load = load;
    return true;
}

bool tile_better(const TileCand *x, const TileCand *y) {
    if (x->wall != y->wall) return x->wall < y->wall;
    if (x->pvol != y->pvol) return x->pvol < y->pvol;
    if (x->kblk != y->kblk) return x->kblk < y->kblk;
    if (x->load != y->load) return x->load < y->load;
    int64_t xa = x->m * x->n, ya = y->m * y->n;        /* both fit: bounded by the L0C budget */
    if (xa != ya) return xa > ya;
    return x->k > y->k;
}

/* Inserts x into the rank-ordered list top[0..cnt) of capacity ntop; returns the new count. */
static int tile_top_insert(TileCand *top, int cnt, int ntop, const TileCand *x) {
    int i = cnt;
    while (i > 0 && tile_better(x, &top[i - 1])) i--;
    if (i >= ntop) return cnt;
    int last = cnt < ntop ? cnt : ntop - 1;
    for (int j = last; j > i; j--) top[j] = top[j - 1];
    top[i] = *x;
    return cnt < ntop ? cnt + 1 : cnt;
}

/* The k loop of one (m, n) pair. */
static int tile_search_ks(const TileCtx *c, const TilePair *p, bool dbc, bool need_full_k, TileCand *top,
                          int cnt, int ntop) {
    const L0TileConfig *g = c->cfg;
    TileCand cand;
    if (need_full_k) {   /* only k == K, which LEGAL_KS yields iff K is on the grid and <= kTop */
        if (c->k_on_grid && g->K <= p->k_top && !(p->grid_mn && p->cap_fail) &&
            tile_eval_k(c, p, g->K, dbc, &cand))
            cnt = tile_top_insert(top, cnt, ntop, &cand);
        return cnt;
    }
    for (int64_t k = g->min_k; k <= p->k_top; k += g->align_k) {
        if ((c->any_k || g->K % k == 0) && !(k == g->K && p->grid_mn && p->cap_fail) &&   /* L6, L9 */
            tile_eval_k(c, p, k, dbc, &cand))
            cnt = tile_top_insert(top, cnt, ntop, &cand);
        if (k > p->k_top - g->align_k) break;                      /* no overflow of k */
    }
    return cnt;
}

/* A lower bound of the rounded wall of every k of the pair (pruning only; exact, never optimistic):
 * C_load >= min of its two routes, C_mad >= T*(mad_head + mad_mn*cdiv(K, kt)) since kblk >= 1 and
 * kfrac >= cdiv(K, kt); IEEE +, max and llround are monotone, and the dbC bubble term is >= 0. */
static int64_t tile_pair_lower_bound(const TileCtx *c, const TilePair *p, bool dbc) {
    const L0TileConfig *g = c->cfg;
    double lb = p->load_full < p->load_split ? p->load_full : p->load_split;
    int64_t kf = g->K / c->kt + (g->K % c->kt != 0), inner, mad;
    if (g->mad_head >= 0 && tile_mul(p->mad_mn, kf, &inner) && !__builtin_add_overflow(inner, g->mad_head, &inner) &&
        tile_mul(p->tiles, inner, &mad) && (double)mad > lb)
        lb = (double)mad;
    double w = dbc ? (lb > p->drain ? lb : p->drain) : lb + p->drain;
    if (!(w < 9007199254740992.0)) return INT64_MAX;   /* every k is illegal (or infinitely bad) anyway */
    return llround(w);
}

/* One (m, n): pair state, the L8 inner-pair test (before the k loop), then the k loop. */
static int tile_search_pair(const TileCtx *c, Stationarity st, bool dbc, int64_t m, int64_t n, int64_t bm,
                            int64_t bn, int64_t a0, int64_t b0, TileCand *top, int cnt, int ntop) {
    const L0TileConfig *g = c->cfg;
    bool need_full_k = st != STAT_OUTPUT || dbc;
    if (need_full_k && (!c->k_on_grid || g->K > a0 / bm || g->K > b0 / bn)) return cnt;   /* k == K cannot fit */
    TilePair p;
    if (!tile_pair_init(c, m, n, bm, bn, a0, b0, st, &p)) return cnt;
    if (dbc) {
        bool rows_outer = st == STAT_A || (st == STAT_OUTPUT && p.holds_a);
        int64_t inner = rows_outer ? g->N / n : g->M / m;
        if (inner < 2) return cnt;
    }
    if (cnt == ntop && tile_pair_lower_bound(c, &p, dbc) > top[cnt - 1].wall) return cnt;
    return tile_search_ks(c, &p, dbc, need_full_k, top, cnt, ntop);
}

int tile_search(const TileCtx *c, Stationarity st, bool dbc, int64_t a0, int64_t b0, int64_t c0, TileCand *top,
                int ntop) {
    const L0TileConfig *g = c->cfg;
    int64_t bn_min;
    if (!tile_alignup(g->min_n, g->box_align_n, &bn_min)) return 0;
    int cnt = 0;
    for (int64_t m = g->min_m; m <= c->m_top; m += g->align_m) {
        int64_t bm, prows, v;
        if (!tile_alignup(m, g->box_align_m, &bm) || !tile_alignup(bm, g->l0c_align_m, &prows)) break;
        if (!tile_mul(prows, bn_min, &v) || v > c0) break;           /* no larger m fits either */
        int64_t n_lim = c0 / prows < c->n_top ? c0 / prows : c->n_top;
        for (int64_t n = g->min_n; n <= n_lim; n += g->align_n) {
            int64_t bn, phys;
            /* PHYS is non-decreasing in n: the first n over the L0C budget ends the row (L3) */
            if (!tile_alignup(n, g->box_align_n, &bn) || !tile_mul(prows, bn, &phys) || phys > c0) break;
            cnt = tile_search_pair(c, st, dbc, m, n, bm, bn, a0, b0, top, cnt, ntop);
            if (n > n_lim - g->align_n) break;
        }
        if (m > c->m_top - g->align_m) break;
    }
    return cnt;
}
