/* mad_bench — issue 12 points 1 and 2, measured side by side in one process:
 *   1. the MAD kernel (sim_mad_f32_ws, workspace preallocated) at 128^3 against OpenBLAS sgemm on
 *      one thread (built with -DHAVE_OPENBLAS; otherwise reported as skipped);     target >= 0.5x
 *   2. a whole sim_run of the compiled 256 x 256 x 512 FP16 matmul kernel (race check off, and on);
 *      bench/sim.sh divides it by numpy's float32 matmul of the same shape        target <= 4x
 *   3. the golden interpreter's matmul (interp_matmul_run) on the same operands   target <= 1x sim
 * Prints best-of-N milliseconds, ratios, and `SIM_MS=` for the script. */
#include "interp/interp_internal.h"
#include "pipeline_util.h"
#include "sim/sim.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#ifdef HAVE_OPENBLAS
#include <cblas.h>
void openblas_set_num_threads(int);
#endif

static uint32_t seed = 1;
static float frand(void) { seed = seed * 1664525u + 1013904223u; return (float)(seed >> 8) / 16777216.0f * 2.0f - 1.0f; }

#define BEST(reps, stmt)                                                                  \
    ({ double best_ = 1e30;                                                               \
       for (int r_ = 0; r_ < (reps); r_++) {                                              \
           double t0_ = base_now_seconds(); stmt; double t_ = (base_now_seconds() - t0_) * 1e3; \
           if (t_ < best_) best_ = t_; }                                                  \
       best_; })

static void bench_mad(void) {
    int64_t n = 128;
    float *a = malloc(sizeof(float) * 128 * 128), *b = malloc(sizeof(float) * 128 * 128);
    float *c = malloc(sizeof(float) * 128 * 128), *ws = malloc(sizeof(float) * (size_t)sim_mad_ws_elems(n, n, n));
    for (int j = 0; j < 128 * 128; j++) { a[j] = frand(); b[j] = frand(); }
    double t_mad = BEST(200, sim_mad_f32_ws(n, n, n, a, b, c, ws));
    double gf = 2.0 * 128 * 128 * 128 / (t_mad * 1e6);
#ifdef HAVE_OPENBLAS
    openblas_set_num_threads(1);
    float *c2 = malloc(sizeof(float) * 128 * 128);
    double t_blas = BEST(200, cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, 128, 128, 128, 1.0f, a, 128, b, 128,
                                          0.0f, c2, 128));
    double diff = 0;
    for (int j = 0; j < 128 * 128; j++) diff = fmax(diff, fabs((double)c[j] - c2[j]));
    printf("mad 128^3: %.4f ms (%.1f GFLOP/s)   OpenBLAS sgemm 1 thread %.4f ms   MAD speed / OpenBLAS = %.2fx "
           "(target >= 0.5x: %s; max diff %.1e)\n", t_mad, gf, t_blas, t_blas / t_mad, t_blas / t_mad >= 0.5 ? "PASS" : "FAIL",
           diff);
    free(c2);
#else
    printf("mad 128^3: %.4f ms (%.1f GFLOP/s)   OpenBLAS not available: ratio skipped\n", t_mad, gf);
#endif
    free(a); free(b); free(c); free(ws);
}

static InterpArray *arr2(DType t, int64_t r, int64_t c, const uint16_t *h) {
    int64_t shape[2] = { r, c };
    InterpArray *x = interp_array_new(t, 2, shape);   /* the interpreter's own storage of dtype t */
    for (int64_t i = 0; h && i < r * c; i++) interp_set(x, i, fp16_to_f32(h[i]));
    return x;
}

static void bench_kernel(void) {
    int64_t M = 256, N = 256, K = 512;
    DiagSink d;
    diag_init(&d);
    IrCtx *g = ir_ctx_new(&d);
    Program *p = build_matmul(g, M, N, K, DT_FP16, DT_FP32);
    PassCtx ctx = { .ir = g, .target = target_get(TGT_A2A3), .diag = &d };
    bool ok = pass_run_pipeline(p, &ctx, NULL, NULL);
    pass_ctx_free(&ctx);
    Arena *ar = arena_new();
    Kernel *k = ok ? back_lower_function(find_kernel(p), target_get(TGT_A2A3), ar, &d) : NULL;
    SyncStats st = {0};
    if (!k || !back_insert_sync(k, target_get(TGT_A2A3), &st)) { printf("kernel: compile failed\n"); exit(1); }
    uint16_t *a = malloc(2 * (size_t)(M * K)), *b = malloc(2 * (size_t)(K * N));
    float *c = calloc((size_t)(M * N), sizeof(float));
    for (int64_t i = 0; i < M * K; i++) a[i] = f32_to_fp16(frand());
    for (int64_t i = 0; i < K * N; i++) b[i] = f32_to_fp16(frand());
    void *gm[3] = { a, b, c };
    SimCore *core = sim_core_new(target_get(TGT_A2A3), CORE_AIC);
    if (getenv("MAD_BENCH_PROFILE")) {   /* only the simulation, for perf record */
        SimOptions so = { .race_check = false };
        for (int r = 0; r < 300; r++) { SimResult res = {0}; sim_run(core, k, gm, &so, &res, &d); sim_result_free(&res); }
        exit(0);
    }
    double t_sim[2];
    for (int race = 0; race < 2; race++) {
        SimOptions so = { .race_check = race };
        t_sim[race] = BEST(30, {
            SimResult r = {0};
            if (!sim_run(core, k, gm, &so, &r, &d) || r.races.len || r.sync_errors.len) { printf("sim_run failed\n"); exit(1); }
            sim_result_free(&r);
        });
    }
    InterpArray *ia = arr2(DT_FP16, M, K, a), *ib = arr2(DT_FP16, K, N, b), *ic = arr2(DT_FP32, M, N, NULL);
    InterpMatmul mm = { ia, ib, NULL, false, false, false };
    double t_int = BEST(30, interp_matmul_run(&mm, ic));
    double diff = 0;
    for (int64_t i = 0; i < M * N; i++) diff = fmax(diff, fabs(interp_get(ic, i) - c[i]));
    printf("sim_run matmul 256x256x512 FP16: %.3f ms (race check %.3f ms)\n", t_sim[0], t_sim[1]);
    printf("interpreter matmul 256x256x512 FP16: %.3f ms   interpreter / simulator = %.2f (target <= 1: %s; max diff %.1e)\n",
           t_int, t_int / t_sim[0], t_int <= t_sim[0] ? "PASS" : "FAIL", diff);
    printf("SIM_MS=%.4f\n", t_sim[0]);
    sim_core_free(core);
    arena_free(ar);
    ir_ctx_free(g);
    diag_free(&d);
    free(a); free(b); free(c);
}

int main(void) {
    bench_mad();
    bench_kernel();
    return 0;
}
