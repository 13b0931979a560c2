/* interp — the reference interpreter's driver: interp_run (entry lookup, caller buffers in and
 * out), function calls (one activation = one Var -> value environment) and statements (Assign,
 * Eval, Return, For/While with iter_args and return_vars, If with return vars, scopes).
 *
 * Requires: a Program whose calls are typed (ir_deduce_call) — types are only used as hints.
 * Produces: the functional result of the entry function, written into the caller's tensors.
 * Does: never prints or exits; every user error goes to the DiagSink at the offending span. */
#include "interp/interp_internal.h"

#include <string.h>

static bool exec_stmts(InterpCtx *c, InterpFrame *f, const StmtList *l);

/* ---------------------------------------------------------------- frames */
static void frame_init(InterpFrame *f, const Function *fn) {
    memset(f, 0, sizeof *f);
    interp_env_init(&f->env);
    f->fn = fn;
}

static void release_values(InterpValue *v, int n) {
    for (int i = 0; i < n; i++) interp_release(v[i]);
    free(v);
}

static void frame_clear_yield(InterpFrame *f) {
    release_values(f->yield, f->nyield);
    f->yield = NULL;
    f->nyield = 0;
    f->has_yield = false;
}

static void frame_free(InterpFrame *f) {
    frame_clear_yield(f);
    release_values(f->ret, f->nret);
    interp_env_free(&f->env);
}

/* Evaluates n expressions into a fresh malloc'd array of owned values. */
static bool eval_list(InterpCtx *c, InterpFrame *f, Expr **es, int n, InterpValue **out) {
    InterpValue *v = calloc((size_t)(n ? n : 1), sizeof *v);
    PTOC_ASSERT(v, "out of memory");
    for (int i = 0; i < n; i++)
        if (!interp_eval(c, f, es[i], &v[i])) { release_values(v, i); return false; }
    *out = v;
    return true;
}

/* Binds vars[i] to the pending Yield's values (moved out of the frame). */
static bool bind_yield(InterpCtx *c, InterpFrame *f, const VarList *vars, Span sp, const char *what) {
    if (!vars->len) { frame_clear_yield(f); return true; }
    if (!f->has_yield || f->nyield != vars->len) {
        int got = f->has_yield ? f->nyield : 0;
        frame_clear_yield(f);
        return interp_fail(c, sp, "%s must end with a yield of %d value(s), got %d", what, vars->len, got);
    }
    for (int i = 0; i < vars->len; i++) interp_env_put(&f->env, vars->items[i], f->yield[i]);
    free(f->yield);
    f->yield = NULL;
    f->nyield = 0;
    f->has_yield = false;
    return true;
}

/* ---------------------------------------------------------------- control flow */
static bool exec_if(InterpCtx *c, InterpFrame *f, const Stmt *s) {
    bool cond;
    if (!interp_eval_bool(c, f, s->if_.cond, &cond)) return false;
    if (!cond && !s->if_.has_else && !s->if_.else_body.len) {
        if (s->if_.return_vars.len) return interp_fail(c, s->span, "if with return values has no else branch");
        return true;
    }
    frame_clear_yield(f);
    if (!exec_stmts(c, f, cond ? &s->if_.then_body : &s->if_.else_body)) return false;
    if (f->returned) return true;
    return bind_yield(c, f, &s->if_.return_vars, s->span, "each branch of an if with return values");
}

static bool bind_iter_inits(InterpCtx *c, InterpFrame *f, const VarList *iter_args, const VarList *rets, Span sp) {
    if (rets->len != iter_args->len)
        return interp_fail(c, sp, "loop has %d iter_args but %d return values", iter_args->len, rets->len);
    for (int i = 0; i < iter_args->len; i++) {
        Var *ia = iter_args->items[i];
        InterpValue v;
        if (!ia->init) return interp_fail(c, sp, "iter_arg '%s' has no init value", ia->name);
        if (!interp_eval(c, f, ia->init, &v)) return false;
        interp_env_put(&f->env, ia, v);
    }
    return true;
}

static void bind_loop_results(InterpFrame *f, const VarList *iter_args, const VarList *rets) {
    for (int i = 0; i < rets->len; i++) {
        const InterpValue *v = interp_env_get(&f->env, iter_args->items[i]);
        PTOC_ASSERT(v, "iter_arg unbound");
        interp_env_put(&f->env, rets->items[i], interp_retain(*v));
    }
}

static bool exec_for(InterpCtx *c, InterpFrame *f, const Stmt *s) {
    int64_t start, stop, step;
    if (!interp_eval_int(c, f, s->for_.start, &start) || !interp_eval_int(c, f, s->for_.stop, &stop) ||
        !interp_eval_int(c, f, s->for_.step, &step))
        return false;
    if (step == 0) return interp_fail(c, s->span, "loop step is zero");
    if (!s->for_.loop_var) return interp_fail(c, s->span, "internal: loop without a loop variable");
    if (!bind_iter_inits(c, f, &s->for_.iter_args, &s->for_.return_vars, s->span)) return false;
    bool lanes = ir_attr_get(&s->for_.attrs, "split_aiv") != NULL;   /* pl.split_aiv: the loop variable is the lane */
    int64_t saved_lane = c->subblock_idx;
    for (int64_t i = start; step > 0 ? i < stop : i > stop;) {
        interp_env_put(&f->env, s->for_.loop_var, interp_int(i));
        frame_clear_yield(f);
        if (lanes) c->subblock_idx = i;
        bool ok = exec_stmts(c, f, &s->for_.body);
        c->subblock_idx = saved_lane;
        if (!ok) return false;
        if (f->returned) return true;
        if (!bind_yield(c, f, &s->for_.iter_args, s->span, "a loop body with iter_args")) return false;
        if (step > 0 ? i > INT64_MAX - step : i < INT64_MIN - step) break;
        i += step;
    }
    bind_loop_results(f, &s->for_.iter_args, &s->for_.return_vars);
    return true;
}

static bool exec_while(InterpCtx *c, InterpFrame *f, const Stmt *s) {
    if (!bind_iter_inits(c, f, &s->while_.iter_args, &s->while_.return_vars, s->span)) return false;
    for (int64_t trips = 0;; trips++) {
        bool cond;
        if (!interp_eval_bool(c, f, s->while_.cond, &cond)) return false;
        if (!cond) break;
        if (trips >= (INT64_C(1) << 32)) return interp_fail(c, s->span, "while loop does not terminate");
        frame_clear_yield(f);
        if (!exec_stmts(c, f, &s->while_.body)) return false;
        if (f->returned) return true;
        if (!bind_yield(c, f, &s->while_.iter_args, s->span, "a while body with iter_args")) return false;
    }
    bind_loop_results(f, &s->while_.iter_args, &s->while_.return_vars);
    return true;
}

/* SPMD scopes run their body once per block (sequentially); other scopes just run the body. */
static bool exec_scope(InterpCtx *c, InterpFrame *f, const Stmt *s) {
    if (s->scope.kind != SC_SPMD || !s->scope.core_num) return exec_stmts(c, f, &s->scope.body);
    int64_t n, saved = c->block_idx, saved_num = c->block_num;
    if (!interp_eval_int(c, f, s->scope.core_num, &n)) return false;
    if (n < 1) return interp_fail(c, s->span, "pl.spmd: core_num must be a positive integer, got %lld", (long long)n);
    bool ok = true;
    c->block_num = n;
    for (int64_t b = 0; b < n && !f->returned && ok; b++) {
        c->block_idx = b;
        ok = exec_stmts(c, f, &s->scope.body);
    }
    c->block_idx = saved;
    c->block_num = saved_num;
    return ok;
}

static bool exec_stmt(InterpCtx *c, InterpFrame *f, const Stmt *s) {
    InterpValue v;
    switch (s->kind) {
    case ST_ASSIGN:
        if (!s->assign.var) return interp_fail(c, s->span, "internal: assignment without a variable");
        if (!interp_eval(c, f, s->assign.value, &v)) return false;
        interp_env_put(&f->env, s->assign.var, v);
        return true;
    case ST_EVAL:
        if (!interp_eval(c, f, s->eval.expr, &v)) return false;
        interp_release(v);
        return true;
    case ST_YIELD: {
        InterpValue *vals;
        if (!eval_list(c, f, s->yield.values, s->yield.n, &vals)) return false;
        frame_clear_yield(f);
        f->yield = vals;
        f->nyield = s->yield.n;
        f->has_yield = true;
        return true;
    }
    case ST_RETURN: {
        InterpValue *vals;
        if (!eval_list(c, f, s->ret.values, s->ret.n, &vals)) return false;
        release_values(f->ret, f->nret);
        f->ret = vals;
        f->nret = s->ret.n;
        f->returned = true;
        return true;
    }
    case ST_IF: return exec_if(c, f, s);
    case ST_FOR: return exec_for(c, f, s);
    case ST_WHILE: return exec_while(c, f, s);
    case ST_SCOPE: return exec_scope(c, f, s);
    }
    return interp_fail(c, s->span, "internal: unknown statement kind %d", (int)s->kind);
}

static bool exec_stmts(InterpCtx *c, InterpFrame *f, const StmtList *l) {
    for (int i = 0; i < l->len && !f->returned; i++)
        if (!exec_stmt(c, f, l->items[i])) return false;
    return true;
}

/* ---------------------------------------------------------------- functions */
/* Runs fn in fr (params already bound; fr is freed); *out = the returned value (a tuple for
 * several values, IV_NONE for none). */
static bool run_in_frame(InterpCtx *c, const Function *fn, InterpFrame *fr, InterpValue *out, Span sp) {
    c->depth++;
    bool ok = exec_stmts(c, fr, &fn->body);
    c->depth--;
    if (ok && !fr->returned && fn->nreturns > 0)
        ok = interp_fail(c, fn->span.file ? fn->span : sp, "function '%s' ended without a return", fn->name);
    if (ok) {
        if (fr->nret == 1) { *out = fr->ret[0]; fr->nret = 0; }
        else if (fr->nret > 1) {
            InterpTuple *t = interp_tuple_new(fr->nret);
            memcpy(t->items, fr->ret, sizeof(InterpValue) * (size_t)fr->nret);
            fr->nret = 0;
            *out = (InterpValue){ .kind = IV_TUPLE, .tup = t };
        } else *out = (InterpValue){ .kind = IV_NONE };
    }
    frame_free(fr);
    return ok;
}

/* ---------------------------------------------------------------- pl.NZ at boundaries */
static bool is_nz(const Type *t) { return t && t->kind == TY_TENSOR && t->layout == TLAYOUT_NZ; }

/* An NZ tensor is a logical [R, C] array, or its blocked [1, C/c0, R/16, 16, c0] form inside a
 * kernel after BlockNzTensorViews. Passing one form to a parameter of the other passes a converted
 * copy; *caller keeps the caller's array so that writes can be copied back. */
static bool nz_rebind(InterpCtx *c, const Expr *call, const Function *fn, int i, InterpValue *arg, InterpArray **caller) {
    const Type *pt = fn->params.items[i]->type;
    if (!is_nz(pt) || arg->kind != IV_ARRAY || arg->arr->rank == pt->rank || (pt->rank != 2 && pt->rank != 5)) return true;
    InterpArray *conv = pt->rank == 5 ? interp_nz_block(arg->arr) : interp_nz_unblock(arg->arr);
    if (!conv) {
        char buf[128];
        return interp_fail(c, call->span, "argument %d of '%s' (%s) does not convert to the pl.NZ parameter '%s' of rank %d",
                           i, fn->name, interp_shape_str(arg->arr, buf, sizeof buf), fn->params.items[i]->name, pt->rank);
    }
    *caller = arg->arr;   /* the argument's reference moves here */
    *arg = interp_arr_value(conv);
    return true;
}

static void nz_write_back(InterpArray *caller, const InterpArray *callee) {
    InterpArray *back = caller->rank == 5 ? interp_nz_block(callee) : interp_nz_unblock(callee);
    if (!back) return;
    memcpy(caller->data, back->data, (size_t)interp_elem_bytes(caller->dtype) * (size_t)caller->numel);
    interp_array_release(back);
}

bool interp_call_function(InterpCtx *c, InterpFrame *f, const Expr *call, InterpValue *out) {
    const Function *fn = call->call.callee;
    if (!fn && call->call.callee_name) fn = ir_program_find(c->prog, call->call.callee_name);
    if (!fn)
        return interp_fail(c, call->span, "call of unknown function '%s'",
                           call->call.callee_name ? call->call.callee_name : "?");
    if (call->call.nargs != fn->params.len)
        return interp_fail(c, call->span, "'%s' takes %d arguments, got %d", fn->name, fn->params.len, call->call.nargs);
    if (c->depth >= INTERP_MAX_DEPTH)
        return interp_fail(c, call->span, "call depth exceeds %d (recursive call of '%s'?)", INTERP_MAX_DEPTH, fn->name);
    InterpValue *args;
    if (!eval_list(c, f, call->call.args, call->call.nargs, &args)) return false;
    InterpArray **caller = calloc((size_t)fn->params.len + 1, sizeof *caller);   /* re-blocked NZ arguments */
    PTOC_ASSERT(caller, "out of memory");
    bool ok = true;
    for (int i = 0; i < fn->params.len && ok; i++) ok = nz_rebind(c, call, fn, i, &args[i], &caller[i]);
    InterpFrame fr;
    frame_init(&fr, fn);
    for (int i = 0; i < fn->params.len; i++) {
        const Type *pt = fn->params.items[i]->type;
        /* a float scalar parameter holds a value of its dtype (the runtime rounds at the call too) */
        bool num = args[i].kind == IV_FLOAT || args[i].kind == IV_INT;
        if (ok && pt && pt->kind == TY_SCALAR && dtype_is_float(pt->dtype) && num)
            args[i] = interp_float(interp_round(pt->dtype, args[i].kind == IV_FLOAT ? args[i].f : (double)args[i].i));
        if (ok) interp_env_put(&fr.env, fn->params.items[i], interp_retain(args[i]));
    }
    if (ok) ok = run_in_frame(c, fn, &fr, out, call->span);
    else frame_free(&fr);
    for (int i = 0; i < fn->params.len; i++) {   /* tensors have reference semantics: copy writes back */
        if (ok && caller[i]) nz_write_back(caller[i], args[i].arr);
        if (caller[i]) interp_array_release(caller[i]);
    }
    free(caller);
    release_values(args, call->call.nargs);
    return ok;
}

/* ---------------------------------------------------------------- entry */
static const Function *find_entry(InterpCtx *c, const Program *p, const char *entry) {
    if (entry) {
        const Function *fn = ir_program_find(p, entry);
        if (!fn) interp_fail(c, SPAN_NONE, "entry function '%s' not found in program '%s'", entry, p->name ? p->name : "?");
        return fn;
    }
    for (int i = 0; i < p->nfuncs; i++)
        if (p->funcs[i]->type == FT_ORCHESTRATION) return p->funcs[i];
    if (p->nfuncs == 1) return p->funcs[0];
    interp_fail(c, SPAN_NONE, "no entry function: the program has %d functions and no Orchestration function", p->nfuncs);
    return NULL;
}

/* Binds a dynamic dim (a Var in the parameter's shape) to the caller's extent. */
static bool bind_arg(InterpCtx *c, InterpFrame *dims, const Function *fn, int i, const InterpTensor *t, InterpValue *out) {
    const Var *pv = fn->params.items[i];
    const Type *ty = pv->type;
    if (!interp_dtype_supported(t->dtype))
        return interp_fail(c, pv->span, "argument %d ('%s'): dtype %s is not supported by the interpreter", i,
                           pv->name, dtype_name(t->dtype));
    if (ty && ty->kind == TY_SCALAR) {
        if (t->rank != 0) return interp_fail(c, pv->span, "argument %d ('%s') is a scalar parameter; pass rank 0", i, pv->name);
        InterpArray *a = interp_array_new(t->dtype, 0, NULL);
        interp_array_unpack(a, t->data);
        double v = interp_get(a, 0);
        interp_array_release(a);
        *out = dtype_is_float(t->dtype) ? interp_float(v) : t->dtype == DT_BOOL ? interp_bool(v != 0) : interp_int((int64_t)v);
        return true;
    }
    if (t->rank < 0 || t->rank > INTERP_MAX_RANK) return interp_fail(c, pv->span, "argument %d: bad rank %d", i, t->rank);
    if (ty && (ty->kind == TY_TENSOR || ty->kind == TY_TILE)) {
        if (ty->rank != t->rank || ty->dtype != t->dtype)
            return interp_fail(c, pv->span, "argument %d ('%s'): expected rank %d %s, got rank %d %s", i, pv->name,
                               ty->rank, dtype_name(ty->dtype), t->rank, dtype_name(t->dtype));
        for (int d = 0; d < ty->rank; d++) {
            const Expr *e = ty->shape[d];
            if (e->kind == EX_CONST_INT && e->ci.value != t->shape[d])
                return interp_fail(c, pv->span, "argument %d ('%s'): dim %d is %lld, expected %lld", i, pv->name, d,
                                   (long long)t->shape[d], (long long)e->ci.value);
            if (e->kind == EX_VAR) interp_env_put(&dims->env, e->var, interp_int(t->shape[d]));
        }
    }
    int64_t numel = 1;
    for (int d = 0; d < t->rank; d++) {
        if (t->shape[d] < 0 || (t->shape[d] && numel > INTERP_MAX_NUMEL / t->shape[d]))
            return interp_fail(c, pv->span, "argument %d ('%s'): bad or too large shape", i, pv->name);
        numel *= t->shape[d];
    }
    if (numel && !t->data) return interp_fail(c, pv->span, "argument %d ('%s') has no data", i, pv->name);
    if (!is_nz(ty) && numel && interp_store_packed(t->dtype)) {   /* the caller's buffer is the array: no copy */
        *out = interp_arr_value(interp_array_borrow(t->dtype, t->rank, t->shape, t->data));
        return true;
    }
    InterpArray *a = interp_array_new(t->dtype, t->rank, t->shape);
    if (is_nz(ty) && t->rank == 2) {   /* the caller's bytes are the NZ order of the logical matrix */
        InterpArray *blocked = interp_nz_block(a);
        interp_array_release(a);
        if (!blocked)
            return interp_fail(c, pv->span, "argument %d ('%s') is pl.NZ but [%lld, %lld] %s is not whole 16 x %lld fractals",
                               i, pv->name, (long long)t->shape[0], (long long)t->shape[1], dtype_name(t->dtype),
                               (long long)interp_nz_c0(t->dtype));
        interp_array_unpack(blocked, t->data);
        a = interp_nz_unblock(blocked);
        interp_array_release(blocked);
    } else if (a->numel) interp_array_unpack(a, t->data);
    *out = interp_arr_value(a);
    return true;
}

/* Packs an entry argument back into the caller's buffer (NZ order for a logical pl.NZ matrix). */
static void pack_arg(const Type *ty, const InterpArray *a, void *data) {
    if (is_nz(ty) && a->rank == 2) {
        InterpArray *blocked = interp_nz_block(a);
        PTOC_ASSERT(blocked, "NZ argument bound without whole fractals");
        interp_array_pack(blocked, data);
        interp_array_release(blocked);
    } else interp_array_pack(a, data);
}

bool interp_run(const Program *p, const char *entry, InterpTensor *args, int nargs, DiagSink *diag) {
    InterpCtx c = { .prog = p, .diag = diag, .block_num = 1 };
    if (!p) return interp_fail(&c, SPAN_NONE, "no program");
    const Function *fn = find_entry(&c, p, entry);
    if (!fn) return false;
    if (nargs != fn->params.len)
        return interp_fail(&c, fn->span, "'%s' takes %d arguments, got %d", fn->name, fn->params.len, nargs);
    InterpFrame fr;   /* the entry activation: dynamic dims, then the parameters */
    frame_init(&fr, fn);
    InterpValue *vals = calloc((size_t)(nargs ? nargs : 1), sizeof *vals);
    PTOC_ASSERT(vals, "out of memory");
    bool ok = true;
    for (int i = 0; i < nargs && ok; i++) ok = bind_arg(&c, &fr, fn, i, &args[i], &vals[i]);
    InterpValue res = { 0 };
    if (ok) {
        for (int i = 0; i < nargs; i++) interp_env_put(&fr.env, fn->params.items[i], interp_retain(vals[i]));
        ok = run_in_frame(&c, fn, &fr, &res, fn->span);
    } else frame_free(&fr);
    if (ok)   /* tensors have reference semantics: write every tensor argument back */
        for (int i = 0; i < nargs; i++)
            if (vals[i].kind == IV_ARRAY && vals[i].arr->numel) pack_arg(fn->params.items[i]->type, vals[i].arr, args[i].data);
    interp_release(res);
    release_values(vals, nargs);
    return ok;
}
