/* test_sim — the core simulator: layouts, instruction semantics, MAD numerics, pipes and timing,
 * flags, deadlocks and the race detector, on kernels built by hand with the mir API. */
#include "test.h"
#include "test_sim_util.h"

static const Target *T(void) { return target_get(TGT_A2A3); }

/* ---- layouts ---- */
TEST(test_layout_offsets) {
    CHECK_EQ_INT(sim_layout_offset(NZ, 512, 2, 128, 64, 17, 20), 2324);          /* the worked example */
    CHECK_EQ_INT(sim_layout_offset(NDL, 0, 2, 4, 8, 1, 2), 10);                  /* ND */
    CHECK_EQ_INT(sim_layout_offset(ML_COL_MAJOR, ML_NONE_BOX, 0, 2, 4, 8, 1, 2), 9);   /* DN */
    CHECK_EQ_INT(sim_layout_offset(ZN, 512, 2, 32, 32, 17, 20), 833);
    CHECK_EQ_INT(sim_layout_offset(ZZ, 512, 2, 32, 32, 17, 20), 788);
    CHECK_EQ_INT(sim_layout_offset(ML_COL_MAJOR, ML_COL_MAJOR, 512, 2, 64, 32, 17, 20), 1345);   /* NN */
    CHECK_EQ_INT(sim_layout_offset(NZ, 512, 4, 32, 16, 17, 10), 394);            /* FP32 NZ: 16x8 boxes */
    CHECK_EQ_INT(sim_layout_offset(NZ, 1024, 4, 32, 32, 17, 20), 788);           /* Acc: 16x16 boxes */
    CHECK_EQ_INT(sim_layout_offset(NZ, 512, 1, 32, 64, 17, 40), 1576);           /* INT8 NZ: 16x32 boxes */
    CHECK_EQ_INT(sim_layout_offset(ZN, 512, 4, 16, 32, 9, 20), 417);             /* FP32 ZN: 8x16 boxes */
    int64_t r0, c0;
    sim_layout_box(ML_COL_MAJOR, 512, 1, &r0, &c0);
    CHECK(r0 == 32 && c0 == 16);
    /* every layout is a bijection onto [0, R*C) */
    MirLayout ls[][2] = { { NDL }, { ML_COL_MAJOR, ML_NONE_BOX }, { NZ }, { ZN }, { ZZ }, { ML_COL_MAJOR, ML_COL_MAJOR } };
    for (int l = 0; l < 6; l++) {
        static unsigned char seen[64 * 48];
        memset(seen, 0, sizeof seen);
        bool ok = true;
        for (int i = 0; i < 64; i++)
            for (int j = 0; j < 48; j++) {
                int64_t o = sim_layout_offset(ls[l][0], ls[l][1], 512, 2, 64, 48, i, j);
                if (o < 0 || o >= 64 * 48 || seen[o]++) ok = false;
            }
        CHECK_MSG(ok, "layout %d is a bijection", l);
    }
}

/* A transposed matmul operand: an NZ [R, C] Mat tile seen as ZN [C, R] (tile.transpose_view) is the
 * same storage, element for element, for every cube element size and ragged (partial-box) shapes. */
TEST(test_layout_nz_zn_transpose_view) {
    const int64_t shapes[][2] = { { 64, 48 }, { 100, 80 }, { 80, 100 }, { 8, 40 }, { 48, 200 } };
    for (int eb = 1; eb <= 4; eb *= 2)
        for (int s = 0; s < 5; s++) {
            int64_t R = shapes[s][0], C = shapes[s][1];
            bool ok = true;
            for (int64_t i = 0; i < R && ok; i++)
                for (int64_t j = 0; j < C; j++)
                    if (sim_layout_offset(NZ, 512, eb, R, C, i, j) != sim_layout_offset(ZN, 512, eb, C, R, j, i)) ok = false;
            CHECK_MSG(ok, "NZ [%lld, %lld] == ZN view, %d-byte elements", (long long)R, (long long)C, eb);
        }
}

/* ---- the reference matmul kernel ---- */
typedef struct MM { uint16_t *a, *b; float *c, *ref; } MM;

static MM mm_data(void) {
    MM d = { rand_fp16(128 * 512, 1), rand_fp16(512 * 128, 2), calloc(128 * 128, 4), malloc(128 * 128 * 4) };
    float *fa = malloc(128 * 512 * 4), *fb = malloc(512 * 128 * 4);
    for (int j = 0; j < 128 * 512; j++) { fa[j] = fp16_to_f32(d.a[j]); fb[j] = fp16_to_f32(d.b[j]); }
    ref_matmul(128, 128, 512, fa, fb, d.ref);
    free(fa); free(fb);
    return d;
}
static void mm_free(MM *d) { free(d->a); free(d->b); free(d->c); free(d->ref); }

TEST(test_matmul_kernel) {
    Arena *ar = arena_new();
    Kernel *k = build_matmul(ar, 0);
    MM d = mm_data();
    void *gm[] = { d.a, d.b, d.c };
    SimCore *c = sim_core_new(T(), CORE_AIC);
    SimOptions o = { .race_check = true, .trace = true };
    SimResult r;
    DiagSink dg; diag_init(&dg);
    CHECK(sim_run(c, k, gm, &o, &r, &dg));
    double maxerr = 0, maxref = 0;
    for (int j = 0; j < 128 * 128; j++) {
        maxerr = fmax(maxerr, fabs(d.c[j] - d.ref[j]));
        maxref = fmax(maxref, fabs(d.ref[j]));
    }
    CHECK_MSG(maxerr <= 1e-3 * maxref, "max err %g (max |ref| %g)", maxerr, maxref);
    CHECK_EQ_INT(r.races.len, 0);
    for (int j = 0; j < r.races.len; j++) printf("  %s\n", r.races.data[j]);
    CHECK_EQ_INT(r.sync_errors.len, 0);
    for (int j = 0; j < r.sync_errors.len; j++) printf("  %s\n", r.sync_errors.data[j]);
    CHECK(r.cycles > 0);
    int64_t sum = 0;
    for (int p = 0; p < PIPE_COUNT; p++) sum += r.pipe_busy[p];
    CHECK_MSG(r.cycles < sum, "cycles %lld < sum of busy %lld", (long long)r.cycles, (long long)sum);
    /* busy = instruction durations (+1 per set_flag / barrier on that pipe) */
    CHECK_EQ_INT(r.pipe_busy[PIPE_M], 4 * 533 + 4 /* sets */ + 4 /* barriers */ + 3 /* pre-sets, M->FIX */);
    CHECK_EQ_INT(r.pipe_busy[PIPE_MTE2], 2 * 1015 + 1);   /* 100 + 131072 / 143.4 = 1014.03 */
    CHECK_EQ_INT(r.pipe_busy[PIPE_MTE1], 4 * 253 + 4 * 384 + 4 /* sets */ + 2 /* barriers */);
    CHECK_EQ_INT(r.pipe_busy[PIPE_FIX], 734);
    CHECK_NEAR(r.cube_util, (double)r.pipe_busy[PIPE_M] / (double)r.cycles, 1e-12);
    /* some MTE1 extract overlaps some matmul in time */
    bool overlap = false;
    for (int x = 0; x < r.trace.len; x++)
        for (int y = 0; y < r.trace.len; y++) {
            const SimTraceEvent *p = &r.trace.data[x], *q = &r.trace.data[y];
            if (p->pipe == PIPE_MTE1 && q->pipe == PIPE_M && p->inst->op == MI_TEXTRACT && q->inst->op != MI_BARRIER &&
                q->inst->op != MI_WAIT_FLAG && q->inst->op != MI_SET_FLAG && p->start < q->end && q->start < p->end)
                overlap = true;
        }
    CHECK(overlap);
    CHECK_EQ_INT(r.insts, r.trace.len);
    CHECK_EQ_INT(dg.nerrors, 0);
    sim_result_free(&r);
    diag_free(&dg);
    sim_core_free(c);
    mm_free(&d);
    arena_free(ar);
}

/* Removing any set or wait must be noticed: a race (of the expected kind) or a sync error. */
TEST(test_matmul_missing_sync) {
    /* sync index -> expected substring ("sync" = any sync error) */
    static const struct { int idx; const char *race; } cases[] = {
        { 0, NULL }, { 1, NULL }, { 2, NULL }, { 3, "race: RAW on Mat" }, { 4, "race: WAR on Left" },
        { 6, NULL }, { 7, "race: WAR on Left" }, { 8, NULL }, { 9, "race: RAW on Left" }, { 11, NULL },
        { 12, "race: RAW on Left" }, { 14, NULL }, { 15, NULL }, { 16, NULL }, { 17, NULL },
        { 18, "race: RAW on Acc" },
    };
    MM d = mm_data();
    void *gm[] = { d.a, d.b, d.c };
    SimCore *c = sim_core_new(T(), CORE_AIC);
    for (size_t t = 0; t < sizeof cases / sizeof cases[0]; t++) {
        Arena *ar = arena_new();
        Kernel *k = build_matmul(ar, 1u << cases[t].idx);
        SimOptions o = { .race_check = true };
        SimResult r;
        DiagSink dg; diag_init(&dg);
        CHECK(sim_run(c, k, gm, &o, &r, &dg));
        CHECK_MSG(r.races.len + r.sync_errors.len > 0, "removing sync %d is detected", cases[t].idx);
        if (cases[t].race)
            CHECK_MSG(msgs_contain((const char *const *)r.races.data, r.races.len, cases[t].race),
                      "removing sync %d reports \"%s\" (first: %s)", cases[t].idx, cases[t].race,
                      r.races.len ? r.races.data[0] : "none");
        sim_result_free(&r);
        diag_free(&dg);
        arena_free(ar);
    }
    /* the barriers are redundant with the flag chains here */
    Arena *ar = arena_new();
    Kernel *k = build_matmul(ar, (1u << 5) | (1u << 10) | (1u << 13));
    SimOptions o = { .race_check = true };
    SimResult r;
    DiagSink dg; diag_init(&dg);
    CHECK(sim_run(c, k, gm, &o, &r, &dg));
    CHECK_EQ_INT(r.sync_errors.len, 0);
    sim_result_free(&r);
    diag_free(&dg);
    arena_free(ar);
    sim_core_free(c);
    mm_free(&d);
}

int main(void) {
    RUN(test_layout_offsets);
    RUN(test_layout_nz_zn_transpose_view);
    RUN(test_matmul_kernel);
    RUN(test_matmul_missing_sync);
    return test_summary();
}
