/* sim/race_shadow — the race detector's shadow memory blocks, pooled across runs.
 *
 * Requires: nothing but the OS (mmap).
 * Produces: sim_shadow_get / sim_shadow_put / sim_shadow_free (sim_int.h).
 * Does: hands out zeroed SimShadow arrays and takes them back zeroed again (the run that used one
 * clears exactly the granules it touched, race.c), so a process of many runs — a 200-task program,
 * every block of an SPMD task — maps and faults its shadow pages once, not once per run. Fresh pages
 * cost far more than clearing warm ones (a page fault per 4 KiB; on a paravirtualised host ~5 us
 * each): a 200-task run spent most of its race-check time in faults, munmap, or in the memset of a
 * calloc glibc served from its heap. A small block is populated at map time (one system call instead
 * of a fault per page); a large one is left lazy, so a run touching a quarter of a big tensor pays
 * for a quarter, and asks for transparent huge pages (fewer faults, and far fewer TLB misses: the
 * shadow of scattered rows of a large tensor is a TLB miss per row with 4 KiB pages). The pool is shared by the process (one lock):
 * cores and threads take blocks as they need them; blocks are identified by a header in front. */
#define _DEFAULT_SOURCE                          /* MAP_ANONYMOUS, MAP_POPULATE, MADV_HUGEPAGE */
#include "sim/sim_int.h"

#include <pthread.h>
#include <stdlib.h>
#include <sys/mman.h>

#define POOL_MAX 32                              /* free blocks kept */
#define HUGE_MIN ((size_t)2 << 20)               /* bytes from which a block asks for huge pages */
#define BIG_MIN ((size_t)64 << 20)               /* bytes from which a returned block gives its pages back */

typedef struct { size_t bytes; int64_t cap; } Hdr;
enum { HDR = (sizeof(Hdr) + sizeof(SimShadow) - 1) / sizeof(SimShadow) };  /* header, in shadows */

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static SimShadow *pool[POOL_MAX];
static int npool;

static Hdr *hdr(SimShadow *sh) { return (Hdr *)(void *)(sh - HDR); }

static SimShadow *block_new(int64_t n) {
    size_t bytes = ((size_t)n + HDR) * sizeof(SimShadow);
    int flags = MAP_PRIVATE | MAP_ANONYMOUS;
#ifdef MAP_POPULATE
    if (bytes < HUGE_MIN) flags |= MAP_POPULATE;
#endif
    void *m = mmap(NULL, bytes, PROT_READ | PROT_WRITE, flags, -1, 0);
    PTOC_ASSERT(m != MAP_FAILED, "out of memory (race shadow of %lld granules)", (long long)n);
#ifdef MADV_HUGEPAGE
    if (bytes >= HUGE_MIN) madvise(m, bytes, MADV_HUGEPAGE);   /* a hint: fewer faults and TLB misses */
#endif
    SimShadow *sh = (SimShadow *)m + HDR;
    *hdr(sh) = (Hdr){ bytes, n };
    return sh;
}

void sim_shadow_free(SimShadow *sh) {
    if (sh) munmap(sh - HDR, hdr(sh)->bytes);
}

/* The smallest pooled block of at least n granules, else a new one. */
SimShadow *sim_shadow_get(int64_t n) {
    PTOC_ASSERT(n >= 0 && n < INT32_MAX, "race shadow too large");
    if (n < 1) n = 1;
    pthread_mutex_lock(&lock);
    int best = -1;
    for (int j = 0; j < npool; j++)
        if (hdr(pool[j])->cap >= n && (best < 0 || hdr(pool[j])->cap < hdr(pool[best])->cap)) best = j;
    SimShadow *sh = NULL;
    if (best >= 0) { sh = pool[best]; pool[best] = pool[--npool]; }
    pthread_mutex_unlock(&lock);
    return sh ? sh : block_new(n);
}

/* A big block is not cleared by its user: sim_shadow_put gives its pages back to the OS instead
 * (they read as zero again), so the pool never keeps the union of what many runs touched resident —
 * 24 blocks of a 6144^3 GEMM each touch a different quarter of a 250 MB shadow. */
bool sim_shadow_big(SimShadow *sh) { return sh && hdr(sh)->bytes >= BIG_MIN; }

/* sh must be all zero again, unless big. A full pool drops its smallest block for a larger one. */
void sim_shadow_put(SimShadow *sh) {
    if (!sh) return;
    if (sim_shadow_big(sh)) madvise(sh - HDR, hdr(sh)->bytes, MADV_DONTNEED);
    pthread_mutex_lock(&lock);
    if (npool < POOL_MAX) { pool[npool++] = sh; sh = NULL; }
    else {
        int small = 0;
        for (int j = 1; j < npool; j++) if (hdr(pool[j])->cap < hdr(pool[small])->cap) small = j;
        if (hdr(pool[small])->cap < hdr(sh)->cap) { SimShadow *t = pool[small]; pool[small] = sh; sh = t; }
    }
    pthread_mutex_unlock(&lock);
    sim_shadow_free(sh);
}
