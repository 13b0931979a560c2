/* test_rt_e2e — the runtime on a really compiled program: the single matmul of
 * ir_and_passes.md §13 goes through the pass pipeline, the AIC kernel is lowered and synchronised,
 * and rt_run executes it through a callback that runs the core simulator. Checks the numbers
 * against a reference matmul, the task graph (1 task, 0 edges, INPUT/INPUT/OUTPUT_EXISTING), the
 * makespan (dispatch + simulated kernel cycles), and the orchestration C++ lines of §11. */
#include "pipeline_util.h"
#include "rt/rt.h"
#include "sim/sim.h"
#include "test.h"

typedef struct SimCb { const Kernel *k; const Target *t; int64_t kernel_cycles; int ncalls; } SimCb;

static bool sim_cb(void *ud, const RtKernelCall *call, int64_t *cycles, DiagSink *diag) {
    SimCb *s = ud;
    SimCore *core = sim_core_new(s->t, s->k->core);
    SimOptions o = { .race_check = true, .block_idx = call->block_idx, .block_num = call->block_num };
    SimResult r = {0};
    bool ok = sim_run(core, s->k, call->params, &o, &r, diag);
    *cycles = r.cycles;
    s->kernel_cycles = r.cycles;
    s->ncalls++;
    if (r.races.len || r.sync_errors.len) ok = false;
    sim_result_free(&r);
    sim_core_free(core);
    return ok;
}

static int count_sub(const char *hay, const char *needle) {
    int n = 0;
    for (const char *p = hay; p && (p = strstr(p, needle)); p += strlen(needle)) n++;
    return n;
}

TEST(test_matmul_end_to_end) {
    DiagSink d;
    diag_init(&d);
    IrCtx *c = ir_ctx_new(&d);
    const Target *tgt = target_get(TGT_A2A3);
    Program *p = build_matmul(c, 128, 128, 512, DT_FP16, DT_FP32);
    PassCtx ctx = { .ir = c, .target = tgt, .diag = &d, .planner = PLANNER_PYPTO };
    bool ok = pass_run_pipeline(p, &ctx, NULL, NULL);
    pass_ctx_free(&ctx);
    StrBuf err = {0};
    diag_format_all(&d, &err);
    CHECK_MSG(ok, "pipeline failed: %s", sb_cstr(&err));
    Function *kf = find_kernel(p);
    Function *orch = ir_program_find(p, "matmul");
    CHECK(kf && orch);
    if (!ok || !kf || !orch) { sb_free(&err); ir_ctx_free(c); diag_free(&d); return; }

    /* orchestration C++ (§11) */
    StrBuf cpp = {0};
    back_print_orchestration(p, orch, &cpp);
    const char *s = sb_cstr(&cpp);
    CHECK_CONTAINS(s, ".expected_arg_count = 3,");
    CHECK_CONTAINS(s, "const ChipTensor& ext_a = orch_args.tensor(0).ref();");
    CHECK_CONTAINS(s, "const ChipTensor& ext_c = orch_args.tensor(2).ref();");
    CHECK_CONTAINS(s, "    PTO2_SCOPE() {\n");
    CHECK_CONTAINS(s, "        CoreTaskArgs params_t0;\n        params_t0.add_input(ext_a);\n"
                      "        params_t0.add_input(ext_b);\n        params_t0.add_output(ext_c);\n"
                      "        rt_submit_aic_task(0, params_t0);\n    }\n}\n}  // extern \"C\"\n");
    CHECK_EQ_INT(count_sub(s, "PTO2_SCOPE"), 1);
    sb_free(&cpp);

    Arena *ar = arena_new();
    Kernel *mk = back_lower_function(kf, tgt, ar, &d);
    SyncStats st = {0};
    CHECK(mk && back_insert_sync(mk, tgt, &st));
    static uint16_t a[128 * 512], b[512 * 128];
    static float out[128 * 128];
    uint32_t seed = 12345;
    for (int i = 0; i < 128 * 512; i++) {
        seed = seed * 1664525u + 1013904223u;
        a[i] = f32_to_fp16((float)((int)(seed >> 24) % 9 - 4) / 4.0f);
        seed = seed * 1664525u + 1013904223u;
        b[i] = f32_to_fp16((float)((int)(seed >> 24) % 7 - 3) / 2.0f);
    }
    void *bufs[3] = { a, b, out };
    RtOptions o = { .target = tgt, .threads = 1, .capture_deps = true };
    SimCb cb = { mk, tgt, 0, 0 };
    RtResult r;
    bool rok = mk && rt_run(p, NULL, bufs, 3, &o, sim_cb, &cb, &r, &d);
    diag_format_all(&d, &err);
    CHECK_MSG(rok, "rt_run failed: %s", sb_cstr(&err));
    if (rok) {
        CHECK_EQ_INT(r.tasks.len, 1);
        CHECK_EQ_INT(r.nedges, 0);
        CHECK_EQ_INT(cb.ncalls, 1);
        CHECK(cb.kernel_cycles > 0);
        CHECK_EQ_INT(r.makespan_cycles, 1480 + cb.kernel_cycles);
        CHECK_EQ_STR(r.tasks.data[0].core, "aic");
        CHECK_EQ_INT(count_sub(r.deps_json, "\"type\":\"INPUT\""), 2);
        CHECK_EQ_INT(count_sub(r.deps_json, "\"type\":\"OUTPUT_EXISTING\""), 1);
        CHECK_CONTAINS(r.deps_json, "\"edges\":[]");
        double maxerr = 0;
        for (int i = 0; i < 128; i += 7)
            for (int j = 0; j < 128; j += 5) {
                double ref = 0;
                for (int k = 0; k < 512; k++) ref += (double)fp16_to_f32(a[i * 512 + k]) * fp16_to_f32(b[k * 128 + j]);
                double e = fabs(ref - out[i * 128 + j]);
                if (e > maxerr) maxerr = e;
            }
        CHECK_NEAR(maxerr, 0.0, 1e-3);       /* exact small-integer products, fp32 accumulation */
        rt_result_free(&r);
    }
    arena_free(ar);
    sb_free(&err);
    ir_ctx_free(c);
    diag_free(&d);
}

/* two(a: [128, 256], b: [256, 128], c: Out [256, 128]):
 *   for i in pl.parallel(2): with pl.at(CORE_GROUP): c = tensor.assemble(c, tensor.matmul(a, b), [i * 128, 0])
 * -> one kernel called twice with c OUTPUT_EXISTING (Parallel loop: no promotion to INOUT), so no
 * edges and both tasks run at once. */
static Program *build_two(IrCtx *c, ForKind kind) {
    Function *f = ir_func_new(c, "two", FT_ORCHESTRATION);
    Var *a = ir_var_new(c, "a", ir_tensor_type(c, DT_FP16, 2, (int64_t[]){ 128, 256 }));
    Var *b = ir_var_new(c, "b", ir_tensor_type(c, DT_FP16, 2, (int64_t[]){ 256, 128 }));
    Var *o = ir_var_new(c, "c", ir_tensor_type(c, DT_FP32, 2, (int64_t[]){ 256, 128 }));
    ir_func_add_param(c, f, a, PD_IN);
    ir_func_add_param(c, f, b, PD_IN);
    ir_func_add_param(c, f, o, PD_OUT);
    f->return_types = ARENA_ARRAY(c->arena, Type *, 1);
    f->return_types[0] = o->type;
    f->nreturns = 1;
    Var *i = ir_var_new(c, "i", ir_scalar_type(c, DT_INDEX));
    Stmt *loop = ir_for(c, i, ir_const_int(c, 0, DT_INDEX), ir_const_int(c, 2, DT_INDEX), ir_const_int(c, 1, DT_INDEX), kind);
    Stmt *scope = ir_scope(c, SC_INCORE);
    Expr *mm = ir_call(c, OP_TENSOR_MATMUL, (Expr *[]){ ir_ref(a), ir_ref(b) }, 2);
    ir_attr_set(c, &mm->call.kwargs, "out_dtype", ir_av_dtype(DT_FP32));
    ir_deduce_call(c, mm);
    Expr *off[2] = { ir_binary(c, BIN_MUL, ir_ref(i), ir_const_int(c, 128, DT_INDEX)), ir_const_int(c, 0, DT_INDEX) };
    Expr *as = ir_call(c, OP_TENSOR_ASSEMBLE, (Expr *[]){ ir_ref(o), mm, ir_tuple(c, off, 2) }, 3);
    ir_deduce_call(c, as);
    ir_list_push(c, &scope->scope.body, ir_assign(c, o, as));
    ir_list_push(c, &loop->for_.body, scope);
    ir_list_push(c, &f->body, loop);
    Expr *r = ir_ref(o);
    ir_list_push(c, &f->body, ir_return(c, &r, 1));
    Program *p = ir_program_new(c, "two");
    ir_program_add(c, p, f);
    return p;
}

/* kind = Parallel: 2 concurrent tasks, no edge. Sequential: DeriveCallDirections promotes c to
 * INOUT (R-seq), so the TensorMap chains the two tasks. */
static void two_tasks_e2e(ForKind kind) {
    DiagSink d;
    diag_init(&d);
    IrCtx *c = ir_ctx_new(&d);
    const Target *tgt = target_get(TGT_A2A3);
    Program *p = build_two(c, kind);
    PassCtx ctx = { .ir = c, .target = tgt, .diag = &d, .planner = PLANNER_PYPTO };
    bool ok = pass_run_pipeline(p, &ctx, NULL, NULL);
    pass_ctx_free(&ctx);
    StrBuf err = {0};
    diag_format_all(&d, &err);
    CHECK_MSG(ok, "pipeline failed: %s", sb_cstr(&err));
    Function *kf = find_kernel(p);
    Arena *ar = arena_new();
    Kernel *mk = ok && kf ? back_lower_function(kf, tgt, ar, &d) : NULL;
    SyncStats st = {0};
    if (mk) back_insert_sync(mk, tgt, &st);
    diag_format_all(&d, &err);
    CHECK_MSG(mk != NULL, "lowering failed: %s", sb_cstr(&err));
    if (mk) {
        StrBuf cpp = {0};
        back_print_orchestration(p, ir_program_find(p, "two"), &cpp);
        CHECK_CONTAINS(sb_cstr(&cpp), "for (int64_t i = 0; i < 2; i += 1) {");
        CHECK_CONTAINS(sb_cstr(&cpp), kind == FK_PARALLEL ? "params_t0.add_output(ext_c);" : "params_t0.add_inout(ext_c);");
        CHECK_CONTAINS(sb_cstr(&cpp), "params_t0.add_scalar(");
        if (getenv("PTOC_TEST_VERBOSE")) printf("%s", sb_cstr(&cpp));
        sb_free(&cpp);
        static uint16_t a[128 * 256], b[256 * 128];
        static float out[256 * 128];
        for (int k = 0; k < 128 * 256; k++) { a[k] = f32_to_fp16((float)(k % 5) - 2); b[k] = f32_to_fp16((float)(k % 3) - 1); }
        void *bufs[3] = { a, b, out };
        RtOptions o = { .target = tgt, .threads = 1, .capture_deps = true };
        SimCb cb = { mk, tgt, 0, 0 };
        RtResult r;
        bool rok = rt_run(p, NULL, bufs, 3, &o, sim_cb, &cb, &r, &d);
        diag_format_all(&d, &err);
        CHECK_MSG(rok, "rt_run failed: %s", sb_cstr(&err));
        if (rok) {
            CHECK_EQ_INT(r.tasks.len, 2);
            bool par = kind == FK_PARALLEL;
            CHECK_EQ_INT(r.nedges, par ? 0 : 1);
            CHECK_EQ_INT(r.makespan_cycles, (par ? 1 : 2) * (1480 + cb.kernel_cycles));
            double maxerr = 0;
            for (int row = 0; row < 256; row += 9)
                for (int j = 0; j < 128; j += 11) {
                    double ref = 0;
                    for (int k = 0; k < 256; k++) ref += (double)fp16_to_f32(a[(row % 128) * 256 + k]) * fp16_to_f32(b[k * 128 + j]);
                    double e = fabs(ref - out[row * 128 + j]);
                    if (e > maxerr) maxerr = e;
                }
            CHECK_NEAR(maxerr, 0.0, 1e-3);
            rt_result_free(&r);
        }
    }
    arena_free(ar);
    sb_free(&err);
    ir_ctx_free(c);
    diag_free(&d);
}

TEST(test_parallel_loop_end_to_end) { two_tasks_e2e(FK_PARALLEL); }
TEST(test_sequential_loop_end_to_end) { two_tasks_e2e(FK_SEQUENTIAL); }

int main(void) {
    RUN(test_matmul_end_to_end);
    RUN(test_parallel_loop_end_to_end);
    RUN(test_sequential_loop_end_to_end);
    return test_summary();
}
