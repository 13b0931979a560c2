/* interp_vec_cmp — the interpreter's compare and select (spec/ops.md §4.8, decision 7).
 * Requires: interp_vec.h. Produces: interp_vec_cmp for tile/tensor cmp, cmps and sel.
 * Does: cmp / cmps give the packed predicate mask as a UINT8 array [R, W] (W from the call's type:
 * ceil(C / 8) rounded up to 32 bytes): bit c % 8 of byte c / 8 of row r is the predicate of column c,
 * for the valid columns; other bits are 0; the valid box is [vR, ceil(vC / 8)]. Comparisons follow
 * C on doubles (every comparison with a NaN is false except ne). sel(mask, a, b) reads bit (r, c)
 * of the mask row by row and takes a's element where it is set, b's where not (sels: the scalar,
 * converted to a's element type); the result has a's shape and valid box. */
#include "interp/interp_vec.h"

static bool holds(int mode, double x, double y) {
    switch (mode) {
    case 0: return x == y;
    case 1: return x != y;
    case 2: return x < y;
    case 3: return x <= y;
    case 4: return x > y;
    default: return x >= y;
    }
}

static bool op_cmp(VecArgs *a, bool scalar, InterpValue *out) {
    InterpArray *x, *y = NULL, *res;
    double s = 0;
    if (!vec_arg_array(a, 0, "the first operand", &x)) return false;
    if (scalar ? !vec_arg_scalar(a, 1, x->dtype, &s) : !vec_arg_array(a, 1, "the second operand", &y)) return false;
    int mode = ir_vec_cmp_type(a->call);
    if (mode < 0 || x->rank != 2 || (y && (y->rank != 2 || y->shape[0] != x->shape[0] || y->shape[1] != x->shape[1])))
        return interp_fail(a->c, a->call->span, "%s: expects two 2-D operands of one shape and cmp_type 0..5", vec_name(a));
    int64_t R = x->shape[0], C = x->shape[1], W = (C + 7) / 8;
    int64_t shape[2] = { R, (W + 31) / 32 * 32 };
    if (!vec_new_result(a, DT_UINT8, 2, shape, &res)) return false;
    if (!res) return interp_fail(a->c, a->call->span, "%s: out of memory", vec_name(a));
    int64_t vr = x->valid[0], vc = x->valid[1];
    for (int64_t r = 0; r < vr; r++)
        for (int64_t c = 0; c < vc; c++)
            if (holds(mode, interp_get(x, r * C + c), y ? interp_get(y, r * C + c) : s)) {
                int64_t i = r * shape[1] + c / 8;
                interp_set(res, i, interp_get(res, i) + (double)(1u << (c % 8)));
            }
    res->valid[0] = vr;
    res->valid[1] = (vc + 7) / 8;
    *out = interp_arr_value(res);
    return true;
}

static bool op_sel(VecArgs *a, bool scalar, InterpValue *out) {
    InterpArray *m, *x, *y, *res;
    double s = 0;
    if (!vec_arg_array(a, 0, "the mask", &m) || !vec_arg_array(a, 1, "the second operand", &x)) return false;
    if (scalar ? !vec_arg_scalar(a, a->n - 1, x->dtype, &s) : !vec_arg_array(a, 2, "the third operand", &y)) return false;
    if (scalar) y = x;                                   /* shapes only: the scalar replaces its elements */
    if (x->rank != 2 || y->rank != 2 || m->rank != 2 || x->shape[0] != y->shape[0] || x->shape[1] != y->shape[1] ||
        m->shape[0] < x->valid[0] || m->shape[1] * 8 < x->valid[1])
        return interp_fail(a->c, a->call->span, "%s: the operands do not match the mask", vec_name(a));
    int64_t C = x->shape[1], MW = m->shape[1];
    if (!vec_new_result(a, x->dtype, 2, x->shape, &res)) return false;
    if (!res) return interp_fail(a->c, a->call->span, "%s: out of memory", vec_name(a));
    for (int64_t r = 0; r < x->valid[0]; r++)
        for (int64_t c = 0; c < x->valid[1]; c++) {
            unsigned byte = (unsigned)interp_get(m, r * MW + c / 8);
            interp_store(res, r * C + c, ((byte >> (c % 8)) & 1u) ? interp_get(x, r * C + c) : scalar ? s : interp_get(y, r * C + c));
        }
    res->valid[0] = x->valid[0];
    res->valid[1] = x->valid[1];
    *out = interp_arr_value(res);
    return true;
}

bool interp_vec_cmp(VecArgs *a, InterpValue *out) {
    switch (ir_vec_kind(a->call->call.op)) {
    case VK_CMP: return op_cmp(a, false, out);
    case VK_CMPS: return op_cmp(a, true, out);
    case VK_SEL: return op_sel(a, false, out);
    case VK_SELS: return op_sel(a, true, out);
    default: return interp_fail(a->c, a->call->span, "internal: %s is not a compare or select", vec_name(a));
    }
}
