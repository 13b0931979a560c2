/* test_compile_sim: the matmul program built by hand for several shapes, compiled through every
 * pass, lowered, synchronised and run on the simulator; outputs compared with the interpreter's
 * golden run of the uncompiled program; no race and no flag error allowed. */
#include <stdio.h>

#include "interp/interp.h"
#include "pipeline_util.h"
#include "sim/sim.h"
#include "test.h"

static uint64_t rng = 0x9E3779B97F4A7C15ull;
static float frand(void) {
    rng ^= rng << 13; rng ^= rng >> 7; rng ^= rng << 17;
    return (float)((rng >> 11) % 2001) / 1000.0f - 1.0f;
}

typedef struct { int64_t cycles; int races, sync_errors; double max_err; int nbuf_left; } Outcome;

static bool run_case(int64_t M, int64_t N, int64_t K, DType dt, Outcome *out) {
    DiagSink d;
    diag_init(&d);
    uint16_t *a = malloc(sizeof(uint16_t) * (size_t)(M * K)), *b = malloc(sizeof(uint16_t) * (size_t)(K * N));
    float *gold = calloc((size_t)(M * N), sizeof(float)), *got = calloc((size_t)(M * N), sizeof(float));
    for (int64_t i = 0; i < M * K; i++) a[i] = dt == DT_BF16 ? f32_to_bf16(frand()) : f32_to_fp16(frand());
    for (int64_t i = 0; i < K * N; i++) b[i] = dt == DT_BF16 ? f32_to_bf16(frand()) : f32_to_fp16(frand());

    IrCtx *g = ir_ctx_new(&d);
    Program *src = build_matmul(g, M, N, K, dt, DT_FP32);
    InterpTensor args[3] = { { dt, 2, { M, K }, a }, { dt, 2, { K, N }, b }, { DT_FP32, 2, { M, N }, gold } };
    bool ok = interp_run(src, NULL, args, 3, &d);

    IrCtx *c = ir_ctx_new(&d);
    Program *p = build_matmul(c, M, N, K, dt, DT_FP32);
    PassCtx ctx = { .ir = c, .target = target_get(TGT_A2A3), .diag = &d };
    ok = ok && pass_run_pipeline(p, &ctx, NULL, NULL);
    pass_ctx_free(&ctx);
    Arena *ar = arena_new();
    Kernel *k = ok ? back_lower_function(find_kernel(p), target_get(TGT_A2A3), ar, &d) : NULL;
    SyncStats st = {0};
    ok = k && back_insert_sync(k, target_get(TGT_A2A3), &st);
    SimResult r = {0};
    if (ok) {
        SimCore *core = sim_core_new(target_get(TGT_A2A3), CORE_AIC);
        void *gm[3] = { a, b, got };
        SimOptions so = { .race_check = true };
        ok = sim_run(core, k, gm, &so, &r, &d);
        sim_core_free(core);
        if (getenv("PTOC_TEST_VERBOSE")) {
            StrBuf sb = {0};
            mir_dump(k, &sb);
            printf("%s\n", sb_cstr(&sb));
            sb_free(&sb);
        }
    }
    double max_err = 0;
    for (int64_t i = 0; i < M * N; i++) {
        double e = fabs((double)got[i] - (double)gold[i]) / (fabs((double)gold[i]) > 1 ? fabs((double)gold[i]) : 1);
        if (e > max_err) max_err = e;
    }
    *out = (Outcome){ r.cycles, r.races.len, r.sync_errors.len, max_err, 0 };
    for (int i = 0; i < r.races.len; i++) printf("  race: %s\n", r.races.data[i]);
    for (int i = 0; i < r.sync_errors.len; i++) printf("  sync: %s\n", r.sync_errors.data[i]);
    if (!ok || d.nerrors) {
        StrBuf sb = {0};
        diag_format_all(&d, &sb);
        printf("  diagnostics: %s\n", sb_cstr(&sb));
        sb_free(&sb);
    }
    sim_result_free(&r);
    arena_free(ar);
    ir_ctx_free(c);
    ir_ctx_free(g);
    diag_free(&d);
    free(a); free(b); free(gold); free(got);
    return ok;
}

static void check_shape(int64_t M, int64_t N, int64_t K, DType dt) {
    Outcome o;
    bool ok = run_case(M, N, K, dt, &o);
    CHECK_MSG(ok, "%lldx%lldx%lld %s compiles and runs", (long long)M, (long long)N, (long long)K, dtype_name(dt));
    CHECK_MSG(o.races == 0 && o.sync_errors == 0, "%lldx%lldx%lld: %d races, %d sync errors", (long long)M, (long long)N,
              (long long)K, o.races, o.sync_errors);
    CHECK_MSG(o.max_err <= 1e-2, "%lldx%lldx%lld: max rel err %g", (long long)M, (long long)N, (long long)K, o.max_err);
    CHECK_MSG(o.cycles > 0, "%lldx%lldx%lld: cycles %lld", (long long)M, (long long)N, (long long)K, (long long)o.cycles);
}

TEST(shapes) {
    check_shape(128, 128, 512, DT_FP16);   /* the walkthrough: K loop, 2 clones */
    check_shape(128, 128, 128, DT_FP16);   /* untiled: operands moved to L0 whole */
    check_shape(128, 128, 256, DT_FP16);   /* 2-trip K loop */
    check_shape(256, 256, 512, DT_FP16);   /* direct-store M/N grid, split K */
    check_shape(256, 256, 64, DT_FP16);    /* full-K grid: nested loops */
    check_shape(320, 320, 64, DT_BF16);    /* full-K grid with boundary tiles */
    check_shape(128, 128, 192, DT_FP16);   /* K loop with a peeled tail */
    check_shape(16, 256, 512, DT_FP16);    /* narrow M */
}

int main(void) {
    RUN(shapes);
    return test_summary();
}
