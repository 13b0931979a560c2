/* deduce_vec: result types of the vector ops (spec/ops.md §4) and their classification.
 * Requires: call arguments typed. Produces: call->type, or a located user error naming the op, the
 * operands with their shapes and dtypes, and what is legal.
 * Does: the ISA has no broadcasting and no mixed dtypes, so binary operands must agree exactly; the
 * front end has already rewritten [M,1] / [1,N] operands into row/col expand ops and inserted the
 * casts of dtype promotion (decisions 1 and 3), so what reaches here unequal is a user error. A tile
 * result inherits its first tile operand's valid shape and layout, with a fresh memref. */
#include "ir/deduce_internal.h"

#include <string.h>

#define describe ir_deduce_describe
#define fail ir_deduce_fail

static bool name_is(const char *full, const char *short_name) {
    const char *dot = strchr(full, '.');
    return dot && strcmp(dot + 1, short_name) == 0;
}
static bool name_has_prefix(const char *full, const char *prefix) {
    const char *dot = strchr(full, '.');
    return dot && strncmp(dot + 1, prefix, strlen(prefix)) == 0;
}

VecKind ir_vec_kind(OpId op) {
    if (op < 0 || op >= OP_COUNT || !(ir_op_info(op)->flags & OPF_VEC)) return VK_NONE;
    const char *n = ir_op_info(op)->name;
    static const char *const binary[] = { "add", "sub", "mul", "div", "maximum", "minimum", "fmod", "rem", "and_", "or_",
                                          "xor", "shl", "shr", "prelu", "part_add", "part_mul", "part_max", "part_min", NULL };
    static const char *const scalar[] = { "adds", "subs", "muls", "divs", "maximums", "minimums", "fmods", "rems", "ands",
                                          "ors", "xors", "shls", "shrs", "lrelu", NULL };
    for (int i = 0; binary[i]; i++) if (name_is(n, binary[i])) return VK_BINARY;
    for (int i = 0; scalar[i]; i++) if (name_is(n, scalar[i])) return VK_SCALAR;
    if (name_is(n, "cast")) return VK_CAST;
    if (name_is(n, "full")) return VK_FULL;
    if (name_is(n, "expands")) return VK_EXPANDS;
    if (name_is(n, "fillpad") || name_is(n, "fillpad_inplace")) return VK_FILLPAD;
    if (name_is(n, "fillpad_expand")) return VK_FILLPAD_EXPAND;
    if (name_is(n, "slice")) return VK_SLICE;
    if (name_is(n, "sin") || name_is(n, "cos")) return VK_COMPOSITE;
    if (name_has_prefix(n, "row_arg")) return VK_ROW_ARG;
    if (name_has_prefix(n, "col_arg")) return VK_COL_ARG;
    if (name_is(n, "reshape")) return VK_RESHAPE;
    if (name_is(n, "cmp")) return VK_CMP;
    if (name_is(n, "cmps")) return VK_CMPS;
    if (name_is(n, "sel")) return VK_SEL;
    if (name_is(n, "sels")) return VK_SELS;
    if (name_is(n, "transpose")) return VK_TRANSPOSE;
    if (name_is(n, "transpose_view")) return VK_TRANSPOSE_VIEW;
    if (name_is(n, "concat")) return VK_CONCAT;
    if (name_has_prefix(n, "row_expand")) return VK_ROW_EXPAND;
    if (name_has_prefix(n, "col_expand")) return VK_COL_EXPAND;
    if (name_has_prefix(n, "row_")) return VK_ROW_REDUCE;
    if (name_has_prefix(n, "col_")) return VK_COL_REDUCE;
    return VK_UNARY;
}

OpId ir_vec_tile_op(OpId tensor_op) {
    const char *n = ir_op_info(tensor_op)->name;
    char buf[64];
    snprintf(buf, sizeof buf, "tile.%s", strchr(n, '.') + 1);
    return ir_op_lookup(buf);
}

const char *ir_vec_short_name(OpId op) { return strchr(ir_op_info(op)->name, '.') + 1; }

/* ---- operand checks ---- */
static TypeKind form_kind(const Expr *call) { return (ir_op_info(call->call.op)->flags & OPF_TENSOR) ? TY_TENSOR : TY_TILE; }
static const char *form_name(const Expr *call) { return form_kind(call) == TY_TENSOR ? "tensor" : "tile"; }
static const char *op_name(const Expr *call) { return ir_op_info(call->call.op)->name; }

/* A 2-D static operand of the op's form (tile or tensor) with a supported element type. */
static bool operand_ok(IrCtx *c, const Expr *call, const Expr *x, const char *role) {
    TypeKind k = form_kind(call);
    if (!x->type || x->type->kind != k)
        return fail(c, call, "%s: the %s must be a %s, got %s", op_name(call), role, form_name(call), describe(c, x));
    if (x->type->rank != 2)
        return fail(c, call, "%s: the %s %s is rank %d; vector ops take 2-D %ss (reshape it to 2-D first)", op_name(call),
                    role, describe(c, x), x->type->rank, form_name(call));
    if (!ir_type_static_dims(x->type, NULL))
        return fail(c, call, "%s: the %s %s must have a static shape", op_name(call), role, describe(c, x));
    if (!dtype_is_supported(x->type->dtype) || x->type->dtype == DT_BOOL || x->type->dtype == DT_INDEX)
        return fail(c, call, "%s: the vector unit does not compute on %s elements (%s); element types: FP16, BF16, FP32, "
                    "INT8, INT16, INT32, INT64, UINT8, UINT16, UINT32, UINT64", op_name(call), dtype_name(x->type->dtype), describe(c, x));
    if (k == TY_TILE && x->type->space != MS_VEC && x->type->space != MS_NONE)
        return fail(c, call, "%s: the %s %s is in %s; vector ops read and write Vec tiles (load with target_memory=pl.Mem.Vec)",
                    op_name(call), role, describe(c, x), memspace_name(x->type->space));
    return true;
}

static bool same_dtype(IrCtx *c, const Expr *call, const Expr *a, const Expr *b) {
    if (a->type->dtype == b->type->dtype) return true;
    return fail(c, call, "%s: operand dtypes differ: %s and %s (the vector unit computes on one dtype; cast one operand with pl.cast)",
                op_name(call), describe(c, a), describe(c, b));
}

static bool float_only(IrCtx *c, const Expr *call, const Expr *x, bool fp16_fp32_only) {
    DType d = x->type->dtype;
    bool ok = fp16_fp32_only ? (d == DT_FP16 || d == DT_FP32) : dtype_is_float(d);
    if (ok) return true;
    return fail(c, call, "%s: %s is not supported for %s elements (%s); supported: %s", op_name(call), ir_vec_short_name(call->call.op),
                dtype_name(d), describe(c, x), fp16_fp32_only ? "FP16, FP32" : "FP16, BF16, FP32");
}

/* The result: a fresh copy of x's type (tile: same space and view, no memref). */
static Type *result_like(IrCtx *c, const Expr *x, DType dt) {
    Type *t = ir_type_copy(c, x->type);
    t->memref = NULL;
    t->dtype = dt;
    if (t->kind == TY_TILE && t->space == MS_NONE) t->space = MS_VEC;
    if (t->kind == TY_TILE && t->view && (t->view->nstride || t->view->start_offset)) {   /* a fresh tile: contiguous */
        TileView v = *t->view;
        v.stride = NULL;
        v.nstride = 0;
        v.start_offset = NULL;
        ir_deduce_set_view(c, t, v);
    }
    return t;
}

/* A tile.slice view (its bytes lie inside another tile at the parent's row pitch). */
static bool is_strided_view(const Type *t) { return t->kind == TY_TILE && t->view && (t->view->nstride || t->view->start_offset); }

/* Valid extent of a 2-D tile in dim d as an expression. */
static Expr *valid_dim(const Type *t, int d) {
    if (t->kind != TY_TILE) return t->shape[d];
    TileView v = ir_effective_view(t);
    return v.nvalid == 2 ? v.valid_shape[d] : t->shape[d];
}

static bool same_const(const Expr *a, const Expr *b) {
    int64_t x, y;
    if (a == b) return true;
    return ir_is_const_int(a, &x) && ir_is_const_int(b, &y) && x == y;
}

static bool same_shape(IrCtx *c, const Expr *call, const Expr *a, const Expr *b) {
    for (int d = 0; d < 2; d++)
        if (!same_const(a->type->shape[d], b->type->shape[d]) || !same_const(valid_dim(a->type, d), valid_dim(b->type, d)))
            return fail(c, call, "%s: operand shapes differ: %s and %s; the vector unit combines equal shapes (a [M, 1] or "
                        "[1, N] operand broadcasts through pl.row_expand_* / pl.col_expand_*)", op_name(call), describe(c, a), describe(c, b));
    return true;
}

static bool scalar_operand(IrCtx *c, const Expr *call, const Expr *s) {
    if (s->type && s->type->kind == TY_SCALAR && s->type->dtype != DT_TASK_ID) return true;
    return fail(c, call, "%s: the second operand must be a scalar (a number or pl.Scalar), got %s", op_name(call), describe(c, s));
}

/* ---- remainder, bitwise, leaky relu, partial and exp-difference ops (docs/vector.md) ---- */
enum { DC_FLOAT = 1, DC_SIGNED = 2, DC_UNSIGNED = 4, DC_I16_U16 = 8, DC_PART = 16 };

/* The element types an op of this family computes on (its ISA's list), or 0: not of the family. */
static unsigned bits_dtypes(const char *n, const char **supported) {
    static const struct { const char *ops; unsigned mask; const char *text; } rules[] = {
        { " fmod fmods rem rems ", DC_FLOAT | DC_SIGNED | DC_UNSIGNED, "FP16, BF16, FP32, INT8, INT16, INT32, UINT8, UINT16, UINT32" },
        { " and_ or_ xor ands ors xors shl shr shls shrs ", DC_SIGNED | DC_UNSIGNED, "INT8, INT16, INT32, UINT8, UINT16, UINT32" },
        { " not_ ", DC_I16_U16, "INT16, UINT16" },
        { " lrelu prelu row_expand_expdif col_expand_expdif ", DC_FLOAT, "FP16, BF16, FP32" },
        { " part_add part_mul part_max part_min ", DC_PART, "FP16, BF16, FP32, INT8, INT16, INT32, UINT8" },
    };
    char key[40];
    snprintf(key, sizeof key, " %s ", n);
    for (size_t i = 0; i < sizeof rules / sizeof rules[0]; i++)
        if (strstr(rules[i].ops, key)) { *supported = rules[i].text; return rules[i].mask; }
    return 0;
}

static bool dtype_in(DType d, unsigned mask) {
    bool is_int = d == DT_INT8 || d == DT_INT16 || d == DT_INT32 || d == DT_UINT8 || d == DT_UINT16 || d == DT_UINT32;
    if ((mask & DC_FLOAT) && dtype_is_float(d)) return true;
    if ((mask & DC_SIGNED) && is_int && dtype_is_signed(d)) return true;
    if ((mask & DC_UNSIGNED) && is_int && !dtype_is_signed(d)) return true;
    if ((mask & DC_I16_U16) && (d == DT_INT16 || d == DT_UINT16)) return true;
    return (mask & DC_PART) && (dtype_is_float(d) || d == DT_INT8 || d == DT_INT16 || d == DT_INT32 || d == DT_UINT8);
}

/* x's dtype is one the op computes on (ops outside this family: no restriction here). */
static bool bits_dtype_ok(IrCtx *c, const Expr *call, const Expr *x) {
    const char *supported = NULL;
    unsigned mask = bits_dtypes(ir_vec_short_name(call->call.op), &supported);
    if (!mask || dtype_in(x->type->dtype, mask)) return true;
    return fail(c, call, "%s: %s is not supported for %s elements (%s); supported: %s", op_name(call),
                ir_vec_short_name(call->call.op), dtype_name(x->type->dtype), describe(c, x), supported);
}

/* The scratch tile (last operand) of xor / xors / rem / rems: x's dtype, at least x's shape; of
 * prelu: UINT8 with at least R + 1 rows and ceil(C / 8) columns (spec/ops.md §2.6, a2a3). */
static bool scratch_ok(IrCtx *c, const Expr *call, const Expr *x) {
    const Expr *tmp = call->call.args[call->call.nargs - 1];
    if (!operand_ok(c, call, tmp, "scratch tile")) return false;
    int64_t r = ir_type_dim(x->type, 0), cols = ir_type_dim(x->type, 1);
    if (strcmp(ir_vec_short_name(call->call.op), "prelu") == 0) {
        if (tmp->type->dtype == DT_UINT8 && ir_type_dim(tmp->type, 0) >= r + 1 && ir_type_dim(tmp->type, 1) >= (cols + 7) / 8)
            return true;
        return fail(c, call, "%s: the scratch tile %s must be UINT8 with at least %lld rows and %lld columns for %s",
                    op_name(call), describe(c, tmp), (long long)(r + 1), (long long)((cols + 7) / 8), describe(c, x));
    }
    if (!same_dtype(c, call, x, tmp)) return false;
    if (ir_type_dim(tmp->type, 0) >= r && ir_type_dim(tmp->type, 1) >= cols) return true;
    return fail(c, call, "%s: the scratch tile %s is smaller than the input %s", op_name(call), describe(c, tmp), describe(c, x));
}

/* The scalar of ands / ors / xors / shls / shrs is an integer; a constant shift count lies in
 * [0, bits of the element type) (wider or negative counts are undefined upstream). */
static bool bits_scalar_ok(IrCtx *c, const Expr *call, const Expr *t, const Expr *s) {
    const char *n = ir_vec_short_name(call->call.op);
    bool shift = strcmp(n, "shls") == 0 || strcmp(n, "shrs") == 0;
    bool bitwise = shift || strcmp(n, "ands") == 0 || strcmp(n, "ors") == 0 || strcmp(n, "xors") == 0;
    if (!bitwise) return true;
    if (dtype_is_float(s->type->dtype))
        return fail(c, call, "%s: the scalar operand must be an integer, got a %s scalar", op_name(call), dtype_name(s->type->dtype));
    int64_t v;
    int bits = dtype_bits(t->type->dtype);
    if (shift && ir_is_const_int(s, &v) && (v < 0 || v >= bits))
        return fail(c, call, "%s: the shift count %lld is outside [0, %d) for the %s elements of %s", op_name(call),
                    (long long)v, bits, dtype_name(t->type->dtype), describe(c, t));
    return true;
}

/* part_*(a, b): one dtype and physical shape; the result's valid box is the union (the larger
 * extent per dim) — where only one operand is valid it is copied, where neither is, 0. */
static bool deduce_part(IrCtx *c, Expr *call) {
    Expr *a = call->call.args[0], *b = call->call.args[1];
    if (!same_dtype(c, call, a, b) || !bits_dtype_ok(c, call, a)) return false;
    for (int d = 0; d < 2; d++)
        if (!same_const(a->type->shape[d], b->type->shape[d]))
            return fail(c, call, "%s: operand shapes differ: %s and %s (partial ops combine tiles of one shape whose valid "
                        "regions may differ)", op_name(call), describe(c, a), describe(c, b));
    call->type = result_like(c, a, a->type->dtype);
    if (call->type->kind != TY_TILE) return true;
    TileView v = ir_effective_view(a->type);
    Expr **valid = ARENA_ARRAY(c->arena, Expr *, 2);
    bool full = true;
    for (int d = 0; d < 2; d++) {
        Expr *va = valid_dim(a->type, d), *vb = valid_dim(b->type, d);
        int64_t x, y;
        if (same_const(va, vb)) valid[d] = va;
        else if (ir_is_const_int(va, &x) && ir_is_const_int(vb, &y)) valid[d] = x >= y ? va : vb;
        else
            return fail(c, call, "%s: the valid shapes of %s and %s differ by run-time extents; partial ops need constant "
                        "or equal valid extents", op_name(call), describe(c, a), describe(c, b));
        full &= same_const(valid[d], a->type->shape[d]);
    }
    v.nvalid = full ? 0 : 2;
    v.valid_shape = full ? NULL : valid;
    ir_deduce_set_view(c, call->type, v);
    return true;
}

/* ---- per kind ---- */
static bool deduce_unary(IrCtx *c, Expr *call) {
    Expr *x = call->call.args[0];
    if (!operand_ok(c, call, x, "operand")) return false;
    const char *n = ir_vec_short_name(call->call.op);
    if (strcmp(n, "log") == 0 && !float_only(c, call, x, true)) return false;
    if ((strcmp(n, "exp") == 0 || strcmp(n, "sqrt") == 0 || strcmp(n, "rsqrt") == 0 || strcmp(n, "recip") == 0) &&
        !float_only(c, call, x, false))
        return false;
    if (call->call.nargs == 2 && (!operand_ok(c, call, call->call.args[1], "scratch tile") || !same_dtype(c, call, x, call->call.args[1])))
        return false;
    if (!bits_dtype_ok(c, call, x)) return false;
    call->type = result_like(c, x, x->type->dtype);
    return true;
}

static bool deduce_cast(IrCtx *c, Expr *call) {
    Expr *x = call->call.args[0], *d = call->call.args[1];
    /* An Acc source (a matmul result) is accepted: AutoTileMatmulL0 folds an FP32 -> BF16/FP16 rint
     * cast feeding matmuls onto the FIXPIPE (Acc -> Mat tile.assemble) and rejects any other. */
    Expr xv = *x;
    Type tv;
    if (x->type && x->type->kind == TY_TILE && x->type->space == MS_ACC && call->call.op == OP_TILE_CAST) {
        tv = *x->type;
        tv.space = MS_VEC;
        xv.type = &tv;
    }
    if (!operand_ok(c, call, &xv, "operand")) return false;
    if (d->kind != EX_ENUM || d->enm.kind != AV_DTYPE)
        return fail(c, call, "%s: the target type must be a dtype such as pl.FP16", op_name(call));
    DType to = d->enm.dtype;
    if (!dtype_is_supported(to) || to == DT_BOOL || to == DT_INDEX)
        return fail(c, call, "%s: cannot cast to %s; element types: FP16, BF16, FP32, INT8, INT16, INT32, INT64, UINT8, UINT16, "
                    "UINT32, UINT64", op_name(call), dtype_name(to));
    if (to == x->type->dtype)
        return fail(c, call, "%s: %s is already %s (a cast must change the dtype)", op_name(call), describe(c, x), dtype_name(to));
    const AttrVal *m = ir_attr_get(&call->call.kwargs, "mode");
    if (m && !(m->kind == AV_STR && ir_vec_round_mode(m->s) >= 0) && !(m->kind == AV_INT && m->i >= 0 && m->i <= DT_ROUND_ODD))
        return fail(c, call, "%s: mode must be one of \"none\", \"rint\", \"round\", \"floor\", \"ceil\", \"trunc\", \"odd\"", op_name(call));
    call->type = result_like(c, x, to);
    return true;
}

static bool deduce_full(IrCtx *c, Expr *call) {
    Expr **a = call->call.args;
    int64_t d[8];
    int n;
    if (!ir_deduce_static_tuple(a[0], d, &n) || n != 2)
        return fail(c, call, "%s: the shape must be a 2-D list of constants such as [16, 64]", op_name(call));
    for (int i = 0; i < 2; i++)
        if (d[i] <= 0) return fail(c, call, "%s: dimension %lld of the shape is not positive", op_name(call), (long long)d[i]);
    if (a[1]->kind != EX_ENUM || a[1]->enm.kind != AV_DTYPE)
        return fail(c, call, "%s: the second argument must be a dtype such as pl.FP32", op_name(call));
    DType dt = a[1]->enm.dtype;
    if (!ir_deduce_shape_ok(c, call, d, 2, dt) || !scalar_operand(c, call, a[2])) return false;
    call->type = form_kind(call) == TY_TENSOR ? ir_tensor_type(c, dt, 2, d) : ir_tile_type(c, dt, 2, d, MS_VEC);
    return true;
}

static bool deduce_fillpad(IrCtx *c, Expr *call) {
    Expr *x = call->call.args[0];
    if (!operand_ok(c, call, x, "operand")) return false;
    const AttrVal *pv = ir_attr_get(&call->call.kwargs, "pad_value");
    int pad = ir_vec_pad_value(pv);
    if (pad < 0) return fail(c, call, "%s: pad_value must be pl.PadValue.zero, pl.PadValue.max or pl.PadValue.min", op_name(call));
    if (call->call.op == OP_TILE_FILLPAD_INPLACE && is_strided_view(x->type))
        return fail(c, call, "%s: %s is a tile.slice view; padding it in place would write the parent tile's other columns "
                    "(use pl.fillpad, which writes a new tile)", op_name(call), describe(c, x));
    call->type = result_like(c, x, x->type->dtype);
    if (call->type->kind == TY_TILE) {
        TileView v = ir_effective_view(call->type);
        v.nvalid = 0;
        v.valid_shape = NULL;
        v.pad = pad;
        ir_deduce_set_view(c, call->type, v);
    }
    return true;
}

static bool reduce_result(IrCtx *c, Expr *call, const Expr *x, bool row, DType dt);

/* Row reductions give [R, 1] (col_major: DN), column reductions [1, C]; the reduced axis' valid
 * extent becomes 1. */
static bool deduce_reduce(IrCtx *c, Expr *call, bool row) {
    Expr *x = call->call.args[0];
    if (!operand_ok(c, call, x, "operand")) return false;
    if (call->call.nargs == 2) {
        Expr *tmp = call->call.args[1];
        if (!operand_ok(c, call, tmp, "scratch tile") || !same_dtype(c, call, x, tmp)) return false;
        if (ir_type_dim(tmp->type, 0) < ir_type_dim(x->type, 0) || ir_type_dim(tmp->type, 1) < ir_type_dim(x->type, 1))
            return fail(c, call, "%s: the scratch tile %s is smaller than the input %s", op_name(call), describe(c, tmp), describe(c, x));
    } else if (form_kind(call) == TY_TILE && row)
        return fail(c, call, "%s: the tile form takes a scratch tile: pl.tile.%s(x, tmp) with tmp the shape of x", op_name(call),
                    ir_vec_short_name(call->call.op));
    return reduce_result(c, call, x, row, x->type->dtype);
}

/* The [R, 1] / [1, C] result of a reduction of x, of dtype dt. */
static bool reduce_result(IrCtx *c, Expr *call, const Expr *x, bool row, DType dt) {
    int64_t d[2] = { row ? ir_type_dim(x->type, 0) : 1, row ? 1 : ir_type_dim(x->type, 1) };
    if (form_kind(call) == TY_TENSOR) {
        call->type = ir_tensor_type(c, dt, 2, d);
        return true;
    }
    call->type = ir_tile_type(c, dt, 2, d, MS_VEC);
    TileView v = ir_implicit_view(call->type);
    Expr *keep = valid_dim(x->type, row ? 0 : 1);
    if (!same_const(keep, x->type->shape[row ? 0 : 1])) {
        v.nvalid = 2;
        v.valid_shape = ARENA_ARRAY(c->arena, Expr *, 2);
        v.valid_shape[row ? 0 : 1] = keep;
        v.valid_shape[row ? 1 : 0] = ir_const_int(c, 1, DT_INDEX);
    }
    ir_deduce_set_view(c, call->type, v);
    return true;
}

/* t [M, N] with a per-row vector [M, 1] or a per-column vector [1, N]; plain row_expand /
 * col_expand take the target only for its shape. */
static bool deduce_expand(IrCtx *c, Expr *call, bool row) {
    Expr *t = call->call.args[0], *v = call->call.args[1];
    if (!operand_ok(c, call, t, "matrix operand") || !operand_ok(c, call, v, row ? "row vector" : "column vector")) return false;
    int keep = row ? 0 : 1, one = row ? 1 : 0;
    int64_t vk = ir_type_dim(v->type, keep), tk = ir_type_dim(t->type, keep), v1 = ir_type_dim(v->type, one);
    if (v1 != 1 || vk != tk)
        return fail(c, call, "%s: the %s vector %s must be [%lld, %lld] for the matrix %s", op_name(call), row ? "row" : "column",
                    describe(c, v), (long long)(row ? tk : 1), (long long)(row ? 1 : tk), describe(c, t));
    if (!same_dtype(c, call, t, v)) return false;
    if (strcmp(ir_vec_short_name(call->call.op), row ? "row_expand_div" : "col_expand_div") == 0 &&
        !(dtype_is_float(t->type->dtype) || t->type->dtype == DT_INT16 || t->type->dtype == DT_INT32))
        return fail(c, call, "%s: division of %s elements is not supported (%s); supported: FP16, BF16, FP32, INT16, INT32",
                    op_name(call), dtype_name(t->type->dtype), describe(c, t));
    if (!bits_dtype_ok(c, call, t)) return false;
    call->type = result_like(c, t, t->type->dtype);
    return true;
}

static bool deduce_binary(IrCtx *c, Expr *call) {
    Expr *a = call->call.args[0], *b = call->call.args[1];
    if (!operand_ok(c, call, a, "first operand") || !operand_ok(c, call, b, "second operand")) return false;
    if (strncmp(ir_vec_short_name(call->call.op), "part_", 5) == 0) return deduce_part(c, call);
    if (!same_dtype(c, call, a, b) || !same_shape(c, call, a, b)) return false;
    if (!bits_dtype_ok(c, call, a) || (call->call.nargs == 3 && !scratch_ok(c, call, a))) return false;
    if (strcmp(ir_vec_short_name(call->call.op), "div") == 0 &&
        !(dtype_is_float(a->type->dtype) || a->type->dtype == DT_INT16 || a->type->dtype == DT_INT32))
        return fail(c, call, "%s: division of %s elements is not supported (%s); supported: FP16, BF16, FP32, INT16, INT32",
                    op_name(call), dtype_name(a->type->dtype), describe(c, a));
    call->type = result_like(c, a, a->type->dtype);
    return true;
}

static bool deduce_scalar(IrCtx *c, Expr *call) {
    Expr *t = call->call.args[0], *s = call->call.args[1];
    if (!operand_ok(c, call, t, "first operand") || !scalar_operand(c, call, s)) return false;
    if (!bits_dtype_ok(c, call, t) || !bits_scalar_ok(c, call, t, s) || (call->call.nargs == 3 && !scratch_ok(c, call, t)))
        return false;
    call->type = result_like(c, t, t->type->dtype);
    return true;
}

/* A reshape reinterprets the row-major elements: the counts must agree, and a tile must have no
 * row padding before or after (its rows a multiple of 32 bytes) and no partial valid region, so
 * the result is the same bytes (a view, no instruction). */
static bool deduce_reshape(IrCtx *c, Expr *call) {
    Expr *x = call->call.args[0];
    int64_t d[8], xd[2];
    int n;
    if (!operand_ok(c, call, x, "operand")) return false;
    if (is_strided_view(x->type))
        return fail(c, call, "%s: %s is a tile.slice view (rows apart by the parent's pitch), not one run of bytes",
                    op_name(call), describe(c, x));
    if (!ir_deduce_static_tuple(call->call.args[1], d, &n) || n != 2 || d[0] <= 0 || d[1] <= 0)
        return fail(c, call, "%s: the new shape must be a 2-D list of positive constants such as [32, 64]", op_name(call));
    ir_type_static_dims(x->type, xd);
    if (d[0] * d[1] != xd[0] * xd[1])   /* both sides are byte-checked shapes: no overflow */
        return fail(c, call, "%s: %s has %lld elements, the shape [%lld, %lld] %lld", op_name(call), describe(c, x),
                    (long long)(xd[0] * xd[1]), (long long)d[0], (long long)d[1], (long long)(d[0] * d[1]));
    if (form_kind(call) == TY_TENSOR) {
        call->type = ir_tensor_type(c, x->type->dtype, 2, d);
        return true;
    }
    int eb = dtype_bytes(x->type->dtype);
    TileView v = ir_effective_view(x->type);
    bool full = !v.nvalid || (same_const(v.valid_shape[0], x->type->shape[0]) && same_const(v.valid_shape[1], x->type->shape[1]));
    if ((xd[1] * eb) % 32 || (d[1] * eb) % 32 || v.blayout != TL_ROW_MAJOR || !full)
        return fail(c, call, "%s: reshaping %s to [%lld, %lld] is not a view of the same bytes: both row widths must be "
                    "multiples of 32 bytes, the tile row-major and wholly valid", op_name(call), describe(c, x),
                    (long long)d[0], (long long)d[1]);
    call->type = ir_tile_type(c, x->type->dtype, 2, d, x->type->space == MS_NONE ? MS_VEC : x->type->space);
    return true;
}

/* The packed predicate mask of a compare over [R, C] with valid [vR, vC]: UINT8 [R, roundup(ceil(C / 8),
 * 32)] (rows of 32-byte blocks), valid [vR, ceil(vC / 8)] (spec/ops.md §4.8). */
static Type *mask_type(IrCtx *c, const Expr *call, const Expr *x) {
    int64_t d[2] = { ir_type_dim(x->type, 0), (ir_type_dim(x->type, 1) + 7) / 8 };
    d[1] = (d[1] + 31) / 32 * 32;
    if (form_kind(call) == TY_TENSOR) return ir_tensor_type(c, DT_UINT8, 2, d);
    Type *t = ir_tile_type(c, DT_UINT8, 2, d, MS_VEC);
    TileView v = ir_implicit_view(t);
    v.blayout = TL_ROW_MAJOR;
    v.nvalid = 2;
    v.valid_shape = ARENA_ARRAY(c->arena, Expr *, 2);
    v.valid_shape[0] = valid_dim(x->type, 0);
    int64_t vc;
    v.valid_shape[1] = ir_is_const_int(valid_dim(x->type, 1), &vc) ? ir_const_int(c, (vc + 7) / 8, DT_INDEX)
                                                                   : ir_const_int(c, d[1], DT_INDEX);
    ir_deduce_set_view(c, t, v);
    return t;
}

static bool deduce_cmp(IrCtx *c, Expr *call, bool scalar) {
    Expr *a = call->call.args[0], *b = call->call.args[1];
    if (!operand_ok(c, call, a, "first operand")) return false;
    if (scalar ? !scalar_operand(c, call, b) : (!operand_ok(c, call, b, "second operand") || !same_dtype(c, call, a, b) ||
                                                 !same_shape(c, call, a, b)))
        return false;
    if (ir_vec_cmp_type(call) < 0)
        return fail(c, call, "%s: cmp_type must be 0 (eq), 1 (ne), 2 (lt), 3 (le), 4 (gt) or 5 (ge)", op_name(call));
    call->type = mask_type(c, call, a);
    return true;
}

/* sel(mask, a, b) / sels(mask, a[, tmp], s): the mask a packed UINT8 mask covering a's valid rows
 * and ceil(vC / 8) bytes. */
static bool deduce_sel(IrCtx *c, Expr *call) {
    bool sels = ir_vec_kind(call->call.op) == VK_SELS;
    Expr *m = call->call.args[0], *a = call->call.args[1], *b = call->call.args[call->call.nargs - 1];
    if (!operand_ok(c, call, m, "mask") || !operand_ok(c, call, a, "second operand")) return false;
    if (sels ? !scalar_operand(c, call, b)
             : (!operand_ok(c, call, b, "third operand") || !same_dtype(c, call, a, b) || !same_shape(c, call, a, b)))
        return false;
    int64_t need = (ir_type_dim(a->type, 1) + 7) / 8;
    if (m->type->dtype != DT_UINT8 || ir_type_dim(m->type, 0) < ir_type_dim(a->type, 0) || ir_type_dim(m->type, 1) < need)
        return fail(c, call, "%s: the mask %s must be a UINT8 packed mask (pl.cmp's result) with at least %lld rows and %lld "
                    "bytes per row for %s", op_name(call), describe(c, m), (long long)ir_type_dim(a->type, 0), (long long)need,
                    describe(c, a));
    call->type = result_like(c, a, a->type->dtype);
    return true;
}

/* transpose_view of a Mat tile (a transposed matmul operand, ConvertTensorToTileOps): the same bytes
 * seen as [C, R] with the valid box swapped and the major-ness of both the box order and the inner
 * box flipped (NZ <-> ZN, spec/ops.md transpose_view); fractal, pad and compact kept. An NZ [N, K]
 * tile read as ZN [K, N] is element-for-element the same storage (isa_and_sync.md §3), so no copy. */
static bool deduce_mat_transpose_view(IrCtx *c, Expr *call, const Expr *x) {
    int64_t d[2];
    if (x->type->rank != 2 || !ir_type_static_dims(x->type, d))
        return fail(c, call, "%s: the operand %s must be a static 2-D tile", op_name(call), describe(c, x));
    TileView xv = ir_effective_view(x->type);
    if (is_strided_view(x->type) || xv.slayout == TL_NONE_BOX || xv.fractal != 512)
        return fail(c, call, "%s: %s is not a whole NZ / ZN Mat tile (ptoc views only those transposed in Mat)", op_name(call),
                    describe(c, x));
    int64_t t[2] = { d[1], d[0] };
    call->type = ir_tile_type(c, x->type->dtype, 2, t, MS_MAT);
    TileView v = xv;
    v.blayout = xv.blayout == TL_ROW_MAJOR ? TL_COL_MAJOR : TL_ROW_MAJOR;
    v.slayout = xv.slayout == TL_ROW_MAJOR ? TL_COL_MAJOR : TL_ROW_MAJOR;
    if (xv.nvalid == 2) {
        v.valid_shape = ARENA_ARRAY(c->arena, Expr *, 2);
        v.valid_shape[0] = xv.valid_shape[1];
        v.valid_shape[1] = xv.valid_shape[0];
    }
    ir_deduce_set_view(c, call->type, v);
    return true;
}

/* transpose(x, 0, 1) / (1, 0): [C, R] with the valid box swapped. transpose_view(t): the same bytes
 * read transposed: dims and valid box swapped, blayout flipped (ND <-> DN), no copy. */
static bool deduce_transpose(IrCtx *c, Expr *call, bool view) {
    Expr *x = call->call.args[0];
    if (view && form_kind(call) == TY_TILE && x->type && x->type->kind == TY_TILE && x->type->space == MS_MAT)
        return deduce_mat_transpose_view(c, call, x);
    if (!operand_ok(c, call, x, "operand")) return false;
    int64_t a1, a2;
    if (!view && (!ir_is_const_int(call->call.args[1], &a1) || !ir_is_const_int(call->call.args[2], &a2) ||
                  !((a1 == 0 && a2 == 1) || (a1 == 1 && a2 == 0) || (a1 == -2 && a2 == -1) || (a1 == -1 && a2 == -2))))
        return fail(c, call, "%s: a 2-D transpose swaps axes 0 and 1 (got other axes)", op_name(call));
    if (!view && call->call.nargs == 4 && (!operand_ok(c, call, call->call.args[3], "scratch tile") ||
                                           !same_dtype(c, call, x, call->call.args[3])))
        return false;
    int64_t d[2] = { ir_type_dim(x->type, 1), ir_type_dim(x->type, 0) };
    if (form_kind(call) == TY_TENSOR) {
        call->type = ir_tensor_type(c, x->type->dtype, 2, d);
        return true;
    }
    call->type = ir_tile_type(c, x->type->dtype, 2, d, x->type->space == MS_NONE ? MS_VEC : x->type->space);
    TileView xv = ir_effective_view(x->type), v = ir_implicit_view(call->type);
    if (view) {
        if (is_strided_view(x->type))
            return fail(c, call, "%s: %s is a tile.slice view; ptoc does not view a slice transposed", op_name(call), describe(c, x));
        if (xv.slayout != TL_NONE_BOX)
            return fail(c, call, "%s: %s is not an ND / DN tile (fractal layouts are not viewed transposed by ptoc yet)",
                        op_name(call), describe(c, x));
        v.blayout = xv.blayout == TL_ROW_MAJOR ? TL_COL_MAJOR : TL_ROW_MAJOR;
    } else v.blayout = TL_ROW_MAJOR;
    if (xv.nvalid == 2) {
        v.nvalid = 2;
        v.valid_shape = ARENA_ARRAY(c->arena, Expr *, 2);
        v.valid_shape[0] = xv.valid_shape[1];
        v.valid_shape[1] = xv.valid_shape[0];
    }
    ir_deduce_set_view(c, call->type, v);
    return true;
}

/* concat(a, b): the columns of a then of b; same dtype and rows, both wholly valid. */
static bool deduce_concat(IrCtx *c, Expr *call) {
    Expr *a = call->call.args[0], *b = call->call.args[1];
    if (!operand_ok(c, call, a, "first operand") || !operand_ok(c, call, b, "second operand") || !same_dtype(c, call, a, b))
        return false;
    if (ir_type_dim(a->type, 0) != ir_type_dim(b->type, 0))
        return fail(c, call, "%s: the operands have different row counts: %s and %s", op_name(call), describe(c, a), describe(c, b));
    int64_t d[2] = { ir_type_dim(a->type, 0), ir_type_dim(a->type, 1) + ir_type_dim(b->type, 1) };
    for (int i = 0; i < 2 && form_kind(call) == TY_TILE; i++) {
        const Expr *x = call->call.args[i];
        if (!same_const(valid_dim(x->type, 0), x->type->shape[0]) || !same_const(valid_dim(x->type, 1), x->type->shape[1]))
            return fail(c, call, "%s: %s is partly valid; concat takes wholly valid tiles (fillpad it first)", op_name(call),
                        describe(c, x));
    }
    if (!ir_deduce_shape_ok(c, call, d, 2, a->type->dtype)) return false;
    call->type = form_kind(call) == TY_TENSOR ? ir_tensor_type(c, a->type->dtype, 2, d)
                                              : ir_tile_type(c, a->type->dtype, 2, d, MS_VEC);
    return true;
}

/* row_argmax / row_argmin / col_argmax / col_argmin: the INT32 index of the extreme element of each
 * row / column. The tile form's scratch tile must have exactly the input's shape and dtype (a
 * wider one makes the hardware column argmax walk past the valid columns, spec/ops.md §5.12);
 * TRowArgMax reads a row-major (ND) source. */
static bool deduce_arg(IrCtx *c, Expr *call, bool row) {
    Expr *x = call->call.args[0];
    if (!operand_ok(c, call, x, "operand")) return false;
    if (call->call.nargs == 2) {
        Expr *tmp = call->call.args[1];
        if (!operand_ok(c, call, tmp, "scratch tile") || !same_dtype(c, call, x, tmp)) return false;
        if (ir_type_dim(tmp->type, 0) != ir_type_dim(x->type, 0) || ir_type_dim(tmp->type, 1) != ir_type_dim(x->type, 1))
            return fail(c, call, "%s: the scratch tile %s must have exactly the shape of the input %s", op_name(call),
                        describe(c, tmp), describe(c, x));
    } else if (form_kind(call) == TY_TILE)
        return fail(c, call, "%s: the tile form takes a scratch tile: pl.tile.%s(x, tmp) with tmp exactly the shape and dtype "
                    "of x", op_name(call), ir_vec_short_name(call->call.op));
    if (row && form_kind(call) == TY_TILE && ir_effective_view(x->type).blayout != TL_ROW_MAJOR)
        return fail(c, call, "%s: %s is column-major; %s reads a row-major (ND) tile", op_name(call), describe(c, x),
                    ir_vec_short_name(call->call.op));
    return reduce_result(c, call, x, row, DT_INT32);
}

/* fillpad_expand(x, shape): a [shape] result (each dim >= x's) holding x's valid region top-left
 * and the pad value everywhere else; wholly valid. */
static bool deduce_fillpad_expand(IrCtx *c, Expr *call) {
    Expr *x = call->call.args[0];
    int64_t d[8];
    int n;
    if (!operand_ok(c, call, x, "operand")) return false;
    if (!ir_deduce_static_tuple(call->call.args[1], d, &n) || n != 2)
        return fail(c, call, "%s: the shape must be a 2-D list of constants such as [16, 64]", op_name(call));
    for (int i = 0; i < 2; i++)
        if (d[i] < ir_type_dim(x->type, i))
            return fail(c, call, "%s: the shape [%lld, %lld] is smaller than the operand %s in dim %d (fillpad_expand only "
                        "grows a tile)", op_name(call), (long long)d[0], (long long)d[1], describe(c, x), i);
    int pad = ir_vec_pad_value(ir_attr_get(&call->call.kwargs, "pad_value"));
    if (pad < 0) return fail(c, call, "%s: pad_value must be pl.PadValue.zero, pl.PadValue.max or pl.PadValue.min", op_name(call));
    if (!ir_deduce_shape_ok(c, call, d, 2, x->type->dtype)) return false;
    if (form_kind(call) == TY_TENSOR) {
        call->type = ir_tensor_type(c, x->type->dtype, 2, d);
        return true;
    }
    call->type = ir_tile_type(c, x->type->dtype, 2, d, MS_VEC);
    TileView v = ir_implicit_view(call->type);
    v.pad = pad;
    ir_deduce_set_view(c, call->type, v);
    return true;
}

/* tile.slice(t, shape, offset[, valid_shape]): a view of the [h, w] window of t at (r0, c0) — the
 * same bytes, rows the parent's row pitch apart (TileView stride [pitch, 1], start_offset the
 * window's element offset from the parent's first element; MemRef the parent's). The window must
 * lie in t, the offsets be constants (the view's address is static) and the column offset keep the
 * 32-byte alignment of every row; t must be a row-major ND tile. */
static bool deduce_slice(IrCtx *c, Expr *call) {
    Expr *t = call->call.args[0];
    int64_t sh[8], off[8], td[2];
    int n, m;
    if (!operand_ok(c, call, t, "sliced tile")) return false;
    TileView tv = ir_effective_view(t->type);
    if (tv.blayout != TL_ROW_MAJOR || tv.slayout != TL_NONE_BOX)
        return fail(c, call, "%s: %s is not a row-major ND tile; ptoc slices row-major Vec tiles only", op_name(call), describe(c, t));
    if (!ir_deduce_static_tuple(call->call.args[1], sh, &n) || n != 2 || sh[0] <= 0 || sh[1] <= 0)
        return fail(c, call, "%s: the shape must be a 2-D list of positive constants such as [8, 32]", op_name(call));
    if (!ir_deduce_static_tuple(call->call.args[2], off, &m) || m != 2)
        return fail(c, call, "%s: the offset must be a 2-D list of compile-time constants (a tile view has a static address; "
                    "for a run-time window slice the tensor and load it)", op_name(call));
    ir_type_static_dims(t->type, td);
    for (int i = 0; i < 2; i++)
        if (off[i] < 0 || off[i] > td[i] - sh[i])
            return fail(c, call, "%s: the window [%lld, %lld] at offset [%lld, %lld] leaves the tile %s", op_name(call),
                        (long long)sh[0], (long long)sh[1], (long long)off[0], (long long)off[1], describe(c, t));
    int64_t eb = dtype_bytes(t->type->dtype), pitch = td[1], start = 0;
    if (tv.nstride == 2 && !ir_is_const_int(tv.stride[0], &pitch)) return fail(c, call, "%s: the sliced view has a run-time stride", op_name(call));
    if (tv.start_offset && !ir_is_const_int(tv.start_offset, &start))
        return fail(c, call, "%s: the sliced view has a run-time offset", op_name(call));
    if ((off[1] * eb) % 32 || ((start % pitch) * eb) % 32)
        return fail(c, call, "%s: column offset %lld of %s elements is %lld bytes into each row; the vector unit needs rows "
                    "starting on 32-byte boundaries (a column offset a multiple of %lld)", op_name(call), (long long)off[1],
                    dtype_name(t->type->dtype), (long long)(off[1] * eb), (long long)(32 / eb));
    call->type = ir_tile_type(c, t->type->dtype, 2, sh, t->type->space == MS_NONE ? MS_VEC : t->type->space);
    TileView v = ir_implicit_view(call->type);
    v.blayout = TL_ROW_MAJOR;
    v.stride = ARENA_ARRAY(c->arena, Expr *, 2);
    v.nstride = 2;
    v.stride[0] = ir_const_int(c, pitch, DT_INDEX);
    v.stride[1] = ir_const_int(c, 1, DT_INDEX);
    v.start_offset = ir_const_int(c, start + off[0] * pitch + off[1], DT_INDEX);   /* within the parent's bytes */
    if (call->call.nargs == 4) {
        Expr *vs = call->call.args[3];
        if (vs->kind != EX_TUPLE || vs->tuple.n != 2)
            return fail(c, call, "%s: valid_shape must be a 2-D list such as [8, n]", op_name(call));
        for (int i = 0; i < 2; i++) {
            int64_t k;
            Expr *e = vs->tuple.items[i];
            if (!e->type || e->type->kind != TY_SCALAR || !dtype_is_int(e->type->dtype))
                return fail(c, call, "%s: valid_shape entries must be integers", op_name(call));
            if (ir_is_const_int(e, &k) && (k < 0 || k > sh[i]))
                return fail(c, call, "%s: valid_shape dim %d is %lld, outside [0, %lld]", op_name(call), i, (long long)k, (long long)sh[i]);
        }
        v.nvalid = 2;
        v.valid_shape = vs->tuple.items;
    }
    const AttrVal *pv = ir_attr_get(&call->call.kwargs, "pad_value");
    if (pv) {
        int pad = ir_vec_pad_value(pv);
        if (pad < 0) return fail(c, call, "%s: pad_value must be pl.PadValue.zero, pl.PadValue.max or pl.PadValue.min", op_name(call));
        v.pad = pad;
    }
    ir_deduce_set_view(c, call->type, v);
    return true;
}

/* sin / cos: FP32 composites (spec/ops.md §4.3), expanded into tile ops by LowerCompositeOps. */
static bool deduce_composite(IrCtx *c, Expr *call) {
    Expr *x = call->call.args[0];
    if (!operand_ok(c, call, x, "operand")) return false;
    if (x->type->dtype != DT_FP32)
        return fail(c, call, "%s: %s is computed for FP32 elements only, got %s; cast it first: pl.%s(pl.cast(x, pl.FP32))",
                    op_name(call), ir_vec_short_name(call->call.op), describe(c, x), ir_vec_short_name(call->call.op));
    call->type = result_like(c, x, DT_FP32);
    return true;
}

int ir_vec_cmp_type(const Expr *call) {
    const AttrVal *v = ir_attr_get(&call->call.kwargs, "cmp_type");
    if (!v) return 0;
    if (v->kind == AV_INT && v->i >= 0 && v->i <= 5) return (int)v->i;
    static const char *const names[] = { "eq", "ne", "lt", "le", "gt", "ge" };
    for (int i = 0; v->kind == AV_STR && i < 6; i++)
        if (strcmp(v->s, names[i]) == 0) return i;
    return -1;
}

bool ir_deduce_vec(IrCtx *c, Expr *call) {
    switch (ir_vec_kind(call->call.op)) {
    case VK_BINARY: return deduce_binary(c, call);
    case VK_SCALAR: return deduce_scalar(c, call);
    case VK_UNARY: return deduce_unary(c, call);
    case VK_CAST: return deduce_cast(c, call);
    case VK_FULL: return deduce_full(c, call);
    case VK_EXPANDS:
        if (!operand_ok(c, call, call->call.args[0], "target") || !scalar_operand(c, call, call->call.args[1])) return false;
        call->type = result_like(c, call->call.args[0], call->call.args[0]->type->dtype);
        return true;
    case VK_FILLPAD: return deduce_fillpad(c, call);
    case VK_ROW_REDUCE: return deduce_reduce(c, call, true);
    case VK_COL_REDUCE: return deduce_reduce(c, call, false);
    case VK_ROW_EXPAND: return deduce_expand(c, call, true);
    case VK_COL_EXPAND: return deduce_expand(c, call, false);
    case VK_RESHAPE: return deduce_reshape(c, call);
    case VK_CMP: return deduce_cmp(c, call, false);
    case VK_CMPS: return deduce_cmp(c, call, true);
    case VK_SEL: case VK_SELS: return deduce_sel(c, call);
    case VK_TRANSPOSE: return deduce_transpose(c, call, false);
    case VK_TRANSPOSE_VIEW: return deduce_transpose(c, call, true);
    case VK_CONCAT: return deduce_concat(c, call);
    case VK_ROW_ARG: return deduce_arg(c, call, true);
    case VK_COL_ARG: return deduce_arg(c, call, false);
    case VK_FILLPAD_EXPAND: return deduce_fillpad_expand(c, call);
    case VK_SLICE: return deduce_slice(c, call);
    case VK_COMPOSITE: return deduce_composite(c, call);
    case VK_NONE: break;
    }
    return fail(c, call, "internal: %s is not a vector op", op_name(call));
}

/* ---- option values ---- */
int ir_vec_round_mode(const char *s) {
    for (int m = 0; m <= DT_ROUND_ODD; m++)
        if (strcmp(s, dtype_round_name(m)) == 0) return m;
    return -1;
}

int ir_vec_cast_mode(const Expr *call) {
    const AttrVal *m = ir_attr_get(&call->call.kwargs, "mode");
    if (!m) return DT_ROUND_ROUND;
    return m->kind == AV_STR ? ir_vec_round_mode(m->s) : (int)m->i;
}

int ir_vec_pad_value(const AttrVal *v) {
    if (!v) return PAD_ZERO;
    const char *s = v->kind == AV_ENUM || v->kind == AV_STR ? v->s : NULL;
    if (v->kind == AV_INT && v->i >= PAD_ZERO && v->i <= PAD_MIN) return (int)v->i;
    if (!s) return -1;
    const char *last = strrchr(s, '.');
    last = last ? last + 1 : s;
    if (strcmp(last, "zero") == 0) return PAD_ZERO;
    if (strcmp(last, "max") == 0) return PAD_MAX;
    if (strcmp(last, "min") == 0) return PAD_MIN;
    return -1;
}
