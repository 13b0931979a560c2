/* rt_internal — private data of the task runtime, shared by rt.c (orchestration interpreter),
 * rt_tensor.c (descriptors, views, allocation, staging), rt_deps.c (TensorMap and edges),
 * rt_sched.c (simulated scheduling), rt_live.c (task records, rings, retirement) and rt_json.c
 * (deps.json).
 * Requires: ir.h, target.h. Produces: nothing public. */
#ifndef PTOC_RT_INTERNAL_H
#define PTOC_RT_INTERNAL_H

#include "rt/rt.h"

#define RT_NO_TASK (-1)                /* owner of an external tensor */
#define RT_TM_BUCKETS 4096             /* TensorMap buckets (power of two, spec §5.3) */
#define RT_NRINGS 4

enum { RT_DEP_WAIT = 1, RT_DEP_RETAIN = 2,
       RT_DEP_CLAIMED = 4 };             /* internal: the RETAIN claim was taken (spec §7 fanout_count) */
typedef enum { RT_SRC_EXPLICIT = 0, RT_SRC_CREATOR, RT_SRC_TENSORMAP } RtEdgeSource;
typedef enum { RT_OV_NO_OVERLAP = 0, RT_OV_COVERED, RT_OV_OTHER } RtOverlap;
typedef enum { RT_CORE_NONE = 0, RT_CORE_AIC, RT_CORE_AIV, RT_CORE_MIX } RtCoreKind;

/* The runtime tensor descriptor (spec §4.1 ChipTensor, in host form). */
typedef struct RtTensor {
    uint64_t addr;                     /* buffer base: host pointer */
    uint64_t size;                     /* buffer bytes */
    int owner;                         /* task index, RT_NO_TASK = external */
    uint64_t start;                    /* start offset in elements */
    int32_t version;
    int ndims;
    DType dtype;
    bool manual_dep;
    bool pending;                      /* tensor.create not yet materialized (create-info) */
    bool created;                      /* from tensor.create: an OUTPUT arg gets a fresh buffer */
    int64_t shape[RT_MAX_DIMS];
    int64_t strides[RT_MAX_DIMS];
    const char *name;                  /* the orchestration variable, for reports */
} RtTensor;

/* A buffer the run knows (entry parameters, runtime allocations), for naming regions in reports. */
typedef struct RtBufInfo { uint64_t addr; const char *name; DType dtype; int ndims; int64_t shape[RT_MAX_DIMS]; } RtBufInfo;

/* Bytes touched by one block of a task in buffer `buf` (rt_race.c): `count` runs of bytes
 * [lo + k * stride, hi + k * stride), k = 0 .. count - 1 (the rows of a strided view are one record;
 * count 1: the single run [lo, hi), stride unused). */
typedef struct RtAccess {
    int task;
    bool write, atomic;
    int64_t block;
    uint64_t buf;
    int64_t lo, hi, stride, count;
    const char *name;
} RtAccess;

typedef enum { RV_NONE = 0, RV_INT, RV_FLOAT, RV_TENSOR, RV_TUPLE } RvKind;
typedef struct RtValue RtValue;
struct RtValue {
    RvKind kind;
    int64_t i;                         /* RV_INT (booleans and task ids too) */
    double f;                          /* RV_FLOAT */
    RtTensor *t;                       /* RV_TENSOR: shared descriptor (aliases see updates) */
    RtValue *items; int n;             /* RV_TUPLE */
    int task1;                         /* producing task index + 1 for call results, else 0 */
};

typedef struct RtArg {
    ArgDir dir;
    RtTensor t;                        /* snapshot at submit (tensor args) */
    uint64_t scalar;                   /* AD_SCALAR */
} RtArg;

typedef struct RtFanin { int pred; unsigned flags; } RtFanin;
typedef VEC(RtFanin) RtFaninVec;

typedef struct RtTask {
    uint64_t id;                       /* (ring << 32) | local */
    const Function *kernel;            /* NULL: hidden allocation task */
    int func_id;
    RtCoreKind core;
    bool manual;
    int64_t block_num;
    bool sync_start;                   /* all blocks start together (require_sync_start) */
    RtArg *args; int nargs;
    RtFanin *fanins; int nfanins;      /* deduplicated per producer, flags OR-ed */
    int64_t ready, start, end, cycles; /* simulated */
    bool done;
    /* streaming schedule and lifetime (rt_sched.c, rt_live.c; spec §7–§8) */
    int ring;
    int npending;                      /* WAIT producers that have not ended yet */
    int nretain;                       /* RETAIN consumers claimed that have not ended yet */
    bool scope_open;                   /* the submitting scope's reference (spec §7 bit 31) */
    int64_t cons_time;                 /* latest end of the task and of its ended RETAIN consumers */
    int *succ; int nsucc, capsucc;     /* WAIT consumers waiting for this task's end */
    int capargs, capfanins;            /* a recycled slot keeps its arrays (no allocation per task) */
} RtTask;

typedef struct RtEdge {
    int pred, succ, arg;               /* arg = consumer slot, -1 for explicit */
    RtEdgeSource src;
    unsigned flags;
    RtOverlap overlap;                 /* tensormap edges */
    RtTensor consumer, producer;       /* geometry snapshots */
} RtEdge;

typedef struct RtTmEntry { RtTensor geo; int producer; int next; } RtTmEntry;
typedef struct RtTensorMap {
    int head[RT_TM_BUCKETS];           /* -1 = empty */
    VEC(RtTmEntry) pool;
    int free_list;
} RtTensorMap;

typedef struct RtScope { bool manual; int ntasks; VEC(int) tasks; } RtScope;  /* tasks: their scope reference */

/* A call site's parsed directions and attributes (rt_submit.c): a loop submits the same Call
 * expression every iteration, and parsing it once keeps string compares out of the submit path. */
#define RT_SITE_ARGS 16
#define RT_SITES 64
typedef struct RtCallSite {
    const Expr *call;                  /* NULL = empty */
    int func_id;
    const AttrVal *block_av, *deps_av;
    ArgDir dirs[RT_SITE_ARGS];
} RtCallSite;

typedef struct { int64_t key; int idx; } RtHeapItem;
typedef VEC(RtHeapItem) RtHeap;

/* Task index -> record slot for the live tasks (open addressing, linear probing; key -1 = empty). */
typedef struct RtIdxMap { int *key, *val; int cap, n; } RtIdxMap;
/* The live tasks of one ring in submission (local id) order: a circular queue. */
typedef struct RtRingQ { int *q; int head, len, cap; } RtRingQ;
/* Per buffer address: the latest end of a task that wrote it / touched it (tensor.read / write waits). */
typedef struct RtBufEnd { uint64_t addr; int64_t wend, tend; } RtBufEnd;
typedef struct RtBufEnds { RtBufEnd *e; int cap, n; } RtBufEnds;
/* Slice descriptors by content (rt_tensor.c): open addressing, NULL = empty. */
typedef struct RtSliceSet { RtTensor **e; int cap, n; } RtSliceSet;

typedef struct Rt {
    const Program *prog;
    const RtOptions *opt;
    const Target *tgt;
    RtRunKernel run;
    void *ud;
    DiagSink *diag;
    Arena *arena;
    VEC(RtTask) tasks;                 /* record pool: keep mode, slot = task index; else recycled slots */
    bool keep;                         /* keep every record (race check, deps.json read them after the run) */
    int ntasks, ndone;                 /* tasks submitted / ended */
    VEC(int) free_slots;               /* retire mode: pool slots of retired tasks */
    RtIdxMap live;                     /* retire mode: task index -> pool slot */
    RtRingQ rings[RT_NRINGS];          /* live tasks per ring (flow control, FIFO retirement) */
    RtHeap heap;                       /* ready tasks by (ready time, task index) */
    RtBufEnds bufends;
    RtSliceSet slices;
    bool failed;                       /* a kernel failed: no further task runs */
    int nedges;
    int64_t makespan;
    bool want_infos;
    VEC(RtTaskInfo) infos;             /* RtResult.tasks, filled as tasks end */
    RtFaninVec fan;                    /* scratch: the fanins of the task being submitted */
    RtCallSite sites[RT_SITES];        /* direct-mapped by call expression */
    VEC(RtEdge) edges;
    RtTensorMap tm;
    VEC(void *) buffers;               /* runtime allocations (freed at the end) */
    VEC(RtScope) scopes;               /* runtime scope stack; depth 0 = implicit outer scope */
    int scopes_init;                   /* slots of scopes.data initialized (their task lists are reused) */
    VEC(int64_t) spmd;                 /* enclosing SC_SPMD core_num values */
    VEC(bool) spmd_sync;               /* ... and their sync_start (runtime.md §9.2) */
    uint32_t ring_next[RT_NRINGS];
    VEC(RtValue) env;                  /* indexed by Var id */
    VEC(const char *) func_names;      /* func_id -> kernel name */
    VEC(const Var *) output_vars;      /* tensor.create vars passed as pl.adir.output somewhere */
    VEC(RtAccess) accesses;            /* GM accesses of every block (race check) */
    VEC(RtBufInfo) bufinfo;
    int error_code;
    int nrun;                          /* tasks [0, nrun) have run (rt_run_pending) */
    int64_t orch_time;                 /* the orchestrator's clock: tasks submitted now are ready no earlier */
    int64_t *cores_aic, *cores_aiv;    /* free time of each core across batches */
    struct RtPar *par;                 /* host worker threads (rt_parallel.c), NULL: one thread */
    bool par_batch;                    /* a batch runs with the host threads (rt_run_pending) */
    int par_lo;                        /* tasks below this index have all ended (host-thread batches) */
} Rt;

/* Whether a task writes an argument of this direction (its data is copied back, it orders readers). */
static inline bool rt_is_written(ArgDir d) { return d == AD_OUTPUT || d == AD_INOUT || d == AD_OUTPUT_EXISTING || d == AD_NO_DEP; }

/* rt.c */
bool rt_fail(Rt *rt, int code, Span sp, const char *fmt, ...) __attribute__((format(printf, 4, 5)));
bool rt_eval(Rt *rt, const Expr *e, RtValue *out);
bool rt_in_manual_scope(const Rt *rt);

/* rt_access.c: tensor.read / tensor.write in orchestration code */
bool rt_eval_access(Rt *rt, const Expr *e, RtValue *out);

/* rt_submit.c */
RtCoreKind rt_kernel_core(const Function *f);        /* RT_CORE_NONE: not submittable */
void rt_prepare(Rt *rt, const Function *orch);       /* func ids, tensor.create output vars */
bool rt_is_output_var(const Rt *rt, const Var *v);
int rt_alloc_task(Rt *rt, RtTensor **ts, int n);     /* hidden allocation task; returns its index */
bool rt_submit_call(Rt *rt, const Expr *call, RtValue *out);

/* rt_tensor.c */
int64_t rt_tensor_numel(const RtTensor *t);
int64_t rt_tensor_extent(const RtTensor *t);         /* 1 + max element offset, 0 if empty */
bool rt_tensor_packed(const RtTensor *t);
void rt_tensor_set_packed_strides(RtTensor *t);
void *rt_tensor_data(const RtTensor *t);             /* addr + start elements */
bool rt_tensor_from_type(RtTensor *t, const Type *ty);   /* shape/dtype/packed strides; false if dynamic */
void *rt_alloc_buffer(Rt *rt, uint64_t bytes);       /* zero-filled, rounded up to 1024 bytes */
void rt_materialize(Rt *rt, RtTensor *t, int owner); /* fresh zeroed buffer owned by task `owner` */
bool rt_slice(Rt *rt, const RtTensor *src, const int64_t *shape, int nshape, const int64_t *off,
              int noff, RtTensor *out, Span sp);
void rt_view_of(const RtTensor *t, RtView *v);
RtTensor *rt_tensor_intern(Rt *rt, const RtTensor *t);  /* the shared descriptor equal to *t */
void rt_gather(const RtTensor *t, void *dst);        /* strided view -> packed copy */
void rt_scatter(const RtTensor *t, const void *src); /* packed copy -> strided view */

/* rt_deps.c */
void rt_tm_init(RtTensorMap *m);
void rt_tm_free(RtTensorMap *m);
RtOverlap rt_overlap(const RtTensor *probe, const RtTensor *entry);
/* Fills task `ti`'s fanins and records edges (spec §5 steps 2–4). explicit_deps: task indices. */
void rt_derive_deps(Rt *rt, int ti, const int *explicit_deps, const unsigned *explicit_flags, int nexplicit);

/* rt_sched.c */
bool rt_schedule(Rt *rt, RtResult *res);
bool rt_run_pending(Rt *rt);                         /* runs every submitted task (a tensor.read batch) */
void rt_wire(Rt *rt, int ti);                        /* after its deps: readiness, RETAIN claims, heap */
bool rt_drain(Rt *rt, bool all);                     /* runs the ready tasks due by the orchestrator's clock */
bool rt_pop_task(Rt *rt);                            /* runs the first ready task */
/* A task's kernel arguments as its blocks see them (non-packed views staged in packed copies). */
typedef struct RtTaskArgs { void **ptrs, **staged, **params; RtView *views; uint64_t *scalars; int nt, ns; } RtTaskArgs;
void rt_task_args_prepare(Rt *rt, const RtTask *t, RtTaskArgs *a);
void rt_task_args_finish(const Rt *rt, const RtTask *t, RtTaskArgs *a, bool ok);

/* rt_parallel.c: kernels simulated on host worker threads, reported in the serial order. */
void rt_par_init(Rt *rt);                            /* starts the workers when opt->threads asks for them */
void rt_par_free(Rt *rt);
void rt_par_begin(Rt *rt, int lo, int n);            /* a batch of tasks [lo, n) starts */
void rt_par_offer(Rt *rt, int ti);                   /* ti is ready: run it early when that cannot change results */
void rt_par_wait(Rt *rt, int ti);                    /* ti is next in the serial order: run it now if not yet, wait */
bool rt_par_commit(Rt *rt, int ti, const RtKernelCall *call, int64_t *cycles);   /* reports block call->block_idx */
void rt_par_done(Rt *rt, int ti);                    /* every block of ti reported */
void rt_par_end(Rt *rt);                             /* the batch ended (or failed): waits for the workers */

/* rt_live.c */
RtTask *rt_task(Rt *rt, int idx);                    /* NULL once retired (never in keep mode) */
RtTask *rt_task_add(Rt *rt, int idx, int ring);      /* a zeroed record for new task idx on ring */
RtArg *rt_task_args(Rt *rt, RtTask *t, int n);              /* t->args: n zeroed entries */
RtFanin *rt_task_fanins(Rt *rt, RtTask *t, int n);          /* t->fanins: room for n */
bool rt_consumed_by(const Rt *rt, const RtTask *t);  /* CONSUMED no later than the orchestrator's clock */
void rt_retire(Rt *rt);                              /* reclaims consumed tasks, FIFO per ring */
bool rt_ring_reserve(Rt *rt, int ring, Span sp);     /* flow control: waits for a free slot on ring */
void rt_scope_begin(Rt *rt, bool manual);           /* pushes a runtime scope */
void rt_scope_end(Rt *rt);                           /* pops it, releasing the scope reference of its tasks */
void rt_live_free(Rt *rt);
void rt_bufend_note(Rt *rt, uint64_t addr, int64_t end, bool write);
int64_t rt_bufend_get(const Rt *rt, uint64_t addr, bool write);

/* rt_race.c */
RtAccessSink *rt_access_sink(Rt *rt, int task, int64_t block);
void rt_check_races(Rt *rt, RtResult *res);
void rt_note_buffer(Rt *rt, const RtTensor *t);     /* remembers a buffer's name and shape */

/* rt_json.c */
uint64_t rt_tensor_id(uint64_t addr, int32_t version);
char *rt_deps_json(const Rt *rt);
const char *rt_dtype_name(DType d);                  /* runtime DataType name, "FLOAT32" */

#endif
