/* sim — the core simulator: one simulated AIC or AIV core executing a machine kernel (mir).
 *
 * Requires: a Kernel (mir/mir.h) with buffers at fixed addresses, a Target (capacities, timing).
 * Produces: the kernel's functional effect on caller GM buffers, the simulated makespan in core
 * cycles, per-pipe busy time, data races / flag-protocol errors, and an optional per-pipe trace.
 * Does: keeps one byte array per on-chip space with every tile in its physical layout; a scalar unit
 * walks the kernel (unrolling loops) and issues instructions to in-order pipe queues; a discrete-event
 * loop runs the pipes concurrently, blocked only by wait_flag and pipe_barrier(PIPE_ALL); a
 * vector-clock race detector checks every access against a per-32-byte shadow memory.
 * See docs/sim.md. */
#ifndef PTOC_SIM_H
#define PTOC_SIM_H

#include "base/base.h"
#include "mir/mir.h"
#include "target/target.h"

/* One simulated core: byte arrays per space sized by target->physical[] (AIC: Mat, Left, Right, Acc,
 * Bias, scale buffers; AIV: Vec). Contents persist across sim_run calls, as on hardware. A core is
 * used by one thread at a time. */
typedef struct SimCore SimCore;
SimCore *sim_core_new(const Target *t, CoreKind kind);
void sim_core_free(SimCore *c);
/* Raw access to a space's bytes (NULL when the core has no such space); *size gets its length. */
uint8_t *sim_core_mem(SimCore *c, MemSpace space, int64_t *size);

typedef struct SimOptions {
    bool race_check;           /* run the happens-before race detector */
    bool record_gm;            /* fill SimResult.gm: the GM elements every tload / tstore touched */
    bool trace;                /* record one SimTraceEvent per executed instruction */
    int64_t block_idx, block_num;   /* values of kernel variables named "block_idx" / "block_num" */
    const Target *timing;      /* the timing figures of this run (GM bandwidth shared with the task's other
                                  blocks: target_share_gm); NULL = the core's own target */
    bool timing_only;          /* simulate timing, flags, channels and races without moving or computing
                                  data: the GM pointers are only bounds / race keys and are never read or
                                  written; an element read (tgetval / ggetval) yields no value, and a loop
                                  bound, condition or offset depending on one is a hard error (docs/sim.md) */
} SimOptions;

typedef struct SimTraceEvent { Pipe pipe; const MirInst *inst; int64_t start, end; } SimTraceEvent;

/* GM elements [lo, hi) of tensor parameter `param` (element offsets from the parameter's data
 * pointer) read or written by the kernel: the run's footprint per (param, write, atomic) as disjoint
 * ranges sorted by lo (overlapping and adjacent touches merged; not in execution order). The
 * runtime's task-level race check works on these. */
typedef struct SimGmAccess { int param; int64_t lo, hi; bool write, atomic; } SimGmAccess;

typedef struct SimResult {
    int64_t cycles;                 /* makespan of the kernel in core cycles */
    int64_t pipe_busy[PIPE_COUNT];  /* busy cycles per pipe (wait stalls excluded) */
    double cube_util;               /* pipe_busy[M] / cycles (0 when cycles == 0) */
    int64_t insts;                  /* dynamic instructions executed (sync included) */
    VEC(char *) races;              /* data races and same-pipe hazards: one message each (malloc'd) */
    VEC(char *) sync_errors;        /* flag-protocol errors: deadlock, set on set flag, tokens left set */
    VEC(SimTraceEvent) trace;       /* when opts.trace, in execution order */
    VEC(SimGmAccess) gm;            /* when opts.record_gm: the footprint (above) */
} SimResult;

/* Runs kernel k on core c. gm[i] points to parameter i's data (laid out by its MirParam
 * shape/strides, element type MirParam.dtype; a scalar parameter points to an int64_t, or is NULL);
 * outputs are written there. r is (re)initialised. Returns false (with a diag error) only on a hard
 * error such as an out-of-bounds access; races and sync errors are reported in r and do not stop the
 * run. */
bool sim_run(SimCore *c, const Kernel *k, void **gm, const SimOptions *o, SimResult *r, DiagSink *diag);
void sim_result_free(SimResult *r);

/* Runs the n kernels of one mixed task together on one cluster (cores[0] the AIC with ks[0], then the
 * AIV lanes in lane order), in one simulated time line: each core's pipes run as in sim_run and the
 * cross-core channels (mir.h, MirXDir) couple them. gm[j] are kernel j's parameter pointers. rs[j]
 * receives kernel j's result (cycles: when its last pipe finished, from the common start 0). A pop
 * with no push, a push into a full ring that is never freed, and entries left in a channel are sync
 * errors naming the kernel, the instruction and its line; the run never hangs. */
bool sim_run_group(SimCore **cores, const Kernel **ks, void ***gm, int n, const SimOptions *o, SimResult *rs,
                   DiagSink *diag);

/* Element offset of (i, j) in a tile of rows x cols with the given layout (isa_and_sync.md §3).
 * fractal is the box size in bytes (512 or 1024; ignored when slayout is none_box). */
int64_t sim_layout_offset(MirLayout blayout, MirLayout slayout, int64_t fractal, int elem_bytes,
                          int64_t rows, int64_t cols, int64_t i, int64_t j);
/* Inner box of a layout: r0 x c0 elements (1 x 1 for none_box). */
void sim_layout_box(MirLayout slayout, int64_t fractal, int elem_bytes, int64_t *r0, int64_t *c0);

/* One element of type t at p, as a double (FP16/BF16/FP32, integers); writing converts with round
 * half to even (FP16/BF16) or saturation (integers). */
double sim_read_elem(DType t, const uint8_t *p);
void sim_write_elem(DType t, uint8_t *p, double v);

/* Duration in cycles of one tile instruction of k on target t (the timing model of docs/sim.md);
 * set_flag / barrier 1, wait_flag 0. */
int64_t sim_inst_cycles(const Target *t, const Kernel *k, const MirInst *i);

/* The MAD kernels on dense operands: c[m x n] = a[m x k] (row-major) * b[k x n] (row-major).
 * FP32: each element starts at +0 and is updated c = fmaf(a, b, c) for k ascending (one rounding
 * per step, as pto-isa's TMATMUL). INT32: wrapping two's-complement sums (the INT8 path). Exposed for benchmarks and tests;
 * the *_ws forms take a workspace of sim_mad_ws_elems(m, n, k) elements instead of allocating. */
void sim_mad_f32(int64_t m, int64_t n, int64_t k, const float *a, const float *b, float *c);
void sim_mad_i32(int64_t m, int64_t n, int64_t k, const int32_t *a, const int32_t *b, int32_t *c);
int64_t sim_mad_ws_elems(int64_t m, int64_t n, int64_t k);
void sim_mad_f32_ws(int64_t m, int64_t n, int64_t k, const float *a, const float *b, float *c, float *ws);
void sim_mad_i32_ws(int64_t m, int64_t n, int64_t k, const int32_t *a, const int32_t *b, int32_t *c, int32_t *ws);
/* fmaf(a, b, c) without FMA hardware or libm (the generic MAD variant's update); exposed for tests. */
float sim_fmaf_emul(float a, float b, float c);

#endif
