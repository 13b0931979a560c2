/* sim_bench — simulator speed, measured side by side with a baseline in the same process:
 *   1. the MAD kernel (sim_mad_f32) on 128x128x128 vs a naive i-j-l triple loop;
 *   2. a whole sim_run of the [128,512]@[512,128] FP16 matmul kernel (2 loads, 8 extracts,
 *      4 matmuls, 1 store, ~20 syncs), with and without the race detector, vs a naive triple-loop
 *      matmul of the same size.
 * Prints milliseconds (best of N) and ratios. */
#include "sim/sim.h"
#include "test_sim_util.h"

#include <math.h>
#include <stdio.h>

static void naive(int64_t m, int64_t n, int64_t k, const float *a, const float *b, float *c) {
    for (int64_t i = 0; i < m; i++)
        for (int64_t j = 0; j < n; j++) {
            float s = 0;
            for (int64_t l = 0; l < k; l++) s += a[i * k + l] * b[l * n + j];
            c[i * n + j] = s;
        }
}

typedef void (*MadFn)(int64_t, int64_t, int64_t, const float *, const float *, float *);

static double best_ms(MadFn f, int64_t m, int64_t n, int64_t k, const float *a, const float *b, float *c, int reps) {
    double best = 1e30;
    for (int r = 0; r < reps; r++) {
        double t0 = base_now_seconds();
        f(m, n, k, a, b, c);
        double t = (base_now_seconds() - t0) * 1e3;
        if (t < best) best = t;
    }
    return best;
}

static double sim_ms(SimCore *c, Kernel *k, void **gm, bool race, int reps, int64_t *cycles) {
    double best = 1e30;
    for (int r = 0; r < reps; r++) {
        SimOptions o = { .race_check = race };
        SimResult res;
        DiagSink dg;
        diag_init(&dg);
        double t0 = base_now_seconds();
        bool ok = sim_run(c, k, gm, &o, &res, &dg);
        double t = (base_now_seconds() - t0) * 1e3;
        if (!ok || res.races.len || res.sync_errors.len) { fprintf(stderr, "sim_run failed\n"); exit(1); }
        *cycles = res.cycles;
        sim_result_free(&res);
        diag_free(&dg);
        if (t < best) best = t;
    }
    return best;
}

int main(void) {
    uint32_t seed = 1;
    int64_t M = 128, N = 128, K = 128;
    float *a = malloc(sizeof(float) * 128 * 512), *b = malloc(sizeof(float) * 512 * 128);
    float *c1 = malloc(sizeof(float) * 128 * 128), *c2 = malloc(sizeof(float) * 128 * 128);
    for (int j = 0; j < 128 * 512; j++) { a[j] = trandf(&seed); b[j] = trandf(&seed); }
    double t_mad = best_ms(sim_mad_f32, M, N, K, a, b, c1, 50);
    double t_naive = best_ms(naive, M, N, K, a, b, c2, 20);
    double diff = 0;
    for (int j = 0; j < M * N; j++) diff = fmax(diff, fabs(c1[j] - c2[j]));
    printf("mad 128x128x128:      %.3f ms   naive triple loop %.3f ms   speed-up x%.1f (max diff %.1e)\n", t_mad,
           t_naive, t_naive / t_mad, diff);

    Arena *ar = arena_new();
    Kernel *k = build_matmul(ar, 0);
    uint16_t *ga = rand_fp16(128 * 512, 1), *gb = rand_fp16(512 * 128, 2);
    float *gc = calloc(128 * 128, sizeof(float));
    void *gm[] = { ga, gb, gc };
    SimCore *core = sim_core_new(target_get(TGT_A2A3), CORE_AIC);
    int64_t cycles = 0;
    double t_cold = sim_ms(core, k, gm, true, 1, &cycles);   /* fresh core: page faults included */
    double t_sim = sim_ms(core, k, gm, false, 20, &cycles);
    double t_race = sim_ms(core, k, gm, true, 20, &cycles);
    double t_base = best_ms(naive, 128, 128, 512, a, b, c2, 10);
    printf("sim matmul cold (new core, race check): %.3f ms\n", t_cold);
    printf("sim matmul 128x512x128: %.3f ms (race check %.3f ms)   naive matmul %.3f ms   ratio sim/naive %.2f (race %.2f)"
           "   simulated %lld cycles\n", t_sim, t_race, t_base, t_sim / t_base, t_race / t_base, (long long)cycles);
    sim_core_free(core);
    arena_free(ar);
    free(a); free(b); free(c1); free(c2); free(ga); free(gb); free(gc);
    return 0;
}
