/* pass — how AutoTileMatmulL0 fills an L0TileConfig for a plain or accumulating matmul
 * (chooser.md §13): target capacities and cost model, alignments, gates from the pass options.
 * Biased matmul (box alignments, bias-table caps on n) is not filled here yet. */
#include "tile/tile.h"

void tile_pass_opts_defaults(TilePassOpts *o) {
    *o = (TilePassOpts){ .memory_planner = TILE_PLANNER_PYPTO };
}

void tile_pass_config(L0TileConfig *g, const Target *t, int64_t M, int64_t N, int64_t K, DType a, DType b,
                      DType c, const TilePassOpts *o) {
    TilePassOpts def;
    if (!o) {
        tile_pass_opts_defaults(&def);
        o = &def;
    }
    tile_l0_config_defaults(g);
    g->M = M;
    g->N = N;
    g->K = K;
    g->bytes_a = dtype_bytes(a);
    g->bytes_b = dtype_bytes(b);
    g->bytes_c = dtype_bytes(c);
    g->l0a_bytes = t->capacity[MS_LEFT];
    g->l0b_bytes = t->capacity[MS_RIGHT];
    g->l0c_bytes = t->capacity[MS_ACC];
    const L0CostModel *cm = &t->cost;
    g->bw_a = cm->bw_a;
    g->bw_b = cm->bw_b;
    g->bw_drain = cm->bw_drain;
    g->drain_fixed_cycles = cm->drain_fixed_cycles;
    g->drain_row_cycles = cm->drain_row_cycles;
    g->drain_penalty_cycles = cm->drain_penalty_cycles;
    g->drain_c0_bytes = cm->drain_c0_bytes;
    g->mad_head = cm->mad_head;
    g->mad_k_fractal_bytes = cm->mad_k_fractal_bytes;
    g->mad_fp32_passes = cm->mad_fp32_passes;
    g->align_m = g->align_n = g->align_k = t->l0_align;
    g->min_m = g->min_n = g->min_k = t->l0_min;
    g->l0c_align_m = target_l0c_align_m(t, c);
    g->allow_a_stationary = g->allow_b_stationary = !o->force_output_stationary;
    g->allow_double_buffer_c = o->memory_planner != TILE_PLANNER_PYPTO || o->enable_pypto_l0c_double_buffer;
    g->c_read = o->is_matmul_acc;
    g->allow_padding = false;
    g->allow_k_boundary = true;
}
