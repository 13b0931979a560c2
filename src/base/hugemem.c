/* hugemem — large data buffers (tensors, their golden copies, interpreter arrays) on transparent huge
 * pages where the kernel offers them on request (transparent_hugepage = madvise).
 * Why: a tensor's pages are first touched once per run, and on the virtual machines ptoc runs on a
 * 4 KiB first-touch fault costs 15-70 us: filling the inputs and copying them for the golden run
 * took longer than simulating 8 matmuls. One fault per 2 MiB page removes most of that. Where huge
 * pages are off (or never), madvise changes nothing and the buffer faults page by page as before;
 * the memory itself is the caller's malloc'd block, freed with free(). */
#define _DEFAULT_SOURCE                          /* MADV_HUGEPAGE */
#include "base/base.h"

#include <stdint.h>
#include <sys/mman.h>

enum { HUGE_PAGE = 2 << 20 };

void base_advise_huge(void *p, size_t n) {
#ifdef MADV_HUGEPAGE
    uintptr_t lo = ((uintptr_t)p + HUGE_PAGE - 1) & ~(uintptr_t)(HUGE_PAGE - 1);
    uintptr_t hi = ((uintptr_t)p + n) & ~(uintptr_t)(HUGE_PAGE - 1);
    if (p && hi > lo) madvise((void *)lo, hi - lo, MADV_HUGEPAGE);   /* advice only: a failure changes nothing */
#else
    (void)p;
    (void)n;
#endif
}

void *base_malloc_big(size_t n) {
    void *p = malloc(n ? n : 1);
    if (p && n >= HUGE_PAGE) base_advise_huge(p, n);
    return p;
}

void *base_calloc_big(size_t n) {
    void *p = calloc(1, n ? n : 1);
    if (p && n >= HUGE_PAGE) base_advise_huge(p, n);
    return p;
}
