/* interp_vec_move — the interpreter's transpose, transpose_view and concat (spec/ops.md §4.9).
 * Requires: interp_vec.h. Produces: interp_vec_move. Does: on logical arrays: a transpose (a copy or
 * a view alike) is [C, R] with element (c, r) = x(r, c) and the valid box swapped; concat(a, b) is
 * [R, Ca + Cb] with a's columns then b's. */
#include "interp/interp_vec.h"

static bool op_transpose(VecArgs *a, InterpValue *out) {
    InterpArray *x, *res;
    if (!vec_arg_array(a, 0, "the operand", &x)) return false;
    if (x->rank != 2) return interp_fail(a->c, a->call->span, "%s: expects a 2-D operand", vec_name(a));
    int64_t R = x->shape[0], C = x->shape[1], shape[2] = { C, R };
    if (!vec_new_result(a, x->dtype, 2, shape, &res)) return false;
    if (!res) return interp_fail(a->c, a->call->span, "%s: out of memory", vec_name(a));
    for (int64_t r = 0; r < R; r++)
        for (int64_t c = 0; c < C; c++) res->data[c * R + r] = x->data[r * C + c];
    res->valid[0] = x->valid[1];
    res->valid[1] = x->valid[0];
    *out = interp_arr_value(res);
    return true;
}

static bool op_concat(VecArgs *a, InterpValue *out) {
    InterpArray *x, *y, *res;
    if (!vec_arg_array(a, 0, "the first operand", &x) || !vec_arg_array(a, 1, "the second operand", &y)) return false;
    if (x->rank != 2 || y->rank != 2 || x->shape[0] != y->shape[0])
        return interp_fail(a->c, a->call->span, "%s: expects two 2-D operands with the same rows", vec_name(a));
    int64_t R = x->shape[0], Ca = x->shape[1], Cb = y->shape[1], shape[2] = { R, Ca + Cb };
    if (!vec_new_result(a, x->dtype, 2, shape, &res)) return false;
    if (!res) return interp_fail(a->c, a->call->span, "%s: out of memory", vec_name(a));
    for (int64_t r = 0; r < R; r++) {
        for (int64_t c = 0; c < Ca; c++) res->data[r * (Ca + Cb) + c] = x->data[r * Ca + c];
        for (int64_t c = 0; c < Cb; c++) res->data[r * (Ca + Cb) + Ca + c] = y->data[r * Cb + c];
    }
    *out = interp_arr_value(res);
    return true;
}

bool interp_vec_move(VecArgs *a, InterpValue *out) {
    switch (ir_vec_kind(a->call->call.op)) {
    case VK_TRANSPOSE: case VK_TRANSPOSE_VIEW: return op_transpose(a, out);
    case VK_CONCAT: return op_concat(a, out);
    default: return interp_fail(a->c, a->call->span, "internal: %s is not a transpose or concat", vec_name(a));
    }
}
