/* sim/layout — tile layouts (isa_and_sync.md §3), element conversion and window copies.
 *
 * Requires: MirBuf layout fields (blayout, slayout, fractal, dtype, rows, cols).
 * Produces: element offsets, per-buffer separable offset tables (SimView), typed element access,
 *           GM addressing of tload / tstore windows (row-major ND, or an NZ parameter's fractal order).
 * Does: every layout of §3 is separable, offset(i, j) = rowpart(i) + colpart(j), so a buffer's
 * layout is two small tables built once per run and every copy is table lookups plus adds; two more
 * tables give, per row / column, the length of the run of consecutive offsets starting there (the
 * same in every column / row), so copies move whole runs (box rows) with memcpy. */
#include "sim/sim_int.h"

#include <string.h>

void sim_layout_box(MirLayout slayout, int64_t fractal, int elem_bytes, int64_t *r0, int64_t *c0) {
    int64_t eb = elem_bytes > 0 ? elem_bytes : 1;
    if (slayout == ML_NONE_BOX) { *r0 = *c0 = 1; return; }
    if (fractal == 1024) { *r0 = *c0 = 16; return; }
    int64_t w = fractal / (16 * eb);
    if (w < 1) w = 1;
    if (slayout == ML_ROW_MAJOR) { *r0 = 16; *c0 = w; }
    else { *r0 = w; *c0 = 16; }
}

/* Row and column parts of the offset; their sum is the element offset. */
static int64_t row_part(MirLayout bl, MirLayout sl, int64_t R, int64_t C, int64_t r0, int64_t c0, int64_t i) {
    if (sl == ML_NONE_BOX) return bl == ML_COL_MAJOR ? i : i * C;
    int64_t bi = i / r0, ii = i % r0;
    int64_t outer = bl == ML_COL_MAJOR ? bi * (r0 * c0) : bi * (C * r0);
    (void)R;
    return outer + (sl == ML_ROW_MAJOR ? ii * c0 : ii);
}

static int64_t col_part(MirLayout bl, MirLayout sl, int64_t R, int64_t C, int64_t r0, int64_t c0, int64_t j) {
    if (sl == ML_NONE_BOX) return bl == ML_COL_MAJOR ? j * R : j;
    int64_t bj = j / c0, jj = j % c0;
    int64_t outer = bl == ML_COL_MAJOR ? bj * (R * c0) : bj * (r0 * c0);
    (void)C;
    return outer + (sl == ML_ROW_MAJOR ? jj : jj * r0);
}

int64_t sim_layout_offset(MirLayout blayout, MirLayout slayout, int64_t fractal, int elem_bytes,
                          int64_t rows, int64_t cols, int64_t i, int64_t j) {
    int64_t r0, c0;
    sim_layout_box(slayout, fractal, elem_bytes, &r0, &c0);
    /* a boxed tile is a whole number of boxes: a partial box still occupies a full one */
    rows = (rows + r0 - 1) / r0 * r0;
    cols = (cols + c0 - 1) / c0 * c0;
    return row_part(blayout, slayout, rows, cols, r0, c0, i) + col_part(blayout, slayout, rows, cols, r0, c0, j);
}

/* Builds the offset tables of b and checks it lies inside its space. A compact buffer's column
 * strips are ceil(valid_rows / r0) boxes high (the stride TMATMUL writes, §5). */
bool sim_build_view(SimRun *s, const MirBuf *b, SimView *v) {
    memset(v, 0, sizeof *v);
    v->buf = b;
    v->eb = dtype_bytes(b->dtype);
    if (b->space <= MS_DDR || b->space >= MS_COUNT || !s->c->mem[b->space])
        return sim_hard_error(s, NULL, "buffer %s: space %s does not exist on this core", b->name,
                              memspace_name(b->space));
    if (v->eb <= 0 || b->rows <= 0 || b->cols <= 0 || b->valid_rows < 0 || b->valid_cols < 0 ||
        b->valid_rows > b->rows || b->valid_cols > b->cols)
        return sim_hard_error(s, NULL, "buffer %s: bad shape %lldx%lld (valid %lldx%lld)", b->name,
                              (long long)b->rows, (long long)b->cols, (long long)b->valid_rows,
                              (long long)b->valid_cols);
    int64_t r0, c0, R = b->rows;
    sim_layout_box(b->slayout, b->fractal, v->eb, &r0, &c0);
    R = (R + r0 - 1) / r0 * r0;                       /* whole boxes: a partial box occupies a full one */
    int64_t C = (b->cols + c0 - 1) / c0 * c0;
    if (b->compact && b->slayout != ML_NONE_BOX) R = (b->valid_rows + r0 - 1) / r0 * r0;
    v->roff = ARENA_ARRAY(s->arena, int64_t, b->rows);
    v->coff = ARENA_ARRAY(s->arena, int64_t, b->cols);
    for (int64_t i = 0; i < b->rows; i++) v->roff[i] = row_part(b->blayout, b->slayout, R, C, r0, c0, i);
    for (int64_t j = 0; j < b->cols; j++) v->coff[j] = col_part(b->blayout, b->slayout, R, C, r0, c0, j);
    /* run lengths, from the back: copies move whole runs of consecutive offsets at once */
    v->rrun = ARENA_ARRAY(s->arena, int32_t, b->rows);
    v->crun = ARENA_ARRAY(s->arena, int32_t, b->cols);
    for (int64_t i = b->rows - 1; i >= 0; i--)
        v->rrun[i] = i + 1 < b->rows && v->roff[i + 1] == v->roff[i] + 1 && v->rrun[i + 1] < INT32_MAX ? v->rrun[i + 1] + 1 : 1;
    for (int64_t j = b->cols - 1; j >= 0; j--)
        v->crun[j] = j + 1 < b->cols && v->coff[j + 1] == v->coff[j] + 1 && v->crun[j + 1] < INT32_MAX ? v->crun[j + 1] + 1 : 1;
    /* offsets are non-decreasing in i and j: the last element has the largest offset */
    int64_t foot = (v->roff[b->rows - 1] + v->coff[b->cols - 1] + 1) * v->eb;
    int64_t size = s->c->size[b->space];
    int64_t ring = b->ring_slots > 1 ? b->ring_slots : 1;   /* a ring buffer: ring_slots slots of `bytes` */
    if (b->ring_slots > 1 && foot > b->bytes)
        return sim_hard_error(s, NULL, "buffer %s: a ring slot of %lld bytes is smaller than the tile (%lld bytes)", b->name,
                              (long long)b->bytes, (long long)foot);
    if (b->addr < 0 || b->addr + foot > size || b->addr + b->bytes * ring > size)
        return sim_hard_error(s, NULL, "buffer %s: [%lld, %lld) exceeds %s (%lld bytes)", b->name, (long long)b->addr,
                              (long long)(b->addr + (foot > b->bytes * ring ? foot : b->bytes * ring)), memspace_name(b->space),
                              (long long)size);
    v->base = s->c->mem[b->space] + b->addr;
    return true;
}

double sim_read_elem(DType t, const uint8_t *p) { return dtype_read(t, p); }

static int64_t sat(double v, double lo, double hi) {
    if (v != v) return 0;
    if (v < lo) v = lo;
    if (v > hi) v = hi;
    return (int64_t)v;
}

void sim_write_elem(DType t, uint8_t *p, double v) {
    switch (t) {
    case DT_FP16: { uint16_t h = f32_to_fp16((float)v); memcpy(p, &h, 2); return; }
    case DT_BF16: { uint16_t h = f32_to_bf16((float)v); memcpy(p, &h, 2); return; }
    case DT_FP32: { float f = (float)v; memcpy(p, &f, 4); return; }
    case DT_INT8: p[0] = (uint8_t)(int8_t)sat(v, -128, 127); return;
    case DT_UINT8: case DT_BOOL: p[0] = (uint8_t)sat(v, 0, 255); return;
    case DT_INT16: { int16_t x = (int16_t)sat(v, -32768, 32767); memcpy(p, &x, 2); return; }
    case DT_UINT16: { uint16_t x = (uint16_t)sat(v, 0, 65535); memcpy(p, &x, 2); return; }
    case DT_INT32: { int32_t x = (int32_t)sat(v, -2147483648.0, 2147483647.0); memcpy(p, &x, 4); return; }
    case DT_UINT32: { uint32_t x = (uint32_t)sat(v, 0, 4294967295.0); memcpy(p, &x, 4); return; }
    case DT_INT64: case DT_INDEX: { int64_t x = (int64_t)v; memcpy(p, &x, 8); return; }
    case DT_UINT64: { uint64_t x = v < 0 ? 0 : (uint64_t)v; memcpy(p, &x, 8); return; }
    default: return;
    }
}

/* dst window at (dr, dc) <- src window at (sr, sc), rows x cols elements. Same dtype: raw copy;
 * otherwise converted through double (FP32 -> FP16/BF16 rounds half to even). Bounds are checked
 * by the callers. Same dtype with columns consecutive in both layouts (boxes of the same width):
 * copied by runs, the runs being the same in every row (separable layouts). */
void sim_copy_window(const SimView *dst, int64_t dr, int64_t dc, const SimView *src, int64_t sr, int64_t sc,
                     int64_t rows, int64_t cols) {
    const int64_t *dco = dst->coff + dc, *sco = src->coff + sc;
    if (dst->buf->dtype == src->buf->dtype) {
        int eb = dst->eb;
        if (cols > 1 && dco[1] == dco[0] + 1 && sco[1] == sco[0] + 1) {   /* runs consecutive in both: memcpy */
            for (int64_t j = 0; j < cols;) {
                int64_t e = sim_run_end(dst->crun + dc, j, cols), e2 = sim_run_end(src->crun + sc, j, cols);
                if (e2 < e) e = e2;
                for (int64_t i = 0; i < rows; i++)
                    sim_copy_bytes(dst->base + (dst->roff[dr + i] + dco[j]) * eb, src->base + (src->roff[sr + i] + sco[j]) * eb,
                                   (e - j) * eb);
                j = e;
            }
            return;
        }
        for (int64_t i = 0; i < rows; i++) {
            uint8_t *d = dst->base + dst->roff[dr + i] * eb;
            const uint8_t *s = src->base + src->roff[sr + i] * eb;
            switch (eb) {
            case 2: for (int64_t j = 0; j < cols; j++) memcpy(d + dco[j] * 2, s + sco[j] * 2, 2); break;
            case 4: for (int64_t j = 0; j < cols; j++) memcpy(d + dco[j] * 4, s + sco[j] * 4, 4); break;
            case 1: for (int64_t j = 0; j < cols; j++) d[dco[j]] = s[sco[j]]; break;
            default: for (int64_t j = 0; j < cols; j++) memcpy(d + dco[j] * eb, s + sco[j] * eb, (size_t)eb); break;
            }
        }
        return;
    }
    DType dt = dst->buf->dtype, st = src->buf->dtype;
    for (int64_t i = 0; i < rows; i++) {
        uint8_t *d = dst->base + dst->roff[dr + i] * dst->eb;
        const uint8_t *s = src->base + src->roff[sr + i] * src->eb;
        for (int64_t j = 0; j < cols; j++) sim_write_elem(dt, d + dco[j] * dst->eb, sim_read_elem(st, s + sco[j] * src->eb));
    }
}

/* Rows [0, nr) x columns [0, nc) of a view from / to memory of its dtype holding row r at
 * mem + r * ld elements, columns contiguous (tload / raw tstore of ND windows). By runs of
 * consecutive column offsets, runs outer: in a boxed layout the rows of one box column are
 * contiguous, so the view side is written (read) sequentially. */
void sim_rows_copy(const SimView *v, int64_t nr, int64_t nc, uint8_t *mem, int64_t ld, bool to_view) {
    int eb = v->eb;
    for (int64_t j = 0; j < nc;) {
        int64_t e = sim_run_end(v->crun, j, nc), bytes = (e - j) * eb;
        for (int64_t r = 0; r < nr; r++) {
            uint8_t *vp = v->base + (v->roff[r] + v->coff[j]) * eb, *mp = mem + (r * ld + j) * eb;
            if (to_view) sim_copy_bytes(vp, mp, bytes); else sim_copy_bytes(mp, vp, bytes);
        }
        j = e;
    }
}

/* Fills every element of the capacity outside the leading vrows x vcols rectangle with value. */
void sim_fill_pad(const SimView *v, int64_t vrows, int64_t vcols, double value) {
    uint8_t ebuf[8];
    sim_write_elem(v->buf->dtype, ebuf, value);
    for (int64_t i = 0; i < v->buf->rows; i++) {
        uint8_t *row = v->base + v->roff[i] * v->eb;
        for (int64_t j = i < vrows ? vcols : 0; j < v->buf->cols; j++) memcpy(row + v->coff[j] * v->eb, ebuf, (size_t)v->eb);
    }
}

/* ---------------------------------------------------------------- GM windows */
bool sim_gm_origin(SimRun *s, const MirInst *i, int64_t *row, int64_t *col) {
    const MirParam *p = &s->k->params[i->param];
    int64_t o[MIR_MAX_RANK] = {0};
    int n = mir_gm_noff(s->k, i);
    for (int d = 0; d < n; d++)
        if (i->off[d] && !mir_eval_checked(i->off[d], s->vars, &o[d]))
            return sim_hard_error(s, i, "an offset overflows or divides by zero");
    if (n == 2) { *row = o[0]; *col = o[1]; return true; }
    if (p->rank != 5) return sim_hard_error(s, i, "NZ parameter %s is not blocked to rank 5", p->name);
    if (o[0] != 0 || o[3] != 0 || o[4] != 0)
        return sim_hard_error(s, i, "%s window of NZ parameter %s at blocked offsets (%lld, %lld, %lld, %lld, %lld) is not "
                              "whole fractals: the row must be a multiple of %lld and the column a multiple of %lld "
                              "(offsets 0, 3 and 4 must be 0)", i->op == MI_TLOAD ? "tload" : "tstore", p->name,
                              (long long)o[0], (long long)o[1], (long long)o[2], (long long)o[3], (long long)o[4],
                              (long long)p->shape[3], (long long)p->shape[4]);
    if (!checked_mul(o[2], p->shape[3], row) || !checked_mul(o[1], p->shape[4], col))
        return sim_hard_error(s, i, "an offset overflows");
    return true;
}

void sim_gm_geometry(const MirParam *p, SimGm *g) {
    memset(g, 0, sizeof *g);
    mir_param_matrix(p, &g->rows, &g->cols);
    g->nz = p->layout == MIR_LAYOUT_NZ && p->rank == 5;
    if (g->nz) {
        g->c0 = p->shape[4];
        g->strip = p->strides[1];
        g->rs = p->strides[3];
        g->cs = 1;
        return;
    }
    g->cs = p->rank >= 1 && p->strides[p->rank - 1] ? p->strides[p->rank - 1] : 1;
    g->rs = p->rank >= 2 && p->strides[p->rank - 2] ? p->strides[p->rank - 2] : g->cols * g->cs;
}
