/* test_sim_group — sim_run_group: the AIC and AIV kernels of a mixed task on one cluster, coupled by
 * the cross-core channels (tpush / tpop / tfree, ring buffers, splits, fences). Kernels are built by
 * hand: the AIC loads tiles of x and pushes them (C2V) or pops the lanes' parts (V2C); the AIV lanes
 * pop / push their part and store it into y at their sub-block's offset (the subblock_idx variable).
 * Checks data (y == x), timing (the consumer overlaps the producer; a5), deadlocks, channel leftovers
 * and the race cases of ring slots and GM fences. */
#include "test.h"
#include "test_sim_util.h"

#include <math.h>

typedef struct Cfg {
    TargetId tgt;
    int64_t R, C;                /* the AIC's tile */
    int iters;
    MirSplit split;
    int slot_num;
    bool skip_pop_flag;          /* consumer: no MTE2 -> MTE3 flag between the pop and the store of the slot */
    bool skip_free_flag;         /* consumer: the tfree waits for the pop (MTE2 -> S), not for the store (MTE3 -> S) */
    bool no_free, no_pop, no_push;
    bool acc;                    /* C2V: push an Acc tile (FIX) made by a matmul with the identity */
} Cfg;

typedef struct Grp {
    Arena *ar;
    const Kernel *ks[3];
    int n;
    int aic_lines;               /* lines of the AIC kernel (consumer lines follow) */
} Grp;

static MirInst *xinst(KB *b, MirBlock *blk, MirOp op, int buf, MirXDir x, MirSplit sp, int slots) {
    MirInst *i = mir_inst_new(b->k, op, PIPE_NONE);
    if (op == MI_TPUSH) i->src0 = buf; else i->dst = buf;
    i->xdir = x; i->split = sp; i->slot_num = slots; i->sync_only = buf < 0;
    i->pipe = mir_pipe_for(b->k, op, i->dst, i->src0);
    return kb_push(b, blk, i);
}

static void flag_pair(KB *b, MirBlock *blk, Pipe s, Pipe d) {
    kb_flag(b, blk, MI_SET_FLAG, s, d, 0);
    kb_flag(b, blk, MI_WAIT_FLAG, s, d, 0);
}

static MirInst *for_loop(KB *b, int var, int64_t n) {
    MirInst *f = mir_inst_new(b->k, MI_FOR, PIPE_NONE);
    f->var = var; f->start = mir_const(b->k, 0); f->stop = mir_const(b->k, n); f->step = mir_const(b->k, 1);
    return kb_push(b, NULL, f);
}

static void part(const Cfg *c, int lane, int64_t *r0, int64_t *c0, int64_t *nr, int64_t *nc) {
    int64_t h = (c->R + 1) / 2, w = (c->C + 1) / 2;
    *r0 = *c0 = 0; *nr = c->R; *nc = c->C;
    if (c->split == MSPLIT_UP_DOWN) { *r0 = lane ? h : 0; *nr = lane ? c->R - h : h; }
    if (c->split == MSPLIT_LEFT_RIGHT) { *c0 = lane ? w : 0; *nc = lane ? c->C - w : w; }
}

static void params1(Kernel *k, const char *name, int64_t rows, int64_t cols, DType dt) {
    const char *names[] = { name };
    DType dts[] = { dt };
    int64_t shapes[][2] = { { rows, cols } };
    tparams(k, 1, names, dts, shapes);
}

/* AIC, C2V: for i: tload m <- x[i·R]; push m (split). With acc: m goes through Left/Right/Acc times the
 * identity (x FP16 [R, 16], pushed FP32 from Acc on FIX). */
static Kernel *aic_c2v(Arena *ar, const Cfg *c, int *lines) {
    KB b = { .k = mir_kernel_new(ar, "mix_aic", CORE_AIC) };
    Kernel *k = b.k;
    int i = mir_add_var(k, "i");
    if (!c->acc) {
        params1(k, "x", c->iters * c->R, c->C, DT_FP32);
        int m = mir_add_buf(k, tbuf("m", MS_MAT, 0, DT_FP32, c->R, c->C, NDL, 0));
        MirInst *f = for_loop(&b, i, c->iters);
        kb_gm(&b, &f->body, MI_TLOAD, m, 0, mir_bin(k, MB_MUL, mir_var(k, i), mir_const(k, c->R)), NULL);
        flag_pair(&b, &f->body, PIPE_MTE2, PIPE_MTE3);
        if (!c->no_push) xinst(&b, &f->body, MI_TPUSH, m, XDIR_C2V, c->split, c->slot_num);
        flag_pair(&b, &f->body, PIPE_MTE3, PIPE_MTE2);
    } else {
        const char *names[] = { "x", "eye" };
        DType dts[] = { DT_FP16, DT_FP16 };
        int64_t shapes[][2] = { { c->R, 16 }, { 16, 16 } };
        tparams(k, 2, names, dts, shapes);
        int am = mir_add_buf(k, tbuf("am", MS_MAT, 0, DT_FP16, c->R, 16, NZ, 512));
        int bm = mir_add_buf(k, tbuf("bm", MS_MAT, 8192, DT_FP16, 16, 16, NZ, 512));
        int sa = mir_add_buf(k, tbuf("sa", MS_LEFT, 0, DT_FP16, c->R, 16, ZZ, 512));
        int sb = mir_add_buf(k, tbuf("sb", MS_RIGHT, 0, DT_FP16, 16, 16, ZN, 512));
        int acc = mir_add_buf(k, tbuf("acc", MS_ACC, 0, DT_FP32, c->R, 16, NZ, 1024));
        kb_gm(&b, NULL, MI_TLOAD, am, 0, NULL, NULL);
        kb_gm(&b, NULL, MI_TLOAD, bm, 1, NULL, NULL);
        flag_pair(&b, NULL, PIPE_MTE2, PIPE_MTE1);
        kb_tile(&b, NULL, MI_TMOV, sa, am, -1, -1);
        kb_tile(&b, NULL, MI_TMOV, sb, bm, -1, -1);
        flag_pair(&b, NULL, PIPE_MTE1, PIPE_M);
        kb_tile(&b, NULL, MI_TMATMUL, acc, sa, sb, -1);
        flag_pair(&b, NULL, PIPE_M, PIPE_FIX);
        xinst(&b, NULL, MI_TPUSH, acc, XDIR_C2V, c->split, c->slot_num);
    }
    *lines = b.line;
    return k;
}

/* AIV lane `lane`, C2V consumer: for i: pop ring; store it to y at its part's offset; free. */
static Kernel *aiv_c2v(Arena *ar, const Cfg *c, int lane, int first_line) {
    KB b = { .k = mir_kernel_new(ar, lane ? "mix_aiv1" : "mix_aiv0", CORE_AIV), .line = first_line };
    Kernel *k = b.k;
    k->lane = lane;
    params1(k, "y", c->iters * c->R, c->C, DT_FP32);
    int i = mir_add_var(k, "i"), sub = mir_add_var(k, "subblock_idx");
    int64_t r0, c0, nr, nc;
    part(c, 1, &r0, &c0, &nr, &nc);              /* lane 1's origin = the per-lane step */
    int64_t rstep = r0, cstep = c0;
    part(c, lane, &r0, &c0, &nr, &nc);
    MirBuf rb = tbuf("ring", MS_VEC, 0, DT_FP32, nr, nc, NDL, 0);
    rb.bytes = (rb.bytes + 31) / 32 * 32;
    rb.ring_slots = c->slot_num;
    int ring = mir_add_buf(k, rb);
    MirInst *f = for_loop(&b, i, c->iters);
    if (!c->no_pop) {
        xinst(&b, &f->body, MI_TPOP, ring, XDIR_C2V, MSPLIT_NONE, c->slot_num);
        if (c->skip_free_flag) flag_pair(&b, &f->body, PIPE_MTE2, PIPE_S);   /* the tfree waits for the pop only */
        if (!c->skip_pop_flag) flag_pair(&b, &f->body, PIPE_MTE2, PIPE_MTE3);
        MirExpr *row = mir_bin(k, MB_ADD, mir_bin(k, MB_MUL, mir_var(k, i), mir_const(k, c->R)),
                               mir_bin(k, MB_MUL, mir_var(k, sub), mir_const(k, rstep)));
        kb_gm(&b, &f->body, MI_TSTORE, ring, 0, row, mir_bin(k, MB_MUL, mir_var(k, sub), mir_const(k, cstep)));
        if (!c->skip_free_flag) flag_pair(&b, &f->body, PIPE_MTE3, PIPE_S);
        if (!c->no_free) xinst(&b, &f->body, MI_TFREE, ring, XDIR_C2V, MSPLIT_NONE, c->slot_num);
    }
    return k;
}

typedef struct Out { SimResult rs[3]; DiagSink dg; bool ok; SimCore *cores[3]; Arena *ar; } Out;   /* ar: kernels the trace points into */

static void run_grp(const Cfg *c, const Kernel **ks, int n, void ***gm, Out *o) {
    diag_init(&o->dg);
    o->ar = NULL;
    const Target *t = target_get(c->tgt);
    for (int j = 0; j < n; j++) o->cores[j] = sim_core_new(t, ks[j]->core);
    SimOptions opt = { .race_check = true, .trace = true, .block_num = 1 };
    o->ok = sim_run_group(o->cores, ks, gm, n, &opt, o->rs, &o->dg);
    for (int j = 0; j < n; j++) sim_core_free(o->cores[j]);
}

static void out_free(Out *o, int n) {
    for (int j = 0; j < n; j++) sim_result_free(&o->rs[j]);
    diag_free(&o->dg);
    if (o->ar) arena_free(o->ar);
}

static int nmsgs(const Out *o, int n, bool races) {
    int t = 0;
    for (int j = 0; j < n; j++) t += races ? o->rs[j].races.len : o->rs[j].sync_errors.len;
    return t;
}

static bool any_msg(const Out *o, int n, bool races, const char *needle) {
    for (int j = 0; j < n; j++) {
        const SimResult *r = &o->rs[j];
        if (msgs_contain((const char *const *)(races ? r->races.data : r->sync_errors.data),
                         races ? r->races.len : r->sync_errors.len, needle)) return true;
    }
    return false;
}

static void dump(const Out *o, int n) {
    for (int j = 0; j < n; j++) {
        for (int m = 0; m < o->rs[j].races.len; m++) printf("  note[%d]: %s\n", j, o->rs[j].races.data[m]);
        for (int m = 0; m < o->rs[j].sync_errors.len; m++) printf("  note[%d]: %s\n", j, o->rs[j].sync_errors.data[m]);
    }
    for (int m = 0; m < o->dg.items.len; m++) printf("  diag: %s\n", o->dg.items.data[m].msg);
}

/* Runs a C2V configuration: x random, y must equal x (or the caller checks messages). */
static void c2v_case(const Cfg *c, Out *o, float **y_out, float **x_out) {
    Arena *ar = arena_new();
    int lines;
    const Kernel *ks[3];
    ks[0] = aic_c2v(ar, c, &lines);
    int nl = c->split == MSPLIT_NONE ? 1 : 2;
    for (int l = 0; l < nl; l++) ks[1 + l] = aiv_c2v(ar, c, l, 100 * (l + 1));
    int64_t n = c->iters * c->R * c->C;
    float *x = malloc(sizeof(float) * (size_t)n), *y = calloc((size_t)n, sizeof(float));
    uint32_t seed = 7;
    for (int64_t j = 0; j < n; j++) x[j] = trandf(&seed);
    void *g0[] = { x }, *g1[] = { y }, *g2[] = { y };
    void **gm[] = { g0, g1, g2 };
    run_grp(c, ks, 1 + nl, gm, o);
    *y_out = y;
    *x_out = x;
    o->ar = ar;
}

static bool same(const float *a, const float *b, int64_t n) {
    for (int64_t j = 0; j < n; j++)
        if (a[j] != b[j]) return false;
    return true;
}

static void check_c2v(Cfg c, const char *what) {
    Out o;
    float *x, *y;
    c2v_case(&c, &o, &y, &x);
    int n = c.split == MSPLIT_NONE ? 2 : 3;
    CHECK_MSG(o.ok, "%s: run failed", what);
    CHECK_MSG(same(x, y, c.iters * c.R * c.C), "%s: y != x", what);
    CHECK_MSG(nmsgs(&o, n, true) == 0 && nmsgs(&o, n, false) == 0, "%s: unexpected messages", what);
    if (!o.ok || nmsgs(&o, n, true) || nmsgs(&o, n, false)) dump(&o, n);
    out_free(&o, n);
    free(x); free(y);
}

TEST(test_c2v_splits) {
    check_c2v((Cfg){ .R = 32, .C = 16, .iters = 1, .split = MSPLIT_NONE, .slot_num = 1 }, "none");
    check_c2v((Cfg){ .R = 32, .C = 16, .iters = 2, .split = MSPLIT_UP_DOWN, .slot_num = 2 }, "up_down");
    check_c2v((Cfg){ .R = 33, .C = 16, .iters = 3, .split = MSPLIT_UP_DOWN, .slot_num = 2 }, "up_down ragged 33");
    check_c2v((Cfg){ .R = 16, .C = 40, .iters = 2, .split = MSPLIT_LEFT_RIGHT, .slot_num = 1 }, "left_right");
    check_c2v((Cfg){ .R = 33, .C = 24, .iters = 2, .split = MSPLIT_LEFT_RIGHT, .slot_num = 4 }, "left_right 33 rows");
    check_c2v((Cfg){ .tgt = TGT_A5, .R = 33, .C = 16, .iters = 3, .split = MSPLIT_UP_DOWN, .slot_num = 2 }, "a5 up_down");
}

/* The FIX path: an Acc tile (x times the identity) split up / down into the two lanes. */
TEST(test_c2v_from_acc) {
    Cfg c = { .R = 32, .C = 16, .iters = 1, .split = MSPLIT_UP_DOWN, .slot_num = 1, .acc = true };
    Arena *ar = arena_new();
    int lines;
    const Kernel *ks[3] = { aic_c2v(ar, &c, &lines), aiv_c2v(ar, &c, 0, 100), aiv_c2v(ar, &c, 1, 200) };
    uint16_t *x = rand_fp16(32 * 16, 5), eye[256];
    for (int j = 0; j < 256; j++) eye[j] = f32_to_fp16(j / 16 == j % 16 ? 1.0f : 0.0f);
    float y[32 * 16] = {0};
    void *g0[] = { x, eye }, *g1[] = { y }, *g2[] = { y };
    void **gm[] = { g0, g1, g2 };
    Out o;
    run_grp(&c, ks, 3, gm, &o);
    CHECK(o.ok);
    bool eq = true;
    for (int j = 0; j < 32 * 16; j++) eq &= y[j] == fp16_to_f32(x[j]);
    CHECK(eq);
    CHECK_EQ_INT(nmsgs(&o, 3, true) + nmsgs(&o, 3, false), 0);
    /* the push ran on FIX for the drain's time; each lane's pop is an MTE2 load of its 16 x 16 FP32 */
    const Target *t = target_get(TGT_A2A3);
    bool fix = false, pop = false;
    for (int j = 0; j < o.rs[0].trace.len; j++) {
        const SimTraceEvent *e = &o.rs[0].trace.data[j];
        if (e->inst->op == MI_TPUSH) fix = e->pipe == PIPE_FIX && e->end - e->start == sim_inst_cycles(t, ks[0], e->inst);
    }
    for (int j = 0; j < o.rs[1].trace.len; j++) {
        const SimTraceEvent *e = &o.rs[1].trace.data[j];
        if (e->inst->op == MI_TPOP) pop = e->pipe == PIPE_MTE2 && e->end - e->start == (int64_t)ceil(100.0 + 1024.0 / 58.6 - 1e-9);
    }
    CHECK(fix);
    CHECK(pop);
    dump(&o, 3);
    out_free(&o, 3);
    free(x);
    arena_free(ar);
}

/* V2C: each lane loads its part of x and pushes it; the AIC pops both (split) into an NZ ring in Mat
 * and stores the whole tile to y. */
static void v2c_case(MirSplit sp, int64_t R, int64_t C, int slots, int iters) {
    Cfg c = { .R = R, .C = C, .iters = iters, .split = sp, .slot_num = slots };
    Arena *ar = arena_new();
    int nl = sp == MSPLIT_NONE ? 1 : 2;
    KB b = { .k = mir_kernel_new(ar, "v2c_aic", CORE_AIC) };
    Kernel *k = b.k;
    params1(k, "y", iters * R, C, DT_FP32);
    int i = mir_add_var(k, "i");
    MirBuf rb = tbuf("ring", MS_MAT, 0, DT_FP32, R, C, NZ, 512);
    rb.bytes = (R + 15) / 16 * 16 * ((C + 7) / 8 * 8) * 4;
    rb.ring_slots = slots;
    int ring = mir_add_buf(k, rb);
    MirInst *f = for_loop(&b, i, iters);
    xinst(&b, &f->body, MI_TPOP, ring, XDIR_V2C, sp, slots);
    flag_pair(&b, &f->body, PIPE_MTE2, PIPE_MTE3);
    kb_gm(&b, &f->body, MI_TSTORE, ring, 0, mir_bin(k, MB_MUL, mir_var(k, i), mir_const(k, R)), NULL);
    flag_pair(&b, &f->body, PIPE_MTE3, PIPE_S);
    xinst(&b, &f->body, MI_TFREE, ring, XDIR_V2C, sp, slots);
    const Kernel *ks[3] = { k };
    for (int l = 0; l < nl; l++) {
        KB v = { .k = mir_kernel_new(ar, l ? "v2c_aiv1" : "v2c_aiv0", CORE_AIV), .line = 100 * (l + 1) };
        Kernel *kv = v.k;
        kv->lane = l;
        params1(kv, "x", iters * R, C, DT_FP32);
        int iv = mir_add_var(kv, "i"), sub = mir_add_var(kv, "subblock_idx");
        int64_t r0, c0, nr, nc, rstep, cstep;
        part(&c, 1, &rstep, &cstep, &nr, &nc);
        part(&c, l, &r0, &c0, &nr, &nc);
        int vb = mir_add_buf(kv, tbuf("v", MS_VEC, 0, DT_FP32, nr, nc, NDL, 0));
        MirInst *fv = for_loop(&v, iv, iters);
        MirExpr *row = mir_bin(kv, MB_ADD, mir_bin(kv, MB_MUL, mir_var(kv, iv), mir_const(kv, R)),
                               mir_bin(kv, MB_MUL, mir_var(kv, sub), mir_const(kv, rstep)));
        kb_gm(&v, &fv->body, MI_TLOAD, vb, 0, row, mir_bin(kv, MB_MUL, mir_var(kv, sub), mir_const(kv, cstep)));
        flag_pair(&v, &fv->body, PIPE_MTE2, PIPE_MTE3);
        xinst(&v, &fv->body, MI_TPUSH, vb, XDIR_V2C, MSPLIT_NONE, slots);
        flag_pair(&v, &fv->body, PIPE_MTE3, PIPE_MTE2);
        ks[1 + l] = kv;
    }
    int64_t n = iters * R * C;
    float *x = malloc(sizeof(float) * (size_t)n), *y = calloc((size_t)n, sizeof(float));
    uint32_t seed = 11;
    for (int64_t j = 0; j < n; j++) x[j] = trandf(&seed);
    void *g0[] = { y }, *g1[] = { x }, *g2[] = { x };
    void **gm[] = { g0, g1, g2 };
    Out o;
    run_grp(&c, ks, 1 + nl, gm, &o);
    CHECK_MSG(o.ok, "v2c split %d R %lld", (int)sp, (long long)R);
    CHECK_MSG(same(x, y, n), "v2c split %d R %lld: y != x", (int)sp, (long long)R);
    CHECK_EQ_INT(nmsgs(&o, 1 + nl, true) + nmsgs(&o, 1 + nl, false), 0);
    dump(&o, 1 + nl);
    out_free(&o, 1 + nl);
    free(x); free(y);
    arena_free(ar);
}

TEST(test_v2c_splits) {
    v2c_case(MSPLIT_NONE, 32, 16, 1, 2);
    v2c_case(MSPLIT_UP_DOWN, 33, 16, 2, 3);
    v2c_case(MSPLIT_LEFT_RIGHT, 16, 24, 4, 5);
}

/* Loops of pushes through 1, 2 and 4 slots: data right, the consumer overlaps the producer (the
 * makespan is below the sum of both cores' busy time), and more slots never slow it down. */
TEST(test_slots_overlap) {
    int64_t prev = INT64_MAX;
    for (int s = 1; s <= 4; s *= 2) {
        Cfg c = { .R = 32, .C = 64, .iters = 8, .split = MSPLIT_UP_DOWN, .slot_num = s };
        Out o;
        float *x, *y;
        c2v_case(&c, &o, &y, &x);
        CHECK(o.ok);
        CHECK(same(x, y, c.iters * c.R * c.C));
        CHECK_EQ_INT(nmsgs(&o, 3, true) + nmsgs(&o, 3, false), 0);
        int64_t span = 0, sum = 0;
        for (int j = 0; j < 3; j++) {
            if (o.rs[j].cycles > span) span = o.rs[j].cycles;
            for (int p = 0; p < PIPE_COUNT; p++) sum += o.rs[j].pipe_busy[p];
        }
        int64_t aic_busy = 0, aiv_busy = 0;
        for (int p = 0; p < PIPE_COUNT; p++) { aic_busy += o.rs[0].pipe_busy[p]; aiv_busy += o.rs[1].pipe_busy[p]; }
        CHECK_MSG(span < aic_busy + aiv_busy, "slots %d: makespan %lld not below %lld + %lld", s, (long long)span,
                  (long long)aic_busy, (long long)aiv_busy);
        CHECK_MSG(span <= prev, "slots %d: makespan %lld above the previous %lld", s, (long long)span, (long long)prev);
        prev = span;
        printf("  slots %d: makespan %lld cycles (AIC %lld, lanes %lld / %lld)\n", s, (long long)span, (long long)o.rs[0].cycles,
               (long long)o.rs[1].cycles, (long long)o.rs[2].cycles);
        out_free(&o, 3);
        free(x); free(y);
    }
}

static void expect_sync(Cfg c, const char *needle, const char *needle2) {
    Out o;
    float *x, *y;
    c2v_case(&c, &o, &y, &x);
    int n = c.split == MSPLIT_NONE ? 2 : 3;
    CHECK(o.ok);
    CHECK_MSG(any_msg(&o, n, false, needle), "sync error containing \"%s\"", needle);
    if (needle2) CHECK_MSG(any_msg(&o, n, false, needle2), "sync error containing \"%s\"", needle2);
    if (!any_msg(&o, n, false, needle)) dump(&o, n);
    out_free(&o, n);
    free(x); free(y);
}

TEST(test_deadlocks) {
    /* a pop with no push: reported with the kernel, the channel and the line; the run ends */
    expect_sync((Cfg){ .R = 16, .C = 16, .iters = 1, .slot_num = 1, .no_push = true },
                "kernel mix_aiv0: tpop from the C2V channel (lane 0) at line 102 waits for a push that never comes", NULL);
    /* a full ring never freed: the third push waits forever; the pops are never freed */
    expect_sync((Cfg){ .R = 16, .C = 16, .iters = 3, .slot_num = 2, .no_free = true },
                "tpush to the C2V channel (lane 0) at line 5 waits for a free slot", "slot popped, never freed");
    /* one push, one pop, no tfree */
    expect_sync((Cfg){ .R = 16, .C = 16, .iters = 1, .slot_num = 1, .no_free = true },
                "kernel mix_aiv0: tpop from the C2V channel (lane 0) at line 102: slot popped, never freed", NULL);
    /* pushes nobody pops */
    expect_sync((Cfg){ .R = 16, .C = 16, .iters = 1, .slot_num = 2, .no_pop = true },
                "kernel mix_aic: tpush to the C2V channel (lane 0) at line 5: pushed, never popped", NULL);
}

TEST(test_ring_races) {
    /* the store reads the popped slot without MTE2 -> MTE3: a race on the slot's real interval (no tfree
     * here: it would run before the pop too) */
    Cfg c = { .R = 16, .C = 16, .iters = 2, .slot_num = 2, .skip_pop_flag = true, .no_free = true };
    Out o;
    float *x, *y;
    c2v_case(&c, &o, &y, &x);
    CHECK(o.ok);
    CHECK(any_msg(&o, 2, true, "race: RAW on Vec [0, 1024): tstore (MTE3, line 103) reads what tpop (MTE2, line 102) wrote"));
    CHECK(!any_msg(&o, 2, true, "[0, 2048)"));                /* the slot's interval, not the whole ring */
    out_free(&o, 2); free(x); free(y);
    /* with the tfree, it releases the slot before the pop even ran */
    c.no_free = false;
    c2v_case(&c, &o, &y, &x);
    CHECK(any_msg(&o, 2, false, "kernel mix_aiv0: tfree of the C2V channel (lane 0) at line 106 ran before the tpop"));
    CHECK(any_msg(&o, 2, true, "race: WAW on Vec [0, 1024): tfree (S, line 106) overwrites what tpop (MTE2, line 102) wrote"));
    out_free(&o, 2); free(x); free(y);
    /* tfree without waiting for the store: use after free (the producer may overwrite the slot) */
    c = (Cfg){ .R = 16, .C = 16, .iters = 2, .slot_num = 1, .skip_free_flag = true };
    c2v_case(&c, &o, &y, &x);
    CHECK(o.ok);
    CHECK(any_msg(&o, 2, true, "race: WAR on Vec [0, 1024): tfree (S, line 108) overwrites what tstore (MTE3, line 107) reads, not "
                  "ordered by a flag chain (buffers ring / ring); the ring slot was released by tfree at line 108: use after free"));
    CHECK_EQ_INT(nmsgs(&o, 2, false), 0);
    if (nmsgs(&o, 2, true) != 1) dump(&o, 2);
    out_free(&o, 2); free(x); free(y);
}

/* A GM fence: the AIC stores x to z and pushes a fence; lane 0 pops it, loads z and stores it to y.
 * Without the fence the load races with the store across the cores (z is one tensor, two params). */
static void fence_case(bool fence, Out *o, float *x, float *y, float *z) {
    Arena *ar = arena_new();
    KB b = { .k = mir_kernel_new(ar, "fence_aic", CORE_AIC) };
    Kernel *k = b.k;
    const char *names[] = { "x", "z" };
    DType dts[] = { DT_FP32, DT_FP32 };
    int64_t shapes[][2] = { { 16, 16 }, { 16, 16 } };
    tparams(k, 2, names, dts, shapes);
    int m = mir_add_buf(k, tbuf("m", MS_MAT, 0, DT_FP32, 16, 16, NDL, 0));
    kb_gm(&b, NULL, MI_TLOAD, m, 0, NULL, NULL);
    flag_pair(&b, NULL, PIPE_MTE2, PIPE_MTE3);
    kb_gm(&b, NULL, MI_TSTORE, m, 1, NULL, NULL);
    if (fence) xinst(&b, NULL, MI_TPUSH, -1, XDIR_C2V, MSPLIT_NONE, 1);
    KB v = { .k = mir_kernel_new(ar, "fence_aiv", CORE_AIV), .line = 100 };
    Kernel *kv = v.k;
    const char *vn[] = { "z", "y" };
    tparams(kv, 2, vn, dts, shapes);
    int t = mir_add_buf(kv, tbuf("t", MS_VEC, 0, DT_FP32, 16, 16, NDL, 0));
    if (fence) xinst(&v, NULL, MI_TPOP, -1, XDIR_C2V, MSPLIT_NONE, 1);
    kb_gm(&v, NULL, MI_TLOAD, t, 0, NULL, NULL);
    flag_pair(&v, NULL, PIPE_MTE2, PIPE_MTE3);
    kb_gm(&v, NULL, MI_TSTORE, t, 1, NULL, NULL);
    if (fence) xinst(&v, NULL, MI_TFREE, -1, XDIR_C2V, MSPLIT_NONE, 1);
    const Kernel *ks[2] = { k, kv };
    void *g0[] = { x, z }, *g1[] = { z, y };
    void **gm[] = { g0, g1 };
    Cfg c = {0};
    run_grp(&c, ks, 2, gm, o);
    arena_free(ar);
}

TEST(test_fence) {
    float x[256], y[256], z[256];
    uint32_t seed = 3;
    for (int j = 0; j < 256; j++) { x[j] = trandf(&seed); y[j] = z[j] = 0; }
    Out o;
    fence_case(true, &o, x, y, z);
    CHECK(o.ok);
    CHECK(same(x, y, 256));
    CHECK_EQ_INT(nmsgs(&o, 2, true) + nmsgs(&o, 2, false), 0);
    dump(&o, 2);
    out_free(&o, 2);
    for (int j = 0; j < 256; j++) y[j] = z[j] = 0;
    fence_case(false, &o, x, y, z);
    CHECK(o.ok);
    CHECK(any_msg(&o, 2, true, "not ordered through a cross-core channel"));
    CHECK(any_msg(&o, 2, true, "kernel fence_aic"));
    out_free(&o, 2);
}

/* Mismatches are hard errors naming both instructions. */
TEST(test_mismatch_errors) {
    Arena *ar = arena_new();
    Cfg c = { .R = 32, .C = 16, .iters = 1, .split = MSPLIT_UP_DOWN, .slot_num = 1 };
    int lines;
    Kernel *aic = aic_c2v(ar, &c, &lines);
    Cfg c2 = c;
    c2.split = MSPLIT_NONE;                        /* the lanes expect the whole 32 rows: the parts are 16 */
    const Kernel *ks[3] = { aic, aiv_c2v(ar, &c2, 0, 100), aiv_c2v(ar, &c2, 1, 200) };
    float x[512] = {0}, y[512];
    void *g0[] = { x }, *g1[] = { y }, *g2[] = { y };
    void **gm[] = { g0, g1, g2 };
    Out o;
    run_grp(&c, ks, 3, gm, &o);
    CHECK(!o.ok);
    CHECK(o.dg.items.len > 0 && strstr(o.dg.items.data[0].msg, "expects a 32x16 part from lane 0, but the tpush at line 5 of kernel mix_aic sends 16x16"));
    dump(&o, 3);
    out_free(&o, 3);
    /* dtypes differ */
    Kernel *kv = (Kernel *)aiv_c2v(ar, &c, 0, 100);
    kv->bufs[0].dtype = DT_INT32;
    const Kernel *ks2[3] = { aic, kv, aiv_c2v(ar, &c, 1, 200) };
    run_grp(&c, ks2, 3, gm, &o);
    CHECK(!o.ok);
    CHECK(o.dg.items.len > 0 && strstr(o.dg.items.data[0].msg, "INT32): the tpush at line 5 of kernel mix_aic sends FP32"));
    out_free(&o, 3);
    arena_free(ar);
}

/* sim_run is a group of one: same cycles, same trace as sim_run_group with n = 1. */
TEST(test_group_of_one) {
    Arena *ar = arena_new();
    Kernel *k = build_matmul(ar, 0);
    uint16_t *a = rand_fp16(128 * 512, 1), *bb = rand_fp16(512 * 128, 2);
    float *c1 = calloc(128 * 128, sizeof(float)), *c2 = calloc(128 * 128, sizeof(float));
    void *gm1[] = { a, bb, c1 }, *gm2[] = { a, bb, c2 };
    SimOptions opt = { .race_check = true, .trace = true };
    DiagSink dg;
    diag_init(&dg);
    SimCore *core = sim_core_new(target_get(TGT_A2A3), CORE_AIC);
    SimResult r1, r2;
    CHECK(sim_run(core, k, gm1, &opt, &r1, &dg));
    const Kernel *ks[] = { k };
    void **gms[] = { gm2 };
    CHECK(sim_run_group(&core, ks, gms, 1, &opt, &r2, &dg));
    CHECK_EQ_INT(r1.cycles, r2.cycles);
    CHECK_EQ_INT(r1.trace.len, r2.trace.len);
    CHECK(memcmp(c1, c2, 128 * 128 * sizeof(float)) == 0);
    CHECK(r1.cycles > 0 && r1.races.len == 0 && r1.sync_errors.len == 0);
    sim_result_free(&r1); sim_result_free(&r2);
    sim_core_free(core);
    diag_free(&dg);
    free(a); free(bb); free(c1); free(c2);
    arena_free(ar);
}

/* a5: the push is an on-chip transfer (bytes / bw_xcore), the pop a fixed latency; the entry is seen
 * xcore_flag_cycles after the push ended. */
TEST(test_a5_timing) {
    Cfg c = { .tgt = TGT_A5, .R = 32, .C = 16, .iters = 1, .split = MSPLIT_NONE, .slot_num = 1 };
    Out o;
    float *x, *y;
    c2v_case(&c, &o, &y, &x);
    CHECK(o.ok);
    CHECK(same(x, y, 512));
    const Target *t = target_get(TGT_A5);
    int64_t push_end = -1, pop_start = -1;
    for (int j = 0; j < o.rs[0].trace.len; j++) {
        const SimTraceEvent *e = &o.rs[0].trace.data[j];
        if (e->inst->op != MI_TPUSH) continue;
        CHECK_EQ_INT(e->end - e->start, (int64_t)ceil(32.0 * 16 * 4 / t->bw_xcore));
        push_end = e->end;
    }
    for (int j = 0; j < o.rs[1].trace.len; j++) {
        const SimTraceEvent *e = &o.rs[1].trace.data[j];
        if (e->inst->op != MI_TPOP) continue;
        CHECK_EQ_INT(e->end - e->start, (int64_t)t->xcore_pop_cycles);
        pop_start = e->start;
    }
    CHECK_EQ_INT(pop_start, push_end + (int64_t)t->xcore_flag_cycles);
    out_free(&o, 2); free(x); free(y);
}

/* A scalar read of the AIC that needs a push of a lane not walked yet: a clear hard error. */
TEST(test_early_read_error) {
    Arena *ar = arena_new();
    KB b = { .k = mir_kernel_new(ar, "rd_aic", CORE_AIC) };
    Kernel *k = b.k;
    params1(k, "y", 16, 16, DT_FP32);
    int v = mir_add_var(k, "v");
    MirBuf rb = tbuf("ring", MS_MAT, 0, DT_FP32, 16, 16, NDL, 0);
    rb.ring_slots = 1;
    int ring = mir_add_buf(k, rb);
    xinst(&b, NULL, MI_TPOP, ring, XDIR_V2C, MSPLIT_NONE, 1);
    flag_pair(&b, NULL, PIPE_MTE2, PIPE_S);
    MirInst *g = mir_inst_new(k, MI_GGETVAL, PIPE_S);
    g->param = 0; g->var = v; g->off[0] = mir_const(k, 0); g->off[1] = mir_const(k, 0);
    kb_push(&b, NULL, g);
    KB w = { .k = mir_kernel_new(ar, "rd_aiv", CORE_AIV), .line = 100 };
    params1(w.k, "x", 16, 16, DT_FP32);
    int vb = mir_add_buf(w.k, tbuf("v", MS_VEC, 0, DT_FP32, 16, 16, NDL, 0));
    kb_gm(&w, NULL, MI_TLOAD, vb, 0, NULL, NULL);
    flag_pair(&w, NULL, PIPE_MTE2, PIPE_MTE3);
    xinst(&w, NULL, MI_TPUSH, vb, XDIR_V2C, MSPLIT_NONE, 1);
    const Kernel *ks[2] = { k, w.k };
    float x[256] = {0}, y[256] = {0};
    void *g0[] = { y }, *g1[] = { x };
    void **gm[] = { g0, g1 };
    Cfg c = {0};
    Out o;
    run_grp(&c, ks, 2, gm, &o);
    CHECK(!o.ok);
    bool found = false;
    for (int m = 0; m < o.dg.items.len; m++)
        found |= strstr(o.dg.items.data[m].msg, "a scalar read of kernel rd_aic needs the cores to run ahead while kernel rd_aiv "
                                                "has not been walked yet") != NULL;
    CHECK(found);
    out_free(&o, 2);
    arena_free(ar);
}

int main(void) {
    RUN(test_c2v_splits);
    RUN(test_c2v_from_acc);
    RUN(test_v2c_splits);
    RUN(test_slots_overlap);
    RUN(test_deadlocks);
    RUN(test_ring_races);
    RUN(test_fence);
    RUN(test_mismatch_errors);
    RUN(test_group_of_one);
    RUN(test_a5_timing);
    RUN(test_early_read_error);
    return test_summary();
}
