/* tile_int — private to src/tile: the precomputed search context, the per-(m, n) pair state and the
 * candidate evaluation shared by the chooser's SEARCH, tile_score and the per-regime ranking, so the
 * explanation helpers use exactly the hot path's arithmetic (bit-identical costs). */
#ifndef PTOC_TILE_INT_H
#define PTOC_TILE_INT_H

#include "tile/tile.h"

/* Per-config constants (§3, §6). */
typedef struct TileCtx {
    const L0TileConfig *cfg;
    int64_t kt, cpr, n0;          /* K fractal width, cube passes, drain C0 in elements */
    int64_t m_top, n_top, kprob;  /* L2 / L5 bounds */
    bool any_k;                   /* allow_padding or peel_ok: k need not divide K (L6) */
    bool k_on_grid;               /* K is in the k progression (needed for full-K regimes) */
    bool amk_ok, bkn_ok;          /* ba*M*K, bb*K*N fit in 64 bits */
    int64_t amk, bkn;
    double a_full, b_full;        /* (ba*M*K)/bw_a, (bb*K*N)/bw_b */
} TileCtx;

/* Per-(m, n) state under one regime; everything that does not depend on k. */
typedef struct TilePair {
    int64_t m, n, tiles, pad_mn, mad_mn, k_top, n1;
    double held_a, held_b, load_full, load_split, per_row, drain;
    bool holds_a, grid_mn, cap_fail;
} TilePair;

/* One scored candidate, with the ranking keys of §8. */
typedef struct TileCand {
    int64_t m, n, k, wall, pvol, kblk, kfrac, mad;
    double load, wall_exact;
} TileCand;

/* Regime element budgets (§4): floor(bytes / (elem * depth)); 0 when elem*depth overflows. */
int64_t tile_budget(int64_t bytes, int64_t elem, int64_t depth);
void tile_ctx_init(TileCtx *c, const L0TileConfig *cfg);
/* Fills p for (m, n) with k-independent values; false when a product overflows (pair illegal).
 * Checks neither the grid, the bounds nor L3/L8 — SEARCH does those in its loops. */
bool tile_pair_init(const TileCtx *c, int64_t m, int64_t n, int64_t bm, int64_t bn, int64_t a0, int64_t b0,
                    Stationarity st, TilePair *p);
/* Scores k for the pair; false on overflow or a non-finite / > 2^53 wall. L9 is the caller's. */
bool tile_eval_k(const TileCtx *c, const TilePair *p, int64_t k, bool dbc, TileCand *out);
/* §8 BETTER: x strictly beats y. */
bool tile_better(const TileCand *x, const TileCand *y);
/* SEARCH of §11 keeping the best `ntop` candidates in rank order; returns how many. */
int tile_search(const TileCtx *c, Stationarity st, bool dbc, int64_t a0, int64_t b0, int64_t c0, TileCand *top,
                int ntop);
/* Checked helpers: false on 64-bit overflow. Operands positive. */
bool tile_mul(int64_t a, int64_t b, int64_t *r);
bool tile_alignup(int64_t x, int64_t a, int64_t *r);
/* PHYS(min_m, min_n) saturated at INT64_MAX on overflow. */
int64_t tile_min_phys(const L0TileConfig *cfg);

#endif
