/* sugar — the user-form conveniences: pl.<op>(...) dispatch by operand kind, tensor slicing
 * a[r0:r1, :] -> tensor.slice, and slice stores c[...] = x -> c = tensor.assemble(c, x, offsets).
 *
 * Requires: parse_expr.c (call arguments, call validation), parse.c (tokens).
 * Produces: op calls typed by ir_deduce_call. Dispatch: a Tensor first operand selects tensor.<op>,
 * a Tile selects tile.<op>; when only one of the two exists it is used (pl.load -> tile.load);
 * pl.create_tensor -> tensor.create, pl.create_tile -> tile.create; the arguments are then bound
 * to the op's parameter list (call_sig.c: keywords, defaults such as valid_shape = shapes). Slices need static sizes; steps, scalar indices and negative indices
 * are rejected with a hint. */
#include "front/front_internal.h"

#include <string.h>

/* ---------------------------------------------------------------- suggestions */
static int edit_distance(const char *a, const char *b) {
    int la = (int)strlen(a), lb = (int)strlen(b);
    if (la > 63 || lb > 63) return 99;
    int d[64][64];
    for (int i = 0; i <= la; i++) d[i][0] = i;
    for (int j = 0; j <= lb; j++) d[0][j] = j;
    for (int i = 1; i <= la; i++)
        for (int j = 1; j <= lb; j++) {
            int c = d[i - 1][j - 1] + (a[i - 1] != b[j - 1]);
            if (d[i - 1][j] + 1 < c) c = d[i - 1][j] + 1;
            if (d[i][j - 1] + 1 < c) c = d[i][j - 1] + 1;
            d[i][j] = c;
        }
    return d[la][lb];
}

static const char *const aliases[] = { "create_tensor", "create_tile", "const", "min", "max", "abs", "cast", NULL };

/* name: "tile.matmull" (qualified) or "matmull" (short): the closest known name in the same form */
const char *front_suggest_op(const char *name) {
    bool qualified = strchr(name, '.') != NULL;
    const char *best = NULL;
    int bestd = 3;
    for (int i = 0; i < OP_COUNT; i++) {
        const char *full = ir_op_info((OpId)i)->name;
        const char *cand = qualified ? full : strchr(full, '.') + 1;
        int dd = edit_distance(name, cand);
        if (dd < bestd) { bestd = dd; best = cand; }
    }
    for (int i = 0; !qualified && aliases[i]; i++) {
        int dd = edit_distance(name, aliases[i]);
        if (dd < bestd) { bestd = dd; best = aliases[i]; }
    }
    return best;
}

/* ---------------------------------------------------------------- pl.<op> dispatch */
static OpId lookup2(const char *prefix, const char *name) {
    char buf[96];
    snprintf(buf, sizeof buf, "%s.%s", prefix, name);
    return ir_op_lookup(buf);
}

/* pl.cast(input=t, ...): the type of the op's first parameter given by keyword (NULL if none) */
static const Type *first_keyword_type(OpId op, const Expr *call) {
    const char *sig = op != OP_NONE ? front_call_signature(ir_op_info(op)->name) : NULL;
    if (!sig) return NULL;
    char first[32];
    size_t n = strcspn(sig, " =");
    if (n >= sizeof first) return NULL;
    memcpy(first, sig, n);
    first[n] = 0;
    const AttrVal *v = ir_attr_get(&call->call.kwargs, first);
    return v && v->kind == AV_EXPR && v->expr ? v->expr->type : NULL;
}

static OpId dispatch(const Parser *p, const char *name, const Expr *call) {
    if (strcmp(name, "create_tensor") == 0) return OP_TENSOR_CREATE;
    if (strcmp(name, "create_tile") == 0) return OP_TILE_CREATE;
    if (strcmp(name, "full") == 0)        /* no operand decides: a kernel function works on tiles */
        return p->fn && (p->fn->type == FT_INCORE || p->fn->type == FT_AIC || p->fn->type == FT_AIV) ? OP_TILE_FULL : OP_TENSOR_FULL;
    OpId t = lookup2("tensor", name), l = lookup2("tile", name);
    const Type *a0 = call->call.nargs ? call->call.args[0]->type : first_keyword_type(t, call);
    if (!a0) a0 = first_keyword_type(l, call);
    if (a0 && a0->kind == TY_SCALAR && call->call.nargs > 1)   /* pl.mul(3.0, t): the shaped operand decides */
        a0 = call->call.args[1]->type;
    if (t != OP_NONE && a0 && a0->kind == TY_TENSOR) return t;
    if (l != OP_NONE && a0 && a0->kind == TY_TILE) return l;
    if (t != OP_NONE && l == OP_NONE) return t;
    if (l != OP_NONE && t == OP_NONE) return l;
    return t != OP_NONE ? t : l;
}

/* PyPTO ops ptoc does not implement yet (spec/ops.md scope): named as such, with what is supported. */
static const char *const not_yet[] = {
    "reinterpret_view", "gather", "scatter", "sort32", "addc", "subc", "addsc", "subsc", NULL
};
#define VECTOR_SUPPORTED "dim, add sub mul div maximum minimum (and their scalar forms adds subs muls divs maximums minimums), " \
    "exp log sqrt rsqrt recip abs neg relu, sin cos (FP32), cast, full expands fillpad fillpad_expand tile.fillpad_inplace, " \
    "row_sum row_max row_min row_prod col_sum col_max col_min col_prod, row_argmax row_argmin col_argmax col_argmin, " \
    "row_expand[_add|_sub|_mul|_div|_max|_min|_expdif], col_expand[_add|_sub|_mul|_div|_max|_min|_expdif], reshape transpose " \
    "transpose_view concat (2-D), tile slice and set_validshape, cmp cmps sel sels, fmod fmods rem rems, " \
    "and_ or_ xor ands ors xors not_ shl shr shls shrs, lrelu prelu, part_add part_mul part_max part_min, read write (one element)"

bool front_not_yet_supported(Parser *p, const char *dotted, Span sp) {
    const char *name = strrchr(dotted, '.');
    name = name ? name + 1 : dotted;
    for (int i = 0; not_yet[i]; i++)
        if (strcmp(name, not_yet[i]) == 0) {
            front_error(p, sp, "'%s' is a PyPTO operation ptoc does not support yet; the vector operations ptoc supports: %s",
                        dotted, VECTOR_SUPPORTED);
            return true;
        }
    return false;
}

Expr *front_sugar_call(Parser *p, const char *dotted, Span sp) {
    const char *name = dotted + 3;
    if (strcmp(dotted, "pl.dynamic") == 0) return front_dynamic_dim(p, sp);   /* a -D bound dimension (parse.c) */
    if (strncmp(dotted, "pl.", 3) != 0 || strchr(name, '.')) {
        front_error(p, sp, "unknown operation '%s'", dotted);
        return NULL;
    }
    Expr *call = ir_call(p->c, OP_NONE, NULL, 0);
    call->span = sp;
    OpId probe = dispatch(p, name, call);
    if (probe == OP_NONE) {
        if (front_not_yet_supported(p, dotted, sp)) return NULL;
        const char *s = front_suggest_op(name);
        if (s) front_error(p, sp, "unknown operation '%s' (did you mean pl.%s?)", dotted, s);
        else front_error(p, sp, "unknown operation '%s'", dotted);
        return NULL;
    }
    if (!front_parse_call_args(p, call)) return NULL;
    call->call.op = dispatch(p, name, call);
    return front_finish_call(p, call) ? call : NULL;
}

/* ---------------------------------------------------------------- slices */
static bool same_expr(const Expr *a, const Expr *b) {
    if (a->kind != b->kind) return false;
    if (a->kind == EX_VAR) return a->var == b->var;
    if (a->kind == EX_CONST_INT) return a->ci.value == b->ci.value;
    if (a->kind == EX_BINARY)
        return a->bin.op == b->bin.op && same_expr(a->bin.lhs, b->bin.lhs) && same_expr(a->bin.rhs, b->bin.rhs);
    return false;
}

/* hi - lo when it is a compile-time constant */
static bool static_diff(const Expr *lo, const Expr *hi, int64_t *out) {
    int64_t a, b;
    if (ir_is_const_int(lo, &a) && ir_is_const_int(hi, &b)) { *out = b - a; return true; }
    if (hi->kind == EX_BINARY && hi->bin.op == BIN_ADD) {
        if (same_expr(hi->bin.lhs, lo) && ir_is_const_int(hi->bin.rhs, &b)) { *out = b; return true; }
        if (same_expr(hi->bin.rhs, lo) && ir_is_const_int(hi->bin.lhs, &b)) { *out = b; return true; }
    }
    return false;
}

typedef struct Window { Expr *offs[8]; int64_t size[8]; bool scalar[8]; int n, nscalar; Span span, first_scalar; } Window;

static Expr *slice_bound(Parser *p) {
    Span sp = front_peek(p, 0)->span;
    Expr *e = front_parse_expr(p);
    if (!e) return NULL;
    if (!e->type || e->type->kind != TY_SCALAR) { front_error(p, sp, "slice bounds must be scalars"); return NULL; }
    int64_t v;
    if (ir_is_const_int(e, &v) && v < 0) {
        front_error(p, sp, "negative indices are not supported in slices; write the offset from the start");
        return NULL;
    }
    return e;
}

/* one dimension: ':' | lo ':' hi | lo ':' | ':' hi */
static bool parse_dim(Parser *p, const Type *t, int i, Window *w) {
    Span sp = front_peek(p, 0)->span;
    Expr *lo = NULL, *hi = NULL;
    if (!front_is_op(p, ":")) {
        if (!(lo = slice_bound(p))) return false;
        if (!front_is_op(p, ":")) {                      /* a scalar index: x[i, j] reads one element */
            w->offs[i] = lo;
            w->size[i] = 1;
            w->scalar[i] = true;
            if (!w->nscalar++) w->first_scalar = sp;
            return true;
        }
    }
    front_next(p);                                       /* ':' */
    if (!front_is_op(p, ",") && !front_is_op(p, "]") && !front_is_op(p, ":"))
        if (!(hi = slice_bound(p))) return false;
    if (front_is_op(p, ":")) { front_error(p, front_peek(p, 0)->span, "slice steps are not supported"); return false; }
    int64_t dim = ir_type_dim(t, i), size;
    if (!lo) lo = ir_const_int(p->c, 0, DT_INDEX);
    if (!hi) hi = ir_const_int(p->c, dim, DT_INDEX);
    if (!static_diff(lo, hi, &size)) {
        front_error(p, front_span_join(sp, front_prev_span(p)),
                    "the slice size must be a compile-time constant (write lo:lo + SIZE)");
        return false;
    }
    if (size <= 0) { front_error(p, front_span_join(sp, front_prev_span(p)), "empty slice (size %lld)", (long long)size); return false; }
    w->offs[i] = lo;
    w->size[i] = size;
    return true;
}

static bool parse_window(Parser *p, const Expr *base, Window *w) {
    const Type *t = base->type;
    Tok *open = front_next(p);                           /* '[' */
    w->n = w->nscalar = 0;
    w->span = open->span;
    if (!t || (t->kind != TY_TENSOR && t->kind != TY_TILE)) {
        front_error(p, open->span, "only tensors can be sliced (got a non-tensor value)");
        return false;
    }
    while (!p->failed && !front_is_op(p, "]")) {
        if (w->n >= t->rank) { front_error(p, front_peek(p, 0)->span, "too many indices for a rank-%d tensor", t->rank); return false; }
        if (!parse_dim(p, t, w->n, w)) return false;
        w->n++;
        if (!front_accept_op(p, ",")) break;
    }
    if (!front_expect_op(p, "]", "to close the subscript")) return false;
    Span whole = front_span_join(open->span, front_prev_span(p));
    if (w->nscalar == t->rank && w->n == t->rank) { w->span = whole; return true; }   /* one element */
    if (t->kind == TY_TILE) {
        front_error(p, whole, "only tensors can be sliced (got a tile); a full index t[i, j] reads one element, "
                    "pl.tile.slice makes a sub-tile view");
        return false;
    }
    if (w->nscalar) {
        front_error(p, w->first_scalar, "indexing a dimension with a scalar is not supported; use a slice such as i:i + 1 "
                    "(an index for every dimension, x[i, j], reads one element)");
        return false;
    }
    for (; w->n < t->rank; w->n++) {
        w->offs[w->n] = ir_const_int(p->c, 0, DT_INDEX);
        w->size[w->n] = ir_type_dim(t, w->n);
    }
    w->span = front_span_join(open->span, front_prev_span(p));
    return true;
}

Expr *front_sugar_subscript(Parser *p, Expr *base) {
    Window w;
    if (!parse_window(p, base, &w)) return NULL;
    if (base->type->rank > 8) { front_error(p, w.span, "slicing tensors of rank above 8 is not supported"); return NULL; }
    if (w.nscalar) {                                     /* x[i, j]: pl.read(x, [i, j]) */
        Expr *args[2] = { base, ir_tuple(p->c, w.offs, w.n) };
        Expr *call = ir_call(p->c, base->type->kind == TY_TILE ? OP_TILE_READ : OP_TENSOR_READ, args, 2);
        call->span = base->span.line ? front_span_join(base->span, w.span) : w.span;
        return front_finish_call(p, call) ? call : NULL;
    }
    Expr *args[3] = { base, ir_int_tuple(p->c, w.size, w.n), ir_tuple(p->c, w.offs, w.n) };
    Expr *call = ir_call(p->c, OP_TENSOR_SLICE, args, 3);
    call->span = w.span;
    return front_finish_call(p, call) ? call : NULL;
}

bool front_sugar_store(Parser *p, StmtList *body, Var *target, Span sp) {
    Window w;
    if (!parse_window(p, ir_ref(target), &w)) return false;
    if (target->type->rank > 8) { front_error(p, w.span, "slicing tensors of rank above 8 is not supported"); return false; }
    if (!front_expect_op(p, "=", "after the subscript")) return false;
    Span vsp = front_peek(p, 0)->span;
    Expr *val = front_parse_expr(p);
    if (!val) return false;
    const Type *vt = val->type;
    if (w.nscalar) {                                     /* x[i, j] = v: pl.write(x, [i, j], v) */
        Expr *args[3] = { ir_ref(target), ir_tuple(p->c, w.offs, w.n), val };
        Expr *call = ir_call(p->c, target->type->kind == TY_TILE ? OP_TILE_WRITE : OP_TENSOR_WRITE, args, 3);
        call->span = front_span_join(sp, front_prev_span(p));
        if (!front_finish_call(p, call)) return false;
        Stmt *s = ir_assign(p->c, target, call);
        s->span = sp;
        ir_list_push(p->c, body, s);
        return true;
    }
    if (vt && (vt->kind == TY_TENSOR || vt->kind == TY_TILE) && vt->rank == w.n) {
        for (int i = 0; i < w.n; i++)
            if (vt->shape[i]->kind == EX_CONST_INT && vt->shape[i]->ci.value != w.size[i]) {
                front_error(p, vsp, "the value's dim %d is %lld but the slice of '%s' is %lld wide", i,
                            (long long)vt->shape[i]->ci.value, target->name, (long long)w.size[i]);
                return false;
            }
    }
    Expr *args[3] = { ir_ref(target), val, ir_tuple(p->c, w.offs, w.n) };
    Expr *call = ir_call(p->c, OP_TENSOR_ASSEMBLE, args, 3);
    call->span = front_span_join(sp, front_prev_span(p));
    if (!front_finish_call(p, call)) return false;
    Stmt *s = ir_assign(p->c, target, call);
    s->span = sp;
    ir_list_push(p->c, body, s);
    return true;
}
