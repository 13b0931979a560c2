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

/* Executes one block of a kernel task. args[i] is the data pointer of the kernel's i-th tensor
 * parameter (row-major, packed, at the tensor view's start). Returns false after reporting to diag.
 * *cycles receives the simulated duration of the block. */
typedef struct RtKernelCall {
    const Function *kernel;        /* the AIC/AIV function being called */
    void **args; int nargs;        /* tensor data pointers, parameter order */
    int64_t block_idx, block_num;
    int task_id;
} RtKernelCall;
typedef bool (*RtRunKernel)(void *ud, const RtKernelCall *call, int64_t *cycles, DiagSink *diag);

typedef struct RtOptions {
    const Target *target;
    int threads;                   /* host worker threads; 0 = one per CPU */
    bool capture_deps;             /* build deps.json */
} RtOptions;

typedef struct RtTaskInfo {
    int id;
    const char *kernel;            /* function name */
    const char *core;              /* "aic" | "aiv" */
    int64_t block_num;
    int64_t start, end;            /* simulated cycles */
    int64_t cycles;                /* the kernel's own duration (max over blocks) */
} RtTaskInfo;

typedef struct RtResult {
    VEC(RtTaskInfo) tasks;
    int nedges;                    /* distinct (pred, succ) pairs */
    int64_t makespan_cycles;
    char *deps_json;               /* when capture_deps (malloc'd) */
} RtResult;

/* Runs Orchestration function `entry` of p (NULL = the program's Orchestration function) with its
 * tensor parameters bound to caller buffers args[i] (parameter order). Returns false after
 * reporting to diag (runtime error codes of spec §12 are reported by name). */
bool rt_run(const Program *p, const char *entry, void **args, int nargs, const RtOptions *o,
            RtRunKernel run, void *ud, RtResult *res, DiagSink *diag);
void rt_result_free(RtResult *r);

#endif
