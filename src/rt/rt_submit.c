/* rt_submit — turning one kernel call of the orchestration into a task (spec §3.2–§3.3, §4.2, §9):
 * argument directions (Call.attrs["arg_directions"], else the callee's param_dirs), SPMD block
 * count (attrs block_num, else the enclosing SC_SPMD core_num), explicit dependencies (attrs or
 * kwargs "deps"), runtime-allocated outputs (OUTPUT: a fresh zeroed buffer owned by the task),
 * hidden allocation tasks for tensor.create results used other than as OUTPUT, task ids
 * (ring = min(scope depth, 3)), and the call's result values (aliases of its output arguments).
 * Requires: rt_internal.h. Produces: RtTask entries and their dependency edges. */
#include "rt/rt_internal.h"

#include <string.h>

/* ---------------------------------------------------------------- static preparation */
typedef struct { bool cube; } RtCubeScan;
static void rt_scan_cube(Expr *e, void *ud) {
    if (e->kind == EX_CALL && e->call.op != OP_NONE && (ir_op_info(e->call.op)->flags & OPF_CUBE))
        ((RtCubeScan *)ud)->cube = true;
}

RtCoreKind rt_kernel_core(const Function *f) {
    switch (f->type) {
    case FT_AIC: return RT_CORE_AIC;
    case FT_AIV: return RT_CORE_AIV;
    case FT_GROUP: return RT_CORE_MIX;
    case FT_INCORE: {               /* not yet split: cube ops make it an AIC kernel */
        RtCubeScan s = { false };
        ir_visit_exprs((StmtList *)&f->body, rt_scan_cube, &s);
        return s.cube ? RT_CORE_AIC : RT_CORE_AIV;
    }
    default: return RT_CORE_NONE;
    }
}

static int rt_func_id(Rt *rt, const char *name) {
    for (int i = 0; i < rt->func_names.len; i++)
        if (strcmp(rt->func_names.data[i], name) == 0) return i;
    vec_push(&rt->func_names, name);
    return rt->func_names.len - 1;
}

/* A Group (mixed) callee's ids are its member kernels', numbered as back/orch.c numbers them (deps.json
 * kernel_ids); the group's own name gets an id only when it is submitted. */
static void rt_scan_group(Expr *e, void *ud) {
    if (e->kind == EX_CALL && e->call.callee && (e->call.callee->type == FT_AIC || e->call.callee->type == FT_AIV))
        rt_func_id(ud, e->call.callee->name);
}

static void rt_scan_call(Expr *e, void *ud) {
    Rt *rt = ud;
    if (e->kind != EX_CALL || !e->call.callee || rt_kernel_core(e->call.callee) == RT_CORE_NONE) return;
    if (e->call.callee->type == FT_GROUP) ir_visit_exprs((StmtList *)&e->call.callee->body, rt_scan_group, rt);
    else rt_func_id(rt, e->call.callee->name);
    const AttrVal *dirs = ir_attr_get(&e->call.attrs, "arg_directions");
    if (!dirs || dirs->kind != AV_LIST) return;
    for (int i = 0; i < dirs->nitems && i < e->call.nargs; i++)
        if (dirs->items[i].s && strcmp(dirs->items[i].s, "pl.adir.output") == 0 && e->call.args[i]->kind == EX_VAR)
            vec_push(&rt->output_vars, e->call.args[i]->var);
}

void rt_prepare(Rt *rt, const Function *orch) { ir_visit_exprs((StmtList *)&orch->body, rt_scan_call, rt); }

bool rt_is_output_var(const Rt *rt, const Var *v) {
    for (int i = 0; i < rt->output_vars.len; i++)
        if (rt->output_vars.data[i] == v) return true;
    return false;
}

/* ---------------------------------------------------------------- tasks */
/* Allocates the next task slot on the ring of the current scope depth; -1 after a SCOPE_DEADLOCK
 * (the scope's tasks cannot retire before it ends, so window - 1 of them fill the ring), a
 * FLOW_CONTROL_DEADLOCK or a kernel failure. First the schedule runs forward to the orchestrator's
 * clock and consumed tasks retire; a full ring stalls the orchestrator (rt_ring_reserve). With host
 * threads the schedule does not run forward here (it runs in batches) unless the ring is full. */
static int rt_new_task(Rt *rt, const Function *kernel, RtCoreKind core, int64_t block_num, Span sp, int func_id) {
    int window = rt->opt && rt->opt->task_window > 0 ? rt->opt->task_window : 16384;
    RtScope *sc = &vec_last(&rt->scopes);
    if (++sc->ntasks >= window - 1) {
        rt_fail(rt, RT_ERR_SCOPE_DEADLOCK, sp, "a scope submitted %d tasks but the task window is %d slots; "
                "close the scope earlier (e.g. one scope per loop iteration) or enlarge the window", sc->ntasks, window);
        return -1;
    }
    int depth = rt->scopes.len - 1;
    int ring = depth < RT_NRINGS - 1 ? depth : RT_NRINGS - 1;
    if (!rt->par && !rt_drain(rt, false)) return -1;   /* host threads: tasks run in batches (rt_sched.c) */
    rt_retire(rt);
    if (!rt_ring_reserve(rt, ring, sp)) return -1;
    int idx = rt->ntasks++;
    RtTask *t = rt_task_add(rt, idx, ring);
    t->id = ((uint64_t)ring << 32) | rt->ring_next[ring]++;
    t->kernel = kernel;
    t->core = core;
    t->func_id = func_id != -2 ? func_id : kernel ? rt_func_id(rt, kernel->name) : -1;   /* -2: look it up */
    t->manual = rt_in_manual_scope(rt);
    t->block_num = block_num;
    vec_push(&vec_last(&rt->scopes).tasks, idx);
    return idx;
}

int rt_alloc_task(Rt *rt, RtTensor **ts, int n) {
    int ti = rt_new_task(rt, NULL, RT_CORE_NONE, 1, SPAN_NONE, -1);
    if (ti < 0) return -1;
    RtArg *args = rt_task_args(rt, rt_task(rt, ti), n);
    for (int i = 0; i < n; i++) {
        rt_materialize(rt, ts[i], ti);
        args[i].dir = AD_OUTPUT;
        args[i].t = *ts[i];
    }
    rt_derive_deps(rt, ti, NULL, NULL, 0);
    rt_wire(rt, ti);
    return ti;
}

static ArgDir rt_dir_from_enum(const char *s) {
    static const struct { const char *name; ArgDir d; } map[] = {
        { "pl.adir.input", AD_INPUT }, { "pl.adir.output", AD_OUTPUT }, { "pl.adir.inout", AD_INOUT },
        { "pl.adir.output_existing", AD_OUTPUT_EXISTING }, { "pl.adir.no_dep", AD_NO_DEP },
        { "pl.adir.scalar", AD_SCALAR },
    };
    for (size_t i = 0; s && i < sizeof map / sizeof map[0]; i++)
        if (strcmp(map[i].name, s) == 0) return map[i].d;
    return (ArgDir)-1;
}

static bool rt_call_dirs_parse(Rt *rt, const Expr *call, ArgDir *dirs) {
    const Function *f = call->call.callee;
    const AttrVal *av = ir_attr_get(&call->call.attrs, "arg_directions");
    if (av) {
        if (av->kind != AV_LIST || av->nitems != call->call.nargs)
            return rt_fail(rt, RT_ERR_INVALID_ARGS, call->span, "call of '%s': arg_directions has %d entries for %d arguments",
                           f->name, av->kind == AV_LIST ? av->nitems : -1, call->call.nargs);
        for (int i = 0; i < av->nitems; i++) {
            dirs[i] = rt_dir_from_enum(av->items[i].s);
            if ((int)dirs[i] < 0)
                return rt_fail(rt, RT_ERR_INVALID_ARGS, call->span, "call of '%s': unknown argument direction '%s'",
                               f->name, av->items[i].s ? av->items[i].s : "?");
        }
        return true;
    }
    if (f->params.len != call->call.nargs)
        return rt_fail(rt, RT_ERR_INVALID_ARGS, call->span, "call of '%s' passes %d arguments for %d parameters",
                       f->name, call->call.nargs, f->params.len);
    for (int i = 0; i < call->call.nargs; i++) {
        const Type *pt = f->params.items[i]->type;
        ParamDir pd = f->param_dirs ? f->param_dirs[i] : PD_IN;
        if (!pt || pt->kind != TY_TENSOR) dirs[i] = AD_SCALAR;
        else dirs[i] = pd == PD_OUT ? AD_OUTPUT_EXISTING : pd == PD_INOUT ? AD_INOUT : AD_INPUT;
    }
    return true;
}

/* The call site's cache entry, filled on first use: directions, block_num and deps attributes, and
 * the callee's func id. NULL for a call whose directions are wrong (reported) or that has more
 * arguments than an entry holds (parsed every time). */
static const RtCallSite *rt_call_site(Rt *rt, const Expr *call, ArgDir *dirs) {
    RtCallSite *cs = &rt->sites[((uintptr_t)call >> 4) % RT_SITES];
    if (cs->call == call) {
        memcpy(dirs, cs->dirs, sizeof(ArgDir) * (size_t)call->call.nargs);
        return cs;
    }
    if (!rt_call_dirs_parse(rt, call, dirs) || call->call.nargs > RT_SITE_ARGS) return NULL;
    cs->call = call;
    memcpy(cs->dirs, dirs, sizeof(ArgDir) * (size_t)call->call.nargs);
    cs->block_av = ir_attr_get(&call->call.attrs, "block_num");
    if (!cs->block_av) cs->block_av = ir_attr_get(&call->call.kwargs, "block_num");
    if (!cs->block_av) cs->block_av = ir_attr_get(&call->call.kwargs, "core_num");
    cs->deps_av = ir_attr_get(&call->call.attrs, "deps");
    if (!cs->deps_av) cs->deps_av = ir_attr_get(&call->call.kwargs, "deps");
    cs->func_id = rt_func_id(rt, call->call.callee->name);
    return cs;
}

static bool rt_call_dirs(Rt *rt, const Expr *call, ArgDir *dirs, const RtCallSite **site) {
    *site = rt_call_site(rt, call, dirs);
    return *site || (rt->error_code == RT_ERR_NONE && rt_call_dirs_parse(rt, call, dirs));
}

static bool rt_attr_int(Rt *rt, const AttrVal *av, int64_t *out) {
    if (!av) return false;
    if (av->kind == AV_INT) { *out = av->i; return true; }
    RtValue v = {0};
    if (av->kind == AV_EXPR && rt_eval(rt, av->expr, &v) && v.kind == RV_INT) { *out = v.i; return true; }
    return false;
}

static bool rt_call_blocks(Rt *rt, const Expr *call, const RtCallSite *site, int64_t *blocks) {
    const AttrVal *av = site ? site->block_av : ir_attr_get(&call->call.attrs, "block_num");
    if (!site && !av) av = ir_attr_get(&call->call.kwargs, "block_num");
    if (!site && !av) av = ir_attr_get(&call->call.kwargs, "core_num");
    *blocks = rt->spmd.len ? vec_last(&rt->spmd) : 1;
    if (av && !rt_attr_int(rt, av, blocks))
        return rt_fail(rt, RT_ERR_INVALID_ARGS, call->span, "call of '%s': block_num is not an integer", call->call.callee->name);
    if (*blocks < 1 || *blocks > 32767)
        return rt_fail(rt, RT_ERR_INVALID_ARGS, call->span, "call of '%s': block_num %lld outside [1, 32767]",
                       call->call.callee->name, (long long)*blocks);
    return true;
}

/* Explicit fanins: items evaluating to a call result (its task) or to an integer task index. */
typedef VEC(int) RtIntVec;
static bool rt_call_deps(Rt *rt, const Expr *call, const RtCallSite *site, RtIntVec *deps) {
    const AttrVal *av = site ? site->deps_av : ir_attr_get(&call->call.attrs, "deps");
    if (!site && !av) av = ir_attr_get(&call->call.kwargs, "deps");
    if (!av) return true;
    int n = av->kind == AV_LIST ? av->nitems : 1;
    for (int i = 0; i < n; i++) {
        const AttrVal *it = av->kind == AV_LIST ? &av->items[i] : av;
        RtValue v = {0};
        if (it->kind == AV_INT) { vec_push(deps, (int)it->i); continue; }
        if (it->kind != AV_EXPR || !rt_eval(rt, it->expr, &v)) return rt_fail(rt, RT_ERR_INVALID_ARGS, call->span, "bad explicit dependency");
        if (v.task1) vec_push(deps, v.task1 - 1);
        else if (v.kind == RV_INT) vec_push(deps, (int)v.i);
        else if (v.kind == RV_TENSOR && v.t->owner != RT_NO_TASK) vec_push(deps, v.t->owner);
    }
    return true;
}

static uint64_t rt_scalar_bits(const RtValue *v, const Type *pt) {
    if (v->kind == RV_FLOAT) {
        if (pt && pt->dtype == DT_FP32) { float f = (float)v->f; uint32_t u; memcpy(&u, &f, 4); return u; }
        uint64_t u; memcpy(&u, &v->f, 8); return u;
    }
    if (pt && dtype_is_float(pt->dtype)) {
        if (pt->dtype == DT_FP32) { float f = (float)v->i; uint32_t u; memcpy(&u, &f, 4); return u; }
        double d = (double)v->i; uint64_t u; memcpy(&u, &d, 8); return u;
    }
    return (uint64_t)v->i;
}

/* The call's value: return r aliases the argument the callee returns directly (a parameter), else
 * the r-th output argument (OUTPUT / OUTPUT_EXISTING / INOUT) in argument order. */
static void rt_call_result(Rt *rt, const Expr *call, const ArgDir *dirs, RtValue *vals, int ti, RtValue *out) {
    const Function *f = call->call.callee;
    const Stmt *ret = f->body.len ? f->body.items[f->body.len - 1] : NULL;
    int nr = f->nreturns, pos = 0;
    RtValue one, *items = nr > 1 ? ARENA_ARRAY(rt->arena, RtValue, nr) : &one;   /* a tuple outlives the call */
    for (int r = 0; r < nr; r++) {
        int pick = -1;
        if (ret && ret->kind == ST_RETURN && r < ret->ret.n && ret->ret.values[r]->kind == EX_VAR)
            for (int k = 0; k < f->params.len && k < call->call.nargs; k++)
                if (f->params.items[k] == ret->ret.values[r]->var && dirs[k] != AD_SCALAR) pick = k;
        if (pick < 0)
            for (int k = 0, seen = 0; k < call->call.nargs && pick < 0; k++)
                if (dirs[k] == AD_OUTPUT || dirs[k] == AD_OUTPUT_EXISTING || dirs[k] == AD_INOUT) {
                    if (seen++ == pos) pick = k;
                }
        pos++;
        if (pick >= 0) items[r] = vals[pick];
        items[r].task1 = ti + 1;
    }
    memset(out, 0, sizeof *out);
    if (nr == 1) *out = items[0];
    else { out->kind = RV_TUPLE; out->items = nr ? items : NULL; out->n = nr; }
    out->task1 = ti + 1;
}

/* Evaluates the arguments; tensor.create results used other than as OUTPUT get their buffer from
 * a hidden allocation task first (so the kernel task index is known afterwards). */
static bool rt_call_args(Rt *rt, const Expr *call, ArgDir *dirs, RtValue *vals) {
    const Function *f = call->call.callee;
    for (int i = 0; i < call->call.nargs; i++) {
        if (!rt_eval(rt, call->call.args[i], &vals[i])) return false;
        bool is_tensor = vals[i].kind == RV_TENSOR;
        if ((dirs[i] == AD_SCALAR) == is_tensor || (!is_tensor && vals[i].kind != RV_INT && vals[i].kind != RV_FLOAT))
            return rt_fail(rt, RT_ERR_INVALID_ARGS, call->call.args[i]->span, "call of '%s': argument %d is %s but its direction is %s",
                           f->name, i, is_tensor ? "a tensor" : "not a tensor", ir_argdir_name(dirs[i]));
        if (is_tensor && dirs[i] == AD_OUTPUT && !vals[i].t->created) dirs[i] = AD_OUTPUT_EXISTING;  /* add_output(t) */
        if (is_tensor && vals[i].t->pending && dirs[i] != AD_OUTPUT && rt_alloc_task(rt, &vals[i].t, 1) < 0) return false;
    }
    return true;
}

/* require_sync_start (runtime.md §9.2): the whole cohort must fit on the device at once. */
static bool rt_sync_start(Rt *rt, const Expr *call, RtCoreKind core, int64_t blocks, int ti) {
    int64_t cap = core == RT_CORE_AIV ? rt->tgt->num_aiv : rt->tgt->num_aic;   /* MIX: one cluster per block */
    if (blocks > cap)
        return rt_fail(rt, RT_ERR_REQUIRE_SYNC_START_INVALID, call->span, "pl.spmd(%lld, sync_start=True) launching '%s': "
                       "the %lld blocks must start together, but %s has only %lld %s; use at most %lld blocks or drop sync_start",
                       (long long)blocks, call->call.callee->name, (long long)blocks, rt->tgt->name, (long long)cap,
                       core == RT_CORE_AIV ? "AIV cores" : core == RT_CORE_AIC ? "AIC cores" : "clusters", (long long)cap);
    rt_task(rt, ti)->sync_start = true;
    return true;
}

static void rt_submit_args(Rt *rt, const Expr *call, const ArgDir *dirs, RtValue *vals, int ti, const RtIntVec *deps,
                           RtValue *out);

bool rt_submit_call(Rt *rt, const Expr *call, RtValue *out) {
    const Function *f = call->call.callee;
    RtCoreKind core = rt_kernel_core(f);
    if (core == RT_CORE_NONE)
        return rt_fail(rt, RT_ERR_INVALID_ARGS, call->span, "cannot submit a call of '%s' (a %s function) as a task",
                       f->name, ir_functype_name(f->type));
    int n = call->call.nargs;
    ArgDir dirs_inl[16], *dirs = n <= 16 ? dirs_inl : malloc(sizeof(ArgDir) * (size_t)n);   /* per call: no arena */
    RtValue vals_inl[16], *vals = n <= 16 ? vals_inl : malloc(sizeof(RtValue) * (size_t)n);
    PTOC_ASSERT(dirs && vals, "out of memory");
    int64_t blocks;
    RtIntVec deps = {0};
    const RtCallSite *site = NULL;
    bool ok = rt_call_dirs(rt, call, dirs, &site) && rt_call_blocks(rt, call, site, &blocks)
              && rt_call_deps(rt, call, site, &deps) && rt_call_args(rt, call, dirs, vals);
    int ti = ok ? rt_new_task(rt, f, core, blocks, call->span, site ? site->func_id : -2) : -1;
    ok = ti >= 0 && (!rt->spmd_sync.len || !vec_last(&rt->spmd_sync) || rt_sync_start(rt, call, core, blocks, ti));
    if (ok) rt_submit_args(rt, call, dirs, vals, ti, &deps, out);
    vec_free(&deps);
    if (dirs != dirs_inl) free(dirs);
    if (vals != vals_inl) free(vals);
    return ok;
}

/* The task's argument snapshots (OUTPUT create-infos get their buffer now), dependencies, wiring,
 * and the call's value. */
static void rt_submit_args(Rt *rt, const Expr *call, const ArgDir *dirs, RtValue *vals, int ti, const RtIntVec *deps,
                           RtValue *out) {
    const Function *f = call->call.callee;
    int n = call->call.nargs;
    RtArg *args = rt_task_args(rt, rt_task(rt, ti), n);
    for (int i = 0; i < n; i++) {
        args[i].dir = dirs[i];
        if (dirs[i] == AD_SCALAR) {
            args[i].scalar = rt_scalar_bits(&vals[i], i < f->params.len ? f->params.items[i]->type : NULL);
            continue;
        }
        if (dirs[i] == AD_OUTPUT) rt_materialize(rt, vals[i].t, ti);   /* new buffer owned by this task */
        args[i].t = *vals[i].t;
    }
    rt_derive_deps(rt, ti, deps->data, NULL, deps->len);
    rt_wire(rt, ti);
    rt_call_result(rt, call, dirs, vals, ti, out);
}
