/* util: helpers shared by passes — perf hints, fresh names, statement/call accessors. */
#include "pass/pass.h"

#include <string.h>

void pass_hint(PassCtx *ctx, Span sp, const char *code, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    diag_vadd(ctx->diag, DIAG_PERF, sp, code, fmt, ap);
    va_end(ap);
}

int pass_user_name_len(const char *name) {
    const char *cut = strstr(name, "__");
    return cut ? (int)(cut - name) : (int)strlen(name);
}

const char *pass_name(PassCtx *ctx, const char *base, const char *suffix) {
    int len = pass_user_name_len(base);   /* strip an earlier versioning suffix so names do not grow */
    return arena_printf(ctx->ir->arena, "%.*s__%s_v%d", len, base, suffix, ctx->counter++);
}

Expr *pass_stmt_call(Stmt *s) {
    Expr *e = s->kind == ST_ASSIGN ? s->assign.value : s->kind == ST_EVAL ? s->eval.expr : NULL;
    return e && e->kind == EX_CALL ? e : NULL;
}

bool pass_is_op(const Expr *e, OpId op) { return e && e->kind == EX_CALL && e->call.op == op; }

void pass_var_set_type(Var *v, Type *t) {
    v->type = t;
    if (v->ref) v->ref->type = t;
}

int64_t pass_l0c_align(PassCtx *ctx, DType acc) { return target_l0c_align_m(ctx->target, acc); }

void pass_ctx_free(PassCtx *ctx) { vec_free(&ctx->tiles); vec_free(&ctx->untiled); }

/* ---- buffer aliasing ---- */
static void alias_set(PassAliases *a, const Var *v, Var *src, Var *src2) {
    PTOC_ASSERT(v->id >= 0 && v->id < a->n, "variable %s (id %d) defined after the alias map was built", v->name, v->id);
    a->src[v->id] = src;
    a->src2[v->id] = src2;
}

static Var *yield_var(StmtList *body, int k) {
    if (!body->len) return NULL;
    Stmt *y = body->items[body->len - 1];
    if (y->kind != ST_YIELD || k >= y->yield.n || y->yield.values[k]->kind != EX_VAR) return NULL;
    return y->yield.values[k]->var;
}

/* The statement of l (at any depth) defining v, or NULL. */
static const Stmt *find_assign(const StmtList *l, const Var *v) {
    for (int i = 0; i < l->len; i++) {
        const Stmt *s = l->items[i], *r = NULL;
        if (s->kind == ST_ASSIGN && s->assign.var == v) return s;
        if (s->kind == ST_FOR) r = find_assign(&s->for_.body, v);
        if (s->kind == ST_WHILE) r = find_assign(&s->while_.body, v);
        if (s->kind == ST_IF) { r = find_assign(&s->if_.then_body, v); if (!r) r = find_assign(&s->if_.else_body, v); }
        if (s->kind == ST_SCOPE) r = find_assign(&s->scope.body, v);
        if (r) return r;
    }
    return NULL;
}

/* The argument a function call's r-th result aliases. The callee returns a parameter itself
 * (param-explicit returns, OutlineIncoreScopes) or the in-place result of writing it (a hand-written
 * `c2 = pl.store(acc, offs, c); return c2`); otherwise, as the runtime does, the r-th parameter the
 * callee writes. */
static Var *call_result_arg(const Expr *call, int r) {
    const Function *f = call->call.callee;
    if (!f || !f->body.len) return NULL;
    const Stmt *ret = f->body.items[f->body.len - 1];
    const Var *v = ret->kind == ST_RETURN && r < ret->ret.n && ret->ret.values[r]->kind == EX_VAR ? ret->ret.values[r]->var : NULL;
    for (int guard = 0; v && guard < 1000; guard++) {
        for (int k = 0; k < f->params.len && k < call->call.nargs; k++)
            if (f->params.items[k] == v) return call->call.args[k]->kind == EX_VAR ? call->call.args[k]->var : NULL;
        const Stmt *d = find_assign(&f->body, v);
        int slot = d ? pass_inplace_slot(d->assign.value) : -1;
        v = slot >= 0 && d->assign.value->call.args[slot]->kind == EX_VAR ? d->assign.value->call.args[slot]->var
            : d && d->assign.value->kind == EX_VAR ? d->assign.value->var : NULL;
    }
    for (int k = 0, seen = 0; k < f->params.len && k < call->call.nargs && f->param_dirs; k++)
        if (f->params.items[k]->type->kind == TY_TENSOR && f->param_dirs[k] != PD_IN && seen++ == r)
            return call->call.args[k]->kind == EX_VAR ? call->call.args[k]->var : NULL;
    return NULL;
}

static void alias_list(PassAliases *a, StmtList *l) {
    for (int i = 0; i < l->len; i++) {
        Stmt *s = l->items[i];
        switch (s->kind) {
        case ST_ASSIGN: {
            Expr *v = s->assign.value;
            if (v->kind == EX_VAR) alias_set(a, s->assign.var, v->var, NULL);
            int slot = pass_inplace_slot(v);
            if (slot >= 0 && v->call.args[slot]->kind == EX_VAR) alias_set(a, s->assign.var, v->call.args[slot]->var, NULL);
            if (v->kind == EX_CALL && v->call.callee && v->call.callee->nreturns == 1) {
                Var *arg = call_result_arg(v, 0);
                if (arg) alias_set(a, s->assign.var, arg, NULL);
            }
            if (v->kind == EX_TUPLE_GET && v->tget.tuple->kind == EX_VAR) {
                Stmt *d = a->defs[v->tget.tuple->var->id];
                Var *arg = d && pass_stmt_call(d) && d->assign.value->call.callee ? call_result_arg(d->assign.value, v->tget.index) : NULL;
                if (arg) alias_set(a, s->assign.var, arg, NULL);
            }
            a->defs[s->assign.var->id] = s;
            break;
        }
        case ST_FOR:
            for (int k = 0; k < s->for_.iter_args.len; k++) {
                Var *it = s->for_.iter_args.items[k];
                if (it->init && it->init->kind == EX_VAR) alias_set(a, it, it->init->var, NULL);
                if (k < s->for_.return_vars.len) alias_set(a, s->for_.return_vars.items[k], it, NULL);
            }
            alias_list(a, &s->for_.body);
            break;
        case ST_WHILE:
            for (int k = 0; k < s->while_.iter_args.len; k++) {
                Var *it = s->while_.iter_args.items[k];
                if (it->init && it->init->kind == EX_VAR) alias_set(a, it, it->init->var, NULL);
                if (k < s->while_.return_vars.len) alias_set(a, s->while_.return_vars.items[k], it, NULL);
            }
            alias_list(a, &s->while_.body);
            break;
        case ST_IF:
            for (int k = 0; k < s->if_.return_vars.len; k++) {
                Var *t = yield_var(&s->if_.then_body, k), *e = yield_var(&s->if_.else_body, k);
                if (t && e) alias_set(a, s->if_.return_vars.items[k], t, e);
            }
            alias_list(a, &s->if_.then_body);
            alias_list(a, &s->if_.else_body);
            break;
        case ST_SCOPE: alias_list(a, &s->scope.body); break;
        default: break;
        }
    }
}

void pass_aliases_build(PassCtx *ctx, StmtList *body, PassAliases *a) {
    a->n = ctx->ir->next_var_id;
    a->src = calloc((size_t)a->n + 1, sizeof(Var *));
    a->src2 = calloc((size_t)a->n + 1, sizeof(Var *));
    a->defs = calloc((size_t)a->n + 1, sizeof(Stmt *));
    PTOC_ASSERT(a->src && a->src2 && a->defs, "out of memory");
    alias_list(a, body);
}

void pass_aliases_free(PassAliases *a) {
    free(a->src);
    free(a->src2);
    free(a->defs);
    memset(a, 0, sizeof *a);
}

Var *pass_alias_root(const PassAliases *a, Var *v) {
    for (int guard = 0; v && v->id < a->n && guard <= a->n; guard++) {
        Var *s = a->src[v->id], *s2 = a->src2[v->id];
        if (!s) return v;
        if (s2) {                       /* a branch merge: one buffer only when both sides agree */
            Var *r1 = pass_alias_root(a, s), *r2 = pass_alias_root(a, s2);
            return r1 == r2 ? r1 : v;
        }
        v = s;
    }
    return v;
}

int pass_inplace_slot(const Expr *e) {
    if (!e || e->kind != EX_CALL || e->call.op == OP_NONE) return -1;
    int slot = ir_op_info(e->call.op)->reuses_input;
    return slot < e->call.nargs ? slot : -1;
}

/* ---- loop results after re-typing ---- */
static void refresh_results(VarList *rv, const StmtList *body) {
    if (!rv->len || !body->len) return;
    const Stmt *y = body->items[body->len - 1];
    if (y->kind != ST_YIELD) return;
    for (int i = 0; i < rv->len && i < y->yield.n; i++) {
        Var *r = rv->items[i];
        const Type *yt = y->yield.values[i]->type;
        if (r->type && r->type->kind == TY_TILE && r->type->space == MS_NONE && yt && yt->kind == TY_TILE &&
            yt->space != MS_NONE && ir_type_same_shape(r->type, yt))
            pass_var_set_type(r, (Type *)yt);
    }
}

void pass_refresh_loop_results(StmtList *l) {
    for (int i = 0; i < l->len; i++) {
        Stmt *s = l->items[i];
        if (s->kind == ST_FOR) { pass_refresh_loop_results(&s->for_.body); refresh_results(&s->for_.return_vars, &s->for_.body); }
        if (s->kind == ST_WHILE) { pass_refresh_loop_results(&s->while_.body); refresh_results(&s->while_.return_vars, &s->while_.body); }
        if (s->kind == ST_IF) { pass_refresh_loop_results(&s->if_.then_body); pass_refresh_loop_results(&s->if_.else_body); }
        if (s->kind == ST_SCOPE) pass_refresh_loop_results(&s->scope.body);
    }
}

/* ---- variable read counts (PassUses) ---- */
static void count_use(Expr *e, void *ud) {
    PassUses *u = ud;
    if (e->kind == EX_VAR && e->var->id >= 0 && e->var->id < u->n) u->count[e->var->id]++;
}

static void zero_use(Expr *e, void *ud) {
    PassUses *u = ud;
    if (e->kind == EX_VAR && e->var->id >= 0 && e->var->id < u->n) u->count[e->var->id] = 0;
}

void pass_uses_init(PassCtx *ctx, PassUses *u) {
    u->n = ctx->ir->next_var_id;
    u->count = calloc((size_t)u->n + 1, sizeof(int));
    PTOC_ASSERT(u->count, "out of memory");
}

void pass_uses_count(PassCtx *ctx, StmtList *body, PassUses *u) {
    pass_uses_init(ctx, u);
    pass_uses_add(u, body);
}

void pass_uses_add(PassUses *u, StmtList *body) { ir_visit_exprs(body, count_use, u); }
void pass_uses_reset(PassUses *u, StmtList *body) { ir_visit_exprs(body, zero_use, u); }

int pass_uses_of(const PassUses *u, const Var *v) { return v->id >= 0 && v->id < u->n ? u->count[v->id] : -1; }

void pass_uses_free(PassUses *u) {
    free(u->count);
    u->count = NULL;
    u->n = 0;
}
