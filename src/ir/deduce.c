/* deduce: result types of op calls (the op table's type-deduction rules) and tile layouts.
 * Requires: call arguments already typed. Produces: call->type, or a user diagnostic naming the
 * operands, their shapes and dtypes. */
#include "ir/deduce_internal.h"

#include <string.h>

#define describe ir_deduce_describe
#define fail ir_deduce_fail
#define static_tuple ir_deduce_static_tuple
#define shape_ok ir_deduce_shape_ok
#define set_view ir_deduce_set_view

static void shape_str(const Type *t, StrBuf *sb) {
    sb_putc(sb, '[');
    for (int i = 0; i < t->rank; i++) {
        if (i) sb_puts(sb, ", ");
        if (t->shape[i]->kind == EX_CONST_INT) sb_printf(sb, "%lld", (long long)t->shape[i]->ci.value);
        else sb_puts(sb, "?");
    }
    sb_printf(sb, "] %s", dtype_name(t->dtype));
}

/* "a is [128, 512] FP16" for error messages */
const char *ir_deduce_describe(IrCtx *c, const Expr *e) {
    StrBuf sb = {0};
    if (e->kind == EX_VAR) sb_printf(&sb, "'%s' ", e->var->name);
    if (e->type && (e->type->kind == TY_TENSOR || e->type->kind == TY_TILE)) {
        sb_puts(&sb, e->type->kind == TY_TENSOR ? "tensor " : "tile ");
        shape_str(e->type, &sb);
    } else sb_puts(&sb, "a non-shaped value");
    char *s = arena_strdup(c->arena, sb_cstr(&sb));
    sb_free(&sb);
    return s;
}

bool ir_deduce_fail(IrCtx *c, const Expr *call, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    if (c->diag) diag_vadd(c->diag, DIAG_ERROR, call->span, NULL, fmt, ap);
    va_end(ap);
    return false;
}

static bool is_shaped(const Expr *e, TypeKind k) { return e->type && e->type->kind == k; }

bool ir_deduce_static_tuple(const Expr *e, int64_t *out, int *n) {
    if (e->kind != EX_TUPLE || e->tuple.n > 8) return false;
    for (int i = 0; i < e->tuple.n; i++) {
        if (e->tuple.items[i]->kind != EX_CONST_INT) return false;
        out[i] = e->tuple.items[i]->ci.value;
    }
    *n = e->tuple.n;
    return true;
}

/* A static result shape: no negative dimension, and a byte size that fits in int64. */
bool ir_deduce_shape_ok(IrCtx *c, const Expr *call, const int64_t *d, int n, DType dt) {
    int64_t bytes;
    for (int i = 0; i < n; i++)
        if (d[i] < 0) return fail(c, call, "%s: negative dimension %lld in the shape", ir_op_info(call->call.op)->name, (long long)d[i]);
    if (!ir_shape_bytes(dt, d, n, &bytes))
        return fail(c, call, "%s: the shape is too large: its size in bytes does not fit in a 64-bit integer", ir_op_info(call->call.op)->name);
    if (!dtype_is_supported(dt))
        return fail(c, call, "%s: %s elements are not supported by ptoc (element types: %s)", ir_op_info(call->call.op)->name,
                    dt == DT_NONE ? "?" : dtype_name(dt), DTYPE_SUPPORTED_LIST);
    return true;
}

static const AttrVal *kw(const Expr *call, const char *key) { return ir_attr_get(&call->call.kwargs, key); }

/* The dtype an option holds (a literal, or an expression that is the enum); DT_NONE otherwise. */
static DType attr_dtype(const AttrVal *v) {
    if (v->kind == AV_DTYPE) return v->dtype;
    if (v->kind == AV_EXPR && v->expr && v->expr->kind == EX_ENUM && v->expr->enm.kind == AV_DTYPE) return v->expr->enm.dtype;
    return DT_NONE;
}

/* The dtype= option (FP32 when absent); DT_NONE when it is not a dtype. */
static DType kw_dtype(const Expr *call) {
    const AttrVal *v = kw(call, "dtype");
    return v ? attr_dtype(v) : DT_FP32;
}
static bool kw_bool(const Expr *call, const char *key) { const AttrVal *v = kw(call, key); return v && v->i; }

static MemSpace kw_mem(const Expr *call) {
    const AttrVal *v = kw(call, "target_memory");
    return v && v->kind == AV_MEM ? v->mem : MS_NONE;
}

static DType acc_dtype_for(DType operand) { return dtype_is_int(operand) ? DT_INT32 : DT_FP32; }

/* The cube's dtype triples (isa_and_sync.md TMATMUL / TSTORE, targets.md §3): FP16, BF16 and FP32
 * operands accumulate in FP32, which the store writes as FP32, FP16 or BF16; INT8 operands
 * accumulate in INT32, stored as INT32 (the quantizing INT8 stores are not supported). */
#define CUBE_LEGAL "FP16 x FP16, BF16 x BF16 and FP32 x FP32 accumulate in FP32 (out_dtype pl.FP32, pl.FP16 or pl.BF16); " \
                   "INT8 x INT8 accumulates in INT32 (out_dtype pl.INT32)"

static bool cube_operand_ok(DType d) { return d == DT_FP16 || d == DT_BF16 || d == DT_FP32 || d == DT_INT8; }

/* A store of the accumulator may convert FP32 to FP16 / BF16; anything else keeps the dtype. */
static bool store_converts(DType from, DType to) { return from == to || (from == DT_FP32 && (to == DT_FP16 || to == DT_BF16)); }

/* [M, K] x [K, N]: checks ranks, dtypes and the inner dimension; returns M, N in mn. */
static bool matmul_dims(IrCtx *c, Expr *call, Expr *lhs, Expr *rhs, TypeKind k, int64_t mn[2]) {
    if (!is_shaped(lhs, k) || !is_shaped(rhs, k) || lhs->type->rank != 2 || rhs->type->rank != 2)
        return fail(c, call, "%s: operands must be 2-D %ss: got %s and %s", ir_op_info(call->call.op)->name,
                    k == TY_TENSOR ? "tensor" : "tile", describe(c, lhs), describe(c, rhs));
    int64_t ld[2], rd[2];
    if (!ir_type_static_dims(lhs->type, ld) || !ir_type_static_dims(rhs->type, rd))
        return fail(c, call, "%s: operand shapes must be static", ir_op_info(call->call.op)->name);
    bool at = kw_bool(call, "a_trans"), bt = kw_bool(call, "b_trans");
    int64_t M = at ? ld[1] : ld[0], K1 = at ? ld[0] : ld[1];
    int64_t K2 = bt ? rd[1] : rd[0], N = bt ? rd[0] : rd[1];
    if (K1 != K2)
        return fail(c, call, "%s: inner dimensions differ: %s has K = %lld but %s has K = %lld",
                    ir_op_info(call->call.op)->name, describe(c, lhs), (long long)K1, describe(c, rhs), (long long)K2);
    if (lhs->type->dtype != rhs->type->dtype)
        return fail(c, call, "%s: operand dtypes differ: %s vs %s (the cube multiplies equal types: FP16, BF16, FP32 or INT8)",
                    ir_op_info(call->call.op)->name, describe(c, lhs), describe(c, rhs));
    if (!cube_operand_ok(lhs->type->dtype))
        return fail(c, call, "%s: the cube does not multiply %s operands (%s and %s); legal: %s", ir_op_info(call->call.op)->name,
                    dtype_name(lhs->type->dtype), describe(c, lhs), describe(c, rhs), CUBE_LEGAL);
    mn[0] = M;
    mn[1] = N;
    return true;
}

static bool deduce_tensor(IrCtx *c, Expr *call) {
    Expr **a = call->call.args;
    int64_t d[8];
    int n;
    switch (call->call.op) {
    case OP_TENSOR_MATMUL: {
        int64_t mn[2];
        if (!matmul_dims(c, call, a[0], a[1], TY_TENSOR, mn)) return false;
        const AttrVal *od = kw(call, "out_dtype");
        DType in = a[0]->type->dtype, acc = acc_dtype_for(in);
        if (od && attr_dtype(od) == DT_NONE) return fail(c, call, "tensor.matmul: out_dtype must be a dtype such as pl.FP32");
        if (!od && acc == DT_INT32)
            return fail(c, call, "tensor.matmul: INT8 operands accumulate in INT32; say out_dtype=pl.INT32 (legal: %s)", CUBE_LEGAL);
        DType out = od ? attr_dtype(od) : in;
        if (!store_converts(acc, out))
            return fail(c, call, "tensor.matmul: out_dtype=pl.%s is not a result of %s x %s (the cube accumulates in %s); legal: %s",
                        dtype_name(out), dtype_name(in), dtype_name(in), dtype_name(acc), CUBE_LEGAL);
        call->type = ir_tensor_type(c, out, 2, mn);
        return true;
    }
    case OP_TENSOR_MATMUL_ACC: {
        int64_t mn[2];
        if (!matmul_dims(c, call, a[1], a[2], TY_TENSOR, mn)) return false;
        if (!is_shaped(a[0], TY_TENSOR) || a[0]->type->rank != 2 || ir_type_dim(a[0]->type, 0) != mn[0] ||
            ir_type_dim(a[0]->type, 1) != mn[1])
            return fail(c, call, "tensor.matmul_acc: accumulator %s does not match the product shape [%lld, %lld]",
                        describe(c, a[0]), (long long)mn[0], (long long)mn[1]);
        if (a[0]->type->dtype != acc_dtype_for(a[1]->type->dtype))
            return fail(c, call, "tensor.matmul_acc: the accumulator %s must be %s for %s operands; legal: %s", describe(c, a[0]),
                        dtype_name(acc_dtype_for(a[1]->type->dtype)), dtype_name(a[1]->type->dtype), CUBE_LEGAL);
        call->type = a[0]->type;
        return true;
    }
    case OP_TENSOR_ASSEMBLE: {
        if (!is_shaped(a[0], TY_TENSOR))
            return fail(c, call, "assemble: the target must be a tensor, got %s", describe(c, a[0]));
        if (!a[1]->type || (a[1]->type->kind != TY_TENSOR && a[1]->type->kind != TY_TILE))
            return fail(c, call, "assemble: the source must be a tensor or tile, got %s", describe(c, a[1]));
        int64_t td[8], sd[8];
        if (static_tuple(a[2], d, &n) && ir_type_static_dims(a[0]->type, td) && ir_type_static_dims(a[1]->type, sd)) {
            if (n != a[0]->type->rank || a[1]->type->rank != n)
                return fail(c, call, "assemble: rank mismatch: target %s, source %s, %d offsets",
                            describe(c, a[0]), describe(c, a[1]), n);
            for (int i = 0; i < n; i++)
                if (d[i] < 0 || d[i] > td[i] || sd[i] > td[i] - d[i])   /* no overflow */
                    return fail(c, call, "assemble: source %s at offset %lld does not fit target %s in dim %d",
                                describe(c, a[1]), (long long)d[i], describe(c, a[0]), i);
        }
        /* acc_store (AutoTileL1's K-chunked matmul with an FP16 / BF16 result): the source is the FP32
         * accumulator, which the store converts as a matmul's own result would be (FIXPIPE) */
        if (a[0]->type->dtype != a[1]->type->dtype &&
            !(ir_attr_get(&call->call.attrs, "acc_store") && a[1]->type->dtype == DT_FP32 &&
              store_converts(a[1]->type->dtype, a[0]->type->dtype)))
            return fail(c, call, "assemble: dtype mismatch: target %s, source %s (cast the source first)",
                        describe(c, a[0]), describe(c, a[1]));
        call->type = a[0]->type;
        return true;
    }
    case OP_TENSOR_SLICE: {
        if (!is_shaped(a[0], TY_TENSOR)) return fail(c, call, "slice: expected a tensor, got %s", describe(c, a[0]));
        if (!static_tuple(a[1], d, &n)) return fail(c, call, "slice: the shape must be static");
        if (!shape_ok(c, call, d, n, a[0]->type->dtype)) return false;
        call->type = ir_tensor_type(c, a[0]->type->dtype, n, d);
        return true;
    }
    case OP_TENSOR_CREATE: {
        if (!static_tuple(a[0], d, &n)) return fail(c, call, "create: the shape must be static");
        if (!shape_ok(c, call, d, n, kw_dtype(call))) return false;
        call->type = ir_tensor_type(c, kw_dtype(call), n, d);
        return true;
    }
    default: return fail(c, call, "internal: no tensor deduction for %s", ir_op_info(call->call.op)->name);
    }
}

/* Sets an explicit view only when it differs from the implicit one (canonical encoding). */
void ir_deduce_set_view(IrCtx *c, Type *t, TileView v) {
    TileView imp = ir_implicit_view(t);
    if (ir_view_equal(&v, &imp)) { t->view = NULL; return; }
    t->view = ARENA_NEW(c->arena, TileView);
    *t->view = v;
}

/* 1: deduced, 0: user error reported, -1: not a data-movement op */
/* The valid extent a window of src at (r, cc) of shape d inherits: the part of src's static valid box
 * it covers. The planner pads capacities to whole fractals (a Mat operand [100, 64] loads as
 * [112, 64] valid [100, 64]); the L0 tile extracted or moved from it must carry the same logical
 * extent (pto-isa's TEXTRACT / TMOV require the valid boxes to agree, and the padding rows are no
 * data). Unchanged when src has no static valid box, or the window lies wholly in the padding. */
/* r / cc < 0: that offset is not a constant — a loop's, whose windows are whole valid blocks (the
 * pass peels ragged tails at constant offsets), so that dimension stays whole. */
static void inherit_valid(IrCtx *c, Type *dst, const Type *src, int64_t r, int64_t cc, const int64_t *d) {
    TileView sv = ir_effective_view(src);
    int64_t vr, vc;
    if (sv.nvalid != 2 || !ir_is_const_int(sv.valid_shape[0], &vr) || !ir_is_const_int(sv.valid_shape[1], &vc)) return;
    vr = r < 0 ? d[0] : vr - r < d[0] ? vr - r : d[0];
    vc = cc < 0 ? d[1] : vc - cc < d[1] ? vc - cc : d[1];
    if (vr <= 0 || vc <= 0 || (vr == d[0] && vc == d[1])) return;
    TileView v = ir_effective_view(dst);
    v.nvalid = 2;
    v.valid_shape = ARENA_ARRAY(c->arena, Expr *, 2);
    v.valid_shape[0] = ir_const_int(c, vr, DT_INDEX);
    v.valid_shape[1] = ir_const_int(c, vc, DT_INDEX);
    set_view(c, dst, v);
}

static int deduce_tile_data(IrCtx *c, Expr *call) {
    Expr **a = call->call.args;
    int64_t d[8];
    int n;
    switch (call->call.op) {
    case OP_TILE_GET_BLOCK_IDX: case OP_TILE_GET_BLOCK_NUM: case OP_TILE_GET_SUBBLOCK_IDX:
        call->type = ir_scalar_type(c, DT_INDEX);    /* SPMD queries: an index for offsets */
        return 1;
    case OP_TILE_LOAD: {
        if (!is_shaped(a[0], TY_TENSOR)) return (int)fail(c, call, "tile.load: expected a tensor, got %s", describe(c, a[0]));
        if (!static_tuple(a[2], d, &n)) return (int)fail(c, call, "tile.load: the shape must be static");
        if (!shape_ok(c, call, d, n, a[0]->type->dtype)) return 0;
        call->type = ir_tile_type(c, a[0]->type->dtype, n, d, kw_mem(call));
        int64_t vd[8] = {0};
        int vn = 0;
        if (static_tuple(a[3], vd, &vn) && memcmp(vd, d, sizeof(int64_t) * (size_t)n) != 0) {
            TileView v = ir_implicit_view(call->type);
            v.nvalid = vn;
            v.valid_shape = ARENA_ARRAY(c->arena, Expr *, vn);
            for (int i = 0; i < vn; i++) v.valid_shape[i] = ir_const_int(c, vd[i], DT_INDEX);
            set_view(c, call->type, v);
        }
        return 1;
    }
    case OP_TILE_STORE:
        if (!is_shaped(a[0], TY_TILE)) return (int)fail(c, call, "tile.store: expected a tile, got %s", describe(c, a[0]));
        if (!is_shaped(a[2], TY_TENSOR)) return (int)fail(c, call, "tile.store: the destination must be a tensor, got %s", describe(c, a[2]));
        if (a[0]->type->dtype != a[2]->type->dtype && (a[0]->type->space != MS_ACC || !store_converts(a[0]->type->dtype, a[2]->type->dtype)))
            return (int)fail(c, call, "tile.store: %s cannot be stored into %s: a store converts only an FP32 accumulator (Acc) to "
                             "FP16 or BF16; cast the tile first", describe(c, a[0]), describe(c, a[2]));
        call->type = a[2]->type;
        return 1;
    case OP_TILE_CREATE: {
        if (!static_tuple(a[0], d, &n)) return (int)fail(c, call, "tile.create: the shape must be static");
        if (!shape_ok(c, call, d, n, kw_dtype(call))) return 0;
        call->type = ir_tile_type(c, kw_dtype(call), n, d, kw_mem(call));
        if (kw_bool(call, "compact")) {
            TileView v = ir_implicit_view(call->type);
            v.compact = true;
            set_view(c, call->type, v);
        }
        return 1;
    }
    case OP_TILE_ALLOC:
        call->type = ir_ptr_type(c);
        return 1;
    case OP_TILE_EXTRACT: {
        if (!is_shaped(a[0], TY_TILE)) return (int)fail(c, call, "tile.extract: expected a tile, got %s", describe(c, a[0]));
        if (!static_tuple(a[3], d, &n) || n != 2) return (int)fail(c, call, "tile.extract: the shape must be a static 2-D list");
        if (!shape_ok(c, call, d, n, a[0]->type->dtype)) return 0;
        MemSpace sp = kw_mem(call);
        call->type = ir_tile_type(c, a[0]->type->dtype, 2, d, sp);
        TileView v = ir_implicit_view(call->type);
        if (sp == MS_LEFT) { v.blayout = TL_ROW_MAJOR; v.slayout = TL_ROW_MAJOR; }
        if (sp == MS_RIGHT) { v.blayout = TL_ROW_MAJOR; v.slayout = TL_COL_MAJOR; }
        set_view(c, call->type, v);
        int64_t r, cc, sd[2];
        if (ir_is_const_int(a[1], &r) && ir_is_const_int(a[2], &cc) && ir_type_static_dims(a[0]->type, sd) &&
            (r < 0 || cc < 0 || r > sd[0] || cc > sd[1] || d[0] > sd[0] - r || d[1] > sd[1] - cc))   /* no overflow */
            return (int)fail(c, call, "tile.extract: window [%lld, %lld] at (%lld, %lld) exceeds source %s",
                        (long long)d[0], (long long)d[1], (long long)r, (long long)cc, describe(c, a[0]));
        /* the valid box travels: a constant offset narrows its dimension (a K loop's Left tiles of a
         * ragged M keep the source's valid rows: pto-isa's TEXTRACT asserts the window's valid rows
         * lie inside the source's) */
        bool kr = ir_is_const_int(a[1], &r), kc = ir_is_const_int(a[2], &cc);
        if (kr || kc) inherit_valid(c, call->type, a[0]->type, kr ? r : -1, kc ? cc : -1, d);
        return 1;
    }
    case OP_TILE_MOVE:
        if (!is_shaped(a[0], TY_TILE)) return (int)fail(c, call, "tile.move: expected a tile, got %s", describe(c, a[0]));
        call->type = ir_type_copy(c, a[0]->type);
        call->type->memref = NULL;
        call->type->space = kw_mem(call);
        call->type->view = NULL;
        if (a[0]->type->space == MS_ACC && call->type->space == MS_VEC && a[0]->type->rank == 2) {
            /* a cube result crossing to the vector core (ExpandMixedKernel): the valid region travels,
             * not the accumulator's box padding */
            TileView v = ir_effective_view(a[0]->type);
            int64_t vd[2];
            if (v.nvalid == 2 && ir_is_const_int(v.valid_shape[0], &vd[0]) && ir_is_const_int(v.valid_shape[1], &vd[1]))
                call->type = ir_tile_type(c, a[0]->type->dtype, 2, vd, MS_VEC);
        } else if (a[0]->type->rank == 2 && ir_type_static_dims(a[0]->type, d)) {
            inherit_valid(c, call->type, a[0]->type, 0, 0, d);   /* e.g. Mat -> Left: the valid box travels */
        }
        return 1;
    case OP_TILE_TPUSH_TO_AIV: case OP_TILE_TPUSH_TO_AIC:
        if (call->call.nargs == 1 && !is_shaped(a[0], TY_TILE))
            return (int)fail(c, call, "%s: expected a tile, got %s", ir_op_info(call->call.op)->name, describe(c, a[0]));
        call->type = ir_tuple_type(c, NULL, 0);
        return 1;
    case OP_TILE_TFREE_TO_AIC: case OP_TILE_TFREE_TO_AIV:
        if (call->call.nargs == 1 && !is_shaped(a[0], TY_TILE)) return (int)fail(c, call, "%s: expected a tile, got %s", ir_op_info(call->call.op)->name, describe(c, a[0]));
        call->type = ir_tuple_type(c, NULL, 0);
        return 1;
    case OP_TILE_TPOP_FROM_AIC: case OP_TILE_TPOP_FROM_AIV:
        if (call->call.nargs == 0) { call->type = ir_tuple_type(c, NULL, 0); return 1; }   /* a fence */
        if (!static_tuple(a[0], d, &n) || n != 2) return (int)fail(c, call, "%s: the shape must be a static 2-D list", ir_op_info(call->call.op)->name);
        if (!shape_ok(c, call, d, n, kw_dtype(call))) return 0;
        call->type = ir_tile_type(c, kw_dtype(call), n, d, call->call.op == OP_TILE_TPOP_FROM_AIC ? MS_VEC : MS_MAT);
        return 1;
    default: return -1;
    }
}

static bool deduce_tile_cube(IrCtx *c, Expr *call) {
    Expr **a = call->call.args;
    switch (call->call.op) {
    case OP_TILE_MATMUL: case OP_TILE_MATMUL_BIAS: {
        int64_t mn[2];
        if (!matmul_dims(c, call, a[0], a[1], TY_TILE, mn)) return false;
        call->type = ir_tile_type(c, acc_dtype_for(a[0]->type->dtype), 2, mn, MS_ACC);
        return true;
    }
    case OP_TILE_MATMUL_ACC: {
        int64_t mn[2];
        if (!matmul_dims(c, call, a[1], a[2], TY_TILE, mn)) return false;
        if (!is_shaped(a[0], TY_TILE))
            return fail(c, call, "tile.matmul_acc: the accumulator must be a tile, got %s", describe(c, a[0]));
        if (a[0]->type->dtype != acc_dtype_for(a[1]->type->dtype))
            return fail(c, call, "tile.matmul_acc: the accumulator %s must be %s for %s operands; legal: %s", describe(c, a[0]),
                        dtype_name(acc_dtype_for(a[1]->type->dtype)), dtype_name(a[1]->type->dtype), CUBE_LEGAL);
        call->type = ir_type_copy(c, a[0]->type);
        call->type->memref = NULL;
        if (call->type->space == MS_NONE) call->type->space = MS_ACC;
        return true;
    }
    case OP_TILE_ASSEMBLE:
        if (!is_shaped(a[0], TY_TILE)) return fail(c, call, "tile.assemble: the target must be a tile, got %s", describe(c, a[0]));
        call->type = ir_type_copy(c, a[0]->type);
        call->type->memref = NULL;
        return true;
    case OP_TILE_SET_VALIDSHAPE: {
        if (!is_shaped(a[0], TY_TILE)) return fail(c, call, "tile.set_validshape: expected a tile, got %s", describe(c, a[0]));
        call->type = ir_type_copy(c, a[0]->type);
        call->type->memref = NULL;
        TileView v = ir_effective_view(a[0]->type);
        v.nvalid = 2;
        v.valid_shape = ARENA_ARRAY(c->arena, Expr *, 2);
        v.valid_shape[0] = a[1];
        v.valid_shape[1] = a[2];
        set_view(c, call->type, v);
        return true;
    }
    default: return false;
    }
}

static bool arg_mismatch(IrCtx *c, Expr *call, const Function *f, int i);

/* An argument must have its parameter's kind, and a shaped one its dtype, layout and static shape:
 * the callee (a kernel) addresses its parameters by their declared shape, whatever the caller
 * passes. */
static bool arg_fits_param(IrCtx *c, Expr *call, const Function *f, int i) {
    const Type *pt = f->params.items[i]->type, *at = call->call.args[i]->type;
    if (!pt || !at) return true;
    bool ok = pt->kind == at->kind && (pt->kind != TY_TENSOR || pt->layout == at->layout);
    int64_t pd[5], ad[2];
    int eb = dtype_bytes(pt->dtype);
    if (ok && pt->kind == TY_TENSOR && pt->layout == TLAYOUT_NZ && pt->rank == 5 && at->rank == 2 && eb > 0 &&
        ir_type_static_dims(pt, pd) && ir_type_static_dims(at, ad)) {
        /* BlockNzTensorViews: the kernel sees the caller's logical [R, C] NZ tensor blocked as
         * [1, C / c0, R / 16, 16, c0], c0 = 32 bytes of elements */
        int64_t c0 = 32 / eb;
        return (pt->dtype == at->dtype && pd[0] == 1 && pd[3] == 16 && pd[4] == c0 && pd[1] * c0 == ad[1] && pd[2] * 16 == ad[0]) ||
               arg_mismatch(c, call, f, i);
    }
    if (ok && (pt->kind == TY_TENSOR || pt->kind == TY_TILE)) {
        ok = pt->dtype == at->dtype && pt->rank == at->rank;
        for (int d = 0; ok && d < pt->rank; d++) {
            int64_t x, y;
            if (ir_is_const_int(pt->shape[d], &x) && ir_is_const_int(at->shape[d], &y) && x != y) ok = false;
        }
    }
    return ok || arg_mismatch(c, call, f, i);
}

static bool arg_mismatch(IrCtx *c, Expr *call, const Function *f, int i) {
    const Type *pt = f->params.items[i]->type, *at = call->call.args[i]->type;
    StrBuf ps = {0}, as = {0};
    ir_print_type(pt, &ps);
    ir_print_type(at, &as);
    fail(c, call, "argument %d of '%s' is %s, but parameter '%s' is %s", i, f->name, sb_cstr(&as), f->params.items[i]->name,
         sb_cstr(&ps));
    sb_free(&ps);
    sb_free(&as);
    return false;
}

/* Offsets, shapes and indices are integers (Python: a float slice bound is a TypeError). */
static bool integer_operand(IrCtx *c, Expr *call, int arg, const char *what) {
    if (arg >= call->call.nargs) return true;
    const Expr *e = call->call.args[arg];
    int n = e->kind == EX_TUPLE ? e->tuple.n : 1;
    for (int i = 0; i < n; i++) {
        const Expr *x = e->kind == EX_TUPLE ? e->tuple.items[i] : e;
        if (x->type && x->type->kind == TY_SCALAR && dtype_is_float(x->type->dtype))
            return fail(c, call, "%s: %s must be integers, got a %s value", ir_op_info(call->call.op)->name, what, dtype_name(x->type->dtype));
        if (x->kind == EX_ENUM || (x->kind != EX_TUPLE && (!x->type || x->type->kind != TY_SCALAR)))
            return fail(c, call, "%s: %s must be integers, got %s", ir_op_info(call->call.op)->name, what,
                        x->kind == EX_ENUM ? "an enum value" : "a value that is not a scalar");
    }
    return true;
}

static bool integer_operands(IrCtx *c, Expr *call) {
    switch (call->call.op) {
    case OP_TENSOR_ASSEMBLE: case OP_TILE_ASSEMBLE: return integer_operand(c, call, 2, "the offsets");
    case OP_TENSOR_SLICE: return integer_operand(c, call, 1, "the shape") && integer_operand(c, call, 2, "the offsets");
    case OP_TILE_LOAD: return integer_operand(c, call, 1, "the offsets") && integer_operand(c, call, 3, "the valid shape");
    case OP_TILE_STORE: return integer_operand(c, call, 1, "the offsets");
    case OP_TILE_EXTRACT: return integer_operand(c, call, 1, "the row") && integer_operand(c, call, 2, "the column");
    case OP_TILE_SET_VALIDSHAPE: return integer_operand(c, call, 1, "the rows") && integer_operand(c, call, 2, "the columns");
    case OP_TENSOR_READ: case OP_TENSOR_WRITE: case OP_TILE_READ: case OP_TILE_WRITE:
        return integer_operand(c, call, 1, "the indices");
    default: return true;
    }
}

bool ir_deduce_call(IrCtx *c, Expr *call) {
    PTOC_ASSERT(call->kind == EX_CALL, "not a call");
    if (call->call.op == OP_NONE) {
        Function *f = call->call.callee;
        if (!f) return fail(c, call, "call of unknown function '%s'", call->call.callee_name);
        if (call->call.nargs != f->params.len)
            return fail(c, call, "'%s' takes %d arguments, got %d", f->name, f->params.len, call->call.nargs);
        for (int i = 0; i < f->params.len; i++)
            if (!arg_fits_param(c, call, f, i)) return false;
        call->type = f->nreturns == 1 ? f->return_types[0]
                   : ir_tuple_type(c, f->return_types, f->nreturns);
        return true;
    }
    const OpInfo *info = ir_op_info(call->call.op);
    if (call->call.nargs < info->min_args || call->call.nargs > info->max_args) {
        if (info->min_args == info->max_args)
            return fail(c, call, "%s takes %d arguments, got %d", info->name, info->min_args, call->call.nargs);
        return fail(c, call, "%s takes %d to %d arguments, got %d", info->name, info->min_args, info->max_args, call->call.nargs);
    }
    for (int i = 0; i < call->call.kwargs.len; i++)
        if (!ir_op_accepts_kwarg(call->call.op, call->call.kwargs.items[i].key))
            return fail(c, call, "%s has no option '%s' (accepted: %s)", info->name, call->call.kwargs.items[i].key,
                        *info->kwargs ? info->kwargs : "none");
    if (!integer_operands(c, call)) return false;
    if (info->flags & OPF_ACCESS) return ir_deduce_access(c, call);
    if (info->flags & OPF_VEC) return ir_deduce_vec(c, call);
    if (info->flags & OPF_TENSOR) return deduce_tensor(c, call);
    int r = deduce_tile_data(c, call);
    if (r >= 0) return r == 1;
    return deduce_tile_cube(c, call);
}

/* ---- views and physical sizes ---- */
TileView ir_implicit_view(const Type *t) {
    TileView v = { .blayout = TL_ROW_MAJOR, .slayout = TL_NONE_BOX, .fractal = 512 };
    switch (t->space) {
    case MS_MAT: case MS_LEFT: v.blayout = TL_COL_MAJOR; v.slayout = TL_ROW_MAJOR; break;
    case MS_RIGHT: v.blayout = TL_ROW_MAJOR; v.slayout = TL_COL_MAJOR; break;
    case MS_ACC: v.blayout = TL_COL_MAJOR; v.slayout = TL_ROW_MAJOR; v.fractal = 1024; break;
    default:
        if (t->rank == 2 && t->shape[1]->kind == EX_CONST_INT && t->shape[1]->ci.value == 1 &&
            t->shape[0]->kind == EX_CONST_INT && t->shape[0]->ci.value > 1)
            v.blayout = TL_COL_MAJOR;
        break;
    }
    return v;
}

TileView ir_effective_view(const Type *t) { return t->view ? *t->view : ir_implicit_view(t); }

static bool exprs_equal_const(Expr **a, int na, Expr **b, int nb) {
    if (na != nb) return false;
    for (int i = 0; i < na; i++) {
        if (a[i] == b[i]) continue;
        int64_t x, y;
        if (!ir_is_const_int(a[i], &x) || !ir_is_const_int(b[i], &y) || x != y) return false;
    }
    return true;
}

bool ir_view_equal(const TileView *a, const TileView *b) {
    return a->blayout == b->blayout && a->slayout == b->slayout && a->fractal == b->fractal && a->pad == b->pad &&
           a->compact == b->compact && exprs_equal_const(a->valid_shape, a->nvalid, b->valid_shape, b->nvalid) &&
           exprs_equal_const(a->stride, a->nstride, b->stride, b->nstride) &&
           ((!a->start_offset && !b->start_offset) ||
            (a->start_offset && b->start_offset && exprs_equal_const((Expr **)&a->start_offset, 1, (Expr **)&b->start_offset, 1)));
}


int64_t ir_tile_physical_bytes(const Type *t, int64_t l0c_align_m) {
    int eb = dtype_bytes(t->dtype);
    PTOC_ASSERT(eb > 0, "tile of sub-byte dtype %s", dtype_name(t->dtype));
    int64_t bytes;
    if (t->rank != 2) return checked_mul(ir_type_numel(t), eb, &bytes) ? bytes : INT64_MAX;
    TileView v = ir_effective_view(t);
    int64_t r0 = 1, c0 = 1;
    if (v.slayout != TL_NONE_BOX) {
        if (v.fractal == 1024) { r0 = 16; c0 = 16; }
        else if (v.slayout == TL_ROW_MAJOR) { r0 = 16; c0 = 32 / eb; }
        else { r0 = 32 / eb; c0 = 16; }
    } else if (v.blayout == TL_ROW_MAJOR) c0 = 32 / eb;       /* row bytes multiple of 32 */
    else r0 = 32 / eb;
    /* saturates: a tile this large fails every capacity check anyway */
    int64_t rows, cols;
    if (!checked_round_up(ir_type_dim(t, 0), r0, &rows) || !checked_round_up(ir_type_dim(t, 1), c0, &cols) ||
        (t->space == MS_ACC && !checked_round_up(rows, l0c_align_m, &rows)) || !checked_mul(rows, cols, &bytes) ||
        !checked_mul(bytes, eb, &bytes))
        return INT64_MAX;
    return bytes;
}
