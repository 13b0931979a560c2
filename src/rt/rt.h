/* rt — the task runtime (spec/runtime.md): interprets an Orchestration function, submits its
 * kernel calls as tasks with argument tags, derives dependencies through the TensorMap exactly as
 * the reference runtime does (creator + modifier edges, WAIT/RETAIN), honours AUTO/MANUAL scopes,
 * expands SPMD tasks into blocks, and schedules tasks on simulated cores (AIC / AIV) in simulated
 * time: a task starts at the latest of its producers' ends and its core's free time, plus the
 * per-task dispatch overhead. Kernels are executed through a caller-supplied callback (the driver
 * wires it to the core simulator), so this layer never depends on how a kernel runs. */
#ifndef PTOC_RT_H
#define PTOC_RT_H

#include "ir/ir.h"
#include "target/target.h"

#define RT_MAX_DIMS 5

/* Geometry of one tensor argument as the orchestration passed it (spec §4.1, element units). */
typedef struct RtView {
    DType dtype;
    int ndims;
    int64_t shape[RT_MAX_DIMS];
    int64_t strides[RT_MAX_DIMS];  /* element strides of the underlying buffer */
    bool packed;                   /* strides are row-major packed for shape */
} RtView;

/* Where a kernel block reports the GM elements it touched (task-level race check, rt_race.c):
 * elements [lo, hi) of the packed data of parameter `param` (an index into RtKernelCall.params). */
typedef struct RtAccessSink RtAccessSink;
void rt_record_gm(RtAccessSink *s, int param, int64_t lo, int64_t hi, bool write, bool atomic);

/* Executes one block of a kernel task. args[i] is the data pointer of the kernel's i-th tensor
 * parameter (row-major, packed, at the tensor view's start). A view that is not packed in its
 * buffer (e.g. a column slice) is staged: gathered into a packed copy before the task's first block
 * and scattered back after its last block when the argument is written. Returns false after
 * reporting to diag. *cycles receives the simulated duration of the block. */
/* The core shape of a block (values as the runtime's RtCoreKind): one AIC, one AIV, or a whole
 * cluster for a mixed task. */
typedef enum { RT_CALL_AIC = 1, RT_CALL_AIV = 2, RT_CALL_MIX = 3 } RtCallCore;
typedef struct RtKernelCall {
    const Function *kernel;        /* the AIC/AIV function being called */
    void **args; int nargs;        /* tensor data pointers, parameter order */
    const RtView *views;           /* nargs entries: the original geometry of each tensor arg */
    const uint64_t *scalars; int nscalars;  /* scalar args in parameter order, bit-cast to 64 bits */
    void **params; int nparams;    /* every parameter in order: a tensor's data pointer (as in args)
                                      or a pointer to a scalar's 64-bit slot (as sim_run wants) */
    int64_t block_idx, block_num;
    int task_id;                   /* index into RtResult.tasks */
    RtAccessSink *gm_sink;         /* non-NULL when the race check wants the block's GM accesses */
    RtCallCore core;               /* where the block runs (the per-core timeline, driver/timeline.c) */
    int core_index;                /* AIC or AIV index; for RT_CALL_MIX the cluster c = AIC c + AIV 2c, 2c+1 */
    int64_t start_cycle;           /* the block's start in run-wide simulated cycles */
} RtKernelCall;
typedef bool (*RtRunKernel)(void *ud, const RtKernelCall *call, int64_t *cycles, DiagSink *diag);

/* The two-phase form of the callback, for parallel simulation (rt_parallel.c, RtOptions.threads):
 * exec runs one block on any host thread (core_index / start_cycle are not known yet and read as 0;
 * gm_sink is only a flag there) and keeps everything the block would report in *record; commit is
 * then called on the runtime's thread in the serial execution order with the final call and
 * reports the record (statistics, races, timeline, rt_record_gm) and frees it; record may be NULL
 * (exec failed before producing one), call NULL frees the record without reporting it. footprint
 * bounds, without running anything, what block call->block_idx (every block when it is -1) may
 * touch of each parameter i: box[i] = { r0, r1, c0, c1, cols }, rows [r0, r1) x columns [c0, c1)
 * of its packed data seen as a row-major matrix of `cols` columns (r0 == r1: nothing). It must be
 * conservative: false (or the whole parameter) when unknown. */
typedef struct RtKernelHooks {
    bool (*exec)(void *ud, const RtKernelCall *call, int64_t *cycles, void **record, DiagSink *diag);
    void (*commit)(void *ud, const RtKernelCall *call, void *record);
    bool (*footprint)(void *ud, const RtKernelCall *call, int64_t (*box)[5]);
} RtKernelHooks;

typedef struct RtOptions {
    const Target *target;
    int threads;                   /* host worker threads simulating kernels; 0 = one per CPU, 1 = all
                                      on the calling thread. More than one needs `hooks`; results,
                                      cycles and reports are the same for every count (docs/runtime.md) */
    const RtKernelHooks *hooks;    /* the two-phase callback (NULL: `run` only, one thread) */
    bool capture_deps;             /* build deps.json */
    bool race_check;               /* check that tasks touching overlapping GM (one writing) are ordered */
    bool timing_only;              /* no data: tensor buffers are never read or written (views are not
                                      staged; an orchestration tensor.read is an error, tensor.write is
                                      timed but writes nothing) */
    int task_window;               /* task slots per ring (spec §7); 0 = 16384. A scope whose task
                                      count reaches window - 1 is a SCOPE_DEADLOCK (§12.2); a ring
                                      with window - 1 live tasks stalls the orchestrator until its
                                      oldest task is CONSUMED (flow control, docs/runtime.md) */
    bool no_task_list;             /* leave RtResult.tasks empty (memory per task then bounded) */
    void (*first_job)(void *arg);  /* with worker threads (threads > 1): run once, by a worker before it
                                      takes any kernel, before rt_run returns (the driver's golden run:
                                      its thread simulates when it ends). Not run at all when no worker
                                      thread could be had: the job must tell its caller it ran */
    void *first_job_arg;
} RtOptions;

typedef struct RtTaskInfo {
    int id;
    uint64_t task_id;              /* runtime id: (ring << 32) | local id (spec §4.1) */
    const char *kernel;            /* function name; "alloc_tensors" for a hidden allocation task */
    const char *core;              /* "aic" | "aiv" | "mix" | "none" (allocation task) */
    int func_id;                   /* -1 for an allocation task */
    int64_t block_num;
    int64_t start, end;            /* simulated cycles */
    int64_t cycles;                /* the kernel's own duration (max over blocks) */
} RtTaskInfo;

typedef struct RtResult {
    VEC(RtTaskInfo) tasks;         /* by task index; empty with RtOptions.no_task_list */
    long ntasks;                   /* tasks run */
    int nedges;                    /* distinct (pred, succ) pairs */
    int64_t makespan_cycles;
    char *deps_json;               /* when capture_deps (malloc'd) */
    int error_code;                /* spec §12 code of a fatal runtime error, 0 = none */
    VEC(char *) races;             /* task-level races, one message each (malloc'd) */
} RtResult;

/* Runtime error codes (spec §12.1). */
enum {
    RT_ERR_NONE = 0, RT_ERR_SCOPE_DEADLOCK = 1, RT_ERR_HEAP_RING_DEADLOCK = 2,
    RT_ERR_FLOW_CONTROL_DEADLOCK = 3, RT_ERR_DEP_POOL_OVERFLOW = 4, RT_ERR_INVALID_ARGS = 5,
    RT_ERR_REQUIRE_SYNC_START_INVALID = 7, RT_ERR_TENSOR_WAIT_TIMEOUT = 8,
    RT_ERR_EXPLICIT_ORCH_FATAL = 9, RT_ERR_SCOPE_TASKS_OVERFLOW = 10, RT_ERR_TENSORMAP_OVERFLOW = 11,
};
const char *rt_error_name(int code);     /* "INVALID_ARGS" */

/* Runs Orchestration function `entry` of p (NULL = the program's Orchestration function) with its
 * tensor parameters bound to caller buffers args[i] (parameter order). Returns false after
 * reporting to diag (runtime error codes of spec §12 are reported by name). */
bool rt_run(const Program *p, const char *entry, void **args, int nargs, const RtOptions *o,
            RtRunKernel run, void *ud, RtResult *res, DiagSink *diag);
void rt_result_free(RtResult *r);

#endif
