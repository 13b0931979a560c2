/* util: substitution maps, deep cloning with fresh definitions, in-place substitution, visitors and
 * constant folding of scalar expressions. */
#include "ir/ir.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static size_t varmap_hash(const Var *v, int nslot) {
    return (size_t)(((uintptr_t)v >> 4) * 0x9E3779B97F4A7C15ull) & (size_t)(nslot - 1);
}

/* the slot holding `from`, or the empty slot where it would go (nslot > 0) */
static int *varmap_slot(const VarMap *m, const Var *from) {
    size_t i = varmap_hash(from, m->nslot);
    while (m->slot[i] && m->from[m->slot[i] - 1] != from) i = (i + 1) & (size_t)(m->nslot - 1);
    return &m->slot[i];
}

static void varmap_rehash(VarMap *m, int nslot) {
    free(m->slot);
    m->slot = calloc((size_t)nslot, sizeof(int));
    PTOC_ASSERT(m->slot, "out of memory");
    m->nslot = nslot;
    for (int i = 0; i < m->len; i++) *varmap_slot(m, m->from[i]) = i + 1;
}

void ir_varmap_put(VarMap *m, Var *from, Expr *to) {
    if (2 * (m->len + 1) > m->nslot) varmap_rehash(m, m->nslot ? 2 * m->nslot : 32);
    int *sl = varmap_slot(m, from);
    if (*sl) { m->to[*sl - 1] = to; return; }
    if (m->len == m->cap) {
        m->cap = m->cap ? m->cap * 2 : 16;
        m->from = realloc(m->from, sizeof(Var *) * (size_t)m->cap);
        m->to = realloc(m->to, sizeof(Expr *) * (size_t)m->cap);
        PTOC_ASSERT(m->from && m->to, "out of memory");
    }
    m->from[m->len] = from;
    m->to[m->len++] = to;
    *sl = m->len;
}

Expr *ir_varmap_get(const VarMap *m, const Var *from) {
    if (!m->nslot) return NULL;
    int sl = *varmap_slot(m, from);
    return sl ? m->to[sl - 1] : NULL;
}

void ir_varmap_free(VarMap *m) { free(m->from); free(m->to); free(m->slot); memset(m, 0, sizeof *m); }

bool ir_is_const_int(const Expr *e, int64_t *out) {
    if (!e || e->kind != EX_CONST_INT) return false;
    if (out) *out = e->ci.value;
    return true;
}

/* ---- cloning ---- */
static Var *clone_def(IrCtx *c, Var *v, VarMap *m) {
    Var *n = v->kind == VAR_ITER_ARG ? ir_iter_arg_new(c, v->name, v->type, NULL) : ir_var_new(c, v->name, v->type);
    n->span = v->span;
    ir_varmap_put(m, v, ir_ref(n));
    return n;
}

static AttrList clone_attrs(IrCtx *c, const AttrList *l, VarMap *m) {
    AttrList out = {0};
    for (int i = 0; i < l->len; i++) {
        AttrVal v = l->items[i].val;
        if (v.kind == AV_EXPR) v.expr = ir_clone_expr(c, v.expr, m);
        ir_attr_set(c, &out, l->items[i].key, v);
    }
    return out;
}

Expr *ir_clone_expr(IrCtx *c, Expr *e, VarMap *m) {
    if (!e) return NULL;
    if (e->kind == EX_VAR) {
        Expr *to = ir_varmap_get(m, e->var);
        if (!to) return e;
        return to->kind == EX_VAR ? ir_ref(to->var) : ir_clone_expr(c, to, &(VarMap){0});
    }
    Expr *n = ARENA_NEW(c->arena, Expr);
    *n = *e;
    switch (e->kind) {
    case EX_BINARY: n->bin.lhs = ir_clone_expr(c, e->bin.lhs, m); n->bin.rhs = ir_clone_expr(c, e->bin.rhs, m); break;
    case EX_UNARY: n->un.operand = ir_clone_expr(c, e->un.operand, m); break;
    case EX_CALL:
        n->call.args = ARENA_ARRAY(c->arena, Expr *, e->call.nargs ? e->call.nargs : 1);
        for (int i = 0; i < e->call.nargs; i++) n->call.args[i] = ir_clone_expr(c, e->call.args[i], m);
        n->call.kwargs = clone_attrs(c, &e->call.kwargs, m);
        n->call.attrs = clone_attrs(c, &e->call.attrs, m);
        break;
    case EX_TUPLE:
        n->tuple.items = ARENA_ARRAY(c->arena, Expr *, e->tuple.n ? e->tuple.n : 1);
        for (int i = 0; i < e->tuple.n; i++) n->tuple.items[i] = ir_clone_expr(c, e->tuple.items[i], m);
        break;
    case EX_TUPLE_GET: n->tget.tuple = ir_clone_expr(c, e->tget.tuple, m); break;
    default: break;
    }
    return n;
}

static void clone_list(IrCtx *c, StmtList *dst, const StmtList *src, VarMap *m) {
    memset(dst, 0, sizeof *dst);
    for (int i = 0; i < src->len; i++) ir_list_push(c, dst, ir_clone_stmt(c, src->items[i], m));
}

static void clone_defs(IrCtx *c, VarList *dst, const VarList *src, VarMap *m) {
    memset(dst, 0, sizeof *dst);
    for (int i = 0; i < src->len; i++) ir_varlist_push(c, dst, clone_def(c, src->items[i], m));
}

static Expr **clone_exprs(IrCtx *c, Expr **v, int n, VarMap *m) {
    Expr **p = ARENA_ARRAY(c->arena, Expr *, n ? n : 1);
    for (int i = 0; i < n; i++) p[i] = ir_clone_expr(c, v[i], m);
    return p;
}

Stmt *ir_clone_stmt(IrCtx *c, Stmt *s, VarMap *m) {
    Stmt *n = ARENA_NEW(c->arena, Stmt);
    *n = *s;
    switch (s->kind) {
    case ST_ASSIGN:
        n->assign.value = ir_clone_expr(c, s->assign.value, m);
        n->assign.var = clone_def(c, s->assign.var, m);
        break;
    case ST_EVAL: n->eval.expr = ir_clone_expr(c, s->eval.expr, m); break;
    case ST_YIELD: n->yield.values = clone_exprs(c, s->yield.values, s->yield.n, m); break;
    case ST_RETURN: n->ret.values = clone_exprs(c, s->ret.values, s->ret.n, m); break;
    case ST_IF:
        n->if_.cond = ir_clone_expr(c, s->if_.cond, m);
        clone_list(c, &n->if_.then_body, &s->if_.then_body, m);
        clone_list(c, &n->if_.else_body, &s->if_.else_body, m);
        clone_defs(c, &n->if_.return_vars, &s->if_.return_vars, m);
        break;
    case ST_FOR: {
        n->for_.start = ir_clone_expr(c, s->for_.start, m);
        n->for_.stop = ir_clone_expr(c, s->for_.stop, m);
        n->for_.step = ir_clone_expr(c, s->for_.step, m);
        VarList inits = {0};
        clone_defs(c, &inits, &s->for_.iter_args, m);
        for (int i = 0; i < inits.len; i++) inits.items[i]->init = ir_clone_expr(c, s->for_.iter_args.items[i]->init, m);
        n->for_.iter_args = inits;
        n->for_.loop_var = clone_def(c, s->for_.loop_var, m);
        n->for_.attrs = clone_attrs(c, &s->for_.attrs, m);
        clone_list(c, &n->for_.body, &s->for_.body, m);
        clone_defs(c, &n->for_.return_vars, &s->for_.return_vars, m);
        break;
    }
    case ST_WHILE: {
        n->while_.cond = ir_clone_expr(c, s->while_.cond, m);
        VarList inits = {0};
        clone_defs(c, &inits, &s->while_.iter_args, m);
        for (int i = 0; i < inits.len; i++) inits.items[i]->init = ir_clone_expr(c, s->while_.iter_args.items[i]->init, m);
        n->while_.iter_args = inits;
        clone_list(c, &n->while_.body, &s->while_.body, m);
        clone_defs(c, &n->while_.return_vars, &s->while_.return_vars, m);
        break;
    }
    case ST_SCOPE:
        n->scope.core_num = ir_clone_expr(c, s->scope.core_num, m);
        n->scope.kwargs = clone_attrs(c, &s->scope.kwargs, m);
        clone_list(c, &n->scope.body, &s->scope.body, m);
        n->scope.task_var = s->scope.task_var ? clone_def(c, s->scope.task_var, m) : NULL;
        break;
    }
    return n;
}

/* ---- in-place substitution of uses ---- */
static void subst_attr_val(IrCtx *c, AttrVal *v, const VarMap *m);

Expr *ir_subst_expr(IrCtx *c, Expr *e, const VarMap *m) {
    if (!e) return NULL;
    switch (e->kind) {
    case EX_VAR: { Expr *to = ir_varmap_get(m, e->var); return to ? to : e; }
    case EX_BINARY: e->bin.lhs = ir_subst_expr(c, e->bin.lhs, m); e->bin.rhs = ir_subst_expr(c, e->bin.rhs, m); break;
    case EX_UNARY: e->un.operand = ir_subst_expr(c, e->un.operand, m); break;
    case EX_CALL:
        for (int i = 0; i < e->call.nargs; i++) e->call.args[i] = ir_subst_expr(c, e->call.args[i], m);
        ir_subst_attrs(c, &e->call.kwargs, m);
        ir_subst_attrs(c, &e->call.attrs, m);
        break;
    case EX_TUPLE:
        for (int i = 0; i < e->tuple.n; i++) e->tuple.items[i] = ir_subst_expr(c, e->tuple.items[i], m);
        break;
    case EX_TUPLE_GET: e->tget.tuple = ir_subst_expr(c, e->tget.tuple, m); break;
    default: break;
    }
    return e;
}

static void subst_vars_init(IrCtx *c, VarList *l, const VarMap *m) {
    for (int i = 0; i < l->len; i++) l->items[i]->init = ir_subst_expr(c, l->items[i]->init, m);
}

void ir_subst_stmts(IrCtx *c, StmtList *l, const VarMap *m) {
    for (int i = 0; i < l->len; i++) {
        Stmt *s = l->items[i];
        switch (s->kind) {
        case ST_ASSIGN: s->assign.value = ir_subst_expr(c, s->assign.value, m); break;
        case ST_EVAL: s->eval.expr = ir_subst_expr(c, s->eval.expr, m); break;
        case ST_YIELD: for (int j = 0; j < s->yield.n; j++) s->yield.values[j] = ir_subst_expr(c, s->yield.values[j], m); break;
        case ST_RETURN: for (int j = 0; j < s->ret.n; j++) s->ret.values[j] = ir_subst_expr(c, s->ret.values[j], m); break;
        case ST_IF:
            s->if_.cond = ir_subst_expr(c, s->if_.cond, m);
            ir_subst_stmts(c, &s->if_.then_body, m);
            ir_subst_stmts(c, &s->if_.else_body, m);
            break;
        case ST_FOR:
            s->for_.start = ir_subst_expr(c, s->for_.start, m);
            s->for_.stop = ir_subst_expr(c, s->for_.stop, m);
            s->for_.step = ir_subst_expr(c, s->for_.step, m);
            subst_vars_init(c, &s->for_.iter_args, m);
            ir_subst_stmts(c, &s->for_.body, m);
            break;
        case ST_WHILE:
            s->while_.cond = ir_subst_expr(c, s->while_.cond, m);
            subst_vars_init(c, &s->while_.iter_args, m);
            ir_subst_stmts(c, &s->while_.body, m);
            break;
        case ST_SCOPE:
            s->scope.core_num = ir_subst_expr(c, s->scope.core_num, m);
            ir_subst_attrs(c, &s->scope.kwargs, m);
            ir_subst_stmts(c, &s->scope.body, m);
            break;
        }
    }
}

static void subst_attr_val(IrCtx *c, AttrVal *v, const VarMap *m) {
    if (v->kind == AV_EXPR) v->expr = ir_subst_expr(c, v->expr, m);
    if (v->kind == AV_LIST)
        for (int i = 0; i < v->nitems; i++) subst_attr_val(c, &v->items[i], m);
}

void ir_subst_attrs(IrCtx *c, AttrList *l, const VarMap *m) {
    for (int i = 0; i < l->len; i++) subst_attr_val(c, &l->items[i].val, m);
}

/* ---- visitors ---- */
static void visit_attr_val(const AttrVal *v, ExprVisitor fn, void *ud) {
    if (v->kind == AV_EXPR) ir_visit_expr(v->expr, fn, ud);
    if (v->kind == AV_LIST)
        for (int i = 0; i < v->nitems; i++) visit_attr_val(&v->items[i], fn, ud);
}

void ir_visit_attrs(const AttrList *l, ExprVisitor fn, void *ud) {
    for (int i = 0; i < l->len; i++) visit_attr_val(&l->items[i].val, fn, ud);
}

void ir_visit_expr(Expr *e, ExprVisitor fn, void *ud) {
    if (!e) return;
    fn(e, ud);
    switch (e->kind) {
    case EX_BINARY: ir_visit_expr(e->bin.lhs, fn, ud); ir_visit_expr(e->bin.rhs, fn, ud); break;
    case EX_UNARY: ir_visit_expr(e->un.operand, fn, ud); break;
    case EX_CALL:
        for (int i = 0; i < e->call.nargs; i++) ir_visit_expr(e->call.args[i], fn, ud);
        ir_visit_attrs(&e->call.kwargs, fn, ud);
        ir_visit_attrs(&e->call.attrs, fn, ud);
        break;
    case EX_TUPLE: for (int i = 0; i < e->tuple.n; i++) ir_visit_expr(e->tuple.items[i], fn, ud); break;
    case EX_TUPLE_GET: ir_visit_expr(e->tget.tuple, fn, ud); break;
    default: break;
    }
}

void ir_visit_exprs(StmtList *l, ExprVisitor fn, void *ud) {
    for (int i = 0; i < l->len; i++) {
        Stmt *s = l->items[i];
        switch (s->kind) {
        case ST_ASSIGN: ir_visit_expr(s->assign.value, fn, ud); break;
        case ST_EVAL: ir_visit_expr(s->eval.expr, fn, ud); break;
        case ST_YIELD: for (int j = 0; j < s->yield.n; j++) ir_visit_expr(s->yield.values[j], fn, ud); break;
        case ST_RETURN: for (int j = 0; j < s->ret.n; j++) ir_visit_expr(s->ret.values[j], fn, ud); break;
        case ST_IF:
            ir_visit_expr(s->if_.cond, fn, ud);
            ir_visit_exprs(&s->if_.then_body, fn, ud);
            ir_visit_exprs(&s->if_.else_body, fn, ud);
            break;
        case ST_FOR:
            ir_visit_expr(s->for_.start, fn, ud);
            ir_visit_expr(s->for_.stop, fn, ud);
            ir_visit_expr(s->for_.step, fn, ud);
            for (int j = 0; j < s->for_.iter_args.len; j++) ir_visit_expr(s->for_.iter_args.items[j]->init, fn, ud);
            ir_visit_exprs(&s->for_.body, fn, ud);
            break;
        case ST_WHILE:
            ir_visit_expr(s->while_.cond, fn, ud);
            for (int j = 0; j < s->while_.iter_args.len; j++) ir_visit_expr(s->while_.iter_args.items[j]->init, fn, ud);
            ir_visit_exprs(&s->while_.body, fn, ud);
            break;
        case ST_SCOPE:
            ir_visit_expr(s->scope.core_num, fn, ud);
            ir_visit_attrs(&s->scope.kwargs, fn, ud);
            ir_visit_exprs(&s->scope.body, fn, ud);
            break;
        }
    }
}

typedef struct { const Var *v; bool found; } UseQuery;
static void find_use(Expr *e, void *ud) {
    UseQuery *q = ud;
    if (e->kind == EX_VAR && e->var == q->v) q->found = true;
}

bool ir_expr_uses_var(Expr *e, const Var *v) {
    UseQuery q = { v, false };
    ir_visit_expr(e, find_use, &q);
    return q.found;
}

bool ir_stmts_use_var(StmtList *l, const Var *v) {
    UseQuery q = { v, false };
    ir_visit_exprs(l, find_use, &q);
    return q.found;
}

/* ---- folding ---- */

static bool const_scalar(const Expr *e, ScalarVal *out) {
    if (e->kind == EX_CONST_INT) { *out = ir_scalar_int(e->ci.value); return true; }
    if (e->kind == EX_CONST_BOOL) { *out = ir_scalar_bool(e->cb.value); return true; }
    return false;
}

/* Folds an integer/boolean operation on two constants (float results stay unfolded, so the printed
 * program keeps the user's text). An error (overflow, division by zero, negative shift) is reported
 * at the expression when c->diag is set, and the expression stays as written. */
static Expr *fold_constants(IrCtx *c, Expr *e, ScalarVal a, ScalarVal b) {
    ScalarVal r;
    ScalarErr err = ir_scalar_binary(e->bin.op, a, b, &r);
    if (err) {
        if (c->diag) {
            StrBuf msg = {0};
            ir_scalar_binary_error(err, e->bin.op, a, b, &msg);
            diag_error(c->diag, e->span, "%s", sb_cstr(&msg));
            sb_free(&msg);
        }
        return e;
    }
    if (r.kind == SV_BOOL) return ir_const_bool(c, r.i != 0);
    if (r.kind == SV_INT) return ir_const_int(c, r.i, e->bin.lhs->kind == EX_CONST_INT ? e->bin.lhs->type->dtype : DT_INDEX);
    return e;
}

/* -c, ~c, not c, abs(c) of a constant (casts stay: they carry the dtype the user chose). */
static Expr *fold_unary(IrCtx *c, Expr *e) {
    e->un.operand = ir_fold(c, e->un.operand);
    ScalarVal v, r;
    if (e->un.op == UN_CAST || !const_scalar(e->un.operand, &v)) return e;
    ScalarErr err = ir_scalar_unary(e->un.op, DT_NONE, v, &r);
    if (err) {
        if (c->diag) {
            StrBuf msg = {0};
            ir_scalar_unary_error(err, e->un.op, DT_NONE, v, &msg);
            diag_error(c->diag, e->span, "%s", sb_cstr(&msg));
            sb_free(&msg);
        }
        return e;
    }
    Expr *f = r.kind == SV_BOOL ? ir_const_bool(c, r.i != 0) : ir_const_int(c, r.i, e->un.operand->kind == EX_CONST_INT ? e->un.operand->type->dtype : DT_INDEX);
    f->span = e->span;
    return f;
}

Expr *ir_fold(IrCtx *c, Expr *e) {
    if (e && e->kind == EX_UNARY) return fold_unary(c, e);
    if (!e || e->kind != EX_BINARY) return e;
    e->bin.lhs = ir_fold(c, e->bin.lhs);
    e->bin.rhs = ir_fold(c, e->bin.rhs);
    int64_t a, b, d;
    ScalarVal x, y;
    Expr *L = e->bin.lhs, *R = e->bin.rhs;
    if (const_scalar(L, &x) && const_scalar(R, &y) && e->bin.op != BIN_DIV) {
        Expr *f = fold_constants(c, e, x, y);
        if (f != e) f->span = e->span;
        return f;
    }
    /* (x + c1) cmp c2  ->  x cmp (c2 - c1), when c2 - c1 fits */
    if (e->bin.op >= BIN_EQ && e->bin.op <= BIN_GE && ir_is_const_int(R, &b) && L->kind == EX_BINARY &&
        L->bin.op == BIN_ADD && ir_is_const_int(L->bin.rhs, &a) && checked_sub(b, a, &d))
        return ir_binary(c, e->bin.op, L->bin.lhs, ir_const_int(c, d, R->type->dtype));
    /* x + 0, x * 1 */
    if ((e->bin.op == BIN_ADD || e->bin.op == BIN_SUB) && ir_is_const_int(R, &b) && b == 0) return L;
    if (e->bin.op == BIN_MUL && ir_is_const_int(R, &b) && b == 1) return L;
    return e;
}
