/* interp_access — tensor.read / tensor.write / tile.read / tile.write (spec/ops.md §4.9) on logical
 * arrays: one element at a logical index (decision 12: layout-independent).
 *
 * Requires: interp_internal.h. Produces: interp_access_op. Does: a read gives an integer scalar for
 * integer and BOOL elements and a float scalar otherwise; a write converts the value to the element
 * dtype (interp_round: floats round to nearest even, integers wrap) in place and returns the array.
 * An index outside the array — or, for a tile, outside its valid region, whose contents the program
 * never defined — is a run-time error naming the op, the index and the shape. */
#include "interp/interp_internal.h"

static bool element_offset(InterpCtx *c, const Expr *call, const InterpArray *x, const InterpValue *idx, int64_t *off) {
    const char *op = ir_op_info(call->call.op)->name;
    bool tile = call->call.op == OP_TILE_READ || call->call.op == OP_TILE_WRITE;
    int n = idx->kind == IV_TUPLE ? idx->tup->n : 1;
    if (n != x->rank) return interp_fail(c, call->span, "%s: %d indices for a rank-%d array", op, n, x->rank);
    int64_t o = 0;
    for (int d = 0; d < n; d++) {
        const InterpValue *v = idx->kind == IV_TUPLE ? &idx->tup->items[d] : idx;
        if (v->kind != IV_INT && v->kind != IV_BOOL) return interp_fail(c, call->span, "%s: the indices must be integers", op);
        int64_t limit = tile ? x->valid[d] : x->shape[d];
        if (v->i < 0 || v->i >= limit) {
            char buf[128];
            return interp_fail(c, call->span, "%s: index %lld of dimension %d is outside %s%s (valid: 0..%lld)", op,
                               (long long)v->i, d, interp_shape_str(x, buf, sizeof buf),
                               tile ? "'s valid region" : "", (long long)limit - 1);
        }
        o = o * x->shape[d] + v->i;
    }
    *off = o;
    return true;
}

static bool access(InterpCtx *c, const Expr *call, InterpValue *a, InterpValue *out) {
    bool write = call->call.op == OP_TENSOR_WRITE || call->call.op == OP_TILE_WRITE;
    if (a[0].kind != IV_ARRAY)
        return interp_fail(c, call->span, "%s: expected a tensor or tile", ir_op_info(call->call.op)->name);
    InterpArray *x = a[0].arr;
    int64_t off = 0;
    if (!element_offset(c, call, x, &a[1], &off)) return false;
    if (!write) {
        double v = interp_get(x, off);
        *out = dtype_is_float(x->dtype) ? interp_float(v) : interp_int((int64_t)v);
        return true;
    }
    const InterpValue *v = &a[2];
    if (v->kind != IV_INT && v->kind != IV_BOOL && v->kind != IV_FLOAT)
        return interp_fail(c, call->span, "%s: the value must be a scalar", ir_op_info(call->call.op)->name);
    interp_store(x, off, v->kind == IV_FLOAT ? v->f : (double)v->i);
    *out = interp_retain(a[0]);
    return true;
}

bool interp_access_op(InterpCtx *c, InterpFrame *f, const Expr *call, InterpValue *out) {
    InterpValue a[3] = {0};
    int n = call->call.nargs;
    bool ok = true;
    for (int i = 0; i < n && ok; i++) ok = interp_eval(c, f, call->call.args[i], &a[i]);
    if (ok) ok = access(c, call, a, out);
    for (int i = 0; i < n; i++) interp_release(a[i]);
    return ok;
}
