/* target — per-target numbers as data (spec/targets.md): a2a3 (Ascend 910B) and a5 (Ascend 950).
 * Capacities, alignments, core counts, the L0 chooser cost model, simulator timing constants. */
#ifndef PTOC_TARGET_H
#define PTOC_TARGET_H

#include "base/base.h"
#include "base/dtype.h"

typedef enum { TGT_A2A3 = 0, TGT_A5 = 1 } TargetId;

/* The L0 chooser's cost model (targets.md §5, chooser.md §12.2). */
typedef struct L0CostModel {
    double bw_a, bw_b, bw_drain;                      /* bytes / cycle */
    double drain_fixed_cycles, drain_row_cycles, drain_penalty_cycles;
    int64_t drain_c0_bytes, mad_head, mad_k_fractal_bytes, mad_fp32_passes;
} L0CostModel;

typedef struct Target {
    TargetId id;
    const char *name;                  /* "a2a3" | "a5" (module attribute pto.target_arch) */
    const char *pto_arch;              /* "a3" | "a5" (ptoas --pto-arch) */
    int64_t capacity[MS_COUNT];        /* usable bytes per space (compiler budget); 0 = unbounded/none */
    int64_t physical[MS_COUNT];        /* bytes the simulator allocates per core */
    int64_t gm_bytes;                  /* global memory (HBM) per die: the bound on a program's tensors */
    int64_t alloc_align;               /* PYPTO bump allocator alignment: 32 */
    int64_t l0_align, l0_min;          /* fractal alignment and minimum tile dim: 16, 16 */
    int64_t bias_bytes;                /* bias table: 1024 | 4096 */
    int num_aic, num_aiv;              /* 24/48 | 36/72 */
    double clock_ghz;                  /* 1.85 (model) */
    L0CostModel cost;
    /* simulator timing (bytes / cycle, model values of targets.md §4.1) */
    double bw_gm_to_mat, bw_gm_to_vec, bw_vec_to_gm, bw_mat_to_gm, bw_acc_to_mat;
    double dma_fixed_cycles;           /* per GM transfer start-up */
    /* GM bandwidth shared by every core of the die (docs/sim.md "Shared GM bandwidth"): a core's GM
     * transfers run at min(its per-path figure above, bw_gm_shared / cores streaming at once). */
    double bw_gm_shared;               /* bytes / cycle, all cores together */
    double dispatch_cycles;            /* runtime per-task pick-up, 0.8 us */
    /* cross-core (cube <-> vector) channels of a mixed task (docs/sim.md; ptoc's model, no upstream
     * figure). a2a3 moves the data through a GM ring (push = a store, pop = a load, the constants
     * above); a5 on chip: a push at bw_xcore bytes / cycle, a pop xcore_pop_cycles. */
    double xcore_flag_cycles;          /* a push seen by the consumer / a tfree by the producer after this */
    double bw_xcore;                   /* a5: on-chip cube <-> vector transfer */
    double xcore_pop_cycles;           /* a5: a pop of data already in the consumer's SRAM */
    int event_ids_per_direction;       /* 8 */
} Target;

const Target *target_get(TargetId id);
const Target *target_by_name(const char *name);      /* NULL when unknown */
/* Physical L0C row alignment for an accumulator dtype (32 for INT32 on a2a3, else 16). */
int64_t target_l0c_align_m(const Target *t, DType acc);
/* *out = t with every GM path (loads, stores, the FIX drain) capped at bw_gm_shared / streaming: the
 * figures one of `streaming` cores gets while all of them move data at once. Returns out. */
const Target *target_share_gm(const Target *t, int64_t streaming, Target *out);

#endif
