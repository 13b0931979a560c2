/* helpers — @pl.jit.incore and @pl.jit.inline helpers called by bare name from a @pl.jit function
 * (spec/language.md §1.2).
 *
 * Requires: parse_func.c (front_parse_jit_function), bind.c (parameter binding), parse_expr.c.
 * Produces: an incore helper becomes an InCore function of the program, called like a task
 *           (`self.name(...)` in the printed form); an inline helper is parsed once into a Function
 *           outside the program and each call statement is replaced by a copy of its body
 *           (front_splice_inlines), its return value assigned to the call's target.
 * Does: a helper is parsed at its first call, its unshaped parameters bound from that call's
 *       arguments (a caller parameter, a pl.create_tensor local, a slice view, a helper's result:
 *       any argument with a static tensor type). Keyword arguments are put in the helper's
 *       parameter order. The parser state of the caller is saved around the helper's parse. */
#include "front/front_internal.h"

#include <string.h>

#define MAX_HELPER_PARAMS 32

int front_helper_kind(const char *d) {
    if (strcmp(d, "pl.jit.incore") == 0) return FT_INCORE;
    if (strcmp(d, "pl.jit.inline") == 0) return FT_INLINE;
    if (strcmp(d, "pl.jit.opaque") == 0) return FT_OPAQUE;
    return -1;
}

void front_note_helper(Parser *p, FuncType type, int def_pos, int deco_args, const char *name) {
    JitHelper h = { name, type, def_pos, deco_args, NULL, false, 0 };
    for (int i = 0; i < p->helpers.len; i++)
        if (strcmp(p->helpers.data[i].name, name) == 0) { p->helpers.data[i] = h; return; }   /* Python: the later def wins */
    vec_push(&p->helpers, h);
}

static JitHelper *find_helper(Parser *p, const char *name) {
    for (int i = 0; i < p->helpers.len; i++)
        if (strcmp(p->helpers.data[i].name, name) == 0) return &p->helpers.data[i];
    return NULL;
}

/* The parameter names of the helper's def, read from its tokens (before its header is parsed: the
 * call's keyword arguments are ordered by them, and its binding is built from them). */
static int param_names(Parser *p, const JitHelper *h, const char **out) {
    int i = h->pos + 2, depth = 0, n = 0;          /* 'def' NAME '(' */
    for (; i < p->ntoks && p->toks[i].kind != TK_EOF; i++) {
        Tok *t = &p->toks[i];
        if (t->kind == TK_OP && strchr("([{", t->text[0]) && !t->text[1]) { depth++; continue; }
        if (t->kind == TK_OP && strchr(")]}", t->text[0]) && !t->text[1]) { if (--depth == 0) break; continue; }
        Tok *prev = &p->toks[i - 1];
        if (depth == 1 && t->kind == TK_NAME && prev->kind == TK_OP && (!strcmp(prev->text, "(") || !strcmp(prev->text, ",")) &&
            n < MAX_HELPER_PARAMS)
            out[n++] = t->text;
    }
    return n;
}

typedef struct CallArgs { Expr *args[MAX_HELPER_PARAMS]; int n; } CallArgs;

static int index_of(const char **names, int n, const char *name) {
    for (int i = 0; i < n; i++)
        if (strcmp(names[i], name) == 0) return i;
    return -1;
}

/* '(' args ')' into the helper's parameter slots */
static bool parse_helper_args(Parser *p, const JitHelper *h, const char **names, CallArgs *ca, Span sp) {
    front_next(p);                                   /* '(' */
    int npos = 0;
    bool kw = false;
    while (!p->failed && !front_is_op(p, ")")) {
        Tok *t = front_peek(p, 0);
        int slot;
        if (t->kind == TK_NAME && front_is_op_at(p, 1, "=")) {
            front_next(p);
            front_next(p);
            kw = true;
            if ((slot = index_of(names, ca->n, t->text)) < 0) {
                front_error(p, t->span, "helper '%s' has no parameter '%s'", h->name, t->text);
                return false;
            }
        } else {
            if (kw) { front_error(p, t->span, "positional argument after keyword arguments"); return false; }
            if ((slot = npos++) >= ca->n) { front_error(p, t->span, "helper '%s' takes %d arguments", h->name, ca->n); return false; }
        }
        if (ca->args[slot]) { front_error(p, t->span, "parameter '%s' of helper '%s' given twice", names[slot], h->name); return false; }
        Expr *e = front_parse_expr(p);
        if (!e) return false;
        if (!e->type || e->type->kind == TY_TUPLE) { front_error(p, e->span.line ? e->span : t->span, "this argument has no value type"); return false; }
        ca->args[slot] = e;
        if (!front_accept_op(p, ",")) break;
    }
    if (!front_expect_op(p, ")", "to close the argument list")) return false;
    for (int i = 0; i < ca->n; i++)
        if (!ca->args[i]) {
            front_error(p, sp, "the call of helper '%s' gives no value for parameter '%s'", h->name, names[i]);
            return false;
        }
    return true;
}

/* The tensor arguments of the first call bind the helper's parameters (shape and dtype). */
static void call_binding(const CallArgs *ca, const char **names, FrontArg *fa, FrontBinding *b) {
    *b = (FrontBinding){ fa, 0, NULL, 0, 0, 0 };
    for (int i = 0; i < ca->n; i++) {
        const Expr *e = ca->args[i];
        const Type *t = e->type;
        if (t->kind != TY_TENSOR || t->rank > 8) continue;
        FrontArg a = { .name = names[i], .kind = FA_TENSOR, .dtype = t->dtype, .rank = t->rank, .span = e->span };
        if (!ir_type_static_dims(t, a.dims)) continue;
        fa[b->nargs++] = a;
    }
}

/* Parses the helper with the caller's parser state saved around it. */
static bool parse_helper(Parser *p, JitHelper *h, const FrontBinding *b, Span call_sp) {
    int pos = p->pos, return_line = p->return_line, loop_depth = p->loop_depth, depth = p->depth;
    int64_t clones = p->pipeline_clones;
    Function *fn = p->fn;
    const FrontBinding *binding = p->binding;
    Span call_site = p->call_site;
    VEC(Sym) syms = { p->syms.data, p->syms.len, p->syms.cap };
    VEC(const char *) vars = { p->variables.data, p->variables.len, p->variables.cap };
    p->syms.data = NULL; p->syms.len = p->syms.cap = 0;
    p->variables.data = NULL; p->variables.len = p->variables.cap = 0;
    p->binding = b;
    p->call_site = call_sp;
    p->loop_depth = 0;
    p->pipeline_clones = 0;
    h->parsing = true;
    h->fn = front_parse_jit_function(p, h->pos, h->deco_args, h->type);
    h->parsing = false;
    vec_free(&p->syms);
    vec_free(&p->variables);
    p->syms.data = syms.data; p->syms.len = syms.len; p->syms.cap = syms.cap;
    p->variables.data = vars.data; p->variables.len = vars.len; p->variables.cap = vars.cap;
    p->pos = pos; p->return_line = return_line; p->loop_depth = loop_depth; p->depth = depth;
    p->pipeline_clones = clones; p->fn = fn; p->binding = binding; p->call_site = call_site;
    return h->fn && !p->failed;
}

Expr *front_helper_call(Parser *p, const char *name, Span sp) {
    JitHelper *h = find_helper(p, name);
    if (!h) return NULL;
    if (h->type == FT_OPAQUE) {
        front_error(p, sp, "'%s' is a @pl.jit.opaque helper, which ptoc does not support yet; use @pl.jit.incore or @pl.jit.inline", name);
        return NULL;
    }
    const char *names[MAX_HELPER_PARAMS];
    CallArgs ca = { { NULL }, 0 };
    ca.n = param_names(p, h, names);
    if (!parse_helper_args(p, h, names, &ca, sp)) return NULL;
    if (!h->fn) {
        if (h->parsing) { front_error(p, sp, "helper '%s' calls itself; recursion is not supported", name); return NULL; }
        FrontArg fa[MAX_HELPER_PARAMS];
        FrontBinding b;
        call_binding(&ca, names, fa, &b);
        if (!parse_helper(p, h, &b, sp)) return NULL;
    }
    if (h->fn->params.len != ca.n) { front_error(p, sp, "helper '%s' takes %d arguments, got %d", name, h->fn->params.len, ca.n); return NULL; }
    Expr *call = ir_call_fn(p->c, h->fn, ca.args, ca.n);
    call->span = front_span_join(sp, front_prev_span(p));
    return front_finish_call(p, call) ? call : NULL;
}

/* ---------------------------------------------------------------- inline splicing */
static bool is_inline_call(const Expr *e) {
    return e && e->kind == EX_CALL && e->call.op == OP_NONE && e->call.callee && e->call.callee->type == FT_INLINE;
}

typedef struct Nested { const Expr *found; } Nested;

static void find_inline(Expr *e, void *ud) {
    Nested *n = ud;
    if (!n->found && is_inline_call(e)) n->found = e;
}

static const char *copy_name(Parser *p, const Function *f, int site, const char *base) {
    const char *n = site > 1 ? arena_printf(p->c->arena, "%s%d_%s", f->name, site, base) : arena_printf(p->c->arena, "%s_%s", f->name, base);
    return front_intern(p, n);
}

/* The copies' variables are named <helper>_<name> (<helper><k>_<name> for the k-th call site) so
 * that they never share a name with the caller's variables: every definition in the copied
 * statements is a fresh variable (ir_clone_stmt). */
static void rename_list(Parser *p, StmtList *l, const Function *f, int site);

static void rename_var(Parser *p, Var *v, const Function *f, int site) { if (v) v->name = copy_name(p, f, site, v->name); }

static void rename_vars(Parser *p, VarList *l, const Function *f, int site) {
    for (int i = 0; i < l->len; i++) rename_var(p, l->items[i], f, site);
}

static void rename_list(Parser *p, StmtList *l, const Function *f, int site) {
    for (int i = 0; i < l->len; i++) {
        Stmt *s = l->items[i];
        switch (s->kind) {
        case ST_ASSIGN: rename_var(p, s->assign.var, f, site); break;
        case ST_IF:
            rename_list(p, &s->if_.then_body, f, site);
            rename_list(p, &s->if_.else_body, f, site);
            rename_vars(p, &s->if_.return_vars, f, site);
            break;
        case ST_FOR:
            rename_var(p, s->for_.loop_var, f, site);
            rename_vars(p, &s->for_.iter_args, f, site);
            rename_list(p, &s->for_.body, f, site);
            rename_vars(p, &s->for_.return_vars, f, site);
            break;
        case ST_WHILE:
            rename_vars(p, &s->while_.iter_args, f, site);
            rename_list(p, &s->while_.body, f, site);
            rename_vars(p, &s->while_.return_vars, f, site);
            break;
        case ST_SCOPE:
            rename_list(p, &s->scope.body, f, site);
            rename_var(p, s->scope.task_var, f, site);
            break;
        default: break;
        }
    }
}

/* An argument that is not a variable or a constant (a slice view, an expression) is evaluated once,
 * before the copy, into <helper>_<param>: the call evaluates it at the call site too. */
static Expr *bind_arg(Parser *p, StmtList *pre, Expr *arg, const Function *f, int site, int i) {
    if (arg->kind == EX_VAR || arg->kind == EX_CONST_INT || arg->kind == EX_CONST_FLOAT || arg->kind == EX_CONST_BOOL) return arg;
    Var *v = ir_var_new(p->c, copy_name(p, f, site, f->params.items[i]->name), arg->type);
    v->span = arg->span;
    Stmt *s = ir_assign(p->c, v, arg);
    s->span = arg->span;
    ir_list_push(p->c, pre, s);
    return ir_ref(v);
}

/* Replaces body->items[*at] (x = helper(...) or helper(...)) by the helper's statements. */
static bool splice_one(Parser *p, StmtList *body, int *at, Stmt *s, Expr *call) {
    Function *f = call->call.callee;
    StmtList *fb = &f->body;
    Stmt *ret = fb->len && fb->items[fb->len - 1]->kind == ST_RETURN ? fb->items[fb->len - 1] : NULL;
    int nstmts = ret ? fb->len - 1 : fb->len;
    if (s->kind == ST_ASSIGN && (!ret || ret->ret.n != 1)) {
        front_error(p, call->span, "inline helper '%s' must end with 'return' of one value to be assigned", f->name);
        return false;
    }
    JitHelper *h = find_helper(p, f->name);
    int site = h ? ++h->spliced : 1;
    VarMap m = { 0 };
    StmtList copies = { 0 };
    Expr **args = ARENA_ARRAY(p->c->arena, Expr *, f->params.len ? f->params.len : 1);
    for (int i = 0; i < f->params.len; i++) {
        args[i] = bind_arg(p, &copies, call->call.args[i], f, site, i);
        ir_varmap_put(&m, f->params.items[i], args[i]);
    }
    for (int i = 0; i < nstmts; i++) ir_list_push(p->c, &copies, ir_clone_stmt(p->c, fb->items[i], &m));
    Expr *value = s->kind == ST_ASSIGN ? ir_clone_expr(p->c, ret->ret.values[0], &m) : NULL;
    StmtList body_copies = { copies.items, copies.len, copies.cap };
    for (int i = 0; i < f->params.len && body_copies.len; i++)   /* the argument temporaries are named already */
        if (args[i] != call->call.args[i]) { body_copies.items++; body_copies.len--; }
    rename_list(p, &body_copies, f, site);
    ir_varmap_free(&m);
    int k = *at;
    bool keep = value && !(value->kind == EX_VAR && value->var == s->assign.var);    /* c = c: nothing to do */
    if (keep) s->assign.value = value;
    else {                                         /* the call statement goes */
        memmove(&body->items[k], &body->items[k + 1], sizeof(Stmt *) * (size_t)(body->len - k - 1));
        body->len--;
    }
    for (int i = 0; i < copies.len; i++) ir_list_insert(p->c, body, k + i, copies.items[i]);
    *at = k + copies.len + (keep ? 1 : 0);
    return true;
}

static bool splice_list(Parser *p, StmtList *l);

static bool splice_stmt(Parser *p, StmtList *l, int *i) {
    Stmt *s = l->items[*i];
    Expr *top = s->kind == ST_ASSIGN ? s->assign.value : s->kind == ST_EVAL ? s->eval.expr : NULL;
    if (is_inline_call(top)) return splice_one(p, l, i, s, top);
    bool ok = true;
    switch (s->kind) {
    case ST_IF: ok = splice_list(p, &s->if_.then_body) && splice_list(p, &s->if_.else_body); break;
    case ST_FOR: ok = splice_list(p, &s->for_.body); break;
    case ST_WHILE: ok = splice_list(p, &s->while_.body); break;
    case ST_SCOPE: ok = splice_list(p, &s->scope.body); break;
    default: break;
    }
    if (ok && s->kind != ST_IF && s->kind != ST_FOR && s->kind != ST_WHILE && s->kind != ST_SCOPE) {
        StmtList one = { &s, 1, 1 };
        Nested n = { NULL };
        ir_visit_exprs(&one, find_inline, &n);
        if (n.found) {
            front_error(p, n.found->span, "call inline helper '%s' as a statement or as the value of an assignment "
                        "(x = %s(...)), not inside another expression", n.found->call.callee->name, n.found->call.callee->name);
            return false;
        }
    }
    (*i)++;
    return ok;
}

static bool splice_list(Parser *p, StmtList *l) {
    for (int i = 0; i < l->len;)
        if (!splice_stmt(p, l, &i)) return false;
    return true;
}

bool front_splice_inlines(Parser *p, Function *f) { return splice_list(p, &f->body); }
