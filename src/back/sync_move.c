/* sync_move — stages 3 and 4 of synchronisation: moving sync points across loop and branch
 * boundaries, and removing redundant pairs (isa_and_sync.md §8.3, §8.4).
 *
 * Requires: the pairs and barriers of stage 2 (sync_hazard.c).
 * Produces: every pair with its set and wait in one region (the set sunk after the ifs / loops that
 *           do not hold its wait, the wait hoisted before the ifs / loops that do not hold its set;
 *           a loop-carried pair never leaves its loop); barriers common to the head of both
 *           branches of an if hoisted before it; pairs covered by another pair removed; forward
 *           pairs sunk / hoisted out of a loop replaced by a loop-carried pair's drain / pre-set
 *           when one carries the same dependency (stage 4b, sync_carry_sunk_sets).
 * Does:     see docs/sync.md for the exact redundancy rule ptoc uses (a sound generalisation of the
 *           reference's "complete pair strictly between").
 */
#include "back/sync_internal.h"

/* ---- stage 3 ---- */
static void sink_set(SyncCtx *c, SyncPair *p) {
    for (;;) {
        int r = sync_op_region(c, p->set);
        if (c->regions.data[r].kind == RG_ROOT) return;
        if (sync_region_contains(c, r, sync_op_region(c, p->wait))) return;
        if (!p->sunk_from) p->sunk_from = 1 + sync_op_point(c, p->set);
        sync_op_detach(c, p->set);
        sync_op_attach(c, p->set, c->regions.data[r].end, true, -1);
    }
}

static void hoist_wait(SyncCtx *c, SyncPair *p) {
    for (;;) {
        int r = sync_op_region(c, p->wait);
        if (c->regions.data[r].kind == RG_ROOT) return;
        if (sync_region_contains(c, r, sync_op_region(c, p->set))) return;
        if (!p->hoisted_from) p->hoisted_from = 1 + sync_op_point(c, p->wait);
        sync_op_detach(c, p->wait);
        sync_op_attach(c, p->wait, c->regions.data[r].begin, false, -1);
    }
}

/* A pipe_barrier at the head of both branches runs on every path: hoist it before the if. */
static void hoist_branch_barriers(SyncCtx *c, int ib) {
    const SyncEl *e = &c->el.data[ib];
    int t0 = ib + 1, e0 = e->mid + 1;
    if (c->el.data[t0].kind == EK_PH_THEN || c->el.data[e0].kind == EK_PH_ELSE) return;
    IntVec *tl = sync_list(c, t0, false), *el = sync_list(c, e0, false);
    for (int x = 0; x < tl->len; x++) {
        int a = tl->data[x];
        if (c->ops.data[a].kind != SO_BARRIER) continue;
        for (int y = 0; y < el->len; y++) {
            int b = el->data[y];
            if (c->ops.data[b].kind != SO_BARRIER || c->ops.data[b].pipe != c->ops.data[a].pipe) continue;
            sync_op_detach(c, b);
            sync_op_detach(c, a);
            sync_op_attach(c, a, ib, false, -1);
            x--;
            break;
        }
    }
}

void sync_move(SyncCtx *c) {
    for (int k = 0; k < c->pairs.len; k++) {
        SyncPair *p = &c->pairs.data[k];
        if (p->dead) continue;
        sink_set(c, p);
        hoist_wait(c, p);
    }
    for (int i = c->el.len - 1; i >= 0; i--)
        if (c->el.data[i].kind == EK_IF_BEGIN) hoist_branch_barriers(c, i);
}

/* ---- stage 4 ---- */
/* every op strictly between list positions lo and hi has kind `kind` */
static bool run_of(SyncCtx *c, const IntVec *l, int lo, int hi, SyncOpKind kind) {
    for (int j = lo + 1; j < hi; j++)
        if (c->ops.data[l->data[j]].kind != kind) return false;
    return true;
}

/* set a fires no earlier than set b (later point, or the same list with only sets between) */
bool sync_set_not_before(SyncCtx *c, int a, int b) {
    int pa = sync_op_point(c, a), pb = sync_op_point(c, b);
    if (pa != pb) return pa > pb;
    int ia = sync_op_index(c, a), ib = sync_op_index(c, b);
    const SyncOp *o = &c->ops.data[a];
    return ia >= ib || run_of(c, sync_list(c, o->elem, o->after), ia, ib, SO_SET);
}

/* wait a blocks no later than wait b */
bool sync_wait_not_after(SyncCtx *c, int a, int b) {
    int pa = sync_op_point(c, a), pb = sync_op_point(c, b);
    if (pa != pb) return pa < pb;
    int ia = sync_op_index(c, a), ib = sync_op_index(c, b);
    const SyncOp *o = &c->ops.data[a];
    return ia <= ib || run_of(c, sync_list(c, o->elem, o->after), ib, ia, SO_WAIT);
}

static bool covers(SyncCtx *c, const SyncPair *q, const SyncPair *p) {
    if (q == p || q->dead || q->src != p->src || q->dst != p->dst || q->loop != p->loop || q->nid != p->nid)
        return false;
    int r = sync_op_region(c, p->set);
    if (sync_op_region(c, p->wait) != r || sync_op_region(c, q->set) != r || sync_op_region(c, q->wait) != r)
        return false;
    return sync_set_not_before(c, q->set, p->set) && sync_wait_not_after(c, q->wait, p->wait);
}

void sync_remove_redundant(SyncCtx *c) {
    for (int k = c->pairs.len - 1; k >= 0; k--) {
        SyncPair *p = &c->pairs.data[k];
        if (p->dead) continue;
        for (int j = 0; j < c->pairs.len; j++) {
            if (!covers(c, &c->pairs.data[j], p)) continue;
            SyncPair *q = &c->pairs.data[j];     /* q now stands for p's source too (stage 4b) */
            int from = p->sunk_from ? p->sunk_from : 1 + sync_op_point(c, p->set);
            if (q->sunk_from && from > q->sunk_from) q->sunk_from = from;
            int to = p->hoisted_from ? p->hoisted_from : 1 + sync_op_point(c, p->wait);
            if (q->hoisted_from && to < q->hoisted_from) q->hoisted_from = to;
            p->dead = true;
            sync_op_detach(c, p->set);
            sync_op_detach(c, p->wait);
            break;
        }
    }
}

/* ---- stage 4b: forward pairs riding on a loop-carried pair's compensation ----
 * A forward pair whose set stage 3 sank after loop L makes the dst pipe wait for everything the src
 * pipe does in L; one whose wait it hoisted before L stalls the dst pipe before L's first iteration.
 * A loop-carried pair q of L with the same direction, confined to L, pre-sets right before L and
 * drains right after it:
 *  - sunk set: when q sets at the top level of L's body at or after the pair's original set, q's
 *    token at the loop exit says the source instruction of the last iteration (and, the src pipe
 *    being in order, of every earlier one) is done — the drain replaces the pair;
 *  - hoisted wait: when q waits at the top level of L's body at or before the pair's original wait,
 *    q's pre-set (on the src pipe, after the pair's source) is consumed by that wait in the first
 *    iteration, before the pair's destination — the pre-set replaces the pair.
 * The tail load after a pipelined K loop then waits only for the last reads of its buffer, and the
 * first iteration's loads that do not touch a head matmul's buffers start at once. */
static int carrier_for(SyncCtx *c, const SyncPair *p, bool *sunk_out) {
    if (p->loop >= 0) return -1;
    const SyncOp *s = &c->ops.data[p->set], *w = &c->ops.data[p->wait];
    bool sunk = p->sunk_from && s->after && c->el.data[s->elem].kind == EK_LOOP_END;
    bool hoisted = p->hoisted_from && !w->after && c->el.data[w->elem].kind == EK_LOOP_BEGIN;
    for (int pass = 0; pass < 2; pass++) {
        if (pass == 0 ? !sunk : !hoisted) continue;
        int L = pass == 0 ? s->elem : c->el.data[w->elem].end, body = c->el.data[L].body, best = -1, best_pt = 0;
        for (int j = 0; j < c->pairs.len; j++) {
            const SyncPair *q = &c->pairs.data[j];
            if (q->dead || q->loop != L || q->src != p->src || q->dst != p->dst || q->nid != p->nid) continue;
            /* the carrier closest to the pair's own position: the earliest such set, the latest such wait */
            int pt = sync_op_point(c, pass == 0 ? q->set : q->wait);
            if (sync_op_region(c, pass == 0 ? q->set : q->wait) != body) continue;
            if (pass == 0 ? pt + 1 < p->sunk_from || (best >= 0 && pt >= best_pt)
                          : pt + 1 > p->hoisted_from || (best >= 0 && pt <= best_pt))
                continue;
            best = j, best_pt = pt;
        }
        if (best >= 0) { *sunk_out = pass == 0; return best; }
    }
    return -1;
}

void sync_carry_sunk_sets(SyncCtx *c) {
    for (int k = 0; k < c->pairs.len; k++) {
        SyncPair *p = &c->pairs.data[k];
        if (p->dead) continue;
        bool sunk = false;
        int q = carrier_for(c, p, &sunk);
        if (q < 0) continue;
        c->pairs.data[q].carries = true;
        if (sunk) c->pairs.data[q].carries_sunk = true;
        else c->pairs.data[q].carries_hoisted = true;
        p->dead = true;
        sync_op_detach(c, p->set);
        sync_op_detach(c, p->wait);
    }
}
