/* test_rt_race — the runtime's task-level race check (rt_race.c): tasks whose GM accesses overlap
 * with a write must be ordered by the task graph. Programs are built with the IR builders; a fake
 * kernel reports the GM elements it touches through RtKernelCall.gm_sink, per kernel from a table
 * of access modes (one letter per parameter). Expected verdicts are worked out by hand from the
 * dependency rules of spec/runtime.md §5 (e.g. write-after-read is never tracked automatically). */
#include "rt/rt_internal.h"
#include "test.h"
#include "rt_build_util.h"

/* Access mode per parameter: r read, w write, a atomic add, '-' untouched; upper case R / W / A touch
 * only the block's share of the rows (rows / block_num each, block b the b-th share); K / Q write /
 * read the block's share of the columns, reported row by row (a column panel: strided records). */
typedef struct { const char *kernel, *modes; } KMode;
typedef struct { const KMode *modes; int n; } Fake;

static bool fake_run(void *ud, const RtKernelCall *c, int64_t *cycles, DiagSink *d) {
    const Fake *f = ud;
    const char *m = NULL;
    for (int i = 0; i < f->n; i++)
        if (!strcmp(f->modes[i].kernel, c->kernel->name)) m = f->modes[i].modes;
    *cycles = 1000;
    if (!m || !c->gm_sink) return true;
    for (int p = 0, k = 0; p < c->nparams && m[p]; p++) {
        if (c->kernel->params.items[p]->type->kind != TY_TENSOR) continue;
        const RtView *v = &c->views[k++];
        int64_t rows = v->shape[0], cols = v->ndims > 1 ? v->shape[1] : 1, lo = 0, hi = rows * cols;
        char mode = m[p];
        if (mode == 'K' || mode == 'Q') {
            int64_t share = cols / c->block_num, c0 = c->block_idx * share;
            for (int64_t row = 0; row < rows; row++) rt_record_gm(c->gm_sink, p, row * cols + c0, row * cols + c0 + share, mode == 'K', false);
            continue;
        }
        if (mode >= 'A' && mode <= 'Z') {
            int64_t share = rows / c->block_num;
            lo = c->block_idx * share * cols;
            hi = lo + share * cols;
            mode = (char)(mode - 'A' + 'a');
        }
        if (mode == '-') continue;
        rt_record_gm(c->gm_sink, p, lo, hi, mode != 'r', mode == 'a');
    }
    return true;
}

static bool run(Tb *t, void **bufs, int n, const KMode *modes, int nmodes, RtResult *r) {
    RtOptions o = { .target = target_get(TGT_A2A3), .threads = 1, .race_check = true };
    Fake f = { modes, nmodes };
    return rt_run(t->p, NULL, bufs, n, &o, fake_run, &f, r, &t->diag);
}

static int races_of(const char *dir_w, const char *dir_r, bool manual, bool dep, const char *mw, const char *mr, char **msg) {
    Tb t; tb_init(&t);
    Var *c = param(&t, "c", ten(&t, DT_FP32, 16, 16), PD_INOUT);
    two_tasks(&t, FT_AIC, c, dir_w, dir_r, manual, dep);
    static float bc[256];
    void *bufs[1] = { bc };
    KMode modes[2] = { { "writer", mw }, { "reader", mr } };
    RtResult r;
    int n = run(&t, bufs, 1, modes, 2, &r) ? r.races.len : -1;
    if (msg) *msg = n > 0 ? strdup(r.races.data[0]) : NULL;
    rt_result_free(&r);
    tb_free(&t);
    return n;
}

TEST(test_ordered_by_tensormap) {
    /* AUTO: OUTPUT_EXISTING registers c, the INPUT finds it: one edge, no race */
    CHECK_EQ_INT(races_of("output_existing", "input", false, false, "w", "r", NULL), 0);
    /* INOUT chains */
    CHECK_EQ_INT(races_of("inout", "inout", false, false, "w", "w", NULL), 0);
}

TEST(test_manual_scope_missing_dep) {
    char *msg = NULL;
    CHECK_EQ_INT(races_of("output_existing", "input", true, false, "w", "r", &msg), 1);
    CHECK_CONTAINS(msg, "tasks 0 'writer' and 1 'reader' are not ordered");
    CHECK_CONTAINS(msg, "task 0 writes and task 1 reads c (16 x 16 FP32): elements 0..255 (rows 0..15)");
    free(msg);
    /* the explicit dependency orders them */
    CHECK_EQ_INT(races_of("output_existing", "input", true, true, "w", "r", NULL), 0);
}

TEST(test_untracked_orders) {
    char *msg = NULL;
    /* write-after-read is never tracked (spec §5.1): the reader registers nothing */
    CHECK_EQ_INT(races_of("input", "output_existing", false, false, "r", "w", &msg), 1);
    CHECK_CONTAINS(msg, "task 0 reads and task 1 writes c");
    free(msg);
    /* OUTPUT_EXISTING gets no write-after-write edge */
    CHECK_EQ_INT(races_of("output_existing", "output_existing", false, false, "w", "w", NULL), 1);
    /* NO_DEP: passed without tracking */
    CHECK_EQ_INT(races_of("output_existing", "no_dep", false, false, "w", "r", NULL), 1);
    /* two readers never race; untouched arguments do not count */
    CHECK_EQ_INT(races_of("input", "input", true, false, "r", "r", NULL), 0);
    CHECK_EQ_INT(races_of("output_existing", "input", true, false, "w", "-", NULL), 0);
}

TEST(test_atomic_adds) {
    /* two unordered atomic adders commute */
    CHECK_EQ_INT(races_of("inout", "inout", true, false, "a", "a", NULL), 0);
    /* an atomic add and a plain read or write do not */
    CHECK_EQ_INT(races_of("inout", "input", true, false, "a", "r", NULL), 1);
    CHECK_EQ_INT(races_of("output_existing", "inout", true, false, "w", "a", NULL), 1);
}

/* Transitivity: t0 writes c; t1 reads c and writes d; t2 reads d and c. t2 is ordered after t0
 * only through t1. */
TEST(test_transitive_order) {
    Tb t; tb_init(&t);
    Var *c = param(&t, "c", ten(&t, DT_FP32, 16, 16), PD_INOUT);
    Var *d = param(&t, "d", ten(&t, DT_FP32, 16, 16), PD_INOUT);
    Type *t1[1] = { c->type }, *t2[2] = { c->type, d->type };
    ParamDir p1[1] = { PD_OUT }, p2[2] = { PD_IN, PD_OUT }, p3[2] = { PD_IN, PD_IN };
    Function *k0 = kernel(&t, "k0", FT_AIC, 1, t1, p1);
    Function *k1 = kernel(&t, "k1", FT_AIC, 2, t2, p2);
    Function *k2 = kernel(&t, "k2", FT_AIC, 2, t2, p3);
    Stmt *sc = scope(&t, t.body, false);
    Expr *a0[1] = { ir_ref(c) }, *a1[2] = { ir_ref(c), ir_ref(d) };
    const char *d0[1] = { "output_existing" }, *d1[2] = { "input", "output_existing" }, *d2[2] = { "input", "input" };
    call(&t, &sc->scope.body, NULL, k0, a0, 1, d0);
    call(&t, &sc->scope.body, NULL, k1, a1, 2, d1);
    call(&t, &sc->scope.body, NULL, k2, a1, 2, d2);
    static float bc[256], bd[256];
    void *bufs[2] = { bc, bd };
    KMode modes[3] = { { "k0", "w" }, { "k1", "rw" }, { "k2", "rr" } };
    RtResult r;
    CHECK(run(&t, bufs, 2, modes, 3, &r));
    CHECK_EQ_INT(r.nedges, 3);                 /* k0->k1 (c), k1->k2 (d), k0->k2 (c) */
    CHECK_EQ_INT(r.races.len, 0);
    rt_result_free(&r);
    tb_free(&t);
}

/* SPMD: blocks of one task are concurrent. */
static int spmd_races(const char *mode, char **msg) {
    Tb t; tb_init(&t);
    Var *c = param(&t, "c", ten(&t, DT_FP32, 64, 16), PD_OUT);
    Type *ts[1] = { c->type };
    ParamDir pd[1] = { PD_INOUT };
    Function *k = kernel(&t, "blk", FT_AIC, 1, ts, pd);
    Stmt *sc = scope(&t, t.body, false);
    Expr *arg = ir_ref(c);
    const char *d[1] = { "inout" };
    Expr *e = call(&t, &sc->scope.body, NULL, k, &arg, 1, d);
    ir_attr_set(t.c, &e->call.attrs, "block_num", ir_av_int(4));
    static float bc[64 * 16];
    void *bufs[1] = { bc };
    KMode modes[1] = { { "blk", mode } };
    RtResult r;
    int n = run(&t, bufs, 1, modes, 1, &r) ? r.races.len : -1;
    if (msg) *msg = n > 0 ? strdup(r.races.data[0]) : NULL;
    rt_result_free(&r);
    tb_free(&t);
    return n;
}

TEST(test_spmd_blocks) {
    CHECK_EQ_INT(spmd_races("W", NULL), 0);      /* each block its own rows */
    CHECK_EQ_INT(spmd_races("a", NULL), 0);      /* all blocks add atomically into the whole tensor */
    CHECK_EQ_INT(spmd_races("R", NULL), 0);
    char *msg = NULL;
    CHECK_EQ_INT(spmd_races("w", &msg), 1);      /* every block writes every row */
    CHECK_CONTAINS(msg, "blocks 0 and 1 of task 0 'blk' (one SPMD task: its blocks run concurrently)");
    free(msg);
}

/* Column halves of one tensor through strided slice views, in a MANUAL scope: disjoint halves do
 * not race; overlapping windows do, and the region names the overlap. */
static int column_races(int64_t c0, int64_t c1, int64_t width, char **msg) {
    Tb t; tb_init(&t);
    Var *c = param(&t, "c", ten(&t, DT_FP32, 8, 32), PD_OUT);
    Type *st = ten(&t, DT_FP32, 8, width);
    ParamDir pd[1] = { PD_OUT };
    Function *k = kernel(&t, "half", FT_AIC, 1, &st, pd);
    Stmt *sc = scope(&t, t.body, true);
    const char *d[1] = { "output_existing" };
    Var *s0 = ir_var_new(t.c, "s0", st), *s1 = ir_var_new(t.c, "s1", st);
    ir_list_push(t.c, &sc->scope.body, ir_assign(t.c, s0, slice(&t, ir_ref(c), 8, width, ci(&t, 0), ci(&t, c0))));
    ir_list_push(t.c, &sc->scope.body, ir_assign(t.c, s1, slice(&t, ir_ref(c), 8, width, ci(&t, 0), ci(&t, c1))));
    Expr *a0 = ir_ref(s0), *a1 = ir_ref(s1);
    call(&t, &sc->scope.body, NULL, k, &a0, 1, d);
    call(&t, &sc->scope.body, NULL, k, &a1, 1, d);
    static float bc[8 * 32];
    void *bufs[1] = { bc };
    KMode modes[1] = { { "half", "w" } };
    RtResult r;
    int n = run(&t, bufs, 1, modes, 1, &r) ? r.races.len : -1;
    if (msg) *msg = n > 0 ? strdup(r.races.data[0]) : NULL;
    rt_result_free(&r);
    tb_free(&t);
    return n;
}

TEST(test_strided_views) {
    CHECK_EQ_INT(column_races(0, 16, 16, NULL), 0);
    char *msg = NULL;
    CHECK_EQ_INT(column_races(0, 8, 16, &msg), 1);
    /* columns 8..15 of every row overlap: first element (0, 8) = 8, last (7, 15) = 7 * 32 + 15 = 239 */
    CHECK_CONTAINS(msg, "c (8 x 32 FP32): elements 8..239 (rows 0..7)");
    free(msg);
}

/* Two SPMD tasks of 4 blocks in a MANUAL scope without a dependency: the writer's blocks write column
 * panels of c (blocks disjoint: no race among them), the reader's blocks read column panels too. The
 * race check folds the panels of a task into the bytes it touches (rt_race.c check_task_runs): one
 * race, over the whole tensor, as the row-by-row check reports it. */
static int panel_races(const char *wmode, const char *rmode, char **msg) {
    Tb t; tb_init(&t);
    Var *c = param(&t, "c", ten(&t, DT_FP32, 16, 16), PD_OUT);
    Type *ts[1] = { c->type };
    ParamDir pd[1] = { PD_INOUT };
    Function *w = kernel(&t, "writer", FT_AIC, 1, ts, pd), *rd = kernel(&t, "reader", FT_AIC, 1, ts, pd);
    Stmt *sc = scope(&t, t.body, true);
    Expr *arg = ir_ref(c);
    const char *dw[1] = { "output_existing" }, *dr[1] = { "input" };
    Expr *e0 = call(&t, &sc->scope.body, NULL, w, &arg, 1, dw);
    Expr *e1 = call(&t, &sc->scope.body, NULL, rd, &arg, 1, dr);
    ir_attr_set(t.c, &e0->call.attrs, "block_num", ir_av_int(4));
    ir_attr_set(t.c, &e1->call.attrs, "block_num", ir_av_int(4));
    static float bc[256];
    void *bufs[1] = { bc };
    KMode modes[2] = { { "writer", wmode }, { "reader", rmode } };
    RtResult r;
    int n = run(&t, bufs, 1, modes, 2, &r) ? r.races.len : -1;
    if (msg) *msg = n > 0 ? strdup(r.races.data[0]) : NULL;
    rt_result_free(&r);
    tb_free(&t);
    return n;
}

TEST(test_column_panels) {
    char *msg = NULL;
    CHECK_EQ_INT(panel_races("K", "Q", &msg), 1);
    CHECK_CONTAINS(msg, "task 0 writes and task 1 reads c (16 x 16 FP32): elements 0..255 (rows 0..15)");
    free(msg);
    /* the reader's blocks read row shares instead (R: block b rows 4b..4b+3): together the whole
     * tensor, so the race covers it again */
    CHECK_EQ_INT(panel_races("K", "R", &msg), 1);
    CHECK_CONTAINS(msg, "elements 0..255");
    free(msg);
    CHECK_EQ_INT(panel_races("-", "Q", NULL), 0);   /* nothing written: no race */
}

int main(void) {
    RUN(test_ordered_by_tensormap);
    RUN(test_manual_scope_missing_dep);
    RUN(test_untracked_orders);
    RUN(test_atomic_adds);
    RUN(test_transitive_order);
    RUN(test_spmd_blocks);
    RUN(test_column_panels);
    RUN(test_strided_views);
    return test_summary();
}
