/* test_sim_ops — simulator instruction semantics on small hand-built kernels: tload/tstore round
 * trips, textract windows and bounds, matmul dtypes (FP32, BF16, INT8, bias), Acc -> Mat narrowing,
 * tinsert, atomic add, hard errors. */
#include "test.h"
#include "test_sim_util.h"

static const Target *T(void) { return target_get(TGT_A2A3); }

typedef struct Run { SimResult r; DiagSink dg; bool ok; } Run;

static Run run(SimCore *c, Kernel *k, void **gm) {
    Run x;
    diag_init(&x.dg);
    SimOptions o = { .race_check = true };
    x.ok = sim_run(c, k, gm, &o, &x.r, &x.dg);
    for (int j = 0; j < x.r.races.len; j++) printf("  note: %s\n", x.r.races.data[j]);
    for (int j = 0; j < x.r.sync_errors.len; j++) printf("  note: %s\n", x.r.sync_errors.data[j]);
    return x;
}
static void run_free(Run *x) { sim_result_free(&x->r); diag_free(&x->dg); }

static Kernel *kernel2(Arena *ar, KB *b, DType d0, int64_t r0, int64_t c0, DType d1, int64_t r1, int64_t c1) {
    *b = (KB){ .k = mir_kernel_new(ar, "k", CORE_AIC) };
    const char *names[] = { "x", "y" };
    DType dts[] = { d0, d1 };
    int64_t shapes[][2] = { { r0, c0 }, { r1, c1 } };
    tparams(b->k, 2, names, dts, shapes);
    return b->k;
}

TEST(test_tload_tstore_roundtrip) {
    Arena *ar = arena_new();
    KB b;
    Kernel *k = kernel2(ar, &b, DT_FP16, 96, 80, DT_FP16, 64, 64);
    int m = mir_add_buf(k, tbuf("m", MS_MAT, 1024, DT_FP16, 64, 64, NZ, 512));
    kb_gm(&b, NULL, MI_TLOAD, m, 0, mir_const(k, 16), mir_const(k, 16));
    kb_flag(&b, NULL, MI_SET_FLAG, PIPE_MTE2, PIPE_MTE3, 0);
    kb_flag(&b, NULL, MI_WAIT_FLAG, PIPE_MTE2, PIPE_MTE3, 0);
    kb_gm(&b, NULL, MI_TSTORE, m, 1, NULL, NULL);
    uint16_t *x = rand_fp16(96 * 80, 7), *y = calloc(64 * 64, 2);
    void *gm[] = { x, y };
    SimCore *c = sim_core_new(T(), CORE_AIC);
    Run r = run(c, k, gm);
    CHECK(r.ok);
    int bad = 0;
    for (int i = 0; i < 64; i++)
        for (int j = 0; j < 64; j++) bad += y[i * 64 + j] != x[(16 + i) * 80 + 16 + j];
    CHECK_EQ_INT(bad, 0);
    /* the tile really is NZ in L1 */
    int64_t sz;
    uint8_t *mat = sim_core_mem(c, MS_MAT, &sz);
    uint16_t h;
    memcpy(&h, mat + 1024 + 2 * sim_layout_offset(NZ, 512, 2, 64, 64, 17, 20), 2);
    CHECK_EQ_INT(h, x[(16 + 17) * 80 + 16 + 20]);
    CHECK_EQ_INT(r.r.races.len + r.r.sync_errors.len, 0);
    CHECK_EQ_INT(r.r.pipe_busy[PIPE_MTE3], 100 + 441);   /* dma_fixed + 8192 B / 18.6 */
    run_free(&r);
    /* without the flag: RAW on Mat between MTE2 and MTE3 */
    KB b2;
    Kernel *k2 = kernel2(ar, &b2, DT_FP16, 96, 80, DT_FP16, 64, 64);
    m = mir_add_buf(k2, tbuf("m", MS_MAT, 0, DT_FP16, 64, 64, NZ, 512));
    kb_gm(&b2, NULL, MI_TLOAD, m, 0, NULL, NULL);
    kb_gm(&b2, NULL, MI_TSTORE, m, 1, NULL, NULL);
    r = run(c, k2, gm);
    CHECK(r.ok);
    CHECK(msgs_contain((const char *const *)r.r.races.data, r.r.races.len, "race: RAW on Mat [0, 8192): tstore (MTE3, line 2) reads what tload (MTE2, line 1) wrote, not ordered by a flag chain"));
    run_free(&r);
    /* out-of-bounds GM window: hard error */
    KB b3;
    Kernel *k3 = kernel2(ar, &b3, DT_FP16, 96, 80, DT_FP16, 64, 64);
    m = mir_add_buf(k3, tbuf("m", MS_MAT, 0, DT_FP16, 64, 64, NZ, 512));
    kb_gm(&b3, NULL, MI_TLOAD, m, 0, mir_const(k3, 40), NULL);
    r = run(c, k3, gm);
    CHECK(!r.ok);
    CHECK_EQ_INT(r.dg.nerrors, 1);
    run_free(&r);
    /* a buffer beyond its space: hard error */
    KB b4;
    Kernel *k4 = kernel2(ar, &b4, DT_FP16, 96, 80, DT_FP16, 64, 64);
    mir_add_buf(k4, tbuf("big", MS_LEFT, 65536 - 4096, DT_FP16, 64, 64, ZZ, 512));
    r = run(c, k4, gm);
    CHECK(!r.ok);
    CHECK(r.dg.nerrors == 1 && strstr(r.dg.items.data[0].msg, "exceeds Left"));
    run_free(&r);
    free(x); free(y);
    sim_core_free(c);
    arena_free(ar);
}

TEST(test_tload_pad_zero) {
    Arena *ar = arena_new();
    KB b;
    Kernel *k = kernel2(ar, &b, DT_FP16, 32, 32, DT_FP16, 32, 32);
    MirBuf mb = tbuf("m", MS_MAT, 0, DT_FP16, 32, 32, NZ, 512);
    mb.valid_rows = 20; mb.valid_cols = 24; mb.pad = 1;
    int m = mir_add_buf(k, mb);
    kb_gm(&b, NULL, MI_TLOAD, m, 0, NULL, NULL);
    uint16_t *x = rand_fp16(32 * 32, 9);
    void *gm[] = { x, NULL };
    SimCore *c = sim_core_new(T(), CORE_AIC);
    int64_t sz;
    uint8_t *mat = sim_core_mem(c, MS_MAT, &sz);
    memset(mat, 0xff, 4096);
    Run r = run(c, k, gm);
    CHECK(r.ok);
    int bad = 0;
    for (int i = 0; i < 32; i++)
        for (int j = 0; j < 32; j++) {
            uint16_t h;
            memcpy(&h, mat + 2 * sim_layout_offset(NZ, 512, 2, 32, 32, i, j), 2);
            bad += h != (i < 20 && j < 24 ? x[i * 32 + j] : 0);
        }
    CHECK_EQ_INT(bad, 0);
    run_free(&r);
    free(x);
    sim_core_free(c);
    arena_free(ar);
}

TEST(test_textract_windows) {
    Arena *ar = arena_new();
    KB b;
    Kernel *k = kernel2(ar, &b, DT_FP16, 64, 64, DT_FP16, 1, 1);
    int m = mir_add_buf(k, tbuf("m", MS_MAT, 0, DT_FP16, 64, 64, NZ, 512));
    int l = mir_add_buf(k, tbuf("l", MS_LEFT, 512, DT_FP16, 32, 32, ZZ, 512));
    int rr = mir_add_buf(k, tbuf("r", MS_RIGHT, 0, DT_FP16, 32, 48, ZN, 512));
    kb_gm(&b, NULL, MI_TLOAD, m, 0, NULL, NULL);
    kb_flag(&b, NULL, MI_SET_FLAG, PIPE_MTE2, PIPE_MTE1, 0);
    kb_flag(&b, NULL, MI_WAIT_FLAG, PIPE_MTE2, PIPE_MTE1, 0);
    kb_ext(&b, NULL, l, m, mir_const(k, 16), mir_const(k, 32));
    kb_ext(&b, NULL, rr, m, mir_const(k, 32), mir_const(k, 16));
    uint16_t *x = rand_fp16(64 * 64, 11);
    void *gm[] = { x, NULL };
    SimCore *c = sim_core_new(T(), CORE_AIC);
    Run r = run(c, k, gm);
    CHECK(r.ok);
    int64_t sz;
    uint8_t *left = sim_core_mem(c, MS_LEFT, &sz), *right = sim_core_mem(c, MS_RIGHT, &sz);
    int bad = 0;
    for (int i = 0; i < 32; i++)
        for (int j = 0; j < 32; j++) {
            uint16_t h;
            memcpy(&h, left + 512 + 2 * sim_layout_offset(ZZ, 512, 2, 32, 32, i, j), 2);
            bad += h != x[(16 + i) * 64 + 32 + j];
        }
    for (int i = 0; i < 32; i++)
        for (int j = 0; j < 48; j++) {
            uint16_t h;
            memcpy(&h, right + 2 * sim_layout_offset(ZN, 512, 2, 32, 48, i, j), 2);
            bad += h != x[(32 + i) * 64 + 16 + j];
        }
    CHECK_EQ_INT(bad, 0);
    CHECK_EQ_INT(r.r.races.len + r.r.sync_errors.len, 0);
    /* same pipe, no barrier, same buffer twice: WAW hazard */
    run_free(&r);
    KB b2;
    Kernel *k2 = kernel2(ar, &b2, DT_FP16, 64, 64, DT_FP16, 1, 1);
    m = mir_add_buf(k2, tbuf("m", MS_MAT, 0, DT_FP16, 64, 64, NZ, 512));
    l = mir_add_buf(k2, tbuf("l", MS_LEFT, 0, DT_FP16, 32, 32, ZZ, 512));
    kb_gm(&b2, NULL, MI_TLOAD, m, 0, NULL, NULL);
    kb_flag(&b2, NULL, MI_SET_FLAG, PIPE_MTE2, PIPE_MTE1, 0);
    kb_flag(&b2, NULL, MI_WAIT_FLAG, PIPE_MTE2, PIPE_MTE1, 0);
    kb_ext(&b2, NULL, l, m, NULL, NULL);
    kb_ext(&b2, NULL, l, m, NULL, mir_const(k2, 32));
    r = run(c, k2, gm);
    CHECK(r.ok);
    CHECK(msgs_contain((const char *const *)r.r.races.data, r.r.races.len,
                       "race: WAW on Left [0, 2048): textract (MTE1, line 5) overwrites what textract (MTE1, line 4) wrote, same-pipe hazard without pipe_barrier (buffers l / l)"));
    run_free(&r);
    /* with the barrier: clean */
    KB b3;
    Kernel *k3 = kernel2(ar, &b3, DT_FP16, 64, 64, DT_FP16, 1, 1);
    m = mir_add_buf(k3, tbuf("m", MS_MAT, 0, DT_FP16, 64, 64, NZ, 512));
    l = mir_add_buf(k3, tbuf("l", MS_LEFT, 0, DT_FP16, 32, 32, ZZ, 512));
    kb_gm(&b3, NULL, MI_TLOAD, m, 0, NULL, NULL);
    kb_flag(&b3, NULL, MI_SET_FLAG, PIPE_MTE2, PIPE_MTE1, 0);
    kb_flag(&b3, NULL, MI_WAIT_FLAG, PIPE_MTE2, PIPE_MTE1, 0);
    kb_ext(&b3, NULL, l, m, NULL, NULL);
    kb_bar(&b3, NULL, PIPE_MTE1);
    kb_ext(&b3, NULL, l, m, NULL, mir_const(k3, 32));
    r = run(c, k3, gm);
    CHECK(r.ok);
    CHECK_EQ_INT(r.r.races.len + r.r.sync_errors.len, 0);
    run_free(&r);
    /* window beyond the source: hard error */
    KB b4;
    Kernel *k4 = kernel2(ar, &b4, DT_FP16, 64, 64, DT_FP16, 1, 1);
    m = mir_add_buf(k4, tbuf("m", MS_MAT, 0, DT_FP16, 64, 64, NZ, 512));
    l = mir_add_buf(k4, tbuf("l", MS_LEFT, 0, DT_FP16, 32, 32, ZZ, 512));
    kb_ext(&b4, NULL, l, m, NULL, mir_const(k4, 48));
    r = run(c, k4, gm);
    CHECK(!r.ok);
    CHECK(r.dg.nerrors == 1 && strstr(r.dg.items.data[0].msg, "textract"));
    run_free(&r);
    free(x);
    sim_core_free(c);
    arena_free(ar);
}

/* Small matmul m x k x n through Mat (NZ) -> Left / Right -> Acc -> GM, in dtype dt (acc FP32 or
 * INT32), optionally with a bias row (FP32, through Mat -> Bias). Returns max |err| vs reference. */
static double small_matmul(DType dt, int64_t m, int64_t kk, int64_t n, bool bias, DType out_dt) {
    Arena *ar = arena_new();
    KB b = { .k = mir_kernel_new(ar, "mm", CORE_AIC) };
    Kernel *k = b.k;
    DType acc_dt = dt == DT_INT8 ? DT_INT32 : DT_FP32;
    const char *names[] = { "a", "b", "c", "bias" };
    DType dts[] = { dt, dt, out_dt, DT_FP32 };
    int64_t shapes[][2] = { { m, kk }, { kk, n }, { m, n }, { 1, n } };
    tparams(k, 4, names, dts, shapes);
    int eb = dtype_bytes(dt);
    int am = mir_add_buf(k, tbuf("am", MS_MAT, 0, dt, m, kk, NZ, 512));
    int bm = mir_add_buf(k, tbuf("bm", MS_MAT, 65536, dt, kk, n, NZ, 512));
    int biasm = mir_add_buf(k, tbuf("biasm", MS_MAT, 131072, DT_FP32, 1, n, NDL, 0));
    int sa = mir_add_buf(k, tbuf("sa", MS_LEFT, 0, dt, m, kk, ZZ, 512));
    int sb = mir_add_buf(k, tbuf("sb", MS_RIGHT, 0, dt, kk, n, ZN, 512));
    int bt = mir_add_buf(k, tbuf("bt", MS_BIAS, 0, DT_FP32, 1, n, NDL, 0));
    int acc = mir_add_buf(k, tbuf("acc", MS_ACC, 0, acc_dt, m, n, NZ, 1024));
    kb_gm(&b, NULL, MI_TLOAD, am, 0, NULL, NULL);
    kb_gm(&b, NULL, MI_TLOAD, bm, 1, NULL, NULL);
    if (bias) kb_gm(&b, NULL, MI_TLOAD, biasm, 3, NULL, NULL);
    kb_flag(&b, NULL, MI_SET_FLAG, PIPE_MTE2, PIPE_MTE1, 0);
    kb_flag(&b, NULL, MI_WAIT_FLAG, PIPE_MTE2, PIPE_MTE1, 0);
    kb_tile(&b, NULL, MI_TMOV, sa, am, -1, -1);
    kb_tile(&b, NULL, MI_TMOV, sb, bm, -1, -1);
    if (bias) kb_tile(&b, NULL, MI_TMOV, bt, biasm, -1, -1);
    kb_flag(&b, NULL, MI_SET_FLAG, PIPE_MTE1, PIPE_M, 0);
    kb_flag(&b, NULL, MI_WAIT_FLAG, PIPE_MTE1, PIPE_M, 0);
    kb_tile(&b, NULL, bias ? MI_TMATMUL_BIAS : MI_TMATMUL, acc, sa, sb, bias ? bt : -1);
    kb_flag(&b, NULL, MI_SET_FLAG, PIPE_M, PIPE_FIX, 0);
    kb_flag(&b, NULL, MI_WAIT_FLAG, PIPE_M, PIPE_FIX, 0);
    kb_gm(&b, NULL, MI_TSTORE, acc, 2, NULL, NULL);
    uint32_t seed = 5;
    uint8_t *a = malloc((size_t)(m * kk * eb)), *bb = malloc((size_t)(kk * n * eb));
    float *fa = malloc(sizeof(float) * (size_t)(m * kk)), *fb = malloc(sizeof(float) * (size_t)(kk * n));
    float *ref = malloc(sizeof(float) * (size_t)(m * n)), *bv = malloc(sizeof(float) * (size_t)n);
    uint8_t *out = calloc((size_t)(m * n), 4);
    for (int64_t j = 0; j < m * kk + kk * n; j++) {
        uint8_t *p = j < m * kk ? a + j * eb : bb + (j - m * kk) * eb;
        double v = dt == DT_INT8 ? (double)((int)(trand(&seed) % 255) - 127) : trandf(&seed);
        sim_write_elem(dt, p, v);
        (j < m * kk ? fa : fb)[j < m * kk ? j : j - m * kk] = (float)sim_read_elem(dt, p);
    }
    for (int64_t j = 0; j < n; j++) bv[j] = bias ? trandf(&seed) : 0.0f;
    ref_matmul(m, n, kk, fa, fb, ref);
    void *gm[] = { a, bb, out, bv };
    SimCore *c = sim_core_new(T(), CORE_AIC);
    Run r = run(c, k, gm);
    CHECK(r.ok);
    CHECK_EQ_INT(r.r.races.len + r.r.sync_errors.len, 0);
    double err = 0;
    for (int64_t i = 0; i < m; i++)
        for (int64_t j = 0; j < n; j++) {
            double want = (double)ref[i * n + j] + bv[j];
            double got = sim_read_elem(out_dt, out + (i * n + j) * dtype_bytes(out_dt));
            err = fmax(err, fabs(got - want));
        }
    run_free(&r);
    sim_core_free(c);
    free(a); free(bb); free(fa); free(fb); free(ref); free(bv); free(out);
    arena_free(ar);
    return err;
}

TEST(test_matmul_dtypes) {
    CHECK_NEAR(small_matmul(DT_FP32, 32, 32, 48, false, DT_FP32), 0, 1e-5);
    CHECK_NEAR(small_matmul(DT_BF16, 48, 64, 32, false, DT_FP32), 0, 1e-5);
    CHECK_NEAR(small_matmul(DT_INT8, 32, 64, 32, false, DT_INT32), 0, 0);
    CHECK_NEAR(small_matmul(DT_FP16, 32, 32, 32, true, DT_FP32), 0, 1e-5);
    /* FIXPIPE narrowing to FP16 / BF16: within half an ulp of |c| <= 8 */
    CHECK_NEAR(small_matmul(DT_FP16, 32, 32, 32, false, DT_FP16), 0, 4.0 / 1024);
    CHECK_NEAR(small_matmul(DT_FP16, 32, 32, 32, false, DT_BF16), 0, 4.0 / 128);
}

TEST(test_aiv_vec) {
    Arena *ar = arena_new();
    KB b;
    Kernel *k = kernel2(ar, &b, DT_FP32, 64, 64, DT_FP32, 32, 64);
    k->core = CORE_AIV;
    int v = mir_add_buf(k, tbuf("v", MS_VEC, 256, DT_FP32, 32, 64, NDL, 0));
    kb_gm(&b, NULL, MI_TLOAD, v, 0, mir_const(k, 8), NULL);               /* line 1 */
    kb_flag(&b, NULL, MI_SET_FLAG, PIPE_MTE2, PIPE_MTE3, 0);
    kb_flag(&b, NULL, MI_WAIT_FLAG, PIPE_MTE2, PIPE_MTE3, 0);
    kb_gm(&b, NULL, MI_TSTORE, v, 1, NULL, NULL);                         /* line 4 */
    kb_gm(&b, NULL, MI_TLOAD, v, 1, NULL, NULL);                          /* line 5: GM RAW, Vec WAR */
    float *x = malloc(64 * 64 * 4), *y = calloc(32 * 64, 4);
    uint32_t seed = 3;
    for (int j = 0; j < 64 * 64; j++) x[j] = trandf(&seed);
    void *gm[] = { x, y };
    SimCore *c = sim_core_new(T(), CORE_AIV);
    Run r = run(c, k, gm);
    CHECK(r.ok);
    CHECK_EQ_INT(memcmp(y, x + 8 * 64, 32 * 64 * 4), 0);
    CHECK(msgs_contain((const char *const *)r.r.races.data, r.r.races.len,
                       "race: RAW on GM [0, 8192): tload (MTE2, line 5) reads what tstore (MTE3, line 4) wrote, not ordered by a flag chain (buffers y / y)"));
    CHECK(msgs_contain((const char *const *)r.r.races.data, r.r.races.len, "race: WAR on Vec [256, 8448)"));
    CHECK_EQ_INT(r.r.pipe_busy[PIPE_MTE2], 240 + 1 + 240);   /* 100 + 8192 / 58.6 = 239.8 */
    CHECK_EQ_INT(r.r.pipe_busy[PIPE_MTE3], 175);             /* 100 + 8192 / 109.4 = 174.9 */
    run_free(&r);
    /* a Mat buffer does not exist on an AIV core */
    KB b2;
    Kernel *k2 = kernel2(ar, &b2, DT_FP32, 64, 64, DT_FP32, 32, 64);
    mir_add_buf(k2, tbuf("m", MS_MAT, 0, DT_FP32, 32, 64, NZ, 512));
    r = run(c, k2, gm);
    CHECK(!r.ok && r.dg.nerrors == 1);
    run_free(&r);
    free(x); free(y);
    sim_core_free(c);
    arena_free(ar);
}

int main(void) {
    RUN(test_aiv_vec);
    RUN(test_tload_tstore_roundtrip);
    RUN(test_tload_pad_zero);
    RUN(test_textract_windows);
    RUN(test_matmul_dtypes);
    return test_summary();
}
