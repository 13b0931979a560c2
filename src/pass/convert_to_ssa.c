/* ConvertToSSA
 * Requires: a parsed program (one Var per source name; a name may be assigned many times).
 * Produces: SSAForm — every Var defined once; loop-carried values as iter_args / yield / return
 *           vars; branch merges as If return vars (phis).
 * Does: walks each function in order with an environment "source var -> current version".
 *   A re-definition mints x__ssa_vN; a For whose body assigns variables defined before the loop
 *   carries them (x__iter_vN inside, x__rv_vN after); an If whose branches assign variables merges
 *   them (x__phi_vN). Scope statements are transparent. Existing SSA constructs are preserved. */
#include "pass/pass.h"

#include <string.h>

typedef VarMap Env;

static Env env_copy(const Env *e) {
    Env n = {0};
    for (int i = 0; i < e->len; i++) ir_varmap_put(&n, e->from[i], e->to[i]);
    return n;
}

static void ssa_list(PassCtx *ctx, StmtList *l, Env *env);

/* Source variables assigned anywhere in a body (recursively), in first-assignment order. */
static void collect_assigned(StmtList *l, VarList *out, IrCtx *c) {
    for (int i = 0; i < l->len; i++) {
        Stmt *s = l->items[i];
        switch (s->kind) {
        case ST_ASSIGN: {
            bool seen = false;
            for (int j = 0; j < out->len; j++) seen |= out->items[j] == s->assign.var;
            if (!seen) ir_varlist_push(c, out, s->assign.var);
            break;
        }
        case ST_IF: collect_assigned(&s->if_.then_body, out, c); collect_assigned(&s->if_.else_body, out, c); break;
        case ST_FOR: collect_assigned(&s->for_.body, out, c); break;
        case ST_WHILE: collect_assigned(&s->while_.body, out, c); break;
        case ST_SCOPE: collect_assigned(&s->scope.body, out, c); break;
        default: break;
        }
    }
}

static Expr *current(const Env *env, Var *v) { return ir_varmap_get(env, v); }

static void ssa_assign(PassCtx *ctx, Stmt *s, Env *env) {
    s->assign.value = ir_subst_expr(ctx->ir, s->assign.value, env);
    Var *v = s->assign.var;
    Type *t = s->assign.value->type ? s->assign.value->type : v->type;
    if (current(env, v)) {
        Var *nv = ir_var_new(ctx->ir, pass_name(ctx, v->name, "ssa"), t);
        nv->span = v->span;
        s->assign.var = nv;
        ir_varmap_put(env, v, ir_ref(nv));
    } else {
        pass_var_set_type(v, t);
        ir_varmap_put(env, v, ir_ref(v));
    }
}

static void ssa_if(PassCtx *ctx, Stmt *s, Env *env) {
    IrCtx *c = ctx->ir;
    s->if_.cond = ir_subst_expr(c, s->if_.cond, env);
    VarList assigned = {0};
    if (!s->if_.return_vars.len) {
        collect_assigned(&s->if_.then_body, &assigned, c);
        collect_assigned(&s->if_.else_body, &assigned, c);
    }
    Env te = env_copy(env), ee = env_copy(env);
    ssa_list(ctx, &s->if_.then_body, &te);
    ssa_list(ctx, &s->if_.else_body, &ee);
    Expr **tv = ARENA_ARRAY(c->arena, Expr *, assigned.len + 1), **ev = ARENA_ARRAY(c->arena, Expr *, assigned.len + 1);
    int n = 0;
    for (int i = 0; i < assigned.len; i++) {
        Var *v = assigned.items[i];
        Expr *a = current(&te, v), *b = current(&ee, v);
        if (!a || !b) continue;                  /* defined in one branch only: not visible after */
        Var *phi = ir_var_new(c, pass_name(ctx, v->name, "phi"), a->type);
        ir_varlist_push(c, &s->if_.return_vars, phi);
        tv[n] = a;
        ev[n] = b;
        n++;
        ir_varmap_put(env, v, ir_ref(phi));
    }
    if (n) {
        ir_list_push(c, &s->if_.then_body, ir_yield(c, tv, n));
        ir_list_push(c, &s->if_.else_body, ir_yield(c, ev, n));
        s->if_.has_else = true;
    }
    ir_varmap_free(&te);
    ir_varmap_free(&ee);
}

static void ssa_for(PassCtx *ctx, Stmt *s, Env *env) {
    IrCtx *c = ctx->ir;
    s->for_.start = ir_subst_expr(c, s->for_.start, env);
    s->for_.stop = ir_subst_expr(c, s->for_.stop, env);
    s->for_.step = ir_subst_expr(c, s->for_.step, env);
    if (s->for_.iter_args.len) {                 /* already SSA: rename inside */
        for (int i = 0; i < s->for_.iter_args.len; i++)
            s->for_.iter_args.items[i]->init = ir_subst_expr(c, s->for_.iter_args.items[i]->init, env);
        Env be = env_copy(env);
        ssa_list(ctx, &s->for_.body, &be);
        ir_varmap_free(&be);
        return;
    }
    VarList assigned = {0};
    collect_assigned(&s->for_.body, &assigned, c);
    Var **carried = ARENA_ARRAY(c->arena, Var *, assigned.len + 1);
    int n = 0;
    Env be = env_copy(env);
    Var *lv = s->for_.loop_var;
    if (current(env, lv)) {                      /* a source name reused as a second loop variable */
        Var *nv = ir_var_new(c, pass_name(ctx, lv->name, "idx"), lv->type);
        s->for_.loop_var = nv;
        ir_varmap_put(&be, lv, ir_ref(nv));
    } else {
        ir_varmap_put(env, lv, ir_ref(lv));
    }
    for (int i = 0; i < assigned.len; i++) {
        Var *v = assigned.items[i];
        Expr *cur = current(env, v);
        if (!cur) continue;                      /* first defined inside the loop: loop-local */
        Var *it = ir_iter_arg_new(c, pass_name(ctx, v->name, "iter"), cur->type, cur);
        ir_varlist_push(c, &s->for_.iter_args, it);
        ir_varmap_put(&be, v, ir_ref(it));
        carried[n++] = v;
    }
    ssa_list(ctx, &s->for_.body, &be);
    if (n) {
        Expr **ys = ARENA_ARRAY(c->arena, Expr *, n);
        for (int i = 0; i < n; i++) {
            ys[i] = current(&be, carried[i]);
            Var *rv = ir_var_new(c, pass_name(ctx, carried[i]->name, "rv"), ys[i]->type);
            ir_varlist_push(c, &s->for_.return_vars, rv);
            ir_varmap_put(env, carried[i], ir_ref(rv));
        }
        ir_list_push(c, &s->for_.body, ir_yield(c, ys, n));
    }
    ir_varmap_free(&be);
}

static void ssa_list(PassCtx *ctx, StmtList *l, Env *env) {
    IrCtx *c = ctx->ir;
    for (int i = 0; i < l->len; i++) {
        Stmt *s = l->items[i];
        switch (s->kind) {
        case ST_ASSIGN: ssa_assign(ctx, s, env); break;
        case ST_EVAL: s->eval.expr = ir_subst_expr(c, s->eval.expr, env); break;
        case ST_RETURN:
            for (int j = 0; j < s->ret.n; j++) s->ret.values[j] = ir_subst_expr(c, s->ret.values[j], env);
            break;
        case ST_YIELD:
            for (int j = 0; j < s->yield.n; j++) s->yield.values[j] = ir_subst_expr(c, s->yield.values[j], env);
            break;
        case ST_IF: ssa_if(ctx, s, env); break;
        case ST_FOR: ssa_for(ctx, s, env); break;
        case ST_WHILE: {
            s->while_.cond = ir_subst_expr(c, s->while_.cond, env);
            Env be = env_copy(env);
            ssa_list(ctx, &s->while_.body, &be);
            ir_varmap_free(&be);
            break;
        }
        case ST_SCOPE:
            s->scope.core_num = ir_subst_expr(c, s->scope.core_num, env);
            ir_subst_attrs(c, &s->scope.kwargs, env);
            ssa_list(ctx, &s->scope.body, env);   /* transparent */
            if (s->scope.task_var) {              /* `as tid`: a definition after the body */
                Var *tv = s->scope.task_var;
                if (current(env, tv)) {
                    Var *nv = ir_var_new(c, pass_name(ctx, tv->name, "ssa"), tv->type);
                    nv->span = tv->span;
                    s->scope.task_var = nv;
                    ir_varmap_put(env, tv, ir_ref(nv));
                } else {
                    ir_varmap_put(env, tv, ir_ref(tv));
                }
            }
            break;
        }
    }
}

bool pass_convert_to_ssa(Program *p, PassCtx *ctx) {
    ctx->counter = 0;
    for (int i = 0; i < p->nfuncs; i++) {
        Function *f = p->funcs[i];
        Env env = {0};
        for (int j = 0; j < f->params.len; j++) ir_varmap_put(&env, f->params.items[j], ir_ref(f->params.items[j]));
        ssa_list(ctx, &f->body, &env);
        ir_varmap_free(&env);
    }
    return true;
}
