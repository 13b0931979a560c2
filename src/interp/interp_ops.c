/* interp_ops — semantics of every op of ops.def on logical arrays.
 *
 * Requires: interp_internal.h; call->type (when present) gives result dtypes.
 * Produces: interp_eval_op.
 * Does: tensors and tiles have reference semantics — assemble, store, set_validshape and
 * matmul_acc write into (or retag) their target array and return that same array; everything else
 * returns a fresh array. Windows that leave their source or target are user errors (tile.load
 * alone zero-fills outside the tensor and outside its valid shape). Values are rounded to the
 * destination dtype on every write. */
#include "interp/interp_internal.h"

#include <string.h>

#define MAX_ARGS 6

typedef struct OpArgs {
    InterpCtx *c;
    const Expr *call;
    InterpValue v[MAX_ARGS];
    int n;
} OpArgs;

static const char *op_name(const OpArgs *a) { return ir_op_info(a->call->call.op)->name; }

static bool arg_array(OpArgs *a, int i, const char *what, InterpArray **out) {
    if (i >= a->n || a->v[i].kind != IV_ARRAY)
        return interp_fail(a->c, a->call->span, "%s: %s must be a tensor or tile", op_name(a), what);
    *out = a->v[i].arr;
    return true;
}

static bool arg_ints(OpArgs *a, int i, const char *what, int64_t *out, int *n) {
    InterpValue v = i < a->n ? a->v[i] : (InterpValue){ 0 };
    if (v.kind == IV_INT) { out[0] = v.i; *n = 1; return true; }
    bool ok = v.kind == IV_TUPLE && v.tup->n <= INTERP_MAX_RANK;
    for (int k = 0; ok && k < v.tup->n; k++) {
        ok = v.tup->items[k].kind == IV_INT || v.tup->items[k].kind == IV_BOOL;
        out[k] = v.tup->items[k].i;
    }
    if (ok) *n = v.tup->n;
    return ok || interp_fail(a->c, a->call->span, "%s: %s must be a list of integers", op_name(a), what);
}

static bool arg_int(OpArgs *a, int i, const char *what, int64_t *out) {
    if (i < a->n && (a->v[i].kind == IV_INT || a->v[i].kind == IV_BOOL)) { *out = a->v[i].i; return true; }
    return interp_fail(a->c, a->call->span, "%s: %s must be an integer", op_name(a), what);
}

static DType result_dtype(const OpArgs *a, DType fallback) {
    const Type *t = a->call->type;
    if (t && (t->kind == TY_TENSOR || t->kind == TY_TILE) && interp_dtype_supported(t->dtype)) return t->dtype;
    return fallback;
}

static const AttrVal *kwarg(const OpArgs *a, const char *key) { return ir_attr_get(&a->call->call.kwargs, key); }

static bool kw_true(const OpArgs *a, const char *key) {
    const AttrVal *v = kwarg(a, key);
    return v && (v->kind == AV_BOOL || v->kind == AV_INT) && v->i;
}

/* atomic=pl.AtomicType.Add (an enum or its integer value 1) */
static bool kw_atomic_add(const OpArgs *a) {
    const AttrVal *v = kwarg(a, "atomic");
    if (!v) return false;
    if (v->kind == AV_INT) return v->i == 1;
    if ((v->kind == AV_ENUM || v->kind == AV_STR) && v->s) {
        size_t n = strlen(v->s);
        return n >= 3 && strcmp(v->s + n - 3, "Add") == 0;
    }
    return false;
}

static InterpValue take(OpArgs *a, int i) {   /* moves argument i's reference out */
    InterpValue v = a->v[i];
    a->v[i] = (InterpValue){ 0 };
    return v;
}

/* ---------------------------------------------------------------- windows */
/* dst[doff + idx] (=|+=) src[soff + idx] for idx in the box ext; all four have rank r.
 * Bounds are checked by the callers. */
static void window_copy(InterpArray *dst, const int64_t *doff, const InterpArray *src, const int64_t *soff,
                        const int64_t *ext, int r, bool add) {
    int64_t ds[INTERP_MAX_RANK], ss[INTERP_MAX_RANK], idx[INTERP_MAX_RANK] = {0};
    for (int d = 0; d < r; d++)
        if (ext[d] <= 0) return;
    int64_t sd = 1, sst = 1;
    for (int d = r - 1; d >= 0; d--) {
        ds[d] = sd; sd *= dst->shape[d];
        ss[d] = sst; sst *= src->shape[d];
    }
    int64_t inner = r ? ext[r - 1] : 1;
    /* same storage and no accumulation: the values are already dst's, the rows are plain copies */
    bool raw = !add && interp_store_of(dst->dtype) == interp_store_of(src->dtype) && dst->dtype == src->dtype;
    size_t eb = (size_t)interp_elem_bytes(dst->dtype);
    for (;;) {
        int64_t di = 0, si = 0;
        for (int d = 0; d < r; d++) {
            int64_t x = idx[d];
            di += (doff[d] + x) * ds[d];
            si += (soff[d] + x) * ss[d];
        }
        if (raw) memcpy((char *)dst->data + (size_t)di * eb, (const char *)src->data + (size_t)si * eb, (size_t)inner * eb);
        else for (int64_t j = 0; j < inner; j++) {
            double v = interp_get(src, si + j);
            interp_store(dst, di + j, add ? interp_get(dst, di + j) + v : v);
        }
        int d = r - 2;
        while (d >= 0 && ++idx[d] == ext[d]) idx[d--] = 0;
        if (d < 0) return;
    }
}

/* Checks that the box [off, off + ext) lies inside arr (rank r each). */
static bool check_window(OpArgs *a, const InterpArray *arr, const int64_t *off, const int64_t *ext, int r,
                         const char *what) {
    for (int d = 0; d < r; d++)
        if (off[d] < 0 || ext[d] < 0 || off[d] > arr->shape[d] || ext[d] > arr->shape[d] - off[d]) {   /* no overflow */
            char buf[128];
            return interp_fail(a->c, a->call->span,
                               "%s: window of extent %lld at offset %lld leaves %s %s in dim %d", op_name(a),
                               (long long)ext[d], (long long)off[d], what, interp_shape_str(arr, buf, sizeof buf), d);
        }
    return true;
}

/* Left-pads a box of rank n to rank r with extent 1 / offset 0 (a lower-rank tile in a tensor). */
static bool pad_rank(OpArgs *a, int64_t *v, int n, int r, int64_t fill) {
    if (n > r) return interp_fail(a->c, a->call->span, "%s: rank %d window in a rank %d array", op_name(a), n, r);
    memmove(v + (r - n), v, sizeof(int64_t) * (size_t)n);
    for (int d = 0; d < r - n; d++) v[d] = fill;
    return true;
}

/* The box of extent ext_in (rank next) at off inside dst: ext = ext_in padded to dst's rank. */
static bool check_into(OpArgs *a, const InterpArray *dst, const int64_t *off, int noff, const int64_t *ext_in, int next,
                       int64_t *ext) {
    memcpy(ext, ext_in, sizeof(int64_t) * (size_t)next);
    if (noff != dst->rank)
        return interp_fail(a->c, a->call->span, "%s: %d offsets for a rank %d target", op_name(a), noff, dst->rank);
    if (!pad_rank(a, ext, next, dst->rank, 1)) return false;
    return check_window(a, dst, off, ext, dst->rank, "the target");
}

/* dst[off + idx] (=|+=) src[idx] for idx in the checked box ext (dst's rank; src's rank <= it). */
static bool copy_into(OpArgs *a, InterpArray *dst, const InterpArray *src, const int64_t *off, const int64_t *ext, bool add) {
    int64_t zero[INTERP_MAX_RANK] = {0};
    if (src->rank != dst->rank) {   /* same element order: view src with the padded rank */
        InterpArray view = *src;
        view.rank = dst->rank;
        memcpy(view.shape, src->shape, sizeof(int64_t) * (size_t)src->rank);
        if (!pad_rank(a, view.shape, src->rank, dst->rank, 1)) return false;
        window_copy(dst, off, &view, zero, ext, dst->rank, add);
    } else
        window_copy(dst, off, src, zero, ext, dst->rank, add);
    return true;
}

/* Writes src's valid region into dst at off (in place); shared by the assembles and tile.store. */
static bool write_into(OpArgs *a, InterpArray *dst, const InterpArray *src, int64_t *off, int noff,
                       const int64_t *ext_in, int next, bool add) {
    int64_t ext[INTERP_MAX_RANK];
    return check_into(a, dst, off, noff, ext_in, next, ext) && copy_into(a, dst, src, off, ext, add);
}

/* A result shape must be non-negative and of a size the interpreter can hold. */
static bool check_shape(OpArgs *a, const int64_t *shape, int n) {
    int64_t numel = 1;
    for (int d = 0; d < n; d++) {
        if (shape[d] < 0) return interp_fail(a->c, a->call->span, "%s: negative dim %lld", op_name(a), (long long)shape[d]);
        if (shape[d] && numel > INTERP_MAX_NUMEL / shape[d])
            return interp_fail(a->c, a->call->span, "%s: the result has more than %lld elements", op_name(a),
                               (long long)INTERP_MAX_NUMEL);
        numel *= shape[d];
    }
    return true;
}

/* ---------------------------------------------------------------- data movement */
static bool op_create(OpArgs *a, InterpValue *out) {
    int64_t shape[INTERP_MAX_RANK];
    int n;
    if (!arg_ints(a, 0, "the shape", shape, &n) || !check_shape(a, shape, n)) return false;
    const AttrVal *dt = kwarg(a, "dtype");
    DType fb = dt && dt->kind == AV_DTYPE && interp_dtype_supported(dt->dtype) ? dt->dtype : DT_FP32;
    *out = interp_arr_value(interp_array_new(result_dtype(a, fb), n, shape));
    return true;
}

static bool op_assemble(OpArgs *a, InterpValue *out) {
    InterpArray *dst = NULL, *src = NULL;
    int64_t off[INTERP_MAX_RANK];
    int n;
    if (!arg_array(a, 0, "the target", &dst) || !arg_array(a, 1, "the source", &src) ||
        !arg_ints(a, 2, "the offset", off, &n))
        return false;
    if (!write_into(a, dst, src, off, n, src->valid, src->rank, kw_atomic_add(a))) return false;
    *out = take(a, 0);
    return true;
}

static bool op_slice(OpArgs *a, InterpValue *out) {
    InterpArray *src = NULL;
    int64_t shape[INTERP_MAX_RANK], off[INTERP_MAX_RANK], valid[INTERP_MAX_RANK], drop[INTERP_MAX_RANK];
    int ns, no, nv = 0, nd = 0;
    if (!arg_array(a, 0, "the input", &src) || !arg_ints(a, 1, "the shape", shape, &ns) ||
        !arg_ints(a, 2, "the offset", off, &no))
        return false;
    if (a->n > 3 && a->v[3].kind != IV_NONE && !arg_ints(a, 3, "the valid shape", valid, &nv)) return false;
    if (a->n > 4 && a->v[4].kind != IV_NONE && !arg_ints(a, 4, "drop_dims", drop, &nd)) return false;
    if (ns != src->rank || no != src->rank)
        return interp_fail(a->c, a->call->span, "tensor.slice: %d-entry shape and %d-entry offset for a rank %d input",
                           ns, no, src->rank);
    if (!check_window(a, src, off, shape, src->rank, "the input")) return false;
    InterpArray *r = interp_array_new(src->dtype, ns, shape);
    int64_t zero[INTERP_MAX_RANK] = {0};
    window_copy(r, zero, src, off, shape, ns, false);
    for (int d = 0; d < nv && d < ns; d++) r->valid[d] = valid[d] < shape[d] ? (valid[d] < 0 ? 0 : valid[d]) : shape[d];
    int k = 0;   /* drop the listed dims (each has extent 1): the element order is unchanged */
    for (int d = 0; d < r->rank; d++) {
        bool dropped = false;
        for (int j = 0; j < nd; j++) dropped |= drop[j] == d && r->shape[d] == 1;
        if (!dropped) { r->shape[k] = r->shape[d]; r->valid[k] = r->valid[d]; k++; }
    }
    r->rank = k;
    *out = interp_arr_value(r);
    return true;
}

/* tile.load from a blocked pl.NZ tensor [1, C/c0, R/16, 16, c0] (BlockNzTensorViews): offsets are
 * blocked coordinates (0, col / c0, row / 16, row % 16, col % c0) and must name a fractal corner;
 * the 2-D tile takes the window's whole fractals: tile(i, j) = src[0, o1 + j / c0, o2 + i / 16,
 * i % 16, j % c0]. Nothing is zero-filled: the window must lie inside the tensor. */
static bool op_load_nz(OpArgs *a, const InterpArray *src, const int64_t *off, int no, const int64_t *shape,
                       const int64_t *valid, int ns, InterpValue *out) {
    char buf[128];
    interp_shape_str(src, buf, sizeof buf);
    int64_t c0 = src->shape[4], nb = src->shape[1], nr = src->shape[2];
    if (no != 5 || ns != 2 || src->shape[0] != 1 || src->shape[3] != 16 || c0 != interp_nz_c0(src->dtype))
        return interp_fail(a->c, a->call->span, "tile.load: a blocked NZ tensor %s takes 5 offsets and a 2-D tile, got %d "
                           "offsets and %d shapes", buf, no, ns);
    if (off[0] != 0 || off[3] != 0 || off[4] != 0)
        return interp_fail(a->c, a->call->span,
                           "tile.load: the window of NZ tensor %s at blocked offsets (%lld, %lld, %lld, %lld, %lld) is "
                           "not whole fractals: its row must be a multiple of 16 and its column a multiple of %lld",
                           buf, (long long)off[0], (long long)off[1], (long long)off[2], (long long)off[3],
                           (long long)off[4], (long long)c0);
    int64_t vr = valid[0] < shape[0] ? valid[0] : shape[0], vc = valid[1] < shape[1] ? valid[1] : shape[1];
    if (vr < 0 || vc < 0 || vr % 16 || vc % c0 || off[1] < 0 || off[2] < 0 || off[1] + vc / c0 > nb || off[2] + vr / 16 > nr)
        return interp_fail(a->c, a->call->span,
                           "tile.load: a %lld x %lld window at fractal (%lld, %lld) is not whole 16 x %lld fractals "
                           "inside NZ tensor %s", (long long)vr, (long long)vc, (long long)off[2], (long long)off[1],
                           (long long)c0, buf);
    if (!check_shape(a, shape, 2)) return false;
    InterpArray *r = interp_array_new(result_dtype(a, src->dtype), 2, shape);
    r->valid[0] = vr;
    r->valid[1] = vc;
    for (int64_t i = 0; i < vr; i++)
        for (int64_t j = 0; j < vc; j++) {
            int64_t bj = off[1] + j / c0, bi = off[2] + i / 16;
            interp_store(r, i * shape[1] + j, interp_get(src, ((bj * nr + bi) * 16 + i % 16) * c0 + j % c0));
        }
    *out = interp_arr_value(r);
    return true;
}

static bool op_load(OpArgs *a, InterpValue *out) {
    InterpArray *src = NULL;
    int64_t off[INTERP_MAX_RANK], shape[INTERP_MAX_RANK], valid[INTERP_MAX_RANK];
    int no, ns, nv;
    if (!arg_array(a, 0, "the tensor", &src) || !arg_ints(a, 1, "the offsets", off, &no) ||
        !arg_ints(a, 2, "the shapes", shape, &ns) || !arg_ints(a, 3, "the valid shape", valid, &nv))
        return false;
    const Type *tt = a->call->call.args[0]->type;
    if (tt && tt->kind == TY_TENSOR && tt->layout == TLAYOUT_NZ && src->rank == 5) {
        if (nv != ns) return interp_fail(a->c, a->call->span, "tile.load: %d shapes, %d valid dims", ns, nv);
        return op_load_nz(a, src, off, no, shape, valid, ns, out);
    }
    if (no != src->rank || nv != ns)
        return interp_fail(a->c, a->call->span, "tile.load: %d offsets for a rank %d tensor, %d shapes, %d valid dims",
                           no, src->rank, ns, nv);
    if (!check_shape(a, shape, ns)) return false;
    InterpArray *r = interp_array_new(result_dtype(a, src->dtype), ns, shape);
    int64_t ext[INTERP_MAX_RANK], zero[INTERP_MAX_RANK] = {0};
    for (int d = 0; d < ns; d++) r->valid[d] = ext[d] = valid[d] < 0 ? 0 : valid[d] < shape[d] ? valid[d] : shape[d];
    if (!pad_rank(a, ext, ns, src->rank, 1)) { interp_array_release(r); return false; }
    bool inside = true;
    for (int d = 0; d < src->rank; d++) {
        if (off[d] < 0) { interp_array_release(r); return interp_fail(a->c, a->call->span, "tile.load: negative offset"); }
        if (ext[d] > src->shape[d] - off[d]) ext[d] = src->shape[d] - off[d];   /* zero-filled outside (no overflow) */
        inside &= ext[d] > 0;
    }
    if (inside) {
        InterpArray view = *r;   /* r seen with the tensor's rank (leading extents of 1) */
        view.rank = src->rank;
        memcpy(view.shape, r->shape, sizeof(int64_t) * (size_t)ns);
        pad_rank(a, view.shape, ns, src->rank, 1);
        window_copy(&view, zero, src, off, ext, src->rank, false);
    }
    *out = interp_arr_value(r);
    return true;
}

static bool op_store(OpArgs *a, InterpValue *out) {
    InterpArray *tile = NULL, *dst = NULL;
    int64_t off[INTERP_MAX_RANK], ext[INTERP_MAX_RANK];
    int no, ne = 0;
    if (!arg_array(a, 0, "the tile", &tile) || !arg_ints(a, 1, "the offsets", off, &no) ||
        !arg_array(a, 2, "the output tensor", &dst))
        return false;
    memcpy(ext, tile->valid, sizeof ext);
    ne = tile->rank;
    if (a->n > 3 && a->v[3].kind != IV_NONE) {
        int64_t sh[INTERP_MAX_RANK];
        int n;
        if (!arg_ints(a, 3, "the shapes", sh, &n)) return false;
        if (n != tile->rank) return interp_fail(a->c, a->call->span, "tile.store: %d shapes for a rank %d tile", n, tile->rank);
        for (int d = 0; d < n; d++) ext[d] = sh[d] < ext[d] ? sh[d] : ext[d];
    }
    if (!write_into(a, dst, tile, off, no, ext, ne, kw_atomic_add(a))) return false;
    *out = take(a, 2);
    return true;
}

static bool op_extract(OpArgs *a, InterpValue *out) {
    InterpArray *src = NULL;
    int64_t off[2], shape[INTERP_MAX_RANK];
    int ns;
    if (!arg_array(a, 0, "the source", &src) || !arg_int(a, 1, "the row index", &off[0]) ||
        !arg_int(a, 2, "the column index", &off[1]) || !arg_ints(a, 3, "the shape", shape, &ns))
        return false;
    if (src->rank != 2 || ns != 2)
        return interp_fail(a->c, a->call->span, "tile.extract: expected a 2-D source and a 2-D shape");
    if (!check_window(a, src, off, shape, 2, "the source")) return false;
    InterpArray *r = interp_array_new(result_dtype(a, src->dtype), 2, shape);
    int64_t zero[2] = {0, 0};
    window_copy(r, zero, src, off, shape, 2, false);
    for (int d = 0; d < 2; d++) {
        int64_t v = src->valid[d] - off[d];
        r->valid[d] = v < 0 ? 0 : v < shape[d] ? v : shape[d];
    }
    *out = interp_arr_value(r);
    return true;
}

static bool op_move(OpArgs *a, InterpValue *out) {
    InterpArray *src = NULL;
    if (!arg_array(a, 0, "the tile", &src)) return false;
    *out = interp_arr_value(interp_array_copy(src, result_dtype(a, src->dtype)));
    return true;
}

static bool op_set_validshape(OpArgs *a, InterpValue *out) {
    InterpArray *t = NULL;
    int64_t r, c;
    if (!arg_array(a, 0, "the tile", &t) || !arg_int(a, 1, "the valid rows", &r) || !arg_int(a, 2, "the valid columns", &c))
        return false;
    if (t->rank != 2 || r < 0 || c < 0 || r > t->shape[0] || c > t->shape[1])
        return interp_fail(a->c, a->call->span, "tile.set_validshape: valid shape [%lld, %lld] exceeds the tile",
                           (long long)r, (long long)c);
    t->valid[0] = r;
    t->valid[1] = c;
    *out = take(a, 0);
    return true;
}

/* ---------------------------------------------------------------- cube */
static bool check_mm(OpArgs *a, InterpMatmul *m, int64_t *M, int64_t *N) {
    int64_t K;
    if (interp_matmul_dims(m, M, N, &K)) return true;
    char b1[128], b2[128];
    return interp_fail(a->c, a->call->span, "%s: operands %s and %s do not form a 2-D matrix product%s", op_name(a),
                       interp_shape_str(m->a, b1, sizeof b1), interp_shape_str(m->b, b2, sizeof b2),
                       m->a_trans || m->b_trans ? " (after transposition)" : "");
}

static DType acc_dtype(DType operand) { return dtype_is_int(operand) ? DT_INT32 : DT_FP32; }

/* The product of a matmul call (tensor.matmul, tile.matmul, tile.matmul_bias): operands checked,
 * its [M, N] shape and result dtype. */
static bool mm_setup(OpArgs *a, InterpMatmul *m, DType *dt, int64_t *M, int64_t *N) {
    *m = (InterpMatmul){ .a_trans = kw_true(a, "a_trans"), .b_trans = kw_true(a, "b_trans") };
    InterpArray *x = NULL, *y = NULL, *bias = NULL;
    if (!arg_array(a, 0, "the left operand", &x) || !arg_array(a, 1, "the right operand", &y)) return false;
    if (a->call->call.op == OP_TILE_MATMUL_BIAS && !arg_array(a, 2, "the bias", &bias)) return false;
    m->a = x; m->b = y; m->bias = bias;
    if (!check_mm(a, m, M, N)) return false;
    if (bias && bias->numel != *N)
        return interp_fail(a->c, a->call->span, "tile.matmul_bias: the bias has %lld elements, expected [1, %lld]",
                           (long long)bias->numel, (long long)*N);
    if (a->call->call.op == OP_TENSOR_MATMUL) {
        const AttrVal *od = kwarg(a, "out_dtype");
        *dt = od && od->kind == AV_DTYPE && interp_dtype_supported(od->dtype) ? od->dtype : result_dtype(a, x->dtype);
    } else *dt = result_dtype(a, acc_dtype(x->dtype));
    int64_t shape[2] = { *M, *N };
    return check_shape(a, shape, 2);
}

/* tensor.matmul, tile.matmul, tile.matmul_bias: a fresh result array. */
static bool op_matmul(OpArgs *a, InterpValue *out) {
    InterpMatmul m;
    DType dt;
    int64_t M, N;
    if (!mm_setup(a, &m, &dt, &M, &N)) return false;
    int64_t shape[2] = { M, N };
    InterpArray *r = interp_array_new(dt, 2, shape);
    interp_matmul_run(&m, r);
    *out = interp_arr_value(r);
    return true;
}

/* assemble(dst, matmul(x, y), off) — c[:] = pl.matmul(a, b) — writes the product into dst a band of
 * rows at a time (at most FUSE_BYTES of product held), so a large product never exists whole beside
 * its target. Every element is the one op_matmul computes (the rows of a product are independent),
 * rounded into dst as op_assemble rounds it. When dst is an operand the whole product is formed
 * first, as unfused. */
#define FUSE_BYTES (INT64_C(4) << 20)

/* Whether the box [off, off + ext) of arr is whole rows, contiguous in memory: ones in every dim
 * before the last two, the whole last dim. */
static bool whole_rows(const InterpArray *arr, const int64_t *off, const int64_t *ext) {
    int r = arr->rank;
    if (r < 2 || off[r - 1] != 0 || ext[r - 1] != arr->shape[r - 1]) return false;
    for (int d = 0; d < r - 2; d++)
        if (ext[d] != 1) return false;
    return true;
}

/* Row-major element index of position pos in arr. */
static int64_t linear_index(const InterpArray *arr, const int64_t *pos) {
    int64_t i = 0;
    for (int d = 0; d < arr->rank; d++) i = i * arr->shape[d] + pos[d];
    return i;
}

static bool fused_assemble(OpArgs *a, OpArgs *b, InterpValue *out) {
    InterpMatmul m;
    DType dt;
    int64_t M, N, K, off[INTERP_MAX_RANK], ext[INTERP_MAX_RANK];
    InterpArray *dst = NULL;
    int n;
    if (!mm_setup(b, &m, &dt, &M, &N) || !arg_array(a, 0, "the target", &dst) || !arg_ints(a, 2, "the offset", off, &n))
        return false;
    int64_t box[2] = { M, N };
    if (!check_into(a, dst, off, n, box, 2, ext)) return false;
    interp_matmul_dims(&m, &M, &N, &K);
    bool alias = dst->data == m.a->data || dst->data == m.b->data || (m.bias && dst->data == m.bias->data);
    int64_t rows = alias ? M : FUSE_BYTES / (N * interp_elem_bytes(dt) + 1) / 4 * 4;
    rows = rows < 4 ? 4 : rows > M ? M : rows;
    /* A's rows are read in place when A is not transposed; the product goes straight into dst when
     * dst's box is whole rows of dst's own dtype (the rounding is then the one op_assemble does) */
    bool view_a = !m.a_trans && interp_store_packed(m.a->dtype);
    bool direct = !alias && !kw_atomic_add(a) && dst->dtype == dt && interp_store_packed(dt) && whole_rows(dst, off, ext);
    int64_t a_shape[2] = { rows, K }, t_shape[2] = { rows, N };
    InterpArray *band = view_a ? NULL : interp_array_new(m.a->dtype, 2, a_shape);
    InterpArray *t = direct ? NULL : interp_array_new(dt, 2, t_shape);
    size_t eb_a = (size_t)interp_elem_bytes(m.a->dtype), eb_t = (size_t)interp_elem_bytes(dt);
    InterpMatmul bm = m;
    bm.a_trans = false;
    bool ok = true;
    for (int64_t i0 = 0; i0 < M && ok; i0 += rows) {
        int64_t h = M - i0 < rows ? M - i0 : rows, o[INTERP_MAX_RANK], e[INTERP_MAX_RANK];
        int64_t hk[2] = { h, K }, hn[2] = { h, N };
        memcpy(o, off, sizeof o);
        memcpy(e, ext, sizeof e);
        o[dst->rank - 2] += i0;
        e[dst->rank - 2] = h;
        InterpArray *av = view_a ? interp_array_borrow(m.a->dtype, 2, hk, (char *)m.a->data + (size_t)(i0 * K) * eb_a) : NULL;
        if (av) bm.a = av;
        else {
            band->shape[0] = band->valid[0] = h;
            band->numel = h * K;
            for (int64_t r = 0; r < h; r++)   /* rows i0.. of op(A), same dtype: exact copies */
                for (int64_t k = 0; k < K; k++) interp_set(band, r * K + k, interp_get(m.a, k * M + i0 + r));
            bm.a = band;
        }
        InterpArray *res = direct ? interp_array_borrow(dt, 2, hn, (char *)dst->data + (size_t)linear_index(dst, o) * eb_t) : t;
        if (!direct) {
            t->shape[0] = t->valid[0] = h;
            t->numel = h * N;
        }
        interp_matmul_run(&bm, res);
        if (av) interp_array_release(av);
        if (direct) interp_array_release(res);
        else ok = copy_into(a, dst, t, o, e, kw_atomic_add(a));
    }
    if (band) interp_array_release(band);
    if (t) interp_array_release(t);
    if (ok) *out = take(a, 0);
    return ok;
}

/* The init predicate of matmul_acc: the 4th operand, else tensor.matmul_acc's init_cond kwarg. */
static bool mm_init(OpArgs *a, InterpFrame *f, bool *init) {
    *init = false;
    if (a->n > 3) {
        InterpValue v = a->v[3];
        if (v.kind != IV_BOOL && v.kind != IV_INT)
            return interp_fail(a->c, a->call->span, "%s: the init condition must be a boolean", op_name(a));
        *init = v.i != 0;
        return true;
    }
    const AttrVal *kv = kwarg(a, "init_cond");
    if (!kv) return true;
    if (kv->kind == AV_EXPR) return interp_eval_bool(a->c, f, kv->expr, init);
    *init = (kv->kind == AV_BOOL || kv->kind == AV_INT) && kv->i;
    return true;
}

/* tensor.matmul_acc, tile.matmul_acc: in place into the accumulator, which is returned. */
static bool op_matmul_acc(OpArgs *a, InterpFrame *f, InterpValue *out) {
    InterpMatmul m = { .a_trans = kw_true(a, "a_trans"), .b_trans = kw_true(a, "b_trans") };
    InterpArray *acc = NULL, *x = NULL, *y = NULL;
    bool init;
    if (!arg_array(a, 0, "the accumulator", &acc) || !arg_array(a, 1, "the left operand", &x) ||
        !arg_array(a, 2, "the right operand", &y) || !mm_init(a, f, &init))
        return false;
    m.a = x; m.b = y; m.accumulate = !init;
    int64_t M, N;
    if (!check_mm(a, &m, &M, &N)) return false;
    if (acc->rank != 2 || acc->shape[0] != M || acc->shape[1] != N) {
        char buf[128];
        return interp_fail(a->c, a->call->span, "%s: accumulator %s does not match the product shape [%lld, %lld]",
                           op_name(a), interp_shape_str(acc, buf, sizeof buf), (long long)M, (long long)N);
    }
    interp_matmul_run(&m, acc);
    *out = take(a, 0);
    return true;
}

/* ---------------------------------------------------------------- dispatch */
static bool dispatch(OpArgs *a, InterpFrame *f, InterpValue *out) {
    switch (a->call->call.op) {
    case OP_TENSOR_MATMUL: case OP_TILE_MATMUL: case OP_TILE_MATMUL_BIAS: return op_matmul(a, out);
    case OP_TENSOR_MATMUL_ACC: case OP_TILE_MATMUL_ACC: return op_matmul_acc(a, f, out);
    case OP_TENSOR_ASSEMBLE: case OP_TILE_ASSEMBLE: return op_assemble(a, out);
    case OP_TENSOR_SLICE: return op_slice(a, out);
    case OP_TENSOR_CREATE: case OP_TILE_CREATE: return op_create(a, out);
    case OP_TILE_LOAD: return op_load(a, out);
    case OP_TILE_STORE: return op_store(a, out);
    case OP_TILE_ALLOC: *out = (InterpValue){ .kind = IV_PTR }; return true;
    /* SPMD queries: the blocks run one after another (exec_scope), each a single AIV lane */
    case OP_TILE_GET_BLOCK_IDX: *out = (InterpValue){ .kind = IV_INT, .i = a->c->block_idx }; return true;
    case OP_TILE_GET_BLOCK_NUM: *out = (InterpValue){ .kind = IV_INT, .i = a->c->block_num }; return true;
    case OP_TILE_GET_SUBBLOCK_IDX: *out = (InterpValue){ .kind = IV_INT, .i = a->c->subblock_idx }; return true;
    case OP_TILE_EXTRACT: return op_extract(a, out);
    case OP_TILE_MOVE: return op_move(a, out);
    case OP_TILE_SET_VALIDSHAPE: return op_set_validshape(a, out);
    default:
        return interp_fail(a->c, a->call->span, "the interpreter does not support op '%s'", op_name(a));
    }
}

bool interp_eval_op(InterpCtx *c, InterpFrame *f, const Expr *call, InterpValue *out) {
    OpId op = call->call.op;
    if (op < 0 || op >= OP_COUNT) return interp_fail(c, call->span, "call of an unknown op");
    const OpInfo *info = ir_op_info(op);
    if (call->call.nargs < info->min_args || call->call.nargs > info->max_args || call->call.nargs > MAX_ARGS)
        return interp_fail(c, call->span, "%s takes %d to %d arguments, got %d", info->name, info->min_args,
                           info->max_args, call->call.nargs);
    if (info->flags & OPF_VEC) return interp_vec_op(c, f, call, out);   /* tile and tensor forms alike */
    if (info->flags & OPF_ACCESS) return interp_access_op(c, f, call, out);
    OpArgs a = { .c = c, .call = call, .n = call->call.nargs };
    const Expr *src = (op == OP_TENSOR_ASSEMBLE || op == OP_TILE_ASSEMBLE) && a.n >= 3 ? call->call.args[1] : NULL;
    bool fuse = src && src->kind == EX_CALL && (src->call.op == OP_TENSOR_MATMUL || src->call.op == OP_TILE_MATMUL ||
                                                src->call.op == OP_TILE_MATMUL_BIAS) &&
                src->call.nargs >= ir_op_info(src->call.op)->min_args && src->call.nargs <= ir_op_info(src->call.op)->max_args &&
                src->call.nargs <= MAX_ARGS;
    OpArgs b = { .c = c, .call = src, .n = fuse ? src->call.nargs : 0 };
    bool ok = true;
    /* arguments in source order: for a fused assemble, the matmul's operands in place of its result */
    for (int i = 0; i < a.n && ok; i++)
        if (fuse && i == 1)
            for (int k = 0; k < b.n && ok; k++) ok = interp_eval(c, f, src->call.args[k], &b.v[k]);
        else ok = interp_eval(c, f, call->call.args[i], &a.v[i]);
    if (ok) ok = fuse ? fused_assemble(&a, &b, out) : dispatch(&a, f, out);
    for (int i = 0; i < a.n; i++) interp_release(a.v[i]);
    for (int i = 0; i < b.n; i++) interp_release(b.v[i]);
    return ok;
}
