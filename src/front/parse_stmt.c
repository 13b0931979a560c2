/* parse_stmt — statements: assignments (annotated or not), yields, eval calls, return, for loops
 * (range/parallel/unroll/pipeline, init_values carries, pl.while_), while, if/elif/else with yields,
 * with-scopes (pl.at, pl.scope, pl.spmd, pl.cluster), pl.func_attr, slice stores and pass.
 *
 * Requires: parse.c (tokens, symbols), parse_expr.c, parse_type.c, sugar.c.
 * Produces: Stmts appended to a body. One Var per name per function: assigning an existing name
 * reuses its Var (loop variables and return vars too); iter_args are fresh Vars that rebind their
 * names. An annotated call takes the annotated type (after ir_deduce_call validated it). */
#include "front/front_internal.h"

#include <string.h>

static bool parse_stmt(Parser *p, StmtList *body, YieldCtx *y, bool *was_yield);

static bool end_of_stmt(Parser *p) {
    if (p->failed) return false;
    Tok *t = front_peek(p, 0);
    if (t->kind == TK_NEWLINE) { front_next(p); return true; }
    if (t->kind == TK_EOF || t->kind == TK_DEDENT) return true;
    front_error(p, t->span, "unexpected %s%s%s after the statement (one statement per line)", t->kind == TK_OP || t->kind == TK_NAME ? "'" : "",
                t->kind == TK_OP || t->kind == TK_NAME ? t->text : front_tok_kind_name(t->kind), t->kind == TK_OP || t->kind == TK_NAME ? "'" : "");
    return false;
}

static bool block_rest(Parser *p, StmtList *body, YieldCtx *y) {
    while (!p->failed && front_peek(p, 0)->kind != TK_DEDENT && front_peek(p, 0)->kind != TK_EOF) {
        if (front_peek(p, 0)->kind == TK_NEWLINE) { front_next(p); continue; }
        bool was_yield = false;
        if (!parse_stmt(p, body, y, &was_yield)) return false;
        if (was_yield && front_peek(p, 0)->kind != TK_DEDENT && front_peek(p, 0)->kind != TK_EOF) {
            front_error(p, front_peek(p, 0)->span, "pl.yield_ must be the last statement of its block");
            return false;
        }
    }
    if (front_peek(p, 0)->kind == TK_DEDENT) front_next(p);
    return !p->failed;
}

static bool block_begin(Parser *p) {
    if (p->failed) return false;
    Tok *t = front_peek(p, 0);
    if (t->kind != TK_NEWLINE) {
        front_error(p, t->span, "expected a new line and an indented block after ':' (one-line bodies are not supported)");
        return false;
    }
    front_next(p);
    if (front_peek(p, 0)->kind != TK_INDENT) {
        front_error(p, front_peek(p, 0)->span, "expected an indented block");
        return false;
    }
    front_next(p);
    return true;
}

bool front_parse_block(Parser *p, StmtList *body, YieldCtx *y) {
    return block_begin(p) && block_rest(p, body, y);
}

static Stmt *push(Parser *p, StmtList *body, Stmt *s, Span sp) {
    s->span = sp;
    ir_list_push(p->c, body, s);
    return s;
}

/* kind, dtype and static shape agree: an annotation with the value it names, a loop-carried value
 * with what the body yields, the two branches of an if (a pass trusts either side) */
static bool same_shape_type(const Type *a, const Type *b) { return ir_type_same_shape(a, b); }

/* "what is what_a but value is what_b" when the types differ */
static bool types_agree(Parser *p, Span sp, const char *what, const char *name, const Type *a, const char *how, const Type *b) {
    if (same_shape_type(a, b)) return true;
    StrBuf x = { 0 }, y = { 0 };
    if (a) ir_print_type(a, &x);
    if (b) ir_print_type(b, &y);
    front_error(p, sp, "%s '%s' is %s but %s %s", what, name, sb_cstr(&x), how, sb_cstr(&y));
    sb_free(&x);
    sb_free(&y);
    return false;
}

/* The type an annotation gives a value of type vt: pl.Tile[[64, 64], pl.FP32] without a memory
 * space (language.md §1.3) takes the value's space and view (MS_NONE stays: inferred later); an
 * explicit space that differs from the value's is an error (an annotation never moves a tile). */
static bool resolve_annot(Parser *p, Span sp, const char *name, Type **annot, const Type *vt) {
    Type *a = *annot;
    if (!a || a->kind != TY_TILE || !vt || vt->kind != TY_TILE) return true;
    if (a->space == MS_NONE) {
        if (vt->space == MS_NONE && (a->view || !vt->view)) return true;
        a = ir_type_copy(p->c, a);
        a->space = vt->space;
        if (!a->view) a->view = vt->view;
        *annot = a;
        return true;
    }
    if (vt->space != MS_NONE && vt->space != a->space) {
        front_error(p, sp, "'%s' is annotated as a tile in pl.Mem.%s but the value is in pl.Mem.%s; leave the memory space out "
                    "of the annotation, or move the tile with pl.move(t, target_memory=pl.Mem.%s)", name, memspace_name(a->space),
                    memspace_name(vt->space), memspace_name(a->space));
        return false;
    }
    return true;
}

/* ---------------------------------------------------------------- yield */
/* at 'pl' of pl.yield_( ... ) with the targets already read */
static bool parse_yield(Parser *p, StmtList *body, YieldCtx *y, const char **names, Span *spans, Type **annots, int n, Span sp) {
    Span ysp;
    front_parse_dotted(p, &ysp);
    if (!y) { front_error(p, ysp, "pl.yield_ outside a loop with init_values or an if body"); return false; }
    if (!front_expect_op(p, "(", "after pl.yield_")) return false;
    Expr *vals[32];
    int nv = 0;
    while (!p->failed && !front_is_op(p, ")")) {
        Expr *e = front_parse_expr(p);
        if (!e) return false;
        if (nv == 32) { front_error(p, e->span, "too many yielded values"); return false; }
        vals[nv++] = e;
        if (!front_accept_op(p, ",")) break;
    }
    if (!front_expect_op(p, ")", "to close pl.yield_(...)") || !end_of_stmt(p)) return false;
    if (n && n != nv) {
        front_error(p, sp, "%d names on the left but pl.yield_ yields %d values", n, nv);
        return false;
    }
    for (int i = 0; i < n; i++)
        if (annots[i] && (!types_agree(p, spans[i], "the yield target", names[i], annots[i], "the yielded value is", vals[i]->type) ||
                          !resolve_annot(p, spans[i], names[i], &annots[i], vals[i]->type)))
            return false;
    y->seen = true;
    y->yield = push(p, body, ir_yield(p->c, vals, nv), sp);
    y->n = n;
    y->has_targets = n > 0;
    y->names = ARENA_ARRAY(p->c->arena, const char *, n + 1);
    y->spans = ARENA_ARRAY(p->c->arena, Span, n + 1);
    y->annots = ARENA_ARRAY(p->c->arena, Type *, n + 1);
    for (int i = 0; i < n; i++) { y->names[i] = names[i]; y->spans[i] = spans[i]; y->annots[i] = annots[i]; }
    return true;
}

/* The variable a name assigned a value of type t denotes. Python rebinding to a value of another
 * type makes a new variable, so later uses see the new type; inside a loop around the old binding
 * the name stays one variable: ConvertToSSA then reports the type that changes around the loop. */
static Var *bind_value(Parser *p, const char *name, Type *t, Span sp) {
    Sym *s = front_sym_find(p, name);
    if (s && s->var && !same_shape_type(s->var->type, t) && p->loop_depth <= s->loop_depth) {
        Var *var = ir_var_new(p->c, name, t);
        var->span = sp;
        s->var = var;
        s->loop_depth = p->loop_depth;
        return var;
    }
    return front_bind(p, name, t, sp);
}

/* the return vars of a For/If from the yield targets */
static void bind_return_vars(Parser *p, YieldCtx *y, VarList *rv) {
    for (int i = 0; i < y->n; i++) {
        Type *t = y->annots[i] ? y->annots[i] : y->yield->yield.values[i]->type;
        ir_varlist_push(p->c, rv, bind_value(p, y->names[i], t, y->spans[i]));
    }
}

/* ---------------------------------------------------------------- assignments */
static bool is_pl_yield(Parser *p) {
    Tok *a = front_peek(p, 0), *c = front_peek(p, 2);
    return a->kind == TK_NAME && strcmp(a->text, "pl") == 0 && front_is_op_at(p, 1, ".") && c->kind == TK_NAME &&
           strcmp(c->text, "yield_") == 0;
}


static bool assign_value(Parser *p, StmtList *body, const char *name, Span nsp, Type *annot) {
    Span vsp = front_peek(p, 0)->span;
    Expr *v = front_parse_expr(p);
    if (!v || !end_of_stmt(p)) return false;
    if (!v->type) { front_error(p, vsp, "this value cannot be assigned to a variable"); return false; }
    if (annot && !same_shape_type(annot, v->type)) {   /* the printed form too: a dump never disagrees */
        StrBuf a = { 0 }, b = { 0 };
        ir_print_type(annot, &a);
        ir_print_type(v->type, &b);
        front_error(p, v->span.line ? v->span : vsp, "'%s' is annotated %s but the value is %s", name, sb_cstr(&a), sb_cstr(&b));
        sb_free(&a);
        sb_free(&b);
        return false;
    }
    if (!resolve_annot(p, nsp, name, &annot, v->type)) return false;
    if (annot && v->kind == EX_CALL) v->type = annot;
    Sym *s = front_sym_find(p, name);
    if (!annot && p->user_form && v->kind == EX_CONST_INT && v->type->dtype == DT_INDEX && (!s || !s->var) &&
        !front_is_variable_name(p, name)) {
        if (s) { s->cval = v->ci.value; s->lit = NULL; }     /* a compile-time constant: K = 512 */
        else vec_push(&p->syms, ((Sym){ front_intern(p, name), NULL, v->ci.value, false, p->loop_depth, NULL }));
        return true;
    }
    Type *t = annot ? annot : v->type;
    push(p, body, ir_assign(p->c, bind_value(p, name, t, nsp), v), nsp);
    return true;
}

static bool parse_targets(Parser *p, const char **names, Span *spans, Type **annots, int *n) {
    *n = 0;
    do {
        Span sp;
        const char *nm = front_expect_name(p, "a target name", &sp);
        if (!nm) return false;
        if (*n == 32) { front_error(p, sp, "too many targets"); return false; }
        names[*n] = nm;
        spans[*n] = sp;
        annots[(*n)++] = NULL;
    } while (front_accept_op(p, ","));
    return front_expect_op(p, "=", "after the assignment targets");
}

static bool parse_assign(Parser *p, StmtList *body, YieldCtx *y) {
    Tok *t = front_peek(p, 0);
    const char *names[32];
    Span spans[32];
    Type *annots[32];
    int n = 1;
    names[0] = t->text;
    spans[0] = t->span;
    annots[0] = NULL;
    if (front_is_op_at(p, 1, ",")) {
        if (!parse_targets(p, names, spans, annots, &n)) return false;
        if (!is_pl_yield(p)) return front_assign_unpack(p, body, names, spans, n, t->span) && end_of_stmt(p);   /* M, N = x.shape */
        return parse_yield(p, body, y, names, spans, annots, n, t->span);
    }
    front_next(p);
    if (front_accept_op(p, ":")) {
        if (!(annots[0] = front_parse_type(p))) return false;
    }
    if (!front_expect_op(p, "=", "after the assignment target")) return false;
    if (is_pl_yield(p)) return parse_yield(p, body, y, names, spans, annots, 1, t->span);
    return assign_value(p, body, names[0], spans[0], annots[0]);
}

/* '(' NAME (',' NAME)* [','] ')' '=' ahead: a parenthesised target list, (x,) = pl.yield_(v) */
static bool paren_targets_ahead(Parser *p) {
    if (!front_is_op_at(p, 0, "(")) return false;
    for (int k = 1;; k += 2) {
        if (front_peek(p, k)->kind != TK_NAME) return false;
        if (front_is_op_at(p, k + 1, ")")) return front_is_op_at(p, k + 2, "=");
        if (!front_is_op_at(p, k + 1, ",")) return false;
        if (front_is_op_at(p, k + 2, ")")) return front_is_op_at(p, k + 3, "=");
    }
}

/* (a, b) = v, (a,) = v, (a) = v: as the unparenthesised forms; a trailing comma makes a 1-tuple. */
static bool parse_paren_assign(Parser *p, StmtList *body, YieldCtx *y) {
    Span at = front_next(p)->span;
    const char *names[32];
    Span spans[32];
    Type *annots[32] = { NULL };
    int n = 0;
    bool tuple = false;
    do {
        if (front_is_op_at(p, 0, ")")) break;
        if (n == 32) { front_error(p, front_peek(p, 0)->span, "too many targets"); return false; }
        if (!(names[n] = front_expect_name(p, "a target name", &spans[n]))) return false;
        n++;
        tuple = front_is_op_at(p, 0, ",");
    } while (front_accept_op(p, ","));
    if (!front_expect_op(p, ")", "to close the targets") || !front_expect_op(p, "=", "after the assignment targets")) return false;
    if (is_pl_yield(p)) return parse_yield(p, body, y, names, spans, annots, n, at);
    if (n == 1 && !tuple) return assign_value(p, body, names[0], spans[0], NULL);
    return front_assign_unpack(p, body, names, spans, n, at) && end_of_stmt(p);
}

static bool parse_augassign(Parser *p, StmtList *body) {
    static const struct { const char *tok; BinOp op; } ops[] = { { "+=", BIN_ADD }, { "-=", BIN_SUB }, { "*=", BIN_MUL },
                                                                  { "//=", BIN_FLOORDIV }, { "%=", BIN_FLOORMOD } };
    Tok *t = front_next(p);
    Tok *o = front_next(p);
    int k = -1;
    for (int i = 0; i < 5; i++)
        if (strcmp(o->text, ops[i].tok) == 0) k = i;
    if (k < 0) { front_error(p, o->span, "augmented assignment '%s' is not supported", o->text); return false; }
    Sym *s = front_sym_find(p, t->text);
    if (!s || !s->var) {
        int64_t cv;
        if (s && front_const_lookup(p, t->text, &cv)) {
            front_error(p, t->span, "'%s' is a compile-time constant; assign a new name instead", t->text);
            return false;
        }
        front_error(p, t->span, "'%s' is not defined", t->text);
        return false;
    }
    Expr *rhs = front_parse_expr(p);
    if (!rhs || !end_of_stmt(p)) return false;
    if (s->var->type->kind != TY_SCALAR || !rhs->type || rhs->type->kind != TY_SCALAR) {
        front_error(p, o->span, "'%s' needs scalar operands", o->text);
        return false;
    }
    Expr *v = ir_binary(p->c, ops[k].op, ir_ref(s->var), rhs);
    v->span = o->span;
    push(p, body, ir_assign(p->c, s->var, v), t->span);
    return true;
}

/* NAME '[' ... ']' '=' : a slice store when the matching ']' is followed by '=' */
static bool is_subscript_store(Parser *p) {
    if (!front_is_op_at(p, 1, "[")) return false;
    int depth = 0;
    for (int k = 1;; k++) {
        Tok *t = front_peek(p, k);
        if (t->kind == TK_EOF || t->kind == TK_NEWLINE) return false;
        if (t->kind != TK_OP) continue;
        if (strchr("([{", t->text[0]) && !t->text[1]) depth++;
        if (strchr(")]}", t->text[0]) && !t->text[1] && --depth == 0) return front_is_op_at(p, k + 1, "=");
    }
}

static bool parse_func_attr(Parser *p) {
    Span sp;
    front_parse_dotted(p, &sp);
    if (!front_expect_op(p, "(", "after pl.func_attr") || !front_parse_attr_dict(p, &p->fn->attrs)) return false;
    return front_expect_op(p, ")", "to close pl.func_attr(...)") && end_of_stmt(p);
}

static bool is_pl_name(Parser *p, const char *name) {
    Tok *a = front_peek(p, 0), *c = front_peek(p, 2);
    return a->kind == TK_NAME && strcmp(a->text, "pl") == 0 && front_is_op_at(p, 1, ".") && c->kind == TK_NAME &&
           strcmp(c->text, name) == 0 && front_is_op_at(p, 3, "(");
}

static bool parse_simple(Parser *p, StmtList *body, YieldCtx *y, bool *was_yield) {
    Tok *t = front_peek(p, 0);
    if (t->kind == TK_NAME && (front_is_op_at(p, 1, "=") || front_is_op_at(p, 1, ":") || front_is_op_at(p, 1, ","))) {
        int before = body->len;
        bool seen = y && y->seen;
        bool ok = parse_assign(p, body, y);
        *was_yield = y && y->seen && !seen;
        (void)before;
        return ok;
    }
    if (t->kind == TK_NAME && front_peek(p, 1)->kind == TK_OP && strlen(front_peek(p, 1)->text) >= 2 &&
        front_peek(p, 1)->text[strlen(front_peek(p, 1)->text) - 1] == '=' && !front_is_op_at(p, 1, "==") &&
        !front_is_op_at(p, 1, "<=") && !front_is_op_at(p, 1, ">=") && !front_is_op_at(p, 1, "!="))
        return parse_augassign(p, body);
    if (t->kind == TK_NAME && is_subscript_store(p)) {
        Sym *s = front_sym_find(p, t->text);
        if (!s || !s->var) { front_error(p, t->span, "'%s' is not defined", t->text); return false; }
        front_next(p);
        return front_sugar_store(p, body, s->var, t->span) && end_of_stmt(p);
    }
    if (paren_targets_ahead(p)) {
        bool seen = y && y->seen;
        bool ok = parse_paren_assign(p, body, y);
        *was_yield = y && y->seen && !seen;
        return ok;
    }
    if (is_pl_name(p, "func_attr")) return parse_func_attr(p);
    if (is_pl_name(p, "yield_")) {
        *was_yield = true;
        return parse_yield(p, body, y, NULL, NULL, NULL, 0, t->span);
    }
    Expr *e = front_parse_expr(p);
    if (!e || !end_of_stmt(p)) return false;
    if (e->kind != EX_CALL) { front_error(p, t->span, "this expression statement has no effect (only calls can stand alone)"); return false; }
    push(p, body, ir_eval(p->c, e), t->span);
    return true;
}

/* ---------------------------------------------------------------- return */
static bool parse_return(Parser *p, StmtList *body) {
    Span sp = front_next(p)->span;
    Expr *vals[32];
    int n = 0;
    while (!p->failed && front_peek(p, 0)->kind != TK_NEWLINE && front_peek(p, 0)->kind != TK_DEDENT && front_peek(p, 0)->kind != TK_EOF) {
        Expr *e = front_parse_expr(p);
        if (!e) return false;
        if (n == 32) { front_error(p, e->span, "too many return values"); return false; }
        if (!e->type || e->type->kind == TY_TUPLE) { front_error(p, e->span, "return values must be tensors, tiles or scalars"); return false; }
        vals[n++] = e;
        if (!front_accept_op(p, ",")) break;
    }
    if (!end_of_stmt(p)) return false;
    Function *f = p->fn;
    if (p->user_form && !p->return_line) {          /* the first return gives the return types */
        p->return_line = sp.line;
        f->nreturns = n;
        f->return_types = ARENA_ARRAY(p->c->arena, Type *, n ? n : 1);
        for (int i = 0; i < n; i++) f->return_types[i] = vals[i]->type;
    } else if (p->user_form && f->nreturns != n) {
        front_error(p, sp, "'%s' returns %d value%s here but %d at line %d; every return must give the same values", f->name, n,
                    n == 1 ? "" : "s", f->nreturns, p->return_line);
        return false;
    } else if (f->nreturns != n) {
        front_error(p, sp, "'%s' returns %d value%s but its signature declares %d", f->name, n, n == 1 ? "" : "s", f->nreturns);
        return false;
    }
    for (int i = 0; i < n; i++)
        if (!same_shape_type(f->return_types[i], vals[i]->type)) {
            StrBuf want = { 0 }, got = { 0 };
            ir_print_type(f->return_types[i], &want);
            ir_print_type(vals[i]->type, &got);
            front_error(p, vals[i]->span.line ? vals[i]->span : sp, "return value %d of '%s' is %s but %s is declared%s", i, f->name,
                        sb_cstr(&got), sb_cstr(&want), p->user_form ? " by the first return" : "");
            sb_free(&want);
            sb_free(&got);
            return false;
        }
    push(p, body, ir_return(p->c, vals, n), sp);
    return true;
}

/* ---------------------------------------------------------------- if */
static bool parse_if(Parser *p, StmtList *body, Span sp) {
    front_next(p);                                       /* if / elif */
    Expr *cond = front_parse_expr(p);
    if (!cond) return false;
    if (!cond->type || cond->type->kind != TY_SCALAR) { front_error(p, cond->span, "the if condition must be a scalar"); return false; }
    if (!front_expect_op(p, ":", "after the if condition")) return false;
    Stmt *s = push(p, body, ir_if(p->c, cond), sp);
    YieldCtx yt = { 0 }, ye = { 0 };
    if (!front_parse_block(p, &s->if_.then_body, &yt)) return false;
    if (front_is_name(p, "elif")) {
        s->if_.has_else = true;
        if (!parse_if(p, &s->if_.else_body, front_peek(p, 0)->span)) return false;
        Stmt *inner = s->if_.else_body.items[0];
        if (inner->if_.return_vars.len && yt.seen) {       /* elif that yields: the else branch yields its merge */
            int n = inner->if_.return_vars.len;
            Expr **vals = ARENA_ARRAY(p->c->arena, Expr *, n);
            ye = (YieldCtx){ .seen = true, .n = n, .has_targets = true };
            ye.names = ARENA_ARRAY(p->c->arena, const char *, n);
            ye.spans = ARENA_ARRAY(p->c->arena, Span, n);
            ye.annots = ARENA_ARRAY(p->c->arena, Type *, n);
            for (int i = 0; i < n; i++) {
                Var *v = inner->if_.return_vars.items[i];
                vals[i] = ir_ref(v);
                ye.names[i] = v->name;
                ye.spans[i] = v->span;
            }
            ye.yield = push(p, &s->if_.else_body, ir_yield(p->c, vals, n), inner->span);
        }
    } else if (front_is_name(p, "else")) {
        front_next(p);
        s->if_.has_else = true;
        if (!front_expect_op(p, ":", "after else") || !front_parse_block(p, &s->if_.else_body, &ye)) return false;
    }
    if (!yt.seen && !ye.seen) return true;
    if (!yt.seen || !ye.seen || yt.n != ye.n || yt.yield->yield.n != ye.yield->yield.n) {
        front_error(p, sp, "an if that yields needs both branches to end with pl.yield_ of the same names");
        return false;
    }
    for (int i = 0; i < yt.n; i++)
        if (strcmp(yt.names[i], ye.names[i]) != 0) {
            front_error(p, ye.spans[i], "the else branch yields to '%s' but the then branch to '%s'", ye.names[i], yt.names[i]);
            return false;
        }
    for (int i = 0; i < yt.yield->yield.n; i++)
        if (!types_agree(p, ye.yield->span, "the yield target", yt.n ? yt.names[i] : "?", yt.yield->yield.values[i]->type,
                         "the else branch yields", ye.yield->yield.values[i]->type))
            return false;
    bind_return_vars(p, &yt, &s->if_.return_vars);
    return true;
}

/* ---------------------------------------------------------------- for / while */
typedef struct LoopHead {
    const char *loop_name; Span loop_span;
    const char *carry[32]; Span carry_span[32]; int ncarry;
    bool has_carry_parens;
} LoopHead;

static bool parse_carry_names(Parser *p, LoopHead *h) {
    if (!front_expect_op(p, "(", "to start the loop-carried names")) return false;
    h->has_carry_parens = true;
    while (!p->failed && !front_is_op(p, ")")) {
        if (h->ncarry == 32) { front_error(p, front_peek(p, 0)->span, "too many loop-carried values"); return false; }
        if (!(h->carry[h->ncarry] = front_expect_name(p, "a loop-carried name", &h->carry_span[h->ncarry]))) return false;
        h->ncarry++;
        if (!front_accept_op(p, ",")) break;
    }
    return front_expect_op(p, ")", "to close the loop-carried names");
}

typedef struct LoopArgs {
    Expr *pos[3]; int npos;
    Expr *inits[32]; int ninit; bool has_inits; Span inits_span;
    int64_t stage; bool has_stage;
    AttrList attrs;
} LoopArgs;

static bool parse_inits(Parser *p, LoopArgs *a) {
    a->has_inits = true;
    a->inits_span = front_peek(p, 0)->span;
    const char *close = front_is_op(p, "[") ? "]" : ")";
    if (!front_is_op(p, "(") && !front_is_op(p, "[")) return front_expect_op(p, "(", "to start init_values, e.g. init_values=(x0,)");
    front_next(p);
    while (!p->failed && !front_is_op(p, close)) {
        Expr *e = front_parse_expr(p);
        if (!e) return false;
        if (a->ninit == 32 || !e->type) { front_error(p, e->span, "bad init value"); return false; }
        a->inits[a->ninit++] = e;
        if (!front_accept_op(p, ",")) break;
    }
    return front_expect_op(p, close, "to close init_values");
}

static bool parse_loop_args(Parser *p, LoopArgs *a, const char *kind) {
    if (!front_expect_op(p, "(", "after the loop kind")) return false;
    while (!p->failed && !front_is_op(p, ")")) {
        Tok *t = front_peek(p, 0);
        if (t->kind == TK_NAME && front_is_op_at(p, 1, "=")) {
            front_next(p);
            front_next(p);
            if (strcmp(t->text, "init_values") == 0) { if (!parse_inits(p, a)) return false; }
            else if (strcmp(t->text, "stage") == 0) {
                Tok *v = front_next(p);
                if (v->kind != TK_INT) { front_error(p, v->span, "stage must be an integer, e.g. stage=2"); return false; }
                a->stage = v->ival;
                a->has_stage = true;
            } else if (strcmp(t->text, "attrs") == 0) { if (!front_parse_attr_dict(p, &a->attrs)) return false; }
            else { front_error(p, t->span, "unknown option '%s' for pl.%s (options: init_values, stage, attrs)", t->text, kind); return false; }
        } else {
            if (a->npos == 3) { front_error(p, t->span, "pl.%s takes at most 3 positional arguments (start, stop, step)", kind); return false; }
            Expr *e = front_parse_expr(p);
            if (!e) return false;
            if (!e->type || e->type->kind != TY_SCALAR) { front_error(p, e->span, "loop bounds must be scalars"); return false; }
            if (dtype_is_float(e->type->dtype)) {      /* Python: range(2.0) is a TypeError */
                front_error(p, e->span.line ? e->span : t->span, "loop bounds must be integers, got a %s value", dtype_name(e->type->dtype));
                return false;
            }
            a->pos[a->npos++] = e;
        }
        if (!front_accept_op(p, ",")) break;
    }
    return front_expect_op(p, ")", "to close the loop arguments");
}

static bool finish_loop_body(Parser *p, YieldCtx *y, VarList *iter_args, VarList *rv, Span sp) {
    if (!iter_args->len && y->seen) {
        front_error(p, y->yield->span, "pl.yield_ in a loop without init_values");
        return false;
    }
    if (!iter_args->len) return true;
    if (!y->seen) { front_error(p, sp, "the body of a loop with init_values must end with pl.yield_(...)"); return false; }
    if (y->yield->yield.n != iter_args->len) {
        front_error(p, y->yield->span, "pl.yield_ yields %d values but the loop carries %d", y->yield->yield.n, iter_args->len);
        return false;
    }
    for (int i = 0; i < iter_args->len; i++)
        if (!types_agree(p, y->yield->span, "the loop-carried value", iter_args->items[i]->name, iter_args->items[i]->type,
                         "the body yields", y->yield->yield.values[i]->type))
            return false;
    bind_return_vars(p, y, rv);
    return true;
}

static bool make_iter_args(Parser *p, LoopHead *h, LoopArgs *a, VarList *out, Span sp) {
    if (h->ncarry != a->ninit || (h->has_carry_parens && !a->has_inits)) {
        front_error(p, a->has_inits ? a->inits_span : sp, "%d loop-carried names but %d init_values", h->ncarry, a->ninit);
        return false;
    }
    for (int i = 0; i < h->ncarry; i++) {
        Var *v = ir_iter_arg_new(p->c, h->carry[i], a->inits[i]->type, a->inits[i]);
        v->span = h->carry_span[i];
        front_rebind(p, h->carry[i], v);
        ir_varlist_push(p->c, out, v);
    }
    return true;
}

static bool parse_while_iter(Parser *p, StmtList *body, LoopHead *h, Span sp) {
    LoopArgs a = { 0 };
    if (!parse_loop_args(p, &a, "while_")) return false;
    if (a.npos) { front_error(p, a.pos[0]->span, "pl.while_ takes only init_values=(...)"); return false; }
    Stmt *s = push(p, body, ARENA_NEW(p->c->arena, Stmt), sp);
    s->kind = ST_WHILE;
    if (!make_iter_args(p, h, &a, &s->while_.iter_args, sp)) return false;
    if (!front_expect_op(p, ":", "after the for header") || !block_begin(p)) return false;
    if (!is_pl_name(p, "cond")) { front_error(p, front_peek(p, 0)->span, "the body of pl.while_ must start with pl.cond(<condition>)"); return false; }
    Span csp;
    front_parse_dotted(p, &csp);
    front_next(p);
    if (!(s->while_.cond = front_parse_expr(p)) || !front_expect_op(p, ")", "to close pl.cond(...)") || !end_of_stmt(p)) return false;
    YieldCtx y = { 0 };
    return block_rest(p, &s->while_.body, &y) && finish_loop_body(p, &y, &s->while_.iter_args, &s->while_.return_vars, sp);
}

static bool parse_for(Parser *p, StmtList *body, Span sp) {
    front_next(p);                                       /* for */
    LoopHead h = { 0 };
    if (front_is_op(p, "(")) {
        if (!parse_carry_names(p, &h)) return false;
    } else {
        if (!(h.loop_name = front_expect_name(p, "a loop variable", &h.loop_span))) return false;
        if (front_accept_op(p, ",") && !parse_carry_names(p, &h)) return false;
    }
    if (!front_is_name(p, "in")) return front_expect_op(p, "in", "after the loop target");
    front_next(p);
    Span ksp = front_peek(p, 0)->span;
    const char *kind = front_peek(p, 0)->kind == TK_NAME ? front_parse_dotted(p, &ksp) : NULL;
    static const char *const kinds[] = { "pl.range", "pl.parallel", "pl.unroll", "pl.pipeline" };
    int k = -1;
    for (int i = 0; kind && i < 4; i++)
        if (strcmp(kind, kinds[i]) == 0) k = i;
    if (kind && strcmp(kind, "range") == 0) k = 0;
    if (kind && strcmp(kind, "pl.while_") == 0 && !h.loop_name) return parse_while_iter(p, body, &h, sp);
    if (kind && strcmp(kind, "pl.spmd") == 0) {          /* sugar for an SPMD launch of one kernel (spmd.c) */
        if (!h.loop_name || h.ncarry) {
            front_error(p, ksp, "for ... in pl.spmd(N) takes one loop variable (the block index) and no loop-carried values");
            return false;
        }
        return front_parse_spmd_for(p, body, sp, h.loop_name, h.loop_span, ksp);
    }
    if (kind && strcmp(kind, "pl.split_aiv") == 0) {     /* the two vector cores of a cluster (parse_optim.c) */
        if (!h.loop_name || h.ncarry) {
            front_error(p, ksp, "for ... in pl.split_aiv(2) takes one loop variable (the vector core, 0 or 1) and no loop-carried values");
            return false;
        }
        return front_parse_split_aiv_for(p, body, sp, h.loop_name, h.loop_span, ksp);
    }
    if (k < 0 || !h.loop_name) {
        front_error(p, ksp, "expected pl.range(...), pl.parallel(...), pl.unroll(...), pl.pipeline(..., stage=F), pl.spmd(N) or "
                    "pl.split_aiv(2) after 'in'");
        return false;
    }
    LoopArgs a = { 0 };
    if (!parse_loop_args(p, &a, kind + (k == 0 && kind[0] == 'r' ? 0 : 3))) return false;
    if (!a.npos) { front_error(p, ksp, "%s needs a stop value, e.g. %s(128)", kind, kind); return false; }
    Expr *zero = ir_const_int(p->c, 0, DT_INDEX), *one = ir_const_int(p->c, 1, DT_INDEX);
    Expr *start = a.npos >= 2 ? a.pos[0] : zero, *stop = a.npos >= 2 ? a.pos[1] : a.pos[0], *step = a.npos == 3 ? a.pos[2] : one;
    Type *index = ir_scalar_type(p->c, DT_INDEX);
    Sym *prev = front_sym_find(p, h.loop_name);
    Var *lv;
    if (prev && prev->var && !same_shape_type(prev->var->type, index)) {   /* the name held another type: a new variable */
        lv = ir_var_new(p->c, h.loop_name, index);
        lv->span = h.loop_span;
        prev->var = lv;
        prev->loop_depth = p->loop_depth;
    } else lv = front_bind(p, h.loop_name, index, h.loop_span);
    Stmt *s = push(p, body, ir_for(p->c, lv, start, stop, step, (ForKind)k), sp);
    s->for_.attrs = a.attrs;
    if (k == FK_PIPELINE && a.has_stage) ir_attr_set(p->c, &s->for_.attrs, "pipeline_stages", ir_av_int(a.stage));
    else if (a.has_stage) { front_error(p, ksp, "stage= is only valid for pl.pipeline"); return false; }
    /* Every stage is a copy of the body with its own buffers, and the copies multiply through nested
     * pipelines: past 16 the kernel outgrows on-chip memory and the compile time explodes */
    const AttrVal *stages = ir_attr_get(&s->for_.attrs, "pipeline_stages");
    int64_t outer = p->pipeline_clones ? p->pipeline_clones : 1, clones = outer;
    if (stages && (stages->kind != AV_INT || stages->i < 1)) {
        front_error(p, ksp, "pl.pipeline needs stage >= 1, e.g. stage=2");
        return false;
    }
    /* the product rule binds the user form only: a pass dump nests its own stage=2 loops */
    if (stages && (stages->i > 16 || ((clones = outer * stages->i) > 16 && p->user_form))) {
        front_error(p, ksp, "pl.pipeline(stage=%lld)%s: at most 16 copies of a loop body (each holds its own buffers); use stage=2 to 4",
                    (long long)stages->i, outer > 1 ? " inside another pl.pipeline multiplies the stages" : "");
        return false;
    }
    if (!make_iter_args(p, &h, &a, &s->for_.iter_args, sp)) return false;
    if (!front_expect_op(p, ":", "after the for header")) return false;
    YieldCtx y = { 0 };
    int64_t saved_clones = p->pipeline_clones;
    p->pipeline_clones = clones;
    p->loop_depth++;
    bool ok = front_parse_block(p, &s->for_.body, &y);
    p->loop_depth--;
    p->pipeline_clones = saved_clones;
    return ok && finish_loop_body(p, &y, &s->for_.iter_args, &s->for_.return_vars, sp);
}

static bool parse_while(Parser *p, StmtList *body, Span sp) {
    front_next(p);
    Stmt *s = push(p, body, ARENA_NEW(p->c->arena, Stmt), sp);
    s->kind = ST_WHILE;
    if (!(s->while_.cond = front_parse_expr(p)) || !front_expect_op(p, ":", "after the while condition")) return false;
    YieldCtx y = { 0 };
    p->loop_depth++;
    bool ok = front_parse_block(p, &s->while_.body, &y);
    p->loop_depth--;
    return ok && finish_loop_body(p, &y, &s->while_.iter_args, &s->while_.return_vars, sp);
}

/* ---------------------------------------------------------------- with */
static bool scope_option(Parser *p, Stmt *s, Tok *key) {
    Span vsp = front_peek(p, 0)->span;
    if (s->scope.kind == SC_INCORE && strcmp(key->text, "optimizations") == 0) return front_parse_optimizations(p, s);
    AttrVal v;
    if (!front_parse_attr_value(p, &v)) return false;
    if (s->scope.kind == SC_INCORE && strcmp(key->text, "level") == 0) {
        if (!front_parse_level(p, &v, vsp, &s->scope.level)) return false;
        if (s->scope.level != LV_CORE_GROUP) s->scope.kind = SC_HIERARCHY;
    } else if (s->scope.kind == SC_INCORE && strcmp(key->text, "name_hint") == 0) {
        if (v.kind != AV_STR) { front_error(p, vsp, "name_hint must be a string"); return false; }
        if (!front_is_identifier(v.s)) {      /* it names the kernel: the printed program must parse back */
            front_error(p, vsp, "name_hint \"%s\" names the kernel function, so it must be a Python identifier (letters, digits, '_'; not a keyword)", v.s);
            return false;
        }
        s->scope.name_hint = v.s;
    } else if (s->scope.kind == SC_RUNTIME && strcmp(key->text, "mode") == 0) {
        if (v.kind != AV_ENUM || (strcmp(v.s, "pl.ScopeMode.MANUAL") != 0 && strcmp(v.s, "pl.ScopeMode.AUTO") != 0)) {
            front_error(p, vsp, "mode must be pl.ScopeMode.AUTO or pl.ScopeMode.MANUAL");
            return false;
        }
        s->scope.manual = strcmp(v.s, "pl.ScopeMode.MANUAL") == 0;
    } else if (s->scope.kind == SC_INCORE && strcmp(key->text, "split_sibling") == 0) {
        /* written by AutoSplitCores on the later tasks of an uneven split (docs/passes/AutoSplitCores.md):
         * printed, so it parses back */
        if (v.kind != AV_BOOL) { front_error(p, vsp, "split_sibling must be True or False"); return false; }
        ir_attr_set(p->c, &s->scope.kwargs, key->text, v);
    } else if ((s->scope.kind == SC_INCORE || s->scope.kind == SC_HIERARCHY) && strcmp(key->text, "deps") != 0) {
        /* an option the compiler would silently ignore is an error */
        front_error(p, key->span, "pl.at has no option '%s' (options: level, name_hint, optimizations, deps)", key->text);
        return false;
    } else ir_attr_set(p->c, &s->scope.kwargs, key->text, v);
    return true;
}

static bool parse_with(Parser *p, StmtList *body, Span sp) {
    front_next(p);                                       /* with */
    Span ksp = front_peek(p, 0)->span;
    const char *kind = front_peek(p, 0)->kind == TK_NAME ? front_parse_dotted(p, &ksp) : "";
    ScopeKind sk;
    bool manual = false;
    if (!kind) return false;
    if (strcmp(kind, "pl.at") == 0) sk = SC_INCORE;
    else if (strcmp(kind, "pl.scope") == 0) sk = SC_RUNTIME;
    else if (strcmp(kind, "pl.manual_scope") == 0) { sk = SC_RUNTIME; manual = true; }
    else if (strcmp(kind, "pl.spmd") == 0) return front_parse_spmd_with(p, body, sp, ksp);
    else if (strcmp(kind, "pl.cluster") == 0) sk = SC_CLUSTER;
    else {
        front_error(p, ksp, "unknown scope '%s' (scopes: pl.at(level=...), pl.scope(), pl.spmd(N), pl.cluster())", kind);
        return false;
    }
    Stmt *s = push(p, body, ir_scope(p->c, sk), sp);
    s->scope.manual = manual;
    if (!front_expect_op(p, "(", "after the scope name")) return false;
    while (!p->failed && !front_is_op(p, ")")) {
        Tok *key = front_peek(p, 0);
        if (key->kind != TK_NAME || !front_is_op_at(p, 1, "=")) { front_error(p, key->span, "expected a keyword option such as level=pl.Level.CORE_GROUP"); return false; }
        front_next(p);
        front_next(p);
        if (!scope_option(p, s, key)) return false;
        if (!front_accept_op(p, ",")) break;
    }
    if (!front_expect_op(p, ")", "to close the scope options")) return false;
    Tok *as_name = NULL;
    if (front_is_name(p, "as")) {                    /* `with pl.at(...) as tid`: the region's task id */
        Span asp = front_peek(p, 0)->span;
        if (sk != SC_INCORE) { front_error(p, asp, "'with ... as name' binds a task id and is supported for pl.at regions only"); return false; }
        front_next(p);
        as_name = front_peek(p, 0);
        if (as_name->kind != TK_NAME) { front_error(p, as_name->span, "expected a name after 'as'"); return false; }
        front_next(p);
    }
    if (!front_expect_op(p, ":", "after the with header")) return false;
    if (!front_parse_block(p, &s->scope.body, NULL)) return false;
    if (as_name) {                                   /* defined once the region has run (a new variable each time) */
        Var *tv = ir_var_new(p->c, as_name->text, ir_scalar_type(p->c, DT_TASK_ID));
        tv->span = as_name->span;
        front_rebind(p, as_name->text, tv);
        s->scope.task_var = tv;
    }
    return true;
}

/* ---------------------------------------------------------------- dispatch */
static bool parse_stmt(Parser *p, StmtList *body, YieldCtx *y, bool *was_yield) {
    Tok *t = front_peek(p, 0);
    *was_yield = false;
    if (t->kind == TK_INDENT) { front_error(p, t->span, "unexpected indentation"); return false; }
    if (t->kind == TK_NAME) {
        const char *k = t->text;
        if (strcmp(k, "for") == 0) return parse_for(p, body, t->span);
        if (strcmp(k, "if") == 0) return parse_if(p, body, t->span);
        if (strcmp(k, "while") == 0) return parse_while(p, body, t->span);
        if (strcmp(k, "with") == 0) return parse_with(p, body, t->span);
        if (strcmp(k, "return") == 0) return parse_return(p, body);
        if (strcmp(k, "pass") == 0) { front_next(p); return end_of_stmt(p); }
        if (strcmp(k, "else") == 0 || strcmp(k, "elif") == 0) { front_error(p, t->span, "'%s' without a matching 'if'", k); return false; }
        if (strcmp(k, "break") == 0 || strcmp(k, "continue") == 0 || strcmp(k, "def") == 0 || strcmp(k, "class") == 0 ||
            strcmp(k, "import") == 0 || strcmp(k, "try") == 0 || strcmp(k, "lambda") == 0 || strcmp(k, "del") == 0) {
            front_error(p, t->span, "'%s' is not supported inside a pl function", k);
            return false;
        }
    }
    if (t->kind == TK_STRING && front_peek(p, 1)->kind == TK_NEWLINE) { front_next(p); front_next(p); return true; }  /* docstring */
    return parse_simple(p, body, y, was_yield);
}
