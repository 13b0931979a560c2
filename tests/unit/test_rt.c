/* test_rt — the task runtime: dependency rows of spec §5.1 (creator, tensormap, INOUT chains and
 * COVERED deletion, OUTPUT_EXISTING without WAW, NO_DEP, OUTPUT create-infos), MANUAL scopes and
 * explicit deps, AUTO inside MANUAL, SPMD blocks and waves, slice overlap (§5.3), scheduling in
 * simulated time, staging of strided views, deps.json shape (§13).
 * Programs are built with the IR builders and run with a fake kernel callback. */
#include "rt/rt_internal.h"
#include "test.h"
#include "rt_build_util.h"

/* ---------------------------------------------------------------- fake kernels */
typedef struct Fake {
    int ncalls;
    const char *names[64];
    int64_t blocks[64], block_num[64];
    uint64_t scalars[64];
    int nscalars[64];
    int scalar_param[64];          /* index in params[] of the first scalar, -1 if none */
    int64_t cycles;
} Fake;

/* Records the call and writes marker (task index + 1 + block_idx) into element block_idx of the last
 * tensor argument (float32). */
static bool fake_run(void *ud, const RtKernelCall *c, int64_t *cycles, DiagSink *d) {
    Fake *f = ud;
    if (f->ncalls < 64) {
        f->names[f->ncalls] = c->kernel->name;
        f->blocks[f->ncalls] = c->block_idx;
        f->block_num[f->ncalls] = c->block_num;
        f->nscalars[f->ncalls] = c->nscalars;
        f->scalars[f->ncalls] = c->nscalars ? c->scalars[0] : 0;
        f->scalar_param[f->ncalls] = -1;
        for (int i = c->nparams - 1; i >= 0; i--)
            if ((const uint64_t *)c->params[i] >= c->scalars && (const uint64_t *)c->params[i] < c->scalars + c->nscalars &&
                *(const uint64_t *)c->params[i] == c->scalars[0])
                f->scalar_param[f->ncalls] = i;
    }
    f->ncalls++;
    if (c->nargs && c->views[c->nargs - 1].dtype == DT_FP32)
        ((float *)c->args[c->nargs - 1])[c->block_idx] = (float)(c->task_id + 1 + c->block_idx);
    *cycles = f->cycles;
    return true;
}

static bool run(Tb *t, void **bufs, int n, Fake *f, RtResult *r) {
    RtOptions o = { .target = target_get(TGT_A2A3), .threads = 1, .capture_deps = true };
    if (!f->cycles) f->cycles = 1000;
    return rt_run(t->p, NULL, bufs, n, &o, fake_run, f, r, &t->diag);
}

/* ---------------------------------------------------------------- minimal JSON validator */
static const char *js_value(const char *p);
static const char *js_ws(const char *p) { while (*p == ' ' || *p == '\n' || *p == '\t' || *p == '\r') p++; return p; }
static const char *js_string(const char *p) {
    if (*p != '"') return NULL;
    for (p++; *p && *p != '"'; p++) if (*p == '\\') p++;
    return *p == '"' ? p + 1 : NULL;
}
static const char *js_seq(const char *p, char close, bool obj) {
    p = js_ws(p + 1);
    if (*p == close) return p + 1;
    for (;;) {
        if (obj) { p = js_string(js_ws(p)); if (!p) return NULL; p = js_ws(p); if (*p++ != ':') return NULL; }
        p = js_value(js_ws(p));
        if (!p) return NULL;
        p = js_ws(p);
        if (*p == close) return p + 1;
        if (*p++ != ',') return NULL;
    }
}
static const char *js_value(const char *p) {
    p = js_ws(p);
    if (*p == '{') return js_seq(p, '}', true);
    if (*p == '[') return js_seq(p, ']', false);
    if (*p == '"') return js_string(p);
    if (!strncmp(p, "true", 4)) return p + 4;
    if (!strncmp(p, "false", 5)) return p + 5;
    if (!strncmp(p, "null", 4)) return p + 4;
    const char *s = p;
    while (*p == '-' || *p == '+' || *p == '.' || *p == 'e' || *p == 'E' || (*p >= '0' && *p <= '9')) p++;
    return p > s ? p : NULL;
}
static bool json_valid(const char *s) { const char *e = s ? js_value(s) : NULL; return e && *js_ws(e) == 0; }

#define DISPATCH 1480

/* ---------------------------------------------------------------- tests */
/* The single-matmul program of ir_and_passes.md §13. */
TEST(test_single_matmul) {
    Tb t; tb_init(&t);
    Var *a = param(&t, "a", ten(&t, DT_FP16, 128, 512), PD_IN);
    Var *b = param(&t, "b", ten(&t, DT_FP16, 512, 128), PD_IN);
    Var *c = param(&t, "c", ten(&t, DT_FP32, 128, 128), PD_OUT);
    Type *ts[3] = { a->type, b->type, c->type };
    ParamDir pd[3] = { PD_IN, PD_IN, PD_OUT };
    Function *k = kernel(&t, "matmul_incore_0", FT_AIC, 3, ts, pd);
    Stmt *sc = scope(&t, t.body, false);
    Var *out = ir_var_new(t.c, "c__ssa_v0", c->type);
    Expr *args[3] = { ir_ref(a), ir_ref(b), ir_ref(c) };
    const char *dirs[3] = { "input", "input", "output_existing" };
    call(&t, &sc->scope.body, out, k, args, 3, dirs);
    Expr *rv = ir_ref(out);
    ir_list_push(t.c, t.body, ir_return(t.c, &rv, 1));

    static uint16_t ba[128 * 512], bb[512 * 128];
    static float bc[128 * 128];
    void *bufs[3] = { ba, bb, bc };
    Fake f = {0};
    RtResult r;
    CHECK(run(&t, bufs, 3, &f, &r));
    CHECK_EQ_INT(r.tasks.len, 1);
    CHECK_EQ_INT(r.nedges, 0);
    CHECK_EQ_INT(f.ncalls, 1);
    CHECK_EQ_STR(r.tasks.data[0].kernel, "matmul_incore_0");
    CHECK_EQ_STR(r.tasks.data[0].core, "aic");
    CHECK_EQ_INT(r.tasks.data[0].func_id, 0);
    CHECK_EQ_INT(r.tasks.data[0].task_id, 1ull << 32);          /* ring 1 (scope depth 1), local 0 */
    CHECK_EQ_INT(r.makespan_cycles, DISPATCH + 1000);
    CHECK_EQ_INT(r.tasks.data[0].start, DISPATCH);
    CHECK_NEAR(bc[0], 1.0, 0);                                   /* the kernel wrote the caller buffer */
    CHECK(json_valid(r.deps_json));
    CHECK_EQ_INT(count_sub(r.deps_json, "\"type\":\"INPUT\""), 2);
    CHECK_EQ_INT(count_sub(r.deps_json, "\"type\":\"OUTPUT_EXISTING\""), 1);
    CHECK_CONTAINS(r.deps_json, "\"edges\":[]");
    CHECK_CONTAINS(r.deps_json, "\"task_id\":\"4294967296\"");
    CHECK_CONTAINS(r.deps_json, "\"kernel_ids\":[0,-1,-1]");
    CHECK_CONTAINS(r.deps_json, "\"scope\":\"auto\"");
    CHECK_CONTAINS(r.deps_json, "\"shape\":[128,512]");
    CHECK_CONTAINS(r.deps_json, "\"strides\":[512,1]");
    CHECK_EQ_INT(count_sub(r.deps_json, "\"buffer_addr\""), 3);
    CHECK_CONTAINS(r.deps_json, "\"buffer_numel\":\"16384\"");
    rt_result_free(&r);
    tb_free(&t);
}

/* Split-K anti-pattern: zero_init then 4 INOUT tasks on c form a serial chain of tensormap edges;
 * each INOUT covers (and deletes) the previous entry, so no task waits on two writers. */
TEST(test_splitk_chain) {
    Tb t; tb_init(&t);
    Var *c = param(&t, "c", ten(&t, DT_FP32, 64, 64), PD_OUT);
    Type *ts[1] = { c->type };
    ParamDir pout[1] = { PD_OUT }, pio[1] = { PD_INOUT };
    Function *zi = kernel(&t, "zero_init", FT_AIV, 1, ts, pout);
    Function *sk = kernel(&t, "split_k", FT_AIC, 1, ts, pio);
    Stmt *sc = scope(&t, t.body, false);
    Expr *arg = ir_ref(c);
    const char *d_oe[1] = { "output_existing" }, *d_io[1] = { "inout" };
    call(&t, &sc->scope.body, NULL, zi, &arg, 1, d_oe);
    Var *ks = ir_var_new(t.c, "ks", ir_scalar_type(t.c, DT_INDEX));
    Stmt *loop = ir_for(t.c, ks, ci(&t, 0), ci(&t, 4), ci(&t, 1), FK_PARALLEL);
    ir_list_push(t.c, &sc->scope.body, loop);
    call(&t, &loop->for_.body, NULL, sk, &arg, 1, d_io);

    static float bc[64 * 64];
    void *bufs[1] = { bc };
    Fake f = {0};
    RtResult r;
    CHECK(run(&t, bufs, 1, &f, &r));
    CHECK_EQ_INT(r.tasks.len, 5);
    CHECK_EQ_INT(r.nedges, 4);
    CHECK_EQ_INT(count_sub(r.deps_json, "\"source\":\"tensormap\""), 4);
    CHECK_EQ_INT(count_sub(r.deps_json, "\"overlap\":\"covered\""), 4);
    CHECK_EQ_INT(count_sub(r.deps_json, "\"source\":\"creator\""), 0);
    for (int i = 1; i < 5 && r.tasks.len == 5; i++) {
        CHECK_EQ_INT(r.tasks.data[i].start, r.tasks.data[i - 1].end + DISPATCH);
        CHECK_EQ_INT(r.tasks.data[i].func_id, 1);
    }
    CHECK_EQ_INT(r.makespan_cycles, 5 * (DISPATCH + 1000));
    CHECK_EQ_STR(r.tasks.data[0].core, "aiv");
    CHECK_CONTAINS(r.deps_json, "\"flags\":[\"wait\"]");
    CHECK(json_valid(r.deps_json));
    rt_result_free(&r);
    tb_free(&t);
}

/* Builds: one scope (manual or not) with w = writer(c) [dir_w], then reader(c) [dir_r]; c external
 * or, when created, from tensor.create. */
TEST(test_output_existing_no_waw) {
    Tb t; tb_init(&t);
    Var *c = param(&t, "c", ten(&t, DT_FP32, 16, 16), PD_OUT);
    two_tasks(&t, FT_AIV, c, "output_existing", "output_existing", false, false);
    static float bc[256];
    void *bufs[1] = { bc };
    Fake f = {0};
    RtResult r;
    CHECK(run(&t, bufs, 1, &f, &r));
    CHECK_EQ_INT(r.tasks.len, 2);
    CHECK_EQ_INT(r.nedges, 0);                       /* no write-after-write edge */
    CHECK_EQ_INT(r.tasks.data[1].start, DISPATCH);   /* both run at once on two AIV cores */
    CHECK_EQ_INT(r.makespan_cycles, DISPATCH + 1000);
    rt_result_free(&r);
    tb_free(&t);
}

TEST(test_input_after_output_existing) {
    Tb t; tb_init(&t);
    Var *c = param(&t, "c", ten(&t, DT_FP32, 16, 16), PD_OUT);
    two_tasks(&t, FT_AIV, c, "output_existing", "input", false, false);
    static float bc[256];
    void *bufs[1] = { bc };
    Fake f = {0};
    RtResult r;
    CHECK(run(&t, bufs, 1, &f, &r));
    CHECK_EQ_INT(r.nedges, 1);
    CHECK_EQ_INT(count_sub(r.deps_json, "\"source\":\"tensormap\""), 1);
    CHECK_CONTAINS(r.deps_json, "\"flags\":[\"wait\"]");
    CHECK_CONTAINS(r.deps_json, "\"arg\":0");
    CHECK_CONTAINS(r.deps_json, "\"overlap\":\"covered\"");
    CHECK_EQ_INT(r.tasks.data[1].start, r.tasks.data[0].end + DISPATCH);
    rt_result_free(&r);
    tb_free(&t);
}

TEST(test_write_after_read_untracked) {
    Tb t; tb_init(&t);
    Var *c = param(&t, "c", ten(&t, DT_FP32, 16, 16), PD_OUT);
    two_tasks(&t, FT_AIV, c, "input", "inout", false, false);      /* reader first, then a writer */
    static float bc[256];
    void *bufs[1] = { bc };
    Fake f = {0};
    RtResult r;
    CHECK(run(&t, bufs, 1, &f, &r));
    CHECK_EQ_INT(r.nedges, 0);                               /* readers do not register */
    rt_result_free(&r);
    tb_free(&t);
}

TEST(test_no_dep) {
    Tb t; tb_init(&t);
    Var *c = param(&t, "c", ten(&t, DT_FP32, 16, 16), PD_OUT);
    two_tasks(&t, FT_AIV, c, "output_existing", "no_dep", false, false);
    static float bc[256];
    void *bufs[1] = { bc };
    Fake f = {0};
    RtResult r;
    CHECK(run(&t, bufs, 1, &f, &r));
    CHECK_EQ_INT(r.nedges, 0);                               /* external: no creator, no lookup */
    CHECK_CONTAINS(r.deps_json, "\"type\":\"NO_DEP\"");
    rt_result_free(&r);
    tb_free(&t);

    /* created tensor: NO_DEP still gets the creator edge (WAIT|RETAIN) but no tensormap edge */
    tb_init(&t);
    Var *x = ir_var_new(t.c, "x", ten(&t, DT_FP32, 16, 16));
    ir_list_push(t.c, t.body, ir_assign(t.c, x, create(&t, 16, 16, DT_FP32)));
    two_tasks(&t, FT_AIV, x, "output_existing", "no_dep", false, false);
    Fake f2 = {0};
    CHECK(run(&t, NULL, 0, &f2, &r));
    CHECK_EQ_INT(r.tasks.len, 3);                            /* alloc_tensors + writer + reader */
    CHECK_EQ_STR(r.tasks.data[0].kernel, "alloc_tensors");
    CHECK_EQ_STR(r.tasks.data[0].core, "none");
    CHECK_EQ_INT(r.nedges, 2);                               /* alloc->writer, alloc->reader */
    CHECK_EQ_INT(count_sub(r.deps_json, "\"source\":\"creator\""), 2);
    CHECK_EQ_INT(count_sub(r.deps_json, "\"source\":\"tensormap\""), 0);
    CHECK_EQ_INT(count_sub(r.deps_json, "\"flags\":[\"wait\",\"retain\"]"), 2);
    CHECK_EQ_INT(r.tasks.data[2].start, DISPATCH);            /* reader does not wait for the writer */
    CHECK_EQ_INT(r.tasks.data[0].task_id, 0);                 /* created at depth 0: ring 0 */
    rt_result_free(&r);
    tb_free(&t);
}

TEST(test_manual_scope) {
    Tb t; tb_init(&t);
    Var *c = param(&t, "c", ten(&t, DT_FP32, 16, 16), PD_OUT);
    two_tasks(&t, FT_AIV, c, "output_existing", "input", true, false);
    static float bc[256];
    void *bufs[1] = { bc };
    Fake f = {0};
    RtResult r;
    CHECK(run(&t, bufs, 1, &f, &r));
    CHECK_EQ_INT(r.nedges, 0);
    CHECK_EQ_INT(count_sub(r.deps_json, "\"scope\":\"manual\""), 2);
    rt_result_free(&r);
    tb_free(&t);

    /* explicit dependency inside MANUAL */
    tb_init(&t);
    c = param(&t, "c", ten(&t, DT_FP32, 16, 16), PD_OUT);
    two_tasks(&t, FT_AIV, c, "output_existing", "input", true, true);
    Fake f2 = {0};
    CHECK(run(&t, bufs, 1, &f2, &r));
    CHECK_EQ_INT(r.nedges, 1);
    CHECK_CONTAINS(r.deps_json, "\"source\":\"explicit\"");
    CHECK_CONTAINS(r.deps_json, "\"arg\":-1");
    CHECK_EQ_INT(r.tasks.data[1].start, r.tasks.data[0].end + DISPATCH);
    rt_result_free(&r);
    tb_free(&t);

    /* created tensor in MANUAL: even the creator edge is skipped */
    tb_init(&t);
    Var *x = ir_var_new(t.c, "x", ten(&t, DT_FP32, 16, 16));
    ir_list_push(t.c, t.body, ir_assign(t.c, x, create(&t, 16, 16, DT_FP32)));
    two_tasks(&t, FT_AIV, x, "output_existing", "input", true, false);
    Fake f3 = {0};
    CHECK(run(&t, NULL, 0, &f3, &r));
    CHECK_EQ_INT(r.nedges, 0);
    rt_result_free(&r);
    tb_free(&t);
}

TEST(test_auto_inside_manual) {
    Tb t; tb_init(&t);
    Var *c = param(&t, "c", ten(&t, DT_FP32, 16, 16), PD_OUT);
    Stmt *m = scope(&t, t.body, true);
    Stmt *inner_manual = scope(&t, &m->scope.body, true);     /* MANUAL in MANUAL is fine */
    (void)inner_manual;
    scope(&t, &m->scope.body, false);                         /* AUTO in MANUAL: fatal */
    (void)c;
    static float bc[256];
    void *bufs[1] = { bc };
    Fake f = {0};
    RtResult r;
    CHECK(!run(&t, bufs, 1, &f, &r));
    CHECK_EQ_INT(r.error_code, RT_ERR_INVALID_ARGS);
    CHECK_EQ_INT(t.diag.nerrors, 1);
    CHECK(t.diag.items.len == 1 && strstr(t.diag.items.data[0].msg, "AUTO scope") != NULL);
    CHECK(t.diag.items.len == 1 && strstr(t.diag.items.data[0].msg, "INVALID_ARGS") != NULL);
    CHECK_EQ_STR(rt_error_name(RT_ERR_INVALID_ARGS), "INVALID_ARGS");
    rt_result_free(&r);
    tb_free(&t);
}

/* x = tensor.create; producer(a, x) with x as pl.adir.output -> x owned by the producer; the
 * consumer reading x gets a creator edge WAIT|RETAIN and no tensormap edge (OUTPUT is not
 * registered). */
TEST(test_create_output) {
    Tb t; tb_init(&t);
    Var *a = param(&t, "a", ten(&t, DT_FP32, 16, 16), PD_IN);
    Var *c = param(&t, "c", ten(&t, DT_FP32, 16, 16), PD_OUT);
    Type *ts[2] = { a->type, a->type };
    ParamDir pd[2] = { PD_IN, PD_OUT };
    Function *prod = kernel(&t, "producer", FT_AIV, 2, ts, pd);
    Function *cons = kernel(&t, "consumer", FT_AIV, 2, ts, pd);
    Stmt *sc = scope(&t, t.body, false);
    Var *x = ir_var_new(t.c, "x", a->type);
    ir_list_push(t.c, &sc->scope.body, ir_assign(t.c, x, create(&t, 16, 16, DT_FP32)));
    Expr *a1[2] = { ir_ref(a), ir_ref(x) }, *a2[2] = { ir_ref(x), ir_ref(c) };
    const char *d1[2] = { "input", "output" }, *d2[2] = { "input", "output_existing" };
    Var *xo = ir_var_new(t.c, "x_out", a->type);
    call(&t, &sc->scope.body, xo, prod, a1, 2, d1);
    call(&t, &sc->scope.body, NULL, cons, a2, 2, d2);
    static float ba[256], bc[256];
    void *bufs[2] = { ba, bc };
    Fake f = {0};
    RtResult r;
    CHECK(run(&t, bufs, 2, &f, &r));
    CHECK_EQ_INT(r.tasks.len, 2);                                 /* no hidden allocation task */
    CHECK_EQ_INT(r.nedges, 1);
    CHECK_EQ_INT(count_sub(r.deps_json, "\"source\":\"creator\""), 1);
    CHECK_CONTAINS(r.deps_json, "\"flags\":[\"wait\",\"retain\"]");
    CHECK_EQ_INT(count_sub(r.deps_json, "\"type\":\"OUTPUT\""), 1);
    CHECK_EQ_INT(r.tasks.data[1].start, r.tasks.data[0].end + DISPATCH);
    CHECK_NEAR(bc[0], 2.0, 0);
    rt_result_free(&r);
    tb_free(&t);
}

/* SPMD: block_num 4 -> one task, 4 blocks on 4 AIC cores at once; 30 blocks on 24 AIC -> 2 waves;
 * an SC_SPMD scope with core_num gives the same expansion. */
static void spmd_prog(Tb *t, int64_t blocks, bool as_scope) {
    Var *c = param(t, "c", ten(t, DT_FP32, 1, 64), PD_OUT);
    Type *ts[1] = { c->type };
    ParamDir pd[1] = { PD_INOUT };
    Function *k = kernel(t, "blk", FT_AIC, 1, ts, pd);
    Stmt *sc = scope(t, t->body, false);
    StmtList *into = &sc->scope.body;
    if (as_scope) {
        Stmt *sp = ir_scope(t->c, SC_SPMD);
        sp->scope.core_num = ci(t, blocks);
        ir_list_push(t->c, into, sp);
        into = &sp->scope.body;
    }
    Expr *arg = ir_ref(c);
    const char *d[1] = { "inout" };
    Expr *e = call(t, into, NULL, k, &arg, 1, d);
    if (!as_scope) ir_attr_set(t->c, &e->call.attrs, "block_num", ir_av_int(blocks));
}

TEST(test_spmd) {
    static float bc[64];
    void *bufs[1] = { bc };
    for (int v = 0; v < 2; v++) {
        Tb t; tb_init(&t);
        spmd_prog(&t, 4, v == 1);
        Fake f = {0};
        RtResult r;
        CHECK(run(&t, bufs, 1, &f, &r));
        CHECK_EQ_INT(r.tasks.len, 1);
        CHECK_EQ_INT(r.tasks.data[0].block_num, 4);
        CHECK_EQ_INT(f.ncalls, 4);
        CHECK_EQ_INT(f.blocks[3], 3);
        CHECK_EQ_INT(f.block_num[0], 4);
        CHECK_EQ_INT(r.makespan_cycles, DISPATCH + 1000);        /* blocks run concurrently */
        CHECK_CONTAINS(r.deps_json, "\"block_num\":4");
        for (int i = 0; i < 4; i++) CHECK_NEAR(bc[i], 1.0 + i, 0);
        rt_result_free(&r);
        tb_free(&t);
    }
    Tb t; tb_init(&t);
    spmd_prog(&t, 30, false);
    Fake f = {0};
    RtResult r;
    CHECK(run(&t, bufs, 1, &f, &r));
    CHECK_EQ_INT(f.ncalls, 30);
    CHECK_EQ_INT(r.makespan_cycles, 2 * (DISPATCH + 1000));      /* 24 AIC cores: two waves */
    rt_result_free(&r);
    tb_free(&t);
}

/* pl.spmd(n, sync_start=True): 24 blocks fit the 24 AIC cores and start together; 30 cannot all
 * hold a core at once -> REQUIRE_SYNC_START_INVALID at submit (runtime.md §9.2). */
TEST(test_spmd_sync_start) {
    static float bc[64];
    void *bufs[1] = { bc };
    for (int v = 0; v < 2; v++) {
        Tb t; tb_init(&t);
        spmd_prog(&t, v ? 30 : 24, true);
        Stmt *sp = t.body->items[0]->scope.body.items[0];
        CHECK(sp->kind == ST_SCOPE && sp->scope.kind == SC_SPMD);
        ir_attr_set(t.c, &sp->scope.kwargs, "sync_start", (AttrVal){ .kind = AV_BOOL, .i = 1 });
        Fake f = {0};
        RtResult r;
        bool ok = run(&t, bufs, 1, &f, &r);
        if (!v) {
            CHECK(ok);
            CHECK_EQ_INT(f.ncalls, 24);
            CHECK_EQ_INT(r.makespan_cycles, DISPATCH + 1000);
        } else {
            CHECK(!ok);
            CHECK_EQ_INT(r.error_code, RT_ERR_REQUIRE_SYNC_START_INVALID);
            CHECK(t.diag.items.len >= 1 && strstr(t.diag.items.data[0].msg, "sync_start") != NULL);
        }
        rt_result_free(&r);
        tb_free(&t);
    }
}

/* Two INOUT tasks on slices of one tensor: row halves and column halves are disjoint (column
 * halves only by the per-dimension test), overlapping rows give an "other" edge. */
static int slice_edges(int64_t r0, int64_t c0, int64_t r1, int64_t c1, int64_t rows, int64_t cols, float *bc, char **json) {
    Tb t; tb_init(&t);
    Var *c = param(&t, "c", ten(&t, DT_FP32, 128, 128), PD_OUT);
    Type *st = ten(&t, DT_FP32, rows, cols);
    ParamDir pd[1] = { PD_INOUT };
    Function *k = kernel(&t, "part", FT_AIV, 1, &st, pd);
    Stmt *sc = scope(&t, t.body, false);
    const char *d[1] = { "inout" };
    Var *s0 = ir_var_new(t.c, "s0", st), *s1 = ir_var_new(t.c, "s1", st);
    ir_list_push(t.c, &sc->scope.body, ir_assign(t.c, s0, slice(&t, ir_ref(c), rows, cols, ci(&t, r0), ci(&t, c0))));
    ir_list_push(t.c, &sc->scope.body, ir_assign(t.c, s1, slice(&t, ir_ref(c), rows, cols, ci(&t, r1), ci(&t, c1))));
    Expr *a0 = ir_ref(s0), *a1 = ir_ref(s1);
    call(&t, &sc->scope.body, NULL, k, &a0, 1, d);
    call(&t, &sc->scope.body, NULL, k, &a1, 1, d);
    void *bufs[1] = { bc };
    Fake f = {0};
    RtResult r;
    int n = run(&t, bufs, 1, &f, &r) ? r.nedges : -1;
    *json = r.deps_json;
    r.deps_json = NULL;
    rt_result_free(&r);
    tb_free(&t);
    return n;
}

TEST(test_slices) {
    static float bc[128 * 128];
    char *js;
    CHECK_EQ_INT(slice_edges(0, 0, 64, 0, 64, 128, bc, &js), 0);          /* row halves */
    CHECK_CONTAINS(js, "\"start_offset\":\"8192\"");
    CHECK_NEAR(bc[64 * 128], 2.0, 0);                                      /* task 1 wrote s1[0] */
    free(js);
    memset(bc, 0, sizeof bc);
    CHECK_EQ_INT(slice_edges(0, 0, 0, 64, 128, 64, bc, &js), 0);          /* column halves */
    CHECK_CONTAINS(js, "\"strides\":[128,1]");
    CHECK_NEAR(bc[0], 1.0, 0);                                             /* staged and scattered back */
    CHECK_NEAR(bc[64], 2.0, 0);
    CHECK_NEAR(bc[1], 0.0, 0);                                             /* fake writes element 0 only */
    free(js);
    CHECK_EQ_INT(slice_edges(0, 0, 32, 0, 64, 128, bc, &js), 1);          /* overlapping rows */
    CHECK_CONTAINS(js, "\"overlap\":\"other\"");
    CHECK_CONTAINS(js, "\"producer_start_offset\":\"0\"");
    CHECK_CONTAINS(js, "\"consumer_start_offset\":\"4096\"");
    free(js);
}

/* The overlap cascade of spec §5.3 on descriptors. */
TEST(test_overlap_rules) {
    RtTensor a, b;
    memset(&a, 0, sizeof a);
    a.ndims = 2; a.dtype = DT_FP32; a.shape[0] = 128; a.shape[1] = 128; a.strides[0] = 128; a.strides[1] = 1;
    b = a;
    CHECK_EQ_INT(rt_overlap(&a, &b), RT_OV_COVERED);
    b.shape[0] = 64; b.start = 64 * 128;
    CHECK_EQ_INT(rt_overlap(&a, &b), RT_OV_COVERED);                    /* probe contains entry */
    CHECK_EQ_INT(rt_overlap(&b, &a), RT_OV_OTHER);                      /* entry larger */
    a.version = 1;
    b.version = 0;
    CHECK_EQ_INT(rt_overlap(&a, &b), RT_OV_OTHER);                      /* newer version */
    a.version = 0;
    RtTensor l = a, r = a;
    l.shape[1] = 64; r.shape[1] = 64; r.start = 64;
    CHECK_EQ_INT(rt_overlap(&l, &r), RT_OV_NO_OVERLAP);                 /* per-dimension disjoint */
    r.start = 32;
    CHECK_EQ_INT(rt_overlap(&l, &r), RT_OV_OTHER);
    r.dtype = DT_FP16;
    r.start = 64;
    CHECK_EQ_INT(rt_overlap(&l, &r), RT_OV_OTHER);                      /* incompatible: conservative */
    RtTensor p = a, q = a;
    p.shape[0] = 1; q.shape[0] = 1; q.start = 128 * 5;
    CHECK_EQ_INT(rt_overlap(&p, &q), RT_OV_NO_OVERLAP);                 /* disjoint element ranges */
    CHECK_EQ_INT(rt_tensor_extent(&a), 128 * 128);
    CHECK(rt_tensor_packed(&a));
    CHECK(!rt_tensor_packed(&l));
}

/* A loop of 4 INOUT tasks on disjoint row blocks indexed by the loop variable: no edges, all four
 * run at once; scalar arguments reach the kernel; param_dirs fallback without arg_directions. */
TEST(test_loop_slices_and_scalars) {
    Tb t; tb_init(&t);
    Var *c = param(&t, "c", ten(&t, DT_FP32, 128, 128), PD_OUT);
    Type *st = ten(&t, DT_FP32, 32, 128);
    Function *k = ir_func_new(t.c, "rows", FT_AIV);
    Var *kp = ir_var_new(t.c, "x", st), *kn = ir_var_new(t.c, "n", ir_scalar_type(t.c, DT_INDEX));
    ir_func_add_param(t.c, k, kp, PD_INOUT);
    ir_func_add_param(t.c, k, kn, PD_IN);
    ir_program_add(t.c, t.p, k);
    Stmt *sc = scope(&t, t.body, false);
    Var *i = ir_var_new(t.c, "i", ir_scalar_type(t.c, DT_INDEX));
    Stmt *loop = ir_for(t.c, i, ci(&t, 0), ci(&t, 4), ci(&t, 1), FK_SEQUENTIAL);
    ir_list_push(t.c, &sc->scope.body, loop);
    Var *s = ir_var_new(t.c, "s", st);
    Expr *off = ir_binary(t.c, BIN_MUL, ir_ref(i), ci(&t, 32));
    ir_list_push(t.c, &loop->for_.body, ir_assign(t.c, s, slice(&t, ir_ref(c), 32, 128, off, ci(&t, 0))));
    Expr *args[2] = { ir_ref(s), ir_binary(t.c, BIN_ADD, ir_ref(i), ci(&t, 10)) };
    call(&t, &loop->for_.body, NULL, k, args, 2, NULL);               /* fallback: inout, scalar */
    static float bc[128 * 128];
    void *bufs[1] = { bc };
    Fake f = {0};
    RtResult r;
    CHECK(run(&t, bufs, 1, &f, &r));
    CHECK_EQ_INT(r.tasks.len, 4);
    CHECK_EQ_INT(r.nedges, 0);
    CHECK_EQ_INT(r.makespan_cycles, DISPATCH + 1000);
    CHECK_EQ_INT(f.nscalars[0], 1);
    CHECK_EQ_INT(f.scalars[3], 13);
    CHECK_EQ_INT(f.scalar_param[3], 1);                               /* params[] keeps parameter order */
    CHECK_EQ_INT(count_sub(r.deps_json, "\"type\":\"INOUT\""), 4);
    CHECK_NEAR(bc[96 * 128], 4.0, 0);
    rt_result_free(&r);
    tb_free(&t);
}

TEST(test_errors) {
    Tb t; tb_init(&t);
    param(&t, "c", ten(&t, DT_FP32, 16, 16), PD_OUT);
    Fake f = {0};
    RtResult r;
    CHECK(!run(&t, NULL, 0, &f, &r));                                  /* missing buffer */
    CHECK_EQ_INT(r.error_code, RT_ERR_INVALID_ARGS);
    rt_result_free(&r);
    tb_free(&t);
}

TEST(test_tensor_id) {
    /* FNV-1a 64 of 12 zero bytes */
    uint64_t h = 0xcbf29ce484222325ull;
    for (int k = 0; k < 12; k++) h = (h ^ 0) * 0x100000001b3ull;
    CHECK(rt_tensor_id(0, 0) == h);
    CHECK(rt_tensor_id(0x1000, 0) != rt_tensor_id(0x1000, 1));
    CHECK_EQ_STR(rt_dtype_name(DT_FP16), "FLOAT16");
}

/* The SPMD form of split-K (spec §9.5): a seed task then ONE SPMD INOUT task -> 2 tasks, 1 edge. */
TEST(test_spmd_atomic_pattern) {
    Tb t; tb_init(&t);
    Var *c = param(&t, "c", ten(&t, DT_FP32, 1, 64), PD_OUT);
    Type *ts[1] = { c->type };
    ParamDir pout[1] = { PD_OUT }, pio[1] = { PD_INOUT };
    Function *zi = kernel(&t, "zero_init", FT_AIV, 1, ts, pout);
    Function *sk = kernel(&t, "split_k", FT_AIC, 1, ts, pio);
    Stmt *sc = scope(&t, t.body, false);
    Expr *arg = ir_ref(c);
    const char *d_oe[1] = { "output_existing" }, *d_io[1] = { "inout" };
    call(&t, &sc->scope.body, NULL, zi, &arg, 1, d_oe);
    Expr *e = call(&t, &sc->scope.body, NULL, sk, &arg, 1, d_io);
    ir_attr_set(t.c, &e->call.attrs, "block_num", ir_av_int(4));
    static float bc[64];
    void *bufs[1] = { bc };
    Fake f = {0};
    RtResult r;
    CHECK(run(&t, bufs, 1, &f, &r));
    CHECK_EQ_INT(r.tasks.len, 2);
    CHECK_EQ_INT(r.nedges, 1);
    CHECK_EQ_INT(f.ncalls, 5);
    CHECK_EQ_INT(r.makespan_cycles, 2 * (DISPATCH + 1000));
    rt_result_free(&r);
    tb_free(&t);
}

/* A scope whose task count reaches window - 1 is a SCOPE_DEADLOCK; one scope per iteration is fine. */
TEST(test_scope_deadlock) {
    for (int per_iter = 0; per_iter < 2; per_iter++) {
        Tb t; tb_init(&t);
        Var *c = param(&t, "c", ten(&t, DT_FP32, 4, 4), PD_OUT);
        Type *ts[1] = { c->type };
        ParamDir pd[1] = { PD_INOUT };
        Function *k = kernel(&t, "k", FT_AIV, 1, ts, pd);
        Stmt *sc = scope(&t, t.body, false);
        Var *i = ir_var_new(t.c, "i", ir_scalar_type(t.c, DT_INDEX));
        Stmt *loop = ir_for(t.c, i, ci(&t, 0), ci(&t, 10), ci(&t, 1), FK_SEQUENTIAL);
        ir_list_push(t.c, &sc->scope.body, loop);
        StmtList *into = &loop->for_.body;
        if (per_iter) into = &scope(&t, into, false)->scope.body;
        Expr *arg = ir_ref(c);
        const char *d[1] = { "inout" };
        call(&t, into, NULL, k, &arg, 1, d);
        static float bc[16];
        void *bufs[1] = { bc };
        Fake f = { .cycles = 10 };
        RtResult r;
        RtOptions o = { .target = target_get(TGT_A2A3), .threads = 1, .task_window = 8 };
        bool ok = rt_run(t.p, NULL, bufs, 1, &o, fake_run, &f, &r, &t.diag);
        CHECK_EQ_INT(ok, per_iter);
        CHECK_EQ_INT(r.error_code, per_iter ? RT_ERR_NONE : RT_ERR_SCOPE_DEADLOCK);
        if (per_iter) {
            CHECK_EQ_INT(r.tasks.len, 10);
            CHECK_EQ_INT(r.tasks.data[0].task_id, 2ull << 32);          /* depth 2 -> ring 2 */
            CHECK_EQ_INT(r.tasks.data[9].task_id, (2ull << 32) | 9);
            CHECK_EQ_INT(r.nedges, 9);                                  /* INOUT chain */
        }
        rt_result_free(&r);
        tb_free(&t);
    }
}

/* A Group (mixed) kernel takes a whole cluster; If / scalar iter_args steer submission. */
TEST(test_mix_and_control_flow) {
    Tb t; tb_init(&t);
    Var *c = param(&t, "c", ten(&t, DT_FP32, 4, 4), PD_OUT);
    Type *ts[1] = { c->type };
    ParamDir pd[1] = { PD_INOUT };
    Function *g = kernel(&t, "grp", FT_GROUP, 1, ts, pd);
    Function *k = kernel(&t, "vec", FT_AIV, 1, ts, pd);
    Stmt *sc = scope(&t, t.body, false);
    /* for i in range(5) with acc carried: acc += i; if acc > 5: submit grp else submit vec */
    Var *i = ir_var_new(t.c, "i", ir_scalar_type(t.c, DT_INDEX));
    Var *acc = ir_iter_arg_new(t.c, "acc", ir_scalar_type(t.c, DT_INDEX), ci(&t, 0));
    Var *fin = ir_var_new(t.c, "acc_final", ir_scalar_type(t.c, DT_INDEX));
    Stmt *loop = ir_for(t.c, i, ci(&t, 0), ci(&t, 5), ci(&t, 1), FK_SEQUENTIAL);
    ir_varlist_push(t.c, &loop->for_.iter_args, acc);
    ir_varlist_push(t.c, &loop->for_.return_vars, fin);
    ir_list_push(t.c, &sc->scope.body, loop);
    Var *nx = ir_var_new(t.c, "nx", ir_scalar_type(t.c, DT_INDEX));
    ir_list_push(t.c, &loop->for_.body, ir_assign(t.c, nx, ir_binary(t.c, BIN_ADD, ir_ref(acc), ir_ref(i))));
    Stmt *iff = ir_if(t.c, ir_binary(t.c, BIN_GT, ir_ref(nx), ci(&t, 5)));
    iff->if_.has_else = true;
    ir_list_push(t.c, &loop->for_.body, iff);
    Expr *arg = ir_ref(c);
    const char *d[1] = { "no_dep" };
    call(&t, &iff->if_.then_body, NULL, g, &arg, 1, d);
    call(&t, &iff->if_.else_body, NULL, k, &arg, 1, d);
    Expr *y = ir_ref(nx);
    ir_list_push(t.c, &loop->for_.body, ir_yield(t.c, &y, 1));
    /* after the loop: block_num = acc_final (= 10) on the vector kernel */
    Expr *e = call(&t, &sc->scope.body, NULL, k, &arg, 1, d);
    ir_attr_set(t.c, &e->call.attrs, "block_num", (AttrVal){ .kind = AV_EXPR, .expr = ir_ref(fin) });
    static float bc[16];
    void *bufs[1] = { bc };
    Fake f = {0};
    RtResult r;
    CHECK(run(&t, bufs, 1, &f, &r));
    /* acc after i: 0,1,3,6,10 -> vec, vec, vec, grp, grp */
    CHECK_EQ_INT(r.tasks.len, 6);
    CHECK_EQ_STR(r.tasks.data[0].core, "aiv");
    CHECK_EQ_STR(r.tasks.data[3].core, "mix");
    CHECK_EQ_STR(r.tasks.data[4].kernel, "grp");
    CHECK_EQ_INT(r.tasks.data[5].block_num, 10);
    CHECK_EQ_INT(r.tasks.data[4].start, DISPATCH);               /* second cluster, same time */
    CHECK_EQ_INT(r.nedges, 0);
    rt_result_free(&r);
    tb_free(&t);
}

/* deps.json slots count tensors only (tensors are added before scalars): a scalar first param does
 * not shift the consumer slot. */
TEST(test_slot_numbering) {
    Tb t; tb_init(&t);
    Var *c = param(&t, "c", ten(&t, DT_FP32, 4, 4), PD_OUT);
    Type *ts[1] = { c->type };
    ParamDir pd[1] = { PD_OUT };
    Function *w = kernel(&t, "w", FT_AIV, 1, ts, pd);
    Function *rd = ir_func_new(t.c, "rd", FT_AIV);
    ir_func_add_param(t.c, rd, ir_var_new(t.c, "n", ir_scalar_type(t.c, DT_INDEX)), PD_IN);
    ir_func_add_param(t.c, rd, ir_var_new(t.c, "x", c->type), PD_IN);
    ir_program_add(t.c, t.p, rd);
    Expr *arg = ir_ref(c);
    const char *dw[1] = { "output_existing" }, *dr[2] = { "scalar", "input" };
    call(&t, t.body, NULL, w, &arg, 1, dw);
    Expr *args[2] = { ci(&t, 3), ir_ref(c) };
    call(&t, t.body, NULL, rd, args, 2, dr);
    static float bc[16];
    void *bufs[1] = { bc };
    Fake f = {0};
    RtResult r;
    CHECK(run(&t, bufs, 1, &f, &r));
    CHECK_EQ_INT(r.nedges, 1);
    CHECK_CONTAINS(r.deps_json, "\"arg\":0,\"source\":\"tensormap\"");
    CHECK_EQ_INT(count_sub(r.deps_json, "\"idx\":1"), 0);
    CHECK_EQ_INT(f.scalar_param[1], 0);
    CHECK_EQ_INT(r.tasks.data[0].task_id, 0);                   /* no runtime scope: ring 0 */
    CHECK_EQ_INT(r.tasks.data[1].task_id, 1);
    rt_result_free(&r);
    tb_free(&t);
}

int main(void) {
    RUN(test_slot_numbering);
    RUN(test_spmd_atomic_pattern);
    RUN(test_scope_deadlock);
    RUN(test_mix_and_control_flow);
    RUN(test_single_matmul);
    RUN(test_splitk_chain);
    RUN(test_output_existing_no_waw);
    RUN(test_input_after_output_existing);
    RUN(test_write_after_read_untracked);
    RUN(test_no_dep);
    RUN(test_manual_scope);
    RUN(test_auto_inside_manual);
    RUN(test_create_output);
    RUN(test_spmd);
    RUN(test_spmd_sync_start);
    RUN(test_slices);
    RUN(test_overlap_rules);
    RUN(test_loop_slices_and_scalars);
    RUN(test_errors);
    RUN(test_tensor_id);
    return test_summary();
}
