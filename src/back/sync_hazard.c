/* sync_hazard — stage 2 of synchronisation: hazard detection and insertion (isa_and_sync.md §8.2).
 *
 * Requires: the linear sync IR of stage 1 (sync.c), sync lists empty.
 * Produces: barriers in now.before for same-pipe hazards; set (front.after) / wait (now.before)
 *           pairs for cross-pipe hazards, loop-carried pairs tagged with their loop's end element.
 *           After stage 4, guard pairs (sync_guard_tokens) and the path-ordering query sync_ordered
 *           that ID allocation uses to share an ID only when no set can hit an unconsumed token.
 * Does:     for every compound `now`, a backward scan over the earlier elements with transitive
 *           pruning (synced[pipe], found[pair]); ifs are scanned branch by branch and merged with
 *           AND, loops before `now` once (promoted only when provably non-empty); at every LOOP_END a second pass treats the loop body as the
 *           previous iteration of each body op. Hazards: RAW / WAR / WAW on exact byte intervals
 *           (mir_access_overlap: different spaces never alias, GM per parameter), plus two reads of
 *           Acc on different pipes.
 */
#include "back/sync_internal.h"

#include <stdlib.h>
#include <string.h>

typedef struct ScanState {
    bool synced[PIPE_COUNT];
    int *found;               /* the pairs whose wait lies between the scan point and `now`, ascending */
    int nfound, capf;         /* (a short list: a scan stops once every pipe it needs is ordered) */
} ScanState;

typedef struct Scan {
    SyncCtx *c;
    int now;                  /* the compound scanned for, or -1 in an ordering check (no insertion) */
    Pipe np;                  /* its pipe */
    int skip_after;           /* element whose after-list the next visit must skip (once), -1 none */
    int loop;                 /* LOOP_END index while scanning the previous iteration, else -1 */
    unsigned need;            /* pipes whose synced flag can still change the outcome (bit per pipe) */
    SyncSkip *skip;           /* stage 2: jump over elements whose visit is a no-op (NULL: visit all) */
} Scan;

/* The scan state is absorbing once every pipe in sc->need is synced: synced flags only ever turn
 * true (a merge ANDs two copies of one state), check_front skips synced pipes, and the flags of
 * other pipes decide nothing for the elements still to be scanned. Stopping there keeps the
 * result identical and makes each scan end at the nearest point that orders every pipe in use
 * (compile time linear in the program instead of quadratic). */
static bool st_done(const Scan *sc, const ScanState *st) {
    for (int p = 0; p < PIPE_COUNT; p++)
        if ((sc->need >> p & 1u) && !st->synced[p]) return false;
    return true;
}

/* The found pairs are kept as a sorted list, not a flag per pair of the kernel: an ordering check
 * visits a few elements, and a per-pair array cleared and copied for each check made the checks of
 * a kernel quadratic in its pairs. */
static void st_init(ScanState *s, int cap) {
    (void)cap;
    memset(s->synced, 0, sizeof s->synced);
    s->found = NULL;
    s->nfound = s->capf = 0;
}

static void st_copy(ScanState *d, const ScanState *s) {
    memcpy(d->synced, s->synced, sizeof d->synced);
    d->nfound = d->capf = s->nfound;
    d->found = malloc(sizeof(int) * (size_t)(s->nfound ? s->nfound : 1));
    PTOC_ASSERT(d->found, "out of memory");
    if (s->nfound) memcpy(d->found, s->found, sizeof(int) * (size_t)s->nfound);
}

/* Index of the first found pair >= k. */
static int st_lower(const ScanState *s, int k) {
    int lo = 0, hi = s->nfound;
    while (lo < hi) {
        int mid = (lo + hi) / 2;
        if (s->found[mid] < k) lo = mid + 1;
        else hi = mid;
    }
    return lo;
}

static bool st_found(const ScanState *s, int k) {
    int i = st_lower(s, k);
    return k >= 0 && i < s->nfound && s->found[i] == k;
}

static void st_mark(ScanState *s, int k) {
    int i = st_lower(s, k);
    if (i < s->nfound && s->found[i] == k) return;
    if (s->nfound == s->capf) {
        s->capf = s->capf ? 2 * s->capf : 8;
        s->found = realloc(s->found, sizeof(int) * (size_t)s->capf);
        PTOC_ASSERT(s->found, "out of memory");
    }
    memmove(s->found + i + 1, s->found + i, sizeof(int) * (size_t)(s->nfound - i));
    s->found[i] = k;
    s->nfound++;
}

/* st = a AND b (a pipe or pair counts only if both branches have it); frees a and b */
static void st_merge(ScanState *st, ScanState *a, ScanState *b) {
    for (int p = 0; p < PIPE_COUNT; p++) st->synced[p] = a->synced[p] && b->synced[p];
    st->nfound = 0;
    for (int i = 0, j = 0; i < a->nfound && j < b->nfound;) {
        if (a->found[i] < b->found[j]) i++;
        else if (a->found[i] > b->found[j]) j++;
        else { st_mark(st, a->found[i]); i++; j++; }
    }
    free(a->found);
    free(b->found);
}

static void visit_op(Scan *sc, ScanState *st, int id) {
    const SyncOp *o = &sc->c->ops.data[id];
    Pipe np = sc->np;
    switch (o->kind) {
    case SO_BARRIER:
        if (o->pipe == PIPE_ALL) for (int p = 0; p < PIPE_COUNT; p++) st->synced[p] = true;
        else if (o->pipe == np) st->synced[np] = true;
        break;
    case SO_WAIT:
        if (o->dst == np || st->synced[o->dst]) st_mark(st, o->pair);
        break;
    case SO_SET:
        if (st_found(st, o->pair)) st->synced[o->src] = true;
        break;
    }
}

static void visit_list(Scan *sc, ScanState *st, int elem, bool after) {
    if (after && elem == sc->skip_after) { sc->skip_after = -1; return; }   /* one shot */
    IntVec *l = sync_list(sc->c, elem, after);
    for (int j = l->len - 1; j >= 0; j--) visit_op(sc, st, l->data[j]);
}

static bool any_overlap(const MirAccess *a, int na, const MirAccess *b, int nb, bool acc_only) {
    for (int x = 0; x < na; x++)
        for (int y = 0; y < nb; y++) {
            if (acc_only && a[x].space != MS_ACC) continue;
            if (mir_access_overlap(&a[x], &b[y])) return true;
        }
    return false;
}

static bool hazard(const SyncEl *f, const SyncEl *n) {
    if (any_overlap(n->rd, n->nrd, f->wr, f->nwr, false)) return true;     /* RAW */
    if (any_overlap(n->wr, n->nwr, f->rd, f->nrd, false)) return true;     /* WAR */
    if (any_overlap(n->wr, n->nwr, f->wr, f->nwr, false)) return true;     /* WAW */
    /* concurrent L0C reads from two pipes are not allowed */
    return f->pipe != n->pipe && any_overlap(n->rd, n->nrd, f->rd, f->nrd, true);
}

static void note_new_ops(Scan *sc, int from) {
    if (!sc->skip) return;
    for (int op = from; op < sc->c->ops.len; op++) sync_skip_note(sc->skip, sc->c, op);
}

static void insert_sync(Scan *sc, int f) {
    SyncCtx *c = sc->c;
    int nops = c->ops.len;
    Pipe fp = c->el.data[f].pipe, np = c->el.data[sc->now].pipe;
    if (fp == np) {
        IntVec *l = sync_list(c, sc->now, false);
        for (int j = 0; j < l->len; j++) {
            const SyncOp *o = &c->ops.data[l->data[j]];
            if (o->kind == SO_BARRIER && o->pipe == np) return;
        }
        sync_op_new(c, (SyncOp){ .kind = SO_BARRIER, .pipe = np, .pair = -1 }, sc->now, false);
        note_new_ops(sc, nops);
        return;
    }
    SyncPair p = { .src = fp, .dst = np, .loop = sc->loop, .nid = 1, .event = -1, .comp_set = -1, .comp_wait = -1 };
    vec_push(&c->pairs, p);
    int k = c->pairs.len - 1;
    int s = sync_op_new(c, (SyncOp){ .kind = SO_SET, .src = fp, .dst = np, .pipe = fp, .pair = k }, f, true);
    int w = sync_op_new(c, (SyncOp){ .kind = SO_WAIT, .src = fp, .dst = np, .pipe = np, .pair = k }, sc->now, false);
    c->pairs.data[k].set = s;
    c->pairs.data[k].wait = w;
    note_new_ops(sc, nops);
}

static void check_front(Scan *sc, ScanState *st, int f) {
    const SyncEl *fe = &sc->c->el.data[f], *ne = &sc->c->el.data[sc->now];
    if (fe->pipe == PIPE_NONE) return;
    if (f == sc->now && sc->loop < 0) return;
    if (fe->pipe == PIPE_S && ne->pipe == PIPE_S) return;
    if (st->synced[fe->pipe]) return;
    if (!hazard(fe, ne)) return;
    insert_sync(sc, f);
    st->synced[fe->pipe] = true;
}

/* A loop known to run at least once (constant bounds). The reference assumes every loop before `now`
 * runs; ptoc only does so when it is provable, else a zero-trip loop would skip a barrier or wait the
 * scan relied on. */
static void scan_range(Scan *sc, ScanState *st, int lo, int hi);

static bool runs_once(const MirInst *f) {
    int64_t a, b, s;
    if (!mir_is_const(f->start, &a) || !mir_is_const(f->stop, &b) || !mir_is_const(f->step, &s)) return false;
    return s > 0 ? a < b : (s < 0 ? a > b : false);
}

/* One backward step from element i (structured: an IF_END scans both branches and merges them with
 * AND, an ELSE_BEGIN met from inside its else branch skips the then branch, a LOOP_END scans the body
 * once). Returns the next element to visit. */
static int scan_step(Scan *sc, ScanState *st, int i) {
    SyncCtx *c = sc->c;
    const SyncEl *e = &c->el.data[i];
    if (e->kind == EK_IF_END) {
        int b = e->begin, m = e->mid;
        visit_list(sc, st, i, true);
        ScanState a, el;
        st_copy(&a, st);
        st_copy(&el, st);
        scan_range(sc, &a, b + 1, m - 1);
        scan_range(sc, &el, m + 1, i - 1);
        st_merge(st, &a, &el);
        return b;
    }
    if (e->kind == EK_ELSE_BEGIN) return e->begin;
    if (e->kind == EK_LOOP_END) {
        int b = e->begin;
        visit_list(sc, st, i, true);
        if (runs_once(e->inst)) {
            visit_list(sc, st, i, false);
            scan_range(sc, st, b + 1, i - 1);
        } else {            /* may run zero times: like an if without else, nothing is promoted */
            ScanState body, skip;
            st_copy(&body, st);
            st_copy(&skip, st);
            visit_list(sc, &body, i, false);
            scan_range(sc, &body, b + 1, i - 1);
            st_merge(st, &body, &skip);
        }
        return b;
    }
    visit_list(sc, st, i, true);
    if (e->kind == EK_COMPOUND && sc->now >= 0) check_front(sc, st, i);
    visit_list(sc, st, i, false);
    return i - 1;
}

/* Scans elements hi, hi-1, ..., lo backwards. */
/* The element kinds whose visit can still change st (or insert a sync): structure, waits and sets
 * (found / promotion), a barrier on the scanned pipe while it is unsynced, a PIPE_ALL barrier, and
 * the compounds of the needed pipes not yet synced (check_front). Every other element is a no-op. */
static uint64_t skip_select(const Scan *sc, const ScanState *st) {
    uint64_t sel = 1ull << SK_STRUCT | 1ull << SK_WAIT | 1ull << SK_SET | 1ull << (SK_BARRIER + PIPE_ALL);
    if ((unsigned)sc->np < PIPE_COUNT && !st->synced[sc->np]) sel |= 1ull << (SK_BARRIER + sc->np);
    for (int p = 0; p < PIPE_COUNT; p++)
        if ((sc->need >> p & 1u) && !st->synced[p]) sel |= 1ull << (SK_PIPE + p);
    return sel;
}

static void scan_range(Scan *sc, ScanState *st, int lo, int hi) {
    int i = hi;
    while (i >= lo && !st_done(sc, st)) {
        if (sc->skip && (i = sync_skip_prev(sc->skip, skip_select(sc, st), i, lo)) < lo) break;
        i = scan_step(sc, st, i);
    }
}

/* Pipes with a compound that check_front may test against `np` (none for PIPE_NONE, none for S
 * against S). */
static unsigned need_mask(unsigned used, Pipe np) {
    return np == PIPE_S ? used & ~(1u << PIPE_S) : used;
}

static void scan_forward(SyncCtx *c, int now, unsigned used, SyncSkip *skip) {
    Scan sc = { c, now, c->el.data[now].pipe, -1, -1, need_mask(used, c->el.data[now].pipe), skip };
    ScanState st;
    st_init(&st, c->pairs.len + 16);
    visit_list(&sc, &st, now, false);
    scan_range(&sc, &st, 0, now - 1);
    free(st.found);
}

/* Loop-carried pass for one body op: the current iteration back to the loop head, then the whole
 * body again as the previous iteration (ops after `now` are the interesting producers). */
static void scan_carried(SyncCtx *c, int now, int lb, int le, unsigned used, SyncSkip *skip) {
    Scan sc = { c, now, c->el.data[now].pipe, -1, -1, need_mask(used, c->el.data[now].pipe), skip };
    ScanState st;
    st_init(&st, c->pairs.len + 16);
    visit_list(&sc, &st, now, false);
    scan_range(&sc, &st, lb + 1, now - 1);
    visit_list(&sc, &st, lb, true);
    sc.loop = le;
    visit_list(&sc, &st, le, false);
    scan_range(&sc, &st, lb + 1, le - 1);
    free(st.found);
}

/* used[i]: the pipes of the compounds among elements 0..i-1 (what a scan ending before i can meet) */
void sync_analyse(SyncCtx *c) {
    unsigned *used = calloc((size_t)c->el.len + 1, sizeof *used);
    PTOC_ASSERT(used, "out of memory");
    SyncSkip skip;
    sync_skip_init(&skip, c);
    for (int i = 0; i < c->el.len; i++) {
        const SyncEl *e = &c->el.data[i];
        bool pipe_op = e->kind == EK_COMPOUND && e->pipe != PIPE_NONE;
        PTOC_ASSERT(!pipe_op || (unsigned)e->pipe < PIPE_COUNT, "sync: compound on an unknown pipe");
        used[i + 1] = used[i] | (pipe_op ? 1u << e->pipe : 0u);
    }
    for (int i = 0; i < c->el.len; i++) {
        const SyncEl *e = &c->el.data[i];
        if (e->kind == EK_COMPOUND && e->pipe != PIPE_NONE) scan_forward(c, i, used[i], &skip);
        if (e->kind == EK_LOOP_END) {
            int lb = e->begin, le = i;
            for (int n = lb + 1; n < le; n++)
                if (c->el.data[n].kind == EK_COMPOUND && c->el.data[n].pipe != PIPE_NONE)
                    scan_carried(c, n, lb, le, used[le], &skip);
        }
    }
    free(used);
    sync_skip_free(&skip);
}

/* ---- token safety (after stage 4) ----
 * Flags are binary tokens: a set must not fire while the previous token of its pair is still
 * unconsumed. A pair executed repeatedly is safe when the wait of one execution is ordered before the
 * set of the next (loop-carried: same iteration; forward pair in a loop: next iteration). The
 * symmetric hazard of the pair usually gives that order, but not once a set was sunk, or a wait
 * hoisted, out of a branch that may be skipped. Such a pair gets a guard pair in the opposite
 * direction from its wait to its set. */

/* Starts an ordering walk just before op `s`; returns the next element to step from. */
static int walk_start(Scan *sc, ScanState *st, int s) {
    const SyncOp *o = &sc->c->ops.data[s];
    int idx = sync_op_index(sc->c, s), elem = o->elem;
    IntVec *l = sync_list(sc->c, elem, o->after);
    for (int j = idx - 1; j >= 0; j--) visit_op(sc, st, l->data[j]);
    if (!o->after) return elem - 1;
    sc->skip_after = elem;      /* the element itself is still to be stepped, without its after-list */
    return elem;
}

/* Steps back from element hi down to wait `w` (descending into the branches that hold it) and tells
 * whether everything its pipe did up to `w` is ordered before the walk's origin. */
static bool walk_to_wait(Scan *sc, ScanState *st, int hi, int w) {
    SyncCtx *c = sc->c;
    const SyncOp *o = &c->ops.data[w];
    int ew = o->elem, i = hi;
    while (i > ew) {
        if (st->synced[o->dst]) return true;   /* monotonic: the answer cannot change any more */
        const SyncEl *e = &c->el.data[i];
        if (e->kind == EK_IF_END && e->begin < ew) {          /* enter the branch holding the wait */
            visit_list(sc, st, i, true);
            i = ew < e->mid ? e->mid - 1 : i - 1;
            continue;
        }
        if (e->kind == EK_LOOP_END && e->begin < ew) {        /* its last iteration */
            visit_list(sc, st, i, true);
            visit_list(sc, st, i, false);
            i--;
            continue;
        }
        i = scan_step(sc, st, i);
    }
    if (i < ew) return true;   /* skipped: the wait is in the other branch of an if, no path */
    IntVec *l = sync_list(c, ew, o->after);
    int idx = sync_op_index(c, w);
    if (!o->after) {
        visit_list(sc, st, ew, true);
        for (int j = l->len - 1; j > idx; j--) visit_op(sc, st, l->data[j]);
    } else {
        for (int j = l->len - 1; j > idx; j--) visit_op(sc, st, l->data[j]);
    }
    return st->synced[o->dst];
}

int sync_common_loop(const SyncCtx *c, int ra, int rb) {
    for (int r = ra; r >= 0; r = c->regions.data[r].parent)
        if (c->regions.data[r].kind == RG_LOOP && sync_region_contains(c, r, rb)) return r;
    return -1;
}

bool sync_ordered(SyncCtx *c, int set, int wait, int loop_region) {
    /* only the wait's pipe decides; once synced it stays synced */
    Scan sc = { c, -1, c->ops.data[set].pipe, -1, -1, 1u << c->ops.data[wait].dst, NULL };
    ScanState st;
    st_init(&st, c->pairs.len + 16);
    int i = walk_start(&sc, &st, set);
    bool ok;
    if (loop_region < 0) {
        ok = walk_to_wait(&sc, &st, i, wait);
    } else {                  /* back to the loop head, over the back edge, down to the wait */
        const SyncRegion *r = &c->regions.data[loop_region];
        while (i > r->begin && !st_done(&sc, &st)) i = scan_step(&sc, &st, i);
        visit_list(&sc, &st, r->begin, true);
        visit_list(&sc, &st, r->end, false);
        ok = walk_to_wait(&sc, &st, r->end - 1, wait);
    }
    free(st.found);
    return ok;
}

static bool pair_ordered(SyncCtx *c, const SyncPair *p, int loop_region) {
    return sync_ordered(c, p->set, p->wait, p->loop >= 0 ? -1 : loop_region);
}

static void add_guard(SyncCtx *c, int pk, int loop_end) {
    SyncPair p = c->pairs.data[pk];
    SyncPair g = { .src = p.dst, .dst = p.src, .loop = loop_end, .nid = 1, .event = -1, .comp_set = -1, .comp_wait = -1 };
    vec_push(&c->pairs, g);
    int k = c->pairs.len - 1;
    const SyncOp *w = &c->ops.data[p.wait], *s = &c->ops.data[p.set];
    int we = w->elem, se = s->elem;
    bool wa = w->after, sa = s->after;
    int gs = sync_op_new(c, (SyncOp){ .kind = SO_SET, .src = p.dst, .dst = p.src, .pipe = p.dst, .pair = k }, we, wa);
    sync_op_detach(c, gs);
    sync_op_attach(c, gs, we, wa, sync_op_index(c, p.wait) + 1);
    int gw = sync_op_new(c, (SyncOp){ .kind = SO_WAIT, .src = p.dst, .dst = p.src, .pipe = p.src, .pair = k }, se, sa);
    sync_op_detach(c, gw);
    sync_op_attach(c, gw, se, sa, sync_op_index(c, p.set));
    c->pairs.data[k].set = gs;
    c->pairs.data[k].wait = gw;
}

void sync_guard_tokens(SyncCtx *c) {
    int n = c->pairs.len;
    for (int k = 0; k < n; k++) {
        const SyncPair *p = &c->pairs.data[k];
        if (p->dead) continue;
        int lr = sync_common_loop(c, sync_op_region(c, p->set), sync_op_region(c, p->set));
        if (p->loop < 0 && lr < 0) continue;          /* runs at most once */
        if (pair_ordered(c, p, lr)) continue;
        add_guard(c, k, p->loop >= 0 ? -1 : c->regions.data[lr].end);
    }
}
