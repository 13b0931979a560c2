/* OutlineIncoreScopes
 * Requires: SSAForm.
 * Produces: SplitIncoreOrch — every pl.at(level=CORE_GROUP) region is its own InCore function; a
 *           function that outlined a region becomes Orchestration.
 * Does: inputs = the region's live-in variables (first-use order), outputs = variables defined in
 *   the region and used after it. A captured tensor whose buffer the region writes (directly, or
 *   through loop carries, branch merges and earlier in-place results: pass_alias_root) becomes an
 *   Out param, InOut when it is also read (an atomic add reads). Returns are param-explicit: an
 *   output rooted in a parameter returns the parameter itself and the writing statement binds
 *   <param>__store. The region is replaced by one call plus one assignment per output. */
#include "pass/pass.h"

#include <string.h>


/* An ordered set of variables; `in` indexes it (a hashed VarMap) so membership is O(1) — a region
 * of thousands of statements defines thousands of variables. */
typedef struct { VarList vars; IrCtx *c; VarMap in; } VarSet;

static Expr set_member;   /* the value `in` maps members to (only its address is used) */

static bool set_has(const VarSet *s, const Var *v) { return ir_varmap_get(&s->in, v) != NULL; }
static void set_add(VarSet *s, Var *v) {
    if (set_has(s, v)) return;
    ir_varlist_push(s->c, &s->vars, v);
    ir_varmap_put(&s->in, v, &set_member);
}
static void collect_use(Expr *e, void *ud) { if (e->kind == EX_VAR) set_add(ud, e->var); }

static void collect_defs(StmtList *l, VarSet *d) {
    for (int i = 0; i < l->len; i++) {
        Stmt *s = l->items[i];
        switch (s->kind) {
        case ST_ASSIGN: set_add(d, s->assign.var); break;
        case ST_IF:
            for (int j = 0; j < s->if_.return_vars.len; j++) set_add(d, s->if_.return_vars.items[j]);
            collect_defs(&s->if_.then_body, d);
            collect_defs(&s->if_.else_body, d);
            break;
        case ST_FOR:
            set_add(d, s->for_.loop_var);
            for (int j = 0; j < s->for_.iter_args.len; j++) set_add(d, s->for_.iter_args.items[j]);
            for (int j = 0; j < s->for_.return_vars.len; j++) set_add(d, s->for_.return_vars.items[j]);
            collect_defs(&s->for_.body, d);
            break;
        case ST_WHILE:
            for (int j = 0; j < s->while_.iter_args.len; j++) set_add(d, s->while_.iter_args.items[j]);
            for (int j = 0; j < s->while_.return_vars.len; j++) set_add(d, s->while_.return_vars.items[j]);
            collect_defs(&s->while_.body, d);
            break;
        case ST_SCOPE: collect_defs(&s->scope.body, d); break;
        default: break;
        }
    }
}

/* Uses of variables anywhere in l except inside the statement `skip`. */
static void collect_uses_except(StmtList *l, Stmt *skip, VarSet *u) {
    for (int i = 0; i < l->len; i++) {
        Stmt *s = l->items[i];
        if (s == skip) continue;
        StmtList one = { &l->items[i], 1, 1 };
        switch (s->kind) {
        case ST_IF:
            ir_visit_expr(s->if_.cond, collect_use, u);
            collect_uses_except(&s->if_.then_body, skip, u);
            collect_uses_except(&s->if_.else_body, skip, u);
            break;
        case ST_FOR:
            ir_visit_expr(s->for_.start, collect_use, u);
            ir_visit_expr(s->for_.stop, collect_use, u);
            ir_visit_expr(s->for_.step, collect_use, u);
            for (int j = 0; j < s->for_.iter_args.len; j++) ir_visit_expr(s->for_.iter_args.items[j]->init, collect_use, u);
            collect_uses_except(&s->for_.body, skip, u);
            break;
        case ST_WHILE: ir_visit_expr(s->while_.cond, collect_use, u); collect_uses_except(&s->while_.body, skip, u); break;
        case ST_SCOPE: collect_uses_except(&s->scope.body, skip, u); break;
        default: ir_visit_exprs(&one, collect_use, u); break;
        }
    }
}

/* Parameter directions (spec §8.3 step 4), on buffer roots: a parameter is written when some
 * writing op's destination (tensor.assemble / tile.store / matmul_acc, reached through loop carries,
 * branch merges and earlier in-place results) is rooted in it, and read by any other use of it or
 * of one of its aliases (an atomic add and matmul_acc read their destination too). Alias-carrying
 * positions (iter_arg inits, yields, returns, plain copies) are neither. Calls of other functions
 * contribute their callee's parameter directions. */
typedef struct { const PassAliases *al; const Var *p; bool read, written; } DirScan;

static bool rooted(DirScan *d, Expr *e) { return e && e->kind == EX_VAR && pass_alias_root(d->al, e->var) == d->p; }

static void scan_read(Expr *e, void *ud) {
    DirScan *d = ud;
    if (rooted(d, e)) d->read = true;
}

static void scan_call(DirScan *d, Expr *call) {
    int slot = -1;
    bool dest_read = false;
    if (call->call.op == OP_NONE && call->call.callee) {
        Function *k = call->call.callee;
        for (int i = 0; i < call->call.nargs; i++) {
            Expr *a = call->call.args[i];
            if (!rooted(d, a)) { ir_visit_expr(a, scan_read, d); continue; }
            ParamDir pd = i < k->params.len && k->param_dirs ? k->param_dirs[i] : PD_IN;
            if (pd != PD_OUT) d->read = true;
            if (pd != PD_IN) d->written = true;
        }
        return;
    }
    if (pass_is_op(call, OP_TENSOR_ASSEMBLE) || pass_is_op(call, OP_TILE_STORE) || pass_is_op(call, OP_TENSOR_MATMUL_ACC)) {
        slot = pass_inplace_slot(call);
        const AttrVal *at = ir_attr_get(&call->call.kwargs, "atomic");
        dest_read = pass_is_op(call, OP_TENSOR_MATMUL_ACC) ||
                    (at && ((at->kind == AV_ENUM && at->s && strstr(at->s, "Add")) || (at->kind == AV_INT && at->i == 1)));
    }
    for (int i = 0; i < call->call.nargs; i++) {
        Expr *a = call->call.args[i];
        if (i == slot && rooted(d, a)) {
            d->written = true;
            d->read |= dest_read;
        } else {
            ir_visit_expr(a, scan_read, d);
        }
    }
}

static void scan_dir_list(StmtList *l, DirScan *d) {
    for (int i = 0; i < l->len; i++) {
        Stmt *s = l->items[i];
        switch (s->kind) {
        case ST_ASSIGN:
            if (s->assign.value->kind == EX_CALL) scan_call(d, s->assign.value);
            else if (s->assign.value->kind != EX_VAR) ir_visit_expr(s->assign.value, scan_read, d);
            break;
        case ST_EVAL:
            if (s->eval.expr->kind == EX_CALL) scan_call(d, s->eval.expr);
            else ir_visit_expr(s->eval.expr, scan_read, d);
            break;
        case ST_IF: ir_visit_expr(s->if_.cond, scan_read, d); scan_dir_list(&s->if_.then_body, d); scan_dir_list(&s->if_.else_body, d); break;
        case ST_FOR:
            ir_visit_expr(s->for_.start, scan_read, d);
            ir_visit_expr(s->for_.stop, scan_read, d);
            ir_visit_expr(s->for_.step, scan_read, d);
            scan_dir_list(&s->for_.body, d);
            break;
        case ST_WHILE: ir_visit_expr(s->while_.cond, scan_read, d); scan_dir_list(&s->while_.body, d); break;
        case ST_SCOPE: scan_dir_list(&s->scope.body, d); break;
        default: break;               /* yields and returns carry aliases */
        }
    }
}

static ParamDir infer_dir(StmtList *body, const PassAliases *al, const Var *p) {
    if (p->type->kind != TY_TENSOR) return PD_IN;
    DirScan d = { al, p, false, false };
    scan_dir_list(body, &d);
    if (!d.written) return PD_IN;
    return d.read ? PD_INOUT : PD_OUT;
}

typedef struct { PassCtx *ctx; Program *prog; Function *parent; int n; bool failed; PassUses reads, inside; } Outliner;

/* The variables the region defines that something outside it reads: their reads in the whole
 * function (counted once, before any region was outlined: an earlier region cannot read a later
 * one's definitions, and outlining it leaves those reads as they are) less their reads inside. */
static void defs_read_outside(Outliner *o, Stmt *scope, const VarSet *defs, VarSet *outside) {
    bool counted = true;
    for (int i = 0; i < defs->vars.len; i++) counted &= pass_uses_of(&o->reads, defs->vars.items[i]) >= 0;
    if (!counted) {                                  /* a variable newer than the count: scan */
        collect_uses_except(&o->parent->body, scope, outside);
        return;
    }
    pass_uses_add(&o->inside, &scope->scope.body);
    for (int i = 0; i < defs->vars.len; i++) {
        Var *v = defs->vars.items[i];
        if (pass_uses_of(&o->reads, v) > pass_uses_of(&o->inside, v)) set_add(outside, v);
    }
    pass_uses_reset(&o->inside, &scope->scope.body);
}

static const char *kernel_name(Outliner *o, Stmt *scope) {
    const char *base = scope->scope.name_hint;
    const char *name = base ? base : arena_printf(o->ctx->ir->arena, "%s_incore_%d", o->parent->name, o->n++);
    for (int k = 0; ir_program_find(o->prog, name); k++)
        name = arena_printf(o->ctx->ir->arena, "%s_%d", base ? base : name, k);
    return name;
}

/* A tile lives in one kernel's on-chip memory: one flowing into or out of a region is a user error. */
static bool tile_crosses(Outliner *o, const Stmt *scope, const VarSet *uses, const VarSet *defs, const VarSet *outside) {
    for (int i = 0; i < uses->vars.len; i++) {
        Var *v = uses->vars.items[i];
        if (set_has(defs, v) || !v->type || v->type->kind != TY_TILE) continue;
        diag_error(o->ctx->diag, scope->span, "'%s' is a tile computed on-chip outside this pl.at region (tiles do not "
                   "outlive the region that computes them): store it into a tensor there (pl.store / pl.assemble) and "
                   "read the tensor here", v->name);
        return true;
    }
    for (int i = 0; i < defs->vars.len; i++) {
        Var *v = defs->vars.items[i];
        if (!set_has(outside, v) || !v->type || v->type->kind != TY_TILE) continue;
        diag_error(o->ctx->diag, v->span.file ? v->span : scope->span, "tile '%s' is used after its pl.at region (tiles do "
                   "not outlive the region that computes them): store it into a tensor inside the region (pl.store / "
                   "pl.assemble) and use the tensor", v->name);
        return true;
    }
    return false;
}

/* Replaces scope statement l->items[at] by a call of a new InCore function. */
static void outline(Outliner *o, StmtList *l, int at) {
    IrCtx *c = o->ctx->ir;
    Stmt *scope = l->items[at];
    VarSet uses = { {0}, c, {0} }, defs = { {0}, c, {0} }, outside = { {0}, c, {0} };
    ir_visit_exprs(&scope->scope.body, collect_use, &uses);
    collect_defs(&scope->scope.body, &defs);
    defs_read_outside(o, scope, &defs, &outside);
    if (tile_crosses(o, scope, &uses, &defs, &outside)) {
        o->failed = true;
        ir_varmap_free(&uses.in); ir_varmap_free(&defs.in); ir_varmap_free(&outside.in);
        return;
    }

    Function *k = ir_func_new(c, kernel_name(o, scope), FT_INCORE);
    k->span = scope->span;
    VarMap to_param = {0};
    VEC(Expr *) call_args = {0};
    for (int i = 0; i < uses.vars.len; i++) {
        Var *v = uses.vars.items[i];
        if (set_has(&defs, v)) continue;
        Var *p = ir_var_new(c, v->name, v->type);
        p->span = v->span;
        ir_func_add_param(c, k, p, PD_IN);
        ir_varmap_put(&to_param, v, ir_ref(p));
        vec_push(&call_args, ir_ref(v));
    }
    k->body = scope->scope.body;
    ir_subst_stmts(c, &k->body, &to_param);
    PassAliases al;
    pass_aliases_build(o->ctx, &k->body, &al);
    for (int i = 0; i < k->params.len; i++) k->param_dirs[i] = infer_dir(&k->body, &al, k->params.items[i]);

    VarList outs = {0};
    for (int i = 0; i < defs.vars.len; i++)
        if (set_has(&outside, defs.vars.items[i])) ir_varlist_push(c, &outs, defs.vars.items[i]);
    int nouts = outs.len;
    Expr **rets = ARENA_ARRAY(c->arena, Expr *, nouts ? nouts : 1);
    Type **rtypes = ARENA_ARRAY(c->arena, Type *, nouts ? nouts : 1);
    const char **caller_names = ARENA_ARRAY(c->arena, const char *, nouts ? nouts : 1);
    for (int i = 0; i < nouts; i++) caller_names[i] = outs.items[i]->name;
    for (int i = 0; i < nouts; i++) {
        Var *root = pass_alias_root(&al, outs.items[i]);
        bool is_param = false;
        for (int j = 0; j < k->params.len; j++) is_param |= k->params.items[j] == root;
        if (is_param && root != outs.items[i]) outs.items[i]->name = arena_printf(c->arena, "%s__store", root->name);
        rets[i] = ir_ref(is_param ? root : outs.items[i]);
        rtypes[i] = rets[i]->type;
    }
    pass_aliases_free(&al);
    ir_list_push(c, &k->body, ir_return(c, rets, nouts));
    k->return_types = rtypes;
    k->nreturns = nouts;
    ir_program_add(c, o->prog, k);

    /* The caller: one call, one variable per output (fresh Vars; later uses renamed). */
    Expr *call = ir_call_fn(c, k, call_args.data, call_args.len);
    vec_free(&call_args);
    call->span = scope->span;
    VarMap to_caller = {0};
    Stmt *repl;
    if (nouts == 1) {
        Var *nv = ir_var_new(c, caller_names[0], rtypes[0]);
        repl = ir_assign(c, nv, call);
        ir_varmap_put(&to_caller, outs.items[0], ir_ref(nv));
    } else if (nouts == 0) {
        repl = ir_eval(c, call);
    } else {
        Var *tv = ir_var_new(c, "ret", call->type);
        repl = ir_assign(c, tv, call);
        for (int i = 0; i < nouts; i++) {
            Var *nv = ir_var_new(c, caller_names[i], rtypes[i]);
            Expr *g = ARENA_NEW(c->arena, Expr);
            g->kind = EX_TUPLE_GET; g->type = rtypes[i]; g->tget.tuple = ir_ref(tv); g->tget.index = i;
            ir_list_insert(c, l, at + 1 + i, ir_assign(c, nv, g));
            ir_varmap_put(&to_caller, outs.items[i], ir_ref(nv));
        }
    }
    if (scope->scope.task_var) {           /* `as tid`: deps=[tid] name the task through its call's value */
        Var *tv = scope->scope.task_var;
        if (nouts == 0) {
            call->type = ir_tuple_type(c, NULL, 0);
            pass_var_set_type(tv, call->type);
            repl = ir_assign(c, tv, call);
        } else {
            ir_varmap_put(&to_caller, tv, ir_ref(repl->assign.var));
        }
    }
    static const char *const kernel_opts[] = { "split", "slot_num" };   /* pl.at optimizations: ExpandMixedKernel's */
    for (int i = 0; i < 2; i++) {
        const AttrVal *v = ir_attr_get(&scope->scope.kwargs, kernel_opts[i]);
        if (v) ir_attr_set(c, &k->attrs, kernel_opts[i], *v);
    }
    const AttrVal *deps = ir_attr_get(&scope->scope.kwargs, "deps");
    if (deps) ir_attr_set(c, &call->call.attrs, "deps", *deps);
    const AttrVal *sib = ir_attr_get(&scope->scope.kwargs, "split_sibling");   /* AutoSplitCores: for DeriveCallDirections */
    if (sib) ir_attr_set(c, &call->call.attrs, "split_sibling", *sib);
    repl->span = scope->span;
    l->items[at] = repl;
    ir_subst_stmts(c, &o->parent->body, &to_caller);
    ir_varmap_free(&to_param);
    ir_varmap_free(&to_caller);
    ir_varmap_free(&uses.in); ir_varmap_free(&defs.in); ir_varmap_free(&outside.in);
}

static bool outline_list(Outliner *o, StmtList *l) {
    bool any = false;
    for (int i = 0; i < l->len; i++) {
        Stmt *s = l->items[i];
        if (s->kind == ST_SCOPE && s->scope.kind == SC_INCORE) {
            outline(o, l, i);
            if (o->failed) return any;
            any = true;
            continue;
        }
        if (s->kind == ST_FOR) any |= outline_list(o, &s->for_.body);
        if (s->kind == ST_IF) { any |= outline_list(o, &s->if_.then_body); any |= outline_list(o, &s->if_.else_body); }
        if (s->kind == ST_WHILE) any |= outline_list(o, &s->while_.body);
        if (s->kind == ST_SCOPE) any |= outline_list(o, &s->scope.body);
    }
    return any;
}

bool pass_outline_incore_scopes(Program *p, PassCtx *ctx) {
    int n = p->nfuncs;                      /* outlining adds functions: visit the original ones */
    Function **funcs = malloc(sizeof(Function *) * (size_t)(n ? n : 1));
    PTOC_ASSERT(funcs, "out of memory");
    memcpy(funcs, p->funcs, sizeof(Function *) * (size_t)n);
    for (int i = 0; i < n; i++) {
        Function *f = funcs[i];
        if (f->type != FT_OPAQUE && f->type != FT_ORCHESTRATION) continue;
        Outliner o = { ctx, p, f, 0, false, { 0 }, { 0 } };
        pass_uses_count(ctx, &f->body, &o.reads);
        pass_uses_init(ctx, &o.inside);
        bool any = outline_list(&o, &f->body);
        pass_uses_free(&o.reads);
        pass_uses_free(&o.inside);
        if (any && f->type == FT_OPAQUE) ir_func_set_type(f, FT_ORCHESTRATION);
        if (o.failed) { free(funcs); return false; }
    }
    free(funcs);
    return true;
}
