/* Simplify
 * Requires: nothing beyond a well-formed program.
 * Produces: scalar expressions constant-folded and normalised ((x + c1) == c2 -> x == c2 - c1), as
 *           the reference's second Simplify run does after every rewriting transform (e.g. a pipeline
 *           clone's predicate ko + 128 == 0 becomes ko == -128; it is never true, and not removed).
 * Does: folds every expression in place; statements are never removed. */
#include "pass/pass.h"

static void fold_visit(Expr *e, void *ud) {
    IrCtx *c = ud;
    if (e->kind == EX_CALL)
        for (int i = 0; i < e->call.nargs; i++) e->call.args[i] = ir_fold(c, e->call.args[i]);
    if (e->kind == EX_TUPLE)
        for (int i = 0; i < e->tuple.n; i++) e->tuple.items[i] = ir_fold(c, e->tuple.items[i]);
}

static void fold_list(IrCtx *c, StmtList *l) {
    ir_visit_exprs(l, fold_visit, c);
    for (int i = 0; i < l->len; i++) {
        Stmt *s = l->items[i];
        if (s->kind == ST_IF) { s->if_.cond = ir_fold(c, s->if_.cond); fold_list(c, &s->if_.then_body); fold_list(c, &s->if_.else_body); }
        if (s->kind == ST_FOR) {
            s->for_.start = ir_fold(c, s->for_.start);
            s->for_.stop = ir_fold(c, s->for_.stop);
            s->for_.step = ir_fold(c, s->for_.step);
        }
        if (s->kind == ST_ASSIGN && s->assign.value->kind == EX_BINARY) s->assign.value = ir_fold(c, s->assign.value);
    }
}

bool pass_simplify(Program *p, PassCtx *ctx) {
    for (int i = 0; i < p->nfuncs; i++) fold_list(ctx->ir, &p->funcs[i]->body);
    return true;
}
