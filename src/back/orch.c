/* orch — the orchestration C++ emitter (spec/ir_and_passes.md §11, runtime.md §3).
 * Requires: an Orchestration function after DeriveCallDirections and MaterializeRuntimeScopes.
 * Produces: the text of orchestration/<name>.cpp: includes, aicpu_orchestration_config with
 * expected_arg_count, aicpu_orchestration_entry reading ext_<param> tensors, one PTO2_SCOPE per
 * runtime scope, per kernel call a CoreTaskArgs params_tN filled tensors-first (add_input /
 * add_output / add_inout / add_no_dep, then add_scalar) and submitted with rt_submit_aic_task /
 * rt_submit_aiv_task / rt_submit_task(MixedKernels); func_ids deduplicated per kernel name in first
 * call order; For loops as C for loops; tensor.create as TensorCreateInfo + alloc_tensors (runs of
 * consecutive creates batched) or as add_output(create-info) when passed as pl.adir.output;
 * tensor.slice as view(); SPMD as launch_spec.set_block_num. Results alias their output argument.
 * Does: pure text generation; never prints or fails (unsupported constructs become comments). */
#include "back/back.h"

#include <string.h>

typedef struct OrchName {
    const Var *v;
    const char *name;                   /* C expression naming the value */
    const char **items; int nitems;     /* tuple values */
} OrchName;

typedef struct OrchEmit {
    StrBuf *out;
    Arena *arena;
    int indent, ntask, nalloc;
    VEC(OrchName) names;
    VEC(const char *) used;             /* C identifiers already declared */
    VEC(const char *) funcs;            /* func_id -> kernel name */
    VEC(const Var *) output_vars;       /* tensor.create vars passed as pl.adir.output */
    VEC(const Var *) dep_vars;          /* vars named in explicit deps */
    VEC(const Var *) task_vars;         /* call results -> task handles (parallel to task_names) */
    VEC(const char *) task_names;
    VEC(const Stmt *) spmd;             /* enclosing SC_SPMD scopes (core_num, sync_start) */
} OrchEmit;

static void oe_line(OrchEmit *e, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void oe_line(OrchEmit *e, const char *fmt, ...) {
    sb_indent(e->out, 4 * e->indent);
    va_list ap;
    va_start(ap, fmt);
    sb_vprintf(e->out, fmt, ap);
    va_end(ap);
    sb_putc(e->out, '\n');
}

/* ---------------------------------------------------------------- names */
static const OrchName *oe_find(const OrchEmit *e, const Var *v) {
    for (int i = e->names.len - 1; i >= 0; i--)
        if (e->names.data[i].v == v) return &e->names.data[i];
    return NULL;
}

static void oe_bind(OrchEmit *e, const Var *v, const char *name) {
    OrchName n = { v, name, NULL, 0 };
    vec_push(&e->names, n);
}

static bool oe_used(const OrchEmit *e, const char *s) {
    for (int i = 0; i < e->used.len; i++)
        if (strcmp(e->used.data[i], s) == 0) return true;
    return false;
}

/* A fresh C identifier from a hint (non-identifier characters become '_'). */
static const char *oe_fresh(OrchEmit *e, const char *hint) {
    char buf[128];
    size_t n = 0;
    for (const char *p = hint; *p && n < sizeof buf - 16; p++)
        buf[n++] = ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') || *p == '_') ? *p : '_';
    buf[n] = 0;
    if (n == 0 || (buf[0] >= '0' && buf[0] <= '9')) { memmove(buf + 1, buf, n + 1); buf[0] = 'v'; }
    const char *s = arena_strdup(e->arena, buf);
    for (int k = 1; oe_used(e, s); k++) s = arena_printf(e->arena, "%s_%d", buf, k);
    vec_push(&e->used, s);
    return s;
}

static bool oe_in(const Var *const *vs, int n, const Var *v) {
    for (int i = 0; i < n; i++)
        if (vs[i] == v) return true;
    return false;
}

/* ---------------------------------------------------------------- pre-scan */
static int oe_func_id(OrchEmit *e, const char *name) {
    for (int i = 0; i < e->funcs.len; i++)
        if (strcmp(e->funcs.data[i], name) == 0) return i;
    vec_push(&e->funcs, name);
    return e->funcs.len - 1;
}

static bool oe_is_kernel(const Function *f) {
    return f && (f->type == FT_AIC || f->type == FT_AIV || f->type == FT_INCORE || f->type == FT_GROUP);
}

static void oe_scan_group(Expr *x, void *ud) {
    if (x->kind == EX_CALL && x->call.callee && (x->call.callee->type == FT_AIC || x->call.callee->type == FT_AIV))
        oe_func_id(ud, x->call.callee->name);
}

static void oe_scan(Expr *x, void *ud) {
    OrchEmit *e = ud;
    if (x->kind != EX_CALL || !oe_is_kernel(x->call.callee)) return;
    if (x->call.callee->type == FT_GROUP) ir_visit_exprs((StmtList *)&x->call.callee->body, oe_scan_group, e);
    else oe_func_id(e, x->call.callee->name);
    const AttrVal *d = ir_attr_get(&x->call.attrs, "arg_directions");
    for (int i = 0; d && d->kind == AV_LIST && i < d->nitems && i < x->call.nargs; i++)
        if (d->items[i].s && strcmp(d->items[i].s, "pl.adir.output") == 0 && x->call.args[i]->kind == EX_VAR)
            vec_push(&e->output_vars, x->call.args[i]->var);
    const AttrVal *deps = ir_attr_get(&x->call.attrs, "deps");
    if (!deps) deps = ir_attr_get(&x->call.kwargs, "deps");
    for (int i = 0; deps && deps->kind == AV_LIST && i < deps->nitems; i++)
        if (deps->items[i].kind == AV_EXPR && deps->items[i].expr->kind == EX_VAR)
            vec_push(&e->dep_vars, deps->items[i].expr->var);
}

/* ---------------------------------------------------------------- expressions */
static const char *oe_binop(BinOp op) {
    switch (op) {
    case BIN_ADD: return "+"; case BIN_SUB: return "-"; case BIN_MUL: return "*";
    case BIN_FLOORDIV: case BIN_DIV: return "/"; case BIN_FLOORMOD: return "%";
    case BIN_EQ: return "=="; case BIN_NE: return "!="; case BIN_LT: return "<"; case BIN_LE: return "<=";
    case BIN_GT: return ">"; case BIN_GE: return ">="; case BIN_AND: return "&&"; case BIN_OR: return "||";
    case BIN_XOR: return "!="; case BIN_BITAND: return "&"; case BIN_BITOR: return "|"; case BIN_BITXOR: return "^";
    case BIN_SHL: return "<<"; case BIN_SHR: return ">>";
    default: return NULL;
    }
}

static void oe_expr(OrchEmit *e, const Expr *x, StrBuf *sb) {
    switch (x->kind) {
    case EX_VAR: {
        const OrchName *n = oe_find(e, x->var);
        sb_puts(sb, n ? n->name : x->var->name);
        return;
    }
    case EX_CONST_INT: sb_printf(sb, "%lld", (long long)x->ci.value); return;
    case EX_CONST_FLOAT: sb_printf(sb, "%.17g", x->cf.value); return;
    case EX_CONST_BOOL: sb_puts(sb, x->cb.value ? "true" : "false"); return;
    case EX_BINARY: {
        const char *op = oe_binop(x->bin.op);
        if (x->bin.op == BIN_MIN || x->bin.op == BIN_MAX) {
            sb_puts(sb, x->bin.op == BIN_MIN ? "std::min<int64_t>(" : "std::max<int64_t>(");
            oe_expr(e, x->bin.lhs, sb); sb_puts(sb, ", "); oe_expr(e, x->bin.rhs, sb); sb_putc(sb, ')');
            return;
        }
        sb_putc(sb, '(');
        oe_expr(e, x->bin.lhs, sb);
        sb_printf(sb, " %s ", op ? op : "?");
        oe_expr(e, x->bin.rhs, sb);
        sb_putc(sb, ')');
        return;
    }
    case EX_UNARY: {
        static const char *ops[] = { "-", "!", "std::abs", "~" };
        if (x->un.op == UN_CAST) sb_printf(sb, "(%s)", x->type && dtype_is_float(x->type->dtype) ? "double" : "int64_t");
        else sb_puts(sb, ops[x->un.op]);
        sb_putc(sb, '(');
        oe_expr(e, x->un.operand, sb);
        sb_putc(sb, ')');
        return;
    }
    case EX_TUPLE_GET: {
        if (x->tget.tuple->kind == EX_VAR) {
            const OrchName *n = oe_find(e, x->tget.tuple->var);
            if (n && x->tget.index < n->nitems) { sb_puts(sb, n->items[x->tget.index]); return; }
        }
        sb_puts(sb, "/* tuple item */ 0");
        return;
    }
    default: sb_puts(sb, "/* unsupported expression */ 0"); return;
    }
}

static const char *oe_str(OrchEmit *e, const Expr *x) {
    StrBuf sb = {0};
    oe_expr(e, x, &sb);
    const char *s = arena_strdup(e->arena, sb_cstr(&sb));
    sb_free(&sb);
    return s;
}

/* "{a, b}" from a tuple expression (or a single value). */
static const char *oe_list(OrchEmit *e, const Expr *x, int *n) {
    StrBuf sb = {0};
    sb_putc(&sb, '{');
    int k = x->kind == EX_TUPLE ? x->tuple.n : 1;
    for (int i = 0; i < k; i++) {
        if (i) sb_puts(&sb, ", ");
        oe_expr(e, x->kind == EX_TUPLE ? x->tuple.items[i] : x, &sb);
    }
    sb_putc(&sb, '}');
    *n = k;
    const char *s = arena_strdup(e->arena, sb_cstr(&sb));
    sb_free(&sb);
    return s;
}

static const char *oe_dtype(DType d) {
    switch (d) {
    case DT_FP32: return "FLOAT32"; case DT_FP16: return "FLOAT16"; case DT_BF16: return "BFLOAT16";
    case DT_INT32: return "INT32"; case DT_INT16: return "INT16"; case DT_INT8: return "INT8";
    case DT_UINT8: return "UINT8"; case DT_INT64: case DT_INDEX: return "INT64"; case DT_UINT64: return "UINT64";
    case DT_UINT16: return "UINT16"; case DT_UINT32: return "UINT32"; case DT_BOOL: return "BOOL";
    default: return dtype_name(d);
    }
}

/* ---------------------------------------------------------------- tensor ops */
static const char *oe_create_info(OrchEmit *e, const Var *v, const Expr *call) {
    const char *ci = oe_fresh(e, arena_printf(e->arena, "%s_ci", v->name));
    int n;
    const char *shapes = oe_list(e, call->call.args[0], &n);
    DType dt = call->type && call->type->kind == TY_TENSOR ? call->type->dtype : DT_FP32;
    oe_line(e, "uint32_t %s_shapes[%d] = %s;", ci, n, shapes);
    oe_line(e, "TensorCreateInfo %s(%s_shapes, %d, DataType::%s);", ci, ci, n, oe_dtype(dt));
    return ci;
}

static bool oe_is_create(const Stmt *s) {
    return s->kind == ST_ASSIGN && s->assign.value->kind == EX_CALL && !s->assign.value->call.callee &&
           s->assign.value->call.op == OP_TENSOR_CREATE;
}

/* Emits the run of consecutive tensor.create statements starting at l->items[i]; returns the
 * number consumed. Creates passed as pl.adir.output stay create-infos (add_output(ci) later). */
static int oe_creates(OrchEmit *e, const StmtList *l, int i) {
    int j = i;
    VEC(const char *) cis = {0};
    VEC(const Var *) vars = {0};
    for (; j < l->len && oe_is_create(l->items[j]); j++) {
        const Var *v = l->items[j]->assign.var;
        const char *ci = oe_create_info(e, v, l->items[j]->assign.value);
        if (oe_in(e->output_vars.data, e->output_vars.len, v)) { oe_bind(e, v, ci); continue; }
        vec_push(&cis, ci);
        vec_push(&vars, v);
    }
    if (cis.len) {
        const char *alloc = arena_printf(e->arena, "alloc_%d", e->nalloc++);
        StrBuf sb = {0};
        for (int k = 0; k < cis.len; k++) sb_printf(&sb, "%s%s", k ? ", " : "", cis.data[k]);
        oe_line(e, "TaskOutputTensors %s = alloc_tensors(%s);", alloc, sb_cstr(&sb));
        sb_free(&sb);
        for (int k = 0; k < vars.len; k++) {
            const char *nm = oe_fresh(e, vars.data[k]->name);
            oe_line(e, "const ChipTensor& %s = %s.get_ref(%d);", nm, alloc, k);
            oe_bind(e, vars.data[k], nm);
        }
    }
    vec_free(&cis);
    vec_free(&vars);
    return j - i;
}

static void oe_slice(OrchEmit *e, const Var *v, const Expr *call) {
    const char *nm = oe_fresh(e, v->name);
    int ns, no;
    const char *shapes = oe_list(e, call->call.args[1], &ns), *offs = oe_list(e, call->call.args[2], &no);
    oe_line(e, "uint32_t %s_shapes[%d] = %s;", nm, ns, shapes);
    oe_line(e, "uint32_t %s_offsets[%d] = %s;", nm, no, offs);
    oe_line(e, "ChipTensor %s = %s.view(%s_shapes, %s_offsets);", nm, oe_str(e, call->call.args[0]), nm, nm);
    oe_bind(e, v, nm);
}

/* ---------------------------------------------------------------- kernel calls */
static ArgDir oe_dir(const Expr *call, int i) {
    const AttrVal *d = ir_attr_get(&call->call.attrs, "arg_directions");
    if (d && d->kind == AV_LIST && i < d->nitems && d->items[i].s) {
        static const char *names[] = { "pl.adir.input", "pl.adir.output", "pl.adir.inout",
                                       "pl.adir.output_existing", "pl.adir.no_dep", "pl.adir.scalar" };
        for (int k = 0; k < 6; k++)
            if (strcmp(d->items[i].s, names[k]) == 0) return (ArgDir)k;
    }
    const Function *f = call->call.callee;
    const Type *t = call->call.args[i]->type;
    if (!t || t->kind != TY_TENSOR) return AD_SCALAR;
    ParamDir pd = f->param_dirs && i < f->params.len ? f->param_dirs[i] : PD_IN;
    return pd == PD_OUT ? AD_OUTPUT_EXISTING : pd == PD_INOUT ? AD_INOUT : AD_INPUT;
}

static void oe_scan_cube(Expr *x, void *ud) {
    if (x->kind == EX_CALL && x->call.op != OP_NONE && (ir_op_info(x->call.op)->flags & OPF_CUBE)) *(bool *)ud = true;
}

static bool oe_has_cube(const Function *f) {
    bool cube = false;
    ir_visit_exprs((StmtList *)&f->body, oe_scan_cube, &cube);
    return cube;
}

static void oe_submit_line(OrchEmit *e, const Function *f, const char *params, const char *capture, int task) {
    const char *cap = capture ? arena_printf(e->arena, "TaskOutputTensors %s = ", capture) : "";
    if (f->type == FT_GROUP) {
        int ids[3] = { -1, -1, -1 }, nv = 0;
        for (int s = 0; s < f->body.len; s++) {
            const Stmt *st = f->body.items[s];
            const Expr *x = st->kind == ST_ASSIGN ? st->assign.value : st->kind == ST_EVAL ? st->eval.expr : NULL;
            if (!x || x->kind != EX_CALL || !x->call.callee) continue;
            if (x->call.callee->type == FT_AIC) ids[0] = oe_func_id(e, x->call.callee->name);
            else if (x->call.callee->type == FT_AIV && nv < 2) ids[1 + nv++] = oe_func_id(e, x->call.callee->name);
        }
        StrBuf sb = {0};
        for (int k = 0; k < 3; k++) {
            if (k) sb_puts(&sb, ", ");
            if (ids[k] < 0) sb_puts(&sb, "INVALID_KERNEL_ID");
            else sb_printf(&sb, "%d", ids[k]);
        }
        oe_line(e, "MixedKernels mixed_%d = {%s};", task, sb_cstr(&sb));
        sb_free(&sb);
        oe_line(e, "%srt_submit_task(mixed_%d, %s);", cap, task, params);
        return;
    }
    bool aic = f->type == FT_AIC || (f->type == FT_INCORE && oe_has_cube(f));   /* unsplit InCore: by content */
    oe_line(e, "%srt_submit_%s_task(%d, %s);", cap, aic ? "aic" : "aiv", oe_func_id(e, f->name), params);
}

/* The C name of a call's r-th result: the argument the callee returns directly, else the r-th
 * output argument; OUTPUT create-infos become outs.get_ref(k). */
static const char *oe_result(OrchEmit *e, const Expr *call, const char **argnames, const ArgDir *dirs, int r) {
    const Function *f = call->call.callee;
    const Stmt *ret = f->body.len ? f->body.items[f->body.len - 1] : NULL;
    int pick = -1;
    if (ret && ret->kind == ST_RETURN && r < ret->ret.n && ret->ret.values[r]->kind == EX_VAR)
        for (int k = 0; k < f->params.len && k < call->call.nargs; k++)
            if (f->params.items[k] == ret->ret.values[r]->var && dirs[k] != AD_SCALAR) pick = k;
    for (int k = 0, seen = 0; pick < 0 && k < call->call.nargs; k++)
        if ((dirs[k] == AD_OUTPUT || dirs[k] == AD_OUTPUT_EXISTING || dirs[k] == AD_INOUT) && seen++ == r) pick = k;
    return pick >= 0 ? argnames[pick] : "/* no result */";
}

static void oe_task_args(OrchEmit *e, const Expr *call, const char *params, const ArgDir *dirs, const char **argnames) {
    static const char *adds[] = { "add_input", "add_output", "add_inout", "add_output", "add_no_dep", "add_scalar" };
    for (int pass = 0; pass < 2; pass++)          /* all tensors before any scalar */
        for (int i = 0; i < call->call.nargs; i++)
            if ((dirs[i] == AD_SCALAR) == (pass == 1))
                oe_line(e, "%s.%s(%s);", params, adds[dirs[i]], argnames[i]);
}

static void oe_call(OrchEmit *e, const Var *var, const Expr *call) {
    const Function *f = call->call.callee;
    int t = e->ntask++, n = call->call.nargs;
    const char *params = arena_printf(e->arena, "params_t%d", t);
    ArgDir *dirs = ARENA_ARRAY(e->arena, ArgDir, n ? n : 1);
    const char **argnames = ARENA_ARRAY(e->arena, const char *, n ? n : 1);
    int nout = 0;
    for (int i = 0; i < n; i++) {
        dirs[i] = oe_dir(call, i);
        argnames[i] = oe_str(e, call->call.args[i]);
        if (dirs[i] == AD_OUTPUT) nout++;
    }
    oe_line(e, "// Task %d: %s", t, f->name);
    oe_line(e, "CoreTaskArgs %s;", params);
    oe_task_args(e, call, params, dirs, argnames);
    const AttrVal *bn = ir_attr_get(&call->call.attrs, "block_num");
    if (bn && bn->kind == AV_INT) oe_line(e, "%s.launch_spec.set_block_num(%lld);", params, (long long)bn->i);
    else if (bn && bn->kind == AV_EXPR) oe_line(e, "%s.launch_spec.set_block_num(%s);", params, oe_str(e, bn->expr));
    else if (e->spmd.len) oe_line(e, "%s.launch_spec.set_block_num(%s);", params, oe_str(e, vec_last(&e->spmd)->scope.core_num));
    const AttrVal *ss = e->spmd.len ? ir_attr_get(&vec_last(&e->spmd)->scope.kwargs, "sync_start") : NULL;
    if (ss && ss->kind == AV_BOOL && ss->i) oe_line(e, "%s.launch_spec.set_require_sync_start(true);", params);
    const AttrVal *deps = ir_attr_get(&call->call.attrs, "deps");
    if (!deps) deps = ir_attr_get(&call->call.kwargs, "deps");
    if (deps && deps->kind == AV_LIST && deps->nitems) {
        StrBuf sb = {0};
        for (int k = 0; k < deps->nitems; k++) {
            const char *h = "PTO2TaskId{}";
            if (deps->items[k].kind == AV_EXPR && deps->items[k].expr->kind == EX_VAR)
                for (int q = 0; q < e->task_vars.len; q++)
                    if (e->task_vars.data[q] == deps->items[k].expr->var) h = e->task_names.data[q];
            sb_printf(&sb, "%s%s", k ? ", " : "", h);
        }
        oe_line(e, "PTO2TaskId deps_t%d[%d] = {%s};", t, deps->nitems, sb_cstr(&sb));
        oe_line(e, "%s.set_dependencies(deps_t%d, %d);", params, t, deps->nitems);
        sb_free(&sb);
    }
    bool capture = nout > 0 || (var && oe_in(e->dep_vars.data, e->dep_vars.len, var));
    const char *outs = capture ? arena_printf(e->arena, "outs_t%d", t) : NULL;
    oe_submit_line(e, f, params, outs, t);
    for (int i = 0, k = 0; i < n; i++)           /* runtime-created outputs: rebind to get_ref(k) */
        if (dirs[i] == AD_OUTPUT) {
            const char *nm = oe_fresh(e, arena_printf(e->arena, "%s_t%d", call->call.args[i]->kind == EX_VAR ? call->call.args[i]->var->name : "out", t));
            oe_line(e, "const ChipTensor& %s = %s.get_ref(%d);", nm, outs, k++);
            if (call->call.args[i]->kind == EX_VAR) oe_bind(e, call->call.args[i]->var, nm);
            argnames[i] = nm;
        }
    if (!var) return;
    if (capture) { vec_push(&e->task_vars, var); vec_push(&e->task_names, arena_printf(e->arena, "%s.task_id()", outs)); }
    if (f->nreturns <= 1) { oe_bind(e, var, oe_result(e, call, argnames, dirs, 0)); return; }
    OrchName nm = { var, "/* tuple */", ARENA_ARRAY(e->arena, const char *, f->nreturns), f->nreturns };
    for (int r = 0; r < f->nreturns; r++) nm.items[r] = oe_result(e, call, argnames, dirs, r);
    vec_push(&e->names, nm);
}

/* ---------------------------------------------------------------- statements */
static void oe_list_stmts(OrchEmit *e, const StmtList *l, const VarList *yield_to);

static bool oe_is_tensor_var(const Var *v) { return v->type && v->type->kind == TY_TENSOR; }
static const char *oe_ctype(const Type *t) { return t && dtype_is_float(t->dtype) ? "double" : "int64_t"; }

/* Scalar carries become C variables assigned by the yield; tensor carries alias their init. */
static void oe_carry_init(OrchEmit *e, const VarList *iter, const VarList *rets) {
    for (int k = 0; k < iter->len; k++) {
        const Var *v = iter->items[k];
        if (oe_is_tensor_var(v)) {
            const char *nm = v->init ? oe_str(e, v->init) : v->name;
            oe_bind(e, v, nm);
            if (rets && k < rets->len) oe_bind(e, rets->items[k], nm);
            continue;
        }
        const char *nm = oe_fresh(e, v->name);
        if (v->init) oe_line(e, "%s %s = %s;", oe_ctype(v->type), nm, oe_str(e, v->init));
        else oe_line(e, "%s %s = 0;", oe_ctype(v->type), nm);
        oe_bind(e, v, nm);
        if (rets && k < rets->len) oe_bind(e, rets->items[k], nm);
    }
}

static void oe_for(OrchEmit *e, const Stmt *s) {
    oe_carry_init(e, &s->for_.iter_args, &s->for_.return_vars);
    const char *lv = oe_fresh(e, s->for_.loop_var->name);
    const char *step = oe_str(e, s->for_.step);
    bool neg = s->for_.step->kind == EX_CONST_INT && s->for_.step->ci.value < 0;
    oe_line(e, "for (int64_t %s = %s; %s %s %s; %s += %s) {", lv, oe_str(e, s->for_.start), lv, neg ? ">" : "<",
            oe_str(e, s->for_.stop), lv, step);
    oe_bind(e, s->for_.loop_var, lv);
    e->indent++;
    oe_list_stmts(e, &s->for_.body, &s->for_.iter_args);
    e->indent--;
    oe_line(e, "}");
}

static void oe_if(OrchEmit *e, const Stmt *s) {
    for (int k = 0; k < s->if_.return_vars.len; k++) {
        const Var *v = s->if_.return_vars.items[k];
        if (oe_is_tensor_var(v)) continue;            /* bound by the then-branch yield */
        const char *nm = oe_fresh(e, v->name);
        oe_line(e, "%s %s = 0;", oe_ctype(v->type), nm);
        oe_bind(e, v, nm);
    }
    oe_line(e, "if (%s) {", oe_str(e, s->if_.cond));
    e->indent++;
    oe_list_stmts(e, &s->if_.then_body, &s->if_.return_vars);
    e->indent--;
    if (s->if_.has_else || s->if_.else_body.len) {
        oe_line(e, "} else {");
        e->indent++;
        oe_list_stmts(e, &s->if_.else_body, &s->if_.return_vars);
        e->indent--;
    }
    oe_line(e, "}");
}

static void oe_yield(OrchEmit *e, const Stmt *s, const VarList *to) {
    for (int k = 0; to && k < s->yield.n && k < to->len; k++) {
        const Var *v = to->items[k];
        const char *val = oe_str(e, s->yield.values[k]);
        const OrchName *cur = oe_find(e, v);
        if (oe_is_tensor_var(v)) { if (!cur) oe_bind(e, v, val); continue; }
        if (cur && strcmp(cur->name, val) != 0) oe_line(e, "%s = %s;", cur->name, val);
    }
}

static void oe_scope(OrchEmit *e, const Stmt *s) {
    if (s->scope.kind == SC_RUNTIME) {
        oe_line(e, "%s {", s->scope.manual ? "PTO2_SCOPE(PTO2ScopeMode::MANUAL)" : "PTO2_SCOPE()");
        e->indent++;
        oe_list_stmts(e, &s->scope.body, NULL);
        e->indent--;
        oe_line(e, "}");
        return;
    }
    if (s->scope.kind == SC_SPMD) {
        vec_push(&e->spmd, s);
        oe_list_stmts(e, &s->scope.body, NULL);
        e->spmd.len--;
        return;
    }
    oe_line(e, "// unsupported scope kind %d (not outlined)", (int)s->scope.kind);
}

static void oe_assign(OrchEmit *e, const Stmt *s) {
    const Var *v = s->assign.var;
    const Expr *x = s->assign.value;
    if (x->kind == EX_CALL && x->call.callee) { oe_call(e, v, x); return; }
    if (x->kind == EX_CALL && x->call.op == OP_TENSOR_SLICE) { oe_slice(e, v, x); return; }
    if (x->kind == EX_VAR && oe_is_tensor_var(v)) { oe_bind(e, v, oe_str(e, x)); return; }
    if (x->kind == EX_CALL) { oe_line(e, "// unsupported operation in orchestration"); return; }
    const char *nm = oe_fresh(e, v->name);
    oe_line(e, "%s %s = %s;", oe_ctype(v->type), nm, oe_str(e, x));
    oe_bind(e, v, nm);
}

static void oe_list_stmts(OrchEmit *e, const StmtList *l, const VarList *yield_to) {
    for (int i = 0; i < l->len; i++) {
        const Stmt *s = l->items[i];
        if (oe_is_create(s)) { i += oe_creates(e, l, i) - 1; continue; }
        switch (s->kind) {
        case ST_ASSIGN: oe_assign(e, s); break;
        case ST_EVAL:
            if (s->eval.expr->kind == EX_CALL && s->eval.expr->call.callee) oe_call(e, NULL, s->eval.expr);
            break;
        case ST_FOR: oe_for(e, s); break;
        case ST_WHILE: oe_line(e, "// while loops are not supported in orchestration C++"); break;
        case ST_IF: oe_if(e, s); break;
        case ST_YIELD: oe_yield(e, s, yield_to); break;
        case ST_RETURN: break;                       /* results alias the Out/InOut arguments */
        case ST_SCOPE: oe_scope(e, s); break;
        }
    }
}

/* ---------------------------------------------------------------- file */
static void oe_entry_params(OrchEmit *e, const Function *f) {
    oe_line(e, "// External tensors");
    int nt = 0, ns = 0;
    for (int i = 0; i < f->params.len; i++) {
        const Var *v = f->params.items[i];
        if (oe_is_tensor_var(v)) {
            const char *nm = oe_fresh(e, arena_printf(e->arena, "ext_%s", v->name));
            oe_line(e, "const ChipTensor& %s = orch_args.tensor(%d).ref();", nm, nt++);
            oe_bind(e, v, nm);
        } else {
            const char *nm = oe_fresh(e, v->name);
            if (v->type && dtype_is_float(v->type->dtype)) {
                oe_line(e, "uint64_t %s_bits = orch_args.scalar(%d);", nm, ns++);
                oe_line(e, "double %s; memcpy(&%s, &%s_bits, sizeof %s);", nm, nm, nm, nm);
            } else {
                oe_line(e, "int64_t %s = (int64_t)orch_args.scalar(%d);", nm, ns++);
            }
            oe_bind(e, v, nm);
        }
    }
}

void back_print_orchestration(const Program *p, const Function *orch, StrBuf *out) {
    (void)p;
    OrchEmit e;
    memset(&e, 0, sizeof e);
    e.out = out;
    e.arena = arena_new();
    ir_visit_exprs((StmtList *)&orch->body, oe_scan, &e);
    sb_puts(out, "#include <stddef.h>\n#include <stdint.h>\n#include <stdio.h>\n#include \"pto_orchestration_api.h\"\n\n");
    sb_puts(out, "extern \"C\" {\n__attribute__((visibility(\"default\")))\n");
    sb_puts(out, "PTO2OrchestrationConfig aicpu_orchestration_config(const ChipTaskArgs& orch_args) {\n");
    sb_puts(out, "    (void)orch_args;\n");
    sb_printf(out, "    return PTO2OrchestrationConfig{ .expected_arg_count = %d, };\n}\n\n", orch->params.len);
    sb_puts(out, "__attribute__((visibility(\"default\")))\n");
    sb_puts(out, "void aicpu_orchestration_entry(const ChipTaskArgs& orch_args) {\n");
    e.indent = 1;
    oe_entry_params(&e, orch);
    oe_list_stmts(&e, &orch->body, NULL);
    sb_puts(out, "}\n}  // extern \"C\"\n");
    vec_free(&e.names);
    vec_free(&e.used);
    vec_free(&e.funcs);
    vec_free(&e.output_vars);
    vec_free(&e.dep_vars);
    vec_free(&e.task_vars);
    vec_free(&e.task_names);
    vec_free(&e.spmd);
    arena_free(e.arena);
}
