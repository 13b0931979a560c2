/* MaterializeSemanticAliases
 * Requires: HasMemRefs.
 * Produces: must-alias values on one MemRef: for every loop, the iter_arg's MemRef is pushed down
 *           the yielded value and its producer chain (through in-place ops and views) and onto the
 *           return var, so a loop accumulator is updated in place. Accumulator if-phis are left to
 *           MemoryReuse.
 * Does: a chain that cannot be realised (a yielded value produced by an op that is not in place)
 *   keeps its own buffer; MemoryReuse's yield fix-up then applies. */
#include "pass/pass.h"

static Stmt *def_in(StmtList *l, const Var *v) {
    for (int i = 0; i < l->len; i++) {
        Stmt *s = l->items[i];
        if (s->kind == ST_ASSIGN && s->assign.var == v) return s;
        Stmt *r = s->kind == ST_FOR ? def_in(&s->for_.body, v) : NULL;
        if (r) return r;
    }
    return NULL;
}

static bool same_buffer(const MemRef *a, const MemRef *b) {
    return a && b && a->base == b->base && a->offset == b->offset;
}

static void retarget(IrCtx *c, Var *v, const MemRef *m) {
    if (!v->type->memref || same_buffer(v->type->memref, m)) return;
    Type *t = ir_type_copy(c, v->type);
    t->memref = ARENA_NEW(c->arena, MemRef);
    *t->memref = *m;
    t->memref->size = v->type->memref->size > m->size ? v->type->memref->size : m->size;
    pass_var_set_type(v, t);
}

static void push_chain(IrCtx *c, StmtList *body, Expr *y, Var *stop, const MemRef *m) {
    for (int guard = 0; y && y->kind == EX_VAR && y->var != stop && guard < 1000; guard++) {
        Var *v = y->var;
        Stmt *d = def_in(body, v);
        Expr *call = d ? pass_stmt_call(d) : NULL;
        int src = -1;
        if (call && call->call.op != OP_NONE) {
            const OpInfo *info = ir_op_info(call->call.op);
            src = info->reuses_input >= 0 ? info->reuses_input : (info->flags & OPF_VIEW) ? 0 : -1;
        }
        if (!d || (src < 0 && d->assign.value->kind != EX_VAR)) return;   /* not in place: keep */
        retarget(c, v, m);
        y = src >= 0 ? call->call.args[src] : d->assign.value;
    }
}

static void alias_list(IrCtx *c, StmtList *l) {
    for (int i = 0; i < l->len; i++) {
        Stmt *s = l->items[i];
        if (s->kind == ST_IF) { alias_list(c, &s->if_.then_body); alias_list(c, &s->if_.else_body); continue; }
        if (s->kind != ST_FOR) continue;
        alias_list(c, &s->for_.body);
        StmtList *b = &s->for_.body;
        Stmt *y = b->len && b->items[b->len - 1]->kind == ST_YIELD ? b->items[b->len - 1] : NULL;
        for (int k = 0; y && k < s->for_.iter_args.len && k < y->yield.n; k++) {
            Var *it = s->for_.iter_args.items[k];
            const MemRef *m = it->type->memref;
            if (!m) continue;
            push_chain(c, b, y->yield.values[k], it, m);
            Expr *yv = y->yield.values[k];
            if (k < s->for_.return_vars.len && yv->type && same_buffer(yv->type->memref, m))
                retarget(c, s->for_.return_vars.items[k], m);
        }
    }
}

bool pass_materialize_semantic_aliases(Program *p, PassCtx *ctx) {
    for (int i = 0; i < p->nfuncs; i++)
        if (ir_functype_is_incore(p->funcs[i]->type)) alias_list(ctx->ir, &p->funcs[i]->body);
    return true;
}
