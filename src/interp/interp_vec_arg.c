/* interp_vec_arg — the interpreter's index reductions (spec/ops.md §4.6): row_argmax / row_argmin
 * ([R, 1]: the column of each row's extreme) and col_argmax / col_argmin ([1, C]: the row of each
 * column's extreme), INT32.
 *
 * Requires: interp_vec.h. Produces: interp_vec_arg.
 * Does: over exactly the valid cells, in order (left to right, top to bottom), the first cell is
 * the best so far and a later cell replaces it only when strictly greater (argmax) / smaller
 * (argmin): ties give the first occurrence, and since a NaN compares false both ways a NaN first
 * cell keeps index 0 and later NaNs are never chosen (pto-isa TReduceIdx). The tile forms' tmp
 * operand is scratch on the hardware and ignored here. An empty valid extent is an error. */
#include "interp/interp_vec.h"

#include <string.h>

static bool replaces(bool max, double v, double best) { return max ? v > best : v < best; }

static bool op_arg(VecArgs *a, bool row, bool max, InterpValue *out) {
    InterpArray *x, *res;
    char buf[128];
    if (!vec_arg_array(a, 0, "the operand", &x)) return false;
    if (x->rank != 2) return interp_fail(a->c, a->call->span, "%s: needs a 2-D tensor or tile", vec_name(a));
    int64_t R = x->shape[0], C = x->shape[1], vr = x->valid[0], vc = x->valid[1];
    if (vr <= 0 || vc <= 0)
        return interp_fail(a->c, a->call->span, "%s: the valid region of %s is empty", vec_name(a),
                           interp_shape_str(x, buf, sizeof buf));
    int64_t shape[2] = { row ? R : 1, row ? 1 : C };
    if (!vec_new_result(a, vec_result_dtype(a, DT_INT32), 2, shape, &res)) return false;
    res->valid[0] = row ? vr : 1;
    res->valid[1] = row ? 1 : vc;
    int64_t lines = row ? vr : vc, len = row ? vc : vr;
    for (int64_t l = 0; l < lines; l++) {
        /* cell j of line l: row l column j, or row j column l */
        int64_t p = row ? l * C : l, step = row ? 1 : C, best = 0;
        for (int64_t j = 1; j < len; j++)
            if (replaces(max, interp_get(x, p + j * step), interp_get(x, p + best * step))) best = j;
        interp_store(res, l, (double)best);     /* [R, 1] row l, or [1, C] column l: both index l */
    }
    *out = interp_arr_value(res);
    return true;
}

#define BOTH(x) case OP_TILE_##x: case OP_TENSOR_##x

bool interp_vec_arg(VecArgs *a, InterpValue *out) {
    switch (a->call->call.op) {
    BOTH(ROW_ARGMAX): return op_arg(a, true, true, out);
    BOTH(ROW_ARGMIN): return op_arg(a, true, false, out);
    BOTH(COL_ARGMAX): return op_arg(a, false, true, out);
    BOTH(COL_ARGMIN): return op_arg(a, false, false, out);
    default: return interp_fail(a->c, a->call->span, "the interpreter does not support vector op '%s'", vec_name(a));
    }
}
