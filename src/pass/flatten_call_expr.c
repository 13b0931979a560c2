/* FlattenCallExpr
 * Requires: SSAForm.
 * Produces: three-address form — a call never appears nested inside another expression (call
 *           argument, if condition, for bound, operand, return or yield value).
 * Does: hoists each nested call into a temporary t__tmp_vN assigned immediately before the
 *   statement that used it (before an If/For as a sibling; inside a scope body for scope contents). */
#include "pass/pass.h"

typedef struct { PassCtx *ctx; StmtList *list; int *at; } Hoist;

static Expr *hoist(Hoist *h, Expr *e);

/* Flattens the operands of e (which itself stays in place). */
static void flatten_operands(Hoist *h, Expr *e) {
    switch (e->kind) {
    case EX_CALL:
        for (int i = 0; i < e->call.nargs; i++) e->call.args[i] = hoist(h, e->call.args[i]);
        break;
    case EX_BINARY: e->bin.lhs = hoist(h, e->bin.lhs); e->bin.rhs = hoist(h, e->bin.rhs); break;
    case EX_UNARY: e->un.operand = hoist(h, e->un.operand); break;
    case EX_TUPLE: for (int i = 0; i < e->tuple.n; i++) e->tuple.items[i] = hoist(h, e->tuple.items[i]); break;
    case EX_TUPLE_GET: e->tget.tuple = hoist(h, e->tget.tuple); break;
    default: break;
    }
}

/* Returns an expression without calls at its top: a call is assigned to a temporary first. */
static Expr *hoist(Hoist *h, Expr *e) {
    if (!e) return NULL;
    flatten_operands(h, e);
    if (e->kind != EX_CALL) return e;
    Var *t = ir_var_new(h->ctx->ir, pass_name(h->ctx, "t", "tmp"), e->type);
    t->span = e->span;
    Stmt *a = ir_assign(h->ctx->ir, t, e);
    a->span = e->span;
    ir_list_insert(h->ctx->ir, h->list, *h->at, a);
    (*h->at)++;
    return ir_ref(t);
}

static void flatten_list(PassCtx *ctx, StmtList *l) {
    for (int i = 0; i < l->len; i++) {
        Stmt *s = l->items[i];
        Hoist h = { ctx, l, &i };
        switch (s->kind) {
        case ST_ASSIGN:
            if (s->assign.value->kind == EX_CALL) flatten_operands(&h, s->assign.value);
            else s->assign.value = hoist(&h, s->assign.value);
            break;
        case ST_EVAL:
            if (s->eval.expr->kind == EX_CALL) flatten_operands(&h, s->eval.expr);
            else s->eval.expr = hoist(&h, s->eval.expr);
            break;
        case ST_RETURN: for (int j = 0; j < s->ret.n; j++) s->ret.values[j] = hoist(&h, s->ret.values[j]); break;
        case ST_YIELD: for (int j = 0; j < s->yield.n; j++) s->yield.values[j] = hoist(&h, s->yield.values[j]); break;
        case ST_IF:
            s->if_.cond = hoist(&h, s->if_.cond);
            flatten_list(ctx, &s->if_.then_body);
            flatten_list(ctx, &s->if_.else_body);
            break;
        case ST_FOR:
            s->for_.start = hoist(&h, s->for_.start);
            s->for_.stop = hoist(&h, s->for_.stop);
            s->for_.step = hoist(&h, s->for_.step);
            for (int j = 0; j < s->for_.iter_args.len; j++)
                s->for_.iter_args.items[j]->init = hoist(&h, s->for_.iter_args.items[j]->init);
            flatten_list(ctx, &s->for_.body);
            break;
        case ST_WHILE: flatten_list(ctx, &s->while_.body); break;
        case ST_SCOPE: flatten_list(ctx, &s->scope.body); break;
        }
    }
}

bool pass_flatten_call_expr(Program *p, PassCtx *ctx) {
    ctx->counter = 0;
    for (int i = 0; i < p->nfuncs; i++) flatten_list(ctx, &p->funcs[i]->body);
    return true;
}
