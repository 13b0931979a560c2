/* test_nz — pl.NZ tensors (issue 6 item 4): a buffer of an NZ parameter holds the NZ fractal order of
 * its logical R x C matrix, element (i, j) at (j / c0)·R·c0 + i·c0 + j % c0 (c0 = 32 B / element
 * size). Every expected value here is computed by this file from that formula, independently of
 * the code under test:
 *   - the public API runs the walkthrough's rung 4 (and an INT8 and an FP32 variant) on NZ-ordered
 *     bytes and must produce the logical product, equal to the pl.ND program's on the row-major bytes;
 *   - the interpreter's block / unblock of a logical matrix;
 *   - the simulator's tload from a hand-built NZ parameter at blocked offsets, its hard error on a
 *     window that is not whole fractals, and the .pto view of that parameter. */
#include "back/back.h"
#include "interp/interp_internal.h"
#include "ptoc.h"
#include "test.h"

#include <stdlib.h>

#include "test_sim_util.h"

static int64_t nz_index(int64_t R, int64_t c0, int64_t i, int64_t j) { return (j / c0) * (R * c0) + i * c0 + j % c0; }

/* ---------------------------------------------------------------- the API on NZ-ordered bytes */
static const char *PROG =
    "import pypto.language as pl\n"
    "@pl.jit\n"
    "def mm(a: pl.Tensor[[%d, %d], pl.%s],\n"
    "       b: pl.Tensor[[%d, %d], pl.%s%s],\n"
    "       c: pl.Out[pl.Tensor[[%d, %d], pl.%s]]):\n"
    "    with pl.at(level=pl.Level.CORE_GROUP):\n"
    "        c[:] = pl.matmul(a, b, out_dtype=pl.%s)\n"
    "    return c\n";

/* Runs the program (NZ or ND b) on the given bytes with the golden comparison; returns the API status. */
static int run_prog(int M, int K, int N, const char *dt, const char *acc, bool nz, void *a, void *b, void *c,
                    const char *target) {
    char text[1024];
    snprintf(text, sizeof text, PROG, M, K, dt, K, N, dt, nz ? ", pl.NZ" : "", M, N, acc, acc);
    ptoc_program *p = ptoc_program_new();
    int rc = ptoc_set_option(p, "golden", "1") || ptoc_set_option(p, "target", target) ||
             ptoc_load_text(p, "nz.py", text, NULL) || ptoc_compile(p);
    void *bufs[3] = { a, b, c };
    if (!rc) rc = ptoc_run(p, bufs, 3);
    if (rc) printf("  ptoc: %s\n", ptoc_diagnostics(p));
    else CHECK_CONTAINS(ptoc_report_json(p), "\"ok\":true");
    ptoc_program_free(p);
    return rc;
}

/* Small integers in every dtype: each product is exact, so equality is exact. */
static void put(DType dt, void *buf, int64_t i, int v) {
    switch (dt) {
    case DT_FP16: ((uint16_t *)buf)[i] = f32_to_fp16((float)v); break;
    case DT_BF16: ((uint16_t *)buf)[i] = f32_to_bf16((float)v); break;
    case DT_FP32: ((float *)buf)[i] = (float)v; break;
    case DT_INT8: ((int8_t *)buf)[i] = (int8_t)v; break;
    default: break;
    }
}

static void check_api(int M, int K, int N, DType dt, const char *target) {
    int eb = dtype_bytes(dt), c0 = 32 / eb;
    bool integer = dt == DT_INT8;
    const char *dn = dtype_name(dt), *acc = integer ? "INT32" : "FP32";
    int *av = malloc(sizeof(int) * (size_t)(M * K)), *bv = malloc(sizeof(int) * (size_t)(K * N));
    uint32_t seed = 11u + (uint32_t)(M * 7 + N);
    for (int i = 0; i < M * K; i++) av[i] = (int)(trand(&seed) % 17) - 8;
    for (int i = 0; i < K * N; i++) bv[i] = (int)(trand(&seed) % 17) - 8;
    void *a = calloc((size_t)(M * K), (size_t)eb), *b = calloc((size_t)(K * N), (size_t)eb),
         *bnz = calloc((size_t)(K * N), (size_t)eb);
    for (int i = 0; i < M * K; i++) put(dt, a, i, av[i]);
    for (int i = 0; i < K; i++)
        for (int j = 0; j < N; j++) {
            put(dt, b, i * N + j, bv[i * N + j]);
            put(dt, bnz, nz_index(K, c0, i, j), bv[i * N + j]);
        }
    int32_t *cnz = calloc((size_t)(M * N), 4), *cnd = calloc((size_t)(M * N), 4);
    CHECK_EQ_INT(run_prog(M, K, N, dn, acc, true, a, bnz, cnz, target), 0);
    CHECK_EQ_INT(run_prog(M, K, N, dn, acc, false, a, b, cnd, target), 0);
    int bad = 0, diff = 0;
    for (int i = 0; i < M; i++)
        for (int j = 0; j < N; j++) {
            long long s = 0;
            for (int k = 0; k < K; k++) s += (long long)av[i * K + k] * bv[k * N + j];
            double got = integer ? (double)cnz[i * N + j] : (double)((float *)cnz)[i * N + j];
            bad += got != (double)s;
            diff += cnz[i * N + j] != cnd[i * N + j];
        }
    CHECK_MSG(bad == 0, "%s %dx%dx%d on %s: %d of %d elements differ from the logical product", dn, M, K, N, target,
              bad, M * N);
    CHECK_MSG(diff == 0, "%s %dx%dx%d on %s: NZ and ND programs differ in %d elements", dn, M, K, N, target, diff);
    free(av); free(bv); free(a); free(b); free(bnz); free(cnz); free(cnd);
}

TEST(test_nz_api) {
    check_api(128, 512, 128, DT_FP16, "a2a3");   /* the walkthrough's rung 4 */
    check_api(128, 512, 128, DT_FP16, "a5");
    check_api(48, 64, 96, DT_INT8, "a2a3");
    check_api(32, 64, 48, DT_FP32, "a5");
    check_api(64, 32, 32, DT_BF16, "a2a3");
}

/* ---------------------------------------------------------------- the interpreter's NZ forms */
TEST(test_nz_interp_block) {
    DType dts[] = { DT_FP16, DT_INT8, DT_FP32 };
    int64_t shapes[][2] = { { 32, 48 }, { 16, 64 }, { 48, 24 } };
    for (int t = 0; t < 3; t++) {
        int64_t R = shapes[t][0], C = shapes[t][1], c0 = 32 / dtype_bytes(dts[t]);
        InterpArray *l = interp_array_new(dts[t], 2, shapes[t]);
        for (int64_t i = 0; i < R * C; i++) interp_set(l, i, (double)(i % 251 - 125));   /* an INT8 value too */
        InterpArray *b = interp_nz_block(l);
        CHECK(b && b->rank == 5);
        if (!b) { interp_array_release(l); continue; }
        CHECK(b->shape[0] == 1 && b->shape[1] == C / c0 && b->shape[2] == R / 16 && b->shape[3] == 16 && b->shape[4] == c0);
        int bad = 0;
        for (int64_t i = 0; i < R; i++)
            for (int64_t j = 0; j < C; j++) bad += interp_get(b, nz_index(R, c0, i, j)) != interp_get(l, i * C + j);
        CHECK_EQ_INT(bad, 0);
        InterpArray *back = interp_nz_unblock(b);
        CHECK(back && back->rank == 2 && back->shape[0] == R && back->shape[1] == C &&
              memcmp(back->data, l->data, (size_t)interp_elem_bytes(dts[t]) * (size_t)(R * C)) == 0);
        interp_array_release(back);
        interp_array_release(b);
        interp_array_release(l);
    }
    InterpArray *odd = interp_array_new(DT_FP16, 2, (int64_t[]){ 24, 32 });   /* 24 rows: not whole fractals */
    CHECK(interp_nz_block(odd) == NULL);
    interp_array_release(odd);
}

/* ---------------------------------------------------------------- the simulator and the .pto view */
/* b: NZ [R, C] blocked [1, C/c0, R/16, 16, c0]; y: ND [rows, cols]; tload b's window at blocked
 * offsets o[5] into Mat, tstore to y. */
static Kernel *nz_kernel(Arena *ar, KB *kb, DType dt, int64_t R, int64_t C, int64_t rows, int64_t cols, const int64_t *o) {
    int64_t c0 = 32 / dtype_bytes(dt);
    kb->k = mir_kernel_new(ar, "nzk", CORE_AIC);
    kb->line = 0; kb->skip = 0; kb->nsync = 0;
    Kernel *k = kb->k;
    const char *names[] = { "b", "y" };
    DType dts[] = { dt, dt };
    int64_t shapes[][2] = { { R, C }, { rows, cols } };
    tparams(k, 2, names, dts, shapes);
    MirParam *p = &k->params[0];
    int64_t dims[5] = { 1, C / c0, R / 16, 16, c0 };
    p->rank = 5;
    p->layout = MIR_LAYOUT_NZ;
    for (int d = 4, s = 1; d >= 0; d--) { p->shape[d] = dims[d]; p->strides[d] = s; s *= (int)dims[d]; }
    int m = mir_add_buf(k, tbuf("m", MS_MAT, 0, dt, rows, cols, NZ, 512));
    MirInst *ld = kb_gm(kb, NULL, MI_TLOAD, m, 0, NULL, NULL);
    for (int d = 0; d < 5; d++) ld->off[d] = mir_const(k, o[d]);
    kb_flag(kb, NULL, MI_SET_FLAG, PIPE_MTE2, PIPE_MTE3, 0);
    kb_flag(kb, NULL, MI_WAIT_FLAG, PIPE_MTE2, PIPE_MTE3, 0);
    kb_gm(kb, NULL, MI_TSTORE, m, 1, NULL, NULL);
    return k;
}

TEST(test_nz_sim_tload) {
    Arena *ar = arena_new();
    DType dts[] = { DT_FP16, DT_FP32, DT_INT8 };
    for (int t = 0; t < 3; t++) {
        DType dt = dts[t];
        int eb = dtype_bytes(dt);
        int64_t c0 = 32 / eb, R = 64, C = 4 * c0, rows = 32, cols = 2 * c0;
        int64_t o[5] = { 0, 1, 2, 0, 0 };   /* logical window origin (32, c0) */
        KB kb;
        Kernel *k = nz_kernel(ar, &kb, dt, R, C, rows, cols, o);
        uint8_t *x = malloc((size_t)(R * C * eb)), *y = calloc((size_t)(rows * cols), (size_t)eb);
        for (int64_t i = 0; i < R * C * eb; i++) x[i] = (uint8_t)((i * 7 + i / 3) & 0x3f);   /* finite in every dtype */
        void *gm[] = { x, y };
        SimCore *core = sim_core_new(target_get(TGT_A2A3), CORE_AIC);
        SimOptions so = { .race_check = true };
        SimResult r;
        memset(&r, 0, sizeof r);
        DiagSink dg;
        diag_init(&dg);
        CHECK(sim_run(core, k, gm, &so, &r, &dg));
        CHECK_EQ_INT(r.races.len + r.sync_errors.len, 0);
        int bad = 0;
        for (int64_t i = 0; i < rows; i++)
            for (int64_t j = 0; j < cols; j++)
                bad += memcmp(y + (i * cols + j) * eb, x + nz_index(R, c0, 32 + i, c0 + j) * eb, (size_t)eb) != 0;
        CHECK_MSG(bad == 0, "%s: %d of %lld elements of the NZ window differ", dtype_name(dt), bad, (long long)(rows * cols));
        sim_result_free(&r);
        diag_free(&dg);
        if (t == 0) {   /* the .pto view of the parameter and of the window */
            StrBuf sb = { 0 };
            back_print_pto(k, target_get(TGT_A2A3), &sb);
            CHECK_CONTAINS(sb_cstr(&sb), "%b_view = pto.make_tensor_view %arg0, shape = [%c1_index, %c4_index, %c4_index, "
                                         "%c16_index, %c16_index], strides = [%c4096_index, %c1024_index, %c256_index, "
                                         "%c16_index, %c1_index] {layout = #pto.layout<nz>} : !pto.tensor_view<?x?x?x?x?xf16>");
            CHECK_CONTAINS(sb_cstr(&sb), "pto.partition_view %b_view, offsets = [%c0_index, %c1_index, %c2_index, %c0_index, "
                                         "%c0_index], sizes = [%c1_index, %c2_index, %c2_index, %c16_index, %c16_index] : "
                                         "!pto.tensor_view<?x?x?x?x?xf16> -> !pto.partition_tensor_view<1x2x2x16x16xf16>");
            sb_free(&sb);
            /* a window 8 rows into a fractal: a hard error, not a silently shifted window */
            int64_t mis[5] = { 0, 0, 0, 8, 0 };
            KB kb2;
            Kernel *k2 = nz_kernel(ar, &kb2, dt, R, C, rows, cols, mis);
            memset(&r, 0, sizeof r);
            diag_init(&dg);
            CHECK(!sim_run(core, k2, gm, &so, &r, &dg));
            CHECK(dg.nerrors == 1 && strstr(dg.items.data[0].msg, "tload window of NZ parameter b at blocked offsets (0, 0, 0, 8, 0) is not whole fractals"));
            sim_result_free(&r);
            diag_free(&dg);
        }
        sim_core_free(core);
        free(x); free(y);
    }
    arena_free(ar);
}

int main(void) {
    RUN(test_nz_interp_block);
    RUN(test_nz_sim_tload);
    RUN(test_nz_api);
    return test_summary();
}
