/* run — executes a compiled program: the runtime (rt_run) interprets the Orchestration function and
 * calls back for every task block; the callback runs the task's kernel on a simulated core taken
 * from a per-session pool (one SimCore per concurrently running block, reused afterwards), collects
 * cycles / cube utilisation / races / sync errors per kernel, and returns the block's cycles.
 * Also: seeded random inputs, the golden run (interp_run on the untouched source program) and the
 * comparison of outputs against it.
 *
 * Memory (docs/cli.md "Memory"): the buffers once, the golden's copy once (the interpreter works in
 * it in place); the golden runs first, then its input copies are freed and its large outputs wait
 * in a temporary file while the simulator runs; the comparison streams.
 *
 * Comparison: per element of every Out/InOut tensor, abs = |x - g|, rel = abs / max(|g|, 1e-6);
 * the element passes if abs <= atol + rtol * |g|. atol = rtol = 1e-2 when a tensor parameter (input or
 * output) is FP16/BF16, 1e-4 when the float ones are FP32, 0 (exact) when all are integers. NaN passes
 * only against NaN.
 * Timing-only runs (DrvOptions.timing_only) skip the random inputs, the golden run and the
 * comparison; the simulator and the runtime then never touch the buffers. */
#include "driver/driver_int.h"
#include "driver/pto_check.h"
#include "base/thread.h"

#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "interp/interp.h"
#include "rt/rt.h"
#include "sim/sim.h"

/* ---- values ---- */
static int host_threads(int threads);

void drv_run_jobs(void *jobs, size_t size, int n, void *(*fn)(void *)) {
    enum { MAX_JOBS = 64 };
    PTOC_ASSERT(n >= 1 && n <= MAX_JOBS, "%d host jobs", n);
    pthread_t th[MAX_JOBS];
    bool started[MAX_JOBS] = { false };
    for (int t = 1; t < n; t++) started[t] = base_thread_start(&th[t], fn, (char *)jobs + (size_t)t * size) == 0;
    fn(jobs);
    for (int t = 1; t < n; t++) {
        if (started[t]) pthread_join(th[t], NULL);
        else fn((char *)jobs + (size_t)t * size);   /* no thread: here */
    }
}

double drv_elem_get(const void *buf, DType dt, int64_t i) {
    switch (dt) {
    case DT_FP16: return fp16_to_f32(((const uint16_t *)buf)[i]);
    case DT_BF16: return bf16_to_f32(((const uint16_t *)buf)[i]);
    case DT_FP32: return ((const float *)buf)[i];
    case DT_INT8: return ((const int8_t *)buf)[i];
    case DT_UINT8: case DT_BOOL: return ((const uint8_t *)buf)[i];
    case DT_INT16: return ((const int16_t *)buf)[i];
    case DT_UINT16: return ((const uint16_t *)buf)[i];
    case DT_INT32: return ((const int32_t *)buf)[i];
    case DT_UINT32: return ((const uint32_t *)buf)[i];
    case DT_INT64: case DT_INDEX: return (double)((const int64_t *)buf)[i];
    default: return 0;
    }
}

/* ---- the simulated core pool ---- */
SimCore *drv_pool_acquire(DrvSession *s, CoreKind kind) {
    pthread_mutex_lock(&s->lock);
    SimCore *c = NULL;
    for (int i = 0; i < s->pool.len && !c; i++)
        if (!s->pool.data[i].busy && s->pool.data[i].kind == kind) s->pool.data[i].busy = true, c = s->pool.data[i].core;
    if (!c) {
        c = sim_core_new(s->opt.target, kind);
        DrvCore e = { c, kind, true };
        vec_push(&s->pool, e);
    }
    pthread_mutex_unlock(&s->lock);
    return c;
}

void drv_pool_release(DrvSession *s, SimCore *c) {
    pthread_mutex_lock(&s->lock);
    for (int i = 0; i < s->pool.len; i++)
        if (s->pool.data[i].core == c) s->pool.data[i].busy = false;
    pthread_mutex_unlock(&s->lock);
}

void drv_pool_free(DrvSession *s) {
    for (int i = 0; i < s->pool.len; i++) sim_core_free(s->pool.data[i].core);
    vec_free(&s->pool);
}

/* ---- the runtime callback ---- */
DrvKernel *drv_kernel_of(DrvSession *s, const Function *f) {
    for (int i = 0; i < s->kernels.len; i++)
        if (s->kernels.data[i].fn == f) return &s->kernels.data[i];
    for (int i = 0; i < s->kernels.len; i++)
        if (f && !strcmp(s->kernels.data[i].fn->name, f->name)) return &s->kernels.data[i];
    return NULL;
}

void drv_record(DrvSession *s, DrvKernel *dk, const SimResult *r) {
    pthread_mutex_lock(&s->lock);
    dk->runs++;
    if (r->cycles >= dk->cycles) {
        dk->cycles = r->cycles, dk->cube_util = r->cube_util;
        for (int p = 0; p < PIPE_COUNT; p++) dk->pipe_util[p] = r->cycles ? (double)r->pipe_busy[p] / (double)r->cycles : 0.0;
    }
    dk->races += r->races.len;
    dk->sync_errors += r->sync_errors.len;
    for (int i = 0; i < r->races.len; i++) {
        StrBuf m = {0};
        sb_printf(&m, "%s: %s", dk->k->name, r->races.data[i]);
        vec_push(&s->run.race_messages, sb_take(&m));
    }
    for (int i = 0; i < r->sync_errors.len; i++) {
        StrBuf m = {0};
        sb_printf(&m, "%s: %s", dk->k->name, r->sync_errors.data[i]);
        vec_push(&s->run.sync_messages, sb_take(&m));
    }
    pthread_mutex_unlock(&s->lock);
}

/* The timing figures of one block of a task whose block_num blocks run at once, each on `members` cores
 * (a cluster's kernels for a mixed task) of which the first is of `kind`: the blocks beyond the
 * target's cores of that kind wait for a free core, so at most that many stream from GM together. */
const Target *drv_block_timing(const DrvSession *s, CoreKind kind, int64_t block_num, int members, Target *buf) {
    const Target *t = s->opt.target;
    int64_t cores = kind == CORE_AIV ? t->num_aiv : t->num_aic;
    int64_t blocks = block_num < 1 ? 1 : block_num < cores ? block_num : cores;
    return target_share_gm(t, blocks * members, buf);
}

/* Runs one block on a pooled core; keeps its reports in a DrvBlockRec (drv_block_commit reports them). */
static bool block_exec(void *ud, const RtKernelCall *call, int64_t *cycles, void **record, DiagSink *diag) {
    DrvSession *s = ud;
    *record = NULL;
    *cycles = 0;
    if (call->kernel && call->kernel->type == FT_GROUP) {
        return drv_group_exec(s, call, cycles, record, diag);
    }
    DrvKernel *dk = drv_kernel_of(s, call->kernel);
    if (!dk) {
        diag_error(diag, call->kernel ? call->kernel->span : SPAN_NONE, "no compiled kernel for function '%s'",
                   call->kernel ? call->kernel->name : "?");
        return false;
    }
    const Kernel *k = dk->k;
    if (call->nparams != k->nparams) {
        diag_error(diag, call->kernel->span, "kernel '%s' takes %d parameters, the task passes %d", k->name,
                   k->nparams, call->nparams);
        return false;
    }
    Target timing;
    SimOptions so = { s->opt.race_check, call->gm_sink != NULL, drv_timeline_on(s), call->block_idx, call->block_num,
                      drv_block_timing(s, k->core, call->block_num, 1, &timing),
                      s->opt.timing_only };
    DrvBlockRec *rec = calloc(1, sizeof *rec);
    PTOC_ASSERT(rec, "out of memory");
    StrBuf *prec = s->ptocheck ? pto_check_pre(s, call, dk) : NULL;   /* --check-pto-isa (one host thread): the block's arguments */
    SimCore *core = drv_pool_acquire(s, k->core);
    bool ok = sim_run(core, k, call->params, &so, &rec->r[0], diag);
    drv_pool_release(s, core);
    if (prec) pto_check_post(s, call, dk, prec, ok);
    rec->n = 1, rec->dk[0] = dk;
    *cycles = rec->r[0].cycles;
    if (!ok) { drv_block_commit(s, NULL, rec); return false; }
    *record = rec;
    return true;
}

/* Reports a block's kernels in order (statistics, races, timeline, GM accesses for the task-level race
 * check), then frees the record; call NULL only frees it. */
void drv_block_commit(void *ud, const RtKernelCall *call, void *record) {
    DrvSession *s = ud;
    DrvBlockRec *rec = record;
    if (!rec) return;
    for (int j = 0; j < rec->n; j++) {
        const SimResult *r = &rec->r[j];
        const Kernel *k = rec->dk[j]->k;
        if (call) {
            drv_record(s, rec->dk[j], r);
            if (drv_timeline_on(s)) drv_timeline_add(s, call, k, k->core, drv_timeline_core(call, k), r);
            for (int i = 0; call->gm_sink && i < r->gm.len; i++) {
                const SimGmAccess *a = &r->gm.data[i];
                rt_record_gm(call->gm_sink, a->param, a->lo, a->hi, a->write, a->atomic);
            }
        }
        sim_result_free(&rec->r[j]);
    }
    free(rec);
}

static bool run_block(void *ud, const RtKernelCall *call, int64_t *cycles, DiagSink *diag) {
    void *rec;
    bool ok = block_exec(ud, call, cycles, &rec, diag);
    drv_block_commit(ud, call, rec);
    return ok;
}

static const RtKernelHooks block_hooks = { block_exec, drv_block_commit, drv_block_footprint };

void drv_run_reset(DrvSession *s) {
    DrvRunStats *r = &s->run;
    for (int i = 0; i < r->race_messages.len; i++) free(r->race_messages.data[i]);
    for (int i = 0; i < r->sync_messages.len; i++) free(r->sync_messages.data[i]);
    vec_free(&r->race_messages);
    vec_free(&r->sync_messages);
    free(r->deps_json);
    vec_free(&r->task_list);
    free(r->pto_isa_msg);
    memset(r, 0, sizeof *r);
    r->pto_isa_match = -1;
    drv_timeline_reset(s);
    for (int i = 0; i < s->kernels.len; i++) {
        DrvKernel *k = &s->kernels.data[i];
        k->runs = 0, k->cycles = 0, k->cube_util = 0, k->races = 0, k->sync_errors = 0;
        memset(k->pipe_util, 0, sizeof k->pipe_util);
    }
}

/* ---- golden ---- */
/* The class of the least precise float tensor, inputs and outputs alike: an FP16 / BF16 result of FP32
 * operands (pl.matmul(..., out_dtype=pl.FP16)) is rounded to 11 / 8 bits, where a different but
 * equally valid order of the FP32 sums may land one unit of the last place away. */
static void tolerance(const DrvSession *s, double *atol, double *rtol) {
    int cls = -1;   /* 0 int, 1 fp32, 2 half */
    for (int i = 0; i < s->nparams; i++) {
        const DrvParam *p = &s->params[i];
        if (!p->is_tensor) continue;
        int c = p->dtype == DT_FP16 || p->dtype == DT_BF16 ? 2 : dtype_is_float(p->dtype) ? 1 : 0;
        if (c > cls) cls = c;
    }
    *atol = *rtol = cls == 2 ? 1e-2 : cls == 0 ? 0.0 : 1e-4;
}

/* Elements [e0, e0 + n) of output p: x the simulator's (indexed from e0), g the golden's (from 0).
 * Identical bytes need no arithmetic (error 0): the common case is skipped a block at a time. */
static void compare_range(DrvRunStats *r, const DrvParam *p, const void *x, const void *g, int64_t e0, int64_t n);
static void compare_elems(DrvRunStats *r, const DrvParam *p, const void *x, const void *g, int64_t e0, int64_t n) {
    enum { SAME_BLOCK = 256 };
    int eb = dtype_bytes(p->dtype);
    if (eb <= 0) { compare_range(r, p, x, g, e0, n); return; }
    for (int64_t b = 0; b < n; b += SAME_BLOCK) {
        int64_t m = n - b < SAME_BLOCK ? n - b : SAME_BLOCK;
        if (memcmp((const char *)x + (e0 + b) * eb, (const char *)g + b * eb, (size_t)(m * eb)) == 0) r->checked += m;
        else compare_range(r, p, x, (const char *)g + b * eb, e0 + b, m);
    }
}

static inline void compare_one(DrvRunStats *r, double xv, double gv) {
    r->checked++;
    if (isnan(xv) && isnan(gv)) return;
    double abs_err = xv == gv ? 0.0 : fabs(xv - gv);
    if (isnan(abs_err)) abs_err = INFINITY;
    double rel = abs_err / fmax(fabs(gv), 1e-6);
    /* an infinity matches only itself (atol + rtol * inf would accept anything) */
    bool off = (isinf(xv) || isinf(gv)) ? xv != gv : !(abs_err <= r->atol + r->rtol * fabs(gv));
    if (off) r->mismatches++;
    if (abs_err > r->max_abs_err) r->max_abs_err = abs_err;
    if (rel > r->max_rel_err) r->max_rel_err = rel;
}

static void compare_range(DrvRunStats *r, const DrvParam *p, const void *x, const void *g, int64_t e0, int64_t n) {
    if (p->dtype == DT_FP32)   /* the common output: no per-element dtype switch */
        for (int64_t e = 0; e < n; e++) compare_one(r, ((const float *)x)[e0 + e], ((const float *)g)[e]);
    else
        for (int64_t e = 0; e < n; e++) compare_one(r, drv_elem_get(x, p->dtype, e0 + e), drv_elem_get(g, p->dtype, e));
}

/* The golden outputs wait for the simulator in memory, or — each of at least SPILL_MIN bytes — in an
 * unlinked temporary file (spill_off[i] its offset there, -1: in memory), read back SPILL_CHUNK
 * bytes at a time by the comparison. The simulator's race shadow then never adds to a resident
 * golden copy of a large output (docs/cli.md "Memory"). */
#define SPILL_MIN (INT64_C(16) << 20)
#define SPILL_CHUNK ((size_t)1 << 20)

typedef struct GoldSpill { FILE *f; int64_t *off; } GoldSpill;

static bool compare_spilled(DrvSession *s, const DrvParam *p, const void *x, const GoldSpill *sp, int64_t off) {
    int eb = dtype_bytes(p->dtype);
    size_t per = SPILL_CHUNK / (size_t)eb;
    void *g = malloc(per * (size_t)eb);
    PTOC_ASSERT(g, "out of memory");
    bool ok = fseeko(sp->f, (off_t)off, SEEK_SET) == 0;
    for (int64_t e0 = 0; ok && e0 < p->numel; e0 += (int64_t)per) {
        size_t n = (size_t)(p->numel - e0) < per ? (size_t)(p->numel - e0) : per;
        ok = fread(g, (size_t)eb, n, sp->f) == n;
        if (ok) compare_elems(&s->run, p, x, g, e0, (int64_t)n);
    }
    free(g);
    if (!ok) diag_error(&s->diag, SPAN_NONE, "cannot read the golden output of '%s' back from its temporary file", p->name);
    return ok;
}

/* compare_elems over [0, n) on up to `threads` host threads, each with its own counts, merged after
 * (sums and maxima: the same figures as one pass). */
typedef struct CompareJob { DrvRunStats st; const DrvParam *p; const void *x, *g; int64_t e0, n; } CompareJob;
static void *compare_job(void *v) {
    CompareJob *j = v;
    compare_elems(&j->st, j->p, j->x, (const char *)j->g + j->e0 * dtype_bytes(j->p->dtype), j->e0, j->n);
    return NULL;
}

static void compare_threads(DrvRunStats *r, const DrvParam *p, const void *x, const void *g, int threads) {
    enum { MAX_CMP_THREADS = 16, MIN_CMP_CHUNK = 1 << 18 };
    int64_t n = p->numel;
    if (threads > MAX_CMP_THREADS) threads = MAX_CMP_THREADS;
    if (threads > n / MIN_CMP_CHUNK) threads = (int)(n / MIN_CMP_CHUNK);
    if (threads < 2 || dtype_bytes(p->dtype) <= 0) { compare_elems(r, p, x, g, 0, n); return; }
    CompareJob jobs[MAX_CMP_THREADS];
    for (int t = 0; t < threads; t++) {
        jobs[t] = (CompareJob){ .p = p, .x = x, .g = g, .e0 = n * t / threads, .n = n * (t + 1) / threads - n * t / threads };
        jobs[t].st.atol = r->atol;
        jobs[t].st.rtol = r->rtol;
    }
    drv_run_jobs(jobs, sizeof jobs[0], threads, compare_job);
    for (int t = 0; t < threads; t++) {
        const DrvRunStats *q = &jobs[t].st;
        r->checked += q->checked;
        r->mismatches += q->mismatches;
        if (q->max_abs_err > r->max_abs_err) r->max_abs_err = q->max_abs_err;
        if (q->max_rel_err > r->max_rel_err) r->max_rel_err = q->max_rel_err;
    }
}

static bool compare(DrvSession *s, void **bufs, void **gold, const GoldSpill *sp) {
    DrvRunStats *r = &s->run;
    tolerance(s, &r->atol, &r->rtol);
    r->compared = true;
    bool ok = true;
    for (int i = 0; i < s->nparams && ok; i++) {
        const DrvParam *p = &s->params[i];
        if (!p->is_tensor || p->dir == PD_IN) continue;
        if (sp->off[i] >= 0) ok = compare_spilled(s, p, bufs[i], sp, sp->off[i]);
        else compare_threads(r, p, bufs[i], gold[i], host_threads(s->opt.threads));
    }
    r->within_tol = r->mismatches == 0;
    return ok;
}

/* After the golden run: the inputs' copies go, large outputs go to the spill file (kept in memory
 * when no temporary file can be written). */
static void golden_spill(DrvSession *s, void **gold, GoldSpill *sp) {
    sp->f = NULL;
    sp->off = malloc(sizeof(int64_t) * (size_t)(s->nparams + 1));
    PTOC_ASSERT(sp->off, "out of memory");
    for (int i = 0; i < s->nparams; i++) {
        const DrvParam *p = &s->params[i];
        sp->off[i] = -1;
        if (p->is_tensor && p->dir == PD_IN) { free(gold[i]); gold[i] = NULL; continue; }
        if (!p->is_tensor || p->bytes < SPILL_MIN) continue;
        if (!sp->f && !(sp->f = tmpfile())) continue;
        off_t at;
        if (fseeko(sp->f, 0, SEEK_END) || (at = ftello(sp->f)) < 0 || fwrite(gold[i], 1, (size_t)p->bytes, sp->f) != (size_t)p->bytes ||
            fflush(sp->f))
            continue;   /* disk full: this one stays in memory */
        sp->off[i] = (int64_t)at;
        free(gold[i]);
        gold[i] = NULL;
    }
}

static void golden_spill_free(GoldSpill *sp) {
    if (sp->f) fclose(sp->f);
    free(sp->off);
}

/* Slice t of nt of every tensor's copy (gold[i] := bufs[i]); the slices of all t cover each once. */
typedef struct CopyJob { DrvSession *s; void **gold, **bufs; int t, nt; } CopyJob;
static void *copy_job(void *v) {
    CopyJob *j = v;
    for (int i = 0; i < j->s->nparams; i++) {
        size_t n = (size_t)j->s->params[i].bytes, lo = n * (size_t)j->t / (size_t)j->nt, hi = n * (size_t)(j->t + 1) / (size_t)j->nt;
        if (j->bufs[i] && hi > lo) memcpy((char *)j->gold[i] + lo, (const char *)j->bufs[i] + lo, hi - lo);
    }
    return NULL;
}

static void **golden_copies(DrvSession *s, void **bufs) {
    enum { MAX_COPY_THREADS = 16, MIN_COPY_SLICE = 1 << 20 };
    void **gold = calloc((size_t)s->nparams + 1, sizeof *gold);
    PTOC_ASSERT(gold, "out of memory");
    int64_t total = 0;
    for (int i = 0; i < s->nparams; i++) {
        size_t n = (size_t)s->params[i].bytes;
        gold[i] = base_malloc_big(n);
        PTOC_ASSERT(gold[i], "out of memory allocating %zu bytes for '%s'", n, s->params[i].name);
        total += s->params[i].bytes;
    }
    /* the copies land on fresh pages (first-touch faults): on threads when there is a lot */
    int nt = host_threads(s->opt.threads);
    if (nt > MAX_COPY_THREADS) nt = MAX_COPY_THREADS;
    if (nt > total / MIN_COPY_SLICE) nt = (int)(total / MIN_COPY_SLICE);
    if (nt < 1) nt = 1;
    CopyJob jobs[MAX_COPY_THREADS];
    for (int t = 0; t < nt; t++) jobs[t] = (CopyJob){ s, gold, bufs, t, nt };
    drv_run_jobs(jobs, sizeof jobs[0], nt, copy_job);
    return gold;
}

static bool golden_run(DrvSession *s, void **gold, DiagSink *diag) {
    InterpTensor *args = calloc((size_t)s->nparams + 1, sizeof *args);
    for (int i = 0; i < s->nparams; i++) {
        const DrvParam *p = &s->params[i];
        args[i].dtype = p->dtype;
        args[i].rank = p->rank;
        memcpy(args[i].shape, p->shape, sizeof p->shape);
        args[i].data = gold[i];
    }
    bool ok = interp_run(s->source, s->entry_fn->name, args, s->nparams, diag);
    free(args);
    return ok;
}

/* The golden run on a thread of its own, beside the simulation (--threads other than 1): the
 * interpreter shares nothing mutable with the runtime and the simulator (its own parse, arena,
 * arrays and diagnostics), so the reports are put together afterwards in the serial order. */
typedef struct GoldenJob {
    DrvSession *s;
    void **gold;
    DiagSink diag;
    bool ran, ok;
    double seconds;
} GoldenJob;

static void golden_job(void *p) {
    GoldenJob *j = p;
    double t0 = base_now_seconds();
    j->ok = golden_run(j->s, j->gold, &j->diag);
    j->seconds = base_now_seconds() - t0;
    j->ran = true;
}

/* d := d[0, mark) + ins + (keep_rest ? d[mark, end) : nothing); ins is emptied. */
static void diag_splice(DiagSink *d, int mark, DiagSink *ins, bool keep_rest) {
    DiagSink out;
    diag_init(&out);
    for (int i = 0; i < mark; i++) vec_push(&out.items, d->items.data[i]);
    for (int i = 0; i < ins->items.len; i++) vec_push(&out.items, ins->items.data[i]);
    for (int i = mark; i < d->items.len; i++) {
        if (keep_rest) vec_push(&out.items, d->items.data[i]);
        else { free(d->items.data[i].code); free(d->items.data[i].msg); }
    }
    for (int i = 0; i < out.items.len; i++) out.nerrors += out.items.data[i].level == DIAG_ERROR;
    vec_free(&d->items);
    vec_free(&ins->items);
    ins->nerrors = 0;
    *d = out;
}

static bool execute(DrvSession *s, void **bufs, int nbufs) {
    /* the pto-isa replay records blocks in run order; the golden run beside the simulation is the
     * first job of one of the runtime's workers, which then simulates too */
    int threads = s->ptocheck ? 1 : s->golden_beside ? host_threads(s->opt.threads) : s->opt.threads;
    RtOptions ro = { .target = s->opt.target, .threads = threads,
                     .hooks = &block_hooks,
                     .capture_deps = s->opt.capture_deps, .race_check = s->opt.race_check, .timing_only = s->opt.timing_only,
                     .first_job = s->golden_beside ? golden_job : NULL, .first_job_arg = s->golden_beside };
    RtResult res;
    memset(&res, 0, sizeof res);
    double t0 = base_now_seconds();
    bool ok = rt_run(s->prog, drv_entry_name(s), bufs, nbufs, &ro, run_block, s, &res, &s->diag);
    s->run.wall_seconds = base_now_seconds() - t0;
    s->run.ran = ok;
    s->run.tasks = res.tasks.len;
    for (int i = 0; i < res.tasks.len; i++) {
        const RtTaskInfo *t = &res.tasks.data[i];
        DrvTask d = { t->id, t->kernel, t->core, t->block_num, t->start, t->end };
        vec_push(&s->run.task_list, d);
    }
    s->run.edges = res.nedges;
    s->run.makespan_cycles = res.makespan_cycles;
    s->run.deps_json = res.deps_json;
    res.deps_json = NULL;
    for (int i = 0; i < res.races.len; i++) {          /* task-level races join the kernels' races */
        vec_push(&s->run.race_messages, res.races.data[i]);
        res.races.data[i] = NULL;
    }
    rt_result_free(&res);
    return ok;
}

/* Golden run and simulation at once: the golden run is the first job of a runtime worker thread
 * (RtOptions.first_job), which then simulates blocks too, so the thread that finishes first helps
 * the other instead of idling. Everything reported is what the serial order gives: the golden run's
 * diagnostics first, and when it fails, no simulation at all (its diagnostics dropped, its
 * statistics reset). The golden outputs stay in memory until the simulation ends (no spill). */
static bool run_overlapped(DrvSession *s, void **bufs, int nbufs, void **gold) {
    GoldenJob job = { .s = s, .gold = gold };
    diag_init(&job.diag);
    int mark = s->diag.items.len;
    s->golden_beside = &job;
    bool ok = execute(s, bufs, nbufs);
    s->golden_beside = NULL;
    if (!job.ran) golden_job(&job);   /* no worker thread could be had: after the simulation */
    if (!job.ok) drv_run_reset(s);
    diag_splice(&s->diag, mark, &job.diag, job.ok);
    diag_free(&job.diag);
    s->run.golden_seconds = job.seconds;
    return job.ok && ok;
}

bool drv_run(DrvSession *s, void **bufs, int nbufs) {
    if (!s->compiled && !drv_compile(s)) return false;
    drv_run_reset(s);
    s->diag_base = s->diag.items.len;
    if (nbufs != s->nparams) {
        diag_error(&s->diag, SPAN_NONE, "'%s' takes %d parameters, %d buffers given", drv_entry_name(s), s->nparams, nbufs);
        return false;
    }
    for (int i = 0; i < nbufs; i++)
        if (s->params[i].is_tensor && !bufs[i]) {
            diag_error(&s->diag, SPAN_NONE, "buffer for parameter '%s' is NULL", s->params[i].name);
            return false;
        }
    void **gold = s->opt.golden && !s->opt.timing_only ? golden_copies(s, bufs) : NULL;   /* timing-only: no data to compare */
    bool ok;
    if (gold && host_threads(s->opt.threads) > 1 && !s->opt.check_pto_isa) ok = run_overlapped(s, bufs, nbufs, gold);
    else {
        double t0 = base_now_seconds();
        ok = !gold || golden_run(s, gold, &s->diag);   /* first: the simulator trusts programs the interpreter checked */
        s->run.golden_seconds = base_now_seconds() - t0;
        if (s->opt.check_pto_isa && !s->opt.timing_only) s->ptocheck = pto_check_begin(s);
        ok = ok && execute(s, bufs, nbufs);
        if (s->ptocheck) pto_check_end(s);
    }
    GoldSpill sp = { 0 };
    if (ok && gold) golden_spill(s, gold, &sp);
    if (ok && gold) ok = compare(s, bufs, gold, &sp);
    for (int i = 0; gold && i < s->nparams; i++) free(gold[i]);
    free(gold);
    golden_spill_free(&sp);
    return ok;
}

/* Reads (output == false) or writes the bound .npy files. */
static bool bound_files(DrvSession *s, void **bufs, bool output) {
    char err[512];
    for (int i = 0; i < s->bindings.len; i++) {
        const DrvBinding *b = &s->bindings.data[i];
        if (b->output != output) continue;
        const DrvParam *p = &s->params[b->param];
        bool ok = output ? drv_npy_write(b->path, p, bufs[b->param], err, sizeof err)
                         : drv_npy_read(b->path, p, bufs[b->param], err, sizeof err);
        if (!ok) {
            diag_error(&s->diag, SPAN_NONE, "%s", err);
            return false;
        }
    }
    return true;
}

/* --threads: 0 is one per CPU */
static int host_threads(int threads) {
    if (threads > 0) return threads;
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n > 0 ? (int)n : 1;
}

bool drv_run_random(DrvSession *s) {
    if (!s->compiled && !drv_compile(s)) return false;
    void **bufs = calloc((size_t)s->nparams + 1, sizeof *bufs);
    uint64_t state = s->opt.seed;
    for (int i = 0; i < s->nparams; i++) {
        const DrvParam *p = &s->params[i];
        /* timing-only: the buffers are address keys, never touched, so calloc's pages are never made;
         * an input every element of which is filled needs no zeroing */
        bool fill = p->is_tensor && p->dir != PD_OUT && !s->opt.timing_only;
        size_t n = (size_t)(p->bytes ? p->bytes : 1);
        bufs[i] = fill ? base_malloc_big(n) : s->opt.timing_only ? calloc(1, n) : base_calloc_big(n);
        PTOC_ASSERT(bufs[i] != NULL, "out of memory allocating %lld bytes for '%s'", (long long)p->bytes, p->name);
        if (fill) {
            if (p->numel * dtype_bytes(p->dtype) < p->bytes) memset(bufs[i], 0, n);
            drv_fill_random_threads(bufs[i], p->dtype, p->numel, &state, host_threads(s->opt.threads));
        }
    }
    if (s->opt.timing_only && s->bindings.len) {   /* the CLI refuses these; the API learns it here */
        diag_error(&s->diag, SPAN_NONE, "a timing-only run reads and writes no data: .npy inputs / outputs (%s) cannot be bound",
                   s->bindings.data[0].path);
        for (int i = 0; i < s->nparams; i++) free(bufs[i]);
        free(bufs);
        return false;
    }
    bool golden = s->opt.golden;
    s->opt.golden = true;
    bool ok = bound_files(s, bufs, false) && drv_run(s, bufs, s->nparams);
    ok = ok && bound_files(s, bufs, true);
    s->opt.golden = golden;
    for (int i = 0; i < s->nparams; i++) free(bufs[i]);
    free(bufs);
    return ok;
}

bool drv_run_ok(const DrvSession *s) {
    const DrvRunStats *r = &s->run;
    return r->ran && (!r->compared || r->within_tol) && r->race_messages.len == 0 && r->sync_messages.len == 0 &&
           !(r->pto_isa_msg && r->pto_isa_match == 0);
}
