/* sim/race_map — the race detector's shadow memory as runs of granules (interval map).
 *
 * Requires: base.
 * Produces: sim_rmap_new / free / access / get (race_map.h).
 * Does: the map is cut into pages, allocated on first touch (an untouched page is all zero: nothing
 * to allocate, clear or fault in): 512 granules for GM, whose accesses are rows; one page for a
 * small map asked whole (an on-chip space, whose accesses are tiles: one page to visit). A page keeps sorted, disjoint runs of equal
 * non-zero states (gaps are zero) and merges neighbours that become equal, so an access of a tile
 * costs one step per run it covers: a tload of a whole 128 KiB tile is a run or two per page, where a
 * dense array costs 4096 granule updates — and the first touch of fresh shadow memory, a cache miss
 * per granule and a page fault per 4 KiB, was most of the race check's cost (a 200-task program:
 * 2.4x the run without it). A page fragmented into more than DENSE_AT runs (scattered scalar
 * accesses, narrow column strips) turns into a dense array of states and stays so: the cost
 * never exceeds the per-granule one. A map allocates from chunks of its own, given back whole when
 * it is freed to a process-wide spare list (bounded, locked) the next map takes them from: a run's shadow
 * neither churns the heap (glibc trims and re-faults its top when a run frees its memory) nor is
 * cleared granule by granule. Chunks are mapped, not malloc'd, so the race check leaves the heap as
 * a run without it has it (the next run's large callocs land where they would). The states seen and left are exactly those of a dense array. */
#define _DEFAULT_SOURCE                          /* MAP_ANONYMOUS */
#include "sim/race_map.h"

#include <pthread.h>
#include <sys/mman.h>
#include <stdlib.h>
#include <string.h>

#define PAGE_BITS 9                              /* pages of a large map (GM): 512 granules */
#define WHOLE_MAX_BITS 15                        /* a map of at most 2^15 granules asked whole: one page */
#define DENSE_AT 32                              /* runs in a small page beyond which it turns dense */
#define DENSE_AT_WHOLE 128                       /* ... in a whole-map page (dense costs 36 bytes a granule) */

typedef struct { int32_t lo, hi; SimShadow st; } Run;   /* granules [lo, hi) of its page */

typedef struct {
    int32_t n, cap;
    Run *run;                                    /* sorted, disjoint, non-zero states */
    SimShadow *dense;                            /* non-NULL: one state per granule instead */
} Page;

/* ---- memory: chunks, kept by a spare list between maps ---- */
#define CHUNK ((size_t)64 << 10)
#define SPARE_MAX 64                             /* chunks kept */
#define SPARE_BIG ((size_t)16 << 20)             /* larger chunks are never kept */

typedef struct Chunk { struct Chunk *next; size_t used, cap; max_align_t data[]; } Chunk;

static pthread_mutex_t spare_lock = PTHREAD_MUTEX_INITIALIZER;   /* threads simulate runs side by side */
static Chunk *spare;
static int nspare;

static Chunk *chunk_get(size_t need) {
    pthread_mutex_lock(&spare_lock);
    for (Chunk **c = &spare; *c; c = &(*c)->next)
        if ((*c)->cap >= need) {
            Chunk *x = *c;
            *c = x->next;
            nspare--;
            pthread_mutex_unlock(&spare_lock);
            x->used = 0;
            return x;
        }
    pthread_mutex_unlock(&spare_lock);
    size_t cap = need > CHUNK ? need : CHUNK;
    void *mem = mmap(NULL, sizeof(Chunk) + cap, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    PTOC_ASSERT(mem != MAP_FAILED, "out of memory (race shadow)");
    Chunk *x = mem;
    x->used = 0;
    x->cap = cap;
    return x;
}

static void chunk_put(Chunk *x) {
    pthread_mutex_lock(&spare_lock);
    if (nspare < SPARE_MAX && x->cap <= SPARE_BIG) { x->next = spare; spare = x; nspare++; x = NULL; }
    pthread_mutex_unlock(&spare_lock);
    if (x) munmap(x, sizeof(Chunk) + x->cap);
}

/* Pages are found through a directory of blocks of DIR_PAGES page pointers, a block allocated on the
 * first touch of one of its pages: a run's map costs what it touches, not a pointer per page of all
 * its GM (a 2,000-task program over 24 MiB of tensors cleared a 24 KiB page table per task). */
#define DIR_BITS 6
#define DIR_PAGES ((int64_t)1 << DIR_BITS)

struct SimRaceMap {
    Chunk *mem;                                  /* the chunks in use, newest first */
    int64_t granules, npages;
    int page_bits, dense_at;
    Page ***dir;                                 /* blocks of page pointers; NULL: all zero */
};

static Page *page_get(const SimRaceMap *m, int64_t pg) {
    Page **blk = m->dir[pg >> DIR_BITS];
    return blk ? blk[pg & (DIR_PAGES - 1)] : NULL;
}

/* The visit of one access: consecutive equal states are visited once (as a dense array's granule
 * loop would check a run of equal states once); zero states are never visited. */
typedef struct {
    SimRmapVisit visit;
    void *ud;
    SimShadow last;
    bool have;
} Visit;

static const SimShadow zero_state;

static bool same(const SimShadow *a, const SimShadow *b) { return memcmp(a, b, sizeof *a) == 0; }

static void see(Visit *v, const SimShadow *st) {
    if (v->have && same(st, &v->last)) return;
    v->last = *st;
    v->have = true;
    if (!same(st, &zero_state)) v->visit(v->ud, st);
}

/* size zeroed bytes of m's chunks, 16-byte aligned */
static void *map_alloc(SimRaceMap *m, size_t size) {
    size = (size + 15) & ~(size_t)15;
    Chunk *c = m->mem;
    if (!c || c->used + size > c->cap) {
        c = chunk_get(size);
        c->next = m->mem;
        m->mem = c;
    }
    void *p = (char *)c->data + c->used;
    c->used += size;
    memset(p, 0, size);
    return p;
}
#define MAP_NEW(m, T) ((T *)map_alloc((m), sizeof(T)))
#define MAP_ARRAY(m, T, n) ((T *)map_alloc((m), sizeof(T) * (size_t)(n)))

static void map_init(SimRaceMap *m, int64_t granules, bool whole) {
    m->granules = granules;
    m->page_bits = PAGE_BITS;
    m->dense_at = DENSE_AT;
    if (whole && granules <= ((int64_t)1 << WHOLE_MAX_BITS)) {
        m->page_bits = 0;
        while (((int64_t)1 << m->page_bits) < granules) m->page_bits++;
        m->dense_at = DENSE_AT_WHOLE;
    }
    m->npages = (granules + ((int64_t)1 << m->page_bits) - 1) >> m->page_bits;
    m->dir = MAP_ARRAY(m, Page **, (m->npages >> DIR_BITS) + 1);
}

SimRaceMap *sim_rmap_new(int64_t granules, bool whole) {
    PTOC_ASSERT(granules >= 0, "race map of %lld granules", (long long)granules);
    SimRaceMap *m = calloc(1, sizeof *m);
    PTOC_ASSERT(m != NULL, "out of memory (race shadow)");
    map_init(m, granules, whole);
    return m;
}

SimRaceMap *sim_rmap_reset(SimRaceMap *m, int64_t granules, bool whole) {
    PTOC_ASSERT(granules >= 0, "race map of %lld granules", (long long)granules);
    Chunk *last = m->mem;                        /* newest first: keep the oldest (the first allocated) */
    while (last && last->next) {
        Chunk *c = last;
        last = c->next;
        chunk_put(c);
    }
    m->mem = last;
    if (last) last->used = 0, last->next = NULL;
    map_init(m, granules, whole);                /* map_alloc zeroes what it hands out */
    return m;
}

void sim_rmap_free(SimRaceMap *m) {
    if (!m) return;
    for (Chunk *c = m->mem, *n; c; c = n) { n = c->next; chunk_put(c); }
    free(m);
}

int64_t sim_rmap_size(const SimRaceMap *m) { return m->granules; }

/* ---- dense pages ---- */
static void dense_access(Page *p, int32_t lo, int32_t hi, bool write, int32_t self, int slot, Visit *v) {
    for (int32_t g = lo; g < hi; g++) {
        SimShadow *x = &p->dense[g];
        see(v, x);
        if (write) *x = (SimShadow){ .w = self };
        else x->r[slot] = self;
    }
}

static void make_dense(SimRaceMap *m, Page *p) {
    p->dense = MAP_ARRAY(m, SimShadow, (int64_t)1 << m->page_bits);
    for (int j = 0; j < p->n; j++)
        for (int32_t g = p->run[j].lo; g < p->run[j].hi; g++) p->dense[g] = p->run[j].st;
    p->run = NULL;
    p->n = p->cap = 0;
}

/* ---- run pages ---- */
typedef struct { Run r[2 * DENSE_AT_WHOLE + 8]; int n; } Out;

/* Appends [lo, hi) in state st, merged with the last run when adjacent and equal; zero is a gap. */
static void push(Out *o, int32_t lo, int32_t hi, const SimShadow *st) {
    if (hi <= lo || same(st, &zero_state)) return;
    Run *last = o->n ? &o->r[o->n - 1] : NULL;
    if (last && last->hi == lo && same(&last->st, st)) { last->hi = hi; return; }
    PTOC_ASSERT(o->n < (int)(sizeof o->r / sizeof o->r[0]), "race map: run buffer overflow");
    o->r[o->n++] = (Run){ lo, hi, *st };
}

/* Index of the first run with hi > at. */
static int first_after(const Page *p, int32_t at) {
    int lo = 0, hi = p->n;
    while (lo < hi) {
        int mid = (lo + hi) / 2;
        if (p->run[mid].hi <= at) lo = mid + 1;
        else hi = mid;
    }
    return lo;
}

/* Replaces runs [i, k) of p by o's. */
static void splice(SimRaceMap *m, Page *p, int i, int k, const Out *o) {
    int n = p->n - (k - i) + o->n;
    if (n > p->cap) {
        int cap = p->cap ? p->cap * 2 : 4;
        while (cap < n) cap *= 2;
        Run *r = MAP_ARRAY(m, Run, cap);   /* the old array stays in the chunk: at most 2x */
        if (p->n) memcpy(r, p->run, sizeof(Run) * (size_t)p->n);
        p->run = r;
        p->cap = cap;
    }
    memmove(p->run + i + o->n, p->run + k, sizeof(Run) * (size_t)(p->n - k));
    memcpy(p->run + i, o->r, sizeof(Run) * (size_t)o->n);
    p->n = n;
}

static void runs_access(SimRaceMap *m, Page *p, int32_t lo, int32_t hi, bool write, int32_t self, int slot, Visit *v) {
    int i = first_after(p, lo), k = i;
    int32_t at = lo;
    for (; k < p->n && p->run[k].lo < hi; k++) {   /* the states before, in order (gaps are zero) */
        if (p->run[k].lo > at) see(v, &zero_state);
        see(v, &p->run[k].st);
        at = p->run[k].hi;
    }
    if (at < hi) see(v, &zero_state);
    /* rebuild runs [i - 1, k + 1) (the neighbours, to merge with them) */
    Out o;
    o.n = 0;
    int i0 = i > 0 ? i - 1 : i, k1 = k < p->n ? k + 1 : k;
    if (i0 < i) push(&o, p->run[i0].lo, p->run[i0].hi, &p->run[i0].st);
    if (i < k && p->run[i].lo < lo) push(&o, p->run[i].lo, lo, &p->run[i].st);
    if (write) {
        SimShadow w = { .w = self };
        push(&o, lo, hi, &w);
    } else {
        SimShadow gap = zero_state;
        gap.r[slot] = self;
        at = lo;
        for (int j = i; j < k; j++) {
            int32_t s = p->run[j].lo > lo ? p->run[j].lo : lo, e = p->run[j].hi < hi ? p->run[j].hi : hi;
            if (s > at) push(&o, at, s, &gap);
            SimShadow st = p->run[j].st;
            st.r[slot] = self;
            push(&o, s, e, &st);
            at = e;
        }
        if (at < hi) push(&o, at, hi, &gap);
    }
    if (i < k && p->run[k - 1].hi > hi) push(&o, hi, p->run[k - 1].hi, &p->run[k - 1].st);
    if (k < k1) push(&o, p->run[k].lo, p->run[k].hi, &p->run[k].st);
    splice(m, p, i0, k1, &o);
    if (p->n > m->dense_at) make_dense(m, p);
}

void sim_rmap_access(SimRaceMap *m, int64_t g0, int64_t g1, bool write, int32_t self, int slot,
                     SimRmapVisit visit, void *ud) {
    PTOC_ASSERT(g0 >= 0 && g0 <= g1 && g1 < m->granules, "race map access [%lld, %lld] outside %lld granules",
                (long long)g0, (long long)g1, (long long)m->granules);
    PTOC_ASSERT(slot >= 0 && slot < SIM_SLOTS, "race map: reader slot %d", slot);
    Visit v = { visit, ud, zero_state, false };
    int64_t page = (int64_t)1 << m->page_bits;
    for (int64_t pg = g0 >> m->page_bits; pg <= g1 >> m->page_bits; pg++) {
        Page **blk = m->dir[pg >> DIR_BITS];
        if (!blk) blk = m->dir[pg >> DIR_BITS] = MAP_ARRAY(m, Page *, DIR_PAGES);
        Page *p = blk[pg & (DIR_PAGES - 1)];
        if (!p) p = blk[pg & (DIR_PAGES - 1)] = MAP_NEW(m, Page);
        int64_t base = pg << m->page_bits;
        int32_t lo = (int32_t)((g0 > base ? g0 : base) - base);
        int32_t hi = (int32_t)((g1 < base + page - 1 ? g1 : base + page - 1) - base + 1);
        if (p->dense) dense_access(p, lo, hi, write, self, slot, &v);
        else runs_access(m, p, lo, hi, write, self, slot, &v);
    }
}

void sim_rmap_visit(const SimRaceMap *m, int64_t g0, int64_t g1, SimRmapVisit visit, void *ud) {
    PTOC_ASSERT(g0 >= 0 && g0 <= g1 && g1 < m->granules, "race map visit [%lld, %lld] outside %lld granules",
                (long long)g0, (long long)g1, (long long)m->granules);
    Visit v = { visit, ud, zero_state, false };
    int64_t page = (int64_t)1 << m->page_bits;
    for (int64_t pg = g0 >> m->page_bits; pg <= g1 >> m->page_bits; pg++) {
        const Page *p = page_get(m, pg);
        if (!p) continue;                                /* all zero: nothing to visit */
        int64_t base = pg << m->page_bits;
        int32_t lo = (int32_t)((g0 > base ? g0 : base) - base);
        int32_t hi = (int32_t)((g1 < base + page - 1 ? g1 : base + page - 1) - base + 1);
        if (p->dense) {
            for (int32_t g = lo; g < hi; g++) see(&v, &p->dense[g]);
            continue;
        }
        for (int k = first_after(p, lo); k < p->n && p->run[k].lo < hi; k++) see(&v, &p->run[k].st);
    }
}

SimShadow sim_rmap_get(const SimRaceMap *m, int64_t g) {
    PTOC_ASSERT(g >= 0 && g < m->granules, "race map: granule %lld outside %lld", (long long)g, (long long)m->granules);
    const Page *p = page_get(m, g >> m->page_bits);
    int32_t at = (int32_t)(g & (((int64_t)1 << m->page_bits) - 1));
    if (!p) return zero_state;
    if (p->dense) return p->dense[at];
    int i = first_after(p, at);
    return i < p->n && p->run[i].lo <= at ? p->run[i].st : zero_state;
}
