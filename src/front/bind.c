/* bind — specialisation of a @pl.jit function by a FrontBinding (spec/language.md §1.1): unshaped
 * `pl.Tensor` parameters take the bound shape and dtype, scalar parameters bound to a value are
 * substituted as literals, and the body reads `x.shape`, `x.shape[i]`, `M, N = x.shape` and
 * `x.dtype` as constants.
 *
 * Requires: parse.c (tokens, symbols), parse_expr.c (expressions).
 * Produces: parameter types (front_bind_param), literal symbols (front_bind_scalars), constant
 *           expressions for shape / dtype attributes (front_var_attr, front_assign_unpack).
 * Does: a binding comes from the command line (--arg, --in: span SPAN_NONE), the main block (the
 *       call's span) or a helper's first call site (the argument's span); messages name the origin.
 *       The layout slot of a parameter always comes from its annotation (a binding has none). */
#include "front/front_internal.h"

#include <string.h>

/* ---------------------------------------------------------------- the unshaped marker */
bool front_type_is_unshaped(const Type *t) { return t && t->kind == TY_TENSOR && t->rank < 0; }

Type *front_unshaped_tensor(Parser *p) {
    Type *t = ARENA_NEW(p->c->arena, Type);
    t->kind = TY_TENSOR;
    t->rank = -1;
    t->dtype = DT_NONE;
    t->space = MS_DDR;
    return t;
}

static const FrontArg *find_arg(const FrontBinding *b, const char *name) {
    for (int i = 0; b && i < b->nargs; i++)
        if (b->args[i].name && strcmp(b->args[i].name, name) == 0) return &b->args[i];
    return NULL;
}

/* "[64, 128] FP32", "the integer 64", ... */
static void describe_arg(const FrontArg *a, StrBuf *sb) {
    switch (a->kind) {
    case FA_TENSOR:
        sb_puts(sb, "a tensor [");
        for (int i = 0; i < a->rank; i++) sb_printf(sb, "%s%lld", i ? ", " : "", (long long)a->dims[i]);
        sb_printf(sb, "] of %s", dtype_name(a->dtype));
        break;
    case FA_INT: sb_printf(sb, "the integer %lld", (long long)a->ival); break;
    case FA_FLOAT: sb_printf(sb, "the float %g", a->fval); break;
    case FA_BOOL: sb_printf(sb, "the boolean %s", a->ival ? "True" : "False"); break;
    }
}

/* "on the command line" / "by the call at line 41" */
static void describe_origin(const FrontArg *a, StrBuf *sb) {
    if (a->span.line > 0) sb_printf(sb, "by the call at line %d", a->span.line);
    else sb_puts(sb, "on the command line");
}

static void unbound_error(Parser *p, const char *name, Span sp, ParamDir dir) {
    const char *fn = p->fn ? p->fn->name : "?";
    if (p->call_site.line > 0) {
        front_error(p, sp, "parameter '%s' of helper '%s' is an unshaped pl.Tensor, but its first call (line %d) passes no tensor "
                    "for it; pass a tensor or annotate it (%s: pl.Tensor[[128, 128], pl.FP32])", name, fn, p->call_site.line, name);
        return;
    }
    front_error(p, sp, "parameter '%s' of '%s' is an unshaped pl.Tensor and nothing binds its shape; give one on the command line "
                "(--arg %s=128x128:fp32)%s%s%s, call '%s' with tensors in the file's main block, or annotate it "
                "(%s: pl.Tensor[[128, 128], pl.FP32])", name, fn, name, dir == PD_OUT ? "" : ", read it from a .npy file (--in ",
                dir == PD_OUT ? "" : name, dir == PD_OUT ? "" : "=file.npy)", fn, name);
}

static bool same_as_bound(const Type *t, const FrontArg *a) {
    if (t->dtype != a->dtype || t->rank != a->rank) return false;
    for (int i = 0; i < t->rank; i++) {
        int64_t v;
        if (!ir_is_const_int(t->shape[i], &v) || v != a->dims[i]) return false;
    }
    return true;
}

static Type *bound_tensor(Parser *p, const char *name, Span sp, const FrontArg *a, TensorLayout layout) {
    Span at = a->span.line > 0 ? a->span : sp;
    if (a->rank < 0 || a->rank > 8) { front_error(p, at, "parameter '%s' is bound to a tensor of rank %d (1 to 8 supported)", name, a->rank); return NULL; }
    for (int i = 0; i < a->rank; i++)
        if (a->dims[i] < 0) { front_error(p, at, "parameter '%s' is bound to a negative dimension %lld", name, (long long)a->dims[i]); return NULL; }
    if (!dtype_is_supported(a->dtype)) {
        front_error(p, at, "parameter '%s' is bound to elements of %s, which ptoc does not support (element types: %s)", name,
                    dtype_name(a->dtype), DTYPE_SUPPORTED_LIST);
        return NULL;
    }
    int64_t bytes;
    if (!ir_shape_bytes(a->dtype, a->dims, a->rank, &bytes)) {
        front_error(p, at, "parameter '%s' is bound to a tensor whose size in bytes does not fit in a 64-bit integer", name);
        return NULL;
    }
    Type *t = ir_tensor_type(p->c, a->dtype, a->rank, a->dims);
    t->layout = layout;
    return t;
}

void front_bind_dynamic_dims(Parser *p, const char *name) {
    const FrontArg *a = find_arg(p->binding, name);
    if (!a || a->kind != FA_TENSOR) return;
    int k = p->pos, depth = 0;
    for (; k + 1 < p->ntoks && p->toks[k].kind != TK_NEWLINE; k++) {      /* the shape list: the first "[[" */
        if (p->toks[k].kind == TK_OP && !strcmp(p->toks[k].text, "[") && p->toks[k + 1].kind == TK_OP && !strcmp(p->toks[k + 1].text, "[")) break;
        if (p->toks[k].kind == TK_OP && !strcmp(p->toks[k].text, ",") && depth == 0) return;   /* the next parameter */
        if (p->toks[k].kind == TK_OP && strchr("([", p->toks[k].text[0])) depth++;
        if (p->toks[k].kind == TK_OP && strchr(")]", p->toks[k].text[0])) depth--;
    }
    if (k + 1 >= p->ntoks || p->toks[k].kind == TK_NEWLINE) return;
    k += 2;
    for (int i = 0; i < a->rank && k + 1 < p->ntoks; i++) {
        const Tok *t = &p->toks[k], *after = &p->toks[k + 1];
        bool single = t->kind == TK_NAME && after->kind == TK_OP && (!strcmp(after->text, ",") || !strcmp(after->text, "]"));
        ConstSym *c = single ? (ConstSym *)front_const_find(&p->consts, t->text) : NULL;
        if (c && c->kind == CK_DYNAMIC) {        /* M = pl.dynamic("M"): its extent is the bound dimension */
            c->kind = CK_INT;
            c->ival = a->dims[i];
        }
        while (k < p->ntoks && !(p->toks[k].kind == TK_OP && (!strcmp(p->toks[k].text, ",") || !strcmp(p->toks[k].text, "]")))) k++;
        if (k >= p->ntoks || !strcmp(p->toks[k].text, "]")) return;
        k++;
    }
}

Type *front_bind_param(Parser *p, const char *name, Span sp, Type *t, ParamDir dir) {
    const FrontArg *a = find_arg(p->binding, name);
    if (a && a->shape_only && !front_type_is_unshaped(t)) a = NULL;
    StrBuf what = {0}, from = {0}, decl = {0};
    Type *r = t;
    if (a) { describe_arg(a, &what); describe_origin(a, &from); }
    if (t->kind == TY_SCALAR && a && a->kind == FA_TENSOR) {
        ir_print_type(t, &decl);
        front_error(p, sp, "parameter '%s' is %s but is bound to %s %s", name, sb_cstr(&decl), sb_cstr(&what), sb_cstr(&from));
        r = NULL;
    } else if (t->kind == TY_TENSOR && a && a->kind != FA_TENSOR) {
        front_error(p, sp, "parameter '%s' is a tensor but is bound to %s %s; bind a shape such as %s=128x128:fp32", name,
                    sb_cstr(&what), sb_cstr(&from), name);
        r = NULL;
    } else if (front_type_is_unshaped(t)) {
        if (!a) { unbound_error(p, name, sp, dir); r = NULL; }
        else r = bound_tensor(p, name, sp, a, t->layout);
    } else if (t->kind == TY_TENSOR && a && !same_as_bound(t, a)) {
        ir_print_type(t, &decl);
        front_error(p, sp, "parameter '%s' is declared %s but is bound to %s %s; drop the annotation's shape (%s: pl.Tensor) or "
                    "bind the declared one", name, sb_cstr(&decl), sb_cstr(&what), sb_cstr(&from), name);
        r = NULL;
    }
    sb_free(&what);
    sb_free(&from);
    sb_free(&decl);
    return r;
}

/* A bound scalar parameter: upstream substitutes the Python value as a literal wherever the
 * parameter is read (and keeps the parameter, which ptoc drops: see drop_param). The value reads
 * as the literal would: an integer is a compile-time constant (usable in shapes), a float an FP32
 * literal, a boolean True / False. */
static bool bind_scalar(Parser *p, Var *v, const FrontArg *a) {
    Sym *s = front_sym_find(p, v->name);
    DType dt = v->type->dtype;
    PTOC_ASSERT(s, "a parameter without a symbol");
    if (a->kind == FA_FLOAT && !dtype_is_float(dt)) {
        front_error(p, v->span, "parameter '%s' is pl.Scalar[pl.%s] but is bound to the float %g; bind an integer", v->name,
                    dtype_name(dt), a->fval);
        return false;
    }
    if (dtype_is_float(dt)) {
        s->lit = ir_const_float(p->c, a->kind == FA_FLOAT ? a->fval : (double)a->ival, DT_FP32);   /* as a float literal reads */
    } else if (dt == DT_BOOL || a->kind == FA_BOOL) {
        s->lit = ir_const_bool(p->c, a->ival != 0);
    } else {
        s->cval = a->ival;
        s->lit = NULL;
    }
    s->var = NULL;
    return true;
}

/* Removes parameter i: ptoc's runtime passes tensors only to an entry, and the substituted
 * parameter is never read. */
static void drop_param(Function *f, int i) {
    int rest = f->params.len - i - 1;
    memmove(&f->params.items[i], &f->params.items[i + 1], sizeof(Var *) * (size_t)rest);
    if (f->param_dirs) memmove(&f->param_dirs[i], &f->param_dirs[i + 1], sizeof(ParamDir) * (size_t)rest);
    f->params.len--;
}

bool front_bind_scalars(Parser *p, Function *f) {
    const FrontBinding *b = p->binding;
    if (p->call_site.line > 0 || !b) return true;  /* helpers: only tensors are bound, from the call */
    for (int i = 0; i < b->nargs; i++) {           /* the entry: every bound name must be a parameter */
        bool found = b->args[i].shape_only;         /* --in: drv_bind_file names a wrong one */
        for (int k = 0; k < f->params.len && !found; k++) found = strcmp(f->params.items[k]->name, b->args[i].name) == 0;
        if (found) continue;
        StrBuf names = {0};
        for (int k = 0; k < f->params.len; k++) sb_printf(&names, "%s%s", k ? ", " : "", f->params.items[k]->name);
        front_error(p, b->args[i].span.line > 0 ? b->args[i].span : f->span, "'%s' binds no parameter of '%s' (parameters: %s)",
                    b->args[i].name, f->name, f->params.len ? sb_cstr(&names) : "none");
        sb_free(&names);
        return false;
    }
    for (int i = 0; i < f->params.len;) {
        Var *v = f->params.items[i];
        const FrontArg *a = find_arg(b, v->name);
        if (!a || a->kind == FA_TENSOR || v->type->kind != TY_SCALAR) { i++; continue; }
        if (!bind_scalar(p, v, a)) return false;
        drop_param(f, i);
    }
    return true;
}

/* ---------------------------------------------------------------- x.shape, x.dtype */
static Expr *shape_tuple(Parser *p, Var *v, Span sp) {
    int64_t dims[16];
    if (v->type->rank > 16 || !ir_type_static_dims(v->type, dims)) {
        front_error(p, sp, "'%s.shape' needs a static shape", v->name);
        return NULL;
    }
    Expr *e = ir_int_tuple(p->c, dims, v->type->rank);
    e->span = sp;
    return e;
}

/* at '[' after x.shape: an integer literal index (negative counts from the end) */
static Expr *shape_item(Parser *p, Var *v, Span sp) {
    front_next(p);
    bool neg = front_accept_op(p, "-");
    Tok *i = front_next(p);
    int r = v->type->rank;
    bool ok = i->kind == TK_INT && !i->too_big && (neg ? i->uval >= 1 && i->uval <= (uint64_t)r : i->uval < (uint64_t)r);
    if (!ok) {
        front_error(p, i->span, "'%s.shape' has %d dimensions: the index must be an integer literal in [%d, %d]", v->name, r, -r, r - 1);
        return NULL;
    }
    if (!front_expect_op(p, "]", "after the shape index")) return NULL;
    int k = neg ? r - (int)i->uval : (int)i->uval;
    int64_t d;
    if (!ir_is_const_int(v->type->shape[k], &d)) { front_error(p, sp, "dimension %d of '%s' is not static", k, v->name); return NULL; }
    Expr *e = ir_const_int(p->c, d, DT_INDEX);
    e->span = front_span_join(sp, front_prev_span(p));
    return e;
}

Expr *front_var_attr(Parser *p, Var *v, Span sp) {
    Tok *a = front_peek(p, 1);
    if (!front_is_op(p, ".") || a->kind != TK_NAME || !v->type) return NULL;
    bool shape = strcmp(a->text, "shape") == 0, dtype = strcmp(a->text, "dtype") == 0;
    if (!shape && !dtype) return NULL;
    if (v->type->kind != TY_TENSOR && v->type->kind != TY_TILE) {
        front_error(p, a->span, "'%s.%s': '%s' is not a tensor or a tile", v->name, a->text, v->name);
        return NULL;
    }
    front_next(p);
    front_next(p);
    sp = front_span_join(sp, a->span);
    if (dtype) {
        Expr *e = ARENA_NEW(p->c->arena, Expr);
        e->kind = EX_ENUM;
        e->span = sp;
        e->enm = ir_av_dtype(v->type->dtype);
        return e;
    }
    return front_is_op(p, "[") ? shape_item(p, v, sp) : shape_tuple(p, v, sp);
}

/* M, N = x.shape: each constant item becomes a compile-time constant (as `M = 64` would), unless
 * the name is assigned elsewhere (then it is a variable, as for a single assignment). */
bool front_assign_unpack(Parser *p, StmtList *body, const char **names, Span *spans, int n, Span sp) {
    Span vsp = front_peek(p, 0)->span;
    Expr *v = front_parse_expr(p);
    if (!v) return false;
    if (v->kind != EX_TUPLE || v->tuple.n != n) {
        front_error(p, v->span.line ? v->span : vsp, "%d name%s on the left need%s a tuple of %d value%s, such as x.shape of a rank-%d "
                    "tensor (tuple assignment supports x.shape, literal tuples and pl.yield_)", n, n == 1 ? "" : "s",
                    n == 1 ? "s" : "", n, n == 1 ? "" : "s", n);
        return false;
    }
    for (int i = 0; i < n; i++) {
        Expr *x = v->tuple.items[i];
        Sym *s = front_sym_find(p, names[i]);
        if (!x->type || x->type->kind != TY_SCALAR) { front_error(p, spans[i], "'%s' would receive a value that is not a scalar", names[i]); return false; }
        if (x->kind == EX_CONST_INT && x->type->dtype == DT_INDEX && (!s || !s->var) && !front_is_variable_name(p, names[i])) {
            if (s) { s->cval = x->ci.value; s->lit = NULL; }
            else vec_push(&p->syms, ((Sym){ front_intern(p, names[i]), NULL, x->ci.value, false, p->loop_depth, NULL }));
            continue;
        }
        Stmt *st = ir_assign(p->c, front_bind(p, names[i], x->type, spans[i]), x);
        st->span = sp;
        ir_list_push(p->c, body, st);
    }
    return true;
}
