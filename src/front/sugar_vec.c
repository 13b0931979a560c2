/* sugar_vec — the user-form rules of the vector ops (spec/ops.md §2.1–§2.3, decisions 1–3), applied
 * to a parsed vector-op call before its type is deduced.
 *
 * Requires: the call's arguments parsed and typed. Produces: a call the ISA can execute as written,
 * every conversion visible in the IR:
 *   - a scalar second operand selects the scalar form (pl.add(t, 2.0) -> tile.adds); a scalar first
 *     operand of a commutative op is swapped to second place;
 *   - a numeric literal scalar takes the element type of its tile / tensor; at the tensor level an
 *     integer tensor with a float literal is cast to FP32 first (upstream's promotion);
 *   - binary operands of different dtypes are promoted (§2.2; FP16 with BF16 -> FP32) by explicit
 *     casts (mode round);
 *   - a [M, 1] or [1, N] operand of add/sub/mul/div/maximum/minimum becomes a row/col expand op;
 *     with the vector on the left of sub/div the vector is first expanded to the full shape, so the
 *     result is lhs - rhs / lhs / rhs (decision 2, not upstream's sign flip).
 * Keyword forms (cast(x, target_type=..), full(shape, dtype=.., value=..)) were bound before, by
 * call_sig.c. */
#include "front/front_internal.h"

#include <string.h>

static bool is_shaped(const Expr *e) { return e->type && (e->type->kind == TY_TENSOR || e->type->kind == TY_TILE); }
static bool is_scalar(const Expr *e) { return e->type && e->type->kind == TY_SCALAR; }

static OpId sibling(OpId op, const char *short_name) {
    char buf[64];
    snprintf(buf, sizeof buf, "%s.%s", (ir_op_info(op)->flags & OPF_TENSOR) ? "tensor" : "tile", short_name);
    return ir_op_lookup(buf);
}

/* §2.2: equal -> it; one float -> the float; wider wins; equal-width ints -> the signed one;
 * FP16 with BF16 -> FP32 (decision 3). */
static DType promote(DType a, DType b) {
    if (a == b) return a;
    if (dtype_is_float(a) != dtype_is_float(b)) return dtype_is_float(a) ? a : b;
    if (dtype_is_float(a) && dtype_bits(a) == dtype_bits(b)) return DT_FP32;
    if (dtype_bits(a) != dtype_bits(b)) return dtype_bits(a) > dtype_bits(b) ? a : b;
    return dtype_is_signed(a) ? a : b;
}

static Expr *typed_call(Parser *p, OpId op, Expr **args, int n, Span sp) {
    Expr *c = ir_call(p->c, op, args, n);
    c->span = sp;
    if (!ir_deduce_call(p->c, c)) { p->failed = true; return NULL; }
    return c;
}

static Expr *cast_to(Parser *p, Expr *x, DType to, Span sp) {
    if (x->type->dtype == to) return x;
    Expr *d = ARENA_NEW(p->c->arena, Expr);
    d->kind = EX_ENUM;
    d->enm = ir_av_dtype(to);
    d->span = sp;
    Expr *c = ir_call(p->c, x->type->kind == TY_TENSOR ? OP_TENSOR_CAST : OP_TILE_CAST, (Expr *[]){ x, d }, 2);
    c->span = sp;
    ir_attr_set(p->c, &c->call.kwargs, "mode", ir_av_str("round"));
    if (!ir_deduce_call(p->c, c)) { p->failed = true; return NULL; }
    return c;
}

/* A literal scalar takes the element type it is combined with (a float literal with an integer
 * element type keeps its value: the instruction converts it). */
static Expr *retype_literal(Parser *p, Expr *s, DType elem) {
    if (!p->user_form) return s;                 /* the printed form says what it means: it round-trips */
    if (s->kind == EX_CONST_INT) {
        Expr *e = dtype_is_float(elem) ? ir_const_float(p->c, (double)s->ci.value, elem) : ir_const_int(p->c, s->ci.value, elem);
        e->span = s->span;
        return e;
    }
    if (s->kind == EX_CONST_FLOAT && dtype_is_float(elem)) {
        Expr *e = ir_const_float(p->c, s->cf.value, elem);
        e->span = s->span;
        return e;
    }
    return s;
}

static bool scalar_form(Parser *p, Expr *call) {
    static const char *const commutative[] = { "add", "mul", "maximum", "minimum", "and_", "or_", "xor", NULL };
    const char *n = ir_vec_short_name(call->call.op);
    Expr **a = call->call.args;
    if (is_scalar(a[0]) && is_shaped(a[1])) {
        bool comm = false;
        for (int i = 0; commutative[i]; i++) comm |= strcmp(n, commutative[i]) == 0;
        if (!comm) {
            front_error(p, call->span, "%s with a scalar on the left is not supported: write it with the %s first (e.g. "
                        "pl.neg(pl.sub(t, s)) for s - t, pl.mul(pl.recip(t), s) for s / t)", ir_op_info(call->call.op)->name,
                        a[1]->type->kind == TY_TENSOR ? "tensor" : "tile");
            return false;
        }
        Expr *t = a[0]; a[0] = a[1]; a[1] = t;
    }
    if (!is_shaped(a[0]) || !is_scalar(a[1])) return true;
    char buf[32];
    size_t len = strlen(n);
    snprintf(buf, sizeof buf, "%.*ss", (int)(len && n[len - 1] == '_' ? len - 1 : len), n);   /* and_ -> ands */
    OpId scalar_op = sibling(call->call.op, buf);
    if (scalar_op == OP_NONE) {
        front_error(p, call->span, "%s takes two %ss; it has no scalar form (got a %s scalar)", ir_op_info(call->call.op)->name,
                    a[0]->type->kind == TY_TENSOR ? "tensor" : "tile", dtype_name(a[1]->type->dtype));
        return false;
    }
    call->call.op = scalar_op;
    DType elem = a[0]->type->dtype;
    static const char *const integer_scalar[] = { "ands", "ors", "xors", "shls", "shrs", NULL };   /* no FP32 promotion */
    bool integer_op = false;
    for (int i = 0; integer_scalar[i]; i++) integer_op |= strcmp(buf, integer_scalar[i]) == 0;
    if (a[0]->type->kind == TY_TENSOR && !dtype_is_float(elem) && a[1]->kind == EX_CONST_FLOAT && strcmp(n, "sub") != 0 &&
        !integer_op) {
        if (!(a[0] = cast_to(p, a[0], DT_FP32, call->span))) return false;    /* int tensor * 2.5 -> FP32 */
        elem = DT_FP32;
    }
    a[1] = retype_literal(p, a[1], elem);
    return true;
}

static bool is_col_vector(const Expr *e) { int64_t v; return e->type->rank == 2 && ir_is_const_int(e->type->shape[1], &v) && v == 1; }
static bool is_row_vector(const Expr *e) { int64_t v; return e->type->rank == 2 && ir_is_const_int(e->type->shape[0], &v) && v == 1; }
static bool same_dim(const Expr *a, const Expr *b, int d) {
    int64_t x, y;
    return ir_is_const_int(a->type->shape[d], &x) && ir_is_const_int(b->type->shape[d], &y) && x == y;
}

/* [M, N] op [M, 1] -> row_expand_op; [M, N] op [1, N] -> col_expand_op; the vector on the left:
 * commutative ops swap, sub/div expand the vector first. */
static bool broadcast_form(Parser *p, Expr *call) {
    Expr **a = call->call.args;
    if (a[0]->type->rank != 2 || a[1]->type->rank != 2 || (same_dim(a[0], a[1], 0) && same_dim(a[0], a[1], 1))) return true;
    static const struct { const char *bin, *expand; } map[] = {
        { "add", "add" }, { "sub", "sub" }, { "mul", "mul" }, { "div", "div" }, { "maximum", "max" }, { "minimum", "min" }, { NULL, NULL }
    };
    const char *n = ir_vec_short_name(call->call.op), *suffix = NULL;
    for (int i = 0; map[i].bin; i++) if (strcmp(n, map[i].bin) == 0) suffix = map[i].expand;
    if (!suffix) return true;
    for (int left = 0; left < 2; left++) {
        Expr *wide = a[left ? 1 : 0], *vec = a[left ? 0 : 1];
        bool row = is_col_vector(vec) && same_dim(vec, wide, 0) && !is_col_vector(wide);
        bool col = !row && is_row_vector(vec) && same_dim(vec, wide, 1) && !is_row_vector(wide);
        if (!row && !col) continue;
        char buf[32];
        if (left && (strcmp(suffix, "sub") == 0 || strcmp(suffix, "div") == 0)) {   /* vec op wide, as written */
            Expr *full = typed_call(p, sibling(call->call.op, row ? "row_expand" : "col_expand"), (Expr *[]){ wide, vec }, 2, call->span);
            if (!full) return false;
            a[0] = full;
            return true;
        }
        snprintf(buf, sizeof buf, "%s_expand_%s", row ? "row" : "col", suffix);
        call->call.op = sibling(call->call.op, buf);
        a[0] = wide;
        a[1] = vec;
        return true;
    }
    return true;                                         /* deduction reports the shapes */
}

static bool promote_operands(Parser *p, Expr *call, int i, int j) {
    Expr **a = call->call.args;
    if (!is_shaped(a[i]) || !is_shaped(a[j]) || a[i]->type->dtype == a[j]->type->dtype) return true;
    DType to = promote(a[i]->type->dtype, a[j]->type->dtype);
    return (a[i] = cast_to(p, a[i], to, call->span)) && (a[j] = cast_to(p, a[j], to, call->span));
}

bool front_vec_rewrite(Parser *p, Expr *call) {
    VecKind k = ir_vec_kind(call->call.op);
    const OpInfo *info = ir_op_info(call->call.op);
    if ((info->flags & OPF_TILE) && (k == VK_BINARY || k == VK_SCALAR) && info->min_args == 3 && call->call.nargs == 2) {
        front_error(p, call->span, "%s needs a scratch tile as its third operand: pl.%s(x, %s, tmp), tmp a Vec tile %s (the tensor "
                    "form creates it)", info->name, ir_vec_short_name(call->call.op), k == VK_SCALAR ? "s" : "y",
                    strcmp(ir_vec_short_name(call->call.op), "prelu") == 0 ? "of UINT8 with at least rows + 1 rows and cols / 8 columns"
                                                                          : "of x's shape and dtype");
        return false;
    }
    switch (k) {
    case VK_EXPANDS:
        if (call->call.nargs == 2 && is_shaped(call->call.args[0]) && is_scalar(call->call.args[1]))
            call->call.args[1] = retype_literal(p, call->call.args[1], call->call.args[0]->type->dtype);
        return true;
    case VK_BINARY: {
        if (call->call.nargs < 2) return true;
        if (!scalar_form(p, call)) return false;
        if (ir_vec_kind(call->call.op) != VK_BINARY || !is_shaped(call->call.args[1])) return true;
        const char *n = ir_vec_short_name(call->call.op);
        if (strcmp(n, "shl") == 0 || strcmp(n, "shr") == 0) {   /* the result has the lhs dtype: counts are cast to it */
            Expr **a = call->call.args;
            return !is_shaped(a[0]) || (a[1] = cast_to(p, a[1], a[0]->type->dtype, call->span)) != NULL;
        }
        return promote_operands(p, call, 0, 1) && broadcast_form(p, call);
    }
    case VK_ROW_EXPAND: case VK_COL_EXPAND:
        return call->call.nargs != 2 || promote_operands(p, call, 0, 1);
    case VK_CMP:
        if (call->call.nargs == 2 && is_shaped(call->call.args[0]) && is_scalar(call->call.args[1])) {
            call->call.op = sibling(call->call.op, "cmps");
            return true;
        }
        return call->call.nargs != 2 || promote_operands(p, call, 0, 1);
    case VK_SEL:
        return call->call.nargs < 3 || promote_operands(p, call, 1, 2);
    case VK_SELS: {
        int last = call->call.nargs - 1;
        if (call->call.nargs >= 3 && is_shaped(call->call.args[1]) && is_scalar(call->call.args[last]))
            call->call.args[last] = retype_literal(p, call->call.args[last], call->call.args[1]->type->dtype);
        return true;
    }
    case VK_SCALAR:
        if (call->call.nargs == 2 && is_shaped(call->call.args[0]) && is_scalar(call->call.args[1]))
            call->call.args[1] = retype_literal(p, call->call.args[1], call->call.args[0]->type->dtype);
        return true;
    default: return true;
    }
}
