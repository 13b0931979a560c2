/* base/thread — starting host threads (thread.c). */
#ifndef PTOC_BASE_THREAD_H
#define PTOC_BASE_THREAD_H

#include <pthread.h>

/* pthread_create(th, NULL, fn, arg), the thread placed at first on a CPU other than the caller's
 * (when the process may use one), then free to run anywhere the caller may. 0 or an error number. */
int base_thread_start(pthread_t *th, void *(*fn)(void *), void *arg);

#endif
