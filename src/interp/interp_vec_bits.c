/* interp_vec_bits — the interpreter's remainder, bitwise, leaky-relu, exp-difference and partial ops
 * (docs/vector.md; spec/ops.md §4.1–§4.3, §4.7): fmod fmods rem rems, and_ or_ xor ands ors xors,
 * shl shr shls shrs, not_, lrelu prelu, row/col_expand_expdif, part_add part_mul part_max part_min,
 * tile and tensor forms alike (a tile form's scratch operand is ignored).
 *
 * Requires: interp_vec.h; operands 2-D (type deduction checks shapes and dtypes). Produces:
 * interp_vec_bits. Does, per element of the result's valid region in the result dtype dt (values are
 * doubles holding the exact element value):
 *   fmod  float: fmod(x, y) rounded to dt (fmod is exact); integer: truncated remainder.
 *   rem   r = fmod; if (x >= 0) != (y >= 0) and r != 0: r = r + y rounded to dt (floor modulo).
 *   bit ops on the two's-complement bits of integers, wrapped to dt's width; shr of a signed type
 *         rounds toward -infinity (arithmetic), of an unsigned one is logical.
 *   lrelu / prelu  x > 0 ? x : x * y rounded to dt.   expdif  exp(x - v) with x - v rounded to dt
 *         first, exp in double, rounded once.
 *   part_*  the result's valid box is the union of the operands' (the larger extent per dim):
 *         both valid -> x op y, one valid -> its element, neither -> 0.
 * Run-time errors naming the op and the element: an integer fmod / rem by 0 ("integer division by
 * zero"), a shift count outside [0, bits of dt). Elements outside the valid region are 0. */
#include "interp/interp_vec.h"

#include <math.h>
#include <string.h>

typedef enum { BF_FMOD, BF_REM, BF_AND, BF_OR, BF_XOR, BF_SHL, BF_SHR, BF_PRELU, BF_EXPDIF, BF_NOT,
               BF_ADD, BF_MUL, BF_MAX, BF_MIN } BitFn;
typedef enum { BE_OK, BE_DIV_ZERO, BE_SHIFT } BitErr;

static BitErr float_elem(BitFn f, DType dt, double x, double y, double *out) {
    double r;
    switch (f) {
    case BF_FMOD: r = interp_round(dt, fmod(x, y)); break;
    case BF_REM:
        r = interp_round(dt, fmod(x, y));
        if ((x >= 0) != (y >= 0) && r != 0) r = interp_round(dt, r + y);
        break;
    case BF_PRELU: r = x > 0 ? x : interp_round(dt, x * y); break;
    case BF_EXPDIF: r = interp_round(dt, exp(interp_round(dt, x - y))); break;
    case BF_ADD: r = interp_round(dt, x + y); break;
    case BF_MUL: r = interp_round(dt, x * y); break;
    case BF_MAX: r = vec_max(x, y); break;
    case BF_MIN: r = vec_min(x, y); break;
    default: r = NAN; break;   /* bit ops: float operands are rejected by type deduction */
    }
    *out = r;
    return BE_OK;
}

/* floor(v / 2^k) for an integer v (arithmetic shift right, written without >> of a negative). */
static int64_t floor_shift(int64_t v, int k) { return v >= 0 ? v >> k : -1 - ((-1 - v) >> k); }

static BitErr int_elem(BitFn f, DType dt, double x, double y, double *out) {
    int64_t a = (int64_t)x, b = (int64_t)y;      /* exact: every vector integer type has <= 32 bits */
    uint64_t ua = (uint64_t)a, ub = (uint64_t)b, r;
    int bits = dtype_bits(dt);
    switch (f) {
    case BF_FMOD: case BF_REM: {
        if (b == 0) return BE_DIV_ZERO;
        int64_t q = a % b;
        if (f == BF_REM && (a >= 0) != (b >= 0) && q != 0) q += b;
        r = (uint64_t)q;
        break;
    }
    case BF_AND: r = ua & ub; break;
    case BF_OR: r = ua | ub; break;
    case BF_XOR: r = ua ^ ub; break;
    case BF_SHL: case BF_SHR:
        if (b < 0 || b >= bits) return BE_SHIFT;
        r = f == BF_SHL ? ua << b : (uint64_t)floor_shift(a, (int)b);
        break;
    case BF_NOT: r = ~ua; break;
    case BF_ADD: r = ua + ub; break;
    case BF_MUL: r = ua * ub; break;
    case BF_MAX: *out = vec_max(x, y); return BE_OK;
    case BF_MIN: *out = vec_min(x, y); return BE_OK;
    default: r = a > 0 ? ua : ua * ub; break;   /* prelu (float only after deduction) */
    }
    *out = vec_wrap(dt, r);
    return BE_OK;
}

static bool elem(VecArgs *a, BitFn f, DType dt, double x, double y, int64_t row, int64_t col, double *out) {
    BitErr e = dtype_is_float(dt) ? float_elem(f, dt, x, y, out) : int_elem(f, dt, x, y, out);
    if (e == BE_DIV_ZERO)
        return interp_fail(a->c, a->call->span, "%s: integer division by zero (row %lld, column %lld)", vec_name(a),
                           (long long)row, (long long)col);
    if (e == BE_SHIFT)
        return interp_fail(a->c, a->call->span, "%s: shift count %lld is outside [0, %d) for %s (row %lld, column %lld)",
                           vec_name(a), (long long)y, dtype_bits(dt), dtype_name(dt), (long long)row, (long long)col);
    return true;
}

/* A fresh result of x's shape; valid box given. */
static bool new_result(VecArgs *a, const InterpArray *x, DType dt, int64_t vr, int64_t vc, InterpArray **res) {
    if (x->rank != 2) {
        char b[128];
        return interp_fail(a->c, a->call->span, "%s: expects 2-D operands, got %s", vec_name(a), interp_shape_str(x, b, sizeof b));
    }
    if (!vec_new_result(a, dt, 2, x->shape, res)) return false;
    (*res)->valid[0] = vr;
    (*res)->valid[1] = vc;
    return true;
}

static bool finish(VecArgs *a, InterpArray *res, bool ok, InterpValue *out) {
    if (!ok) { interp_array_release(res); return false; }
    *out = interp_arr_value(res);
    return true;
}

static bool same_shape(VecArgs *a, const InterpArray *x, const InterpArray *y) {
    if (x->rank == 2 && y->rank == 2 && x->shape[0] == y->shape[0] && x->shape[1] == y->shape[1]) return true;
    char b1[128], b2[128];
    return interp_fail(a->c, a->call->span, "%s: operands %s and %s differ in shape", vec_name(a),
                       interp_shape_str(x, b1, sizeof b1), interp_shape_str(y, b2, sizeof b2));
}

/* (x, y[, tmp]) element by element over x's valid box; with_scalar: (x, s[, tmp]); unary: (x). */
static bool op_elementwise(VecArgs *a, BitFn f, int form, InterpValue *out) {
    enum { TWO_ARRAYS, WITH_SCALAR, UNARY };
    InterpArray *x, *y = NULL, *res;
    if (!vec_arg_array(a, 0, "the first operand", &x)) return false;
    DType dt = vec_result_dtype(a, x->dtype);
    double s = 0;
    if (form == TWO_ARRAYS && (!vec_arg_array(a, 1, "the second operand", &y) || !same_shape(a, x, y))) return false;
    if (form == WITH_SCALAR && !vec_arg_scalar(a, 1, dt, &s)) return false;
    if (!new_result(a, x, dt, x->valid[0], x->valid[1], &res)) return false;
    int64_t C = x->shape[1];
    bool ok = true;
    for (int64_t r = 0; ok && r < x->valid[0]; r++)
        for (int64_t c = 0; ok && c < x->valid[1]; c++) {
            double xv = vec_convert(dt, x->dtype, interp_get(x, r * C + c)), v;
            double yv = y ? vec_convert(dt, y->dtype, interp_get(y, r * C + c)) : s;
            if ((ok = elem(a, f, dt, xv, yv, r, c, &v))) interp_set(res, r * C + c, v);
        }
    return finish(a, res, ok, out);
}

/* row_expand_expdif (t, v[R, 1]): v[r, 0]; col_expand_expdif (t, v[1, C]): v[0, c]. */
static bool op_expdif(VecArgs *a, bool rows, InterpValue *out) {
    InterpArray *t, *v, *res;
    if (!vec_arg_array(a, 0, "the tile", &t) || !vec_arg_array(a, 1, "the vector", &v)) return false;
    bool fits = v->rank == 2 && t->rank == 2 && (rows ? v->shape[0] == t->shape[0] : v->shape[1] == t->shape[1]);
    if (!fits) {
        char b1[128], b2[128];
        return interp_fail(a->c, a->call->span, "%s: the vector %s does not match %s", vec_name(a), interp_shape_str(v, b1, sizeof b1),
                           interp_shape_str(t, b2, sizeof b2));
    }
    DType dt = vec_result_dtype(a, t->dtype);
    if (!new_result(a, t, dt, t->valid[0], t->valid[1], &res)) return false;
    int64_t C = t->shape[1], VC = v->shape[1];
    bool ok = true;
    for (int64_t r = 0; ok && r < t->valid[0]; r++)
        for (int64_t c = 0; ok && c < t->valid[1]; c++) {
            double vv = vec_convert(dt, v->dtype, interp_get(v, rows ? r * VC : c)), e;
            ok = elem(a, BF_EXPDIF, dt, vec_convert(dt, t->dtype, interp_get(t, r * C + c)), vv, r, c, &e);
            if (ok) interp_set(res, r * C + c, e);
        }
    return finish(a, res, ok, out);
}

static int64_t max64(int64_t a, int64_t b) { return a > b ? a : b; }

/* part_*(x, y): over the union of the valid boxes. */
static bool op_part(VecArgs *a, BitFn f, InterpValue *out) {
    InterpArray *x, *y, *res;
    if (!vec_arg_array(a, 0, "the first operand", &x) || !vec_arg_array(a, 1, "the second operand", &y) || !same_shape(a, x, y))
        return false;
    DType dt = vec_result_dtype(a, x->dtype);
    int64_t vr = max64(x->valid[0], y->valid[0]), vc = max64(x->valid[1], y->valid[1]), C = x->shape[1];
    if (!new_result(a, x, dt, vr, vc, &res)) return false;
    bool ok = true;
    for (int64_t r = 0; ok && r < vr; r++)
        for (int64_t c = 0; ok && c < vc; c++) {
            bool in_x = r < x->valid[0] && c < x->valid[1], in_y = r < y->valid[0] && c < y->valid[1];
            double xv = in_x ? vec_convert(dt, x->dtype, interp_get(x, r * C + c)) : 0;
            double yv = in_y ? vec_convert(dt, y->dtype, interp_get(y, r * C + c)) : 0, v = in_x ? xv : yv;   /* neither: 0 */
            if (in_x && in_y) ok = elem(a, f, dt, xv, yv, r, c, &v);
            if (ok) interp_set(res, r * C + c, v);
        }
    return finish(a, res, ok, out);
}

#define BOTH(x) case OP_TILE_##x: case OP_TENSOR_##x

bool interp_vec_bits(VecArgs *a, InterpValue *out) {
    switch (a->call->call.op) {
    BOTH(FMOD): return op_elementwise(a, BF_FMOD, 0, out);
    BOTH(REM): return op_elementwise(a, BF_REM, 0, out);
    BOTH(AND): return op_elementwise(a, BF_AND, 0, out);
    BOTH(OR): return op_elementwise(a, BF_OR, 0, out);
    BOTH(XOR): return op_elementwise(a, BF_XOR, 0, out);
    BOTH(SHL): return op_elementwise(a, BF_SHL, 0, out);
    BOTH(SHR): return op_elementwise(a, BF_SHR, 0, out);
    case OP_TILE_PRELU: return op_elementwise(a, BF_PRELU, 0, out);
    BOTH(FMODS): return op_elementwise(a, BF_FMOD, 1, out);
    BOTH(REMS): return op_elementwise(a, BF_REM, 1, out);
    BOTH(ANDS): return op_elementwise(a, BF_AND, 1, out);
    BOTH(ORS): return op_elementwise(a, BF_OR, 1, out);
    BOTH(XORS): return op_elementwise(a, BF_XOR, 1, out);
    BOTH(SHLS): return op_elementwise(a, BF_SHL, 1, out);
    BOTH(SHRS): return op_elementwise(a, BF_SHR, 1, out);
    BOTH(LRELU): return op_elementwise(a, BF_PRELU, 1, out);
    BOTH(NOT): return op_elementwise(a, BF_NOT, 2, out);
    BOTH(ROW_EXPAND_EXPDIF): return op_expdif(a, true, out);
    BOTH(COL_EXPAND_EXPDIF): return op_expdif(a, false, out);
    BOTH(PART_ADD): return op_part(a, BF_ADD, out);
    BOTH(PART_MUL): return op_part(a, BF_MUL, out);
    BOTH(PART_MAX): return op_part(a, BF_MAX, out);
    BOTH(PART_MIN): return op_part(a, BF_MIN, out);
    default: return interp_fail(a->c, a->call->span, "internal: %s is not a remainder / bit / partial op", vec_name(a));
    }
}
