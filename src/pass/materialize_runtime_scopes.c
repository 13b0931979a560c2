/* MaterializeRuntimeScopes
 * Requires: SplitIncoreOrch.
 * Produces: RuntimeScopesMaterialized — every Orchestration function with auto_scope (default)
 *           has its body (all but the trailing return), each For body and each If branch wrapped in
 *           an AUTO runtime scope (`with pl.scope():`), none inside a MANUAL scope; the function is
 *           then marked auto_scope=False, which makes the pass idempotent and round-trips. */
#include "pass/pass.h"

static void wrap(IrCtx *c, StmtList *l, bool in_manual);

static void wrap_nested(IrCtx *c, StmtList *l, bool in_manual) {
    for (int i = 0; i < l->len; i++) {
        Stmt *s = l->items[i];
        if (s->kind == ST_FOR) wrap(c, &s->for_.body, in_manual);
        if (s->kind == ST_IF) { wrap(c, &s->if_.then_body, in_manual); wrap(c, &s->if_.else_body, in_manual); }
        if (s->kind == ST_SCOPE) wrap_nested(c, &s->scope.body, in_manual || (s->scope.kind == SC_RUNTIME && s->scope.manual));
    }
}

/* Wraps l (minus a trailing yield/return) in one AUTO scope. */
static void wrap(IrCtx *c, StmtList *l, bool in_manual) {
    wrap_nested(c, l, in_manual);
    if (in_manual || !l->len) return;
    int n = l->len;
    StmtKind last = l->items[n - 1]->kind;
    int keep = (last == ST_RETURN || last == ST_YIELD) ? 1 : 0;
    if (n - keep <= 0) return;
    if (n - keep == 1 && l->items[0]->kind == ST_SCOPE && l->items[0]->scope.kind == SC_RUNTIME) return;
    Stmt *scope = ir_scope(c, SC_RUNTIME);
    scope->span = l->items[0]->span;
    for (int i = 0; i < n - keep; i++) ir_list_push(c, &scope->scope.body, l->items[i]);
    if (keep) l->items[1] = l->items[n - 1];
    l->items[0] = scope;
    l->len = 1 + keep;
}

bool pass_materialize_runtime_scopes(Program *p, PassCtx *ctx) {
    for (int i = 0; i < p->nfuncs; i++) {
        Function *f = p->funcs[i];
        if (f->type != FT_ORCHESTRATION) continue;
        const AttrVal *a = ir_attr_get(&f->attrs, "auto_scope");
        if (a && !a->i) continue;
        wrap(ctx->ir, &f->body, false);
        ir_attr_set(ctx->ir, &f->attrs, "auto_scope", ir_av_bool(false));
    }
    return true;
}
