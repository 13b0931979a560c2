/* target: the a2a3 and a5 descriptions (targets.md). Model values are marked [MODEL] there. */
#include "target/target.h"

#include <string.h>

static const Target targets[2] = {
    [TGT_A2A3] = {
        .id = TGT_A2A3, .name = "a2a3", .pto_arch = "a3",
        .capacity = { [MS_VEC] = 188416, [MS_MAT] = 524288, [MS_LEFT] = 65536, [MS_RIGHT] = 65536,
                      [MS_ACC] = 131072, [MS_BIAS] = 1024 },
        .physical = { [MS_VEC] = 196608, [MS_MAT] = 524288, [MS_LEFT] = 65536, [MS_RIGHT] = 65536,
                      [MS_ACC] = 131072, [MS_BIAS] = 1024 },
        .gm_bytes = INT64_C(64) << 30,
        .alloc_align = 32, .l0_align = 16, .l0_min = 16, .bias_bytes = 1024,
        .num_aic = 24, .num_aiv = 48, .clock_ghz = 1.85,
        .cost = { .bw_a = 129.7, .bw_b = 85.4, .bw_drain = 118.0, .drain_fixed_cycles = 164.0,
                  .drain_row_cycles = 4.45, .drain_penalty_cycles = 2.6, .drain_c0_bytes = 32,
                  .mad_head = 21, .mad_k_fractal_bytes = 32, .mad_fp32_passes = 2 },
        .bw_gm_to_mat = 143.4, .bw_gm_to_vec = 58.6, .bw_vec_to_gm = 109.4, .bw_mat_to_gm = 18.6,
        .bw_acc_to_mat = 74.3, .dma_fixed_cycles = 100.0, .dispatch_cycles = 1480.0, .bw_gm_shared = 2182.0,
        /* bw_gm_to_mat: one core's GM read port (pto-isa's on-device fit); bw_gm_shared: the die, calibrated on
           the published A3 GEMM (docs/sim.md "Shared GM bandwidth") */
        .event_ids_per_direction = 8,
        .xcore_flag_cycles = 50.0, .bw_xcore = 0.0, .xcore_pop_cycles = 0.0,   /* data through GM: no on-chip path */
    },
    [TGT_A5] = {
        .id = TGT_A5, .name = "a5", .pto_arch = "a5",
        .capacity = { [MS_VEC] = 245760, [MS_MAT] = 524288, [MS_LEFT] = 65536, [MS_RIGHT] = 65536,
                      [MS_ACC] = 262144, [MS_BIAS] = 4096, [MS_LEFT_SCALE] = 4096, [MS_RIGHT_SCALE] = 4096 },
        .physical = { [MS_VEC] = 262144, [MS_MAT] = 524288, [MS_LEFT] = 65536, [MS_RIGHT] = 65536,
                      [MS_ACC] = 262144, [MS_BIAS] = 4096, [MS_LEFT_SCALE] = 4096, [MS_RIGHT_SCALE] = 4096 },
        .gm_bytes = INT64_C(64) << 30,          /* not stated for a5: a2a3's 64 GiB per die assumed */
        .alloc_align = 32, .l0_align = 16, .l0_min = 16, .bias_bytes = 4096,
        .num_aic = 36, .num_aiv = 72, .clock_ghz = 1.85,
        .cost = { .bw_a = 206.3, .bw_b = 223.8, .bw_drain = 30.0, .drain_fixed_cycles = 343.4,
                  .drain_row_cycles = 4.59, .drain_penalty_cycles = 0.26, .drain_c0_bytes = 32,
                  .mad_head = 25, .mad_k_fractal_bytes = 32, .mad_fp32_passes = 8 },
        .bw_gm_to_mat = 78.4, .bw_gm_to_vec = 58.6, .bw_vec_to_gm = 109.4, .bw_mat_to_gm = 18.6,
        .bw_acc_to_mat = 74.3, .dma_fixed_cycles = 100.0, .dispatch_cycles = 1480.0, .bw_gm_shared = 2182.0,
        .event_ids_per_direction = 8,
        .xcore_flag_cycles = 50.0, .bw_xcore = 128.0, .xcore_pop_cycles = 20.0,
    },
};

const Target *target_get(TargetId id) { return &targets[id]; }

const Target *target_by_name(const char *name) {
    for (int i = 0; i < 2; i++)
        if (strcmp(targets[i].name, name) == 0) return &targets[i];
    if (strcmp(name, "a2a3sim") == 0 || strcmp(name, "a3") == 0) return &targets[TGT_A2A3];
    if (strcmp(name, "a5sim") == 0) return &targets[TGT_A5];
    return NULL;
}

int64_t target_l0c_align_m(const Target *t, DType acc) {
    return (t->id == TGT_A2A3 && acc == DT_INT32) ? 32 : 16;
}

static double cap(double bw, double share) { return bw < share ? bw : share; }

const Target *target_share_gm(const Target *t, int64_t streaming, Target *out) {
    *out = *t;
    if (streaming < 1 || t->bw_gm_shared <= 0) return out;
    double share = t->bw_gm_shared / (double)streaming;
    out->bw_gm_to_mat = cap(t->bw_gm_to_mat, share);
    out->bw_gm_to_vec = cap(t->bw_gm_to_vec, share);
    out->bw_vec_to_gm = cap(t->bw_vec_to_gm, share);
    out->bw_mat_to_gm = cap(t->bw_mat_to_gm, share);
    out->cost.bw_drain = cap(t->cost.bw_drain, share);
    return out;
}
