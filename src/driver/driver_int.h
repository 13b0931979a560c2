/* driver_int — the DrvSession structure and the helpers shared by the driver's files
 * (driver.c: session, options, load; compile.c: passes + backend; run.c: runtime + simulator +
 * golden comparison; report.c: JSON and text reports; output.c: the output tree). */
#ifndef PTOC_DRIVER_INT_H
#define PTOC_DRIVER_INT_H

#include <pthread.h>

#include "driver/driver.h"
#include "rt/rt.h"
#include "sim/sim.h"

typedef struct DrvDump { char *file; char *text; } DrvDump;     /* "03_after_OutlineIncoreScopes.py" */

typedef struct DrvBinding { int param; char *path; bool output; } DrvBinding;   /* --in / --out */

typedef struct DrvCore { void *core; CoreKind kind; bool busy; } DrvCore;   /* SimCore pool entry */

typedef struct DrvTimeline DrvTimeline;   /* timeline.c */
typedef struct PtoCheck PtoCheck;         /* pto_check.c */

struct DrvSession {
    DrvOptions opt;
    char *dump_dir;                 /* owned copy of opt.dump_dir */
    bool keep_dumps;                /* keep every pass dump in memory (output tree) */
    DiagSink diag;
    int diag_base;                  /* the report looks at diagnostics from here on (set when a
                                       compile or run starts: earlier API misuse does not count) */
    /* source */
    char *path, *text, *entry;
    SrcFile src;
    IrCtx *ir;
    Program *source;                /* as parsed: interpreter input, parameter queries */
    Program *prog;                  /* rewritten by the passes */
    FrontBinding bind;              /* the binding of both parses (drv_reparse), owning its lists: */
    FrontArg *bind_args, *bind_defines;
    const Function *entry_fn;       /* in source */
    DrvParam *params; int nparams;
    VEC(DrvBinding) bindings;
    VEC(FrontArg) args;             /* --arg (names malloc'd) */
    VEC(FrontArg) in_args;          /* --in shapes (names malloc'd) */
    bool loaded, compiled;
    /* compile products */
    VEC(DrvDump) dumps;
    VEC(DrvPassTime) pass_times;
    VEC(DrvTile) tiles;
    VEC(DrvKernel) kernels;
    Arena *karena;                  /* kernels' arena */
    char *orch;                     /* orchestration C++ or NULL */
    char out_made[32];              /* output.c: the subdirectory created last */
    double compile_seconds;
    /* run */
    DrvRunStats run;
    pthread_mutex_t lock;           /* guards pool and run statistics during rt_run */
    VEC(DrvCore) pool;
    PtoCheck *ptocheck;             /* --check-pto-isa recording during a run (pto_check.c), else NULL */
    void *golden_beside;            /* during execute(): the golden run, a runtime worker's first job */
    DrvTimeline *timeline;   /* timeline.c: per-core pipe spans of the last run (NULL: none) */
};

/* args.c: the parse binding (--arg, --in, then b; names borrowed, *args to free), the --arg check
 * after loading, and freeing the lists. */
void drv_binding_merge(const DrvSession *s, const FrontBinding *b, FrontBinding *out, FrontArg **args);
bool drv_check_args(DrvSession *s);
void drv_args_free(DrvSession *s);
/* svg.c: report/memory.svg */
void drv_memory_svg(const DrvSession *s, StrBuf *out);
/* kernel_config.c: DIR/kernel_config.py; kernels/<aic|aiv>/ of a kernel */
void drv_kernel_config(DrvSession *s, StrBuf *out);
void drv_kernels_cpp(DrvSession *s);          /* DrvKernel.cpp / cpp_why of every kernel, once */
const char *drv_kernel_subdir(const DrvKernel *dk);
/* driver.c: a fresh s->prog, parsed again with the load's binding */
bool drv_reparse(DrvSession *s);
/* compile.c */
bool drv_compile_impl(DrvSession *s);
void drv_compile_reset(DrvSession *s);
/* run.c */
void drv_run_reset(DrvSession *s);
void drv_pool_free(DrvSession *s);
struct SimCore *drv_pool_acquire(DrvSession *s, CoreKind kind);   /* a free simulated core of that kind */
const Target *drv_block_timing(const DrvSession *s, CoreKind kind, int64_t block_num, int members, Target *buf);
void drv_pool_release(DrvSession *s, struct SimCore *c);
DrvKernel *drv_kernel_of(DrvSession *s, const Function *f);      /* the compiled kernel of function f */
struct SimResult;
void drv_record(DrvSession *s, DrvKernel *dk, const struct SimResult *r);   /* a run's statistics, races, sync errors */
/* What one block's kernels report (one kernel, or the members of a mixed task), kept from the run
 * (any host thread) to drv_block_commit (the runtime's thread, serial order; call NULL: free only). */
#define DRV_MAX_MEMBERS 3
typedef struct DrvBlockRec { int n; DrvKernel *dk[DRV_MAX_MEMBERS]; SimResult r[DRV_MAX_MEMBERS]; } DrvBlockRec;
void drv_block_commit(void *ud, const RtKernelCall *call, void *record);
/* run_group.c: one block of a mixed task (a Group function) on one simulated cluster */
bool drv_group_exec(DrvSession *s, const RtKernelCall *call, int64_t *cycles, void **record, DiagSink *diag);
int drv_group_members(DrvSession *s, const Function *g, DrvKernel **dk);   /* DRV_MAX_MEMBERS; 0: broken */
/* footprint.c: the GM elements a block may touch (RtKernelHooks.footprint) */
bool drv_block_footprint(void *ud, const RtKernelCall *call, int64_t (*box)[5]);

/* timeline.c: report/timeline.json. Tracing is on when the run keeps its output tree (--keep,
 * ptoc_keep_dumps). drv_timeline_add records one kernel run: the block's trace shifted by
 * call->start_cycle, on core `kind` number core_index (absolute: an AIV of mixed cluster c, lane l, is
 * 2c + l); a mixed task calls it once per member core. drv_timeline_core: that index for a kernel run
 * alone on the call's core (or as member k of a mixed call). */
bool drv_timeline_on(const DrvSession *s);
int drv_timeline_core(const RtKernelCall *call, const Kernel *k);
void drv_timeline_add(DrvSession *s, const RtKernelCall *call, const Kernel *k, CoreKind kind, int core_index,
                      const SimResult *r);
void drv_timeline_reset(DrvSession *s);
void drv_timeline_json(const DrvSession *s, StrBuf *out);

/* The entry function of a program: by name, else the program's non-InCore function. */
const Function *drv_find_entry(const Program *p, const char *entry);
/* Number of elements of a static-shaped tensor type (-1 when dynamic). */
int64_t drv_type_numel(const Type *t);
/* fn(job 0) on this thread and fn(job t) for t = 1 .. n - 1 on threads of their own (here when one
 * cannot be made), all done on return; jobs is an array of n elements of `size` bytes. */
void drv_run_jobs(void *jobs, size_t size, int n, void *(*fn)(void *));

#endif
