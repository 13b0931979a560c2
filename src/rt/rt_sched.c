/* rt_sched — scheduling in simulated time and kernel execution (spec §8–§10, §14).
 * Requires: each task wired as it is submitted (rt_wire, after rt_deps.c found its fanins); the
 *   orchestration drains the ready tasks due by its clock as it goes (rt_drain), everything when it
 *   reads or writes a tensor element (rt_access.c) and at the end.
 * Produces: start/end cycles per task, the makespan, RtResult.tasks (unless not wanted), edge
 * count. Does: streaming list scheduling — a task is ready when all WAIT producers have
 * ended; ready tasks are taken in (ready time, task index) order; each block goes to the core of
 * its kind that is free earliest (ties: lowest index; MIX blocks take a whole cluster = AIC i plus
 * AIV 2i, 2i+1); start = max(ready, core free) + dispatch_cycles; end = start + kernel cycles.
 * Kernels run on the calling thread in that order, which is a topological order of the graph, so
 * their data effects never depend on host timing. With host threads (rt_parallel.c, Rt.par) the
 * orchestration does not drain: the tasks run in batches (rt_run_pending: tensor.read / write and
 * the end) whose kernels may run early on workers, but every decision and report here still follows
 * the same order. Hidden allocation tasks take no core and no time. */
#include "rt/rt_internal.h"

#include <string.h>

_Static_assert((int)RT_CALL_AIC == (int)RT_CORE_AIC && (int)RT_CALL_AIV == (int)RT_CORE_AIV &&
               (int)RT_CALL_MIX == (int)RT_CORE_MIX, "RtKernelCall.core takes RtCoreKind values");

static bool rt_heap_less(RtHeapItem a, RtHeapItem b) { return a.key < b.key || (a.key == b.key && a.idx < b.idx); }

static void rt_heap_push(RtHeap *h, int64_t key, int idx) {
    vec_push(h, ((RtHeapItem){ key, idx }));
    int i = h->len - 1;
    while (i > 0) {
        int p = (i - 1) / 2;
        if (!rt_heap_less(h->data[i], h->data[p])) break;
        RtHeapItem t = h->data[i]; h->data[i] = h->data[p]; h->data[p] = t;
        i = p;
    }
}

static RtHeapItem rt_heap_pop(RtHeap *h) {
    RtHeapItem top = h->data[0];
    h->data[0] = h->data[--h->len];
    int i = 0;
    for (;;) {
        int l = 2 * i + 1, r = l + 1, m = i;
        if (l < h->len && rt_heap_less(h->data[l], h->data[m])) m = l;
        if (r < h->len && rt_heap_less(h->data[r], h->data[m])) m = r;
        if (m == i) break;
        RtHeapItem t = h->data[i]; h->data[i] = h->data[m]; h->data[m] = t;
        i = m;
    }
    return top;
}

typedef struct RtCores {
    int64_t *aic, *aiv;
    int naic, naiv;
} RtCores;

/* The earliest-free core, lowest index on ties: the minimum first (a branch-free reduction), then its
 * first occurrence. On x86 with AVX2, 4 cores a step (48 AIV cores a task: runtime throughput). */
static int rt_pick_scalar(const int64_t *free_at, int n) {
    int64_t m = free_at[0];
    for (int i = 1; i < n; i++) m = free_at[i] < m ? free_at[i] : m;
    int best = 0;
    while (free_at[best] != m) best++;
    return best;
}

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
__attribute__((target("avx2"))) static int rt_pick_avx2(const int64_t *free_at, int n) {
    __m256i m = _mm256_set1_epi64x(INT64_MAX);
    int i = 0;
    for (; i + 4 <= n; i += 4) {
        __m256i v = _mm256_loadu_si256((const __m256i *)(free_at + i));
        m = _mm256_blendv_epi8(m, v, _mm256_cmpgt_epi64(m, v));
    }
    int64_t lane[4];
    _mm256_storeu_si256((__m256i *)lane, m);
    int64_t mn = lane[0];
    for (int j = 1; j < 4; j++) mn = lane[j] < mn ? lane[j] : mn;
    for (int j = i; j < n; j++) mn = free_at[j] < mn ? free_at[j] : mn;
    __m256i want = _mm256_set1_epi64x(mn);
    for (i = 0; i + 4 <= n; i += 4) {
        int hit = _mm256_movemask_pd(_mm256_castsi256_pd(_mm256_cmpeq_epi64(_mm256_loadu_si256((const __m256i *)(free_at + i)), want)));
        if (hit) return i + __builtin_ctz((unsigned)hit);
    }
    while (free_at[i] != mn) i++;
    return i;
}

static int rt_pick(const int64_t *free_at, int n) {
    return n >= 8 && __builtin_cpu_supports("avx2") ? rt_pick_avx2(free_at, n) : rt_pick_scalar(free_at, n);
}
#else
static int rt_pick(const int64_t *free_at, int n) { return rt_pick_scalar(free_at, n); }
#endif

/* Reserves a core (or a cluster for MIX) for one block; returns its free time and sets *slot. */
static int64_t rt_claim(RtCores *c, RtCoreKind k, int *slot) {
    if (k == RT_CORE_AIC) { *slot = rt_pick(c->aic, c->naic); return c->aic[*slot]; }
    if (k == RT_CORE_AIV) { *slot = rt_pick(c->aiv, c->naiv); return c->aiv[*slot]; }
    int best = 0;
    int64_t bt = INT64_MAX;
    for (int i = 0; i < c->naic && 2 * i + 1 < c->naiv; i++) {
        int64_t t = c->aic[i];
        if (c->aiv[2 * i] > t) t = c->aiv[2 * i];
        if (c->aiv[2 * i + 1] > t) t = c->aiv[2 * i + 1];
        if (t < bt) { bt = t; best = i; }
    }
    *slot = best;
    return bt;
}

static void rt_release(RtCores *c, RtCoreKind k, int slot, int64_t end) {
    if (k == RT_CORE_AIC) c->aic[slot] = end;
    else if (k == RT_CORE_AIV) c->aiv[slot] = end;
    else { c->aic[slot] = end; c->aiv[2 * slot] = end; c->aiv[2 * slot + 1] = end; }
}

/* A sync-start cohort (runtime.md §9.2): all blocks hold a core before any starts, so every block
 * starts when the last of the n earliest-free cores is free. Submit checked n fits on the device. */
static int64_t rt_cohort_start(RtCores *c, RtCoreKind k, int64_t n, int64_t ready) {
    int64_t *aic = malloc(sizeof(int64_t) * (size_t)(c->naic + 1)), *aiv = malloc(sizeof(int64_t) * (size_t)(c->naiv + 1));
    PTOC_ASSERT(aic && aiv, "out of memory");
    memcpy(aic, c->aic, sizeof(int64_t) * (size_t)c->naic);
    memcpy(aiv, c->aiv, sizeof(int64_t) * (size_t)c->naiv);
    int64_t start = ready;
    for (int64_t b = 0; b < n; b++) {                 /* hold each claimed core so the next block takes another */
        int slot;
        int64_t free_at = rt_claim(c, k, &slot);
        if (free_at > start) start = free_at;
        rt_release(c, k, slot, INT64_MAX);
    }
    memcpy(c->aic, aic, sizeof(int64_t) * (size_t)c->naic);
    memcpy(c->aiv, aiv, sizeof(int64_t) * (size_t)c->naiv);
    free(aic);
    free(aiv);
    return start;
}

/* The argument arrays of one task's kernel calls: on the stack for the usual few arguments, so a
 * task costs no allocation (runtime throughput, issue 12). */
enum { RT_CALL_INL = 8 };
typedef struct RtCallBufs {
    RtTaskArgs a;
    void *ptrs_i[RT_CALL_INL], *staged_i[RT_CALL_INL], *params_i[2 * RT_CALL_INL + 1];
    RtView views_i[RT_CALL_INL]; uint64_t scalars_i[RT_CALL_INL];
    bool heap;
} RtCallBufs;

static void rt_count_args(const RtTask *t, int *nt, int *ns) {
    *nt = *ns = 0;
    for (int i = 0; i < t->nargs; i++) { if (t->args[i].dir == AD_SCALAR) (*ns)++; else (*nt)++; }
}

static void rt_args_alloc(RtTaskArgs *a, int nt, int ns) {
    a->ptrs = calloc((size_t)(nt ? nt : 1), sizeof(void *));
    a->staged = calloc((size_t)(nt ? nt : 1), sizeof(void *));
    a->views = calloc((size_t)(nt ? nt : 1), sizeof(RtView));
    a->scalars = calloc((size_t)(ns ? ns : 1), sizeof(uint64_t));
    a->params = calloc((size_t)nt + (size_t)ns + 1, sizeof(void *));
    PTOC_ASSERT(a->ptrs && a->staged && a->views && a->scalars && a->params, "out of memory");
}

static void rt_args_release(RtTaskArgs *a) {
    free(a->ptrs); free(a->staged); free(a->views); free(a->scalars); free(a->params);
}

static void rt_call_bufs_get(RtCallBufs *b, int nt, int ns) {
    b->heap = nt > RT_CALL_INL || ns > RT_CALL_INL;
    b->a.nt = nt, b->a.ns = ns;
    if (b->heap) { rt_args_alloc(&b->a, nt, ns); return; }
    memset(b->ptrs_i, 0, sizeof b->ptrs_i); memset(b->staged_i, 0, sizeof b->staged_i);
    memset(b->params_i, 0, sizeof b->params_i); memset(b->scalars_i, 0, sizeof b->scalars_i);
    b->a.ptrs = b->ptrs_i; b->a.staged = b->staged_i; b->a.params = b->params_i; b->a.views = b->views_i;
    b->a.scalars = b->scalars_i;
}

/* Fills the arrays of a with task t's arguments as its blocks see them; gathers the non-packed
 * views into packed copies. */
static void rt_args_fill(Rt *rt, const RtTask *t, RtTaskArgs *a) {
    int k = 0, s = 0;
    for (int i = 0; i < t->nargs; i++) {
        const RtArg *g = &t->args[i];
        if (g->dir == AD_SCALAR) { a->params[i] = &a->scalars[s]; a->scalars[s++] = g->scalar; continue; }
        rt_view_of(&g->t, &a->views[k]);
        if (a->views[k].packed) a->ptrs[k] = rt_tensor_data(&g->t);
        else {
            a->staged[k] = calloc((size_t)rt_tensor_numel(&g->t) + 1, (size_t)dtype_bytes(g->t.dtype));
            PTOC_ASSERT(a->staged[k], "out of memory");
            if (!rt->opt || !rt->opt->timing_only) rt_gather(&g->t, a->staged[k]);
            a->ptrs[k] = a->staged[k];
        }
        a->params[i] = a->ptrs[k];
        k++;
    }
}

/* After the last block: scatters the written staged views back (when every block succeeded). */
static void rt_args_scatter(const Rt *rt, const RtTask *t, RtTaskArgs *a, bool ok) {
    int k = 0;
    for (int i = 0; i < t->nargs; i++) {
        if (t->args[i].dir == AD_SCALAR) continue;
        if (a->staged[k] && ok && rt_is_written(t->args[i].dir) && !(rt->opt && rt->opt->timing_only)) rt_scatter(&t->args[i].t, a->staged[k]);
        free(a->staged[k]);
        k++;
    }
}

/* The heap-allocated form, for rt_parallel.c (a task's arguments outlive this call there); called
 * on the runtime's thread before any block of the task runs. */
void rt_task_args_prepare(Rt *rt, const RtTask *t, RtTaskArgs *a) {
    rt_count_args(t, &a->nt, &a->ns);
    rt_args_alloc(a, a->nt, a->ns);
    rt_args_fill(rt, t, a);
}

void rt_task_args_finish(const Rt *rt, const RtTask *t, RtTaskArgs *a, bool ok) {
    rt_args_scatter(rt, t, a, ok);
    rt_args_release(a);
}

/* Runs every block of task ti on simulated cores; stages non-packed views around the blocks. In a
 * host-thread batch (Rt.par_batch) the blocks have already run or run now (rt_par_wait): here they
 * only take their cores and times, in the same order, and report (rt_par_commit). */
static bool rt_run_task(Rt *rt, RtCores *cores, int ti, int taskpos) {
    RtTask *t = rt_task(rt, ti);
    RtCallBufs cb;
    RtTaskArgs *a = &cb.a;
    if (rt->par_batch) { memset(a, 0, sizeof *a); rt_par_wait(rt, ti); }
    else {
        int nt, ns;
        rt_count_args(t, &nt, &ns);
        rt_call_bufs_get(&cb, nt, ns);
        rt_args_fill(rt, t, a);
    }
    int64_t dispatch = (int64_t)(rt->tgt->dispatch_cycles + 0.5);
    bool ok = true;
    t->start = INT64_MAX; t->end = t->ready; t->cycles = 0;
    int64_t ready = t->sync_start ? rt_cohort_start(cores, t->core, t->block_num, t->ready) : t->ready;
    for (int64_t b = 0; b < t->block_num && ok; b++) {
        int slot;
        int64_t free_at = rt_claim(cores, t->core, &slot);
        int64_t start = (free_at > ready ? free_at : ready) + dispatch, cyc = 0;
        RtKernelCall call = { t->kernel, a->ptrs, a->nt, a->views, a->scalars, a->ns, a->params, t->nargs, b, t->block_num,
                              taskpos, rt->opt && rt->opt->race_check ? rt_access_sink(rt, ti, b) : NULL,
                              (RtCallCore)t->core, slot, start };
        ok = rt->par_batch ? rt_par_commit(rt, ti, &call, &cyc) : rt->run(rt->ud, &call, &cyc, rt->diag);
        if (cyc < 0) cyc = 0;
        rt_release(cores, t->core, slot, start + cyc);
        if (start < t->start) t->start = start;
        if (start + cyc > t->end) t->end = start + cyc;
        if (cyc > t->cycles) t->cycles = cyc;
    }
    if (t->start == INT64_MAX) t->start = t->ready;
    if (rt->par_batch) rt_par_done(rt, ti);
    else {
        rt_args_scatter(rt, t, a, ok);
        if (cb.heap) rt_args_release(a);
    }
    return ok;
}

static void rt_task_ended(Rt *rt, RtTask *t, int ti);

/* A task that takes no core and no time: a hidden allocation, or a kernel of no blocks. */
static bool rt_zero_task(const RtTask *t) { return t->core == RT_CORE_NONE || t->block_num <= 0; }

static void rt_end_zero_task(Rt *rt, RtTask *t, int ti) {
    t->start = t->end = t->ready;
    t->cycles = 0;
    rt_task_ended(rt, t, ti);
}

/* Wiring (spec §8) of task ti once its fanins are known: it is ready at the orchestrator's clock or
 * when its last WAIT producer ends. A producer that ended already counts its end; one retired (its
 * record gone) ended before the clock, so it is only counted as an edge. RETAIN fanins claim their
 * producer unless it is already CONSUMED: the producer's slot then lives until this task ends.
 * With host threads the orchestration does not drain, so a ready task that takes no time ends here,
 * as the next drain would end it (its end is due by the clock, it has no consumers yet): the records
 * that retire, RETAIN claims and flow control then match the one-thread run (rt_ring_reserve). */
void rt_wire(Rt *rt, int ti) {
    RtTask *t = rt_task(rt, ti);
    t->ready = rt->orch_time;
    rt->nedges += t->nfanins;
    for (int f = 0; f < t->nfanins; f++) {
        RtFanin *fi = &t->fanins[f];
        RtTask *p = rt_task(rt, fi->pred);
        if (!p) continue;
        if ((fi->flags & RT_DEP_RETAIN) && !rt_consumed_by(rt, p)) { p->nretain++; fi->flags |= RT_DEP_CLAIMED; }
        if (!(fi->flags & RT_DEP_WAIT)) continue;
        if (p->done) { if (p->end > t->ready) t->ready = p->end; continue; }
        if (p->nsucc == p->capsucc) {
            p->capsucc = p->capsucc ? 2 * p->capsucc : 4;
            p->succ = realloc(p->succ, sizeof(int) * (size_t)p->capsucc);
            PTOC_ASSERT(p->succ, "out of memory");
        }
        p->succ[p->nsucc++] = ti;
        t->npending++;
    }
    if (t->npending) return;
    if (rt->par && rt_zero_task(t) && t->ready <= rt->orch_time) rt_end_zero_task(rt, t, ti);
    else rt_heap_push(&rt->heap, t->ready, ti);
}

/* What the task's end means to others: its consumers' readiness, the buffers it touched (for
 * tensor.read / write), the producers it retained, the makespan and the task list. */
static void rt_task_ended(Rt *rt, RtTask *t, int ti) {
    static const char *core_names[] = { "none", "aic", "aiv", "mix" };
    t->done = true;
    if (t->end > t->cons_time) t->cons_time = t->end;
    rt->ndone++;
    if (t->end > rt->makespan) rt->makespan = t->end;
    if (rt->want_infos) {
        while (rt->infos.len <= ti) vec_push(&rt->infos, (RtTaskInfo){0});
        rt->infos.data[ti] = (RtTaskInfo){ ti, t->id, t->kernel ? t->kernel->name : "alloc_tensors", core_names[t->core],
                                           t->func_id, t->block_num, t->start, t->end, t->cycles };
    }
    for (int i = 0; i < t->nargs; i++)
        if (t->args[i].dir != AD_SCALAR) rt_bufend_note(rt, t->args[i].t.addr, t->end, rt_is_written(t->args[i].dir));
    for (int k = 0; k < t->nsucc; k++) {
        RtTask *c = rt_task(rt, t->succ[k]);
        if (t->end > c->ready) c->ready = t->end;
        if (--c->npending == 0) {
            rt_heap_push(&rt->heap, c->ready, t->succ[k]);
            if (rt->par_batch) rt_par_offer(rt, t->succ[k]);   /* host threads may start on it */
        }
    }
    t->nsucc = 0;                                    /* the array stays with the record */
    for (int f = 0; f < t->nfanins; f++) {
        if (!(t->fanins[f].flags & RT_DEP_CLAIMED)) continue;
        RtTask *p = rt_task(rt, t->fanins[f].pred);
        PTOC_ASSERT(p && p->nretain > 0, "task %d: retained producer %d is gone", ti, t->fanins[f].pred);
        p->nretain--;
        if (t->end > p->cons_time) p->cons_time = t->end;
    }
}

/* Takes the ready task of least (ready time, index) and runs it: its blocks go to the cores as in
 * rt_run_task. Tasks are taken in the same order as if the whole graph were known at once, as long
 * as only tasks ready by the orchestrator's clock are taken (rt_drain): a task submitted later is
 * ready no earlier than that clock and comes later in index order. */
bool rt_pop_task(Rt *rt) {
    if (rt->failed) return false;
    if (!rt->cores_aic) {
        rt->cores_aic = calloc((size_t)rt->tgt->num_aic + 1, sizeof(int64_t));
        rt->cores_aiv = calloc((size_t)rt->tgt->num_aiv + 1, sizeof(int64_t));
    }
    RtCores cores = { rt->cores_aic, rt->cores_aiv, rt->tgt->num_aic, rt->tgt->num_aiv };
    RtHeapItem it = rt_heap_pop(&rt->heap);
    RtTask *t = rt_task(rt, it.idx);
    bool ok = true;
    if (rt_zero_task(t)) { rt_end_zero_task(rt, t, it.idx); return true; }
    ok = rt_run_task(rt, &cores, it.idx, it.idx);
    rt_task_ended(rt, rt_task(rt, it.idx), it.idx);
    if (!ok) rt->failed = true;
    return ok;
}

bool rt_drain(Rt *rt, bool all) {
    while (rt->heap.len && (all || rt->heap.data[0].key <= rt->orch_time))
        if (!rt_pop_task(rt)) return false;
    if (rt->failed) return false;
    PTOC_ASSERT(!all || rt->ndone == rt->ntasks, "task graph has a cycle (%d of %d tasks ran)", rt->ndone, rt->ntasks);
    return true;
}

/* A batch (tensor.read / write, spec §3.5 get/set_tensor_data, and the end): every task submitted so
 * far runs, so the element holds what they wrote. The cores keep their free times across batches.
 * With host threads this is where kernels run in parallel: the batch is every task not run yet,
 * all of them known, which is what rt_parallel.c's early-start test needs. */
bool rt_run_pending(Rt *rt) {
    if (!rt->par) return rt_drain(rt, true);
    while (rt->par_lo < rt->ntasks && rt_task(rt, rt->par_lo)->done) rt->par_lo++;
    if (rt->par_lo == rt->ntasks || rt->failed) return rt_drain(rt, true);
    rt_par_begin(rt, rt->par_lo, rt->ntasks);         /* every task not run yet is known (keep mode) */
    rt->par_batch = true;
    for (int i = 0; i < rt->heap.len; i++) rt_par_offer(rt, rt->heap.data[i].idx);
    bool ok = rt_drain(rt, true);
    rt_par_end(rt);
    rt->par_batch = false;
    return ok;
}

bool rt_schedule(Rt *rt, RtResult *res) {
    bool ok = rt_run_pending(rt);
    if (ok) {
        res->makespan_cycles = rt->makespan;
        res->nedges = rt->nedges;
        res->ntasks = rt->ntasks;
        res->tasks.data = rt->infos.data; res->tasks.len = rt->infos.len; res->tasks.cap = rt->infos.cap;
        rt->infos.data = NULL; rt->infos.len = rt->infos.cap = 0;
    }
    if (ok && rt->opt && rt->opt->race_check) rt_check_races(rt, res);
    return ok;
}
