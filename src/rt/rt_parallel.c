/* rt_parallel — kernels simulated on host worker threads (RtOptions.threads), with results, cycle
 * counts and reports identical to the one-thread run (docs/runtime.md "Host threads").
 * Requires: the two-phase callback (RtKernelHooks: exec on any thread, commit in order); keep mode
 *   (Rt.tasks slot = task index, no record retires); rt_sched.c's batches (rt_run_pending: every
 *   task not run yet is known), which call rt_par_offer when a task becomes ready, rt_par_wait +
 *   rt_par_commit + rt_par_done when the scheduler takes the task in its serial order.
 * Produces: every task's blocks executed (data effects, cycles, a record per block) before the
 *   scheduler needs them; the scheduler then places, times and reports them exactly as it would
 *   have had it run them itself (a kernel's cycles never depend on its start time or core).
 * Does: a task that becomes ready runs early on a worker only when no other task whose data effects
 *   could interleave with it is still to run: every task that has not started yet and touches an
 *   overlapping part of a buffer (one of the two writing) must be a WAIT-descendant of it. Then its
 *   data effects commute with everything running beside it or after it, so the bytes are the ones
 *   the serial order produces, even in a racy program. Otherwise it runs when the scheduler reaches
 *   it (still on a worker, beside the early tasks, which it cannot conflict with). The blocks of an
 *   SPMD task run as separate jobs unless the kernel's blocks do not commute (atomic adds).
 *   Everything a block reports (diagnostics, statistics, races, GM accesses) is kept and handed over
 *   in the serial order, so reports do not depend on which thread finished first. */
#include "rt/rt_internal.h"
#include "base/thread.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define PAR_SCAN_BUDGET 512    /* footprint entries looked at per offered task before giving up */
#define PAR_REACH_BUDGET 512   /* fanin steps per descendant check before giving up */
#define PAR_MAX_THREADS 64

enum { PAR_IDLE = 0, PAR_QUEUED, PAR_DONE };   /* ParTask.state */

typedef struct ParBlock {
    int64_t cycles;
    void *record;                  /* the hooks' report of the block, until commit */
    bool ok, ran;
    DiagSink diag;
    RtAccessSink *sink;            /* made on the runtime's thread (the arena is not shared) */
} ParBlock;

typedef struct ParTask {
    bool started;                  /* read and written by the runtime's thread only */
    int state;                     /* under RtPar.lock */
    RtTaskArgs args;
    ParBlock *blocks;
    int64_t left;                  /* jobs of the task still to finish */
    bool failed;                   /* some block failed: staged views are not scattered */
} ParTask;

typedef struct ParJob { int task; int64_t block; } ParJob;   /* block -1: every block, in order */
typedef VEC(ParJob) ParQueue;

/* Bytes [lo, hi) of buffer addr that task `task` may touch through tensor argument `arg` (the
 * kernel's footprint, RtKernelHooks.footprint); whole: the argument's whole view (then two such
 * views are compared exactly by their strides). block: for the check between SPMD blocks. */
typedef struct ParFoot {
    uint64_t addr;
    int64_t lo, hi, group_max, block;
    int64_t base, cols, eb, r0, r1, c0, c1;   /* the box: rows x cols of a matrix at element base */
    int task, arg;
    bool write, whole;
} ParFoot;
typedef VEC(ParFoot) ParFoots;

typedef struct RtPar {
    Rt *rt;
    pthread_t threads[PAR_MAX_THREADS];   /* workers; the runtime's thread works too (rt_par_wait) */
    int nthreads;
    pthread_mutex_t lock;
    pthread_cond_t work, done;
    bool first_job_taken;          /* RtOptions.first_job: some worker runs (or ran) it */
    ParQueue urgent, normal;       /* urgent: the task the scheduler waits for */
    int urgent_head, normal_head;
    bool quit;
    int lo, n;                     /* the batch */
    ParTask *tasks;                /* [n - lo] */
    ParFoots foot;                 /* sorted by (addr, lo) */
    int *stamp; int epoch;         /* descendant search */
    VEC(int) stack;
} RtPar;

static bool blocks_disjoint(const Rt *rt, int ti);

/* ---------------------------------------------------------------- jobs */
static void run_block(RtPar *p, int ti, ParTask *pt, int64_t b) {
    Rt *rt = p->rt;
    const RtTask *t = &rt->tasks.data[ti];
    ParBlock *blk = &pt->blocks[b];
    RtKernelCall call = { t->kernel, pt->args.ptrs, pt->args.nt, pt->args.views, pt->args.scalars, pt->args.ns,
                          pt->args.params, t->nargs, b, t->block_num, ti,
                          blk->sink, (RtCallCore)t->core, 0, 0 };
    blk->ok = rt->opt->hooks->exec(rt->ud, &call, &blk->cycles, &blk->record, &blk->diag);
    blk->ran = true;
}

static void run_job(RtPar *p, ParJob j) {
    ParTask *pt = &p->tasks[j.task - p->lo];
    bool ok = true;
    if (j.block >= 0) { run_block(p, j.task, pt, j.block); ok = pt->blocks[j.block].ok; }
    else
        for (int64_t b = 0; b < p->rt->tasks.data[j.task].block_num && ok; b++) { run_block(p, j.task, pt, b); ok = pt->blocks[b].ok; }
    pthread_mutex_lock(&p->lock);
    if (!ok) pt->failed = true;
    bool last = --pt->left == 0;
    pthread_mutex_unlock(&p->lock);
    if (!last) return;
    rt_task_args_finish(p->rt, &p->rt->tasks.data[j.task], &pt->args, !pt->failed);   /* scatter staged views */
    pthread_mutex_lock(&p->lock);
    pt->state = PAR_DONE;
    pthread_cond_broadcast(&p->done);
    pthread_mutex_unlock(&p->lock);
}

static bool take_job(RtPar *p, ParJob *j) {
    if (p->urgent_head < p->urgent.len) { *j = p->urgent.data[p->urgent_head++]; return true; }
    if (p->normal_head < p->normal.len) { *j = p->normal.data[p->normal_head++]; return true; }
    return false;
}

static void *worker(void *arg) {
    RtPar *p = arg;
    pthread_mutex_lock(&p->lock);
    const RtOptions *o = p->rt->opt;
    if (o->first_job && !p->first_job_taken) {
        p->first_job_taken = true;
        pthread_mutex_unlock(&p->lock);
        o->first_job(o->first_job_arg);
        pthread_mutex_lock(&p->lock);
    }
    for (;;) {
        ParJob j;
        if (take_job(p, &j)) {
            pthread_mutex_unlock(&p->lock);
            run_job(p, j);
            pthread_mutex_lock(&p->lock);
        } else if (p->quit) break;
        else pthread_cond_wait(&p->work, &p->lock);
    }
    pthread_mutex_unlock(&p->lock);
    return NULL;
}

/* Prepares task ti's arguments (on the runtime's thread: staging reads the producers' data, which
 * are complete) and queues its blocks. */
static void start_task(RtPar *p, int ti, bool urgent) {
    Rt *rt = p->rt;
    const RtTask *t = &rt->tasks.data[ti];
    ParTask *pt = &p->tasks[ti - p->lo];
    rt_task_args_prepare(rt, t, &pt->args);
    pt->blocks = calloc((size_t)t->block_num, sizeof(ParBlock));
    PTOC_ASSERT(pt->blocks, "out of memory");
    for (int64_t b = 0; rt->opt->race_check && b < t->block_num; b++) pt->blocks[b].sink = rt_access_sink(rt, ti, b);
    pt->started = true;
    bool each = t->block_num > 1 && blocks_disjoint(rt, ti);
    pthread_mutex_lock(&p->lock);
    pt->state = PAR_QUEUED;
    pt->left = each ? t->block_num : 1;
    ParQueue *q = urgent ? &p->urgent : &p->normal;
    if (each) for (int64_t b = 0; b < t->block_num; b++) vec_push(q, ((ParJob){ ti, b }));
    else vec_push(q, ((ParJob){ ti, -1 }));
    pthread_cond_broadcast(&p->work);
    pthread_mutex_unlock(&p->lock);
}

/* ---------------------------------------------------------------- early-start test */
static bool is_kernel_task(const RtTask *t) { return t->core != RT_CORE_NONE && t->block_num > 0 && t->kernel; }

/* The footprint of block `block` (-1: every block) of task ti, appended to out: per tensor argument
 * the kernel's box mapped to buffer bytes. A staged (non-packed) view is gathered and scattered
 * whole, so it counts whole; inside its private copy only blocks meet (key: the argument). */
static void footprint(const Rt *rt, int ti, int64_t block, bool private_keys, ParFoots *out) {
    const RtTask *t = &rt->tasks.data[ti];
    int n = t->nargs;
    void **params = calloc((size_t)n + 1, sizeof(void *));
    int64_t (*box)[5] = calloc((size_t)n + 1, sizeof *box);
    PTOC_ASSERT(params && box, "out of memory");
    for (int a = 0; a < n; a++)
        if (t->args[a].dir == AD_SCALAR) params[a] = (void *)&t->args[a].scalar;
    RtKernelCall call = { t->kernel, NULL, 0, NULL, NULL, 0, params, n, block, t->block_num, ti, NULL, (RtCallCore)t->core, 0, 0 };
    bool known = rt->opt->hooks->footprint && rt->opt->hooks->footprint(rt->ud, &call, box);
    for (int a = 0; a < n; a++) {
        const RtTensor *x = &t->args[a].t;
        if (t->args[a].dir == AD_SCALAR) continue;
        int64_t eb = dtype_bytes(x->dtype), numel = rt_tensor_numel(x), cols = x->ndims ? x->shape[x->ndims - 1] : 1;
        int64_t rows = cols > 0 ? numel / cols : 0, *b = box[a];
        if (numel == 0 || (known && b[0] == b[1])) continue;        /* untouched */
        if (known && b[0] < b[1] && b[2] < b[3] && b[4] != cols && b[4] > 0 && b[0] >= 0 && b[2] >= 0 && b[3] <= b[4] &&
            b[1] <= numel / b[4]) {                  /* the kernel sees another shape: its rows' span */
            int64_t e0 = b[0] * b[4] + b[2], e1 = (b[1] - 1) * b[4] + b[3];
            b[0] = e0 / cols, b[1] = (e1 + cols - 1) / cols, b[2] = 0, b[3] = cols;
        } else if (!known || b[4] != cols || b[0] < 0 || b[1] > rows || b[2] < 0 || b[3] > cols || b[0] > b[1] || b[2] > b[3])
            b[0] = 0, b[1] = rows, b[2] = 0, b[3] = cols;
        if (b[0] == b[1] || b[2] == b[3]) continue;
        ParFoot f = { x->addr, 0, 0, 0, block, (int64_t)x->start, cols, eb, b[0], b[1], b[2], b[3], ti, a,
                      rt_is_written(t->args[a].dir), false };
        f.whole = b[0] == 0 && b[1] == rows && b[2] == 0 && b[3] == cols;
        if (!rt_tensor_packed(x) && x->ndims > 0) {
            if (private_keys) f.addr = (uint64_t)a, f.base = 0;              /* the task's own staged copy */
            else {                                                            /* gathered and scattered whole */
                f.lo = f.base * eb, f.hi = (f.base + rt_tensor_extent(x)) * eb;
                f.whole = true, f.cols = 0;
                vec_push(out, f);
                continue;
            }
        }
        f.lo = (f.base + b[0] * cols + b[2]) * eb, f.hi = (f.base + (b[1] - 1) * cols + b[3]) * eb;
        vec_push(out, f);
    }
    free(params);
    free(box);
}

/* Whether two footprints on one buffer may share a byte: boxes of the same matrix by rows and
 * columns, two whole views of one dtype exactly by their strides (rt_overlap), else by byte range. */
static bool foots_meet(const Rt *rt, const ParFoot *f, const ParFoot *e) {
    if (e->hi <= f->lo || f->hi <= e->lo) return false;
    if (f->cols && f->cols == e->cols && f->base == e->base && f->eb == e->eb)
        return f->r0 < e->r1 && e->r0 < f->r1 && f->c0 < e->c1 && e->c0 < f->c1;
    if (!f->whole || !e->whole || f->addr < 1024) return true;
    RtTensor a = rt->tasks.data[f->task].args[f->arg].t, c = rt->tasks.data[e->task].args[e->arg].t;
    if (a.dtype != c.dtype) return true;
    a.version = c.version = 0;
    return rt_overlap(&a, &c) != RT_OV_NO_OVERLAP;
}

static int cmp_foot(const void *x, const void *y) {
    const ParFoot *a = x, *b = y;
    if (a->addr != b->addr) return a->addr < b->addr ? -1 : 1;
    return a->lo < b->lo ? -1 : a->lo > b->lo;
}

/* Sorts by (addr, lo) and notes each buffer's longest range (a search bound). */
static void sort_foots(ParFoots *v) {
    if (v->len) qsort(v->data, (size_t)v->len, sizeof(ParFoot), cmp_foot);
    for (int s = 0, e; s < v->len; s = e) {
        int64_t mx = 0;
        for (e = s; e < v->len && v->data[e].addr == v->data[s].addr; e++)
            if (v->data[e].hi - v->data[e].lo > mx) mx = v->data[e].hi - v->data[e].lo;
        for (int k = s; k < e; k++) v->data[k].group_max = mx;
    }
}

/* Whether the blocks of task ti touch disjoint bytes (or only read the same ones), so that they may
 * run at once: their order cannot show in the result. Atomic adds to one place count as writes (the
 * order of float adds shows in the sum). */
static bool blocks_disjoint(const Rt *rt, int ti) {
    const RtTask *t = &rt->tasks.data[ti];
    ParFoots v = {0};
    for (int64_t b = 0; b < t->block_num; b++) footprint(rt, ti, b, true, &v);
    sort_foots(&v);
    bool ok = true;
    for (int x = 0; x < v.len && ok; x++)        /* a sweep: y starts before x ends */
        for (int y = x + 1; y < v.len && v.data[y].addr == v.data[x].addr && v.data[y].lo < v.data[x].hi && ok; y++)
            if (v.data[x].block != v.data[y].block && (v.data[x].write || v.data[y].write) && foots_meet(rt, &v.data[x], &v.data[y]))
                ok = false;
    vec_free(&v);
    return ok;
}

/* Whether task x (> b) is a WAIT-descendant of task b, within a budget (false when exhausted). */
static bool descends(RtPar *p, int b, int x) {
    const Rt *rt = p->rt;
    p->epoch++;
    p->stack.len = 0;
    vec_push(&p->stack, x);
    int steps = 0;
    while (p->stack.len) {
        const RtTask *t = &rt->tasks.data[p->stack.data[--p->stack.len]];
        for (int f = 0; f < t->nfanins; f++) {
            int q = t->fanins[f].pred;
            if (!(t->fanins[f].flags & RT_DEP_WAIT) || q < b || p->stamp[q - p->lo] == p->epoch) continue;
            if (q == b) return true;
            if (++steps > PAR_REACH_BUDGET) return false;
            p->stamp[q - p->lo] = p->epoch;
            vec_push(&p->stack, q);
        }
    }
    return false;
}

/* Whether task b may run now: every task not started yet that may touch bytes b touches (one of the
 * two writing) is a WAIT-descendant of b. */
static bool may_start_early(RtPar *p, int b) {
    const Rt *rt = p->rt;
    ParFoots mine = {0};
    footprint(rt, b, -1, false, &mine);
    int budget = PAR_SCAN_BUDGET;
    bool ok = true;
    for (int m = 0; m < mine.len && ok; m++) {
        const ParFoot *f = &mine.data[m];
        int lo = 0, hi = p->foot.len;                         /* first entry of f->addr */
        while (lo < hi) { int mid = (lo + hi) / 2; if (p->foot.data[mid].addr < f->addr) lo = mid + 1; else hi = mid; }
        if (lo == p->foot.len || p->foot.data[lo].addr != f->addr) continue;
        int64_t from = f->lo - p->foot.data[lo].group_max;   /* entries starting at or before this end before f */
        hi = p->foot.len;
        while (lo < hi) {
            int mid = (lo + hi) / 2;
            const ParFoot *e = &p->foot.data[mid];
            if (e->addr == f->addr && e->lo <= from) lo = mid + 1; else hi = mid;
        }
        for (int k = lo; k < p->foot.len && p->foot.data[k].addr == f->addr && p->foot.data[k].lo < f->hi && ok; k++) {
            const ParFoot *e = &p->foot.data[k];
            if (--budget < 0) ok = false;
            else if (e->task == b || p->tasks[e->task - p->lo].started || !(f->write || e->write)) continue;
            else if (foots_meet(rt, f, e) && (e->task < b || !descends(p, b, e->task))) ok = false;
        }
    }
    vec_free(&mine);
    return ok;
}

/* ---------------------------------------------------------------- the scheduler's side */
void rt_par_init(Rt *rt) {
    const RtOptions *o = rt->opt;
    if (!o || !o->hooks || o->threads == 1) return;
    long n = (o->threads > 0 ? o->threads : sysconf(_SC_NPROCESSORS_ONLN)) - 1;   /* workers beside this thread */
    if (n < 1) return;
    if (n > PAR_MAX_THREADS) n = PAR_MAX_THREADS;
    RtPar *p = calloc(1, sizeof *p);
    PTOC_ASSERT(p, "out of memory");
    p->rt = rt;
    pthread_mutex_init(&p->lock, NULL);
    pthread_cond_init(&p->work, NULL);
    pthread_cond_init(&p->done, NULL);
    for (int i = 0; i < n; i++)
        if (base_thread_start(&p->threads[p->nthreads], worker, p) == 0) p->nthreads++;
    if (!p->nthreads) {                         /* no threads to be had: the serial path */
        pthread_mutex_destroy(&p->lock);
        pthread_cond_destroy(&p->work);
        pthread_cond_destroy(&p->done);
        free(p);
        return;
    }
    rt->par = p;
}

void rt_par_free(Rt *rt) {
    RtPar *p = rt->par;
    if (!p) return;
    pthread_mutex_lock(&p->lock);
    p->quit = true;
    pthread_cond_broadcast(&p->work);
    pthread_mutex_unlock(&p->lock);
    for (int i = 0; i < p->nthreads; i++) pthread_join(p->threads[i], NULL);
    pthread_mutex_destroy(&p->lock);
    pthread_cond_destroy(&p->work);
    pthread_cond_destroy(&p->done);
    vec_free(&p->urgent);
    vec_free(&p->normal);
    vec_free(&p->foot);
    vec_free(&p->stack);
    free(p->tasks);
    free(p->stamp);
    free(p);
    rt->par = NULL;
}

void rt_par_begin(Rt *rt, int lo, int n) {
    RtPar *p = rt->par;
    p->lo = lo, p->n = n;
    p->tasks = calloc((size_t)(n - lo) + 1, sizeof(ParTask));
    p->stamp = calloc((size_t)(n - lo) + 1, sizeof(int));
    PTOC_ASSERT(p->tasks && p->stamp, "out of memory");
    p->epoch = 0;
    p->foot.len = 0;
    for (int i = lo; i < n; i++)              /* tasks that ended already (flow control) run no more */
        if (is_kernel_task(&rt->tasks.data[i]) && !rt->tasks.data[i].done) footprint(rt, i, -1, false, &p->foot);
    sort_foots(&p->foot);
}

void rt_par_offer(Rt *rt, int ti) {
    RtPar *p = rt->par;
    if (is_kernel_task(&rt->tasks.data[ti]) && may_start_early(p, ti)) start_task(p, ti, false);
}

/* The runtime's thread works while it waits (urgent jobs first): it stays runnable instead of
 * sleeping on a condition variable, which on a loaded host costs a scheduling delay per task. */
void rt_par_wait(Rt *rt, int ti) {
    RtPar *p = rt->par;
    ParTask *pt = &p->tasks[ti - p->lo];
    if (!pt->started) start_task(p, ti, true);
    pthread_mutex_lock(&p->lock);
    while (pt->state != PAR_DONE) {
        ParJob j;
        if (take_job(p, &j)) {
            pthread_mutex_unlock(&p->lock);
            run_job(p, j);
            pthread_mutex_lock(&p->lock);
        } else pthread_cond_wait(&p->done, &p->lock);
    }
    pthread_mutex_unlock(&p->lock);
}

/* Diagnostics of one block join the run's sink (in the serial order). */
static void merge_diag(DiagSink *to, DiagSink *from) {
    for (int i = 0; i < from->items.len; i++) vec_push(&to->items, from->items.data[i]);
    to->nerrors += from->nerrors;
    from->items.len = 0;
    from->nerrors = 0;
}

bool rt_par_commit(Rt *rt, int ti, const RtKernelCall *call, int64_t *cycles) {
    RtPar *p = rt->par;
    ParBlock *blk = &p->tasks[ti - p->lo].blocks[call->block_idx];
    PTOC_ASSERT(blk->ran, "block %lld of task %d reported before it ran", (long long)call->block_idx, ti);
    merge_diag(rt->diag, &blk->diag);
    RtKernelCall c = *call;                    /* the data is gone (staging finished): report only */
    c.args = NULL, c.views = NULL, c.scalars = NULL, c.params = NULL;
    rt->opt->hooks->commit(rt->ud, &c, blk->record);
    blk->record = NULL;
    *cycles = blk->cycles;
    return blk->ok;
}

/* Frees what task ti kept: records of blocks never reported (after a failure), diagnostics. */
static void discard_task(RtPar *p, int ti) {
    ParTask *pt = &p->tasks[ti - p->lo];
    if (!pt->blocks) return;
    for (int64_t b = 0; b < p->rt->tasks.data[ti].block_num; b++) {
        if (pt->blocks[b].record) p->rt->opt->hooks->commit(p->rt->ud, NULL, pt->blocks[b].record);
        diag_free(&pt->blocks[b].diag);
    }
    free(pt->blocks);
    pt->blocks = NULL;
}

void rt_par_done(Rt *rt, int ti) { discard_task(rt->par, ti); }

void rt_par_end(Rt *rt) {
    RtPar *p = rt->par;
    pthread_mutex_lock(&p->lock);                 /* after a failure, tasks started early still run */
    for (int i = p->lo; i < p->n; i++)
        while (p->tasks[i - p->lo].started && p->tasks[i - p->lo].state != PAR_DONE) pthread_cond_wait(&p->done, &p->lock);
    p->urgent.len = p->normal.len = 0;
    p->urgent_head = p->normal_head = 0;
    pthread_mutex_unlock(&p->lock);
    for (int i = p->lo; i < p->n; i++) discard_task(p, i);
    free(p->tasks);
    free(p->stamp);
    p->tasks = NULL;
    p->stamp = NULL;
}
