/* rt_bench — runtime throughput (issue 12 point 6): submission plus dependency tracking of N tasks
 * with an empty kernel runner, and the peak RSS it needs.
 * Usage: rt_bench N [N2 ...] (bench/rt.sh runs one N per process, so VmHWM is that N's peak).
 * For each N, compiles an orchestration loop of N kernel calls, one runtime scope per iteration
 * (each task reads a and stores a 16-row block of c at a scalar offset i % 512 * 16; the compiler
 * passes c as INOUT inside the sequential loop, so every task waits for the previous one through a
 * TensorMap lookup: a chain of N - 1 edges, the worst case for the window), then runs the runtime
 * (rt_run, no race check, no deps.json, no task list) with a kernel callback that does nothing.
 * Baseline, measured in the same process: a plain C loop doing the per-task minimum — a 256-byte
 * record per task kept in a ring-sized window, and a hash-table lookup / insert — so the ratio says
 * how far the runtime is from the bare bookkeeping. Prints tasks/s and the process's peak RSS
 * (VmHWM) after each N. */
#include "driver/driver_int.h"
#include "rt/rt.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static bool noop_kernel(void *ud, const RtKernelCall *call, int64_t *cycles, DiagSink *diag) {
    (void)ud; (void)call; (void)diag;
    *cycles = 100;
    return true;
}

static long peak_rss_kib(void) {
    FILE *f = fopen("/proc/self/status", "r");
    char line[256];
    long v = -1;
    while (f && fgets(line, sizeof line, f))
        if (strncmp(line, "VmHWM:", 6) == 0) v = strtol(line + 6, NULL, 10);
    if (f) fclose(f);
    return v;
}

/* The baseline: per task a 256-byte record kept in a window of 16384 (the oldest freed, as a ring
 * reclaims) and a hash-table lookup + insert on its (row block) key. */
static double baseline_tasks_per_s(long n) {
    enum { HB = 4096, WIN = 16384 };
    long *table = calloc(HB, sizeof *table);
    long **win = calloc(WIN, sizeof *win);
    double t0 = base_now_seconds();
    long sink = 0;
    for (long i = 0; i < n; i++) {
        long *rec = calloc(32, sizeof *rec);
        long key = (i % 512) * 2654435761L;
        long *slot = &table[(unsigned long)key % HB];
        rec[0] = *slot;                        /* the lookup (producer of the slice) */
        *slot = i;                             /* the insert (this task now produces it) */
        free(win[i % WIN]);
        win[i % WIN] = rec;
        sink += rec[0];
    }
    double dt = base_now_seconds() - t0;
    for (int j = 0; j < WIN; j++) free(win[j]);
    free(win);
    free(table);
    if (sink == 42) printf(" ");
    return (double)n / (dt > 0 ? dt : 1e-9);
}

static bool bench_one(long n) {
    char src[2048];
    snprintf(src, sizeof src,
             "import pypto.language as pl\n\n"
             "@pl.jit\n"
             "def many(a: pl.Tensor[[8192, 16], pl.FP32], c: pl.Out[pl.Tensor[[8192, 16], pl.FP32]]):\n"
             "    for i in pl.range(%ld):\n"
             "        r = (i %% 512) * 16\n"
             "        with pl.at(level=pl.Level.CORE_GROUP):\n"
             "            t = pl.load(a, [r, 0], [16, 16], target_memory=pl.Mem.Vec)\n"
             "            pl.store(t, [r, 0], c)\n"
             "    return c\n", n);
    DrvOptions o;
    drv_options_defaults(&o);
    DrvSession *s = drv_new(&o);
    if (!drv_load_text(s, "rt_bench.py", src, NULL) || !drv_compile(s)) {
        StrBuf e = {0};
        diag_format_all(drv_diag(s), &e);
        fprintf(stderr, "rt_bench: compile failed:\n%s", sb_cstr(&e));
        return false;
    }
    void *bufs[2] = { calloc(8192 * 16, 4), calloc(8192 * 16, 4) };
    RtOptions ro = { .target = s->opt.target, .timing_only = true, .no_task_list = true };
    RtResult res;
    memset(&res, 0, sizeof res);
    double t0 = base_now_seconds();
    bool ok = rt_run(s->prog, drv_entry_name(s), bufs, 2, &ro, noop_kernel, NULL, &res, drv_diag(s));
    double dt = base_now_seconds() - t0;
    if (!ok) {
        StrBuf e = {0};
        diag_format_all(drv_diag(s), &e);
        fprintf(stderr, "rt_bench: rt_run failed:\n%s", sb_cstr(&e));
    }
    long tasks = res.ntasks;
    int edges = res.nedges;
    rt_result_free(&res);
    double rate = (double)tasks / (dt > 0 ? dt : 1e-9), base = baseline_tasks_per_s(n);
    printf("rt %ld tasks: %.3f s, %.0f tasks/s; baseline (record + map probe per task) %.0f tasks/s; "
           "ratio rt/baseline %.3f; edges %d; peak RSS %.1f MiB\n",
           tasks, dt, rate, base, rate / base, edges, (double)peak_rss_kib() / 1024.0);
    free(bufs[0]); free(bufs[1]);
    drv_free(s);
    return ok && tasks == n;
}

int main(int argc, char **argv) {
    bool ok = true;
    for (int i = 1; i < argc; i++) ok = bench_one(strtol(argv[i], NULL, 10)) && ok;
    return ok ? 0 : 1;
}
