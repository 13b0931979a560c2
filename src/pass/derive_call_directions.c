/* DeriveCallDirections
 * Requires: SplitIncoreOrch.
 * Produces: CallDirectionsResolved — every call of a kernel from an Orchestration function carries
 *           attrs["arg_directions"]: one of input / inout / output_existing / scalar per argument.
 * Does (spec §8.15): callee In -> input, InOut -> inout; Out -> inout when the call sits inside a
 *   non-parallel loop (R-seq), when an earlier writer unit of the same scope wrote the same buffer
 *   root (R-prior: a For / While / If is one opaque unit, entered with a snapshot of the writes before
 *   it), or when the root is an enclosing parameter declared InOut (R-enclosing); else
 *   output_existing. Buffer roots follow call results, loop carries and branch merges
 *   (pass_alias_root). Non-tensor arguments are scalar. A pre-populated arg_directions is kept.
 *   A call marked split_sibling (AutoSplitCores: a later task of an uneven split, writing output
 *   windows disjoint from its siblings') sees the writes before the statement before it, not that
 *   statement's: siblings are not ordered after each other (R-prior), only after what came before
 *   the first of them; the task-level race check still checks that their writes are disjoint. */
#include "pass/pass.h"

#include <string.h>

typedef struct { PassCtx *ctx; Function *f; PassAliases al; } Derive;

static bool has_var(const VarList *l, const Var *v) {
    for (int i = 0; i < l->len; i++)
        if (l->items[i] == v) return true;
    return false;
}

static void add_var(IrCtx *c, VarList *l, Var *v) { if (v && !has_var(l, v)) ir_varlist_push(c, l, v); }

/* Assigns the call's directions; adds the roots it writes to *wrote. */
static void derive_call(Derive *d, Expr *call, int seq_depth, const VarList *prior, VarList *wrote) {
    IrCtx *c = d->ctx->ir;
    Function *k = call->call.callee;
    const AttrVal *given = ir_attr_get(&call->call.attrs, "arg_directions");
    for (int i = 0; i < call->call.nargs && k; i++) {   /* pre-populated directions still write */
        Expr *a = call->call.args[i];
        if (a->kind != EX_VAR || !a->type || a->type->kind != TY_TENSOR || i >= k->params.len) continue;
        bool writes = given ? (given->kind == AV_LIST && i < given->nitems && given->items[i].s &&
                               !strstr(given->items[i].s, "input") && !strstr(given->items[i].s, "scalar"))
                            : k->param_dirs[i] != PD_IN;
        if (writes) add_var(c, wrote, pass_alias_root(&d->al, a->var));
    }
    if (!k || given) return;
    AttrVal list = { .kind = AV_LIST };
    list.items = ARENA_ARRAY(c->arena, AttrVal, call->call.nargs ? call->call.nargs : 1);
    list.nitems = call->call.nargs;
    for (int i = 0; i < call->call.nargs; i++) {
        Expr *a = call->call.args[i];
        const char *dir = "pl.adir.scalar";
        if (a->type && a->type->kind == TY_TENSOR && i < k->params.len) {
            ParamDir pd = k->param_dirs[i];
            Var *root = a->kind == EX_VAR ? pass_alias_root(&d->al, a->var) : NULL;
            bool enclosing = false;
            for (int j = 0; root && j < d->f->params.len; j++)
                enclosing |= d->f->params.items[j] == root && d->f->param_dirs[j] == PD_INOUT;
            if (pd == PD_IN) dir = "pl.adir.input";
            else if (pd == PD_INOUT || seq_depth > 0 || (root && has_var(prior, root)) || enclosing) dir = "pl.adir.inout";
            else dir = "pl.adir.output_existing";
        }
        list.items[i] = ir_av_enum(dir);
    }
    ir_attr_set(c, &call->call.attrs, "arg_directions", list);
}

/* Walks one statement list; `prior` holds the roots written before it (a private copy); the roots
 * written inside are added to *wrote. */
/* s is a kernel call (or an SPMD scope around one) that AutoSplitCores marked split_sibling */
static bool split_sibling(Stmt *s) {
    if (s->kind == ST_SCOPE && s->scope.kind == SC_SPMD && s->scope.body.len == 1) s = s->scope.body.items[0];
    Expr *call = pass_stmt_call(s);
    const AttrVal *v = call && call->call.op == OP_NONE ? ir_attr_get(&call->call.attrs, "split_sibling") : NULL;
    return v && v->kind == AV_BOOL && v->i;
}

static void derive_list(Derive *d, StmtList *l, int seq_depth, VarList prior, VarList *wrote) {
    IrCtx *c = d->ctx->ir;
    VarList before = prior;                  /* the writes the previous statement saw */
    for (int i = 0; i < l->len; i++) {
        Stmt *s = l->items[i];
        VarList unit = {0};
        VarList seen = i > 0 && split_sibling(s) ? before : prior;
        before = seen;
        Expr *call = pass_stmt_call(s);
        if (call && call->call.op == OP_NONE) derive_call(d, call, seq_depth, &seen, &unit);
        if (s->kind == ST_FOR) derive_list(d, &s->for_.body, seq_depth + (s->for_.kind != FK_PARALLEL), seen, &unit);
        if (s->kind == ST_WHILE) derive_list(d, &s->while_.body, seq_depth + 1, seen, &unit);
        if (s->kind == ST_IF) {
            derive_list(d, &s->if_.then_body, seq_depth, seen, &unit);
            derive_list(d, &s->if_.else_body, seq_depth, seen, &unit);
        }
        if (s->kind == ST_SCOPE) derive_list(d, &s->scope.body, seq_depth, seen, &unit);
        VarList grown = {0};                 /* the snapshot for the next sibling: prior + unit */
        for (int j = 0; j < prior.len; j++) ir_varlist_push(c, &grown, prior.items[j]);
        for (int j = 0; j < unit.len; j++) { add_var(c, &grown, unit.items[j]); add_var(c, wrote, unit.items[j]); }
        prior = grown;
    }
}

bool pass_derive_call_directions(Program *p, PassCtx *ctx) {
    for (int i = 0; i < p->nfuncs; i++) {
        Function *f = p->funcs[i];
        if (f->type != FT_ORCHESTRATION) continue;
        Derive d = { ctx, f, {0} };
        pass_aliases_build(ctx, &f->body, &d.al);
        VarList none = {0}, wrote = {0};
        derive_list(&d, &f->body, 0, none, &wrote);
        pass_aliases_free(&d.al);
    }
    return true;
}
