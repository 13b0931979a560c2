/* rt_race — the task-level race check (DESIGN.md "What keeps OK honest"): every pair of tasks whose
 * global-memory accesses overlap, at least one of them writing, must be ordered by the task graph.
 * Requires: the tasks with their fanins (rt_deps.c) and the GM elements each block of each task
 * really touched (reported by the kernel callback through rt_record_gm while the task ran).
 * Produces: one message per racing (task, task, tensor) in RtResult.races (capped).
 * Does: works in submission order, which is a topological order of the graph. Per buffer, a shadow
 *   of disjoint byte segments remembers the last plain writer, the atomic adders since it and the
 *   readers since it. An access of task j is checked against that state: a read against the writers,
 *   a plain write against writers and readers, an atomic add against the plain writer and the
 *   readers (atomic adds commute, so two of them never race). "Ordered" means a path of WAIT edges
 *   (happens-before); transitivity is why checking the last writers suffices. Blocks of one SPMD task
 *   are concurrent: overlapping blocks race unless both add atomically. The check reads the
 *   accesses after the run, so kernels run in any order the scheduler likes. A block's accesses are
 *   kept as records of equal runs at a constant stride (the rows of a column panel: one record, not
 *   one per row), checked run by run. */
#include "rt/rt_internal.h"

#include <stdlib.h>
#include <string.h>

#define RT_MAX_RACES 100

struct RtAccessSink { Rt *rt; int task; int64_t block; };

/* ---------------------------------------------------------------- recording */
/* Elements [lo, hi) of t: joins the previous record when it continues it — the same run grown, or
 * one more run of a strided record (the next row of a column panel) — else a new record. */
static void push_access(Rt *rt, int task, int64_t block, const RtTensor *t, int64_t lo, int64_t hi, bool write, bool atomic) {
    int64_t eb = dtype_bytes(t->dtype);
    RtAccess a = { task, write, atomic, block, t->addr, lo * eb, hi * eb, 0, 1, t->name };
    if (rt->accesses.len) {
        RtAccess *l = &rt->accesses.data[rt->accesses.len - 1];
        if (l->task == task && l->block == block && l->buf == a.buf && l->write == write && l->atomic == atomic) {
            if (l->count == 1 && l->hi == a.lo) { l->hi = a.hi; return; }
            if (a.hi - a.lo == l->hi - l->lo) {
                if (l->count == 1 && a.lo > l->hi) { l->stride = a.lo - l->lo; l->count = 2; return; }
                if (l->count > 1 && a.lo == l->lo + l->count * l->stride) { l->count++; return; }
            }
        }
    }
    vec_push(&rt->accesses, a);
}

/* Elements [lo, hi) of the packed view of argument `param` -> runs of buffer elements. */
void rt_record_gm(RtAccessSink *s, int param, int64_t lo, int64_t hi, bool write, bool atomic) {
    Rt *rt = s->rt;
    const RtTask *task = &rt->tasks.data[s->task];
    PTOC_ASSERT(param >= 0 && param < task->nargs && task->args[param].dir != AD_SCALAR,
                "kernel of task %d touched parameter %d, which is not a tensor argument", s->task, param);
    const RtTensor *t = &task->args[param].t;
    int64_t n = rt_tensor_numel(t);
    PTOC_ASSERT(lo >= 0 && hi <= n && lo <= hi, "kernel access [%lld, %lld) outside a %lld-element argument",
                (long long)lo, (long long)hi, (long long)n);
    if (rt_tensor_packed(t) || t->ndims == 0) {
        push_access(rt, s->task, s->block, t, (int64_t)t->start + lo, (int64_t)t->start + hi, write, atomic);
        return;
    }
    int nd = t->ndims;
    int64_t inner = t->shape[nd - 1], stride = t->strides[nd - 1];
    for (int64_t i = lo; i < hi;) {
        int64_t rem = i, off = (int64_t)t->start;
        for (int d = nd - 1; d >= 0; d--) {
            off += (rem % t->shape[d]) * t->strides[d];
            rem /= t->shape[d];
        }
        int64_t col = i % inner, run = inner - col;
        if (run > hi - i) run = hi - i;
        if (stride == 1) push_access(rt, s->task, s->block, t, off, off + run, write, atomic);
        else
            for (int64_t k = 0; k < run; k++) push_access(rt, s->task, s->block, t, off + k * stride, off + k * stride + 1, write, atomic);
        i += run;
    }
}

void rt_note_buffer(Rt *rt, const RtTensor *t) {
    RtBufInfo b = { t->addr, t->name, t->dtype, t->ndims, {0} };
    for (int d = 0; d < t->ndims; d++) b.shape[d] = t->shape[d];
    vec_push(&rt->bufinfo, b);
}

RtAccessSink *rt_access_sink(Rt *rt, int task, int64_t block) {
    RtAccessSink *s = ARENA_NEW(rt->arena, RtAccessSink);
    *s = (RtAccessSink){ rt, task, block };
    return s;
}

/* ---------------------------------------------------------------- happens-before */
typedef struct { int i, j; bool r; } ReachMemo;
#define RT_REACH_MEMO 4096

typedef struct {
    Rt *rt;
    int *stamp; int epoch;
    VEC(int) stack;
    ReachMemo memo[RT_REACH_MEMO];
} Reach;

/* Whether task i happens before task j (i < j): a path of WAIT fanins from j back to i. */
static bool reaches(Reach *r, int i, int j) {
    if (i == j) return true;
    if (i > j) return false;
    unsigned h = ((unsigned)i * 2654435761u ^ (unsigned)j * 40503u) % RT_REACH_MEMO;
    if (r->memo[h].j == j + 1 && r->memo[h].i == i) return r->memo[h].r;
    r->epoch++;
    r->stack.len = 0;
    vec_push(&r->stack, j);
    bool found = false;
    while (r->stack.len && !found) {
        const RtTask *t = &r->rt->tasks.data[r->stack.data[--r->stack.len]];
        for (int f = 0; f < t->nfanins && !found; f++) {
            int p = t->fanins[f].pred;
            if (!(t->fanins[f].flags & RT_DEP_WAIT) || p < i || r->stamp[p] == r->epoch) continue;
            if (p == i) found = true;
            r->stamp[p] = r->epoch;
            vec_push(&r->stack, p);
        }
    }
    r->memo[h] = (ReachMemo){ i, j + 1, found };
    return found;
}

/* ---------------------------------------------------------------- reports */
typedef struct { int a, b; int64_t ablock, bblock; uint64_t buf; const char *name; int64_t lo, hi; bool awrite, bwrite; } RtRace;

typedef struct {
    Rt *rt;
    Reach reach;
    VEC(RtRace) races;
} Checker;

static void note_race(Checker *c, const RtAccess *old, int old_task, bool old_write, const RtAccess *now, int64_t lo, int64_t hi) {
    for (int k = 0; k < c->races.len; k++) {
        RtRace *x = &c->races.data[k];
        if (x->a == old_task && x->b == now->task && x->buf == now->buf && x->awrite == old_write && x->bwrite == now->write) {
            if (lo < x->lo) x->lo = lo;
            if (hi > x->hi) x->hi = hi;
            return;
        }
    }
    if (c->races.len >= RT_MAX_RACES) return;
    RtRace r = { old_task, now->task, old ? old->block : -1, now->block, now->buf, now->name, lo, hi, old_write, now->write };
    vec_push(&c->races, r);
}

/* ---------------------------------------------------------------- the shadow */
typedef VEC(int) IntVec;
typedef struct {
    int64_t lo, hi;                   /* bytes from the buffer base */
    int writer;                       /* last plain writer task, -1 none */
    IntVec adders;                    /* atomic adders since it */
    IntVec readers;                   /* readers since the last write */
} Seg;

typedef struct { uint64_t buf; VEC(Seg) segs; } Shadow;
typedef VEC(Shadow) ShadowVec;

static void seg_free(Seg *s) { vec_free(&s->adders); vec_free(&s->readers); }

static IntVec ivec_copy(const IntVec *v) {
    IntVec n = {0};
    for (int i = 0; i < v->len; i++) vec_push(&n, v->data[i]);
    return n;
}

static void ivec_add(IntVec *v, int x) {
    for (int i = 0; i < v->len; i++)
        if (v->data[i] == x) return;
    vec_push(v, x);
}

/* Index of the first segment with hi > at. */
static int seg_find(const Shadow *sh, int64_t at) {
    int lo = 0, hi = sh->segs.len;
    while (lo < hi) {
        int mid = (lo + hi) / 2;
        if (sh->segs.data[mid].hi <= at) lo = mid + 1;
        else hi = mid;
    }
    return lo;
}

static void seg_insert(Shadow *sh, int at, Seg s) {
    vec_push(&sh->segs, s);
    memmove(sh->segs.data + at + 1, sh->segs.data + at, sizeof(Seg) * (size_t)(sh->segs.len - 1 - at));
    sh->segs.data[at] = s;
}

/* Makes [lo, hi) exactly covered by segments (splitting at the ends, filling gaps with untouched
 * ones); returns the index of the first. */
static int seg_cover(Shadow *sh, int64_t lo, int64_t hi) {
    int i = seg_find(sh, lo);
    int64_t at = lo;
    while (at < hi) {
        if (i >= sh->segs.len || sh->segs.data[i].lo >= hi) {            /* a gap up to hi */
            seg_insert(sh, i, (Seg){ at, hi, -1, {0}, {0} });
            break;
        }
        Seg *s = &sh->segs.data[i];
        if (s->lo > at) {                                                 /* a gap before s */
            seg_insert(sh, i, (Seg){ at, s->lo, -1, {0}, {0} });
        } else if (s->lo < at) {                                          /* s starts before lo: split */
            Seg head = { s->lo, at, s->writer, ivec_copy(&s->adders), ivec_copy(&s->readers) };
            s->lo = at;
            seg_insert(sh, i, head);
            i++;                                                          /* now s again, starting at lo */
            continue;
        } else if (s->hi > hi) {                                          /* s ends after hi: split */
            Seg tail = { hi, s->hi, s->writer, ivec_copy(&s->adders), ivec_copy(&s->readers) };
            s->hi = hi;
            seg_insert(sh, i + 1, tail);
        }
        at = sh->segs.data[i].hi;
        i++;
    }
    return seg_find(sh, lo);
}

static bool ordered(Checker *c, int before, int task) { return before < 0 || before == task || reaches(&c->reach, before, task); }

/* One run [lo, hi) of access a against the shadow, then into it. */
static void check_and_apply_run(Checker *c, Shadow *sh, const RtAccess *a, int64_t lo, int64_t hi) {
    int i = seg_cover(sh, lo, hi);
    for (; i < sh->segs.len && sh->segs.data[i].lo < hi; i++) {
        Seg *s = &sh->segs.data[i];
        int j = a->task;
        if (s->adders.len && !a->atomic) {                /* the adders imply the plain writer */
            for (int k = 0; k < s->adders.len; k++)
                if (!ordered(c, s->adders.data[k], j)) note_race(c, NULL, s->adders.data[k], true, a, s->lo, s->hi);
        } else if (!ordered(c, s->writer, j)) {
            note_race(c, NULL, s->writer, true, a, s->lo, s->hi);
        }
        if (a->write)
            for (int k = 0; k < s->readers.len; k++)
                if (!ordered(c, s->readers.data[k], j)) note_race(c, NULL, s->readers.data[k], false, a, s->lo, s->hi);
        if (a->atomic) {
            ivec_add(&s->adders, j);
            s->readers.len = 0;
        } else if (a->write) {
            s->writer = j;
            s->adders.len = 0;
            s->readers.len = 0;
        } else {
            ivec_add(&s->readers, j);
        }
    }
}

/* The runs of one task's records acc[0, n) (sorted by buffer and first byte) in address order, as if
 * every run were a record of its own sorted the same way (buffer, first byte, block): a min-heap of
 * the records by their next run. Address order keeps the shadow's segments appended at the end
 * (interleaved strided records applied one after another would insert in the middle: quadratic). */
typedef struct { const RtAccess *a; int64_t k; } RunCursor;

static Shadow *shadow_of(ShadowVec *shs, uint64_t buf);

static bool run_before(const RunCursor *x, const RunCursor *y) {
    if (x->a->buf != y->a->buf) return x->a->buf < y->a->buf;
    int64_t lx = x->a->lo + x->k * x->a->stride, ly = y->a->lo + y->k * y->a->stride;
    if (lx != ly) return lx < ly;
    return x->a->block < y->a->block;
}

static void heap_down(RunCursor *h, int n, int i) {
    for (;;) {
        int m = i, l = 2 * i + 1, r = l + 1;
        if (l < n && run_before(&h[l], &h[m])) m = l;
        if (r < n && run_before(&h[r], &h[m])) m = r;
        if (m == i) return;
        RunCursor t = h[i]; h[i] = h[m]; h[m] = t;
        i = m;
    }
}

/* Whether a and b touch the same bytes the same way (blocks aside). */
static bool same_runs(const RtAccess *a, const RtAccess *b) {
    return a->buf == b->buf && a->lo == b->lo && a->hi == b->hi && a->count == b->count &&
           (a->count == 1 || a->stride == b->stride) && a->write == b->write && a->atomic == b->atomic;
}

/* Against the other tasks, one task's accesses count only as the bytes it reads, writes and adds to
 * (its blocks are checked against each other by check_blocks): records repeated by several blocks (a
 * panel every block of a grid column reads) are applied once, and runs of one kind that meet in
 * address order (the column panels of a grid row, row after row) as one run. The verdicts are those
 * of applying every run by itself: per byte the same accesses, and the race ranges reported are
 * the hull of the racing bytes either way. */
static void check_task_runs(Checker *c, ShadowVec *shs, const RtAccess *acc, int n) {
    RunCursor *h = malloc(sizeof *h * (size_t)(n > 0 ? n : 1));
    PTOC_ASSERT(h, "out of memory");
    int m = 0;
    for (int i = 0; i < n; i++) {
        bool dup = false;
        for (int j = i - 1; j >= 0 && acc[j].buf == acc[i].buf && acc[j].lo == acc[i].lo && !dup; j--) dup = same_runs(&acc[j], &acc[i]);
        if (!dup) h[m++] = (RunCursor){ &acc[i], 0 };
    }
    for (int i = m / 2 - 1; i >= 0; i--) heap_down(h, m, i);
    const RtAccess *pa = NULL;   /* the pending run [plo, phi) of record pa's kind */
    int64_t plo = 0, phi = 0;
    while (m > 0) {
        const RtAccess *a = h[0].a;
        int64_t lo = a->lo + h[0].k * a->stride, hi = a->hi + h[0].k * a->stride;
        if (pa && pa->buf == a->buf && pa->write == a->write && pa->atomic == a->atomic && lo <= phi) {
            if (hi > phi) phi = hi;
        } else {
            if (pa) check_and_apply_run(c, shadow_of(shs, pa->buf), pa, plo, phi);
            pa = a, plo = lo, phi = hi;
        }
        if (++h[0].k == a->count) h[0] = h[--m];
        heap_down(h, m, 0);
    }
    if (pa) check_and_apply_run(c, shadow_of(shs, pa->buf), pa, plo, phi);
    free(h);
}

static Shadow *shadow_of(ShadowVec *shs, uint64_t buf) {
    for (int k = shs->len - 1; k >= 0; k--)
        if (shs->data[k].buf == buf) return &shs->data[k];
    Shadow n = { buf, {0} };
    vec_push(shs, n);
    return &shs->data[shs->len - 1];
}

static int64_t last_hi(const RtAccess *a) { return a->hi + (a->count - 1) * a->stride; }

static int64_t floor_div(int64_t a, int64_t b) { return a / b - (a % b != 0 && (a < 0) != (b < 0)); }

/* The runs of q that overlap run [lo, hi) of p, each noted as a race between the two blocks, the
 * run that starts first (then the lower block) named first, as a run-by-run scan would. */
static void overlap_run(Checker *c, const RtAccess *p, int64_t lo, int64_t hi, const RtAccess *q) {
    int64_t j0 = 0, j1 = q->count - 1;
    if (q->count > 1) {                                   /* q's runs k with q->hi + k s > lo and q->lo + k s < hi */
        int64_t a = floor_div(lo - q->hi, q->stride) + 1, b = floor_div(hi - q->lo - 1, q->stride);
        if (a > j0) j0 = a;
        if (b < j1) j1 = b;
    }
    for (int64_t j = j0; j <= j1; j++) {
        int64_t qlo = q->lo + j * q->stride, qhi = q->hi + j * q->stride;
        if (qlo >= hi || qhi <= lo) continue;
        int64_t o0 = lo > qlo ? lo : qlo, o1 = hi < qhi ? hi : qhi;
        bool q_first = qlo < lo || (qlo == lo && q->block < p->block);
        if (q_first) note_race(c, q, q->task, q->write, p, o0, o1);
        else note_race(c, p, p->task, p->write, q, o0, o1);
    }
}

/* Blocks of one task run concurrently: overlapping accesses of two blocks race unless both only
 * read or both add atomically. acc[0, n) are one task's accesses, sorted by (buf, first byte). */
static void check_blocks(Checker *c, RtAccess *acc, int n) {
    for (int x = 0; x < n; x++)
        for (int y = x + 1; y < n && acc[y].buf == acc[x].buf && acc[y].lo < last_hi(&acc[x]); y++) {
            const RtAccess *p = &acc[x], *q = &acc[y];
            if (p->block == q->block || (!p->write && !q->write) || (p->atomic && q->atomic)) continue;
            for (int64_t k = 0; k < p->count; k++) overlap_run(c, p, p->lo + k * p->stride, p->hi + k * p->stride, q);
        }
}

static int cmp_access(const void *x, const void *y) {
    const RtAccess *a = x, *b = y;
    if (a->task != b->task) return a->task < b->task ? -1 : 1;
    if (a->buf != b->buf) return a->buf < b->buf ? -1 : 1;
    if (a->lo != b->lo) return a->lo < b->lo ? -1 : 1;
    return a->block < b->block ? -1 : a->block > b->block;
}

static const char *task_name(const Rt *rt, int t) {
    const RtTask *k = &rt->tasks.data[t];
    return k->kernel ? k->kernel->name : "alloc_tensors";
}

/* "rows 16..31 of c [80, 32] FP32" when the buffer is a known 2-D tensor, else the element range. */
static void describe_region(const Rt *rt, const RtRace *r, StrBuf *out) {
    for (int k = 0; k < rt->bufinfo.len; k++) {
        const RtBufInfo *b = &rt->bufinfo.data[k];
        if (b->addr != r->buf) continue;
        int64_t eb = dtype_bytes(b->dtype), cols = b->ndims >= 1 ? b->shape[b->ndims - 1] : 1;
        int64_t e0 = r->lo / eb, e1 = (r->hi - 1) / eb;
        sb_printf(out, "%s (", b->name ? b->name : "a tensor");
        for (int d = 0; d < b->ndims; d++) sb_printf(out, "%s%lld", d ? " x " : "", (long long)b->shape[d]);
        sb_printf(out, " %s): elements %lld..%lld", dtype_name(b->dtype), (long long)e0, (long long)e1);
        if (b->ndims >= 2 && cols > 0) sb_printf(out, " (rows %lld..%lld)", (long long)(e0 / cols), (long long)(e1 / cols));
        return;
    }
    sb_printf(out, "%s: bytes %lld..%lld", r->name ? r->name : "a tensor", (long long)r->lo, (long long)r->hi - 1);
}

static char *race_message(const Rt *rt, const RtRace *r) {
    StrBuf m = {0};
    const char *av = r->awrite ? "writes" : "reads", *bv = r->bwrite ? "writes" : "reads";
    if (r->a == r->b) {
        sb_printf(&m, "blocks %lld and %lld of task %d '%s' (one SPMD task: its blocks run concurrently): block %lld %s and "
                  "block %lld %s ", (long long)r->ablock, (long long)r->bblock, r->a, task_name(rt, r->a),
                  (long long)r->ablock, av, (long long)r->bblock, bv);
        describe_region(rt, r, &m);
        sb_puts(&m, "; give each block its own region, or accumulate with pl.assemble(..., atomic=pl.AtomicType.Add)");
    } else {
        sb_printf(&m, "tasks %d '%s' and %d '%s' are not ordered: task %d %s and task %d %s ", r->a, task_name(rt, r->a), r->b,
                  task_name(rt, r->b), r->a, av, r->b, bv);
        describe_region(rt, r, &m);
        sb_printf(&m, ", and no dependency orders task %d after task %d, so they may run concurrently on hardware; let the "
                  "runtime derive it (an AUTO scope, both tasks taking the tensor as an argument) or add it explicitly "
                  "(deps=[...] in a manual scope)", r->b, r->a);
    }
    return sb_take(&m);
}

void rt_check_races(Rt *rt, RtResult *res) {
    int n = rt->accesses.len;
    if (!n) return;
    bool sorted = true;                  /* usually: the records come task by task, each in address order */
    for (int i = 1; i < n && sorted; i++) sorted = cmp_access(&rt->accesses.data[i - 1], &rt->accesses.data[i]) <= 0;
    if (!sorted) qsort(rt->accesses.data, (size_t)n, sizeof(RtAccess), cmp_access);
    Checker c = { rt, { rt, calloc((size_t)rt->tasks.len + 1, sizeof(int)), 0, {0}, {{0}} }, {0} };
    PTOC_ASSERT(c.reach.stamp, "out of memory");
    ShadowVec shs = {0};
    for (int x = 0; x < n;) {
        int y = x;
        while (y < n && rt->accesses.data[y].task == rt->accesses.data[x].task) y++;
        check_blocks(&c, rt->accesses.data + x, y - x);
        check_task_runs(&c, &shs, rt->accesses.data + x, y - x);
        x = y;
    }
    for (int k = 0; k < c.races.len; k++) vec_push(&res->races, race_message(rt, &c.races.data[k]));
    for (int k = 0; k < shs.len; k++) {
        for (int s = 0; s < shs.data[k].segs.len; s++) seg_free(&shs.data[k].segs.data[s]);
        vec_free(&shs.data[k].segs);
    }
    vec_free(&shs);
    vec_free(&c.races);
    vec_free(&c.reach.stack);
    free(c.reach.stamp);
}
