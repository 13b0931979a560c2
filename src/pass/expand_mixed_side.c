/* expand_mixed_side — one side (AIC or AIV) of a mixed kernel, for ExpandMixedKernel.
 * Requires: a clone of the mixed function's body (fresh Vars), boundary moves and fence markers as
 *   ExpandMixedKernel found them.
 * Produces: the side's statements only. On the producer side a boundary move `x = tile.move(t)`
 *   becomes `tile.tpush_to_aiv(t)` (cube -> vector) or `tile.tpush_to_aic(t)`; on the consumer side
 *   it becomes `x = tile.tpop_from_aic([R, C], dtype=..)` (a Vec tile) or `tile.tpop_from_aiv` (a
 *   Mat tile), followed after x's last use in its statement list by `tile.tfree_to_aic(x)` /
 *   `tile.tfree_to_aiv(x)`, which hands the ring slot back. Fence markers become a push on the
 *   storing side and a data-less pop on the loading side. Loop carries and if results whose tiles
 *   live on the other side are stripped, and so are statements left with nothing to do.
 * Does: one recursive walk; then a check that every value the side uses is defined on it (a scalar
 *   read from the other side's tile is a located error: it would need a cross-core scalar). */
#include "pass/expand_mixed.h"

#include <string.h>

typedef struct {
    PassCtx *ctx; Function *f; Aff side; const EmkOpts *o; bool ok;
    VarMap gm;                 /* GM results stored by the other side -> the tensor stored into */
    Stmt *before;              /* a statement boundary() wants right before the one it rewrote */
} Side;

static Expr *xcall(Side *sd, OpId op, Expr **args, int n, Span sp) {
    IrCtx *c = sd->ctx->ir;
    Expr *e = ir_call(c, op, args, n);
    ir_attr_set(c, &e->call.kwargs, "split", ir_av_int(sd->o->split));
    ir_attr_set(c, &e->call.kwargs, "slot_num", ir_av_int(sd->o->slot_num));
    e->span = sp;
    return e;
}

/* The consumer's pop for `x = tile.move(..)` (x keeps its Var and its shape). */
static Expr *pop_for(Side *sd, Boundary b, const Var *x, Span sp) {
    IrCtx *c = sd->ctx->ir;
    int64_t d[2];
    if (x->type->rank != 2 || !ir_type_static_dims(x->type, d)) {
        diag_error(sd->ctx->diag, sp, "'%s' crosses between the cube and the vector cores; that needs a static 2-D tile", x->name);
        sd->ok = false;
        return NULL;
    }
    Expr *shape = ir_int_tuple(c, d, 2);
    Expr *e = xcall(sd, b == XB_C2V ? OP_TILE_TPOP_FROM_AIC : OP_TILE_TPOP_FROM_AIV, &shape, 1, sp);
    ir_attr_set(c, &e->call.kwargs, "dtype", ir_av_dtype(x->type->dtype));
    ir_deduce_call(c, e);
    return e;
}

/* Rewrites boundary statement s in place for this side; returns false when the side drops it. */
static bool boundary(Side *sd, Stmt *s, Expr *call, Boundary b) {
    IrCtx *c = sd->ctx->ir;
    Aff producer = b == XB_C2V ? AFF_CUBE : AFF_VEC;
    OpId push = b == XB_C2V ? OP_TILE_TPUSH_TO_AIV : OP_TILE_TPUSH_TO_AIC;
    OpId pop = b == XB_C2V ? OP_TILE_TPOP_FROM_AIC : OP_TILE_TPOP_FROM_AIV;
    bool fence = call->call.op != OP_TILE_MOVE;
    Expr *e;
    if (sd->side == producer) {
        e = xcall(sd, push, fence ? NULL : call->call.args, fence ? 0 : 1, s->span);
        const AttrVal *after = fence ? ir_attr_get(&call->call.kwargs, "after") : NULL;
        if (after) ir_attr_set(c, &e->call.kwargs, "after", *after);
    }
    else if (fence) e = xcall(sd, pop, NULL, 0, s->span);
    else {
        Var *x = s->assign.var;
        if (b == XB_V2C && x->type->space != MS_MAT) {
            /* the cube receives into L1 (Mat); a move into L0 / Bias follows: x = tile.move(x__xcore) */
            Type *mt = ir_type_copy(c, x->type);
            mt->space = MS_MAT;
            mt->view = NULL;
            mt->memref = NULL;
            Var *m = ir_var_new(c, arena_printf(c->arena, "%s__xcore", x->name), mt);
            m->span = x->span;
            if (!(e = pop_for(sd, b, m, s->span))) return false;
            Stmt *ps = ir_assign(c, m, e);
            ps->span = s->span;
            sd->before = ps;
            Expr *arg = ir_ref(m);
            Expr *mv = ir_call(c, OP_TILE_MOVE, &arg, 1);
            ir_attr_set(c, &mv->call.kwargs, "target_memory", ir_av_mem(x->type->space));
            ir_deduce_call(c, mv);
            mv->span = s->span;
            s->assign.value = mv;
            return true;
        }
        if (!(e = pop_for(sd, b, x, s->span))) return false;
        s->assign.value = e;
        return true;
    }
    ir_deduce_call(c, e);
    s->kind = ST_EVAL;
    s->eval.expr = e;
    return true;
}

/* ---- carries of the other side ---- */
static bool other_side(Side *sd, const Var *v) {
    Aff a = emk_type_aff(v->type);
    return a != AFF_SHARED && a != sd->side;
}

static void drop_yield_value(StmtList *body, int k) {
    if (!body->len || body->items[body->len - 1]->kind != ST_YIELD) return;
    Stmt *y = body->items[body->len - 1];
    if (k >= y->yield.n) return;
    memmove(y->yield.values + k, y->yield.values + k + 1, sizeof(Expr *) * (size_t)(y->yield.n - k - 1));
    y->yield.n--;
}

static void drop_var(VarList *l, int k) {
    memmove(l->items + k, l->items + k + 1, sizeof(Var *) * (size_t)(l->len - k - 1));
    l->len--;
}

static void strip_carries(Side *sd, Stmt *s) {
    if (s->kind == ST_FOR || s->kind == ST_WHILE) {
        VarList *it = s->kind == ST_FOR ? &s->for_.iter_args : &s->while_.iter_args;
        VarList *rv = s->kind == ST_FOR ? &s->for_.return_vars : &s->while_.return_vars;
        StmtList *body = s->kind == ST_FOR ? &s->for_.body : &s->while_.body;
        for (int k = it->len - 1; k >= 0; k--) {
            if (!other_side(sd, it->items[k])) continue;
            drop_var(it, k);
            if (k < rv->len) drop_var(rv, k);
            drop_yield_value(body, k);
        }
        /* a loop left without carries has no yield */
        if (!it->len && body->len && body->items[body->len - 1]->kind == ST_YIELD && !body->items[body->len - 1]->yield.n) body->len--;
    } else if (s->kind == ST_IF) {
        for (int k = s->if_.return_vars.len - 1; k >= 0; k--) {
            if (!other_side(sd, s->if_.return_vars.items[k])) continue;
            drop_var(&s->if_.return_vars, k);
            drop_yield_value(&s->if_.then_body, k);
            drop_yield_value(&s->if_.else_body, k);
        }
    }
}

/* A compound statement with nothing left but an empty yield does nothing. */
static bool is_empty_body(const StmtList *l) {
    return l->len == 0 || (l->len == 1 && l->items[0]->kind == ST_YIELD && l->items[0]->yield.n == 0);
}

static bool keep_list(Side *sd, StmtList *l);

static bool keep_compound(Side *sd, Stmt *s) {
    strip_carries(sd, s);
    switch (s->kind) {
    case ST_FOR: keep_list(sd, &s->for_.body); return !(is_empty_body(&s->for_.body) && !s->for_.return_vars.len);
    case ST_WHILE: keep_list(sd, &s->while_.body); return !(is_empty_body(&s->while_.body) && !s->while_.return_vars.len);
    case ST_IF:
        keep_list(sd, &s->if_.then_body);
        keep_list(sd, &s->if_.else_body);
        return !(is_empty_body(&s->if_.then_body) && is_empty_body(&s->if_.else_body) && !s->if_.return_vars.len);
    case ST_SCOPE: keep_list(sd, &s->scope.body); return true;
    default: return true;
    }
}

/* `tile.tfree_to_aic(x)` on the AIV (`tfree_to_aiv` on the AIC; x NULL: a fence's slot) as a statement. */
static Stmt *tfree_stmt(Side *sd, Var *x, Span sp) {
    IrCtx *c = sd->ctx->ir;
    Expr *arg = x ? ir_ref(x) : NULL;
    Expr *e = ir_call(c, sd->side == AFF_VEC ? OP_TILE_TFREE_TO_AIC : OP_TILE_TFREE_TO_AIV, x ? &arg : NULL, x ? 1 : 0);
    ir_attr_set(c, &e->call.kwargs, "split", ir_av_int(sd->o->split));   /* the AIC frees one slot per lane */
    ir_attr_set(c, &e->call.kwargs, "slot_num", ir_av_int(sd->o->slot_num));
    ir_deduce_call(c, e);
    e->span = sp;
    Stmt *fs = ir_eval(c, e);
    fs->span = sp;
    return fs;
}

/* tfree after the last statement of l (from `from` on) that uses the popped tile x. */
static void insert_tfree(Side *sd, StmtList *l, int from, Var *x) {
    IrCtx *c = sd->ctx->ir;
    int last = from, end = l->len;
    if (end && l->items[end - 1]->kind == ST_YIELD) {
        StmtList tail = { &l->items[end - 1], 1, 1 };
        if (ir_stmts_use_var(&tail, x)) {
            diag_error(sd->ctx->diag, l->items[from]->span, "'%s' crosses between the cube and the vector cores and is carried to "
                       "the next iteration as it is; ptoc cannot keep a received tile across iterations (copy it first)", x->name);
            sd->ok = false;
            return;
        }
        end--;
    }
    for (int j = from + 1; j < end; j++) {
        StmtList one = { &l->items[j], 1, 1 };
        if (ir_stmts_use_var(&one, x)) last = j;
    }
    ir_list_insert(c, l, last + 1, tfree_stmt(sd, x, l->items[last]->span));
}

static bool keep_list(Side *sd, StmtList *l) {
    for (int i = 0; i < l->len && sd->ok; i++) {
        Stmt *s = l->items[i];
        Expr *call = pass_stmt_call(s);
        Boundary b = call ? emk_boundary(call) : XB_NONE;
        bool keep = true;
        if (b != XB_NONE) {
            sd->before = NULL;
            keep = boundary(sd, s, call, b);
            if (keep && sd->before) {        /* the pop into L1, then the move: its tfree follows the move's uses */
                ir_list_insert(sd->ctx->ir, l, i, sd->before);
                insert_tfree(sd, l, i, sd->before->assign.var);
                i++;
            }
        }
        else {
            Aff a = emk_stmt_aff(s);
            if (a != AFF_SHARED && !(a & sd->side)) keep = false;
            else if (s->kind == ST_FOR || s->kind == ST_WHILE || s->kind == ST_IF || s->kind == ST_SCOPE) keep = keep_compound(sd, s);
        }
        if (!keep) {
            /* a GM result stored by the other side is, on this side, the tensor it was stored into */
            Expr *sv = s->kind == ST_ASSIGN ? s->assign.value : NULL;
            if (sv && pass_is_op(sv, OP_TILE_STORE) && s->assign.var->type->kind == TY_TENSOR) {
                Expr *dst = sv->call.args[2];
                Expr *to = dst->kind == EX_VAR ? ir_varmap_get(&sd->gm, dst->var) : NULL;
                ir_varmap_put(&sd->gm, s->assign.var, to ? to : dst);
            }
            memmove(l->items + i, l->items + i + 1, sizeof(Stmt *) * (size_t)(l->len - i - 1));
            l->len--;
            i--;
            continue;
        }
        Expr *v = s->kind == ST_ASSIGN ? s->assign.value : NULL;
        if (v && (pass_is_op(v, OP_TILE_TPOP_FROM_AIC) || pass_is_op(v, OP_TILE_TPOP_FROM_AIV)) && v->call.nargs)
            insert_tfree(sd, l, i, s->assign.var);
        Expr *fp = s->kind == ST_EVAL ? s->eval.expr : NULL;
        if (fp && (pass_is_op(fp, OP_TILE_TPOP_FROM_AIC) || pass_is_op(fp, OP_TILE_TPOP_FROM_AIV))) {   /* a fence's slot: free at once */
            ir_list_insert(sd->ctx->ir, l, i + 1, tfree_stmt(sd, NULL, s->span));
            i++;
        }
    }
    return sd->ok;
}

/* ---- every use defined on this side ---- */
typedef struct { Side *sd; VEC(const Var *) defs; const Var *missing; Span at; } Defs;

static bool defined(Defs *d, const Var *v) {
    for (int i = 0; i < d->defs.len; i++)
        if (d->defs.data[i] == v) return true;
    return false;
}

static void check_use(Expr *e, void *ud) {
    Defs *d = ud;
    if (e->kind == EX_VAR && !d->missing && !defined(d, e->var)) d->missing = e->var;
}

static void def_vars(Defs *d, const VarList *l) { for (int i = 0; i < l->len; i++) vec_push(&d->defs, l->items[i]); }

static void check_list(Defs *d, StmtList *l) {
    for (int i = 0; i < l->len && !d->missing; i++) {
        Stmt *s = l->items[i];
        StmtList one = { &l->items[i], 1, 1 };
        d->at = s->span;
        switch (s->kind) {
        case ST_FOR:
            ir_visit_expr(s->for_.start, check_use, d); ir_visit_expr(s->for_.stop, check_use, d);
            ir_visit_expr(s->for_.step, check_use, d);
            for (int k = 0; k < s->for_.iter_args.len; k++) ir_visit_expr(s->for_.iter_args.items[k]->init, check_use, d);
            vec_push(&d->defs, s->for_.loop_var);
            def_vars(d, &s->for_.iter_args);
            check_list(d, &s->for_.body);
            def_vars(d, &s->for_.return_vars);
            break;
        case ST_WHILE:
            for (int k = 0; k < s->while_.iter_args.len; k++) ir_visit_expr(s->while_.iter_args.items[k]->init, check_use, d);
            def_vars(d, &s->while_.iter_args);
            ir_visit_expr(s->while_.cond, check_use, d);
            check_list(d, &s->while_.body);
            def_vars(d, &s->while_.return_vars);
            break;
        case ST_IF:
            ir_visit_expr(s->if_.cond, check_use, d);
            check_list(d, &s->if_.then_body);
            check_list(d, &s->if_.else_body);
            def_vars(d, &s->if_.return_vars);
            break;
        case ST_SCOPE: check_list(d, &s->scope.body); break;
        default:
            ir_visit_exprs(&one, check_use, d);
            if (s->kind == ST_ASSIGN) vec_push(&d->defs, s->assign.var);
        }
    }
}

/* ---- pops as late as possible ----
 * A pop blocks its pipe (MTE2) until the other core has pushed; loads issued after it in program
 * order would wait too. So each pop moves down to just before the first statement that uses its
 * tile or touches a channel (the channel order must not change). */
typedef struct { bool found; } XFind;
static void find_xcore(Expr *e, void *ud) {
    if (e->kind == EX_CALL && emk_is_xcore(e->call.op)) ((XFind *)ud)->found = true;
}

static void sink_pops(StmtList *l) {
    for (int i = l->len - 1; i >= 0; i--) {
        Stmt *s = l->items[i];
        if (s->kind == ST_FOR) sink_pops(&s->for_.body);
        else if (s->kind == ST_WHILE) sink_pops(&s->while_.body);
        else if (s->kind == ST_IF) { sink_pops(&s->if_.then_body); sink_pops(&s->if_.else_body); }
        else if (s->kind == ST_SCOPE) sink_pops(&s->scope.body);
        Expr *v = s->kind == ST_ASSIGN ? s->assign.value : NULL;
        if (!v || !(pass_is_op(v, OP_TILE_TPOP_FROM_AIC) || pass_is_op(v, OP_TILE_TPOP_FROM_AIV)) || !v->call.nargs) continue;
        int j = i + 1;
        for (; j < l->len; j++) {
            StmtList one = { &l->items[j], 1, 1 };
            XFind xf = { false };
            ir_visit_exprs(&one, find_xcore, &xf);
            if (xf.found || l->items[j]->kind == ST_YIELD || l->items[j]->kind == ST_RETURN || ir_stmts_use_var(&one, s->assign.var)) break;
        }
        if (j == i + 1) continue;
        memmove(l->items + i, l->items + i + 1, sizeof(Stmt *) * (size_t)(j - 1 - i));
        l->items[j - 1] = s;
    }
}

bool emk_keep_side(PassCtx *ctx, Function *f, StmtList *l, Aff side, const EmkOpts *o) {
    Side sd = { ctx, f, side, o, true, {0}, NULL };
    bool ok = keep_list(&sd, l);
    if (ok && sd.gm.len) ir_subst_stmts(ctx->ir, l, &sd.gm);
    ir_varmap_free(&sd.gm);
    if (!ok) return false;
    emk_early_carry_pushes(ctx, l);
    sink_pops(l);
    Defs d = { &sd, {0}, NULL, SPAN_NONE };
    for (int i = 0; i < f->params.len; i++) vec_push(&d.defs, f->params.items[i]);
    check_list(&d, l);
    if (d.missing)
        diag_error(ctx->diag, d.at, "'%s' is computed on the %s side of this mixed cube/vector region and used on the %s side; "
                   "only tiles cross between the cores (pass it through a tile, or compute it on both sides)",
                   d.missing->name, side == AFF_CUBE ? "vector" : "cube", side == AFF_CUBE ? "cube" : "vector");
    vec_free(&d.defs);
    return !d.missing;
}
