/* test_vec_harness — a one-kernel AIV simulator harness shared by the vector-unit unit tests
 * (test_sim_vec.c, test_sim_bits.c): Vec buffers with layouts and valid regions, MI_VOP
 * instructions, element access through the layout formula, a run that keeps the diagnostics. */
#ifndef PTOC_TEST_VEC_HARNESS_H
#define PTOC_TEST_VEC_HARNESS_H

#include "test_sim_util.h"

static const Target *T(void) { return target_get(TGT_A2A3); }

typedef struct VT {
    Arena *ar;
    Kernel *k;
    KB b;
    SimCore *c;
    SimOptions o;
    SimResult r;
    DiagSink dg;
    bool ran, ok;
    char err[1024];
} VT;

static void vt_init(VT *t) {
    memset(t, 0, sizeof *t);
    t->ar = arena_new();
    t->k = mir_kernel_new(t->ar, "vec", CORE_AIV);
    t->b.k = t->k;
    t->c = sim_core_new(T(), CORE_AIV);
    t->o.race_check = true;
    diag_init(&t->dg);
}

static void vt_free(VT *t) {
    if (t->ran) sim_result_free(&t->r);
    diag_free(&t->dg);
    sim_core_free(t->c);
    arena_free(t->ar);
}

/* A Vec buffer, ND (row-major) or DN (col_major), with a valid region. */
static int vb(VT *t, const char *name, int64_t addr, DType dt, int64_t rows, int64_t cols, int64_t vr, int64_t vc, bool dn) {
    MirBuf b = tbuf(name, MS_VEC, addr, dt, rows, cols, dn ? ML_COL_MAJOR : ML_ROW_MAJOR, ML_NONE_BOX, 0);
    b.valid_rows = vr;
    b.valid_cols = vc;
    return mir_add_buf(t->k, b);
}

static MirInst *vop(VT *t, MirVecOp op, int dst, int s0, int s1) {
    MirInst *i = mir_inst_new(t->k, MI_VOP, PIPE_NONE);
    i->vop = op; i->dst = dst; i->src0 = s0; i->src1 = s1;
    i->pipe = mir_pipe_for(t->k, MI_VOP, dst, s0);
    return kb_push(&t->b, NULL, i);
}

/* Element (r, c) of buffer id in the core's Vec memory, through the layout formula. */
static uint8_t *at(VT *t, int id, int64_t r, int64_t c) {
    const MirBuf *b = &t->k->bufs[id];
    int eb = dtype_bytes(b->dtype);
    int64_t off = sim_layout_offset(b->blayout, b->slayout, b->fractal, eb, b->rows, b->cols, r, c);
    return sim_core_mem(t->c, MS_VEC, NULL) + b->addr + off * eb;
}
static void put(VT *t, int id, int64_t r, int64_t c, double v) { sim_write_elem(t->k->bufs[id].dtype, at(t, id, r, c), v); }
static double get(VT *t, int id, int64_t r, int64_t c) { return sim_read_elem(t->k->bufs[id].dtype, at(t, id, r, c)); }
static void fill_buf(VT *t, int id, double v) {
    const MirBuf *b = &t->k->bufs[id];
    for (int64_t r = 0; r < b->rows; r++)
        for (int64_t c = 0; c < b->cols; c++) put(t, id, r, c, v);
}

static bool vt_run(VT *t) {
    if (t->ran) sim_result_free(&t->r);
    diag_free(&t->dg);
    diag_init(&t->dg);
    t->ok = sim_run(t->c, t->k, NULL, &t->o, &t->r, &t->dg);
    t->ran = true;
    StrBuf sb = { 0 };
    diag_format_all(&t->dg, &sb);
    snprintf(t->err, sizeof t->err, "%s", sb_cstr(&sb));
    sb_free(&sb);
    return t->ok;
}

/* Same value, NaN equal to NaN and the sign of zero significant. */
static bool same(double x, double y) {
    if (x != x || y != y) return x != x && y != y;
    return x == y && signbit(x) == signbit(y);
}

/* Counts elements of id outside the leading vr x vc rectangle that differ from sentinel. */
static int touched_outside(VT *t, int id, int64_t vr, int64_t vc, double sentinel) {
    const MirBuf *b = &t->k->bufs[id];
    int n = 0;
    for (int64_t r = 0; r < b->rows; r++)
        for (int64_t c = 0; c < b->cols; c++)
            if ((r >= vr || c >= vc) && !same(get(t, id, r, c), sentinel)) n++;
    return n;
}

#define SENTINEL 77.0

#endif
