/* rt_deps — dependency derivation at submit (spec §5): explicit fanins, Step A creator retention
 * (WAIT|RETAIN) for every non-OUTPUT tensor, Step B TensorMap lookup (WAIT) for INPUT and INOUT
 * with deletion of COVERED entries by INOUT, registration of INOUT / OUTPUT_EXISTING modifiers,
 * MANUAL scopes skipping everything implicit. Edges are deduplicated per (producer, consumer) with
 * flags OR-ed for scheduling, and recorded raw (with source and geometry) for deps.json.
 * Requires: rt_internal.h. Produces: RtTask.fanins, Rt.edges. Does: pure bookkeeping.
 *
 * Every TensorMap entry counts at lookup, also one whose producer has retired (rt_live.c): such an
 * edge waits for nothing (the producer ended before the orchestrator's clock) but is still an edge,
 * so the edge set is what the reference's host replay of deps.json computes whatever retired. An
 * entry stays until an INOUT covering it replaces it. */
#include "rt/rt_internal.h"

#include <string.h>

void rt_tm_init(RtTensorMap *m) {
    for (int i = 0; i < RT_TM_BUCKETS; i++) m->head[i] = -1;
    m->pool.len = 0;
    m->free_list = -1;
}

void rt_tm_free(RtTensorMap *m) { vec_free(&m->pool); }

/* Fibonacci hashing of the base address, keeping the top log2(buckets) = 12 bits. */
static int rt_tm_bucket(uint64_t addr) { return (int)((addr * 0x9E3779B97F4A7C15ull) >> (64 - 12)); }

static void rt_tm_insert(RtTensorMap *m, const RtTensor *geo, int producer) {
    int idx;
    if (m->free_list >= 0) {
        idx = m->free_list;
        m->free_list = m->pool.data[idx].next;
    } else {
        RtTmEntry e = {0};
        vec_push(&m->pool, e);
        idx = m->pool.len - 1;
    }
    int b = rt_tm_bucket(geo->addr);
    RtTmEntry *e = &m->pool.data[idx];
    e->geo = *geo;
    e->producer = producer;
    e->next = m->head[b];
    m->head[b] = idx;
}

/* Per-dimension decomposition of step 3; *ok = false when the layouts are not compatible. */
static RtOverlap rt_overlap_dims(const RtTensor *p, const RtTensor *e, bool *ok) {
    int nd = p->ndims;
    *ok = false;
    if (p->dtype != e->dtype || nd != e->ndims || nd == 0 || p->strides[nd - 1] != 1) return RT_OV_OTHER;
    for (int d = 0; d < nd; d++) {
        if (p->strides[d] != e->strides[d] || p->strides[d] <= 0) return RT_OV_OTHER;
        if (d > 0 && p->strides[d - 1] % p->strides[d] != 0) return RT_OV_OTHER;
    }
    int64_t po[RT_MAX_DIMS], eo[RT_MAX_DIMS];
    int64_t pr = (int64_t)p->start, er = (int64_t)e->start;
    for (int d = 0; d < nd; d++) {
        po[d] = pr / p->strides[d]; pr %= p->strides[d];
        eo[d] = er / e->strides[d]; er %= e->strides[d];
        if (d > 0) {   /* a view wrapping past its reference row cannot be decomposed */
            int64_t ref = p->strides[d - 1] / p->strides[d];
            if (po[d] + p->shape[d] > ref || eo[d] + e->shape[d] > ref) return RT_OV_OTHER;
        }
    }
    *ok = true;
    bool covered = true;
    for (int d = 0; d < nd; d++) {
        int64_t plo = po[d], phi = po[d] + p->shape[d], elo = eo[d], ehi = eo[d] + e->shape[d];
        if (phi <= elo || ehi <= plo) return RT_OV_NO_OVERLAP;
        if (!(plo <= elo && ehi <= phi)) covered = false;
    }
    return covered ? RT_OV_COVERED : RT_OV_OTHER;
}

RtOverlap rt_overlap(const RtTensor *p, const RtTensor *e) {
    if (p->version > e->version) return RT_OV_OTHER;
    int64_t pe = rt_tensor_extent(p), ee = rt_tensor_extent(e);
    if (pe == 0 || ee == 0) return RT_OV_NO_OVERLAP;
    uint64_t ps = p->start, es = e->start;
    if (ps + (uint64_t)pe <= es || es + (uint64_t)ee <= ps) return RT_OV_NO_OVERLAP;
    bool ok;
    RtOverlap r = rt_overlap_dims(p, e, &ok);
    return ok ? r : RT_OV_OTHER;
}

typedef RtFaninVec FaninVec;

/* Adds (or ORs into) the fanin of producer `pred`. A task has few fanins, so a scan of the list
 * dedupes without per-task state (which would grow with the run). */
static void rt_add_fanin(Rt *rt, FaninVec *fan, int pred, unsigned flags) {
    (void)rt;
    for (int i = fan->len - 1; i >= 0; i--)
        if (fan->data[i].pred == pred) { fan->data[i].flags |= flags; return; }
    vec_push(fan, ((RtFanin){ pred, flags }));
}

static void rt_record_edge(Rt *rt, int pred, int succ, int arg, RtEdgeSource src, unsigned flags,
                           RtOverlap ov, const RtTensor *cons, const RtTensor *prod) {
    if (!rt->opt->capture_deps) return;          /* only deps.json reads them: ~300 bytes a task otherwise */
    RtEdge e;
    memset(&e, 0, sizeof e);
    e.pred = pred; e.succ = succ; e.arg = arg; e.src = src; e.flags = flags; e.overlap = ov;
    if (cons) e.consumer = *cons;
    if (prod) e.producer = *prod;
    vec_push(&rt->edges, e);
}

/* Step B: modifier lookup on the bucket of t's base address; INOUT deletes COVERED entries. */
static void rt_tm_lookup(Rt *rt, FaninVec *fan, int ti, int arg, const RtTensor *t, bool inout) {
    RtTensorMap *m = &rt->tm;
    int b = rt_tm_bucket(t->addr);
    int prev = -1, cur = m->head[b];
    while (cur >= 0) {
        RtTmEntry *e = &m->pool.data[cur];
        int next = e->next;
        RtOverlap ov = e->geo.addr == t->addr ? rt_overlap(t, &e->geo) : RT_OV_NO_OVERLAP;
        if (ov != RT_OV_NO_OVERLAP && e->producer != ti) {
            rt_add_fanin(rt, fan, e->producer, RT_DEP_WAIT);
            rt_record_edge(rt, e->producer, ti, arg, RT_SRC_TENSORMAP, RT_DEP_WAIT, ov, t, &e->geo);
        }
        if (inout && ov == RT_OV_COVERED) {          /* the new writer supersedes the old entry */
            if (prev < 0) m->head[b] = next;
            else m->pool.data[prev].next = next;
            e->next = m->free_list;
            m->free_list = cur;
        } else {
            prev = cur;
        }
        cur = next;
    }
}

void rt_derive_deps(Rt *rt, int ti, const int *explicit_deps, const unsigned *explicit_flags, int nexplicit) {
    FaninVec *fan = &rt->fan;                       /* scratch reused by every submit */
    fan->len = 0;
    for (int k = 0; k < nexplicit; k++) {
        int pred = explicit_deps[k];
        if (pred < 0 || pred >= ti) continue;
        rt_add_fanin(rt, fan, pred, explicit_flags ? explicit_flags[k] : RT_DEP_WAIT | RT_DEP_RETAIN);
        rt_record_edge(rt, pred, ti, -1, RT_SRC_EXPLICIT, RT_DEP_WAIT | RT_DEP_RETAIN, RT_OV_OTHER, NULL, NULL);
    }
    RtTask *task = rt_task(rt, ti);
    if (!task->manual) {
        for (int i = 0, slot = -1; i < task->nargs; i++) {
            RtArg *a = &task->args[i];
            if (a->dir != AD_SCALAR) slot++;           /* consumer slot: tensors only, in order */
            if (a->dir == AD_SCALAR || a->dir == AD_OUTPUT) continue;
            if (a->t.owner != RT_NO_TASK && a->t.owner != ti) {      /* Step A */
                rt_add_fanin(rt, fan, a->t.owner, RT_DEP_WAIT | RT_DEP_RETAIN);
                rt_record_edge(rt, a->t.owner, ti, slot, RT_SRC_CREATOR, RT_DEP_WAIT | RT_DEP_RETAIN,
                               RT_OV_OTHER, &a->t, NULL);
            }
            if ((a->dir == AD_INPUT || a->dir == AD_INOUT) && !a->t.manual_dep)   /* Step B */
                rt_tm_lookup(rt, fan, ti, slot, &a->t, a->dir == AD_INOUT);
        }
        for (int i = 0; i < task->nargs; i++) {                      /* step 4: register modifiers */
            RtArg *a = &task->args[i];
            if ((a->dir == AD_INOUT || a->dir == AD_OUTPUT_EXISTING) && !a->t.manual_dep)
                rt_tm_insert(&rt->tm, &a->t, ti);
        }
    }
    RtFanin *fi = rt_task_fanins(rt, task, fan->len);
    if (fan->len) memcpy(fi, fan->data, sizeof(RtFanin) * (size_t)fan->len);
}
