/* timeline — report/timeline.json: what every simulated core's pipes did during the run, as a Chrome
 * trace (chrome://tracing, ui.perfetto.dev), so a user can see e.g. the cube (M) overlap the loads
 * (MTE2) on an AIC, or the AIC of a mixed task overlap its AIV lanes.
 * Requires: a run whose kernels were simulated with SimOptions.trace (run.c turns tracing on only
 *   when the output tree is kept, drv_timeline_on: ordinary runs do not pay for it).
 * Produces: process per core ("AIC 0", "AIV 3"; pid 1 + AIC index, 1 + num_aic + AIV index), thread
 *   per pipe ("MTE2", "M", "FIX", "V", ...; tid = the Pipe value) plus a "kernel" thread with one
 *   event per block, and process 0 "tasks" with one event per runtime task (thread per core kind).
 *   ts / dur in microseconds at the target clock; args name the kernel, task, block and instruction.
 * Does: per block, shifts the kernel's trace (kernel-relative cycles) by the block's start cycle
 *   and merges back-to-back instructions of one pipe into one busy span (name: the op when all its
 *   non-sync instructions share it, else "busy" with args.op the first; args.insts counts them), which keeps the file small. At most
 *   DRV_TIMELINE_CAP spans are kept; beyond that the file says how many were dropped (otherData).
 *   Output is sorted (pid, tid, start, task, block), so two runs write identical files. */
#include "driver/driver_int.h"

#include <stdlib.h>
#include <string.h>

#define DRV_TIMELINE_CAP 200000
#define TL_TID_KERNEL 100             /* the per-core row of whole blocks */

typedef struct TlSpan {
    CoreKind kind;
    int core;                         /* absolute AIC / AIV index */
    int tid;                          /* Pipe value, or TL_TID_KERNEL */
    int64_t start, end;               /* run-wide cycles */
    const char *kernel, *op;
    int task;
    int64_t block;
    int insts;
    bool op_sync;                     /* op is a sync instruction's: a real op seen later replaces it */
    bool several;                     /* the span's (non-sync) instructions have several ops */
} TlSpan;

struct DrvTimeline {
    VEC(TlSpan) spans;
    int64_t dropped;                  /* spans not kept past the cap */
};

bool drv_timeline_on(const DrvSession *s) { return s->keep_dumps; }

int drv_timeline_core(const RtKernelCall *call, const Kernel *k) {
    if (call->core != RT_CALL_MIX) return call->core_index;
    return k->core == CORE_AIC ? call->core_index : 2 * call->core_index + k->lane;
}

void drv_timeline_reset(DrvSession *s) {
    if (!s->timeline) return;
    vec_free(&s->timeline->spans);
    free(s->timeline);
    s->timeline = NULL;
}

static const char *inst_op(const MirInst *i) { return i->op == MI_VOP ? mir_vop_pto(i->vop) : mir_op_name(i->op); }
static bool inst_sync(const MirInst *i) { return i->op == MI_SET_FLAG || i->op == MI_WAIT_FLAG || i->op == MI_BARRIER; }

/* Names a merged span by its work: the flags set between two loads do not turn "tload" into "busy". */
static void tl_merge_op(TlSpan *sp, const MirInst *i) {
    const char *op = inst_op(i);
    if (inst_sync(i)) return;
    if (sp->op_sync) { sp->op = op; sp->op_sync = false; }
    else if (strcmp(sp->op, op)) sp->several = true;
}

static void tl_push(DrvTimeline *tl, const TlSpan *sp) {
    if (tl->spans.len >= DRV_TIMELINE_CAP) { tl->dropped++; return; }
    vec_push(&tl->spans, *sp);
}

void drv_timeline_add(DrvSession *s, const RtKernelCall *call, const Kernel *k, CoreKind kind, int core_index,
                      const SimResult *r) {
    pthread_mutex_lock(&s->lock);
    if (!s->timeline) s->timeline = calloc(1, sizeof *s->timeline);
    DrvTimeline *tl = s->timeline;
    int64_t base = call->start_cycle;
    TlSpan whole = { kind, core_index, TL_TID_KERNEL, base, base + r->cycles, k->name, NULL, call->task_id,
                     call->block_idx, (int)(r->insts < INT32_MAX ? r->insts : INT32_MAX), false, false };
    tl_push(tl, &whole);
    TlSpan open[PIPE_COUNT];
    bool has[PIPE_COUNT] = { false };
    for (int i = 0; i < r->trace.len; i++) {
        const SimTraceEvent *e = &r->trace.data[i];
        if (e->end <= e->start || (int)e->pipe < 0 || (int)e->pipe >= PIPE_COUNT) continue;   /* a wait: no time */
        int p = (int)e->pipe;
        if (has[p] && base + e->start <= open[p].end) {       /* back to back on the pipe: one busy span */
            if (base + e->end > open[p].end) open[p].end = base + e->end;
            tl_merge_op(&open[p], e->inst);
            open[p].insts++;
            continue;
        }
        if (has[p]) tl_push(tl, &open[p]);
        open[p] = (TlSpan){ kind, core_index, p, base + e->start, base + e->end, k->name, inst_op(e->inst),
                            call->task_id, call->block_idx, 1, inst_sync(e->inst), false };
        has[p] = true;
    }
    for (int p = 0; p < PIPE_COUNT; p++)
        if (has[p]) tl_push(tl, &open[p]);
    pthread_mutex_unlock(&s->lock);
}

/* ---- writing ---- */
static int tl_pid(const DrvSession *s, CoreKind kind, int core) {
    return 1 + (kind == CORE_AIC ? core : s->opt.target->num_aic + core);
}

static int tl_cmp(const void *a, const void *b) {
    const TlSpan *x = a, *y = b;
    if (x->kind != y->kind) return x->kind < y->kind ? -1 : 1;
    if (x->core != y->core) return x->core < y->core ? -1 : 1;
    if (x->tid != y->tid) return x->tid < y->tid ? -1 : 1;
    if (x->start != y->start) return x->start < y->start ? -1 : 1;
    if (x->task != y->task) return x->task < y->task ? -1 : 1;
    return x->block < y->block ? -1 : x->block > y->block;
}

/* Rows in data-flow order: loads, cube, fixpipe, vector, stores, scalar, then the rest. */
static int tl_sort_index(int tid) {
    static const int order[] = { PIPE_MTE2, PIPE_MTE1, PIPE_M, PIPE_FIX, PIPE_V, PIPE_V2, PIPE_MTE3,
                                 PIPE_MTE4, PIPE_MTE5, PIPE_S, PIPE_ALL };
    if (tid == TL_TID_KERNEL) return -1;
    for (int i = 0; i < (int)(sizeof order / sizeof order[0]); i++)
        if (order[i] == tid) return i;
    return 99;
}

static void tl_meta(JsonW *w, const char *what, int pid, int tid, const char *name, int sort) {
    json_obj_begin(w);
    json_key(w, "name"), json_str(w, what);
    json_key(w, "ph"), json_str(w, "M");
    json_key(w, "pid"), json_int(w, pid);
    if (tid >= 0) json_key(w, "tid"), json_int(w, tid);
    json_key(w, "args"), json_obj_begin(w);
    if (name) json_key(w, "name"), json_str(w, name);
    else json_key(w, "sort_index"), json_int(w, sort);
    json_obj_end(w);
    json_obj_end(w);
}

static void tl_event_head(JsonW *w, const char *name, int pid, int tid, int64_t start, int64_t end, double per_us) {
    json_obj_begin(w);
    json_key(w, "name"), json_str(w, name);
    json_key(w, "ph"), json_str(w, "X");
    json_key(w, "pid"), json_int(w, pid);
    json_key(w, "tid"), json_int(w, tid);
    json_key(w, "ts"), json_num(w, (double)start / per_us);
    json_key(w, "dur"), json_num(w, (double)(end - start) / per_us);
}

/* Process 0: one event per runtime task, one thread per core kind (as the timeline had before the
 * per-core rows). */
static void tl_tasks(const DrvSession *s, JsonW *w, double per_us) {
    static const char *kinds[] = { "aic", "aiv", "mix", "none" };
    tl_meta(w, "process_name", 0, -1, "tasks", 0);
    tl_meta(w, "process_sort_index", 0, -1, NULL, -1);
    for (int k = 0; k < 4; k++) tl_meta(w, "thread_name", 0, k, kinds[k], 0);
    for (int i = 0; i < s->run.task_list.len; i++) {
        const DrvTask *t = &s->run.task_list.data[i];
        int tid = 3;
        for (int k = 0; k < 3; k++)
            if (t->core && !strcmp(t->core, kinds[k])) tid = k;
        tl_event_head(w, t->kernel ? t->kernel : "?", 0, tid, t->start, t->end, per_us);
        json_key(w, "args"), json_obj_begin(w);
        json_key(w, "task"), json_int(w, t->id);
        json_key(w, "core"), json_str(w, t->core ? t->core : "?");
        json_key(w, "block_num"), json_int(w, t->block_num);
        json_key(w, "start_cycles"), json_int(w, t->start);
        json_key(w, "end_cycles"), json_int(w, t->end);
        json_obj_end(w);
        json_obj_end(w);
    }
}

/* Metadata of the core processes and pipe threads that appear (spans sorted by core, then pipe). */
static void tl_core_meta(const DrvSession *s, JsonW *w, const TlSpan *sp, int n) {
    for (int i = 0; i < n; i++) {
        bool new_core = i == 0 || sp[i].kind != sp[i - 1].kind || sp[i].core != sp[i - 1].core;
        int pid = tl_pid(s, sp[i].kind, sp[i].core);
        if (new_core) {
            char name[32];
            snprintf(name, sizeof name, "%s %d", sp[i].kind == CORE_AIC ? "AIC" : "AIV", sp[i].core);
            tl_meta(w, "process_name", pid, -1, name, 0);
            tl_meta(w, "process_sort_index", pid, -1, NULL, pid);
        }
        if (new_core || sp[i].tid != sp[i - 1].tid) {
            tl_meta(w, "thread_name", pid, sp[i].tid, sp[i].tid == TL_TID_KERNEL ? "kernel" : mir_pipe_name((Pipe)sp[i].tid), 0);
            tl_meta(w, "thread_sort_index", pid, sp[i].tid, NULL, tl_sort_index(sp[i].tid));
        }
    }
}

static void tl_spans(const DrvSession *s, JsonW *w, const TlSpan *sp, int n, double per_us) {
    for (int i = 0; i < n; i++) {
        const TlSpan *x = &sp[i];
        const char *name = x->tid == TL_TID_KERNEL ? x->kernel : x->several ? "busy" : x->op;
        tl_event_head(w, name, tl_pid(s, x->kind, x->core), x->tid, x->start, x->end, per_us);
        json_key(w, "args"), json_obj_begin(w);
        json_key(w, "kernel"), json_str(w, x->kernel);
        json_key(w, "task"), json_int(w, x->task);
        json_key(w, "block"), json_int(w, x->block);
        if (x->tid != TL_TID_KERNEL) json_key(w, "op"), json_str(w, x->op);
        if (x->several) json_key(w, "several_ops"), json_bool(w, true);
        json_key(w, "insts"), json_int(w, x->insts);
        json_key(w, "start_cycles"), json_int(w, x->start);
        json_key(w, "end_cycles"), json_int(w, x->end);
        json_obj_end(w);
        json_obj_end(w);
    }
}

void drv_timeline_json(const DrvSession *s, StrBuf *out) {
    const DrvTimeline *tl = s->timeline;
    int n = tl ? tl->spans.len : 0;
    TlSpan *sp = malloc(sizeof *sp * (size_t)(n ? n : 1));
    if (n) memcpy(sp, tl->spans.data, sizeof *sp * (size_t)n);
    qsort(sp, (size_t)n, sizeof *sp, tl_cmp);
    double per_us = s->opt.target->clock_ghz * 1000.0;      /* cycles per microsecond */
    JsonW w;
    json_init(&w, out);
    json_obj_begin(&w);
    json_key(&w, "displayTimeUnit"), json_str(&w, "ns");
    json_key(&w, "otherData"), json_obj_begin(&w);
    json_key(&w, "generator"), json_str(&w, "ptoc");
    json_key(&w, "target"), json_str(&w, s->opt.target->name);
    json_key(&w, "clock_ghz"), json_num(&w, s->opt.target->clock_ghz);
    json_key(&w, "makespan_cycles"), json_int(&w, s->run.makespan_cycles);
    json_key(&w, "core_spans"), json_int(&w, n);
    if (tl && tl->dropped) {
        char note[160];
        snprintf(note, sizeof note, "per-core rows capped at %d spans: %lld later spans are not shown",
                 DRV_TIMELINE_CAP, (long long)tl->dropped);
        json_key(&w, "truncated"), json_str(&w, note);
    }
    json_obj_end(&w);
    json_key(&w, "traceEvents"), json_arr_begin(&w);
    tl_tasks(s, &w, per_us);
    tl_core_meta(s, &w, sp, n);
    tl_spans(s, &w, sp, n, per_us);
    json_arr_end(&w);
    json_obj_end(&w);
    sb_putc(out, '\n');
    free(sp);
}
