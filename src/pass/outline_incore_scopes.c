/* OutlineIncoreScopes
 * Requires: SSAForm.
 * Produces: SplitIncoreOrch — every pl.at(level=CORE_GROUP) region is its own InCore function; a
 *           function that outlined a region becomes Orchestration.
 * Does: inputs = the region's live-in variables (first-use order), outputs = variables defined in
 *   the region and used after it. Captured tensors written as assemble/store destinations become
 *   Out params (InOut when also read). Returns are param-explicit: an output rooted in a written
 *   parameter returns the parameter itself and the writing statement binds <param>__store. The
 *   region is replaced by one call plus one assignment per output. */
#include "pass/pass.h"


typedef struct { VarList vars; IrCtx *c; } VarSet;

static bool set_has(const VarSet *s, const Var *v) {
    for (int i = 0; i < s->vars.len; i++)
        if (s->vars.items[i] == v) return true;
    return false;
}
static void set_add(VarSet *s, Var *v) { if (!set_has(s, v)) ir_varlist_push(s->c, &s->vars, v); }

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

/* The defining statement of v inside l (recursively), or NULL. */
static Stmt *find_def(StmtList *l, const Var *v) {
    for (int i = 0; i < l->len; i++) {
        Stmt *s = l->items[i], *r = NULL;
        if (s->kind == ST_ASSIGN && s->assign.var == v) return s;
        if (s->kind == ST_FOR) r = find_def(&s->for_.body, v);
        if (s->kind == ST_IF) { r = find_def(&s->if_.then_body, v); if (!r) r = find_def(&s->if_.else_body, v); }
        if (s->kind == ST_SCOPE) r = find_def(&s->scope.body, v);
        if (r) return r;
    }
    return NULL;
}

/* Destination slot of a writing op: tensor.assemble arg 0, tile.store arg 2; -1 otherwise. */
static int dest_slot(const Expr *call) {
    if (pass_is_op(call, OP_TENSOR_ASSEMBLE) || pass_is_op(call, OP_TENSOR_MATMUL_ACC)) return 0;
    if (pass_is_op(call, OP_TILE_STORE)) return 2;
    return -1;
}

/* The variable a written value is rooted in: follows assemble/store chains to their first target. */
static Var *write_root(StmtList *body, Var *v) {
    for (int guard = 0; guard < 1000; guard++) {
        Stmt *d = find_def(body, v);
        Expr *call = d ? pass_stmt_call(d) : NULL;
        int slot = dest_slot(call);
        if (slot < 0 || call->call.args[slot]->kind != EX_VAR) return v;
        v = call->call.args[slot]->var;
    }
    return v;
}

typedef struct { const Var *v; int dest, other; } DirScan;
static void scan_dir_list(StmtList *l, DirScan *d);
static void scan_dir_expr(Expr *e, DirScan *d) {
    if (!e) return;
    if (e->kind == EX_VAR) { if (e->var == d->v) d->other++; return; }
    if (e->kind == EX_CALL) {
        int slot = dest_slot(e);
        for (int i = 0; i < e->call.nargs; i++) {
            Expr *a = e->call.args[i];
            if (i == slot && a->kind == EX_VAR && a->var == d->v) d->dest++;
            else scan_dir_expr(a, d);
        }
        return;
    }
    if (e->kind == EX_BINARY) { scan_dir_expr(e->bin.lhs, d); scan_dir_expr(e->bin.rhs, d); }
    if (e->kind == EX_UNARY) scan_dir_expr(e->un.operand, d);
    if (e->kind == EX_TUPLE) for (int i = 0; i < e->tuple.n; i++) scan_dir_expr(e->tuple.items[i], d);
    if (e->kind == EX_TUPLE_GET) scan_dir_expr(e->tget.tuple, d);
}

static void scan_dir_list(StmtList *l, DirScan *d) {
    for (int i = 0; i < l->len; i++) {
        Stmt *s = l->items[i];
        switch (s->kind) {
        case ST_ASSIGN: scan_dir_expr(s->assign.value, d); break;
        case ST_EVAL: scan_dir_expr(s->eval.expr, d); break;
        case ST_RETURN: for (int j = 0; j < s->ret.n; j++) scan_dir_expr(s->ret.values[j], d); break;
        case ST_YIELD: for (int j = 0; j < s->yield.n; j++) scan_dir_expr(s->yield.values[j], d); break;
        case ST_IF: scan_dir_expr(s->if_.cond, d); scan_dir_list(&s->if_.then_body, d); scan_dir_list(&s->if_.else_body, d); break;
        case ST_FOR:
            scan_dir_expr(s->for_.start, d); scan_dir_expr(s->for_.stop, d); scan_dir_expr(s->for_.step, d);
            for (int j = 0; j < s->for_.iter_args.len; j++) scan_dir_expr(s->for_.iter_args.items[j]->init, d);
            scan_dir_list(&s->for_.body, d);
            break;
        case ST_WHILE: scan_dir_expr(s->while_.cond, d); scan_dir_list(&s->while_.body, d); break;
        case ST_SCOPE: scan_dir_list(&s->scope.body, d); break;
        }
    }
}

static ParamDir infer_dir(StmtList *body, const Var *v) {
    if (v->type->kind != TY_TENSOR) return PD_IN;
    DirScan d = { v, 0, 0 };
    scan_dir_list(body, &d);
    if (!d.dest) return PD_IN;
    return d.other ? PD_INOUT : PD_OUT;
}

typedef struct { PassCtx *ctx; Program *prog; Function *parent; int n; } Outliner;

static const char *kernel_name(Outliner *o, Stmt *scope) {
    const char *base = scope->scope.name_hint;
    const char *name = base ? base : arena_printf(o->ctx->ir->arena, "%s_incore_%d", o->parent->name, o->n++);
    for (int k = 0; ir_program_find(o->prog, name); k++)
        name = arena_printf(o->ctx->ir->arena, "%s_%d", base ? base : name, k);
    return name;
}

/* Replaces scope statement l->items[at] by a call of a new InCore function. */
static void outline(Outliner *o, StmtList *l, int at) {
    IrCtx *c = o->ctx->ir;
    Stmt *scope = l->items[at];
    VarSet uses = { {0}, c }, defs = { {0}, c }, outside = { {0}, c };
    ir_visit_exprs(&scope->scope.body, collect_use, &uses);
    collect_defs(&scope->scope.body, &defs);
    collect_uses_except(&o->parent->body, scope, &outside);

    Function *k = ir_func_new(c, kernel_name(o, scope), FT_INCORE);
    k->span = scope->span;
    VarMap to_param = {0};
    Expr *call_args[64];
    int nargs = 0;
    for (int i = 0; i < uses.vars.len && nargs < 64; i++) {
        Var *v = uses.vars.items[i];
        if (set_has(&defs, v)) continue;
        Var *p = ir_var_new(c, v->name, v->type);
        p->span = v->span;
        ir_func_add_param(c, k, p, infer_dir(&scope->scope.body, v));
        ir_varmap_put(&to_param, v, ir_ref(p));
        call_args[nargs++] = ir_ref(v);
    }
    k->body = scope->scope.body;
    ir_subst_stmts(c, &k->body, &to_param);

    Var *outs[16];
    int nouts = 0;
    for (int i = 0; i < defs.vars.len && nouts < 16; i++)
        if (set_has(&outside, defs.vars.items[i])) outs[nouts++] = defs.vars.items[i];
    Expr *rets[16];
    Type *rtypes[16];
    const char *caller_names[16];
    for (int i = 0; i < nouts; i++) caller_names[i] = outs[i]->name;
    for (int i = 0; i < nouts; i++) {
        Var *root = write_root(&k->body, outs[i]);
        bool is_param = false;
        for (int j = 0; j < k->params.len; j++) is_param |= k->params.items[j] == root;
        if (is_param && root != outs[i]) outs[i]->name = arena_printf(c->arena, "%s__store", root->name);
        rets[i] = ir_ref(is_param ? root : outs[i]);
        rtypes[i] = rets[i]->type;
    }
    ir_list_push(c, &k->body, ir_return(c, rets, nouts));
    k->return_types = ARENA_ARRAY(c->arena, Type *, nouts ? nouts : 1);
    for (int i = 0; i < nouts; i++) k->return_types[i] = rtypes[i];
    k->nreturns = nouts;
    ir_program_add(c, o->prog, k);

    /* The caller: one call, one variable per output (fresh Vars; later uses renamed). */
    Expr *call = ir_call_fn(c, k, call_args, nargs);
    call->span = scope->span;
    VarMap to_caller = {0};
    Stmt *repl;
    if (nouts == 1) {
        Var *nv = ir_var_new(c, caller_names[0], rtypes[0]);
        repl = ir_assign(c, nv, call);
        ir_varmap_put(&to_caller, outs[0], ir_ref(nv));
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
            ir_varmap_put(&to_caller, outs[i], ir_ref(nv));
        }
    }
    repl->span = scope->span;
    l->items[at] = repl;
    ir_subst_stmts(c, &o->parent->body, &to_caller);
    ir_varmap_free(&to_param);
    ir_varmap_free(&to_caller);
}

static bool outline_list(Outliner *o, StmtList *l) {
    bool any = false;
    for (int i = 0; i < l->len; i++) {
        Stmt *s = l->items[i];
        if (s->kind == ST_SCOPE && s->scope.kind == SC_INCORE) { outline(o, l, i); any = true; continue; }
        if (s->kind == ST_FOR) any |= outline_list(o, &s->for_.body);
        if (s->kind == ST_IF) { any |= outline_list(o, &s->if_.then_body); any |= outline_list(o, &s->if_.else_body); }
        if (s->kind == ST_WHILE) any |= outline_list(o, &s->while_.body);
        if (s->kind == ST_SCOPE) any |= outline_list(o, &s->scope.body);
    }
    return any;
}

bool pass_outline_incore_scopes(Program *p, PassCtx *ctx) {
    int n = p->nfuncs;
    Function *funcs[256];
    for (int i = 0; i < n && i < 256; i++) funcs[i] = p->funcs[i];
    for (int i = 0; i < n && i < 256; i++) {
        Function *f = funcs[i];
        if (f->type != FT_OPAQUE && f->type != FT_ORCHESTRATION) continue;
        Outliner o = { ctx, p, f, 0 };
        if (outline_list(&o, &f->body) && f->type == FT_OPAQUE) ir_func_set_type(f, FT_ORCHESTRATION);
    }
    return true;
}
