/* tile — the L0 GEMM tile chooser (spec/chooser.md): a pure function from a configuration record
 * (problem size, L0 capacities, element sizes, alignments, gates, roofline cost model) to one L0
 * tile (m, n, k) and the regime (stationarity, L0C double buffering) it was scored under.
 * Also: the full cost breakdown of one candidate (tile_score), the per-regime ranking used by
 * `ptoc tile` to explain a pick, and the helper that fills a config the way AutoTileMatmulL0 does. */
#ifndef PTOC_TILE_H
#define PTOC_TILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/dtype.h"
#include "target/target.h"

typedef enum { STAT_OUTPUT = 0, STAT_A = 1, STAT_B = 2 } Stationarity;   /* enumeration order matters */

typedef struct L0TileConfig {
    int64_t M, N, K;
    int64_t l0a_bytes, l0b_bytes, l0c_bytes;                 /* no default: must be set */
    int64_t bytes_a, bytes_b, bytes_c;                       /* 2, 2, 4 */
    int64_t min_m, min_n, min_k;                             /* 16, 16, 16 */
    int64_t align_m, align_n, align_k;                       /* 16, 16, 16 */
    int64_t l0c_align_m;                                     /* 16 */
    int64_t box_align_m, box_align_n;                        /* 1, 1 */
    int64_t max_n, max_n_pipelined, max_n_nested_pipelined;  /* 0, 0, 0 */
    bool allow_a_stationary, allow_b_stationary, allow_double_buffer_c, c_read;  /* false */
    double bw_a, bw_b, bw_drain;                             /* 129.7, 85.4, 118.0 */
    double drain_fixed_cycles, drain_row_cycles, drain_penalty_cycles;   /* 164.0, 4.45, 2.6 */
    int64_t drain_c0_bytes, mad_head, mad_k_fractal_bytes, mad_fp32_passes;  /* 32, 21, 32, 2 */
    bool allow_padding, allow_k_boundary;                    /* false, false */
} L0TileConfig;

typedef struct L0TileResult {
    int64_t m, n, k;
    int64_t estimated_traffic_bytes, estimated_cost_cycles, padded_compute_volume;
    Stationarity stationarity;
    bool os_holds_a, double_buffer_c;
    char perf_hint[256];                                     /* "" unless §10.3 applies */
} L0TileResult;

/* §2.1 defaults (a2a3 cost model, BF16 x BF16 -> FP32, capacities 0). */
void tile_l0_config_defaults(L0TileConfig *cfg);
/* true on success; on failure false with the §10 message (prefixed "ChooseL0Tile: ") in err. */
bool tile_choose_l0(const L0TileConfig *cfg, L0TileResult *out, char *err, size_t errlen);

/* "OS" / "AS" / "BS". */
const char *tile_stationarity_name(Stationarity s);

/* ---- explanation helpers (used by `ptoc tile` and the tests; not on the chooser hot path) ---- */

/* Full cost breakdown of one candidate under one regime, computed with the chooser's formulas and
 * floating-point order (§6, §7). Legality is NOT checked (see tile_candidate_legal). Returns false
 * when a 64-bit product overflows or the wall is not finite / above 2^53 (the chooser treats such a
 * candidate as illegal). */
typedef struct TileScore {
    int64_t m, n, k;
    Stationarity stat;
    bool dbc;
    double held_a, held_b;        /* §6.1 */
    bool holds_a;                 /* HOLDS_A(m, n) */
    double c_load;                /* §6.1, by regime route */
    int64_t c_mad;                /* §6.2 */
    int64_t kblk, kfrac;          /* K blocks = cdiv(K, k); K fractals */
    int64_t tiles;                /* T(m, n) */
    int64_t n1;                   /* drain N-fractal count cdiv(n, N0) */
    double per_row, c_drain;      /* §6.3 */
    double wall;                  /* §6.4 before rounding */
    int64_t cost;                 /* llround(wall) */
    int64_t pvol;                 /* §7.1 */
    int64_t traffic;              /* §7.2 (includes c_read) */
} TileScore;
bool tile_score(const L0TileConfig *cfg, int64_t m, int64_t n, int64_t k, Stationarity stat, bool dbc,
                TileScore *out);

/* Legality L1-L10 of (m, n, k) under (stat, dbc) with the regime's budgets (§4, §5). */
bool tile_candidate_legal(const L0TileConfig *cfg, int64_t m, int64_t n, int64_t k, Stationarity stat,
                          bool dbc);

/* The in-regime ranking (§8) of x against y: 0 when all six keys are equal, else +key (1..6) when
 * x is strictly better on the first differing key, -key when y is. Keys: 1 wall, 2 padded volume,
 * 3 K blocks, 4 C_load, 5 m*n (larger wins), 6 k (larger wins). */
int tile_compare(const TileScore *x, const TileScore *y);
const char *tile_key_name(int key);   /* "wall", "pvol", "k-blocks", "load", "m*n", "k" */

/* The best `ntop` candidates of one regime in rank order (the first is the regime's SEARCH winner;
 * full ties keep enumeration order). Returns how many were found (0..ntop), or -1 when the regime is
 * skipped because its C_budget < PHYS(min_m, min_n). The config must pass tile_choose_l0's
 * validation (call that first). */
int tile_rank_regime(const L0TileConfig *cfg, Stationarity stat, bool dbc, TileScore *top, int ntop);

/* ---- how AutoTileMatmulL0 fills the config (§13) ---- */
typedef enum { TILE_PLANNER_PYPTO = 0, TILE_PLANNER_DSA_RP = 1, TILE_PLANNER_PTOAS = 2 } TileMemoryPlanner;

typedef struct TilePassOpts {
    TileMemoryPlanner memory_planner;     /* default PYPTO */
    bool enable_pypto_l0c_double_buffer;  /* opens dbC under the PYPTO planner */
    bool force_output_stationary;         /* closes the AS / BS gates */
    bool is_matmul_acc;                   /* tile.matmul_acc -> c_read */
    int64_t box_align_m, box_align_n;     /* canonical split-K M/N path: lhs box rows, rhs box cols (0 = 1) */
    /* transposed operands (a ZN view of an NZ Mat load, a_trans / b_trans): the box rows of the left
     * one step M, of the right one K (chooser.md §12.1: 32 / element bytes rows); 0 = untransposed */
    int64_t lhs_zn_rows, rhs_zn_rows;
} TilePassOpts;

/* tile.matmul_bias only: the operand box shapes (0 = unknown) and where the bias lives. */
typedef struct TileBiasInfo {
    int64_t lhs_box_rows, lhs_box_cols, rhs_box_rows, rhs_box_cols;
    bool bias_resident;                   /* already in Bias (cannot be N-windowed); else Mat-resident */
} TileBiasInfo;

void tile_pass_opts_defaults(TilePassOpts *o);
/* Non-biased matmul: capacities, cost model, align/min from the target, l0c_align_m for the
 * accumulator dtype, gates from the options, allow_padding = false, allow_k_boundary = true; a
 * transposed operand's box rows above the fractal alignment raise align/min of M (left, and the
 * M box) or K (right). The caller checks M / K are multiples of them.
 * Element sizes are dtype_bytes (0 for sub-byte dtypes: the pass skips those before the call). */
void tile_pass_config(L0TileConfig *cfg, const Target *t, int64_t M, int64_t N, int64_t K, DType a, DType b,
                      DType c, const TilePassOpts *o);
/* tile.matmul_bias: tile_pass_config plus the §13 biased-matmul adjustments (box-derived align/min,
 * bias-table cap on n, pipelined caps for a Mat-resident bias, min_n = N for a Bias-resident one).
 * Returns NULL when the chooser may be called, or the perf-hint code the pass reports instead of
 * calling it ("PH-AT-011": unknown box, bias table below the minimum n, or M/N/K unaligned). */
const char *tile_pass_config_bias(L0TileConfig *cfg, const Target *t, int64_t M, int64_t N, int64_t K, DType a,
                                  DType b, DType c, const TilePassOpts *o, const TileBiasInfo *bias);

#endif
