/* hugemem — large data buffers (tensors, their golden copies, interpreter arrays) on transparent huge
 * pages where the kernel offers them on request (transparent_hugepage = madvise).
 * Why: a tensor's pages are first touched once per run, and on the virtual machines ptoc runs on a
 * 4 KiB first-touch fault costs 15-70 us: filling the inputs and copying them for the golden run
 * took longer than simulating 8 matmuls. One fault per 2 MiB page removes most of that. Where huge
 * pages are off (or never), madvise changes nothing and the buffer faults page by page as before;
 * the memory is an ordinary heap block, freed with free(). base_calloc_big touches every page (it
 * zeroes them), so a buffer that may never be touched (a timing-only run's) takes plain calloc. */
#define _DEFAULT_SOURCE                          /* MADV_HUGEPAGE */
#include "base/base.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
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

/* Huge pages need 2 MiB-aligned 2 MiB windows: a block of at least one is aligned on one (malloc's
 * page-aligned mmap would hold a whole window only by chance). */
void *base_malloc_big(size_t n) {
    if (n < HUGE_PAGE) return malloc(n ? n : 1);
    void *p = NULL;
    if (posix_memalign(&p, HUGE_PAGE, n) != 0) return NULL;
    base_advise_huge(p, n);
    return p;
}

void *base_calloc_big(size_t n) {
    if (n < HUGE_PAGE) return calloc(1, n ? n : 1);
    void *p = base_malloc_big(n);
    if (p) memset(p, 0, n);   /* on huge pages: one fault per 2 MiB */
    return p;
}
