/* rt_live — task records and their lifetime: the rings of spec/runtime.md §7 with flow control and
 * FIFO reclamation, and the per-buffer end times tensor.read / tensor.write wait for.
 * Requires: rt_internal.h; rt_sched.c (rt_pop_task / rt_drain to advance simulated time while the
 *   orchestrator is stalled on a full ring).
 * Produces: rt_task (index -> record), rt_task_add, rt_retire, rt_ring_reserve, rt_scope_end,
 *   rt_consumed_by, the buffer end map.
 * Does: a task is CONSUMED when it has ended, its scope has ended (the scope reference) and every
 *   RETAIN consumer that claimed it has ended; its consumption time is the latest of those ends. The
 *   orchestrator sees it consumed once its clock (Rt.orch_time) has reached that time. Each ring
 *   retires its consumed tasks strictly in submission order; in keep mode (race check, deps.json)
 *   the records stay (those reports read them after the run), otherwise they are freed and their
 *   pool slots reused, so memory is bounded by the live tasks: at most window - 1 per ring. A later
 *   reference to a retired task (a tensor's creator, a TensorMap entry, an explicit dependency)
 *   still counts as an edge but waits for nothing: the task ended before the orchestrator's clock.
 *   Whether a task is retired only decides whether its record exists, never a result: the
 *   lifetime rules are applied the same way in both modes. */
#include "rt/rt_internal.h"

#include <string.h>

/* ---------------------------------------------------------------- index map */
static unsigned rt_hash_idx(int k, int cap) { return ((uint32_t)k * 2654435761u) & (unsigned)(cap - 1); }

static void rt_map_put(RtIdxMap *m, int k, int v);

static void rt_map_grow(RtIdxMap *m) {
    RtIdxMap old = *m;
    m->cap = old.cap ? old.cap * 2 : 1024;
    m->n = 0;
    m->key = malloc(sizeof(int) * (size_t)m->cap);
    m->val = malloc(sizeof(int) * (size_t)m->cap);
    PTOC_ASSERT(m->key && m->val, "out of memory");
    memset(m->key, 0xff, sizeof(int) * (size_t)m->cap);
    for (int i = 0; i < old.cap; i++)
        if (old.key[i] >= 0) rt_map_put(m, old.key[i], old.val[i]);
    free(old.key);
    free(old.val);
}

static void rt_map_put(RtIdxMap *m, int k, int v) {
    if (2 * (m->n + 1) > m->cap) rt_map_grow(m);
    unsigned i = rt_hash_idx(k, m->cap);
    while (m->key[i] >= 0) i = (i + 1) & (unsigned)(m->cap - 1);
    m->key[i] = k;
    m->val[i] = v;
    m->n++;
}

static int rt_map_find(const RtIdxMap *m, int k) {
    if (!m->cap) return -1;
    for (unsigned i = rt_hash_idx(k, m->cap);; i = (i + 1) & (unsigned)(m->cap - 1)) {
        if (m->key[i] == k) return (int)i;
        if (m->key[i] < 0) return -1;
    }
}

/* Backward-shift deletion keeps every probe chain unbroken without tombstones. */
static void rt_map_del(RtIdxMap *m, int pos) {
    unsigned mask = (unsigned)(m->cap - 1), i = (unsigned)pos, j = i;
    m->key[i] = -1;
    m->n--;
    for (;;) {
        j = (j + 1) & mask;
        if (m->key[j] < 0) return;
        unsigned home = rt_hash_idx(m->key[j], m->cap);
        bool between = i <= j ? (i < home && home <= j) : (i < home || home <= j);
        if (between) continue;                   /* entry j is still reachable from its home */
        m->key[i] = m->key[j];
        m->val[i] = m->val[j];
        m->key[j] = -1;
        i = j;
    }
}

/* ---------------------------------------------------------------- records */
RtTask *rt_task(Rt *rt, int idx) {
    if (rt->keep) return idx >= 0 && idx < rt->tasks.len ? &rt->tasks.data[idx] : NULL;
    int pos = rt_map_find(&rt->live, idx);
    return pos < 0 ? NULL : &rt->tasks.data[rt->live.val[pos]];
}

static void rt_ring_push(RtRingQ *r, int idx) {
    if (r->len == r->cap) {
        int cap = r->cap ? r->cap * 2 : 256;
        int *q = malloc(sizeof(int) * (size_t)cap);
        PTOC_ASSERT(q, "out of memory");
        for (int i = 0; i < r->len; i++) q[i] = r->q[(r->head + i) % r->cap];
        free(r->q);
        r->q = q; r->cap = cap; r->head = 0;
    }
    r->q[(r->head + r->len++) % r->cap] = idx;
}

RtTask *rt_task_add(Rt *rt, int idx, int ring) {
    int slot;
    if (!rt->keep && rt->free_slots.len) slot = vec_pop(&rt->free_slots);
    else {
        vec_push(&rt->tasks, (RtTask){0});
        slot = rt->tasks.len - 1;
    }
    PTOC_ASSERT(!rt->keep || slot == idx, "keep mode: task %d in slot %d", idx, slot);
    if (!rt->keep) rt_map_put(&rt->live, idx, slot);
    rt_ring_push(&rt->rings[ring], idx);
    RtTask *t = &rt->tasks.data[slot], keep = *t;
    memset(t, 0, sizeof *t);
    t->args = keep.args; t->capargs = keep.capargs;          /* a recycled slot's arrays */
    t->fanins = keep.fanins; t->capfanins = keep.capfanins;
    t->succ = keep.succ; t->capsucc = keep.capsucc;
    t->ring = ring;
    t->scope_open = true;
    return t;
}

static void rt_task_free_parts(RtTask *t) {
    free(t->succ);                               /* args and fanins live in the run's arena */
    t->args = NULL; t->fanins = NULL; t->succ = NULL;
    t->nargs = t->nfanins = t->nsucc = t->capsucc = t->capargs = t->capfanins = 0;
}

/* Arrays come from the run's arena: a recycled record reuses its own, so the arena grows with the
 * records ever created (bounded by the rings in retire mode), not with the tasks. */
RtArg *rt_task_args(Rt *rt, RtTask *t, int n) {
    if (n > t->capargs) {
        t->capargs = n < 4 ? 4 : n;
        t->args = ARENA_ARRAY(rt->arena, RtArg, t->capargs);
    }
    if (n) memset(t->args, 0, sizeof(RtArg) * (size_t)n);
    t->nargs = n;
    return t->args;
}

RtFanin *rt_task_fanins(Rt *rt, RtTask *t, int n) {
    if (n > t->capfanins) {
        t->capfanins = n < 4 ? 4 : n;
        t->fanins = ARENA_ARRAY(rt->arena, RtFanin, t->capfanins);
    }
    t->nfanins = n;
    return t->fanins;
}

bool rt_consumed_by(const Rt *rt, const RtTask *t) {
    return t->done && !t->scope_open && t->nretain == 0 && t->cons_time <= rt->orch_time;
}

void rt_retire(Rt *rt) {
    for (int r = 0; r < RT_NRINGS; r++) {
        RtRingQ *q = &rt->rings[r];
        while (q->len) {
            int idx = q->q[q->head];
            RtTask *t = rt_task(rt, idx);
            if (!rt_consumed_by(rt, t)) break;
            q->head = (q->head + 1) % q->cap;
            q->len--;
            if (rt->keep) continue;              /* reports read the record after the run */
            int pos = rt_map_find(&rt->live, idx);
            vec_push(&rt->free_slots, rt->live.val[pos]);   /* its arrays stay for the next task */
            rt_map_del(&rt->live, pos);
        }
    }
}

/* Allocation on a ring succeeds while local_id - last_task_alive + 1 < window (§7): otherwise the
 * orchestrator stalls until the ring's oldest task is CONSUMED, and its clock moves to that time.
 * With host threads (Rt.par) the orchestration skipped its drains, so a full ring first runs the
 * tasks they would have run (due by the clock) and retires: the ring then holds what it holds in a
 * one-thread run, and the stall is the same. These runs are on the runtime's thread (no batch). */
bool rt_ring_reserve(Rt *rt, int ring, Span sp) {
    int window = rt->opt && rt->opt->task_window > 0 ? rt->opt->task_window : 16384;
    RtRingQ *q = &rt->rings[ring];
    if (rt->par && q->len >= window - 1) {       /* host threads: first what the drains skipped did */
        if (!rt_drain(rt, false)) return false;
        rt_retire(rt);
    }
    while (q->len >= window - 1) {
        int idx = q->q[q->head];
        RtTask *t = rt_task(rt, idx);
        if (t->scope_open)
            return rt_fail(rt, RT_ERR_FLOW_CONTROL_DEADLOCK, sp, "ring %d holds %d live tasks (window %d) and its oldest, "
                           "task %d, belongs to a scope that is still open; close scopes earlier or enlarge the window",
                           ring, q->len, window, idx);
        while (!(t->done && t->nretain == 0)) {  /* run the schedule forward until it is consumed */
            PTOC_ASSERT(rt->heap.len, "ring %d: oldest task %d can never be consumed", ring, idx);
            if (!rt_pop_task(rt)) return false;
            t = rt_task(rt, idx);
        }
        if (t->cons_time > rt->orch_time) rt->orch_time = t->cons_time;
        if (!rt_drain(rt, false)) return false;
        rt_retire(rt);
    }
    return true;
}

/* A slot's task list stays allocated when its scope ends and serves the next scope at that depth:
 * a scope per loop iteration allocates nothing. */
void rt_scope_begin(Rt *rt, bool manual) {
    if (rt->scopes.len == rt->scopes_init) {
        vec_push(&rt->scopes, (RtScope){0});
        rt->scopes_init++;
    } else {
        rt->scopes.len++;
    }
    RtScope *sc = &vec_last(&rt->scopes);
    sc->manual = manual;
    sc->ntasks = 0;
    sc->tasks.len = 0;
}

void rt_scope_end(Rt *rt) {
    RtScope *sc = &vec_last(&rt->scopes);
    for (int i = 0; i < sc->tasks.len; i++) {
        RtTask *t = rt_task(rt, sc->tasks.data[i]);
        if (t) t->scope_open = false;
    }
    rt->scopes.len--;
}

void rt_live_free(Rt *rt) {
    for (int i = 0; i < rt->tasks.len; i++) rt_task_free_parts(&rt->tasks.data[i]);
    vec_free(&rt->tasks);
    vec_free(&rt->free_slots);
    free(rt->live.key);
    free(rt->live.val);
    for (int r = 0; r < RT_NRINGS; r++) free(rt->rings[r].q);
    for (int i = 0; i < rt->scopes_init; i++) vec_free(&rt->scopes.data[i].tasks);
    vec_free(&rt->heap);
    free(rt->bufends.e);
    vec_free(&rt->infos);
}

/* ---------------------------------------------------------------- buffer end times */
static unsigned rt_hash_addr(uint64_t a, int cap) { return (unsigned)((a * 0x9E3779B97F4A7C15ull) >> 32) & (unsigned)(cap - 1); }

static RtBufEnd *rt_bufend_slot(RtBufEnds *m, uint64_t addr, bool add) {
    if (add && 2 * (m->n + 1) > m->cap) {
        RtBufEnds old = *m;
        m->cap = old.cap ? old.cap * 2 : 64;
        m->n = 0;
        m->e = calloc((size_t)m->cap, sizeof(RtBufEnd));
        PTOC_ASSERT(m->e, "out of memory");
        for (int i = 0; i < old.cap; i++)
            if (old.e[i].addr) *rt_bufend_slot(m, old.e[i].addr, true) = old.e[i];
        free(old.e);
    }
    if (!m->cap) return NULL;
    for (unsigned i = rt_hash_addr(addr, m->cap);; i = (i + 1) & (unsigned)(m->cap - 1)) {
        if (m->e[i].addr == addr) return &m->e[i];
        if (!m->e[i].addr) {
            if (!add) return NULL;
            m->e[i].addr = addr;
            m->n++;
            return &m->e[i];
        }
    }
}

void rt_bufend_note(Rt *rt, uint64_t addr, int64_t end, bool write) {
    if (!addr) return;
    RtBufEnd *b = rt_bufend_slot(&rt->bufends, addr, true);
    if (end > b->tend) b->tend = end;
    if (write && end > b->wend) b->wend = end;
}

int64_t rt_bufend_get(const Rt *rt, uint64_t addr, bool write) {
    RtBufEnd *b = rt_bufend_slot((RtBufEnds *)&rt->bufends, addr, false);
    return !b ? 0 : write ? b->tend : b->wend;
}
