/* base/thread — host threads that start at once on an idle CPU.
 * Why: Linux queues a new thread on its creator's CPU and moves it to an idle one only at the next
 * load balance; on the 2-vCPU virtual machines ptoc runs on, a thread created by a busy thread
 * waited 1.5-3 ms to run at all (measured: 8 of 10 starts), while its creator worked alone — a
 * parallel fill, copy or comparison of a few milliseconds gained nothing, and the golden run began
 * milliseconds after the simulation beside it. So the thread is created with an affinity for the
 * CPUs other than the caller's current one (round-robin over them, so a batch of threads spreads),
 * and the first thing it does is take back the caller's whole affinity mask: the placement is a
 * start, not a pin. Where the calls are missing (not Linux) or fail, a plain pthread_create. */
#define _GNU_SOURCE                               /* sched_getcpu, pthread_attr_setaffinity_np */
#include "base/thread.h"
#include "base/base.h"

#include <sched.h>
#include <stdbool.h>
#include <stdlib.h>

#if defined(__linux__) && defined(CPU_ZERO)
typedef struct ThreadStart { void *(*fn)(void *); void *arg; cpu_set_t all; } ThreadStart;

static void *thread_trampoline(void *p) {
    ThreadStart st = *(ThreadStart *)p;
    free(p);
    pthread_setaffinity_np(pthread_self(), sizeof st.all, &st.all);   /* advice: a failure keeps the start CPU */
    return st.fn(st.arg);
}

/* The next CPU of `all` other than `here`, by a process-wide counter; -1 when there is none. */
static int start_cpu(const cpu_set_t *all, int here) {
    static unsigned next;
    int others = CPU_COUNT(all) - (here >= 0 && CPU_ISSET(here, all));
    if (others < 1) return -1;
    int pick = (int)(__atomic_fetch_add(&next, 1u, __ATOMIC_RELAXED) % (unsigned)others);
    for (int c = 0; c < CPU_SETSIZE; c++)
        if (CPU_ISSET(c, all) && c != here && pick-- == 0) return c;
    return -1;
}

int base_thread_start(pthread_t *th, void *(*fn)(void *), void *arg) {
    ThreadStart *st = malloc(sizeof *st);
    if (!st || sched_getaffinity(0, sizeof st->all, &st->all) != 0) {
        free(st);
        return pthread_create(th, NULL, fn, arg);
    }
    int cpu = start_cpu(&st->all, sched_getcpu());
    if (cpu < 0) {
        free(st);
        return pthread_create(th, NULL, fn, arg);
    }
    st->fn = fn;
    st->arg = arg;
    pthread_attr_t attr;
    cpu_set_t one;
    CPU_ZERO(&one);
    CPU_SET(cpu, &one);
    bool placed = pthread_attr_init(&attr) == 0;
    if (placed && pthread_attr_setaffinity_np(&attr, sizeof one, &one) != 0) {
        pthread_attr_destroy(&attr);
        placed = false;
    }
    int err = pthread_create(th, placed ? &attr : NULL, thread_trampoline, st);
    if (placed) pthread_attr_destroy(&attr);
    if (err) free(st);
    return err;
}
#else
int base_thread_start(pthread_t *th, void *(*fn)(void *), void *arg) { return pthread_create(th, NULL, fn, arg); }
#endif
