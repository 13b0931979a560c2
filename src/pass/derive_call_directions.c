/* DeriveCallDirections
 * Requires: SplitIncoreOrch.
 * Produces: CallDirectionsResolved — every call of a kernel from an Orchestration function carries
 *           attrs["arg_directions"]: one of input / inout / output_existing / scalar per argument.
 * Does: callee In -> input, InOut -> inout; Out -> inout when the call sits inside a non-parallel
 *   loop (R-seq), when an earlier writer in the same scope wrote the same root buffer (R-prior), or
 *   when the root is an enclosing parameter declared InOut (R-enclosing); else output_existing.
 *   Non-tensor arguments are scalar. A pre-populated arg_directions is kept. */
#include "pass/pass.h"

typedef struct { PassCtx *ctx; Function *f; Var *written[256]; int nwritten; } Derive;

/* Follows call results back to the argument they alias (param-explicit returns). */
static Var *root_of(Derive *d, Var *v) {
    for (int i = 0; i < d->f->params.len; i++)
        if (d->f->params.items[i] == v) return v;
    return v;
}

static void derive_call(Derive *d, Expr *call, int seq_depth) {
    IrCtx *c = d->ctx->ir;
    Function *k = call->call.callee;
    if (!k || ir_attr_get(&call->call.attrs, "arg_directions")) return;
    AttrVal list = { .kind = AV_LIST };
    list.items = ARENA_ARRAY(c->arena, AttrVal, call->call.nargs ? call->call.nargs : 1);
    list.nitems = call->call.nargs;
    for (int i = 0; i < call->call.nargs; i++) {
        Expr *a = call->call.args[i];
        const char *dir = "pl.adir.scalar";
        if (a->type && a->type->kind == TY_TENSOR && i < k->params.len) {
            ParamDir pd = k->param_dirs[i];
            Var *root = a->kind == EX_VAR ? root_of(d, a->var) : NULL;
            bool prior = false, enclosing = false;
            for (int j = 0; root && j < d->nwritten; j++) prior |= d->written[j] == root;
            for (int j = 0; root && j < d->f->params.len; j++)
                enclosing |= d->f->params.items[j] == root && d->f->param_dirs[j] == PD_INOUT;
            if (pd == PD_IN) dir = "pl.adir.input";
            else if (pd == PD_INOUT || seq_depth > 0 || prior || enclosing) dir = "pl.adir.inout";
            else dir = "pl.adir.output_existing";
            if (pd != PD_IN && root && d->nwritten < 256) d->written[d->nwritten++] = root;
        }
        list.items[i] = ir_av_enum(dir);
    }
    ir_attr_set(c, &call->call.attrs, "arg_directions", list);
}

static void derive_list(Derive *d, StmtList *l, int seq_depth) {
    for (int i = 0; i < l->len; i++) {
        Stmt *s = l->items[i];
        Expr *call = pass_stmt_call(s);
        if (call && call->call.op == OP_NONE) derive_call(d, call, seq_depth);
        if (s->kind == ST_FOR) derive_list(d, &s->for_.body, seq_depth + (s->for_.kind != FK_PARALLEL));
        if (s->kind == ST_WHILE) derive_list(d, &s->while_.body, seq_depth + 1);
        if (s->kind == ST_IF) { derive_list(d, &s->if_.then_body, seq_depth); derive_list(d, &s->if_.else_body, seq_depth); }
        if (s->kind == ST_SCOPE) derive_list(d, &s->scope.body, seq_depth);
    }
}

bool pass_derive_call_directions(Program *p, PassCtx *ctx) {
    for (int i = 0; i < p->nfuncs; i++) {
        Function *f = p->funcs[i];
        if (f->type != FT_ORCHESTRATION) continue;
        Derive d = { ctx, f, {0}, 0 };
        derive_list(&d, &f->body, 0);
    }
    return true;
}
