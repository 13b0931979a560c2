/* deduce_access — type deduction of scalar element access (spec/ops.md §4.9): tensor.read,
 * tensor.write, tile.read, tile.write.
 *
 * Requires: deduce_internal.h. Produces: read -> a scalar of the element dtype; write -> the target's
 * type (the element is replaced in place). Does: one integer index per dimension; a constant index
 * outside its (static) dimension is a located error naming the variable, its shape and the index; a
 * written value must be a scalar (it is converted to the element dtype as a cast would). */
#include "ir/deduce_internal.h"

static const char *op_name(const Expr *call) { return ir_op_info(call->call.op)->name; }

static bool check_indices(IrCtx *c, Expr *call, const Expr *x, const Expr *idx) {
    const Type *t = x->type;
    int n = idx->kind == EX_TUPLE ? idx->tuple.n : 1;
    if (n != t->rank)
        return ir_deduce_fail(c, call, "%s: %s has rank %d but %d indices were given (one per dimension)", op_name(call),
                              ir_deduce_describe(c, x), t->rank, n);
    for (int d = 0; d < n; d++) {
        const Expr *e = idx->kind == EX_TUPLE ? idx->tuple.items[d] : idx;
        int64_t v;
        if (!ir_is_const_int(e, &v) || !t->shape[d] || t->shape[d]->kind != EX_CONST_INT) continue;
        int64_t dim = t->shape[d]->ci.value;
        if (v < 0 || v >= dim)
            return ir_deduce_fail(c, call, "%s: index %lld of dimension %d is outside %s (valid: 0..%lld)", op_name(call),
                                  (long long)v, d, ir_deduce_describe(c, x), (long long)dim - 1);
    }
    return true;
}

bool ir_deduce_access(IrCtx *c, Expr *call) {
    Expr **a = call->call.args;
    bool tile = call->call.op == OP_TILE_READ || call->call.op == OP_TILE_WRITE;
    bool write = call->call.op == OP_TENSOR_WRITE || call->call.op == OP_TILE_WRITE;
    TypeKind want = tile ? TY_TILE : TY_TENSOR;
    if (!a[0]->type || a[0]->type->kind != want)
        return ir_deduce_fail(c, call, "%s: expected a %s, got %s", op_name(call), tile ? "tile" : "tensor",
                              ir_deduce_describe(c, a[0]));
    if (!dtype_is_supported(a[0]->type->dtype))
        return ir_deduce_fail(c, call, "%s: %s has an element type ptoc cannot access (supported: %s)", op_name(call),
                              ir_deduce_describe(c, a[0]), DTYPE_SUPPORTED_LIST);
    if (!check_indices(c, call, a[0], a[1])) return false;
    if (!write) {
        call->type = ir_scalar_type(c, a[0]->type->dtype);
        return true;
    }
    if (!a[2]->type || a[2]->type->kind != TY_SCALAR)
        return ir_deduce_fail(c, call, "%s: the value must be a scalar, got %s", op_name(call), ir_deduce_describe(c, a[2]));
    if (dtype_is_float(a[2]->type->dtype) && !dtype_is_float(a[0]->type->dtype))
        return ir_deduce_fail(c, call, "%s: writing a %s value into %s would truncate it; convert it with pl.cast(value, pl.%s)",
                              op_name(call), dtype_name(a[2]->type->dtype), ir_deduce_describe(c, a[0]),
                              dtype_name(a[0]->type->dtype));
    call->type = a[0]->type;
    if (tile) {                                  /* the same buffer: reuses_input 0 in ops.def */
        call->type = ir_type_copy(c, a[0]->type);
        call->type->memref = NULL;
    }
    return true;
}
