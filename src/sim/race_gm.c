/* sim/race_gm — a run's GM footprint, for the runtime's task-level race check (rt_race.c).
 *
 * Requires: SimRun with its kernel; SimOptions.record_gm.
 * Produces: sim_record_gm (every tload / tstore row, scalar GM access) and sim_gm_coalesce, which
 * fills SimResult.gm: per (parameter, write, atomic), disjoint ranges sorted by lo, overlapping and
 * adjacent ones merged (sim.h).
 * Does: keeps, per (parameter, kind), the ranges recorded so far as a sorted disjoint set. A record
 * inside a range is dropped, one that extends a range (the next K chunk of a row, the next row of a
 * full-width window; merging the ranges it reaches) or lies past the last grows the set in place,
 * found by a binary search that first tries where the previous record landed; only a range that
 * would have to be inserted in the middle is set aside and merged by a sort at the end (or when many
 * pile up). A window whose bounding range lies inside one recorded range is skipped whole. A large matmul re-reads every row of its operands once per output tile: a
 * 6144^3 GEMM block records a million rows for 1,500 distinct ones, which were all kept and sorted. */
#include "sim/sim_int.h"

#include <stdlib.h>
#include <string.h>

typedef struct { int64_t lo, hi; } GmRange;
typedef VEC(GmRange) GmRangeVec;

/* Per key: the sorted disjoint set and the ranges set aside. */
struct SimGmRec { int nkeys, cap; GmRangeVec *set, *aside; int *hint; };   /* cap: keys allocated */

static int key_of(int param, bool write, bool atomic) { return param * 4 + (write ? 2 : 0) + (atomic ? 1 : 0); }

static int cmp_range(const void *x, const void *y) {
    const GmRange *a = x, *b = y;
    return a->lo < b->lo ? -1 : a->lo > b->lo;
}

/* Sorts the set aside into the set: overlapping and adjacent ranges merged. */
static void fold(GmRangeVec *set, GmRangeVec *aside) {
    if (!aside->len) return;
    for (int j = 0; j < set->len; j++) vec_push(aside, set->data[j]);
    qsort(aside->data, (size_t)aside->len, sizeof(GmRange), cmp_range);
    set->len = 0;
    for (int j = 0; j < aside->len; j++) {
        GmRange *last = set->len ? &set->data[set->len - 1] : NULL;
        if (last && aside->data[j].lo <= last->hi) {
            if (aside->data[j].hi > last->hi) last->hi = aside->data[j].hi;
        } else vec_push(set, aside->data[j]);
    }
    aside->len = 0;
}

/* Index of the first range of v with hi >= at; tries `hint` (the last one touched) and the next one
 * first: the rows of a window come in order. */
static int first_reaching(const GmRangeVec *v, int64_t at, int hint) {
    for (int h = hint; h <= hint + 1; h++)
        if (h >= 0 && h < v->len && v->data[h].hi >= at && (h == 0 || v->data[h - 1].hi < at)) return h;
    int lo = 0, hi = v->len;
    while (lo < hi) {
        int mid = (lo + hi) / 2;
        if (v->data[mid].hi < at) lo = mid + 1;
        else hi = mid;
    }
    return lo;
}

/* A run's sets: the core's spare ones (the previous run's, emptied: no allocation per run when the
 * kernels have as many parameters), else new ones. */
static void rec_new(SimRun *s) {
    int n = key_of(s->k->nparams, false, false);
    SimGmRec *g = s->c ? s->c->gm_rec_spare : NULL;   /* a run without a core (unit tests): no spare */
    if (g && g->cap >= n) {
        s->c->gm_rec_spare = NULL;
        for (int key = 0; key < n; key++) g->set[key].len = g->aside[key].len = g->hint[key] = 0;
        g->nkeys = n;
        s->gm_rec = g;
        return;
    }
    g = calloc(1, sizeof *g);
    PTOC_ASSERT(g != NULL, "out of memory");
    g->nkeys = g->cap = n;
    g->set = calloc((size_t)n, sizeof(GmRangeVec));
    g->aside = calloc((size_t)n, sizeof(GmRangeVec));
    g->hint = calloc((size_t)n, sizeof(int));
    PTOC_ASSERT(g->set && g->aside && g->hint, "out of memory");
    s->gm_rec = g;
}

/* Records that elements [lo, hi) of GM parameter `param` were touched. */
void sim_record_gm(SimRun *s, int param, int64_t lo, int64_t hi, bool write, bool atomic) {
    if (!s->o->record_gm || hi <= lo) return;
    PTOC_ASSERT(param >= 0 && param < s->k->nparams, "GM footprint of parameter %d", param);
    if (!s->gm_rec) rec_new(s);
    int key = key_of(param, write, atomic);
    GmRangeVec *v = &s->gm_rec->set[key];
    int i = first_reaching(v, lo, s->gm_rec->hint[key]);   /* v[i - 1].hi < lo: not even adjacent */
    s->gm_rec->hint[key] = i;
    if (i == v->len) { vec_push(v, ((GmRange){ lo, hi })); return; }
    GmRange *x = &v->data[i];
    if (x->lo <= lo && hi <= x->hi) return;            /* already recorded */
    if (x->lo > hi) {                                  /* would go in the middle: set aside */
        GmRangeVec *aside = &s->gm_rec->aside[key];
        vec_push(aside, ((GmRange){ lo, hi }));
        if (aside->len > 4096 && aside->len > v->len) fold(v, aside);   /* keep the fast checks effective */
        return;
    }
    if (lo < x->lo) x->lo = lo;                        /* grows x, and absorbs the ranges it reaches */
    if (hi > x->hi) x->hi = hi;
    int j = i + 1;
    while (j < v->len && v->data[j].lo <= x->hi) {
        if (v->data[j].hi > x->hi) x->hi = v->data[j].hi;
        j++;
    }
    if (j > i + 1) {
        memmove(v->data + i + 1, v->data + j, sizeof(GmRange) * (size_t)(v->len - j));
        v->len -= j - i - 1;
    }
}

/* Whether [lo, hi) lies inside one range recorded so far: every row of a window whose bounding range
 * does is recorded already (the operand tiles of a matmul, re-read for every output tile). */
bool sim_gm_covered(SimRun *s, int param, int64_t lo, int64_t hi, bool write, bool atomic) {
    if (!s->gm_rec || param < 0 || param >= s->k->nparams) return false;
    int key = key_of(param, write, atomic);
    const GmRangeVec *v = &s->gm_rec->set[key];
    int i = first_reaching(v, lo, s->gm_rec->hint[key]);
    return i < v->len && v->data[i].lo <= lo && hi <= v->data[i].hi;
}

/* The run's footprint into its result, in (parameter, write, atomic, lo) order; frees the sets. */
void sim_gm_coalesce(SimRun *s) {
    SimGmRec *g = s->gm_rec;
    if (!g) return;
    for (int key = 0; key < g->nkeys; key++) {
        fold(&g->set[key], &g->aside[key]);
        for (int j = 0; j < g->set[key].len; j++)
            vec_push(&s->r->gm, ((SimGmAccess){ key / 4, g->set[key].data[j].lo, g->set[key].data[j].hi,
                                                 (key & 2) != 0, (key & 1) != 0 }));
    }
    sim_gm_rec_free(s);
}

void sim_gm_rec_release(SimGmRec *g) {
    if (!g) return;
    for (int key = 0; key < g->cap; key++) { vec_free(&g->set[key]); vec_free(&g->aside[key]); }
    free(g->set);
    free(g->aside);
    free(g->hint);
    free(g);
}

/* The run's sets go back to its core for the next run (the larger of two kept; a set that grew past
 * 64 K ranges is freed rather than kept) */
void sim_gm_rec_free(SimRun *s) {
    SimGmRec *g = s->gm_rec;
    if (!g) return;
    s->gm_rec = NULL;
    bool big = false;
    for (int key = 0; key < g->cap && !big; key++) big = g->set[key].cap > 65536 || g->aside[key].cap > 65536;
    SimGmRec *old = s->c ? s->c->gm_rec_spare : NULL;
    if (!s->c || big || (old && old->cap >= g->cap)) { sim_gm_rec_release(g); return; }
    sim_gm_rec_release(old);
    s->c->gm_rec_spare = g;
}
