/* LowerCompositeOps
 * Requires: SSAForm, IncoreTileOps (ConvertTensorToTileOps has turned tensor.sin / tensor.cos into
 *           tile.sin / tile.cos).
 * Produces: no tile.sin / tile.cos left: each is the sequence of ordinary FP32 tile ops of
 *           spec/ops.md §4.3, one SSA variable per step (x__sin_vN ...), the original variable
 *           bound to the last step. Still SSAForm.
 * Does: the vector unit has no sine instruction; upstream's LowerCompositeOps (pypto
 *   lower_composite_ops_pass.cpp) expands the composites into about 30 tile ops with a Cody-Waite
 *   range reduction by pi and a degree-9 odd polynomial. ptoc reproduces the exact step sequence,
 *   constants and rounding modes, so that the numerics are upstream's:
 *     p = muls(x, 1/pi); k = cast(cast(p, INT32, round), FP32)     cos: cast(adds(p, 0.5), INT32, rint)
 *     t = x - k*3.140625 - k*0.0009670257568359375 [cos: + 1.5707963705062866]
 *         - k*6.2771141529e-7 - k*1.2164491636e-10 - k*(-1.0290623201e-13) [cos: + (-4.371139e-8)]
 *     sign = cast(cast(k*0.5, INT32, floor), FP32)*4 - k*2 + 1
 *     u = t*t; P = (((2.604926501e-6 u - 1.980894471e-4) u + 8.333049340e-3) u - 1.666665792e-1) u + 1
 *     result = sign * (t * P)
 *   The INT32 -> FP32 casts use mode rint (round to nearest even: upstream's simulator ignores the
 *   mode of an int -> float conversion and rounds to nearest even; ptoc honours modes, decision 6).
 *   The interpreter evaluates tile.sin / tile.cos as the same sequence (src/interp/interp_vec_trig.c),
 *   so the golden values match the compiled program bit for bit. Type deduction has already
 *   rejected non-FP32 operands (a located error suggesting pl.cast). */
#include "pass/pass.h"

typedef struct {
    PassCtx *ctx;
    StmtList *list;
    int at;                  /* insertion index: before the composite's statement */
    Span span;
    const char *base;        /* the result's name, for the steps' names */
    bool failed;
} Expand;

/* Inserts `v = call` before the composite and returns v (NULL after a failure). */
static Expr *emit(Expand *x, OpId op, Expr **args, int n, const char *mode) {
    if (x->failed) return NULL;
    IrCtx *c = x->ctx->ir;
    Expr *call = ir_call(c, op, args, n);
    call->span = x->span;
    if (mode) ir_attr_set(c, &call->call.kwargs, "mode", ir_av_str(mode));
    if (!ir_deduce_call(c, call)) { x->failed = true; return NULL; }
    Var *v = ir_var_new(c, pass_name(x->ctx, x->base, "trig"), call->type);
    v->span = x->span;
    Stmt *s = ir_assign(c, v, call);
    s->span = x->span;
    ir_list_insert(c, x->list, x->at++, s);
    return ir_ref(v);
}

static Expr *scalar_op(Expand *x, OpId op, Expr *t, double k) {
    if (!t) return NULL;
    return emit(x, op, (Expr *[]){ t, ir_const_float(x->ctx->ir, k, DT_FP32) }, 2, NULL);
}
static Expr *binary_op(Expand *x, OpId op, Expr *a, Expr *b) {
    if (!a || !b) return NULL;
    return emit(x, op, (Expr *[]){ a, b }, 2, NULL);
}
static Expr *cast(Expand *x, Expr *t, DType to, const char *mode) {
    if (!t) return NULL;
    Expr *d = ARENA_NEW(x->ctx->ir->arena, Expr);
    d->kind = EX_ENUM;
    d->enm = ir_av_dtype(to);
    d->span = x->span;
    return emit(x, OP_TILE_CAST, (Expr *[]){ t, d }, 2, mode);
}
/* t := t - k * c */
static Expr *reduce_step(Expand *x, Expr *t, Expr *k, double c) {
    return binary_op(x, OP_TILE_SUB, t, scalar_op(x, OP_TILE_MULS, k, c));
}

/* The steps of sin / cos of x but the last; leaves the final multiply's operands in *sign / *tp,
 * so that the composite's own statement becomes that multiply. */
static bool expand(Expand *x, Expr *in, bool cos, Expr **sign_out, Expr **tp_out) {
    Expr *p = scalar_op(x, OP_TILE_MULS, in, 0.31830988732818603515625);
    Expr *ki = cos ? cast(x, scalar_op(x, OP_TILE_ADDS, p, 0.5), DT_INT32, "rint") : cast(x, p, DT_INT32, "round");
    Expr *k = cast(x, ki, DT_FP32, "rint");
    Expr *t = reduce_step(x, in, k, 3.140625);
    t = reduce_step(x, t, k, 0.0009670257568359375);
    if (cos) t = scalar_op(x, OP_TILE_ADDS, t, 1.57079637050628662109375);
    t = reduce_step(x, t, k, 6.2771141529083251953125e-7);
    t = reduce_step(x, t, k, 1.21644916362129151821e-10);
    t = reduce_step(x, t, k, -1.0290623200529979163e-13);
    if (cos) t = scalar_op(x, OP_TILE_ADDS, t, -4.371139000189375e-8);
    Expr *f = cast(x, cast(x, scalar_op(x, OP_TILE_MULS, k, 0.5), DT_INT32, "floor"), DT_FP32, "rint");
    Expr *f4 = scalar_op(x, OP_TILE_MULS, f, 4.0);      /* one statement each, in this order */
    Expr *k2 = scalar_op(x, OP_TILE_MULS, k, 2.0);
    Expr *sign = binary_op(x, OP_TILE_SUB, f4, k2);
    sign = scalar_op(x, OP_TILE_ADDS, sign, 1.0);
    Expr *u = binary_op(x, OP_TILE_MUL, t, t);
    Expr *poly = scalar_op(x, OP_TILE_MULS, u, 2.604926501e-6);
    static const double coeff[] = { -1.980894471e-4, 8.333049340e-3, -1.666665792e-1 };
    for (int i = 0; i < 3; i++) poly = binary_op(x, OP_TILE_MUL, scalar_op(x, OP_TILE_ADDS, poly, coeff[i]), u);
    poly = scalar_op(x, OP_TILE_ADDS, poly, 1.0);
    *tp_out = binary_op(x, OP_TILE_MUL, t, poly);
    *sign_out = sign;
    return !x->failed;
}

static bool lower_list(PassCtx *ctx, StmtList *l) {
    for (int i = 0; i < l->len; i++) {
        Stmt *s = l->items[i];
        switch (s->kind) {
        case ST_FOR: if (!lower_list(ctx, &s->for_.body)) return false; continue;
        case ST_IF:
            if (!lower_list(ctx, &s->if_.then_body) || !lower_list(ctx, &s->if_.else_body)) return false;
            continue;
        case ST_WHILE: if (!lower_list(ctx, &s->while_.body)) return false; continue;
        case ST_SCOPE: if (!lower_list(ctx, &s->scope.body)) return false; continue;
        case ST_ASSIGN: break;
        default: continue;
        }
        Expr *c = s->assign.value;
        bool sin = pass_is_op(c, OP_TILE_SIN);
        if (!sin && !pass_is_op(c, OP_TILE_COS)) continue;
        int len = pass_user_name_len(s->assign.var->name);
        Expand x = { ctx, l, i, s->span, arena_printf(ctx->ir->arena, "%.*s", len, s->assign.var->name), false };
        Expr *sign, *tp;
        if (!expand(&x, c->call.args[0], !sin, &sign, &tp)) return false;
        Expr *last = ir_call(ctx->ir, OP_TILE_MUL, (Expr *[]){ sign, tp }, 2);   /* result = sign * (t * P) */
        last->span = c->span;
        if (!ir_deduce_call(ctx->ir, last)) return false;
        s->assign.value = last;
        pass_var_set_type(s->assign.var, last->type);
        i = x.at;                                      /* the composite's statement, now the final multiply */
    }
    return true;
}

bool pass_lower_composite_ops(Program *p, PassCtx *ctx) {
    for (int i = 0; i < p->nfuncs; i++) {
        Function *f = p->funcs[i];
        if (ir_functype_is_incore(f->type) && !lower_list(ctx, &f->body)) return false;
    }
    return true;
}
