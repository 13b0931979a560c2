/* sim/exec — functional semantics of the data-moving tile instructions (isa_and_sync.md §5):
 * tload, tstore (with atomic add and FIXPIPE narrowing), textract, tmov, tinsert; dispatches the
 * matmuls (mad.c) and vector instructions (vec.c).
 *
 * Requires: per-buffer views (layout tables) of the run; GM parameter pointers.
 * Produces: the instruction's effect on core memories / GM, applied when the pipe engine starts it.
 * Does: bounds-checks every window (hard error), converts layouts through the views and dtypes
 * through sim_read_elem / sim_write_elem (FP32 -> FP16/BF16 rounds half to even). */
#include "sim/sim_int.h"

#include <stdlib.h>
#include <string.h>

/* A GM parameter as the logical matrix it holds, addressed row-major (ND, leading dimensions folded
 * into rows) or in NZ fractal order (SimGm, layout.c). */
typedef struct GmMat { uint8_t *base; DType dt; int eb; SimGm g; } GmMat;

static bool gm_mat(SimRun *s, const MirInst *i, GmMat *g) {
    if (i->param < 0 || i->param >= s->k->nparams) return sim_hard_error(s, i, "bad GM parameter %d", i->param);
    const MirParam *p = &s->k->params[i->param];
    if (!p->is_tensor || !s->gm || !s->gm[i->param])
        return sim_hard_error(s, i, "GM parameter %s has no tensor data", p->name);
    g->base = s->gm[i->param];
    g->dt = p->dtype;
    g->eb = dtype_bytes(p->dtype);
    sim_gm_geometry(p, &g->g);
    return true;
}

static bool check_gm_window(SimRun *s, const MirInst *i, const GmMat *g, int64_t r0, int64_t c0, int64_t nr, int64_t nc) {
    if (r0 < 0 || c0 < 0 || r0 > g->g.rows || c0 > g->g.cols || nr > g->g.rows - r0 || nc > g->g.cols - c0)   /* no overflow */
        return sim_hard_error(s, i, "GM window of %lld x %lld at (%lld, %lld) outside %s (%lldx%lld%s)", (long long)nr,
                              (long long)nc, (long long)r0, (long long)c0, s->k->params[i->param].name,
                              (long long)g->g.rows, (long long)g->g.cols, g->g.nz ? ", NZ" : "");
    return true;
}

/* Records the GM elements a tload / tstore window touches: one range per row (ND), or per row of
 * each column strip it crosses (NZ; the rows of a full-width strip are contiguous and merge). */
static void record_window(SimRun *s, const SimDyn *d, const GmMat *g, int64_t nr, int64_t nc, bool write, bool atomic) {
    if (!s->o->record_gm || nc <= 0) return;
    int param = d->inst->param;
    if (!g->g.nz) {
        int64_t lo = d->off0 * g->g.rs + d->off1 * g->g.cs, hi = lo + (nr - 1) * g->g.rs + (nc - 1) * g->g.cs + 1;
        if (nr > 0 && g->g.rs > 0 && g->g.cs > 0 && sim_gm_covered(s, param, lo, hi, write, atomic)) return;   /* a re-read */
        if (nr > 0 && g->g.cs == 1 && g->g.rs == nc) { sim_record_gm(s, param, lo, hi, write, atomic); return; }   /* rows back to back: one range, as the merged rows would be */
        for (int64_t r = 0; r < nr; r++) {
            int64_t e0 = (d->off0 + r) * g->g.rs + d->off1 * g->g.cs;
            sim_record_gm(s, param, e0, e0 + (nc - 1) * g->g.cs + 1, write, atomic);
        }
        return;
    }
    for (int64_t c = 0; c < nc;) {
        int64_t run = g->g.c0 - (d->off1 + c) % g->g.c0;
        if (run > nc - c) run = nc - c;
        for (int64_t r = 0; r < nr; r++) {
            int64_t e0 = sim_gm_offset(&g->g, d->off0 + r, d->off1 + c);
            sim_record_gm(s, param, e0, e0 + run, write, atomic);
        }
        c += run;
    }
}

static double pad_value(int pad) {
    return pad == 2 ? 1e300 : pad == 3 ? -1e300 : 0.0;   /* PAD_MAX / PAD_MIN saturate to the dtype's extremes */
}

static bool exec_data(SimRun *s, const SimDyn *d);

static bool exec_tload(SimRun *s, const SimDyn *d) {
    const MirInst *i = d->inst;
    GmMat g;
    if (!gm_mat(s, i, &g)) return false;
    const SimView *v = &s->views[i->dst];
    int64_t nr = v->buf->valid_rows, nc = v->buf->valid_cols;
    if (!check_gm_window(s, i, &g, d->off0, d->off1, nr, nc)) return false;
    if (g.eb != v->eb) return sim_hard_error(s, i, "tload: element sizes differ (%s vs %s)", dtype_name(g.dt), dtype_name(v->buf->dtype));
    int eb = v->eb;
    record_window(s, d, &g, nr, nc, false, false);
    if (g.g.nz) {   /* NZ -> NZ: element (r, c) at its fractal position */
        for (int64_t r = 0; r < nr; r++) {
            uint8_t *dst = v->base + v->roff[r] * eb;
            for (int64_t j = 0; j < nc; j++)
                memcpy(dst + v->coff[j] * eb, g.base + sim_gm_offset(&g.g, d->off0 + r, d->off1 + j) * eb, (size_t)eb);
        }
    } else if (g.g.cs == 1)   /* unit column stride: by runs (layout.c) */
        sim_rows_copy(v, nr, nc, g.base + (d->off0 * g.g.rs + d->off1) * eb, g.g.rs, true);
    else
        for (int64_t r = 0; r < nr; r++) {
            const uint8_t *src = g.base + ((d->off0 + r) * g.g.rs + d->off1 * g.g.cs) * eb;
            uint8_t *dst = v->base + v->roff[r] * eb;
            if (eb == 2) for (int64_t j = 0; j < nc; j++) memcpy(dst + v->coff[j] * 2, src + j * g.g.cs * 2, 2);
            else for (int64_t j = 0; j < nc; j++) memcpy(dst + v->coff[j] * eb, src + j * g.g.cs * eb, (size_t)eb);
        }
    if (v->buf->pad != 0) sim_fill_pad(v, nr, nc, pad_value(v->buf->pad));
    return true;
}

static bool exec_tstore(SimRun *s, const SimDyn *d) {
    const MirInst *i = d->inst;
    GmMat g;
    if (!gm_mat(s, i, &g)) return false;
    const SimView *v = &s->views[i->src0];
    int64_t nr = v->buf->valid_rows, nc = v->buf->valid_cols;
    if (!check_gm_window(s, i, &g, d->off0, d->off1, nr, nc)) return false;
    DType st = v->buf->dtype;
    bool raw = st == g.dt && !i->atomic_add;
    record_window(s, d, &g, nr, nc, true, i->atomic_add);
    if (raw && !g.g.nz && g.g.cs == 1) {   /* same dtype, unit column stride: by runs (layout.c) */
        sim_rows_copy(v, nr, nc, g.base + (d->off0 * g.g.rs + d->off1) * g.eb, g.g.rs, false);
        return true;
    }
    for (int64_t r = 0; r < nr; r++) {
        const uint8_t *src = v->base + v->roff[r] * v->eb;
        uint8_t *row = g.g.nz ? NULL : g.base + ((d->off0 + r) * g.g.rs + d->off1 * g.g.cs) * g.eb;   /* ND */
        for (int64_t j = 0; j < nc; j++) {
            uint8_t *q = g.g.nz ? g.base + sim_gm_offset(&g.g, d->off0 + r, d->off1 + j) * g.eb : row + j * g.g.cs * g.eb;
            const uint8_t *p = src + v->coff[j] * v->eb;
            if (raw) { memcpy(q, p, (size_t)g.eb); continue; }
            double x = sim_read_elem(st, p);
            if (st == DT_FP32) x = (float)x;
            if (i->atomic_add) x += sim_read_elem(g.dt, q);
            sim_write_elem(g.dt, q, x);
        }
    }
    return true;
}

static bool exec_textract(SimRun *s, const SimDyn *d) {
    const MirInst *i = d->inst;
    const SimView *dv = &s->views[i->dst], *sv = &s->views[i->src0];
    /* the window is dst's valid extent: capacities are padded to whole boxes per layout (lower.c),
     * so a Right tile's capacity may be wider than the Mat tile it is extracted from */
    if (d->off0 < 0 || d->off1 < 0 || d->off0 > sv->buf->rows - dv->buf->valid_rows || d->off1 > sv->buf->cols - dv->buf->valid_cols)   /* no overflow */
        return sim_hard_error(s, i, "textract: window (%lld, %lld) of %lldx%lld outside %s (%lldx%lld)",
                              (long long)d->off0, (long long)d->off1, (long long)dv->buf->valid_rows, (long long)dv->buf->valid_cols,
                              sv->buf->name, (long long)sv->buf->rows, (long long)sv->buf->cols);
    sim_copy_window(dv, 0, 0, sv, d->off0, d->off1, dv->buf->valid_rows, dv->buf->valid_cols);
    return true;
}

/* tmov copies the valid box: equal capacities, or (capacities padded to different boxes, e.g. Mat
 * FP32 16 x 8 vs Acc 16 x 16) equal valid shapes */
static bool tmov_shapes_agree(const MirBuf *d, const MirBuf *s) {
    return (d->rows == s->rows && d->cols == s->cols) || (d->valid_rows == s->valid_rows && d->valid_cols == s->valid_cols);
}

static bool exec_tmov(SimRun *s, const SimDyn *d) {
    const MirInst *i = d->inst;
    const SimView *dv = &s->views[i->dst], *sv = &s->views[i->src0];
    if (!tmov_shapes_agree(dv->buf, sv->buf))
        return sim_hard_error(s, i, "tmov: shapes differ (%s %lldx%lld, %s %lldx%lld)", dv->buf->name,
                              (long long)dv->buf->rows, (long long)dv->buf->cols, sv->buf->name,
                              (long long)sv->buf->rows, (long long)sv->buf->cols);
    sim_copy_window(dv, 0, 0, sv, 0, 0, dv->buf->valid_rows, dv->buf->valid_cols);
    return true;
}

static bool exec_tinsert(SimRun *s, const SimDyn *d) {
    const MirInst *i = d->inst;
    const SimView *dv = &s->views[i->dst], *sv = &s->views[i->src0];
    int64_t nr = sv->buf->valid_rows, nc = sv->buf->valid_cols;
    if (d->off0 < 0 || d->off1 < 0 || d->off0 > dv->buf->rows - nr || d->off1 > dv->buf->cols - nc)   /* no overflow */
        return sim_hard_error(s, i, "tinsert: window (%lld, %lld) of %lldx%lld outside %s (%lldx%lld)",
                              (long long)d->off0, (long long)d->off1, (long long)nr, (long long)nc, dv->buf->name,
                              (long long)dv->buf->rows, (long long)dv->buf->cols);
    sim_copy_window(dv, d->off0, d->off1, sv, 0, 0, nr, nc);
    return true;
}

/* --timing-only: the instruction's checks and its GM footprint (the race detectors work on addresses),
 * no data. Window checks that the data path makes stay, so both modes fail on the same programs. */
static bool timing_only(SimRun *s, const SimDyn *d) {
    const MirInst *i = d->inst;
    switch (i->op) {
    case MI_TLOAD: case MI_TSTORE: {
        GmMat g;
        if (!gm_mat(s, i, &g)) return false;
        const SimView *v = &s->views[i->op == MI_TLOAD ? i->dst : i->src0];
        int64_t nr = v->buf->valid_rows, nc = v->buf->valid_cols;
        if (!check_gm_window(s, i, &g, d->off0, d->off1, nr, nc)) return false;
        if (i->op == MI_TLOAD && g.eb != v->eb)
            return sim_hard_error(s, i, "tload: element sizes differ (%s vs %s)", dtype_name(g.dt), dtype_name(v->buf->dtype));
        record_window(s, d, &g, nr, nc, i->op == MI_TSTORE, i->op == MI_TSTORE && i->atomic_add);
        return true;
    }
    case MI_TEXTRACT: case MI_TINSERT: case MI_TMOV: {
        const SimView *dv = &s->views[i->dst], *sv = &s->views[i->src0];
        const MirBuf *win = i->op == MI_TINSERT ? sv->buf : dv->buf, *whole = i->op == MI_TINSERT ? dv->buf : sv->buf;
        int64_t nr = win->valid_rows, nc = win->valid_cols;
        if (i->op == MI_TMOV ? !tmov_shapes_agree(dv->buf, sv->buf)
                             : d->off0 < 0 || d->off1 < 0 || d->off0 > whole->rows - nr || d->off1 > whole->cols - nc)
            return exec_data(s, d);              /* the data path names the error */
        return true;
    }
    case MI_TGETVAL: case MI_TSETVAL: case MI_GGETVAL: case MI_GSETVAL: return sim_exec_scalar(s, d);
    default: return true;                        /* matmuls and vector instructions: timing only */
    }
}

bool sim_exec(SimRun *s, const SimDyn *d) { return s->o->timing_only ? timing_only(s, d) : exec_data(s, d); }

static bool exec_data(SimRun *s, const SimDyn *d) {
    switch (d->inst->op) {
    case MI_TLOAD: return exec_tload(s, d);
    case MI_TSTORE: return exec_tstore(s, d);
    case MI_TEXTRACT: return exec_textract(s, d);
    case MI_TMOV: return exec_tmov(s, d);
    case MI_TINSERT: return exec_tinsert(s, d);
    case MI_TMATMUL: case MI_TMATMUL_ACC: case MI_TMATMUL_BIAS: return sim_exec_matmul(s, d);
    case MI_VOP: return sim_exec_vop(s, d);
    case MI_TGETVAL: case MI_TSETVAL: case MI_GGETVAL: case MI_GSETVAL: return sim_exec_scalar(s, d);
    default: return true;
    }
}
