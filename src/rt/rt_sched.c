/* rt_sched — scheduling in simulated time and kernel execution (spec §8–§10, §14).
 * Requires: the task graph (RtTask.fanins), run in batches: everything at the end, and the tasks
 *   submitted so far whenever the orchestration reads or writes a tensor element (rt_access.c).
 * Produces: start/end cycles per task, the
 * makespan, RtResult.tasks. Does: list scheduling — a task is ready when all WAIT producers have
 * ended; ready tasks are taken in (ready time, task index) order; each block goes to the core of
 * its kind that is free earliest (ties: lowest index; MIX blocks take a whole cluster = AIC i plus
 * AIV 2i, 2i+1); start = max(ready, core free) + dispatch_cycles; end = start + kernel cycles.
 * Kernels run on the calling thread in that order, which is a topological order of the graph, so
 * their data effects never depend on host timing; with host threads (rt_parallel.c) they may run
 * earlier on workers, but every decision and report here still follows that order. Hidden
 * allocation tasks take no core and no time. */
#include "rt/rt_internal.h"

#include <string.h>

_Static_assert((int)RT_CALL_AIC == (int)RT_CORE_AIC && (int)RT_CALL_AIV == (int)RT_CORE_AIV &&
               (int)RT_CALL_MIX == (int)RT_CORE_MIX, "RtKernelCall.core takes RtCoreKind values");

typedef struct { int64_t key; int idx; } RtHeapItem;
typedef VEC(RtHeapItem) RtHeap;

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

/* Task i's producers have all ended: it joins the ready heap, and host threads may start on it. */
static void rt_ready(Rt *rt, RtHeap *h, int i) {
    rt_heap_push(h, rt->tasks.data[i].ready, i);
    if (rt->par) rt_par_offer(rt, i);
}

typedef struct RtCores {
    int64_t *aic, *aiv;
    int naic, naiv;
} RtCores;

static int rt_pick(const int64_t *free_at, int n) {
    int best = 0;
    for (int i = 1; i < n; i++)
        if (free_at[i] < free_at[best]) best = i;
    return best;
}

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

/* The kernel arguments of task t as its blocks see them; gathers the non-packed views into packed
 * copies. Called on the runtime's thread (rt_parallel.c too: before any block of the task runs). */
void rt_task_args_prepare(Rt *rt, const RtTask *t, RtTaskArgs *a) {
    int nt = 0, ns = 0;
    for (int i = 0; i < t->nargs; i++) { if (t->args[i].dir == AD_SCALAR) ns++; else nt++; }
    a->nt = nt, a->ns = ns;
    a->ptrs = calloc((size_t)(nt ? nt : 1), sizeof(void *));
    a->staged = calloc((size_t)(nt ? nt : 1), sizeof(void *));
    a->views = calloc((size_t)(nt ? nt : 1), sizeof(RtView));
    a->scalars = calloc((size_t)(ns ? ns : 1), sizeof(uint64_t));
    a->params = calloc((size_t)nt + (size_t)ns + 1, sizeof(void *));
    PTOC_ASSERT(a->ptrs && a->staged && a->views && a->scalars && a->params, "out of memory");
    int k = 0, s = 0;
    for (int i = 0; i < t->nargs; i++) {
        const RtArg *g = &t->args[i];
        if (g->dir == AD_SCALAR) { a->params[i] = &a->scalars[s]; a->scalars[s++] = g->scalar; continue; }
        rt_view_of(&g->t, &a->views[k]);
        if (a->views[k].packed) a->ptrs[k] = rt_tensor_data(&g->t);
        else {
            a->staged[k] = calloc((size_t)rt_tensor_numel(&g->t) + 1, (size_t)dtype_bytes(g->t.dtype));
            if (!rt->opt || !rt->opt->timing_only) rt_gather(&g->t, a->staged[k]);
            a->ptrs[k] = a->staged[k];
        }
        a->params[i] = a->ptrs[k];
        k++;
    }
}

/* After the last block: scatters the written staged views back (when every block succeeded), frees. */
void rt_task_args_finish(const Rt *rt, const RtTask *t, RtTaskArgs *a, bool ok) {
    int k = 0;
    for (int i = 0; i < t->nargs; i++) {
        if (t->args[i].dir == AD_SCALAR) continue;
        if (a->staged[k] && ok && rt_is_written(t->args[i].dir) && !(rt->opt && rt->opt->timing_only)) rt_scatter(&t->args[i].t, a->staged[k]);
        free(a->staged[k]);
        k++;
    }
    free(a->ptrs); free(a->staged); free(a->views); free(a->scalars); free(a->params);
}

/* Runs every block of task ti on simulated cores; stages non-packed views around the blocks. With
 * host threads (rt->par) the blocks have already run (rt_parallel.c): here they only take their
 * cores and times, in the same order, and report (rt_par_commit). */
static bool rt_run_task(Rt *rt, RtCores *cores, int ti, int taskpos) {
    RtTask *t = &rt->tasks.data[ti];
    RtTaskArgs a = {0};
    if (rt->par) rt_par_wait(rt, ti);
    else rt_task_args_prepare(rt, t, &a);
    int64_t dispatch = (int64_t)(rt->tgt->dispatch_cycles + 0.5);
    bool ok = true;
    t->start = INT64_MAX; t->end = t->ready; t->cycles = 0;
    int64_t ready = t->sync_start ? rt_cohort_start(cores, t->core, t->block_num, t->ready) : t->ready;
    for (int64_t b = 0; b < t->block_num && ok; b++) {
        int slot;
        int64_t free_at = rt_claim(cores, t->core, &slot);
        int64_t start = (free_at > ready ? free_at : ready) + dispatch, cyc = 0;
        RtKernelCall call = { t->kernel, a.ptrs, a.nt, a.views, a.scalars, a.ns, a.params, t->nargs, b, t->block_num, taskpos,
                              rt->opt && rt->opt->race_check ? rt_access_sink(rt, ti, b) : NULL,
                              (RtCallCore)t->core, slot, start };
        ok = rt->par ? rt_par_commit(rt, ti, &call, &cyc) : rt->run(rt->ud, &call, &cyc, rt->diag);
        if (cyc < 0) cyc = 0;
        rt_release(cores, t->core, slot, start + cyc);
        if (start < t->start) t->start = start;
        if (start + cyc > t->end) t->end = start + cyc;
        if (cyc > t->cycles) t->cycles = cyc;
    }
    if (t->start == INT64_MAX) t->start = t->ready;
    if (rt->par) rt_par_done(rt, ti);
    else rt_task_args_finish(rt, t, &a, ok);
    return ok;
}

static void rt_fill_result(const Rt *rt, RtResult *res) {
    res->makespan_cycles = 0;
    for (int i = 0; i < rt->tasks.len; i++) {
        const RtTask *t = &rt->tasks.data[i];
        static const char *core_names[] = { "none", "aic", "aiv", "mix" };
        RtTaskInfo info = { i, t->id, t->kernel ? t->kernel->name : "alloc_tensors", core_names[t->core],
                            t->func_id, t->block_num, t->start, t->end, t->cycles };
        vec_push(&res->tasks, info);
        if (t->end > res->makespan_cycles) res->makespan_cycles = t->end;
    }
    /* distinct (pred, succ) pairs = total deduplicated fanins */
    int n = 0;
    for (int i = 0; i < rt->tasks.len; i++) n += rt->tasks.data[i].nfanins;
    res->nedges = n;
}

/* Runs the tasks submitted since the last batch, [rt->nrun, tasks.len): a task is ready when its WAIT
 * producers of this batch have ended (producers of earlier batches have; their end times count) and
 * not before the orchestrator's clock rt->orch_time (it may have stalled on a tensor.read). The cores
 * keep their free times across batches. */
bool rt_run_pending(Rt *rt) {
    int lo = rt->nrun, n = rt->tasks.len, m = n - lo;
    if (m <= 0) return true;
    if (!rt->cores_aic) {
        rt->cores_aic = calloc((size_t)rt->tgt->num_aic, sizeof(int64_t));
        rt->cores_aiv = calloc((size_t)rt->tgt->num_aiv, sizeof(int64_t));
    }
    int *pending = calloc((size_t)m, sizeof(int));
    int *nsucc = calloc((size_t)m + 1, sizeof(int));
    for (int i = lo; i < n; i++) {
        RtTask *t = &rt->tasks.data[i];
        t->ready = rt->orch_time;
        for (int f = 0; f < t->nfanins; f++) {
            if (!(t->fanins[f].flags & RT_DEP_WAIT)) continue;
            int p = t->fanins[f].pred;
            if (p < lo) { if (rt->tasks.data[p].end > t->ready) t->ready = rt->tasks.data[p].end; continue; }
            pending[i - lo]++;
            nsucc[p - lo + 1]++;
        }
    }
    for (int i = 0; i < m; i++) nsucc[i + 1] += nsucc[i];           /* CSR offsets */
    int *succ = calloc((size_t)(nsucc[m] ? nsucc[m] : 1), sizeof(int));
    int *fill = calloc((size_t)m, sizeof(int));
    for (int i = lo; i < n; i++)
        for (int f = 0; f < rt->tasks.data[i].nfanins; f++) {
            int p = rt->tasks.data[i].fanins[f].pred;
            if ((rt->tasks.data[i].fanins[f].flags & RT_DEP_WAIT) && p >= lo) succ[nsucc[p - lo] + fill[p - lo]++] = i;
        }
    RtCores cores = { rt->cores_aic, rt->cores_aiv, rt->tgt->num_aic, rt->tgt->num_aiv };
    RtHeap heap = {0};
    if (rt->par) rt_par_begin(rt, lo, n);
    for (int i = lo; i < n; i++) if (!pending[i - lo]) rt_ready(rt, &heap, i);
    bool ok = true;
    int ndone = 0;
    while (heap.len && ok) {
        RtHeapItem it = rt_heap_pop(&heap);
        RtTask *t = &rt->tasks.data[it.idx];
        if (t->core == RT_CORE_NONE || t->block_num <= 0) { t->start = t->end = t->ready; t->cycles = 0; }
        else ok = rt_run_task(rt, &cores, it.idx, it.idx);
        t = &rt->tasks.data[it.idx];
        t->done = true;
        ndone++;
        for (int k = nsucc[it.idx - lo]; k < nsucc[it.idx - lo + 1]; k++) {
            RtTask *c = &rt->tasks.data[succ[k]];
            if (t->end > c->ready) c->ready = t->end;
            if (--pending[succ[k] - lo] == 0) rt_ready(rt, &heap, succ[k]);
        }
    }
    if (rt->par) rt_par_end(rt);
    PTOC_ASSERT(!ok || ndone == m, "task graph has a cycle (%d of %d tasks ran)", ndone, m);
    vec_free(&heap);
    free(pending); free(nsucc); free(succ); free(fill);
    rt->nrun = n;
    return ok;
}

bool rt_schedule(Rt *rt, RtResult *res) {
    bool ok = rt_run_pending(rt);
    if (ok) rt_fill_result(rt, res);
    if (ok && rt->opt && rt->opt->race_check) rt_check_races(rt, res);
    return ok;
}
