/* vec_bench — the vector unit's simulation speed, side by side with a baseline in the same process:
 * 128 tadd instructions on [64, 128] FP32 Vec tiles (1M element additions) run by sim_run, with and
 * without the race detector, against a plain C loop doing the same 1M additions. The target:
 * the simulator at >= 0.25x the plain loop's speed. Prints milliseconds (best of N) and the ratios. */
#include "sim/sim.h"
#include "test_sim_util.h"

#include <stdio.h>

enum { R = 64, C = 128, REPS = 128 };

static void __attribute__((noinline)) plain_add(float *c, const float *a, const float *b, int n, int reps) {
    for (int k = 0; k < reps; k++)
        for (int j = 0; j < n; j++) c[j] = a[j] + b[j];
}

static Kernel *build_add(Arena *ar) {
    Kernel *k = mir_kernel_new(ar, "vec_add", CORE_AIV);
    KB b = { k, 0, 0, 0 };
    int a = mir_add_buf(k, tbuf("a", MS_VEC, 0, DT_FP32, R, C, NDL, 512));
    int bb = mir_add_buf(k, tbuf("b", MS_VEC, 32768, DT_FP32, R, C, NDL, 512));
    int d = mir_add_buf(k, tbuf("d", MS_VEC, 65536, DT_FP32, R, C, NDL, 512));
    int v = mir_add_var(k, "it");
    MirInst *f = mir_inst_new(k, MI_FOR, PIPE_NONE);
    f->var = v; f->start = mir_const(k, 0); f->stop = mir_const(k, REPS); f->step = mir_const(k, 1);
    kb_push(&b, NULL, f);
    MirInst *i = mir_inst_new(k, MI_VOP, PIPE_V);
    i->vop = VOP_ADD; i->dst = d; i->src0 = a; i->src1 = bb;
    kb_push(&b, &f->body, i);
    kb_bar(&b, &f->body, PIPE_V);
    return k;
}

static double sim_ms(SimCore *c, Kernel *k, bool race) {
    double best = 1e30;
    for (int r = 0; r < 7; r++) {
        SimOptions o = { .race_check = race };
        SimResult res;
        DiagSink dg;
        diag_init(&dg);
        double t0 = base_now_seconds();
        bool ok = sim_run(c, k, NULL, &o, &res, &dg);
        double t = (base_now_seconds() - t0) * 1e3;
        if (!ok || res.races.len) { fprintf(stderr, "sim_run failed\n"); exit(1); }
        sim_result_free(&res);
        diag_free(&dg);
        if (t < best) best = t;
    }
    return best;
}

int main(void) {
    Arena *ar = arena_new();
    Kernel *k = build_add(ar);
    SimCore *core = sim_core_new(target_get(TGT_A2A3), CORE_AIV);
    float *pa = malloc(sizeof(float) * R * C), *pb = malloc(sizeof(float) * R * C), *pc = malloc(sizeof(float) * R * C);
    for (int j = 0; j < R * C; j++) { pa[j] = (float)j; pb[j] = 0.25f; }
    double t_off = sim_ms(core, k, false), t_on = sim_ms(core, k, true);
    double t_c = 1e30;
    for (int r = 0; r < 7; r++) {
        double t0 = base_now_seconds();
        plain_add(pc, pa, pb, R * C, REPS);
        double t = (base_now_seconds() - t0) * 1e3;
        if (t < t_c) t_c = t;
    }
    printf("vec add fp32 1M elements: sim %.3f ms (race check %.3f ms)   plain C loop %.3f ms   speed vs loop x%.2f "
           "(race x%.2f; target >= 0.25)  [checksum %g]\n", t_off, t_on, t_c, t_c / t_off, t_c / t_on, (double)pc[R * C - 1]);
    sim_core_free(core);
    arena_free(ar);
    free(pa); free(pb); free(pc);
    return 0;
}
