/* sim/vec — the vector unit: semantics of MI_VOP (spec/ops.md §4, numerics §2.8, decisions §7).
 *
 * Requires: per-buffer views (layout tables) of the run; the scalar operand evaluated at issue
 * (SimDyn.sc); the row kernels of vec_row.c.
 * Produces: sim_vop_check (operands, dtypes, valid shapes and mode, checked when the instruction is
 * issued) and sim_exec_vop (the instruction's effect on the Vec memory, in simulated-time order).
 * Does: every instruction works row by row through the operands' views, so padded ND rows, DN
 * [M, 1] reduction results and valid regions smaller than the capacity are addressed exactly as
 * laid out. Only the valid region of dst is written (fillpad: the whole dst). Floats compute in
 * double and round once into the element type; integers compute exactly and wrap; an integer
 * division by zero is a hard run-time error naming the op. Same-dtype FP32 element-wise
 * instructions on contiguous rows (coff[j] == j) take a fast path that works on the tile memory
 * directly; it gives the same bits as the general path. */
#include "sim/sim_int.h"

#include <math.h>
#include <string.h>

static const char *const roles[3] = { "dst", "src0", "src1" };

/* The element types of the vector ISA (spec/ops.md §4: integers of at most 32 bits). */
static bool vec_dtype(DType t) {
    switch (t) {
    case DT_FP16: case DT_BF16: case DT_FP32: case DT_INT8: case DT_INT16: case DT_INT32:
    case DT_UINT8: case DT_UINT16: case DT_UINT32: return true;
    default: return false;
    }
}

static bool is_expand(MirVecKind k) { return k == MVK_ROW_EXPAND || k == MVK_COL_EXPAND; }
static bool uses_src0(MirVecKind k, MirVecFn fn) { return k != MVK_FILL && !(is_expand(k) && fn == MVF_NONE); }
static bool uses_src1(MirVecKind k) { return k == MVK_BINARY || is_expand(k); }
static bool same_valid(const MirBuf *a, const MirBuf *b) {
    return a->valid_rows == b->valid_rows && a->valid_cols == b->valid_cols;
}

/* ---------------------------------------------------------------- checks at issue */

/* Hard error "tadd: what (dst y FP32 valid 4x8 of 4x16, src0 ...)" listing every operand. */
static bool vop_error(SimRun *s, const MirInst *i, const char *what) {
    StrBuf sb = { 0 };
    int ids[3] = { i->dst, i->src0, i->src1 };
    for (int j = 0; j < 3; j++) {
        if (ids[j] < 0 || ids[j] >= s->k->nbufs) continue;
        const MirBuf *b = &s->k->bufs[ids[j]];
        sb_printf(&sb, "%s%s %s %s valid %lldx%lld of %lldx%lld", sb.len ? ", " : "", roles[j], b->name,
                  dtype_name(b->dtype), (long long)b->valid_rows, (long long)b->valid_cols, (long long)b->rows,
                  (long long)b->cols);
    }
    bool r = sim_hard_error(s, i, "%s: %s (%s)", mir_vop_pto(i->vop), what, sb_cstr(&sb));
    sb_free(&sb);
    return r;
}

static bool check_dtypes(SimRun *s, const MirInst *i, MirVecKind vk) {
    const Kernel *k = s->k;
    DType dt = k->bufs[i->dst].dtype;
    DType st = uses_src0(vk, mir_vop_fn(i->vop)) ? k->bufs[i->src0].dtype : dt;
    if (vk == MVK_CAST) {
        if (!dtype_is_supported(dt) || !dtype_is_supported(st)) return vop_error(s, i, "cast of an unsupported dtype");
        return true;
    }
    if (vk == MVK_ROW_REDUCE || vk == MVK_COL_REDUCE) {
        bool pair = dt == st || (dt == DT_FP32 && (st == DT_FP16 || st == DT_BF16)) || (dt == DT_INT32 && st == DT_INT16);
        if (!vec_dtype(st) || !pair)
            return vop_error(s, i, "a reduction keeps the source dtype (or FP16/BF16 -> FP32, INT16 -> INT32)");
        return true;
    }
    if (!vec_dtype(dt))
        return vop_error(s, i, "not a vector element type (FP16, BF16, FP32, INT8/16/32, UINT8/16/32)");
    if (st != dt || (uses_src1(vk) && k->bufs[i->src1].dtype != dt)) return vop_error(s, i, "operand dtypes differ");
    bool transcendental = i->vop == VOP_EXP || i->vop == VOP_LOG || i->vop == VOP_SQRT || i->vop == VOP_RSQRT;
    if (transcendental && !dtype_is_float(dt)) return vop_error(s, i, "needs a float dtype");
    const char *bits = sim_vop_bits_dtype_error(i->vop, dt);   /* vec_bits.c */
    if (bits) return vop_error(s, i, bits);
    return true;
}

static bool check_shapes(SimRun *s, const MirInst *i, MirVecKind vk, MirVecFn fn) {
    const Kernel *k = s->k;
    const MirBuf *D = &k->bufs[i->dst];
    const MirBuf *A = uses_src0(vk, fn) ? &k->bufs[i->src0] : NULL;
    const MirBuf *B = uses_src1(vk) ? &k->bufs[i->src1] : NULL;
    switch (vk) {
    case MVK_BINARY:
        if (!same_valid(D, A) || !same_valid(D, B)) return vop_error(s, i, "valid shapes differ");
        return true;
    case MVK_SCALAR: case MVK_UNARY: case MVK_CAST:
        if (!same_valid(D, A)) return vop_error(s, i, "valid shapes differ");
        return true;
    case MVK_FILL: return true;
    case MVK_FILLPAD:
        if (A->valid_rows > D->rows || A->valid_cols > D->cols)
            return vop_error(s, i, "the source's valid region does not fit the destination");
        return true;
    case MVK_ROW_REDUCE: case MVK_COL_REDUCE: {
        bool row = vk == MVK_ROW_REDUCE;
        int64_t want_r = row ? A->valid_rows : 1, want_c = row ? 1 : A->valid_cols;
        if (D->valid_rows != want_r || D->valid_cols != want_c)
            return vop_error(s, i, row ? "the result's valid shape must be [valid rows of src0, 1]"
                                       : "the result's valid shape must be [1, valid cols of src0]");
        int64_t outer = row ? A->valid_rows : A->valid_cols, inner = row ? A->valid_cols : A->valid_rows;
        if (fn != MVF_ADD && outer > 0 && inner == 0) return vop_error(s, i, "max / min / product over an empty valid region");
        return true;
    }
    case MVK_CMP: case MVK_CMPS: case MVK_SEL: case MVK_SELS: case MVK_TRANS: case MVK_CONCAT: case MVK_PART:
    case MVK_ROW_ARG: case MVK_COL_ARG: return true;   /* vec_cmp.c, vec_move.c, vec_bits.c, vec_arg.c */
    case MVK_ROW_EXPAND: case MVK_COL_EXPAND: {
        bool row = vk == MVK_ROW_EXPAND;
        if (A && !same_valid(D, A)) return vop_error(s, i, "valid shapes of dst and src0 differ");
        bool covers = row ? B->valid_rows >= D->valid_rows && (D->valid_rows == 0 || B->valid_cols >= 1)
                          : B->valid_cols >= D->valid_cols && (D->valid_cols == 0 || B->valid_rows >= 1);
        if (!covers)
            return vop_error(s, i, row ? "the row vector's valid rows do not cover dst's" : "the column vector's valid cols do not cover dst's");
        return true;
    }
    }
    return true;
}

bool sim_vop_check(SimRun *s, const MirInst *i) {
    if (i->vop < 0 || i->vop >= VOP_COUNT) return sim_hard_error(s, i, "unknown vector op %d", (int)i->vop);
    MirVecKind vk = mir_vop_kind(i->vop);
    if (vk == MVK_CMP || vk == MVK_CMPS || vk == MVK_SEL || vk == MVK_SELS) return sim_vop_check_cmp(s, i);   /* vec_cmp.c */
    if (vk == MVK_TRANS || vk == MVK_CONCAT) return sim_vop_check_move(s, i);              /* vec_move.c */
    if (vk == MVK_PART) return sim_vop_check_part(s, i);                                  /* vec_bits.c */
    if (vk == MVK_ROW_ARG || vk == MVK_COL_ARG) return sim_vop_check_arg(s, i);            /* vec_arg.c */
    MirVecFn fn = mir_vop_fn(i->vop);
    int ids[3] = { i->dst, i->src0, i->src1 };
    bool use[3] = { true, uses_src0(vk, fn), uses_src1(vk) };
    for (int j = 0; j < 3; j++) {
        if (ids[j] < -1 || ids[j] >= s->k->nbufs || (use[j] && ids[j] < 0))
            return sim_hard_error(s, i, "%s: missing or invalid %s operand (buffer id %d)", mir_vop_pto(i->vop), roles[j], ids[j]);
        if (use[j] && s->k->bufs[ids[j]].space != MS_VEC) return vop_error(s, i, "operands must be Vec tiles");
    }
    if (!check_dtypes(s, i, vk) || !check_shapes(s, i, vk, fn)) return false;
    if (vk == MVK_CAST && (i->mode < MRND_NONE || i->mode > MRND_ODD))
        return sim_hard_error(s, i, "%s: rounding mode %d out of range", mir_vop_pto(i->vop), i->mode);
    if (vk == MVK_FILLPAD && (i->mode < 1 || i->mode > 3))
        return sim_hard_error(s, i, "%s: pad value %d is not zero (1), max (2) or min (3)", mir_vop_pto(i->vop), i->mode);
    return true;
}

/* ---------------------------------------------------------------- execution */

typedef struct Vop {
    SimRun *s;
    const MirInst *i;
    MirVecKind kind;
    MirVecFn fn;
    const SimView *d, *a, *b;   /* dst, src0, src1 (NULL when the kind does not use it) */
    int64_t rows, cols;         /* dst's valid region */
    double sd;                  /* the scalar operand in dst's dtype (float dtypes) */
    int64_t si;                 /* the scalar operand wrapped to dst's dtype (integer dtypes) */
} Vop;

/* Dense scratch rows of n doubles (or int64) each, kept in the core across instructions. */
static double *scratch(SimRun *s, int64_t n) {
    PTOC_ASSERT(n < INT32_MAX, "vector scratch of %lld elements", (long long)n);
    vec_reserve(&s->c->vrow, (int)n + 1);
    return s->c->vrow.data;
}

static int64_t wrap_to(DType t, int64_t v) {
    uint64_t u = (uint64_t)v;
    switch (t) {
    case DT_INT8: return (int8_t)(uint8_t)u;
    case DT_UINT8: return (uint8_t)u;
    case DT_INT16: return (int16_t)(uint16_t)u;
    case DT_UINT16: return (uint16_t)u;
    case DT_INT32: return (int32_t)(uint32_t)u;
    case DT_UINT32: return (uint32_t)u;
    default: return v;
    }
}

/* The scalar converted to dst's dtype (spec/ops.md §4.2, sim_vop_scalar); a run-time integer wraps
 * to an integer dtype exactly (no trip through double). */
static void set_scalar(Vop *x, const SimDyn *d) {
    DType t = x->d->buf->dtype;
    if (x->i->scalar && !d->sc.fp && !dtype_is_float(t)) {
        x->si = wrap_to(t, d->sc.i);
        x->sd = (double)x->si;
        return;
    }
    x->sd = sim_vop_scalar(d, t);
    x->si = dtype_is_float(t) ? 0 : (int64_t)x->sd;
}

static bool div_by_zero(const Vop *x, int64_t r, int64_t c) {
    return sim_hard_error(x->s, x->i, "%s: integer division by zero computing element (%lld, %lld) of %s",
                          mir_vop_pto(x->i->vop), (long long)r, (long long)c, x->d->buf->name);
}

static bool contiguous(const SimView *v, int64_t n) { return n <= 1 || v->coff[n - 1] == n - 1; }

static const uint8_t *row_ptr(const SimView *v, int64_t r) { return v->base + v->roff[r] * v->eb; }

/* FP32 element-wise on contiguous rows of dst and the matrix operands, in tile memory. */
static bool ew_fast_ok(const Vop *x) {
    if (x->d->buf->dtype != DT_FP32 || sim_vfn_is_bits(x->fn) || !contiguous(x->d, x->cols)) return false;
    if (x->a && !contiguous(x->a, x->cols)) return false;
    return x->kind != MVK_BINARY || contiguous(x->b, x->cols);
}

static void ew_f32(const Vop *x) {
    const SimView *B = x->b;
    uint8_t *vec = NULL;   /* col expand: src1's row 0, gathered dense */
    if (x->kind == MVK_COL_EXPAND) {
        vec = (uint8_t *)scratch(x->s, x->cols);
        for (int64_t j = 0; j < x->cols; j++) memcpy(vec + 4 * j, row_ptr(B, 0) + B->coff[j] * 4, 4);
    }
    for (int64_t r = 0; r < x->rows; r++) {
        uint8_t *pd = (uint8_t *)row_ptr(x->d, r);
        const uint8_t *pa = x->a ? row_ptr(x->a, r) : NULL;
        float s = (float)x->sd;
        switch (x->kind) {
        case MVK_BINARY: sim_vrow_bin_f32(x->fn, pd, pa, row_ptr(B, r), x->cols); break;
        case MVK_UNARY: sim_vrow_unary_f32(x->i->vop, pd, pa, x->cols); break;
        case MVK_ROW_EXPAND:
            memcpy(&s, row_ptr(B, r) + B->coff[0] * 4, 4);
            sim_vrow_sc_f32(x->fn, pd, pa, s, x->cols);
            break;
        case MVK_COL_EXPAND: sim_vrow_bin_f32(x->fn, pd, pa, vec, x->cols); break;
        default: sim_vrow_sc_f32(x->kind == MVK_FILL ? MVF_NONE : x->fn, pd, pa, s, x->cols); break;   /* scalar, fill */
        }
    }
}

/* General float element-wise: rows as doubles, rounded once on store. rb holds the second
 * operand: src1's row, the broadcast scalar / row-vector element, or the column vector. */
static void ew_float(const Vop *x) {
    int64_t n = x->cols;
    double *ra = scratch(x->s, 3 * n), *rb = ra + n, *ro = rb + n;
    if (x->kind == MVK_SCALAR || x->kind == MVK_FILL)
        for (int64_t j = 0; j < n; j++) rb[j] = x->sd;
    if (x->kind == MVK_COL_EXPAND) sim_vrow_load_d(x->b, 0, 0, n, rb);
    for (int64_t r = 0; r < x->rows; r++) {
        if (x->a) sim_vrow_load_d(x->a, r, 0, n, ra);
        if (x->kind == MVK_BINARY) sim_vrow_load_d(x->b, r, 0, n, rb);
        if (x->kind == MVK_ROW_EXPAND) {
            sim_vrow_load_d(x->b, r, 0, 1, rb);
            for (int64_t j = 1; j < n; j++) rb[j] = rb[0];
        }
        if (x->kind == MVK_UNARY) sim_vrow_unary_d(x->i->vop, ro, ra, n);
        else if (!x->a) memcpy(ro, rb, sizeof(double) * (size_t)n);   /* fill, plain expand */
        else if (sim_vfn_is_bits(x->fn)) sim_vrow_bits_d(x->fn, x->d->buf->dtype, ro, ra, rb, n);
        else sim_vrow_bin_d(x->fn, ro, ra, rb, n);
        sim_vrow_store_d(x->d, r, n, ro);
    }
}

/* General integer element-wise: the same structure in int64, wrapped on store. */
static bool ew_int(const Vop *x) {
    int64_t n = x->cols;
    int64_t *ra = (int64_t *)(void *)scratch(x->s, 3 * n), *rb = ra + n, *ro = rb + n;
    if (x->kind == MVK_SCALAR || x->kind == MVK_FILL)
        for (int64_t j = 0; j < n; j++) rb[j] = x->si;
    if (x->kind == MVK_COL_EXPAND) sim_vrow_load_i(x->b, 0, 0, n, rb);
    for (int64_t r = 0; r < x->rows; r++) {
        if (x->a) sim_vrow_load_i(x->a, r, 0, n, ra);
        if (x->kind == MVK_BINARY) sim_vrow_load_i(x->b, r, 0, n, rb);
        if (x->kind == MVK_ROW_EXPAND) {
            sim_vrow_load_i(x->b, r, 0, 1, rb);
            for (int64_t j = 1; j < n; j++) rb[j] = rb[0];
        }
        int64_t bad = -1;
        if (x->kind == MVK_UNARY) bad = sim_vrow_unary_i(x->i->vop, ro, ra, n);
        else if (!x->a) memcpy(ro, rb, sizeof(int64_t) * (size_t)n);
        else if (sim_vfn_is_bits(x->fn)) bad = sim_vrow_bits_i(x->fn, x->d->buf->dtype, ro, ra, rb, n);
        else bad = sim_vrow_bin_i(x->fn, ro, ra, rb, n);
        if (bad >= 0 && (x->fn == MVF_SHL || x->fn == MVF_SHR))
            return sim_hard_error(x->s, x->i, "%s: shift count %lld is outside [0, %d) computing element (%lld, %lld) of %s",
                                  mir_vop_pto(x->i->vop), (long long)rb[bad], dtype_bits(x->d->buf->dtype), (long long)r,
                                  (long long)bad, x->d->buf->name);
        if (bad >= 0) return div_by_zero(x, r, bad);
        sim_vrow_store_i(x->d, r, n, ro);
    }
    return true;
}

static bool exec_elementwise(const Vop *x) {
    if (x->rows <= 0 || x->cols <= 0) return true;
    if (ew_fast_ok(x)) { ew_f32(x); return true; }
    if (dtype_is_float(x->d->buf->dtype)) { ew_float(x); return true; }
    return ew_int(x);
}

/* ---- reductions (decision 5: FP16 / BF16 accumulate in FP32 and round once; sums and products
 * in order; pto-isa's TRowProd / TColProd accumulate in the destination type, ptoc treats products
 * as it treats sums) ---- */

static double fold_d(MirVecFn fn, double acc, double v) {
    switch (fn) {
    case MVF_ADD: return (float)((float)acc + (float)v);   /* FP32 accumulator */
    case MVF_MUL: return (float)((float)acc * (float)v);
    case MVF_MAX: return acc < v ? v : acc;                /* std::max: a NaN first stays */
    default: return v < acc ? v : acc;
    }
}

static int64_t fold_i(MirVecFn fn, int64_t acc, int64_t v) {
    switch (fn) {
    case MVF_ADD: return (int64_t)((uint64_t)acc + (uint64_t)v);   /* wraps on store */
    case MVF_MUL: return (int64_t)((uint64_t)acc * (uint64_t)v);   /* mod 2^64, then mod 2^n on store */
    case MVF_MAX: return acc < v ? v : acc;
    default: return v < acc ? v : acc;
    }
}

/* dst[r, 0] = src0[r, 0] fn src0[r, 1] fn ... (left to right); an empty row sums to 0. */
static void row_reduce(const Vop *x) {
    const SimView *A = x->a;
    int64_t R = A->buf->valid_rows, C = A->buf->valid_cols;
    if (dtype_is_float(A->buf->dtype)) {
        double *row = scratch(x->s, C);
        for (int64_t r = 0; r < R; r++) {
            sim_vrow_load_d(A, r, 0, C, row);
            double acc = C ? row[0] : 0.0;
            for (int64_t j = 1; j < C; j++) acc = fold_d(x->fn, acc, row[j]);
            sim_vrow_store_d(x->d, r, 1, &acc);
        }
        return;
    }
    int64_t *row = (int64_t *)(void *)scratch(x->s, C);
    for (int64_t r = 0; r < R; r++) {
        sim_vrow_load_i(A, r, 0, C, row);
        int64_t acc = C ? row[0] : 0;
        for (int64_t j = 1; j < C; j++) acc = fold_i(x->fn, acc, row[j]);
        sim_vrow_store_i(x->d, r, 1, &acc);
    }
}

/* dst[0, c] = src0[0, c] fn src0[1, c] fn ... (top to bottom), streaming the rows. */
static void col_reduce(const Vop *x) {
    const SimView *A = x->a;
    int64_t R = A->buf->valid_rows, C = A->buf->valid_cols;
    if (C <= 0) return;
    if (dtype_is_float(A->buf->dtype)) {
        double *acc = scratch(x->s, 2 * C), *row = acc + C;
        if (R) sim_vrow_load_d(A, 0, 0, C, acc);
        else memset(acc, 0, sizeof(double) * (size_t)C);
        for (int64_t r = 1; r < R; r++) {
            sim_vrow_load_d(A, r, 0, C, row);
            for (int64_t j = 0; j < C; j++) acc[j] = fold_d(x->fn, acc[j], row[j]);
        }
        sim_vrow_store_d(x->d, 0, C, acc);
        return;
    }
    int64_t *acc = (int64_t *)(void *)scratch(x->s, 2 * C), *row = acc + C;
    if (R) sim_vrow_load_i(A, 0, 0, C, acc);
    else memset(acc, 0, sizeof(int64_t) * (size_t)C);
    for (int64_t r = 1; r < R; r++) {
        sim_vrow_load_i(A, r, 0, C, row);
        for (int64_t j = 0; j < C; j++) acc[j] = fold_i(x->fn, acc[j], row[j]);
    }
    sim_vrow_store_i(x->d, 0, C, acc);
}

/* ---- cast and fillpad ---- */

static void exec_cast(const Vop *x) {
    DType to = x->d->buf->dtype, from = x->a->buf->dtype;
    double *row = scratch(x->s, x->cols);
    for (int64_t r = 0; r < x->rows; r++) {
        sim_vrow_load_d(x->a, r, 0, x->cols, row);
        for (int64_t j = 0; j < x->cols; j++) row[j] = dtype_convert(to, from, row[j], x->i->mode);
        sim_vrow_store_d(x->d, r, x->cols, row);
    }
}

/* dst (the whole capacity) = src0 inside src0's valid region, the pad value elsewhere. Rows are
 * copied as raw bytes (NaN payloads kept) through scratch, so an in-place fillpad is exact. */
static void exec_fillpad(const Vop *x) {
    const SimView *A = x->a, *D = x->d;
    int64_t R = A->buf->valid_rows, C = A->buf->valid_cols;
    int eb = D->eb;
    uint8_t *tmp = (uint8_t *)scratch(x->s, C);
    for (int64_t r = 0; r < R; r++) {
        const uint8_t *ps = row_ptr(A, r);
        uint8_t *pd = (uint8_t *)row_ptr(D, r);
        for (int64_t j = 0; j < C; j++) memcpy(tmp + j * eb, ps + A->coff[j] * eb, (size_t)eb);
        for (int64_t j = 0; j < C; j++) memcpy(pd + D->coff[j] * eb, tmp + j * eb, (size_t)eb);
    }
    /* zero; max: +inf / the integer maximum; min: -inf / the integer minimum (0 unsigned): the
     * element writer saturates the infinities to the integer range */
    double pad = x->i->mode == 1 ? 0.0 : x->i->mode == 2 ? INFINITY : -INFINITY;
    sim_fill_pad(D, R, C, pad);
}

bool sim_exec_vop(SimRun *s, const SimDyn *d) {
    const MirInst *i = d->inst;
    MirVecKind vk = mir_vop_kind(i->vop);
    if (vk == MVK_CMP || vk == MVK_CMPS || vk == MVK_SEL || vk == MVK_SELS) return sim_exec_vop_cmp(s, d);
    if (vk == MVK_TRANS || vk == MVK_CONCAT) return sim_exec_vop_move(s, d);
    if (vk == MVK_PART) return sim_exec_vop_part(s, d);
    if (vk == MVK_ROW_ARG || vk == MVK_COL_ARG) return sim_exec_vop_arg(s, d);
    Vop x = { .s = s, .i = i, .kind = mir_vop_kind(i->vop), .fn = mir_vop_fn(i->vop), .d = &s->views[i->dst] };
    if (uses_src0(x.kind, x.fn)) x.a = &s->views[i->src0];
    if (uses_src1(x.kind)) x.b = &s->views[i->src1];
    x.rows = x.d->buf->valid_rows;
    x.cols = x.d->buf->valid_cols;
    if (x.kind == MVK_SCALAR || x.kind == MVK_FILL) set_scalar(&x, d);
    switch (x.kind) {
    case MVK_CAST: exec_cast(&x); return true;
    case MVK_FILLPAD: exec_fillpad(&x); return true;
    case MVK_ROW_REDUCE: row_reduce(&x); return true;
    case MVK_COL_REDUCE: col_reduce(&x); return true;
    default: return exec_elementwise(&x);
    }
}
