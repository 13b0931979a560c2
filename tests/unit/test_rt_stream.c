/* test_rt_stream — the streaming runtime (rt_sched.c, rt_live.c): tasks are scheduled while the
 * orchestration runs and retire once CONSUMED, so memory per task is bounded; retirement never
 * changes a result (the schedule with every record kept — race check, deps.json — is identical);
 * a full ring stalls the orchestrator until its oldest task is consumed (flow control, spec §7);
 * host threads (batches instead of streaming, every record kept) give the same schedule. */
#include "test.h"
#include "rt_build_util.h"

#include <pthread.h>
#include <stdlib.h>
#include <time.h>

#define DISPATCH 1480

static bool quick_run(void *ud, const RtKernelCall *c, int64_t *cycles, DiagSink *d) {
    (void)ud; (void)c; (void)d;
    *cycles = 10 + c->task_id % 7;   /* uneven durations: the order of completions matters */
    return true;
}

/* The two-phase form for host threads (RtOptions.threads > 1): the same cycles, nothing to report;
 * footprints unknown (every tensor argument counts whole), so only readers run early. */
static bool quick_exec(void *ud, const RtKernelCall *c, int64_t *cycles, void **record, DiagSink *d) {
    *record = NULL;
    return quick_run(ud, c, cycles, d);
}
static void quick_commit(void *ud, const RtKernelCall *c, void *record) { (void)ud; (void)c; (void)record; }
static const RtKernelHooks quick_hooks = { quick_exec, quick_commit, NULL };

static long status_kib(const char *key) {
    FILE *f = fopen("/proc/self/status", "r");
    char line[256];
    long v = -1;
    size_t n = strlen(key);
    while (f && fgets(line, sizeof line, f))
        if (strncmp(line, key, n) == 0) v = strtol(line + n, NULL, 10);
    if (f) fclose(f);
    return v;
}

/* for i in range(n): with scope: body(i) — returns the body list and the loop variable. */
static StmtList *loop_scope(Tb *t, StmtList *into, int64_t n, Var **iv) {
    *iv = ir_var_new(t->c, "i", ir_scalar_type(t->c, DT_INDEX));
    Stmt *loop = ir_for(t->c, *iv, ci(t, 0), ci(t, n), ci(t, 1), FK_SEQUENTIAL);
    ir_list_push(t->c, into, loop);
    return &scope(t, &loop->for_.body, false)->scope.body;
}

/* A chain of n INOUT tasks on c, one runtime scope per iteration. */
static void chain_program(Tb *t, int64_t n) {
    Var *c = param(t, "c", ten(t, DT_FP32, 4, 4), PD_OUT);
    Type *ts[1] = { c->type };
    ParamDir pd[1] = { PD_INOUT };
    Function *k = kernel(t, "k", FT_AIV, 1, ts, pd);
    Var *i;
    StmtList *body = loop_scope(t, &scope(t, t->body, false)->scope.body, n, &i);
    Expr *arg = ir_ref(c);
    const char *d[1] = { "inout" };
    call(t, body, NULL, k, &arg, 1, d);
}

/* 2M tasks run in bounded memory: the ring holds at most window - 1 of them, retired tasks' records
 * are reused, and nothing else grows per task (before retirement: ~0.9 KB a task, 1.8 GB here). */
#ifdef __SANITIZE_ADDRESS__
#define BOUNDED_TASKS 500000              /* ASan runs ~5x slower */
#else
#define BOUNDED_TASKS 2000000
#endif
TEST(test_bounded_memory) {
    const int64_t n = BOUNDED_TASKS;
    Tb t; tb_init(&t);
    chain_program(&t, n);
    static float bc[16];
    void *bufs[1] = { bc };
    RtOptions o = { .target = target_get(TGT_A2A3), .threads = 1, .timing_only = true, .no_task_list = true };
    RtResult r;
    long before = status_kib("VmRSS:");
    bool ok = rt_run(t.p, NULL, bufs, 1, &o, quick_run, NULL, &r, &t.diag);
    long peak = status_kib("VmHWM:");
    CHECK(ok);
    CHECK_EQ_INT(r.ntasks, n);
    CHECK_EQ_INT(r.tasks.len, 0);
    CHECK_EQ_INT(r.nedges, n - 1);                           /* the INOUT chain */
    int64_t want = 0;                                        /* each task starts when the previous ends */
    for (int64_t k = 0; k < n; k++) want += DISPATCH + 10 + k % 7;
    CHECK_EQ_INT(r.makespan_cycles, want);
    CHECK_MSG(peak - before < 48 * 1024, "peak RSS grew by %ld KiB for %lld tasks (bound: 48 MiB)", peak - before, (long long)n);
    rt_result_free(&r);
    tb_free(&t);
}

/* A mix that fills the rings many times over (window 16): a chain on c, independent readers of a,
 * readers of a tensor created once in the outer scope (creator edges: RETAIN claims on a task that
 * never retires), each with an explicit dependency on the same iteration's reader. */
static void mixed_program(Tb *t, int64_t n) {
    Var *a = param(t, "a", ten(t, DT_FP32, 4, 4), PD_IN);
    Var *c = param(t, "c", ten(t, DT_FP32, 4, 4), PD_OUT);
    Type *ts[1] = { c->type };
    ParamDir pd[1] = { PD_INOUT };
    Function *kc = kernel(t, "chain", FT_AIV, 1, ts, pd);
    Function *kr = kernel(t, "reader", FT_AIV, 1, ts, pd);
    Function *ku = kernel(t, "user", FT_AIC, 1, ts, pd);
    StmtList *outer = &scope(t, t->body, false)->scope.body;
    Var *x = ir_var_new(t->c, "x", ten(t, DT_FP32, 16, 16));
    ir_list_push(t->c, outer, ir_assign(t->c, x, create(t, 16, 16, DT_FP32)));
    Var *i;
    StmtList *body = loop_scope(t, outer, n, &i);
    const char *in[1] = { "input" }, *io[1] = { "inout" };
    Expr *ac = ir_ref(c), *aa = ir_ref(a), *ax = ir_ref(x);
    call(t, body, NULL, kc, &ac, 1, io);
    Var *rv = ir_var_new(t->c, "rv", a->type);
    call(t, body, rv, kr, &aa, 1, in);
    Expr *e = call(t, body, NULL, ku, &ax, 1, in);
    AttrVal l = { .kind = AV_LIST };
    l.items = ARENA_ARRAY(t->c->arena, AttrVal, 1);
    l.nitems = 1;
    l.items[0] = (AttrVal){ .kind = AV_EXPR, .expr = ir_ref(rv) };
    ir_attr_set(t->c, &e->call.attrs, "deps", l);
}

/* ... and host threads (which keep every record and run tasks in batches, not while orchestrating)
 * change nothing either, flow control included: modes 3 and 4 run with 2 and 4 threads. */
TEST(test_retirement_changes_nothing) {
    const int64_t n = 400;
    enum { NMODES = 5 };
    RtResult res[NMODES];
    for (int mode = 0; mode < NMODES; mode++) {   /* 0: records retire; 1: race check keeps them; 2: deps.json */
        Tb t; tb_init(&t);
        mixed_program(&t, n);
        static float ba[16], bc[16];
        void *bufs[2] = { ba, bc };
        RtOptions o = { .target = target_get(TGT_A2A3), .threads = mode == 3 ? 2 : mode == 4 ? 4 : 1, .task_window = 16,
                        .race_check = mode == 1, .capture_deps = mode == 2, .hooks = mode >= 3 ? &quick_hooks : NULL };
        CHECK(rt_run(t.p, NULL, bufs, 2, &o, quick_run, NULL, &res[mode], &t.diag));
        tb_free(&t);
    }
    CHECK_EQ_INT(res[0].ntasks, 1 + 3 * n);
    CHECK_EQ_INT(res[0].tasks.len, 1 + 3 * n);
    CHECK_EQ_INT(res[0].nedges, (n - 1) + n + n);           /* chain, creator edges, explicit deps */
    for (int mode = 1; mode < NMODES; mode++) {
        CHECK_EQ_INT(res[mode].nedges, res[0].nedges);
        CHECK_EQ_INT(res[mode].makespan_cycles, res[0].makespan_cycles);
        CHECK_EQ_INT(res[mode].tasks.len, res[0].tasks.len);
        int diff = 0;
        for (int k = 0; k < res[0].tasks.len && k < res[mode].tasks.len; k++) {
            const RtTaskInfo *p = &res[0].tasks.data[k], *q = &res[mode].tasks.data[k];
            diff += p->start != q->start || p->end != q->end || p->task_id != q->task_id || p->cycles != q->cycles;
        }
        CHECK_EQ_INT(diff, 0);
    }
    for (int mode = 0; mode < NMODES; mode++) rt_result_free(&res[mode]);
}

/* Flow control: with a window of 8, the 8th task of a ring waits until the ring's oldest task is
 * consumed, even though free cores exist; tasks on another ring do not wait. */
static void flow_control_run(int threads) {
    Tb t; tb_init(&t);
    Var *a = param(&t, "a", ten(&t, DT_FP32, 4, 4), PD_IN);
    Type *ts[1] = { a->type };
    ParamDir pd[1] = { PD_IN };
    Function *k = kernel(&t, "k", FT_AIV, 1, ts, pd);
    Var *i;
    StmtList *body = loop_scope(&t, &scope(&t, t.body, false)->scope.body, 12, &i);   /* depth 2: ring 2 */
    Expr *arg = ir_ref(a);
    const char *d[1] = { "input" };
    call(&t, body, NULL, k, &arg, 1, d);
    static float ba[16];
    void *bufs[1] = { ba };
    RtOptions o = { .target = target_get(TGT_A2A3), .threads = threads, .task_window = 8, .hooks = &quick_hooks };
    RtResult r;
    CHECK(rt_run(t.p, NULL, bufs, 1, &o, quick_run, NULL, &r, &t.diag));
    CHECK_EQ_INT(r.tasks.len, 12);
    for (int j = 0; j < 7; j++) CHECK_EQ_INT(r.tasks.data[j].start, DISPATCH);   /* independent: all at once */
    CHECK_EQ_INT(r.tasks.data[7].start, r.tasks.data[0].end + DISPATCH);          /* stalled on task 0 */
    CHECK_EQ_INT(r.tasks.data[8].start, r.tasks.data[1].end + DISPATCH);
    CHECK_EQ_INT(r.nedges, 0);
    rt_result_free(&r);
    tb_free(&t);
}

TEST(test_flow_control) {
    flow_control_run(1);
    flow_control_run(2);                          /* host threads stall the same way */
}

/* Tensors created per iteration (hidden allocation tasks, which take no time) and kernels, with a
 * window of 8, so flow control stalls many times: host threads (no drains while orchestrating; an
 * allocation that is ready ends at its submit) give the one-thread stalls and times. */
static void alloc_program_run(int threads, RtResult *r) {
    Tb t; tb_init(&t);
    Var *a = param(&t, "a", ten(&t, DT_FP32, 4, 4), PD_IN);
    Type *ts[1] = { a->type };
    ParamDir pd[1] = { PD_IN };
    Function *k = kernel(&t, "k", FT_AIV, 1, ts, pd);
    Var *i;
    StmtList *body = loop_scope(&t, &scope(&t, t.body, false)->scope.body, 24, &i);
    Var *y = ir_var_new(t.c, "y", ten(&t, DT_FP32, 4, 4));             /* nothing retains it */
    ir_list_push(t.c, body, ir_assign(t.c, y, create(&t, 4, 4, DT_FP32)));
    Var *x = ir_var_new(t.c, "x", ten(&t, DT_FP32, 4, 4));
    ir_list_push(t.c, body, ir_assign(t.c, x, create(&t, 4, 4, DT_FP32)));
    Expr *arg = ir_ref(x);
    const char *d[1] = { "input" };
    call(&t, body, NULL, k, &arg, 1, d);
    Expr *arg2 = ir_ref(a);
    call(&t, body, NULL, k, &arg2, 1, d);
    static float ba[16];
    void *bufs[1] = { ba };
    RtOptions o = { .target = target_get(TGT_A2A3), .threads = threads, .task_window = 8, .hooks = &quick_hooks };
    CHECK(rt_run(t.p, NULL, bufs, 1, &o, quick_run, NULL, r, &t.diag));
    tb_free(&t);
}

TEST(test_threads_alloc_retire) {
    RtResult r1, r2;
    alloc_program_run(1, &r1);
    alloc_program_run(2, &r2);
    CHECK(r1.tasks.len >= 72);
    CHECK_EQ_INT(r2.tasks.len, r1.tasks.len);
    CHECK_EQ_INT(r2.makespan_cycles, r1.makespan_cycles);
    int diff = 0;
    for (int k = 0; k < r1.tasks.len && k < r2.tasks.len; k++)
        diff += r1.tasks.data[k].start != r2.tasks.data[k].start || r1.tasks.data[k].end != r2.tasks.data[k].end;
    CHECK_EQ_INT(diff, 0);
    rt_result_free(&r1);
    rt_result_free(&r2);
}

/* RtOptions.first_job (the driver's golden run beside the simulation): with host threads it runs
 * exactly once, on a worker, before rt_run returns — also when the run fails at once — while the
 * runtime's thread simulates (the job waits until a kernel has run); the schedule is unchanged. */
typedef struct FirstJob { int runs, kernels_seen; pthread_t caller, ran_on; } FirstJob;
static int first_job_kernels;   /* kernels executed so far (atomic) */
static bool counting_exec(void *ud, const RtKernelCall *c, int64_t *cycles, void **record, DiagSink *d) {
    __atomic_fetch_add(&first_job_kernels, 1, __ATOMIC_SEQ_CST);
    return quick_exec(ud, c, cycles, record, d);
}
static const RtKernelHooks counting_hooks = { counting_exec, quick_commit, NULL };
static void first_job(void *arg) {
    FirstJob *j = arg;
    __atomic_fetch_add(&j->runs, 1, __ATOMIC_SEQ_CST);
    j->ran_on = pthread_self();
    for (int spin = 0; spin < 2000 && !__atomic_load_n(&first_job_kernels, __ATOMIC_SEQ_CST); spin++) nanosleep(&(struct timespec){ 0, 1000000 }, NULL);
    j->kernels_seen = __atomic_load_n(&first_job_kernels, __ATOMIC_SEQ_CST);
}

TEST(test_first_job) {
    for (int threads = 2; threads <= 4; threads += 2) {
        Tb t; tb_init(&t);
        chain_program(&t, 40);
        static float bc[16];
        void *bufs[1] = { bc };
        FirstJob j = { 0 };
        j.caller = pthread_self();
        first_job_kernels = 0;
        RtOptions o = { .target = target_get(TGT_A2A3), .threads = threads, .hooks = &counting_hooks,
                        .first_job = first_job, .first_job_arg = &j };
        RtResult r, r1;
        CHECK(rt_run(t.p, NULL, bufs, 1, &o, quick_run, NULL, &r, &t.diag));
        CHECK_EQ_INT(j.runs, 1);
        CHECK(!pthread_equal(j.ran_on, j.caller));
        CHECK(j.kernels_seen > 0);                 /* the runtime's thread simulated meanwhile */
        CHECK_EQ_INT(first_job_kernels, 40);
        RtOptions o1 = { .target = target_get(TGT_A2A3), .threads = 1 };
        CHECK(rt_run(t.p, NULL, bufs, 1, &o1, quick_run, NULL, &r1, &t.diag));
        CHECK_EQ_INT(r.makespan_cycles, r1.makespan_cycles);
        CHECK_EQ_INT(r.tasks.len, r1.tasks.len);
        rt_result_free(&r);
        rt_result_free(&r1);
        FirstJob k = { 0 };                        /* a run that fails at once still runs it */
        o.first_job_arg = &k;
        first_job_kernels = 1;                     /* nothing to wait for */
        CHECK(!rt_run(t.p, "no_such_function", bufs, 1, &o, quick_run, NULL, &r, &t.diag));
        CHECK_EQ_INT(k.runs, 1);
        rt_result_free(&r);
        tb_free(&t);
    }
}

int main(void) {
    RUN(test_first_job);
    RUN(test_threads_alloc_retire);
    RUN(test_flow_control);
    RUN(test_retirement_changes_nothing);
    RUN(test_bounded_memory);
    return test_summary();
}
