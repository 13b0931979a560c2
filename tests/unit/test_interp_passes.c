/* test_interp_passes — per-pass differential check: the tensor-level matmul program is interpreted
 * once for the golden output, then after every pass of the pipeline, and each stage's output must
 * match (bit-identical until K is split, then within 1e-3 relative). */
#include "interp/interp.h"
#include "pass/pass.h"
#include "test.h"

#include <string.h>

typedef struct Stage {
    int64_t M, N, K;
    uint16_t *a, *b;
    float *golden, *out;
    int checked, bitwise, failed;
} Stage;

static InterpTensor tens(DType dt, int64_t r, int64_t k, void *data) {
    InterpTensor t = { .dtype = dt, .rank = 2, .shape = { r, k }, .data = data };
    return t;
}

static bool run(const Program *p, Stage *s, float *out, DiagSink *d) {
    InterpTensor args[3] = { tens(DT_FP16, s->M, s->K, s->a), tens(DT_FP16, s->K, s->N, s->b), tens(DT_FP32, s->M, s->N, out) };
    memset(out, 0, sizeof(float) * (size_t)(s->M * s->N));
    return interp_run(p, NULL, args, 3, d);
}

static bool after_pass(void *ud, int index, const PassInfo *info, Program *p, double seconds) {
    Stage *s = ud;
    DiagSink d;
    diag_init(&d);
    bool ok = run(p, s, s->out, &d);
    StrBuf sb = {0};
    diag_format_all(&d, &sb);
    CHECK_MSG(ok, "interpreting after pass %d %s: %s", index, info->name, sb_cstr(&sb));
    sb_free(&sb);
    diag_free(&d);
    if (!ok) { s->failed++; return true; }
    double worst = 0;
    int64_t n = s->M * s->N;
    for (int64_t i = 0; i < n; i++) {
        double e = fabs((double)s->out[i] - s->golden[i]) / fmax(fabs(s->golden[i]), 1.0);
        worst = fmax(worst, e);
    }
    CHECK_MSG(worst <= 1e-3, "after pass %d %s: max rel err %g", index, info->name, worst);
    s->checked++;
    bool same = memcmp(s->out, s->golden, sizeof(float) * (size_t)n) == 0;
    s->bitwise += same;
    if (getenv("INTERP_VERBOSE")) printf("  %2d %-28s %s (max rel err %.3g, %.2f ms)\n", index, info->name, same ? "bit-identical" : "differs", worst, seconds * 1e3);
    return true;
}

static Type *tt(IrCtx *c, DType dt, int64_t r, int64_t k) { int64_t d[2] = { r, k }; return ir_tensor_type(c, dt, 2, d); }

/* matmul(a, b, c: Out): with pl.at(CORE_GROUP): c = tensor.assemble(c, pl.matmul(a, b, out_dtype=FP32), [0, 0]) */
static Program *build(IrCtx *c, int64_t M, int64_t N, int64_t K) {
    Function *f = ir_func_new(c, "matmul", FT_ORCHESTRATION);
    Var *a = ir_var_new(c, "a", tt(c, DT_FP16, M, K)), *b = ir_var_new(c, "b", tt(c, DT_FP16, K, N));
    Var *cv = ir_var_new(c, "c", tt(c, DT_FP32, M, N));
    ir_func_add_param(c, f, a, PD_IN);
    ir_func_add_param(c, f, b, PD_IN);
    ir_func_add_param(c, f, cv, PD_OUT);
    Stmt *sc = ir_scope(c, SC_INCORE);
    Expr *ab[2] = { ir_ref(a), ir_ref(b) };
    Expr *mm = ir_call(c, OP_TENSOR_MATMUL, ab, 2);
    ir_attr_set(c, &mm->call.kwargs, "out_dtype", ir_av_dtype(DT_FP32));
    CHECK(ir_deduce_call(c, mm));
    int64_t z[2] = { 0, 0 };
    Expr *as_args[3] = { ir_ref(cv), mm, ir_int_tuple(c, z, 2) };
    Expr *as = ir_call(c, OP_TENSOR_ASSEMBLE, as_args, 3);
    CHECK(ir_deduce_call(c, as));
    Var *c2 = ir_var_new(c, "c", as->type);
    ir_list_push(c, &sc->scope.body, ir_assign(c, c2, as));
    ir_list_push(c, &f->body, sc);
    Expr *r = ir_ref(c2);
    ir_list_push(c, &f->body, ir_return(c, &r, 1));
    f->return_types = ARENA_ARRAY(c->arena, Type *, 1);
    f->return_types[0] = c2->type;
    f->nreturns = 1;
    Program *p = ir_program_new(c, "matmul");
    ir_program_add(c, p, f);
    return p;
}

static void check_pipeline(int64_t M, int64_t N, int64_t K) {
    DiagSink d;
    diag_init(&d);
    IrCtx *c = ir_ctx_new(&d);
    Stage s = { .M = M, .N = N, .K = K };
    uint32_t seed = 99;
    s.a = malloc(sizeof(uint16_t) * (size_t)(M * K));
    s.b = malloc(sizeof(uint16_t) * (size_t)(K * N));
    for (int64_t i = 0; i < M * K; i++) { seed = seed * 1664525u + 1013904223u; s.a[i] = f32_to_fp16((float)(seed >> 20) / 2048.0f - 1.0f); }
    for (int64_t i = 0; i < K * N; i++) { seed = seed * 1664525u + 1013904223u; s.b[i] = f32_to_fp16((float)(seed >> 20) / 2048.0f - 1.0f); }
    s.golden = malloc(sizeof(float) * (size_t)(M * N));
    s.out = malloc(sizeof(float) * (size_t)(M * N));
    Program *p = build(c, M, N, K);
    CHECK(run(p, &s, s.golden, &d));
    PassCtx pc = { .ir = c, .target = target_by_name("a2a3"), .diag = &d };
    bool ok = pass_run_pipeline(p, &pc, after_pass, &s);
    pass_ctx_free(&pc);
    StrBuf sb = {0};
    diag_format_all(&d, &sb);
    CHECK_MSG(ok, "pipeline for %lldx%lldx%lld: %s", (long long)M, (long long)N, (long long)K, sb_cstr(&sb));
    sb_free(&sb);
    int n;
    pass_pipeline(&n);
    CHECK_EQ_INT(s.checked, n);
    CHECK_EQ_INT(s.failed, 0);
    printf("info: %lldx%lldx%lld: %d stages interpreted, %d bit-identical to the tensor level\n", (long long)M,
           (long long)N, (long long)K, s.checked, s.bitwise);
    free(s.a); free(s.b); free(s.golden); free(s.out);
    ir_ctx_free(c);
    diag_free(&d);
}

TEST(test_pipeline_128x128x512) { check_pipeline(128, 128, 512); }
TEST(test_pipeline_128x128x256) { check_pipeline(128, 128, 256); }
TEST(test_pipeline_256x256x256) { check_pipeline(256, 256, 256); }

int main(void) {
    RUN(test_pipeline_128x128x512);
    RUN(test_pipeline_128x128x256);
    RUN(test_pipeline_256x256x256);
    return test_summary();
}
