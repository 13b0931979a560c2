/* test_sim_sync — simulator pipes, flags and timing: deadlock reporting and recovery, set on a set
 * flag, tokens left set, double-buffered event IDs, PIPE_ALL barriers, the Acc read-read rule,
 * message deduplication in loops, per-instruction durations, Acc -> Mat narrowing, tinsert and
 * atomic add. */
#include "test.h"
#include "test_sim_util.h"

static const Target *T(void) { return target_get(TGT_A2A3); }

typedef struct Run { SimResult r; DiagSink dg; bool ok; } Run;

static Run run(Kernel *k, void **gm) {
    Run x;
    diag_init(&x.dg);
    SimCore *c = sim_core_new(T(), CORE_AIC);
    SimOptions o = { .race_check = true, .trace = true };
    x.ok = sim_run(c, k, gm, &o, &x.r, &x.dg);
    sim_core_free(c);
    return x;
}
static void run_free(Run *x) { sim_result_free(&x->r); diag_free(&x->dg); }
static bool has(char **v, int n, const char *needle) { return msgs_contain((const char *const *)v, n, needle); }

/* A cube kernel with params x (FP16 64x64), y (FP32 64x64) and the usual buffers. */
typedef struct CK { KB b; int am, bm, sa, sb, acc, acc2, om; } CK;

static Kernel *cube_kernel(Arena *ar, CK *c) {
    c->b = (KB){ .k = mir_kernel_new(ar, "ck", CORE_AIC) };
    Kernel *k = c->b.k;
    const char *names[] = { "x", "y" };
    DType dts[] = { DT_FP16, DT_FP32 };
    int64_t shapes[][2] = { { 64, 64 }, { 64, 64 } };
    tparams(k, 2, names, dts, shapes);
    c->am = mir_add_buf(k, tbuf("am", MS_MAT, 0, DT_FP16, 64, 64, NZ, 512));
    c->bm = mir_add_buf(k, tbuf("bm", MS_MAT, 8192, DT_FP16, 64, 64, NZ, 512));
    c->om = mir_add_buf(k, tbuf("om", MS_MAT, 16384, DT_FP16, 64, 64, NZ, 512));
    c->sa = mir_add_buf(k, tbuf("sa", MS_LEFT, 0, DT_FP16, 64, 64, ZZ, 512));
    c->sb = mir_add_buf(k, tbuf("sb", MS_RIGHT, 0, DT_FP16, 64, 64, ZN, 512));
    c->acc = mir_add_buf(k, tbuf("acc", MS_ACC, 0, DT_FP32, 64, 64, NZ, 1024));
    c->acc2 = mir_add_buf(k, tbuf("acc2", MS_ACC, 16384, DT_FP32, 64, 64, NZ, 1024));
    return k;
}

/* loads x into am and bm, extracts, synchronised, then acc = am * bm */
static void cube_prologue(CK *c) {
    KB *b = &c->b;
    kb_gm(b, NULL, MI_TLOAD, c->am, 0, NULL, NULL);
    kb_gm(b, NULL, MI_TLOAD, c->bm, 0, NULL, NULL);
    kb_flag(b, NULL, MI_SET_FLAG, PIPE_MTE2, PIPE_MTE1, 0);
    kb_flag(b, NULL, MI_WAIT_FLAG, PIPE_MTE2, PIPE_MTE1, 0);
    kb_tile(b, NULL, MI_TMOV, c->sa, c->am, -1, -1);
    kb_tile(b, NULL, MI_TMOV, c->sb, c->bm, -1, -1);
    kb_flag(b, NULL, MI_SET_FLAG, PIPE_MTE1, PIPE_M, 0);
    kb_flag(b, NULL, MI_WAIT_FLAG, PIPE_MTE1, PIPE_M, 0);
    kb_tile(b, NULL, MI_TMATMUL, c->acc, c->sa, c->sb, -1);
}

TEST(test_deadlock) {
    Arena *ar = arena_new();
    CK c;
    Kernel *k = cube_kernel(ar, &c);
    kb_gm(&c.b, NULL, MI_TLOAD, c.am, 0, NULL, NULL);                     /* line 1 */
    kb_flag(&c.b, NULL, MI_WAIT_FLAG, PIPE_M, PIPE_MTE1, 1);               /* line 2: never set */
    kb_tile(&c.b, NULL, MI_TMOV, c.sa, c.am, -1, -1);                      /* line 3 */
    uint16_t *x = rand_fp16(64 * 64, 3);
    void *gm[] = { x, NULL };
    Run r = run(k, gm);
    CHECK(r.ok);
    CHECK_EQ_INT(r.r.sync_errors.len, 1);
    CHECK(has(r.r.sync_errors.data, r.r.sync_errors.len, "wait_flag(M, MTE1, EVENT_ID1) at line 2 can never be satisfied"));
    /* released: the tmov ran, and unordered against the load */
    CHECK_EQ_INT(r.r.insts, 3);
    CHECK(has(r.r.races.data, r.r.races.len, "race: RAW on Mat"));
    run_free(&r);
    free(x);
    arena_free(ar);
}

TEST(test_flag_errors) {
    Arena *ar = arena_new();
    CK c;
    Kernel *k = cube_kernel(ar, &c);
    kb_flag(&c.b, NULL, MI_SET_FLAG, PIPE_MTE2, PIPE_MTE1, 3);             /* line 1 */
    kb_flag(&c.b, NULL, MI_SET_FLAG, PIPE_MTE2, PIPE_MTE1, 3);             /* line 2: already set */
    kb_flag(&c.b, NULL, MI_WAIT_FLAG, PIPE_MTE2, PIPE_MTE1, 3);            /* line 3 */
    kb_flag(&c.b, NULL, MI_SET_FLAG, PIPE_M, PIPE_FIX, 2);                 /* line 4: never waited */
    Run r = run(k, NULL);
    CHECK(r.ok);
    CHECK_EQ_INT(r.r.sync_errors.len, 2);
    CHECK(has(r.r.sync_errors.data, r.r.sync_errors.len, "set_flag(MTE2, MTE1, EVENT_ID3) at line 2 on a flag that is already set"));
    CHECK(has(r.r.sync_errors.data, r.r.sync_errors.len, "flag (M, FIX, EVENT_ID2) still set at the end of the kernel (set_flag at line 4"));
    run_free(&r);
    arena_free(ar);
}

TEST(test_double_buffer_ids) {
    Arena *ar = arena_new();
    CK c;
    Kernel *k = cube_kernel(ar, &c);
    int i = mir_add_var(k, "i");
    MirInst *f = mir_inst_new(k, MI_FOR, PIPE_NONE);
    f->var = i; f->start = mir_const(k, 0); f->stop = mir_const(k, 64); f->step = mir_const(k, 32);
    kb_push(&c.b, NULL, f);
    MirInst *s = kb_flag(&c.b, &f->body, MI_SET_FLAG, PIPE_MTE2, PIPE_MTE1, 0);
    s->event_alt = 1; s->event_var = i;
    kb_flag(&c.b, NULL, MI_WAIT_FLAG, PIPE_MTE2, PIPE_MTE1, 0);
    kb_flag(&c.b, NULL, MI_WAIT_FLAG, PIPE_MTE2, PIPE_MTE1, 1);
    Run r = run(k, NULL);
    CHECK(r.ok);
    CHECK_EQ_INT(r.r.sync_errors.len, 0);
    CHECK_EQ_INT(r.r.insts, 4);
    run_free(&r);
    arena_free(ar);
}

TEST(test_acc_read_read) {
    Arena *ar = arena_new();
    CK c;
    Kernel *k = cube_kernel(ar, &c);
    cube_prologue(&c);                                                      /* lines 1-9 */
    kb_flag(&c.b, NULL, MI_SET_FLAG, PIPE_M, PIPE_FIX, 0);                 /* 10 */
    kb_flag(&c.b, NULL, MI_WAIT_FLAG, PIPE_M, PIPE_FIX, 0);                /* 11 */
    kb_gm(&c.b, NULL, MI_TSTORE, c.acc, 1, NULL, NULL);                    /* 12: FIX reads acc */
    kb_bar(&c.b, NULL, PIPE_M);                                            /* 13 */
    kb_tile(&c.b, NULL, MI_TMATMUL_ACC, c.acc2, c.sa, c.sb, c.acc);        /* 14: M reads acc */
    uint16_t *x = rand_fp16(64 * 64, 3);
    float *y = calloc(64 * 64, 4);
    void *gm[] = { x, y };
    Run r = run(k, gm);
    CHECK(r.ok);
    CHECK_EQ_INT(r.r.races.len, 1);
    CHECK(has(r.r.races.data, r.r.races.len,
              "race: RAR on Acc [0, 16384): tmatmul.acc (M, line 14) reads Acc concurrently with what tstore (FIX, line 12) reads, not ordered by a flag chain"));
    CHECK_EQ_INT(r.r.sync_errors.len, 0);
    run_free(&r);
    free(x); free(y);
    arena_free(ar);
}

TEST(test_loop_dedup_and_all_barrier) {
    Arena *ar = arena_new();
    CK c;
    Kernel *k = cube_kernel(ar, &c);
    int i = mir_add_var(k, "i");
    MirInst *f = mir_inst_new(k, MI_FOR, PIPE_NONE);
    f->var = i; f->start = mir_const(k, 0); f->stop = mir_const(k, 50); f->step = mir_const(k, 1);
    kb_push(&c.b, NULL, f);
    kb_gm(&c.b, &f->body, MI_TLOAD, c.am, 0, NULL, NULL);                  /* MTE2 writes am */
    kb_tile(&c.b, &f->body, MI_TMOV, c.sa, c.am, -1, -1);                  /* MTE1 reads am: unordered */
    uint16_t *x = rand_fp16(64 * 64, 3);
    void *gm[] = { x, NULL };
    Run r = run(k, gm);
    CHECK(r.ok);
    CHECK_MSG(r.r.races.len >= 1 && r.r.races.len <= 4, "deduplicated: %d messages", r.r.races.len);
    run_free(&r);
    /* with pipe_barrier(PIPE_ALL) after each tmov and after each tload: clean, and serialised */
    CK c2;
    Kernel *k2 = cube_kernel(ar, &c2);
    f = mir_inst_new(k2, MI_FOR, PIPE_NONE);
    i = mir_add_var(k2, "i");
    f->var = i; f->start = mir_const(k2, 0); f->stop = mir_const(k2, 3); f->step = mir_const(k2, 1);
    kb_push(&c2.b, NULL, f);
    kb_gm(&c2.b, &f->body, MI_TLOAD, c2.am, 0, NULL, NULL);
    kb_bar(&c2.b, &f->body, PIPE_ALL);
    kb_tile(&c2.b, &f->body, MI_TMOV, c2.sa, c2.am, -1, -1);
    kb_bar(&c2.b, &f->body, PIPE_ALL);
    r = run(k2, gm);
    CHECK(r.ok);
    CHECK_EQ_INT(r.r.races.len + r.r.sync_errors.len, 0);
    int64_t load = 100 + 58, mov = 64;    /* 8192 B / 143.4 -> 57.1; 8192 / 129.7 -> 63.2 */
    CHECK_EQ_INT(r.r.cycles, 3 * (load + 1 + mov + 1));
    run_free(&r);
    free(x);
    arena_free(ar);
}

TEST(test_durations) {
    Arena *ar = arena_new();
    const Target *t = T();
    CK c;
    Kernel *k = cube_kernel(ar, &c);
    MirInst *i = mir_inst_new(k, MI_TEXTRACT, PIPE_MTE1);
    i->dst = c.sa; i->src0 = c.am;
    CHECK_EQ_INT(sim_inst_cycles(t, k, i), 64);               /* 8192 / 129.7 = 63.2 */
    i->dst = c.sb; i->src0 = c.bm;
    CHECK_EQ_INT(sim_inst_cycles(t, k, i), 96);               /* 8192 / 85.4 = 95.9 */
    i->dst = c.om; i->src0 = c.acc;
    CHECK_EQ_INT(sim_inst_cycles(t, k, i), 111);              /* moved tile FP16: 8192 B / 74.3 = 110.3 */
    MirInst *m = mir_inst_new(k, MI_TMATMUL, PIPE_M);
    m->dst = c.acc; m->src0 = c.sa; m->src1 = c.sb;
    CHECK_EQ_INT(sim_inst_cycles(t, k, m), 21 + 4 * 4 * 4);
    MirBuf f32a = tbuf("fa", MS_LEFT, 0, DT_FP32, 64, 64, ZZ, 512), f32b = tbuf("fb", MS_RIGHT, 0, DT_FP32, 64, 48, ZN, 512);
    m->src0 = mir_add_buf(k, f32a); m->src1 = mir_add_buf(k, f32b);
    CHECK_EQ_INT(sim_inst_cycles(t, k, m), 21 + 2 * 4 * 8 * 3);   /* kt = 8, 2 passes */
    MirBuf i8a = tbuf("ia", MS_LEFT, 0, DT_INT8, 32, 64, ZZ, 512), i8b = tbuf("ib", MS_RIGHT, 0, DT_INT8, 64, 32, ZN, 512);
    m->src0 = mir_add_buf(k, i8a); m->src1 = mir_add_buf(k, i8b);
    CHECK_EQ_INT(sim_inst_cycles(t, k, m), 21 + 1 * 2 * 2 * 2);   /* kt = 32 */
    /* drain: n = 96 -> N1 = 12 -> odd 3 -> 2 extra passes per row of 2.6 */
    int d96 = mir_add_buf(k, tbuf("d96", MS_ACC, 0, DT_FP32, 32, 96, NZ, 1024));
    MirInst *st = mir_inst_new(k, MI_TSTORE, PIPE_FIX);
    st->src0 = d96; st->param = 1;
    CHECK_EQ_INT(sim_inst_cycles(t, k, st), 473);                  /* 164 + 32 * (4.45 + 2 * 2.6) = 472.8 */
    MirInst *ld = mir_inst_new(k, MI_TLOAD, PIPE_MTE2);
    ld->dst = c.am; ld->param = 0;
    CHECK_EQ_INT(sim_inst_cycles(t, k, ld), 158);                  /* 100 + 8192 / 143.4 = 157.1 */
    MirInst *fl = mir_inst_new(k, MI_WAIT_FLAG, PIPE_M);
    CHECK_EQ_INT(sim_inst_cycles(t, k, fl), 0);
    fl->op = MI_SET_FLAG;
    CHECK_EQ_INT(sim_inst_cycles(t, k, fl), 1);
    /* a single instruction's kernel makespan is its duration */
    CK c2;
    Kernel *k2 = cube_kernel(ar, &c2);
    kb_gm(&c2.b, NULL, MI_TLOAD, c2.am, 0, NULL, NULL);
    uint16_t *x = rand_fp16(64 * 64, 3);
    void *gm[] = { x, NULL };
    Run r = run(k2, gm);
    CHECK_EQ_INT(r.r.cycles, 158);
    CHECK_EQ_INT(r.r.pipe_busy[PIPE_MTE2], 158);
    CHECK(r.r.trace.len == 1 && r.r.trace.data[0].start == 0 && r.r.trace.data[0].end == 158);
    run_free(&r);
    free(x);
    arena_free(ar);
}

TEST(test_acc_to_mat_insert_atomic) {
    Arena *ar = arena_new();
    CK c;
    Kernel *k = cube_kernel(ar, &c);
    cube_prologue(&c);
    kb_flag(&c.b, NULL, MI_SET_FLAG, PIPE_M, PIPE_FIX, 0);
    kb_flag(&c.b, NULL, MI_WAIT_FLAG, PIPE_M, PIPE_FIX, 0);
    kb_tile(&c.b, NULL, MI_TMOV, c.om, c.acc, -1, -1);                    /* FIX: FP32 -> FP16 */
    kb_gm(&c.b, NULL, MI_TSTORE, c.acc, 1, NULL, NULL)->atomic_add = true;  /* y += acc */
    kb_gm(&c.b, NULL, MI_TSTORE, c.acc, 1, NULL, NULL)->atomic_add = true;  /* y += acc, same pipe: WAW without barrier */
    uint16_t *x = rand_fp16(64 * 64, 3);
    float *y = malloc(64 * 64 * 4), *fx = malloc(64 * 64 * 4), *ref = malloc(64 * 64 * 4);
    for (int j = 0; j < 64 * 64; j++) { y[j] = 1.0f; fx[j] = fp16_to_f32(x[j]); }
    ref_matmul(64, 64, 64, fx, fx, ref);
    void *gm[] = { x, y };
    SimCore *core = sim_core_new(T(), CORE_AIC);
    SimOptions o = { .race_check = true };
    SimResult r;
    DiagSink dg; diag_init(&dg);
    CHECK(sim_run(core, k, gm, &o, &r, &dg));
    double err = 0, err16 = 0;
    int64_t sz;
    uint8_t *mat = sim_core_mem(core, MS_MAT, &sz);
    for (int i = 0; i < 64; i++)
        for (int j = 0; j < 64; j++) {
            err = fmax(err, fabs(y[i * 64 + j] - (1.0 + 2.0 * ref[i * 64 + j])));
            uint16_t h;
            memcpy(&h, mat + 16384 + 2 * sim_layout_offset(NZ, 512, 2, 64, 64, i, j), 2);
            err16 = fmax(err16, fabs(fp16_to_f32(h) - ref[i * 64 + j]));
            if (h != f32_to_fp16(ref[i * 64 + j]) && fabs(fp16_to_f32(h) - ref[i * 64 + j]) > 1e-2) err16 = 1e9;
        }
    CHECK_NEAR(err, 0, 1e-4);
    CHECK_NEAR(err16, 0, 8.0 / 2048);
    CHECK(has(r.races.data, r.races.len, "race: WAW on GM"));
    CHECK(has(r.races.data, r.races.len, "same-pipe hazard without pipe_barrier"));
    sim_result_free(&r);
    diag_free(&dg);
    sim_core_free(core);
    /* tinsert: acc (FP32 32x32 window source) into om at (32, 16) as FP16 */
    CK c2;
    Kernel *k2 = cube_kernel(ar, &c2);
    int small = mir_add_buf(k2, tbuf("small", MS_ACC, 32768, DT_FP32, 16, 32, NZ, 1024));
    MirInst *ins = kb_tile(&c2.b, NULL, MI_TINSERT, c2.om, small, -1, -1);
    ins->off[0] = mir_const(k2, 32); ins->off[1] = mir_const(k2, 16);
    core = sim_core_new(T(), CORE_AIC);
    uint8_t *accm = sim_core_mem(core, MS_ACC, &sz);
    for (int i = 0; i < 16; i++)
        for (int j = 0; j < 32; j++) {
            float v = (float)(i * 100 + j) + 0.25f;
            memcpy(accm + 32768 + 4 * sim_layout_offset(NZ, 1024, 4, 16, 32, i, j), &v, 4);
        }
    diag_init(&dg);
    CHECK(sim_run(core, k2, gm, &o, &r, &dg));
    mat = sim_core_mem(core, MS_MAT, &sz);
    int bad = 0;
    for (int i = 0; i < 16; i++)
        for (int j = 0; j < 32; j++) {
            uint16_t h;
            memcpy(&h, mat + 16384 + 2 * sim_layout_offset(NZ, 512, 2, 64, 64, 32 + i, 16 + j), 2);
            bad += h != f32_to_fp16((float)(i * 100 + j) + 0.25f);
        }
    CHECK_EQ_INT(bad, 0);
    CHECK_EQ_INT(r.pipe_busy[PIPE_FIX], 28);   /* 2048 B / 74.3 = 27.6 */
    sim_result_free(&r);
    diag_free(&dg);
    sim_core_free(core);
    free(x); free(y); free(fx); free(ref);
    arena_free(ar);
}

int main(void) {
    RUN(test_deadlock);
    RUN(test_flag_errors);
    RUN(test_double_buffer_ids);
    RUN(test_acc_read_read);
    RUN(test_loop_dedup_and_all_barrier);
    RUN(test_durations);
    RUN(test_acc_to_mat_insert_atomic);
    return test_summary();
}
