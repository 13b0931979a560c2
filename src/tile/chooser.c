/* chooser — tile_choose_l0 (chooser.md §9–§11): validation in the spec's order with its messages,
 * the minimum-tile capacity checks, the baseline search, the "already L0-sized" early return, the
 * gated regimes in fixed order (adopted only on a strictly lower wall) and the result record. */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>

#include "tile/tile_int.h"

void tile_l0_config_defaults(L0TileConfig *g) {
    *g = (L0TileConfig){
        .bytes_a = 2, .bytes_b = 2, .bytes_c = 4,
        .min_m = 16, .min_n = 16, .min_k = 16,
        .align_m = 16, .align_n = 16, .align_k = 16,
        .l0c_align_m = 16, .box_align_m = 1, .box_align_n = 1,
        .bw_a = 129.7, .bw_b = 85.4, .bw_drain = 118.0,
        .drain_fixed_cycles = 164.0, .drain_row_cycles = 4.45, .drain_penalty_cycles = 2.6,
        .drain_c0_bytes = 32, .mad_head = 21, .mad_k_fractal_bytes = 32, .mad_fp32_passes = 2,
    };
}

const char *tile_stationarity_name(Stationarity s) {
    switch (s) {
    case STAT_OUTPUT: return "OS";
    case STAT_A: return "AS";
    case STAT_B: return "BS";
    }
    return "?";
}

static bool tile_fail(char *err, size_t errlen, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static bool tile_fail(char *err, size_t errlen, const char *fmt, ...) {
    if (err && errlen) {
        int n = snprintf(err, errlen, "ChooseL0Tile: ");
        if (n > 0 && (size_t)n < errlen) {
            va_list ap;
            va_start(ap, fmt);
            vsnprintf(err + n, errlen - (size_t)n, fmt, ap);
            va_end(ap);
        }
    }
    return false;
}

/* §10.1 checks 1–11, in order. */
static bool tile_validate(const L0TileConfig *g, char *err, size_t el) {
    if (g->M <= 0 || g->N <= 0 || g->K <= 0)
        return tile_fail(err, el, "M, N, K must all be positive (got %" PRId64 ", %" PRId64 ", %" PRId64 ")",
                         g->M, g->N, g->K);
    if (g->l0a_bytes <= 0 || g->l0b_bytes <= 0 || g->l0c_bytes <= 0)
        return tile_fail(err, el, "L0 capacities must be positive");
    if (g->bytes_a <= 0 || g->bytes_b <= 0 || g->bytes_c <= 0)
        return tile_fail(err, el, "element byte sizes must be positive");
    if (g->min_m <= 0 || g->min_n <= 0 || g->min_k <= 0)
        return tile_fail(err, el, "minimum tile dimensions must be positive");
    if (!(g->max_n == 0 || g->max_n >= g->min_n))
        return tile_fail(err, el,
                         "max_n must be zero (unbounded) or at least min_n (got max_n=%" PRId64 ", min_n=%" PRId64 ")",
                         g->max_n, g->min_n);
    if (!(g->max_n_pipelined >= 0 && (g->max_n == 0 || g->max_n_pipelined == 0 || g->max_n_pipelined <= g->max_n)))
        return tile_fail(err, el,
                         "max_n_pipelined must be non-negative and no greater than max_n when both are bounded");
    if (!(g->max_n_nested_pipelined >= 0 && (g->max_n_pipelined == 0 || g->max_n_nested_pipelined == 0 ||
                                             g->max_n_nested_pipelined <= g->max_n_pipelined)))
        return tile_fail(err, el, "max_n_nested_pipelined must be non-negative and no greater than "
                                  "max_n_pipelined when both are bounded");
    if (g->align_m <= 0 || g->align_n <= 0 || g->align_k <= 0 || g->l0c_align_m <= 0 || g->box_align_m <= 0 ||
        g->box_align_n <= 0)
        return tile_fail(err, el, "tile and physical L0C alignments must be positive");
    if (!(g->bw_a > 0) || !(g->bw_b > 0) || !(g->bw_drain > 0))
        return tile_fail(err, el, "roofline bandwidths must be strictly positive");
    if (!(g->drain_c0_bytes > 0 && g->drain_row_cycles >= 0 && g->drain_penalty_cycles >= 0 &&
          g->drain_fixed_cycles >= 0))
        return tile_fail(err, el, "drain params must be non-negative with a positive fractal C0");
    if (!g->allow_padding) {
        static const char *fmt = "allow_padding=false but %s=%" PRId64
                                 " is below the cube minimum tile dimension %" PRId64;
        if (g->M < g->min_m) return tile_fail(err, el, fmt, "M", g->M, g->min_m);
        if (g->N < g->min_n) return tile_fail(err, el, fmt, "N", g->N, g->min_n);
        if (g->K < g->min_k) return tile_fail(err, el, fmt, "K", g->K, g->min_k);
    }
    return true;
}

/* §10.1 checks 12a–12c: the minimum tile must fit the OS / dbC = 1 budgets. */
static bool tile_check_min_fit(const L0TileConfig *g, int64_t a0, int64_t b0, int64_t c0, int64_t min_phys,
                               char *err, size_t el) {
    int64_t bm, bn;
    if (!tile_alignup(g->min_m, g->box_align_m, &bm) || bm > a0 / g->min_k)
        return tile_fail(err, el,
                         "L0a capacity %" PRId64 " elements is too small to fit the minimum tile (%" PRId64
                         " x %" PRId64 ")", a0, g->min_m, g->min_k);
    if (!tile_alignup(g->min_n, g->box_align_n, &bn) || bn > b0 / g->min_k)
        return tile_fail(err, el,
                         "L0b capacity %" PRId64 " elements is too small to fit the minimum tile (%" PRId64
                         " x %" PRId64 ")", b0, g->min_k, g->min_n);
    if (min_phys > c0)
        return tile_fail(err, el,
                         "L0c capacity %" PRId64 " elements is too small to fit the minimum physical tile "
                         "footprint (%" PRId64 " elements for logical %" PRId64 " x %" PRId64 ")",
                         c0, min_phys, g->min_m, g->min_n);
    return true;
}

static void tile_fill_result(const L0TileConfig *g, const TileCand *b, Stationarity st, bool dbc,
                             L0TileResult *out) {
    TileScore s;
    bool ok = tile_score(g, b->m, b->n, b->k, st, dbc, &s);   /* same arithmetic: cannot fail here */
    *out = (L0TileResult){
        .m = b->m, .n = b->n, .k = b->k,
        .estimated_traffic_bytes = ok ? s.traffic : 0,
        .estimated_cost_cycles = b->wall,
        .padded_compute_volume = b->pvol,
        .stationarity = st, .double_buffer_c = dbc,
        .os_holds_a = ok ? s.holds_a : true,
    };
    if (g->M < g->min_m || g->N < g->min_n || g->K < g->min_k)
        snprintf(out->perf_hint, sizeof out->perf_hint,
                 "Matmul shape (M=%" PRId64 ", N=%" PRId64 ", K=%" PRId64 ") is below the cube minimum tile "
                 "dimension %" PRId64 "; tile shape padded up to (%" PRId64 ", %" PRId64 ", %" PRId64 "). "
                 "Consider reshaping or fusing with adjacent ops to amortise the padding.",
                 g->M, g->N, g->K, g->min_m, b->m, b->n, b->k);
}

bool tile_choose_l0(const L0TileConfig *g, L0TileResult *out, char *err, size_t el) {
    if (err && el) err[0] = '\0';
    if (!tile_validate(g, err, el)) return false;
    int64_t a0 = tile_budget(g->l0a_bytes, g->bytes_a, 2), b0 = tile_budget(g->l0b_bytes, g->bytes_b, 2);
    int64_t c0 = tile_budget(g->l0c_bytes, g->bytes_c, 1), min_phys = tile_min_phys(g);
    if (!tile_check_min_fit(g, a0, b0, c0, min_phys, err, el)) return false;

    TileCtx c;
    tile_ctx_init(&c, g);
    TileCand best, cand;
    Stationarity best_st = STAT_OUTPUT;
    bool best_dbc = false;
    if (tile_search(&c, STAT_OUTPUT, false, a0, b0, c0, &best, 1) == 0)
        return tile_fail(err, el, "no legal (m, n, k) tile found for M=%" PRId64 ", N=%" PRId64 ", K=%" PRId64,
                         g->M, g->N, g->K);
    if (!(best.m == g->M && best.n == g->N && best.k == g->K)) {
        for (int st = STAT_OUTPUT; st <= STAT_B; st++) {
            if ((st == STAT_A && !g->allow_a_stationary) || (st == STAT_B && !g->allow_b_stationary)) continue;
            for (int d = 0; d <= 1; d++) {
                if ((st == STAT_OUTPUT && d == 0) || (d == 1 && !g->allow_double_buffer_c)) continue;
                int64_t ra = tile_budget(g->l0a_bytes, g->bytes_a, st == STAT_A ? 1 : 2);
                int64_t rb = tile_budget(g->l0b_bytes, g->bytes_b, st == STAT_B ? 1 : 2);
                int64_t rc = tile_budget(g->l0c_bytes, g->bytes_c, d ? 2 : 1);
                if (rc < min_phys) continue;
                if (tile_search(&c, (Stationarity)st, d, ra, rb, rc, &cand, 1) > 0 && cand.wall < best.wall) {
                    best = cand;
                    best_st = (Stationarity)st;
                    best_dbc = d;
                }
            }
        }
    }
    tile_fill_result(g, &best, best_st, best_dbc, out);
    return true;
}
