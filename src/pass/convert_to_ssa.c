/* ConvertToSSA
 * Requires: a parsed program (one Var per source name; a name may be assigned many times).
 * Produces: SSAForm — every Var defined once; loop-carried values as iter_args / yield / return
 *           vars; branch merges as If return vars (phis).
 * Does: walks each function in order with an environment "source var -> current version".
 *   A re-definition mints x__ssa_vN; a For whose body assigns variables defined before the loop
 *   carries them (x__iter_vN inside, x__rv_vN after); an If whose branches assign variables merges
 *   them (x__phi_vN). Scope statements are transparent. Existing SSA constructs are preserved; a
 *   return var bound to a name already in use (pl.yield_ to a parameter's name) is renamed too.
 *   A variable first assigned inside a loop or an if and read after it has no value there (the
 *   loop may not run, the branch may not be taken): a user error naming both places. */
#include "pass/pass.h"

#include <string.h>

typedef VarMap Env;

/* Variables whose only definitions are inside a loop body or an if branch, with that construct: a
 * read of one where the environment has no value for it is the user's error. */
typedef struct Locals { Var **vars; const Stmt **where; int len, cap; } Locals;
/* at: the statement being read; defined: Var ids already used as a definition (by id), so that a name
 * first assigned in both branches of an if gets a version per branch, not one Var defined twice. */
typedef struct Ssa { PassCtx *ctx; Locals locals; Span at; bool failed; bool *defined; int ndefined; } Ssa;

/* Marks v defined; true when it already was. */
static bool mark_defined(Ssa *st, const Var *v) {
    if (v->id >= st->ndefined) {
        int n = v->id * 2 + 64;
        st->defined = realloc(st->defined, (size_t)n);
        PTOC_ASSERT(st->defined, "out of memory");
        memset(st->defined + st->ndefined, 0, (size_t)(n - st->ndefined));
        st->ndefined = n;
    }
    bool was = st->defined[v->id];
    st->defined[v->id] = true;
    return was;
}

static void local_add(Locals *l, Var *v, const Stmt *where) {
    for (int i = 0; i < l->len; i++)
        if (l->vars[i] == v) return;
    if (l->len == l->cap) {
        l->cap = l->cap ? 2 * l->cap : 16;
        l->vars = realloc(l->vars, sizeof(Var *) * (size_t)l->cap);
        l->where = realloc(l->where, sizeof(Stmt *) * (size_t)l->cap);
        PTOC_ASSERT(l->vars && l->where, "out of memory");
    }
    l->vars[l->len] = v;
    l->where[l->len++] = where;
}

static const Stmt *local_where(const Locals *l, const Var *v) {
    for (int i = 0; i < l->len; i++)
        if (l->vars[i] == v) return l->where[i];
    return NULL;
}

static Env env_copy(const Env *e) {
    Env n = {0};
    for (int i = 0; i < e->len; i++) ir_varmap_put(&n, e->from[i], e->to[i]);
    return n;
}

static void ssa_list(Ssa *st, StmtList *l, Env *env);

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

/* ---- reads of variables that have no value at the read ---- */
typedef struct { Ssa *st; const Env *env; } ReadCheck;

static void check_read(Expr *e, void *ud) {
    ReadCheck *rc = ud;
    if (e->kind != EX_VAR || rc->st->failed || current(rc->env, e->var)) return;
    const Stmt *w = local_where(&rc->st->locals, e->var);
    if (!w) return;
    const char *name = e->var->name;
    Span at = e->span.line ? e->span : rc->st->at;
    if (w->kind == ST_FOR && w->for_.loop_var == e->var)
        diag_error(rc->st->ctx->diag, at, "the loop variable '%s' of the loop at line %d is read after the loop, where it has no "
                   "value; copy it to a variable assigned before the loop", name, w->span.line);
    else if (e->var->kind == VAR_ITER_ARG)
        diag_error(rc->st->ctx->diag, at, "the loop-carried '%s' of the loop at line %d is read after the loop; read the loop's "
                   "result instead (the name pl.yield_ binds)", name, w->span.line);
    else if (w->kind == ST_IF)
        diag_error(rc->st->ctx->diag, at,
                   "'%s' is assigned only in a branch of the if at line %d and read after it, where it may have no value; "
                   "assign it before the if or in both branches", name, w->span.line);
    else
        diag_error(rc->st->ctx->diag, at,
                   "'%s' is assigned inside the loop at line %d and read after it, where it has no value if the loop does not "
                   "run; assign it before the loop (e.g. %s = 0) so the loop carries it out", name, w->span.line, name);
    rc->st->failed = true;
}

/* Substitutes the current versions into e, first reporting a read of a loop- or branch-local. */
static Expr *read(Ssa *st, Expr *e, const Env *env) {
    ReadCheck rc = { st, env };
    ir_visit_expr(e, check_read, &rc);
    return ir_subst_expr(st->ctx->ir, e, env);
}

/* Every variable a body assigns that has no value in env afterwards is local to the construct. */
static void mark_locals(Ssa *st, StmtList *body, const Env *env, const Stmt *where) {
    VarList assigned = {0};
    collect_assigned(body, &assigned, st->ctx->ir);
    for (int i = 0; i < assigned.len; i++)
        if (!current(env, assigned.items[i])) local_add(&st->locals, assigned.items[i], where);
}

/* A value merged at a loop back-edge or after an if has one type in the IR: reassigning a name with
 * another kind, dtype or shape there (Python allows it) is the user's error. */
static bool merge_types_agree(Ssa *st, const Stmt *where, const Var *v, const Type *a, const Type *b) {
    if (ir_type_same_shape(a, b)) return true;
    StrBuf x = {0}, y = {0};
    ir_print_type(a, &x);
    ir_print_type(b, &y);
    diag_error(st->ctx->diag, where->span, "'%s' is %s %s but %s: a value %s keeps one type; give the new value another name",
               v->name, sb_cstr(&x), where->kind == ST_IF ? "in one branch of this if" : "before this loop",
               where->kind == ST_IF ? arena_printf(st->ctx->ir->arena, "%s in the other", sb_cstr(&y))
                                    : arena_printf(st->ctx->ir->arena, "the loop body makes it %s", sb_cstr(&y)),
               where->kind == ST_IF ? "merged after an if" : "carried around a loop");
    sb_free(&x);
    sb_free(&y);
    st->failed = true;
    return false;
}

/* A definition of *slot: a name that already has a value gets a fresh version. */
static void define(Ssa *st, Var **slot, Env *env, const char *suffix) {
    Var *v = *slot;
    /* `for i, (out,) in ..: out = pl.yield_(..)` binds the result to the iter_arg's own Var: the
     * result needs a plain Var of its own */
    if (current(env, v) || mark_defined(st, v) || v->kind == VAR_ITER_ARG) {
        Var *nv = ir_var_new(st->ctx->ir, pass_name(st->ctx, v->name, suffix), v->type);
        nv->span = v->span;
        *slot = nv;
        ir_varmap_put(env, v, ir_ref(nv));
    } else {
        ir_varmap_put(env, v, ir_ref(v));
    }
}

static void ssa_assign(Ssa *st, Stmt *s, Env *env) {
    s->assign.value = read(st, s->assign.value, env);
    Var *v = s->assign.var;
    Type *t = s->assign.value->type ? s->assign.value->type : v->type;
    if (current(env, v) || mark_defined(st, v)) {
        Var *nv = ir_var_new(st->ctx->ir, pass_name(st->ctx, v->name, "ssa"), t);
        nv->span = v->span;
        s->assign.var = nv;
        ir_varmap_put(env, v, ir_ref(nv));
    } else {
        pass_var_set_type(v, t);
        ir_varmap_put(env, v, ir_ref(v));
    }
}

static void ssa_if(Ssa *st, Stmt *s, Env *env) {
    IrCtx *c = st->ctx->ir;
    s->if_.cond = read(st, s->if_.cond, env);
    VarList assigned = {0};
    bool explicit_merge = s->if_.return_vars.len > 0;
    if (!explicit_merge) {
        collect_assigned(&s->if_.then_body, &assigned, c);
        collect_assigned(&s->if_.else_body, &assigned, c);
    }
    Env te = env_copy(env), ee = env_copy(env);
    ssa_list(st, &s->if_.then_body, &te);
    ssa_list(st, &s->if_.else_body, &ee);
    Expr **tv = ARENA_ARRAY(c->arena, Expr *, assigned.len + 1), **ev = ARENA_ARRAY(c->arena, Expr *, assigned.len + 1);
    int n = 0;
    for (int i = 0; i < assigned.len; i++) {
        Var *v = assigned.items[i];
        Expr *a = current(&te, v), *b = current(&ee, v);
        if (!a || !b) continue;                  /* defined in one branch only: not visible after */
        if (!merge_types_agree(st, s, v, a->type, b->type)) { ir_varmap_free(&te); ir_varmap_free(&ee); return; }
        Var *phi = ir_var_new(c, pass_name(st->ctx, v->name, "phi"), a->type);
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
    if (explicit_merge)
        for (int i = 0; i < s->if_.return_vars.len; i++) define(st, &s->if_.return_vars.items[i], env, "ssa");
    mark_locals(st, &s->if_.then_body, env, s);
    mark_locals(st, &s->if_.else_body, env, s);
    ir_varmap_free(&te);
    ir_varmap_free(&ee);
}

static void ssa_for(Ssa *st, Stmt *s, Env *env) {
    IrCtx *c = st->ctx->ir;
    s->for_.start = read(st, s->for_.start, env);
    s->for_.stop = read(st, s->for_.stop, env);
    s->for_.step = read(st, s->for_.step, env);
    if (s->for_.iter_args.len) {                 /* already SSA: rename inside, define the results after */
        for (int i = 0; i < s->for_.iter_args.len; i++)
            s->for_.iter_args.items[i]->init = read(st, s->for_.iter_args.items[i]->init, env);
        Env be = env_copy(env);
        ir_varmap_put(&be, s->for_.loop_var, ir_ref(s->for_.loop_var));
        for (int i = 0; i < s->for_.iter_args.len; i++)
            ir_varmap_put(&be, s->for_.iter_args.items[i], ir_ref(s->for_.iter_args.items[i]));
        ssa_list(st, &s->for_.body, &be);
        ir_varmap_free(&be);
        for (int i = 0; i < s->for_.return_vars.len; i++) define(st, &s->for_.return_vars.items[i], env, "ssa");
        mark_locals(st, &s->for_.body, env, s);
        if (!current(env, s->for_.loop_var)) local_add(&st->locals, s->for_.loop_var, s);
        for (int i = 0; i < s->for_.iter_args.len; i++)
            if (!current(env, s->for_.iter_args.items[i])) local_add(&st->locals, s->for_.iter_args.items[i], s);
        return;
    }
    VarList assigned = {0};
    collect_assigned(&s->for_.body, &assigned, c);
    Var **carried = ARENA_ARRAY(c->arena, Var *, assigned.len + 1);
    int n = 0;
    Env be = env_copy(env);
    Var *lv = s->for_.loop_var;
    if (current(env, lv) || local_where(&st->locals, lv)) {   /* a name reused as a second loop variable */
        Var *nv = ir_var_new(c, pass_name(st->ctx, lv->name, "idx"), lv->type);
        s->for_.loop_var = nv;
        ir_varmap_put(&be, lv, ir_ref(nv));
    } else {
        ir_varmap_put(&be, lv, ir_ref(lv));
        local_add(&st->locals, lv, s);           /* the loop's own: no value after it */
    }
    for (int i = 0; i < assigned.len; i++) {
        Var *v = assigned.items[i];
        Expr *cur = current(env, v);
        if (!cur) continue;                      /* first defined inside the loop: loop-local */
        Var *it = ir_iter_arg_new(c, pass_name(st->ctx, v->name, "iter"), cur->type, cur);
        ir_varlist_push(c, &s->for_.iter_args, it);
        ir_varmap_put(&be, v, ir_ref(it));
        carried[n++] = v;
    }
    ssa_list(st, &s->for_.body, &be);
    if (n) {
        Expr **ys = ARENA_ARRAY(c->arena, Expr *, n);
        for (int i = 0; i < n; i++) {
            ys[i] = current(&be, carried[i]);
            if (!merge_types_agree(st, s, carried[i], s->for_.iter_args.items[i]->type, ys[i]->type)) { ir_varmap_free(&be); return; }
            Var *rv = ir_var_new(c, pass_name(st->ctx, carried[i]->name, "rv"), ys[i]->type);
            ir_varlist_push(c, &s->for_.return_vars, rv);
            ir_varmap_put(env, carried[i], ir_ref(rv));
        }
        ir_list_push(c, &s->for_.body, ir_yield(c, ys, n));
    }
    mark_locals(st, &s->for_.body, env, s);
    ir_varmap_free(&be);
}

static void ssa_while(Ssa *st, Stmt *s, Env *env) {
    for (int i = 0; i < s->while_.iter_args.len; i++)
        s->while_.iter_args.items[i]->init = read(st, s->while_.iter_args.items[i]->init, env);
    Env be = env_copy(env);
    for (int i = 0; i < s->while_.iter_args.len; i++)
        ir_varmap_put(&be, s->while_.iter_args.items[i], ir_ref(s->while_.iter_args.items[i]));
    s->while_.cond = read(st, s->while_.cond, &be);
    ssa_list(st, &s->while_.body, &be);
    ir_varmap_free(&be);
    for (int i = 0; i < s->while_.return_vars.len; i++) define(st, &s->while_.return_vars.items[i], env, "ssa");
    mark_locals(st, &s->while_.body, env, s);
    for (int i = 0; i < s->while_.iter_args.len; i++)
        if (!current(env, s->while_.iter_args.items[i])) local_add(&st->locals, s->while_.iter_args.items[i], s);
}

static void ssa_list(Ssa *st, StmtList *l, Env *env) {
    IrCtx *c = st->ctx->ir;
    for (int i = 0; i < l->len && !st->failed; i++) {
        Stmt *s = l->items[i];
        st->at = s->span;
        switch (s->kind) {
        case ST_ASSIGN: ssa_assign(st, s, env); break;
        case ST_EVAL: s->eval.expr = read(st, s->eval.expr, env); break;
        case ST_RETURN:
            for (int j = 0; j < s->ret.n; j++) s->ret.values[j] = read(st, s->ret.values[j], env);
            break;
        case ST_YIELD:
            for (int j = 0; j < s->yield.n; j++) s->yield.values[j] = read(st, s->yield.values[j], env);
            break;
        case ST_IF: ssa_if(st, s, env); break;
        case ST_FOR: ssa_for(st, s, env); break;
        case ST_WHILE: ssa_while(st, s, env); break;
        case ST_SCOPE:
            s->scope.core_num = s->scope.core_num ? read(st, s->scope.core_num, env) : NULL;
            ir_subst_attrs(c, &s->scope.kwargs, env);
            ssa_list(st, &s->scope.body, env);   /* transparent */
            if (s->scope.task_var) define(st, &s->scope.task_var, env, "ssa");   /* `as tid`: defined after the body */
            break;
        }
    }
}

bool pass_convert_to_ssa(Program *p, PassCtx *ctx) {
    ctx->counter = 0;
    Ssa st = { ctx, {0}, SPAN_NONE, false, NULL, 0 };
    for (int i = 0; i < p->nfuncs && !st.failed; i++) {
        Function *f = p->funcs[i];
        Env env = {0};
        for (int j = 0; j < f->params.len; j++) ir_varmap_put(&env, f->params.items[j], ir_ref(f->params.items[j]));
        ssa_list(&st, &f->body, &env);
        ir_varmap_free(&env);
        st.locals.len = 0;
    }
    free(st.locals.vars);
    free(st.locals.where);
    free(st.defined);
    return !st.failed;
}
