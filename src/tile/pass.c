/* pass — how AutoTileMatmulL0 fills an L0TileConfig for a plain or accumulating matmul
 * (chooser.md §13): target capacities and cost model, alignments (raised by transposed operands'
 * ZN boxes, §12.1), gates from the pass options;
 * plus the biased-matmul adjustments (box-derived alignments, bias-table caps on n). */
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
    if (o->box_align_m > 0) g->box_align_m = o->box_align_m;
    if (o->box_align_n > 0) g->box_align_n = o->box_align_n;
    if (o->lhs_zn_rows > g->align_m) {              /* an INT8 A^T: 32-row boxes along M */
        g->align_m = o->lhs_zn_rows;
        if (g->min_m < g->align_m) g->min_m = g->align_m;
        if (g->box_align_m < g->align_m) g->box_align_m = g->align_m;
    }
    if (o->rhs_zn_rows > g->align_k) {              /* an INT8 B^T: 32-row boxes along K */
        g->align_k = o->rhs_zn_rows;
        if (g->min_k < g->align_k) g->min_k = g->align_k;
    }
    /* An INT8 A^T's Left tile is boxed 32 x 32, so a K step that is not a multiple of 32 takes a whole
     * box in L0 anyway while the chooser counts k bytes: on a5 a [96, 992] A^T picked k = 336 (2 x
     * 32,256 counted, 2 x 33,792 allocated > 64 KiB). Its K steps by whole boxes when K allows it, as
     * an INT8 B^T's does (above) and the biased path's align_k (lhs box cols) does. */
    if (o->lhs_zn_rows > g->align_k && K % o->lhs_zn_rows == 0) {
        g->align_k = o->lhs_zn_rows;
        if (g->min_k < g->align_k) g->min_k = g->align_k;
    }
}

static int64_t tile_max3(int64_t a, int64_t b, int64_t c) {
    int64_t m = a > b ? a : b;
    return m > c ? m : c;
}

const char *tile_pass_config_bias(L0TileConfig *g, const Target *t, int64_t M, int64_t N, int64_t K, DType a,
                                  DType b, DType c, const TilePassOpts *o, const TileBiasInfo *bias) {
    tile_pass_config(g, t, M, N, K, a, b, c, o);
    if (bias->lhs_box_rows <= 0 || bias->lhs_box_cols <= 0 || bias->rhs_box_rows <= 0 || bias->rhs_box_cols <= 0)
        return "PH-AT-011";
    int64_t al = t->l0_align;
    g->align_m = bias->lhs_box_rows > al ? bias->lhs_box_rows : al;
    g->align_n = bias->rhs_box_cols > al ? bias->rhs_box_cols : al;
    g->align_k = tile_max3(al, bias->lhs_box_cols, bias->rhs_box_rows);
    g->box_align_m = bias->lhs_box_rows;
    g->box_align_n = bias->rhs_box_cols;
    int64_t max_n = g->bytes_c > 0 ? t->bias_bytes / g->bytes_c : 0;
    if (max_n > INT32_MAX) max_n = INT32_MAX;                    /* clamped to int, as the reference */
    if (max_n < t->l0_min) return "PH-AT-011";
    g->max_n = max_n;
    g->min_m = g->align_m > t->l0_min ? g->align_m : t->l0_min;
    g->min_n = g->align_n > t->l0_min ? g->align_n : t->l0_min;
    g->min_k = g->align_k > t->l0_min ? g->align_k : t->l0_min;
    if (bias->bias_resident) {
        g->max_n_pipelined = g->max_n_nested_pipelined = 0;
        g->min_n = N;                                            /* cannot be N-sub-windowed */
    } else {
        g->max_n_pipelined = max_n / 2;                          /* two Bias slots */
        g->max_n_nested_pipelined = max_n / 4;                   /* OS with N inner: four */
    }
    if (M % g->align_m != 0 || N % g->align_n != 0 || K % g->align_k != 0) return "PH-AT-011";
    return NULL;
}
