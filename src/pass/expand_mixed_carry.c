/* expand_mixed_carry — carried values pushed where they are made, for ExpandMixedKernel.
 * Requires: one side of a mixed kernel after emk_keep_side's rewrite (boundary moves are tpush /
 *   tpop). A value carried by a loop on this side and used on the other is pushed in the body as the
 *   iter_arg (`tpush(a)`: where ConvertTensorToTileOps put the move, often the top) and, when the
 *   other side uses the loop's result, after the loop (`tpush(r)`, r the return var).
 * Produces: when `tpush(a)` is the body's first push on its ring and `tpush(r)` the first push on
 *   that ring after the loop, and a, r and the yielded value are read by nothing else on this side
 *   (an in-place update such as matmul_acc's would make a later push send another value), the init value is pushed just before the loop and the yielded value at
 *   the end of the body, the two old pushes go, and so does the carry when nothing else on this side
 *   reads it. Once a loop's carries are moved, each of those pushes goes up to just after the
 *   statement defining its value, past anything but another push on the same ring or a nested
 *   statement. The other side pops the same values in the same order on each ring: iteration j's
 *   end and iteration j + 1's top are adjacent on the ring, and so are "before the loop" and the top
 *   of iteration 0, and the end of the last iteration and "after the loop" (a zero-trip loop pushes
 *   the init value either way); operations on the other ring (this side's pops of the other core's
 *   values) may be passed: each ring is its own FIFO.
 * Does: the producer no longer holds the value across the back edge, and the consumer gets it as
 *   soon as it exists. Flash attention software-pipelined across the hand-off
 *   (examples/flash_attention_long.py) carries `p @ v` into the next iteration, where the vector
 *   cores add it after the next softmax, and the next block's scores: with the carries on the cube
 *   side both accumulators and their successors were live in Acc (a2a3's 128 KiB does not hold
 *   them), and the scores went out only after the cube had received p and computed p @ v. */
#include "pass/expand_mixed.h"

#include <string.h>

typedef struct { bool found; } XSeen;
static void seen_xcore(Expr *e, void *ud) {
    if (e->kind == EX_CALL && emk_is_xcore(e->call.op)) ((XSeen *)ud)->found = true;
}

static bool stmt_xcore(Stmt *s) {
    StmtList one = { &s, 1, 1 };
    XSeen x = { false };
    ir_visit_exprs(&one, seen_xcore, &x);
    return x.found;
}

static OpId push_op(const Stmt *s) {
    const Expr *e = s->kind == ST_EVAL ? s->eval.expr : NULL;
    if (!e || e->kind != EX_CALL || (e->call.op != OP_TILE_TPUSH_TO_AIV && e->call.op != OP_TILE_TPUSH_TO_AIC)) return OP_NONE;
    return e->call.op;
}

/* The Var pushed by s (`tpush(v)` with v a plain variable), else NULL. */
static Var *pushed_var(const Stmt *s) {
    if (push_op(s) == OP_NONE || s->eval.expr->call.nargs != 1 || s->eval.expr->call.args[0]->kind != EX_VAR) return NULL;
    return s->eval.expr->call.args[0]->var;
}

static int index_of(const VarList *l, const Var *v) {
    for (int i = 0; i < l->len; i++)
        if (l->items[i] == v) return i;
    return -1;
}

/* Uses of v in l other than statement `skip` (an index into l, or -1). */
static bool used_besides(StmtList *l, int skip, Var *v) {
    for (int i = 0; i < l->len; i++) {
        if (i == skip) continue;
        StmtList one = { &l->items[i], 1, 1 };
        if (ir_stmts_use_var(&one, v)) return true;
    }
    return false;
}

static Stmt *push_of(IrCtx *c, const Stmt *tmpl, Expr *arg) {
    VarMap none = {0};
    Expr *e = ir_clone_expr(c, tmpl->eval.expr, &none);
    e->call.args[0] = arg;
    Stmt *s = ir_eval(c, e);
    s->span = tmpl->span;
    return s;
}

static void remove_at(StmtList *l, int i) {
    memmove(l->items + i, l->items + i + 1, sizeof(Stmt *) * (size_t)(l->len - i - 1));
    l->len--;
}

/* Moves the push of carry k (body[top], and l[after] behind the loop l[*at]). */
static bool move_carry(IrCtx *c, StmtList *l, int *at, int top, int after, int k) {
    Stmt *f = l->items[*at];
    StmtList *body = &f->for_.body;
    Var *a = f->for_.iter_args.items[k], *r = f->for_.return_vars.items[k];
    Stmt *y = body->items[body->len - 1];
    if (k >= y->yield.n || y->yield.values[k]->kind != EX_VAR || y->yield.values[k]->var == a || !a->init) return false;
    Stmt *ptop = body->items[top];
    Expr *init = a->init, *yv = y->yield.values[k];
    /* Only values nothing else reads: an op such as matmul_acc updates its accumulator in place
     * (MaterializeSemanticAliases), so a push after `cn = matmul_acc(c, ..)` sends the updated c;
     * moving it across such a use, or above one of the yielded value, would send another value. */
    if (used_besides(body, top, a) || used_besides(l, after, r)) return false;
    for (int i = 0; i < body->len - 1; i++) {
        StmtList one = { &body->items[i], 1, 1 };
        if (ir_stmts_use_var(&one, yv->var)) return false;
    }
    /* the value pushed at the end of iteration j is the one the top of iteration j + 1 pushed */
    remove_at(body, top);
    ir_list_insert(c, body, body->len - 1, push_of(c, ptop, ir_ref(yv->var)));
    remove_at(l, after);
    VarMap none = {0};
    ir_list_insert(c, l, *at, push_of(c, ptop, init->kind == EX_VAR ? ir_ref(init->var) : ir_clone_expr(c, init, &none)));
    (*at)++;
    /* nothing else on this side reads the carry: drop it */
    if (!used_besides(body, body->len - 1, a) && !used_besides(l, -1, r)) {
        VarList *it = &f->for_.iter_args, *rv = &f->for_.return_vars;
        memmove(it->items + k, it->items + k + 1, sizeof(Var *) * (size_t)(it->len - k - 1));
        it->len--;
        memmove(rv->items + k, rv->items + k + 1, sizeof(Var *) * (size_t)(rv->len - k - 1));
        rv->len--;
        memmove(y->yield.values + k, y->yield.values + k + 1, sizeof(Expr *) * (size_t)(y->yield.n - k - 1));
        y->yield.n--;
        if (!it->len && !y->yield.n) body->len--;      /* a loop left without carries has no yield */
    }
    return true;
}

/* The first push of `op` in l[from..): its index, or -1 (also when a nested statement with channel
 * operations comes first: its order against the push is not looked into). */
static int first_push(StmtList *l, int from, OpId op) {
    for (int i = from; i < l->len; i++) {
        Stmt *s = l->items[i];
        if (push_op(s) == op) return i;
        if (s->kind != ST_ASSIGN && s->kind != ST_EVAL && s->kind != ST_YIELD && stmt_xcore(s)) return -1;
    }
    return -1;
}

/* Moves the first carried push of loop l->items[*at]; true when one moved (call again for the next).
 * Only the order of pushes on one ring matters to the other side (each ring is a FIFO); a push may
 * pass operations on the other ring. */
static bool move_one(IrCtx *c, StmtList *l, int *at) {
    Stmt *f = l->items[*at];
    StmtList *body = &f->for_.body;
    if (!body->len || body->items[body->len - 1]->kind != ST_YIELD) return false;
    for (int pass = 0; pass < 2; pass++) {
        OpId op = pass ? OP_TILE_TPUSH_TO_AIC : OP_TILE_TPUSH_TO_AIV;
        int top = first_push(body, 0, op), after = first_push(l, *at + 1, op);
        if (top < 0 || after < 0) continue;
        Var *a = pushed_var(body->items[top]), *r = pushed_var(l->items[after]);
        int k = a ? index_of(&f->for_.iter_args, a) : -1;
        if (k < 0 || !r || index_of(&f->for_.return_vars, r) != k) continue;
        if (move_carry(c, l, at, top, after, k)) return true;
    }
    return false;
}

/* Once the carries are moved, each push at the end of the body goes up to just after the statement
 * defining its value, past anything but a push on the same ring (so the ring's order stays): the
 * other core gets e.g. the next block's scores while this one still waits for its p. */
static void hoist_pushes(StmtList *body, int from) {
    for (int i = from; i < body->len; i++) {
        Stmt *p = body->items[i];
        OpId op = push_op(p);
        Var *v = op != OP_NONE ? pushed_var(p) : NULL;
        if (!v) continue;
        int at = i;
        while (at > 0) {
            Stmt *prev = body->items[at - 1];
            if (prev->kind == ST_ASSIGN && prev->assign.var == v) break;
            if (push_op(prev) == op || (prev->kind != ST_ASSIGN && prev->kind != ST_EVAL)) break;
            at--;
        }
        memmove(body->items + at + 1, body->items + at, sizeof(Stmt *) * (size_t)(i - at));
        body->items[at] = p;
    }
}

void emk_early_carry_pushes(PassCtx *ctx, StmtList *l) {
    for (int i = 0; i < l->len; i++) {
        Stmt *s = l->items[i];
        if (s->kind == ST_FOR) {
            emk_early_carry_pushes(ctx, &s->for_.body);
            int moved = 0;
            while (move_one(ctx->ir, l, &i)) moved++;
            /* the moved pushes are the body's last `moved` statements before the yield (if any) */
            StmtList *b = &s->for_.body;
            int end = b->len && b->items[b->len - 1]->kind == ST_YIELD ? b->len - 1 : b->len;
            if (moved) hoist_pushes(b, end - moved);
        } else if (s->kind == ST_IF) {
            emk_early_carry_pushes(ctx, &s->if_.then_body);
            emk_early_carry_pushes(ctx, &s->if_.else_body);
        } else if (s->kind == ST_SCOPE) emk_early_carry_pushes(ctx, &s->scope.body);
    }
}
