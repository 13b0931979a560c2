/* parse_expr — expressions, call arguments, attribute values and dicts.
 *
 * Requires: parse.c (tokens, symbols), parse_type.c (dtypes), sugar.c (pl.<op> dispatch, slices).
 * Produces: typed Expr trees. Python precedence (or < and < not < comparisons < | < ^ < & < shifts
 * < + - < * / // % < unary < ** < postfix); comparisons do not chain. A '-' directly before a
 * numeric literal yields a negative constant. Op calls are validated and typed with ir_deduce_call.
 * In the user form only, integer arithmetic on constants is folded. */
#include "front/front_internal.h"

#include <string.h>

static Expr *parse_or(Parser *p);

const char *front_parse_dotted(Parser *p, Span *sp) {
    Tok *t = front_peek(p, 0);
    if (t->kind != TK_NAME) { front_error(p, t->span, "expected a name"); return NULL; }
    *sp = t->span;
    front_next(p);
    if (!front_is_op(p, ".") || front_peek(p, 1)->kind != TK_NAME) return t->text;
    StrBuf sb = { 0 };
    sb_puts(&sb, t->text);
    while (front_is_op(p, ".") && front_peek(p, 1)->kind == TK_NAME) {
        front_next(p);
        Tok *n = front_next(p);
        sb_printf(&sb, ".%s", n->text);
        *sp = front_span_join(*sp, n->span);
    }
    const char *r = front_intern(p, sb_cstr(&sb));
    sb_free(&sb);
    return r;
}

static Expr *with_span(Expr *e, Span sp) { if (e && e->kind != EX_VAR) e->span = sp; return e; }

static bool is_scalar(const Expr *e) { return e->type && e->type->kind == TY_SCALAR; }

static Expr *make_binary(Parser *p, BinOp op, Expr *l, Expr *r, Span sp) {
    if (!l || !r) return NULL;
    if (!is_scalar(l) || !is_scalar(r)) {
        const char *tok = ir_binop_token(op);
        front_error(p, sp, "operator '%s' needs scalar operands; for tensors and tiles call an op such as pl.add(a, b)",
                    tok ? tok : "?");
        return NULL;
    }
    Expr *e = with_span(ir_binary(p->c, op, l, r), sp);
    if (p->user_form && l->kind == EX_CONST_INT && r->kind == EX_CONST_INT) e = with_span(front_fold(p, e), sp);
    return p->failed ? NULL : e;
}

/* ---------------------------------------------------------------- attribute values */
AttrVal front_expr_to_attr(Expr *e) {
    DType dt = e->type ? e->type->dtype : DT_NONE;
    if (e->kind == EX_CONST_INT && dt == DT_INDEX) return ir_av_int(e->ci.value);
    if (e->kind == EX_CONST_FLOAT && dt == DT_FP32) return (AttrVal){ .kind = AV_FLOAT, .f = e->cf.value };
    if (e->kind == EX_CONST_BOOL) return ir_av_bool(e->cb.value);
    if (e->kind == EX_ENUM) return e->enm;
    return (AttrVal){ .kind = AV_EXPR, .expr = e };
}

bool front_parse_attr_value(Parser *p, AttrVal *out) {
    if (p->failed) return false;
    Tok *t = front_peek(p, 0);
    if (t->kind == TK_STRING) { front_next(p); *out = ir_av_str(t->text); return true; }
    if (front_is_op(p, "[")) {                           /* '(' starts an expression: (a + b) * 2 */
        const char *close = "]";
        front_next(p);
        VEC(AttrVal) items = { 0 };
        while (!p->failed && !front_is_op(p, close)) {
            AttrVal v;
            if (!front_parse_attr_value(p, &v)) break;
            vec_push(&items, v);
            if (!front_accept_op(p, ",")) break;
        }
        bool ok = front_expect_op(p, close, "to close the list");
        *out = (AttrVal){ .kind = AV_LIST, .nitems = items.len };
        out->items = ARENA_ARRAY(p->c->arena, AttrVal, items.len ? items.len : 1);
        if (items.len) memcpy(out->items, items.data, sizeof(AttrVal) * (size_t)items.len);
        vec_free(&items);
        return ok;
    }
    if (front_is_name(p, "None")) { front_next(p); *out = ir_av_enum(front_intern(p, "None")); return true; }
    Expr *e = front_parse_expr(p);
    if (!e) return false;
    *out = front_expr_to_attr(e);
    return true;
}

bool front_parse_attr_dict(Parser *p, AttrList *out) {
    if (!front_expect_op(p, "{", "to start the attrs dict")) return false;
    while (!p->failed && !front_is_op(p, "}")) {
        Tok *k = front_peek(p, 0);
        if (k->kind != TK_STRING) { front_error(p, k->span, "attrs keys must be strings, e.g. {\"key\": value}"); return false; }
        front_next(p);
        if (!front_expect_op(p, ":", "after the attrs key")) return false;
        AttrVal v;
        if (!front_parse_attr_value(p, &v)) return false;
        ir_attr_set(p->c, out, k->text, v);
        if (!front_accept_op(p, ",")) break;
    }
    return front_expect_op(p, "}", "to close the attrs dict");
}

/* ---------------------------------------------------------------- calls */
bool front_parse_call_args(Parser *p, Expr *call) {
    if (!front_expect_op(p, "(", "to start the arguments")) return false;
    VEC(Expr *) args = { 0 };
    bool seen_kw = false;
    while (!p->failed && !front_is_op(p, ")")) {
        Tok *t = front_peek(p, 0);
        if (t->kind == TK_NAME && front_is_op_at(p, 1, "=")) {
            front_next(p);
            front_next(p);
            seen_kw = true;
            if (strcmp(t->text, "attrs") == 0) { if (!front_parse_attr_dict(p, &call->call.attrs)) break; }
            else {
                AttrVal v;
                if (!front_parse_attr_value(p, &v)) break;
                if (ir_attr_get(&call->call.kwargs, t->text)) { front_error(p, t->span, "keyword argument '%s' is given twice", t->text); break; }
                ir_attr_set(p->c, &call->call.kwargs, t->text, v);
            }
        } else {
            if (seen_kw) { front_error(p, t->span, "positional argument after keyword arguments"); break; }
            if ((t->kind == TK_STRING || front_is_name(p, "None")) && (front_is_op_at(p, 1, ",") || front_is_op_at(p, 1, ")"))) {
                /* pl.cast(x, pl.FP16, "rint"), pl.load(x, o, s, None, ...): an option value by position */
                front_next(p);
                Expr *e = ARENA_NEW(p->c->arena, Expr);
                e->kind = EX_ENUM;
                e->enm = t->kind == TK_STRING ? ir_av_str(t->text) : ir_av_enum(front_intern(p, "None"));
                e->span = t->span;
                vec_push(&args, e);
                if (!front_accept_op(p, ",")) break;
                continue;
            }
            Expr *e = front_parse_expr(p);
            if (!e) break;
            vec_push(&args, e);
        }
        if (!front_accept_op(p, ",")) break;
    }
    bool ok = front_expect_op(p, ")", "to close the argument list");
    call->call.args = ARENA_ARRAY(p->c->arena, Expr *, args.len ? args.len : 1);
    if (args.len) memcpy(call->call.args, args.data, sizeof(Expr *) * (size_t)args.len);
    call->call.nargs = args.len;
    vec_free(&args);
    return ok && !p->failed;
}

bool front_finish_call(Parser *p, Expr *call) {
    if (p->failed) return false;
    if (call->call.op != OP_NONE) {
        if (!front_bind_call(p, call)) return false;
        const OpInfo *info = ir_op_info(call->call.op);
        for (int i = 0; i < call->call.nargs; i++)
            if (call->call.args[i]->kind == EX_TUPLE && call->call.args[i]->tuple.n > 8) {
                front_error(p, call->call.args[i]->span, "%s: lists of more than 8 values are not supported", info->name);
                return false;
            }
        if ((info->flags & OPF_VEC) && !front_vec_rewrite(p, call)) return false;
        info = ir_op_info(call->call.op);
        bool needs_shaped = !(info->flags & OPF_ALLOC_ONLY) && call->call.op != OP_TENSOR_CREATE && ir_vec_kind(call->call.op) != VK_FULL &&
                            call->call.op != OP_TILE_TPOP_FROM_AIC && call->call.op != OP_TILE_TPOP_FROM_AIV;   /* pops take a shape */
        if (needs_shaped && call->call.nargs >= 1 && call->call.nargs >= info->min_args && call->call.nargs <= info->max_args) {
            const Expr *a0 = call->call.args[0];
            if (!a0->type || (a0->type->kind != TY_TENSOR && a0->type->kind != TY_TILE)) {
                front_error(p, a0->span.line ? a0->span : call->span, "%s: the first argument must be a tensor or a tile", info->name);
                return false;
            }
        }
    }
    if (!ir_deduce_call(p->c, call)) { p->failed = true; return false; }
    return true;
}

static Expr *call_program_fn(Parser *p, const char *name, Span sp, const char *prefix);
static Expr *parse_self_call(Parser *p) {
    Tok *self = front_next(p);
    front_next(p);                                       /* '.' */
    Span nsp;
    const char *name = front_expect_name(p, "a function name after 'self.'", &nsp);
    if (!name) return NULL;
    return call_program_fn(p, name, front_span_join(self->span, nsp), "self.");
}

/* A call of a function of the program: self.f(...), or f(...) of a module-level @pl.function. */
static Expr *call_program_fn(Parser *p, const char *name, Span sp, const char *prefix) {
    Function *f = p->prog ? ir_program_find(p->prog, name) : NULL;
    if (!f) { front_error(p, sp, "unknown function '%s%s'", prefix, name); return NULL; }
    Expr *call = ir_call_fn(p->c, f, NULL, 0);
    call->span = sp;
    if (!front_parse_call_args(p, call)) return NULL;
    for (int i = 0; i < call->call.nargs; i++)
        if (!call->call.args[i]->type) { front_error(p, call->call.args[i]->span, "this argument has no value type"); return NULL; }
    return front_finish_call(p, call) ? call : NULL;
}

/* ---------------------------------------------------------------- pl.* names */
static const char *const enum_spaces[] = { "pl.adir.", "pl.AtomicType.", "pl.TileLayout.", "pl.PadValue.", "pl.Level.", "pl.Role.",
                                           "pl.FunctionType.", "pl.ScopeMode.", "pl.TensorLayout.", "pl.SplitMode.", NULL };

static Expr *parse_pl_enum(Parser *p, const char *d, Span sp) {
    Expr *e = ARENA_NEW(p->c->arena, Expr);
    e->kind = EX_ENUM;
    e->span = sp;
    if (front_mem_space_name(d)) {
        MemSpace m = memspace_from_name(front_mem_space_name(d));
        if (m == MS_NONE) { front_error(p, sp, "unknown memory space '%s' (spaces: DDR, Vec, Mat, Left, Right, Acc, Bias)", d); return NULL; }
        e->enm = ir_av_mem(m);
        return e;
    }
    if (front_tensor_layout_name(d)) {                  /* pl.ND == pl.TensorLayout.ND: one spelling in the IR */
        char buf[64];
        snprintf(buf, sizeof buf, "pl.TensorLayout.%s", front_tensor_layout_name(d));
        e->enm = ir_av_enum(front_intern(p, buf));
        return e;
    }
    const char *rest = d + 3;
    if (!strchr(rest, '.')) {
        DType dt;
        if (!front_parse_dtype_name(p, d, sp, &dt)) return NULL;
        e->enm = ir_av_dtype(dt);
        return e;
    }
    for (int i = 0; enum_spaces[i]; i++)
        if (strncmp(d, enum_spaces[i], strlen(enum_spaces[i])) == 0 && !strchr(d + strlen(enum_spaces[i]), '.')) {
            e->enm = ir_av_enum(d);
            return e;
        }
    front_error(p, sp, "unknown name '%s'", d);
    return NULL;
}

/* pl.const(v, pl.DT) */
static Expr *parse_const(Parser *p, Span sp) {
    front_next(p);                                       /* '(' */
    bool neg = front_accept_op(p, "-");
    Tok *v = front_next(p);
    if (v->kind != TK_INT && v->kind != TK_FLOAT) { front_error(p, v->span, "pl.const expects a number, e.g. pl.const(0, pl.INT64)"); return NULL; }
    if (!front_expect_op(p, ",", "after the pl.const value (e.g. pl.const(0, pl.INT64))")) return NULL;
    Span dsp;
    const char *dn = front_parse_dotted(p, &dsp);
    DType dt;
    if (!dn || !front_parse_dtype_name(p, dn, dsp, &dt) || !front_expect_op(p, ")", "to close pl.const(...)")) return NULL;
    sp = front_span_join(sp, front_prev_span(p));
    if (dtype_is_float(dt)) {
        double f = v->kind == TK_INT ? (double)v->uval : v->fval;
        return with_span(ir_const_float(p->c, neg ? -f : f, dt), sp);
    }
    if (v->kind == TK_FLOAT) { front_error(p, v->span, "pl.const: a float value for the integer dtype %s", dtype_name(dt)); return NULL; }
    int64_t iv;
    if (!front_int_literal(p, v, neg, &iv)) return NULL;
    return with_span(ir_const_int(p->c, iv, dt), sp);
}

/* pl.min / pl.max / pl.xor / pl.abs / pl.cast on scalars, arguments by position or keyword;
 * NULL with !p->failed if not applicable (a tensor or tile operand: the op dispatcher reads the
 * call again). */
static Expr *parse_scalar_builtin(Parser *p, const char *d, Span sp) {
    bool bin = strcmp(d, "pl.min") == 0 || strcmp(d, "pl.max") == 0 || strcmp(d, "pl.xor") == 0;
    bool abs_ = strcmp(d, "pl.abs") == 0, cast = strcmp(d, "pl.cast") == 0;
    if (!bin && !abs_ && !cast) return NULL;
    int save = p->pos;
    Expr *call = ir_call(p->c, OP_NONE, NULL, 0);
    call->span = sp;
    if (!front_parse_call_args(p, call)) return NULL;
    const Expr *a0 = call->call.nargs ? call->call.args[0] : NULL;
    const AttrVal *k0 = ir_attr_get(&call->call.kwargs, bin ? "lhs" : "input");
    if (!a0 && k0 && k0->kind == AV_EXPR) a0 = k0->expr;
    if (!a0 || !is_scalar(a0)) { p->pos = save; return NULL; }    /* a tensor/tile op: let the dispatcher handle it */
    if (!front_bind_signature(p, call, d, bin ? "lhs rhs" : abs_ ? "input" : "input target_type")) return NULL;
    Expr **a = call->call.args;
    if (bin) return make_binary(p, d[3] == 'm' ? (d[4] == 'i' ? BIN_MIN : BIN_MAX) : BIN_XOR, a[0], a[1], sp);
    if (!is_scalar(a[0]) || (bin && !is_scalar(a[1]))) { front_error(p, sp, "%s: the operand must be a scalar", d); return NULL; }
    if (abs_) return with_span(ir_unary(p->c, UN_ABS, a[0], a[0]->type->dtype), sp);
    if (a[1]->kind != EX_ENUM || a[1]->enm.kind != AV_DTYPE) {
        front_error(p, a[1]->span.line ? a[1]->span : sp, "pl.cast: the target type must be a dtype such as pl.INT32");
        return NULL;
    }
    DType dt = a[1]->enm.dtype;
    if (!dtype_is_supported(dt)) {
        front_error(p, a[1]->span.line ? a[1]->span : sp, "pl.cast to pl.%s is not supported by ptoc (scalar types: %s)",
                    dtype_name(dt), DTYPE_SUPPORTED_LIST);
        return NULL;
    }
    return with_span(ir_unary(p->c, UN_CAST, a[0], dt), sp);
}

/* pl.dim(t, axis) / pl.tensor.dim: the static extent of a tensor dimension (negative axes count
 * from the end), an INDEX constant (spec/ops.md §4.9; ptoc has no dynamic dimensions). */
static Expr *parse_dim_call(Parser *p, const char *d, Span sp) {
    Expr *call = ir_call(p->c, OP_NONE, NULL, 0);
    call->span = sp;
    if (!front_parse_call_args(p, call) || !front_bind_signature(p, call, d, "tensor axis")) return NULL;
    Expr *t = call->call.args[0], *ax = call->call.args[1];
    Span asp = ax->span.line ? ax->span : sp;
    int64_t a;
    if (!t->type || (t->type->kind != TY_TENSOR && t->type->kind != TY_TILE)) {
        front_error(p, sp, "pl.dim: the first argument must be a tensor or a tile");
        return NULL;
    }
    if (!ir_is_const_int(ax, &a) || a < -t->type->rank || a >= t->type->rank) {
        front_error(p, asp, "pl.dim: the axis must be a constant in [%d, %d] for a rank-%d value", -t->type->rank,
                    t->type->rank - 1, t->type->rank);
        return NULL;
    }
    if (a < 0) a += t->type->rank;
    int64_t v;
    if (!ir_is_const_int(t->type->shape[a], &v)) { front_error(p, sp, "pl.dim: dimension %lld is not static", (long long)a); return NULL; }
    return with_span(ir_const_int(p->c, v, DT_INDEX), sp);
}

static Expr *parse_pl(Parser *p) {
    Span sp;
    const char *d = front_parse_dotted(p, &sp);
    if (!d) return NULL;
    if (!front_is_op(p, "(")) return parse_pl_enum(p, d, sp);
    if (strcmp(d, "pl.const") == 0) return parse_const(p, sp);
    if (strcmp(d, "pl.dim") == 0 || strcmp(d, "pl.tensor.dim") == 0) return parse_dim_call(p, d, sp);
    Expr *b = parse_scalar_builtin(p, d, sp);
    if (b || p->failed) return b;
    if ((b = front_system_count(p, d, sp)) || p->failed) return b;
    static const char *const stmt_only[] = { "pl.yield_", "pl.range", "pl.parallel", "pl.unroll", "pl.pipeline", "pl.while_",
                                             "pl.func_attr", "pl.at", "pl.scope", "pl.spmd", "pl.cluster", "pl.cond", NULL };
    for (int i = 0; stmt_only[i]; i++)
        if (strcmp(d, stmt_only[i]) == 0) {
            front_error(p, sp, "%s(...) cannot be used inside an expression here", d);
            return NULL;
        }
    if (strncmp(d, "pl.tensor.", 10) == 0 || strncmp(d, "pl.tile.", 8) == 0) {
        OpId op = ir_op_lookup(d + 3);
        if (op == OP_NONE) {
            if (front_not_yet_supported(p, d, sp)) return NULL;
            const char *s = front_suggest_op(d + 3);
            if (s) front_error(p, sp, "unknown operation '%s' (did you mean pl.%s?)", d, s);
            else front_error(p, sp, "unknown operation '%s'", d);
            return NULL;
        }
        Expr *call = ir_call(p->c, op, NULL, 0);
        call->span = sp;
        if (!front_parse_call_args(p, call) || !front_finish_call(p, call)) return NULL;
        return call;
    }
    return front_sugar_call(p, d, sp);
}

/* ---------------------------------------------------------------- atoms and operators */
static Expr *parse_name(Parser *p) {
    Tok *t = front_peek(p, 0);
    if (strcmp(t->text, "True") == 0 || strcmp(t->text, "False") == 0) {
        front_next(p);
        return with_span(ir_const_bool(p->c, t->text[0] == 'T'), t->span);
    }
    if (strcmp(t->text, "pl") == 0 && front_is_op_at(p, 1, ".")) return parse_pl(p);
    if (strcmp(t->text, "self") == 0 && front_is_op_at(p, 1, ".")) return parse_self_call(p);
    front_next(p);
    if (front_is_op(p, "(") && !front_sym_find(p, t->text) && front_extern_find(p, t->text))
        return call_program_fn(p, t->text, t->span, "");               /* a module-level @pl.function */
    Sym *s = front_sym_find(p, t->text);
    if (s && s->lit) return with_span(ir_clone_expr(p->c, s->lit, &(VarMap){0}), t->span);   /* a bound scalar */
    if (s && s->var) {
        Expr *a = front_var_attr(p, s->var, t->span);                 /* x.shape, x.dtype */
        return a || p->failed ? a : ir_ref(s->var);
    }
    int64_t cv;
    if (s && front_const_lookup(p, t->text, &cv)) return with_span(ir_const_int(p->c, cv, DT_INDEX), t->span);
    if (front_is_op(p, "(")) {                                         /* a @pl.jit.incore / inline helper */
        Expr *h = front_helper_call(p, t->text, t->span);
        if (h || p->failed) return h;
    }
    Expr *k = s || p->failed ? NULL : front_const_expr(p, t->text, t->span);   /* module / builder constants */
    if (k || p->failed) return k;
    front_error(p, t->span, "'%s' is not defined", t->text);
    return NULL;
}

static Expr *parse_list(Parser *p, const char *close, Span sp) {
    VEC(Expr *) items = { 0 };
    bool comma = false;
    while (!p->failed && !front_is_op(p, close)) {
        Expr *e = front_parse_expr(p);
        if (!e) break;
        vec_push(&items, e);
        comma = front_accept_op(p, ",");
        if (!comma) break;
    }
    Expr *r = NULL;
    if (front_expect_op(p, close, close[0] == ']' ? "to close the list" : "to close the parentheses")) {
        if (close[0] == ')' && items.len == 1 && !comma) r = items.data[0];
        else r = with_span(ir_tuple(p->c, items.data, items.len), front_span_join(sp, front_prev_span(p)));
    }
    vec_free(&items);
    return r;
}

static Expr *parse_atom(Parser *p) {
    Tok *t = front_peek(p, 0);
    switch (t->kind) {
    case TK_NAME: return parse_name(p);
    case TK_INT: {
        front_next(p);
        int64_t v;
        if (!front_int_literal(p, t, false, &v)) return NULL;
        return with_span(ir_const_int(p->c, v, DT_INDEX), t->span);
    }
    case TK_FLOAT: front_next(p); return with_span(ir_const_float(p->c, t->fval, DT_FP32), t->span);
    case TK_OP:
        if (front_is_op(p, "(") || front_is_op(p, "[")) {
            if (p->depth > 100) { front_error(p, t->span, "expression nested too deeply"); return NULL; }
            front_next(p);
            p->depth++;
            Expr *e = parse_list(p, t->text[0] == '(' ? ")" : "]", t->span);
            p->depth--;
            return e;
        }
        break;
    default: break;
    }
    front_error(p, t->span, "expected an expression, found %s%s%s", t->kind == TK_OP || t->kind == TK_ERROR ? "'" : "",
                t->kind == TK_OP || t->kind == TK_ERROR ? t->text : front_tok_kind_name(t->kind),
                t->kind == TK_OP || t->kind == TK_ERROR ? "'" : "");
    return NULL;
}

static Expr *parse_postfix(Parser *p) {
    Expr *e = parse_atom(p);
    while (e && front_is_op(p, "[")) {
        if (e->type && e->type->kind == TY_TUPLE) {
            Tok *open = front_next(p);
            Tok *i = front_next(p);
            if (i->kind != TK_INT || i->too_big || i->uval >= (uint64_t)e->type->nelems) {
                front_error(p, i->span, "tuple index must be an integer literal below %d", e->type->nelems);
                return NULL;
            }
            if (!front_expect_op(p, "]", "after the tuple index")) return NULL;
            Expr *g = ARENA_NEW(p->c->arena, Expr);
            g->kind = EX_TUPLE_GET;
            g->tget.tuple = e;
            g->tget.index = (int)i->ival;
            g->type = e->type->elems[i->ival];
            g->span = front_span_join(open->span, front_prev_span(p));
            e = g;
        } else e = front_sugar_subscript(p, e);
    }
    return e;
}

static Expr *parse_unary(Parser *p);

static Expr *parse_power(Parser *p) {
    Expr *e = parse_postfix(p);
    if (e && front_is_op(p, "**")) {
        Span sp = front_next(p)->span;
        if (p->depth > 100) { front_error(p, sp, "expression nested too deeply"); return NULL; }
        p->depth++;                                  /* right associative: 2 ** 2 ** ... recurses */
        Expr *r = parse_unary(p);
        p->depth--;
        e = make_binary(p, BIN_POW, e, r, sp);
    }
    return e;
}

static Expr *parse_unary(Parser *p) {
    Tok *t = front_peek(p, 0);
    if (front_is_op(p, "-") || front_is_op(p, "+") || front_is_op(p, "~")) {
        front_next(p);
        Tok *n = front_peek(p, 0);
        if (t->text[0] == '-' && (n->kind == TK_INT || n->kind == TK_FLOAT) && !front_is_op_at(p, 1, "**") && !front_is_op_at(p, 1, "[")) {
            front_next(p);
            Span sp = front_span_join(t->span, n->span);
            if (n->kind == TK_INT) {
                int64_t v;
                if (!front_int_literal(p, n, true, &v)) return NULL;
                return with_span(ir_const_int(p->c, v, DT_INDEX), sp);
            }
            return with_span(ir_const_float(p->c, -n->fval, DT_FP32), sp);
        }
        if (p->depth > 100) { front_error(p, t->span, "expression nested too deeply"); return NULL; }
        p->depth++;
        Expr *x = parse_unary(p);
        p->depth--;
        if (!x) return NULL;
        if (t->text[0] == '+') return x;
        if (!is_scalar(x)) { front_error(p, t->span, "unary '%s' needs a scalar operand", t->text); return NULL; }
        Expr *u = with_span(ir_unary(p->c, t->text[0] == '-' ? UN_NEG : UN_BITNOT, x, x->type->dtype), t->span);
        if (p->user_form && x->kind == EX_CONST_INT) u = with_span(front_fold(p, u), t->span);
        return p->failed ? NULL : u;
    }
    return parse_power(p);
}

typedef struct BinTok { const char *tok; BinOp op; } BinTok;

static Expr *parse_level(Parser *p, int level);

static const BinTok levels[][5] = {
    { { "|", BIN_BITOR } },
    { { "^", BIN_BITXOR } },
    { { "&", BIN_BITAND } },
    { { "<<", BIN_SHL }, { ">>", BIN_SHR } },
    { { "+", BIN_ADD }, { "-", BIN_SUB } },
    { { "*", BIN_MUL }, { "/", BIN_DIV }, { "//", BIN_FLOORDIV }, { "%", BIN_FLOORMOD } },
};

static Expr *parse_level(Parser *p, int level) {
    if (level == 6) return parse_unary(p);
    Expr *e = parse_level(p, level + 1);
    for (;;) {
        if (!e) return NULL;
        int k = -1;
        for (int i = 0; i < 5 && levels[level][i].tok; i++)
            if (front_is_op(p, levels[level][i].tok)) k = i;
        if (k < 0) return e;
        Span sp = front_next(p)->span;
        e = make_binary(p, levels[level][k].op, e, parse_level(p, level + 1), sp);
    }
}

static const BinTok cmps[] = { { "==", BIN_EQ }, { "!=", BIN_NE }, { "<", BIN_LT }, { "<=", BIN_LE }, { ">", BIN_GT }, { ">=", BIN_GE } };

static int cmp_at(Parser *p) {
    for (int i = 0; i < 6; i++)
        if (front_is_op(p, cmps[i].tok)) return i;
    return -1;
}

static Expr *parse_cmp(Parser *p) {
    Expr *e = parse_level(p, 0);
    int k = cmp_at(p);
    if (!e || k < 0) return e;
    Span sp = front_next(p)->span;
    e = make_binary(p, cmps[k].op, e, parse_level(p, 0), sp);
    if (e && cmp_at(p) >= 0) {
        front_error(p, front_peek(p, 0)->span, "chained comparisons are not supported; combine them with 'and'");
        return NULL;
    }
    return e;
}

static Expr *parse_not(Parser *p) {
    if (front_is_name(p, "not")) {
        Span sp = front_next(p)->span;
        if (p->depth > 100) { front_error(p, sp, "expression nested too deeply"); return NULL; }
        p->depth++;
        Expr *x = parse_not(p);
        p->depth--;
        if (!x) return NULL;
        if (!is_scalar(x)) { front_error(p, sp, "'not' needs a scalar operand"); return NULL; }
        return with_span(ir_unary(p->c, UN_NOT, x, DT_BOOL), sp);
    }
    return parse_cmp(p);
}

static Expr *parse_and(Parser *p) {
    Expr *e = parse_not(p);
    while (e && front_is_name(p, "and")) {
        Span sp = front_next(p)->span;
        e = make_binary(p, BIN_AND, e, parse_not(p), sp);
    }
    return e;
}

static Expr *parse_or(Parser *p) {
    Expr *e = parse_and(p);
    while (e && front_is_name(p, "or")) {
        Span sp = front_next(p)->span;
        e = make_binary(p, BIN_OR, e, parse_and(p), sp);
    }
    return e;
}

/* The expression trees are walked recursively everywhere (folding, printing, the interpreter): an
 * expression of more than this many tokens (x + x + ... of a generated file) is refused here
 * rather than overflowing a stack later. */
#define FRONT_MAX_EXPR_TOKENS 2000

Expr *front_parse_expr(Parser *p) {
    if (p->failed) return NULL;
    int start = p->pos;
    Span sp = front_peek(p, 0)->span;
    Expr *e = parse_or(p);
    if (!e && !p->failed) front_error(p, front_peek(p, 0)->span, "invalid expression");
    if (!p->failed && p->pos - start > FRONT_MAX_EXPR_TOKENS)
        front_error(p, sp, "expression too long (%d tokens, at most %d); split it into several statements", p->pos - start,
                    FRONT_MAX_EXPR_TOKENS);
    return p->failed ? NULL : e;
}
