/* rt — the orchestration interpreter and the runtime entry point rt_run (spec/runtime.md §3, §6).
 * Requires: a Program whose Orchestration function has been through DeriveCallDirections and
 * MaterializeRuntimeScopes (calls without arg_directions fall back to the callee's param_dirs).
 * Produces: the task graph (rt_submit.c, rt_deps.c), its simulated schedule (rt_sched.c) and
 * deps.json (rt_json.c). Does: evaluates scalar expressions, For / While / If with iter_args and
 * yields, runtime scopes (AUTO / MANUAL; AUTO inside MANUAL is fatal), SPMD scopes, tensor.create
 * (a deferred create-info when the variable is passed as pl.adir.output, else a hidden allocation
 * task), tensor.slice views (equal ones shared), returns. Tasks are scheduled and retire while the
 * orchestration runs (rt_sched.c, rt_live.c) in the order the whole graph would give, so results
 * do not depend on when that happens; library code: reports through diag, never prints. */
#include "rt/rt_internal.h"

#include <math.h>
#include <string.h>

const char *rt_error_name(int code) {
    switch (code) {
    case RT_ERR_NONE: return "NONE";
    case RT_ERR_SCOPE_DEADLOCK: return "SCOPE_DEADLOCK";
    case RT_ERR_HEAP_RING_DEADLOCK: return "HEAP_RING_DEADLOCK";
    case RT_ERR_FLOW_CONTROL_DEADLOCK: return "FLOW_CONTROL_DEADLOCK";
    case RT_ERR_DEP_POOL_OVERFLOW: return "DEP_POOL_OVERFLOW";
    case RT_ERR_INVALID_ARGS: return "INVALID_ARGS";
    case RT_ERR_REQUIRE_SYNC_START_INVALID: return "REQUIRE_SYNC_START_INVALID";
    case RT_ERR_TENSOR_WAIT_TIMEOUT: return "TENSOR_WAIT_TIMEOUT";
    case RT_ERR_EXPLICIT_ORCH_FATAL: return "EXPLICIT_ORCH_FATAL";
    case RT_ERR_SCOPE_TASKS_OVERFLOW: return "SCOPE_TASKS_OVERFLOW";
    case RT_ERR_TENSORMAP_OVERFLOW: return "TENSORMAP_OVERFLOW";
    default: return "UNKNOWN";
    }
}

bool rt_fail(Rt *rt, int code, Span sp, const char *fmt, ...) {
    if (!rt->error_code) rt->error_code = code;
    char buf[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    diag_add(rt->diag, DIAG_ERROR, sp, NULL, "runtime error %s: %s", rt_error_name(code), buf);
    return false;
}

bool rt_in_manual_scope(const Rt *rt) {
    for (int i = 0; i < rt->scopes.len; i++)
        if (rt->scopes.data[i].manual) return true;
    return false;
}

/* ---------------------------------------------------------------- environment */
static RtValue *rt_slot(Rt *rt, const Var *v) {
    while (rt->env.len <= v->id) { RtValue z = {0}; vec_push(&rt->env, z); }
    return &rt->env.data[v->id];
}

static void rt_bind(Rt *rt, const Var *v, RtValue val) { *rt_slot(rt, v) = val; }

static RtValue rt_int(int64_t i) { RtValue v = {0}; v.kind = RV_INT; v.i = i; return v; }
static RtValue rt_float(double f) { RtValue v = {0}; v.kind = RV_FLOAT; v.f = f; return v; }

/* ---------------------------------------------------------------- scalar arithmetic */
/* Scalar operators are evaluated by ir/scalar.c, the implementation the interpreter and constant
 * folding use too, so the orchestration computes what the golden run computes. Booleans are ints
 * here (RV_INT 0/1), which every operator treats alike. */
static bool rt_scalar_of(const RtValue *v, ScalarVal *out) {
    if (v->kind == RV_INT) { *out = ir_scalar_int(v->i); return true; }
    if (v->kind == RV_FLOAT) { *out = ir_scalar_float(v->f); return true; }
    return false;
}

static RtValue rt_value_of(ScalarVal v) { return v.kind == SV_FLOAT ? rt_float(v.f) : rt_int(v.i); }

static bool rt_eval_binary(Rt *rt, const Expr *e, RtValue *out) {
    RtValue a, b;
    ScalarVal x, y, r;
    if (!rt_eval(rt, e->bin.lhs, &a) || !rt_eval(rt, e->bin.rhs, &b)) return false;
    if (!rt_scalar_of(&a, &x) || !rt_scalar_of(&b, &y))
        return rt_fail(rt, RT_ERR_INVALID_ARGS, e->span, "arithmetic on a non-scalar value");
    ScalarErr err = ir_scalar_binary_typed(e->bin.op, e->type ? e->type->dtype : DT_NONE, x, y, &r);
    if (err) {
        StrBuf msg = {0};
        ir_scalar_binary_error(err, e->bin.op, x, y, &msg);
        rt_fail(rt, RT_ERR_INVALID_ARGS, e->span, "%s", sb_cstr(&msg));
        sb_free(&msg);
        return false;
    }
    *out = rt_value_of(r);
    return true;
}

static bool rt_eval_unary(Rt *rt, const Expr *e, RtValue *out) {
    RtValue a;
    ScalarVal x, r;
    if (!rt_eval(rt, e->un.operand, &a)) return false;
    if (!rt_scalar_of(&a, &x)) return rt_fail(rt, RT_ERR_INVALID_ARGS, e->span, "unary operation on a non-scalar value");
    DType dt = e->type ? e->type->dtype : DT_NONE;
    ScalarErr err = ir_scalar_unary(e->un.op, dt, x, &r);
    if (err) {
        StrBuf msg = {0};
        ir_scalar_unary_error(err, e->un.op, dt, x, &msg);
        rt_fail(rt, RT_ERR_INVALID_ARGS, e->span, "%s", sb_cstr(&msg));
        sb_free(&msg);
        return false;
    }
    *out = rt_value_of(r);
    return true;
}

/* ---------------------------------------------------------------- tensor ops */
static bool rt_int_list(Rt *rt, const Expr *e, int64_t *vals, int *n) {
    RtValue v;
    if (e->kind == EX_TUPLE && e->tuple.n <= RT_MAX_DIMS) {   /* a literal list: no tuple value to build */
        for (int i = 0; i < e->tuple.n; i++) {
            if (!rt_eval(rt, e->tuple.items[i], &v)) return false;
            if (v.kind != RV_INT) return rt_fail(rt, RT_ERR_INVALID_ARGS, e->span, "expected integers");
            vals[i] = v.i;
        }
        *n = e->tuple.n;
        return true;
    }
    if (!rt_eval(rt, e, &v)) return false;
    if (v.kind == RV_INT) { vals[0] = v.i; *n = 1; return true; }
    if (v.kind != RV_TUPLE || v.n > RT_MAX_DIMS) return rt_fail(rt, RT_ERR_INVALID_ARGS, e->span, "expected a list of at most %d integers", RT_MAX_DIMS);
    for (int i = 0; i < v.n; i++) {
        if (v.items[i].kind != RV_INT) return rt_fail(rt, RT_ERR_INVALID_ARGS, e->span, "expected integers");
        vals[i] = v.items[i].i;
    }
    *n = v.n;
    return true;
}

/* tensor.create: a pending create-info when deferred to an OUTPUT argument, else allocated now by a
 * hidden allocation task (alloc_tensors). */
static bool rt_eval_create(Rt *rt, const Expr *e, bool deferred, const char *name, RtValue *out) {
    RtTensor *t = ARENA_NEW(rt->arena, RtTensor);
    int64_t shape[RT_MAX_DIMS];
    int n;
    if (!rt_int_list(rt, e->call.args[0], shape, &n)) return false;
    t->owner = RT_NO_TASK;
    t->ndims = n;
    t->dtype = e->type && e->type->kind == TY_TENSOR ? e->type->dtype : DT_FP32;
    for (int d = 0; d < n; d++) t->shape[d] = shape[d];
    rt_tensor_set_packed_strides(t);
    t->created = true;
    t->pending = true;
    t->name = name;
    if (!deferred && rt_alloc_task(rt, &t, 1) < 0) return false;
    memset(out, 0, sizeof *out);
    out->kind = RV_TENSOR;
    out->t = t;
    return true;
}

static bool rt_eval_slice(Rt *rt, const Expr *e, RtValue *out) {
    RtValue src;
    int64_t shape[RT_MAX_DIMS], off[RT_MAX_DIMS];
    int ns, no;
    if (!rt_eval(rt, e->call.args[0], &src)) return false;
    if (src.kind != RV_TENSOR) return rt_fail(rt, RT_ERR_INVALID_ARGS, e->span, "slice of a non-tensor value");
    if (src.t->pending && rt_alloc_task(rt, &src.t, 1) < 0) return false;
    if (!rt_int_list(rt, e->call.args[1], shape, &ns) || !rt_int_list(rt, e->call.args[2], off, &no)) return false;
    RtTensor t;
    memset(&t, 0, sizeof t);
    if (!rt_slice(rt, src.t, shape, ns, off, no, &t, e->span)) return false;
    t.created = false;
    memset(out, 0, sizeof *out);
    out->kind = RV_TENSOR;
    out->t = rt_tensor_intern(rt, &t);               /* immutable: equal slices share a descriptor */
    return true;
}

static bool rt_eval_call(Rt *rt, const Expr *e, RtValue *out) {
    if (e->call.callee) return rt_submit_call(rt, e, out);
    switch (e->call.op) {
    case OP_TENSOR_CREATE: return rt_eval_create(rt, e, false, NULL, out);
    case OP_TENSOR_SLICE: return rt_eval_slice(rt, e, out);
    case OP_TENSOR_READ: case OP_TENSOR_WRITE: return rt_eval_access(rt, e, out);
    default:
        return rt_fail(rt, RT_ERR_INVALID_ARGS, e->span, "operation %s cannot run in an orchestration function",
                       e->call.op >= 0 ? ir_op_info(e->call.op)->name : "?");
    }
}

bool rt_eval(Rt *rt, const Expr *e, RtValue *out) {
    memset(out, 0, sizeof *out);
    switch (e->kind) {
    case EX_VAR:
        *out = *rt_slot(rt, e->var);
        if (out->kind == RV_NONE) return rt_fail(rt, RT_ERR_INVALID_ARGS, e->span, "variable '%s' has no value", e->var->name);
        return true;
    case EX_CONST_INT: *out = rt_int(e->ci.value); return true;
    case EX_CONST_FLOAT: *out = rt_float(e->cf.value); return true;
    case EX_CONST_BOOL: *out = rt_int(e->cb.value); return true;
    case EX_BINARY: return rt_eval_binary(rt, e, out);
    case EX_UNARY: return rt_eval_unary(rt, e, out);
    case EX_CALL: return rt_eval_call(rt, e, out);
    case EX_TUPLE: {
        RtValue *items = ARENA_ARRAY(rt->arena, RtValue, e->tuple.n ? e->tuple.n : 1);
        for (int i = 0; i < e->tuple.n; i++)
            if (!rt_eval(rt, e->tuple.items[i], &items[i])) return false;
        out->kind = RV_TUPLE; out->items = items; out->n = e->tuple.n;
        return true;
    }
    case EX_TUPLE_GET: {
        RtValue t;
        if (!rt_eval(rt, e->tget.tuple, &t)) return false;
        if (t.kind != RV_TUPLE || e->tget.index < 0 || e->tget.index >= t.n)
            return rt_fail(rt, RT_ERR_INVALID_ARGS, e->span, "tuple index %d out of range", e->tget.index);
        *out = t.items[e->tget.index];
        return true;
    }
    case EX_ENUM: return rt_fail(rt, RT_ERR_INVALID_ARGS, e->span, "enum value used as a runtime value");
    }
    return false;
}

/* ---------------------------------------------------------------- statements */
typedef enum { RS_OK, RS_RETURN, RS_ERROR } RtStatus;
typedef struct RtFrame { RtValue *yv; int nyv; } RtFrame;

static RtStatus rt_exec_list(Rt *rt, const StmtList *l, RtFrame *fr);

static bool rt_truthy(const RtValue *v) { return v->kind == RV_FLOAT ? v->f != 0 : v->i != 0; }

static bool rt_eval_all(Rt *rt, Expr **es, int n, RtValue **out) {
    *out = ARENA_ARRAY(rt->arena, RtValue, n ? n : 1);
    for (int i = 0; i < n; i++)
        if (!rt_eval(rt, es[i], &(*out)[i])) return false;
    return true;
}

static void rt_bind_yields(Rt *rt, const VarList *vars, const RtFrame *fr) {
    for (int i = 0; i < vars->len && i < fr->nyv; i++) rt_bind(rt, vars->items[i], fr->yv[i]);
}

static RtStatus rt_exec_for(Rt *rt, const Stmt *s, RtFrame *fr) {
    RtValue a, b, c;
    if (!rt_eval(rt, s->for_.start, &a) || !rt_eval(rt, s->for_.stop, &b) || !rt_eval(rt, s->for_.step, &c)) return RS_ERROR;
    if (a.kind != RV_INT || b.kind != RV_INT || c.kind != RV_INT || c.i == 0) {
        rt_fail(rt, RT_ERR_INVALID_ARGS, s->span, "loop bounds must be integers with a non-zero step");
        return RS_ERROR;
    }
    for (int k = 0; k < s->for_.iter_args.len; k++) {
        RtValue init;
        if (!rt_eval(rt, s->for_.iter_args.items[k]->init, &init)) return RS_ERROR;
        rt_bind(rt, s->for_.iter_args.items[k], init);
    }
    /* the loop ends when the next value would pass stop, or leave int64 (range(0, 2**63 - 1, 2**62)) */
    for (int64_t i = a.i; c.i > 0 ? i < b.i : i > b.i;) {
        rt_bind(rt, s->for_.loop_var, rt_int(i));
        fr->nyv = 0;
        RtStatus st = rt_exec_list(rt, &s->for_.body, fr);
        if (st != RS_OK) return st;
        rt_bind_yields(rt, &s->for_.iter_args, fr);
        if (!checked_add(i, c.i, &i)) break;
    }
    for (int k = 0; k < s->for_.return_vars.len && k < s->for_.iter_args.len; k++)
        rt_bind(rt, s->for_.return_vars.items[k], *rt_slot(rt, s->for_.iter_args.items[k]));
    return RS_OK;
}

static RtStatus rt_exec_while(Rt *rt, const Stmt *s, RtFrame *fr) {
    for (int k = 0; k < s->while_.iter_args.len; k++) {
        RtValue init;
        if (!rt_eval(rt, s->while_.iter_args.items[k]->init, &init)) return RS_ERROR;
        rt_bind(rt, s->while_.iter_args.items[k], init);
    }
    for (;;) {
        RtValue c;
        if (!rt_eval(rt, s->while_.cond, &c)) return RS_ERROR;
        if (!rt_truthy(&c)) break;
        fr->nyv = 0;
        RtStatus st = rt_exec_list(rt, &s->while_.body, fr);
        if (st != RS_OK) return st;
        rt_bind_yields(rt, &s->while_.iter_args, fr);
    }
    for (int k = 0; k < s->while_.return_vars.len && k < s->while_.iter_args.len; k++)
        rt_bind(rt, s->while_.return_vars.items[k], *rt_slot(rt, s->while_.iter_args.items[k]));
    return RS_OK;
}

static RtStatus rt_exec_scope(Rt *rt, const Stmt *s, RtFrame *fr) {
    if (s->scope.kind == SC_RUNTIME) {
        if (!s->scope.manual && rt_in_manual_scope(rt)) {
            rt_fail(rt, RT_ERR_INVALID_ARGS, s->span, "an AUTO scope may not be opened inside a MANUAL scope");
            return RS_ERROR;
        }
        rt_scope_begin(rt, s->scope.manual);
        RtStatus st = rt_exec_list(rt, &s->scope.body, fr);
        rt_scope_end(rt);            /* not a barrier: only its reference is released */
        return st;
    }
    if (s->scope.kind == SC_SPMD) {
        RtValue n = rt_int(1);
        if (s->scope.core_num && !rt_eval(rt, s->scope.core_num, &n)) return RS_ERROR;
        if (n.kind != RV_INT || n.i < 1) {
            rt_fail(rt, RT_ERR_INVALID_ARGS, s->span, "SPMD core_num must be a positive integer");
            return RS_ERROR;
        }
        const AttrVal *ss = ir_attr_get(&s->scope.kwargs, "sync_start");
        vec_push(&rt->spmd, n.i);
        vec_push(&rt->spmd_sync, ss && ss->kind == AV_BOOL && ss->i);
        RtStatus st = rt_exec_list(rt, &s->scope.body, fr);
        rt->spmd.len--;
        rt->spmd_sync.len--;
        return st;
    }
    static const char *names[] = { "a pl.at region", "pl.scope", "pl.spmd", "pl.cluster", "a pl.at region at a level other than CORE_GROUP" };
    rt_fail(rt, RT_ERR_INVALID_ARGS, s->span, "%s cannot run in an orchestration function (it was not outlined into a kernel)",
            names[s->scope.kind]);
    return RS_ERROR;
}

static RtStatus rt_exec(Rt *rt, const Stmt *s, RtFrame *fr) {
    RtValue v;
    switch (s->kind) {
    case ST_ASSIGN: {
        const Expr *e = s->assign.value;
        bool ok = (e->kind == EX_CALL && !e->call.callee && e->call.op == OP_TENSOR_CREATE)
                      ? rt_eval_create(rt, e, rt_is_output_var(rt, s->assign.var), s->assign.var->name, &v)
                      : rt_eval(rt, e, &v);
        if (!ok) return RS_ERROR;
        rt_bind(rt, s->assign.var, v);
        return RS_OK;
    }
    case ST_EVAL: return rt_eval(rt, s->eval.expr, &v) ? RS_OK : RS_ERROR;
    case ST_IF: {
        if (!rt_eval(rt, s->if_.cond, &v)) return RS_ERROR;
        fr->nyv = 0;
        RtStatus st = rt_exec_list(rt, rt_truthy(&v) ? &s->if_.then_body : &s->if_.else_body, fr);
        if (st == RS_OK) rt_bind_yields(rt, &s->if_.return_vars, fr);
        return st;
    }
    case ST_FOR: return rt_exec_for(rt, s, fr);
    case ST_WHILE: return rt_exec_while(rt, s, fr);
    case ST_YIELD:
        if (!rt_eval_all(rt, s->yield.values, s->yield.n, &fr->yv)) return RS_ERROR;
        fr->nyv = s->yield.n;
        return RS_OK;
    case ST_RETURN:
        if (!rt_eval_all(rt, s->ret.values, s->ret.n, &fr->yv)) return RS_ERROR;
        return RS_RETURN;
    case ST_SCOPE: return rt_exec_scope(rt, s, fr);
    }
    return RS_ERROR;
}

static RtStatus rt_exec_list(Rt *rt, const StmtList *l, RtFrame *fr) {
    for (int i = 0; i < l->len; i++) {
        RtStatus st = rt_exec(rt, l->items[i], fr);
        if (st != RS_OK) return st;
    }
    return RS_OK;
}

/* ---------------------------------------------------------------- entry */
static const Function *rt_find_entry(const Program *p, const char *entry) {
    if (entry) return ir_program_find(p, entry);
    for (int i = 0; i < p->nfuncs; i++)
        if (p->funcs[i]->type == FT_ORCHESTRATION) return p->funcs[i];
    return NULL;
}

static bool rt_bind_params(Rt *rt, const Function *f, void **args, int nargs) {
    int k = 0;
    for (int i = 0; i < f->params.len; i++) {
        const Var *pv = f->params.items[i];
        if (!pv->type || pv->type->kind != TY_TENSOR)
            return rt_fail(rt, RT_ERR_INVALID_ARGS, pv->span, "orchestration parameter '%s' is not a tensor (scalar entry arguments are not supported)", pv->name);
        RtTensor *t = ARENA_NEW(rt->arena, RtTensor);
        if (!rt_tensor_from_type(t, pv->type))
            return rt_fail(rt, RT_ERR_INVALID_ARGS, pv->span, "orchestration parameter '%s' needs a static shape of rank <= %d", pv->name, RT_MAX_DIMS);
        if (k >= nargs || !args[k])
            return rt_fail(rt, RT_ERR_INVALID_ARGS, pv->span, "no buffer for orchestration parameter '%s' (%d given)", pv->name, nargs);
        t->addr = (uint64_t)(uintptr_t)args[k++];
        t->size = (uint64_t)rt_tensor_numel(t) * (uint64_t)dtype_bytes(t->dtype);
        t->name = pv->name;
        rt_note_buffer(rt, t);
        RtValue v = {0};
        v.kind = RV_TENSOR;
        v.t = t;
        rt_bind(rt, pv, v);
    }
    if (k != nargs) return rt_fail(rt, RT_ERR_INVALID_ARGS, f->span, "%d buffers given for %d tensor parameters of '%s'", nargs, k, f->name);
    return true;
}

static void rt_cleanup(Rt *rt) {
    rt_par_free(rt);
    for (int i = 0; i < rt->buffers.len; i++) free(rt->buffers.data[i]);
    vec_free(&rt->buffers);
    rt_live_free(rt);
    free(rt->slices.e);
    vec_free(&rt->fan);
    vec_free(&rt->edges);
    rt_tm_free(&rt->tm);
    vec_free(&rt->scopes);
    vec_free(&rt->spmd);
    vec_free(&rt->spmd_sync);
    vec_free(&rt->env);
    vec_free(&rt->func_names);
    vec_free(&rt->output_vars);
    vec_free(&rt->accesses);
    vec_free(&rt->bufinfo);
    free(rt->cores_aic);
    free(rt->cores_aiv);
    arena_free(rt->arena);
}

bool rt_run(const Program *p, const char *entry, void **args, int nargs, const RtOptions *o,
            RtRunKernel run, void *ud, RtResult *res, DiagSink *diag) {
    memset(res, 0, sizeof *res);
    Rt rt;
    memset(&rt, 0, sizeof rt);
    rt.prog = p; rt.opt = o; rt.run = run; rt.ud = ud; rt.diag = diag;
    rt.tgt = o && o->target ? o->target : target_get(TGT_A2A3);
    rt.arena = arena_new();
    rt.want_infos = !(o && o->no_task_list);
    rt_tm_init(&rt.tm);
    rt_par_init(&rt);
    /* those reports read every task after the run; host threads read every task of a batch */
    rt.keep = (o && (o->race_check || o->capture_deps)) || rt.par;
    const Function *f = rt_find_entry(p, entry);
    bool ok;
    if (!f) ok = rt_fail(&rt, RT_ERR_INVALID_ARGS, SPAN_NONE, "no orchestration function '%s'", entry ? entry : "(any)");
    else if (f->type != FT_ORCHESTRATION) ok = rt_fail(&rt, RT_ERR_INVALID_ARGS, f->span, "'%s' is not an Orchestration function", f->name);
    else ok = rt_bind_params(&rt, f, args, nargs);
    if (ok) {
        rt_scope_begin(&rt, false);           /* the implicit outer scope, depth 0 */
        rt_prepare(&rt, f);
        RtFrame fr = { NULL, 0 };
        ok = rt_exec_list(&rt, &f->body, &fr) != RS_ERROR;
    }
    if (ok) ok = rt_schedule(&rt, res);
    if (ok && o && o->capture_deps) res->deps_json = rt_deps_json(&rt);
    res->error_code = rt.error_code;
    rt_cleanup(&rt);
    return ok;
}

void rt_result_free(RtResult *r) {
    vec_free(&r->tasks);
    for (int i = 0; i < r->races.len; i++) free(r->races.data[i]);
    vec_free(&r->races);
    free(r->deps_json);
    r->deps_json = NULL;
}
