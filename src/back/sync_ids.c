/* sync_ids — stage 5 of synchronisation: event-ID allocation (isa_and_sync.md §8.5).
 *
 * Requires: the pairs left after stages 3 and 4, each with its set and wait in one region.
 * Produces: an EVENT_ID on every surviving pair and its ops; compensation pre-sets / drains for
 *           loop-carried pairs; PIPE_ALL barriers for pairs that got no ID; stats.ids_used.
 * Does:     per (src, dst) direction, interval colouring in program-point space with
 *           t->event_ids_per_direction IDs (one fewer for V->S, S->V and MTE2->V), preferring IDs
 *           never used; an ID is shared only when every set is ordered after the previous wait of that
 *           ID on every path (sync_ordered), as flags are binary tokens. A forward pair occupies [set, wait]; a loop-carried pair the whole function
 *           (pre-set at the kernel head, drain at the tail). When a direction runs out: widening
 *           (merge two overlapping forward pairs into [later set, earlier wait]), then reallocation
 *           with loop-carried pairs confined to their outermost loop, then to their own loop (pre-set
 *           before the loop, drain after it), then last resort: the set is dropped and the wait becomes
 *           pipe_barrier(PIPE_ALL) (a carrier also leaves a PIPE_ALL barrier where its drain was). A
 *           carrier (sync_move.c stage 4b) is confined to its own loop from the start; at the top
 *           level it keeps the compensation it does not need for its riders at the kernel edge.
 */
#include "back/sync_internal.h"

#include <stdlib.h>
#include <string.h>

#define MAX_IDS 16

static bool reserved_dir(Pipe s, Pipe d) {
    return (s == PIPE_V && d == PIPE_S) || (s == PIPE_S && d == PIPE_V) || (s == PIPE_MTE2 && d == PIPE_V);
}

/* Where a loop-carried pair's pre-set and drain go. Confined: right before / after its loop — except
 * that a carrier of a loop at the top level needs only one of them there (its pre-set, for a hoisted
 * wait; its drain, for a sunk set) and keeps the other at the kernel head / tail, so the pre-set of
 * a drain carrier does not hold the loop's first wait until the src pipe reaches the loop. */
static void comp_span(const SyncCtx *c, const SyncPair *p, int *head, bool *head_after, int *tail, bool *tail_after) {
    *head = 0, *head_after = true, *tail = c->el.len - 1, *tail_after = false;
    if (!p->confined) return;
    bool top = p->carries && p->conf_loop == p->loop && c->regions.data[c->el.data[p->loop].region].kind == RG_ROOT;
    if (!top || p->carries_hoisted) *head = c->el.data[p->conf_loop].begin, *head_after = false;
    if (!top || p->carries_sunk) *tail = p->conf_loop, *tail_after = true;
}

static void interval(const SyncCtx *c, const SyncPair *p, bool confine, int *lo, int *hi) {
    if (p->loop >= 0) {
        if (p->confined) {
            int h, t;
            bool ha, ta;
            comp_span(c, p, &h, &ha, &t, &ta);
            *lo = 2 * h + (ha ? 1 : 0);
            *hi = 2 * t + (ta ? 1 : 0);
        } else {
            *lo = 0;
            *hi = 2 * c->el.len;
        }
        return;
    }
    *lo = sync_op_point(c, p->set);
    *hi = sync_op_point(c, p->wait);
}

static bool id_free(const SyncCtx *c, const IntVec *dir, int id, int lo, int hi, bool confine) {
    for (int j = 0; j < dir->len; j++) {
        const SyncPair *q = &c->pairs.data[dir->data[j]];
        if (q->event != id) continue;
        int a, b;
        interval(c, q, confine, &a, &b);
        if (!(b < lo || hi < a)) return false;
    }
    return true;
}

/* The first set / last wait of a pair's ID: its compensation when confined to a loop. */
static int end_set(const SyncPair *p) { return p->confined ? p->comp_set : p->set; }
static int end_wait(const SyncPair *p) { return p->confined ? p->comp_wait : p->wait; }

/* A pair confined to a loop inside another loop pre-sets on every entry: the drain of the previous
 * entry must be ordered before the next pre-set. */
static bool confine_safe(SyncCtx *c, const SyncPair *p) {
    if (!p->confined) return true;
    int outer = c->regions.data[sync_op_region(c, p->comp_set)].kind == RG_ROOT ? -1
              : sync_common_loop(c, sync_op_region(c, p->comp_set), sync_op_region(c, p->comp_set));
    return outer < 0 || sync_ordered(c, p->comp_set, p->comp_wait, outer);
}

/* Sharing an ID with the pairs already holding it: every set must fire after the previous wait of
 * the ID consumed its token (flags are binary), on every path — directly, and around a common loop
 * in both orders. A loop-carried pair confined to its loop is represented by its pre-set and drain. */
static bool reuse_safe(SyncCtx *c, const IntVec *dir, int id, const SyncPair *p) {
    for (int j = 0; j < dir->len; j++) {
        const SyncPair *q = &c->pairs.data[dir->data[j]];
        if (q == p || q->event != id) continue;
        if ((q->loop >= 0 && !q->confined) || (p->loop >= 0 && !p->confined)) continue;   /* never share */
        int qs = end_set(q), qw = end_wait(q), ps = end_set(p), pw = end_wait(p);
        int as = qs, aw = qw, bs = ps, bw = pw;      /* a earlier than b */
        if (sync_op_point(c, qs) > sync_op_point(c, ps)) { as = ps; aw = pw; bs = qs; bw = qw; }
        if (!sync_ordered(c, bs, aw, -1)) return false;
        int L = sync_common_loop(c, sync_op_region(c, as), sync_op_region(c, bs));
        if (L >= 0 && (!sync_ordered(c, as, bw, L) || !sync_ordered(c, bs, aw, L))) return false;
    }
    return true;
}

static int cmp_lo_ctx_lo(const int *a, const int *b, const int *los) {
    if (los[*a] != los[*b]) return los[*a] < los[*b] ? -1 : 1;
    return *a < *b ? -1 : (*a > *b);
}

/* Colours the pairs of one direction; the uncoloured ones are appended to `failed`. */
static void colour(SyncCtx *c, IntVec *dir, int usable, bool confine, IntVec *failed) {
    int n = dir->len;
    int *los = calloc((size_t)n + 1, sizeof(int)), *order = calloc((size_t)n + 1, sizeof(int));
    PTOC_ASSERT(los && order, "out of memory");
    for (int j = 0; j < n; j++) {
        int hi;
        interval(c, &c->pairs.data[dir->data[j]], confine, &los[j], &hi);
        order[j] = j;
        c->pairs.data[dir->data[j]].event = -1;
    }
    for (int x = 1; x < n; x++)          /* insertion sort by (interval start, creation order) */
        for (int y = x; y > 0 && cmp_lo_ctx_lo(&order[y], &order[y - 1], los) < 0; y--) {
            int t = order[y]; order[y] = order[y - 1]; order[y - 1] = t;
        }
    bool used[MAX_IDS] = { false };
    for (int x = 0; x < n; x++) {
        SyncPair *p = &c->pairs.data[dir->data[order[x]]];
        int lo, hi, pick = -1;
        interval(c, p, confine, &lo, &hi);
        if (!confine_safe(c, p)) { vec_push(failed, dir->data[order[x]]); continue; }
        for (int id = 0; id < usable && pick < 0; id++)
            if (!used[id] && id_free(c, dir, id, lo, hi, confine)) pick = id;
        for (int id = 0; id < usable && pick < 0; id++)
            if (id_free(c, dir, id, lo, hi, confine) && reuse_safe(c, dir, id, p)) pick = id;
        if (pick < 0) { vec_push(failed, dir->data[order[x]]); continue; }
        p->event = pick;
        used[pick] = true;
    }
    free(los);
    free(order);
}

/* Widening: merge failed forward pair p into another forward pair q of its direction and region whose
 * interval overlaps it; q keeps the later set and the earlier wait. */
static bool widen(SyncCtx *c, const IntVec *dir, int pk) {
    SyncPair *p = &c->pairs.data[pk];
    if (p->loop >= 0) return false;
    int r = sync_op_region(c, p->set);
    for (int j = 0; j < dir->len; j++) {
        int qk = dir->data[j];
        SyncPair *q = &c->pairs.data[qk];
        if (qk == pk || q->dead || q->loop >= 0 || q->nid != p->nid) continue;
        if (sync_op_region(c, q->set) != r || sync_op_region(c, q->wait) != r || sync_op_region(c, p->wait) != r)
            continue;
        int s = sync_set_not_before(c, p->set, q->set) ? p->set : q->set;
        int w = sync_wait_not_after(c, p->wait, q->wait) ? p->wait : q->wait;
        if (sync_op_point(c, s) >= sync_op_point(c, w)) continue;
        if (s == p->set) {
            const SyncOp *o = &c->ops.data[p->set];
            int at = sync_op_index(c, p->set), elem = o->elem;
            bool after = o->after;
            sync_op_detach(c, p->set);
            sync_op_detach(c, q->set);
            sync_op_attach(c, q->set, elem, after, at);
        } else sync_op_detach(c, p->set);
        if (w == p->wait) {
            const SyncOp *o = &c->ops.data[p->wait];
            int at = sync_op_index(c, p->wait), elem = o->elem;
            bool after = o->after;
            sync_op_detach(c, p->wait);
            sync_op_detach(c, q->wait);
            sync_op_attach(c, q->wait, elem, after, at);
        } else sync_op_detach(c, p->wait);
        p->dead = true;
        return true;
    }
    return false;
}

static void last_resort(SyncCtx *c, int pk) {
    SyncPair *p = &c->pairs.data[pk];
    if (p->carries) {            /* the pairs it carries get a full barrier where its drain was */
        SyncOp b = { .kind = SO_BARRIER, .pipe = PIPE_ALL, .pair = -1 };
        sync_op_new(c, b, p->loop, true);
    }
    sync_op_detach(c, p->set);
    if (p->comp_set >= 0) {
        sync_op_detach(c, p->comp_set);
        sync_op_detach(c, p->comp_wait);
        p->comp_set = p->comp_wait = -1;
    }
    SyncOp *w = &c->ops.data[p->wait];
    w->kind = SO_BARRIER;
    w->pipe = PIPE_ALL;
    w->pair = -1;
    p->dead = true;
    c->st->nfallback_barriers++;
}

static void collect(SyncCtx *c, Pipe s, Pipe d, IntVec *dir) {
    vec_clear(dir);
    for (int k = 0; k < c->pairs.len; k++) {
        const SyncPair *p = &c->pairs.data[k];
        if (!p->dead && p->src == s && p->dst == d) vec_push(dir, k);
    }
}

static void add_compensation(SyncCtx *c, int pk) {
    SyncPair *p = &c->pairs.data[pk];
    int head, tail;
    bool head_after, tail_after;
    comp_span(c, p, &head, &head_after, &tail, &tail_after);
    SyncOp s = { .kind = SO_SET, .src = p->src, .dst = p->dst, .pipe = p->src, .pair = pk, .compensation = true };
    SyncOp w = { .kind = SO_WAIT, .src = p->src, .dst = p->dst, .pipe = p->dst, .pair = pk, .compensation = true };
    p->comp_set = sync_op_new(c, s, head, head_after);
    p->comp_wait = sync_op_new(c, w, tail, tail_after);
}

/* The LOOP_END element of the outermost loop around loop-carried pair p (its own loop when that is
 * at the top level). */
static int outermost_loop(const SyncCtx *c, const SyncPair *p) {
    int best = p->loop;
    for (int r = c->el.data[p->loop].region; r >= 0; r = c->regions.data[r].parent)
        if (c->regions.data[r].kind == RG_LOOP) best = c->regions.data[r].end;
    return best;
}

static void drop_compensation(SyncCtx *c, SyncPair *p) {
    if (p->comp_set < 0) return;
    sync_op_detach(c, p->comp_set);
    sync_op_detach(c, p->comp_wait);
    p->comp_set = p->comp_wait = -1;
}

/* Confines every loop-carried pair of dir to its outermost loop (outer) or to its own loop; returns
 * whether any pair changed. */
static bool confine_all(SyncCtx *c, const IntVec *dir, bool outer) {
    bool changed = false;
    for (int j = 0; j < dir->len; j++) {
        SyncPair *p = &c->pairs.data[dir->data[j]];
        if (p->loop < 0 || p->carries) continue;
        int L = outer ? outermost_loop(c, p) : p->loop;
        if (p->confined && p->conf_loop == L) continue;
        drop_compensation(c, p);
        p->confined = true;
        p->conf_loop = L;
        add_compensation(c, dir->data[j]);
        changed = true;
    }
    return changed;
}

static void alloc_direction(SyncCtx *c, Pipe s, Pipe d) {
    IntVec dir = { 0 }, failed = { 0 };
    int usable = c->t->event_ids_per_direction - (reserved_dir(s, d) ? 1 : 0);
    if (usable > MAX_IDS) usable = MAX_IDS;
    bool confine = false;
    int level = 0;               /* 0 whole function, 1 outermost loop, 2 own loop */
    collect(c, s, d, &dir);
    for (int j = 0; j < dir.len; j++) {       /* a carrier's drain must stay right after its loop */
        SyncPair *p = &c->pairs.data[dir.data[j]];
        if (!p->carries) continue;
        p->confined = true;
        p->conf_loop = p->loop;
        add_compensation(c, dir.data[j]);
    }
    for (int iter = 0; iter < 99; iter++) {
        collect(c, s, d, &dir);
        if (!dir.len) break;
        vec_clear(&failed);
        colour(c, &dir, usable, confine, &failed);
        if (!failed.len) break;
        bool progress = false;
        for (int j = 0; j < failed.len && !progress; j++) progress = widen(c, &dir, failed.data[j]);
        if (progress) continue;
        /* reallocation: loop-carried pairs live in their outermost loop (a pair of an inner loop
         * then carries its token from one entry of the inner loop to the next, so the inner loop
         * needs no drain that would stall the pipes at its exit), then in their own loop only */
        if (level < 2) {
            confine = true;
            bool changed = false;
            while (level < 2 && !changed) changed = confine_all(c, &dir, ++level == 1);
            if (changed) continue;
        }
        for (int j = 0; j < failed.len; j++) last_resort(c, failed.data[j]);
        break;
    }
    collect(c, s, d, &dir);
    bool used[MAX_IDS] = { false };
    for (int j = 0; j < dir.len; j++) {
        SyncPair *p = &c->pairs.data[dir.data[j]];
        PTOC_ASSERT(p->event >= 0, "pair without an event ID");
        used[p->event] = true;
    }
    for (int id = 0; id < MAX_IDS; id++) c->st->ids_used[s][d] += used[id];
    vec_free(&dir);
    vec_free(&failed);
}

void sync_alloc_ids(SyncCtx *c) {
    for (int s = 0; s < PIPE_COUNT; s++)
        for (int d = 0; d < PIPE_COUNT; d++)
            if (s != d) alloc_direction(c, (Pipe)s, (Pipe)d);
    for (int k = 0; k < c->pairs.len; k++) {
        SyncPair *p = &c->pairs.data[k];
        if (p->dead) continue;
        if (p->loop >= 0 && p->comp_set < 0) add_compensation(c, k);
        c->ops.data[p->set].event = c->ops.data[p->wait].event = p->event;
        if (p->comp_set >= 0) c->ops.data[p->comp_set].event = c->ops.data[p->comp_wait].event = p->event;
    }
}
