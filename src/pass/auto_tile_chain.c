/* AutoTileMatmulL0 — chained matmuls: one matmul's result read on-chip as another matmul's operand.
 * Requires: the driver's walk (auto_tile_matmul_l0.c), in program order, before the consumer matmul is
 *           tiled; a matmul result is an Acc tile, a consumer reads its operands from Mat.
 * Produces: the intermediate in an L1/Mat scratch `tile.create([M, N], dtype, target_memory=Mat)`
 *           written from Acc by `tile.assemble` (FIXPIPE TINSERT; FP32 -> BF16/FP16 rounds half to
 *           even), the consumer reading the scratch:
 *   - cast fold (fits L0C): `cb = tile.cast(c, bf16|f16, mode="rint")` of an FP32 Acc tile whose every use
 *     is a matmul operand -> one full-window assemble at (0, 0); the cast is dropped (PH-AT-010 when
 *     the dtype or mode is one FIXPIPE cannot reproduce);
 *   - Mat-scratch grid (output exceeds L0C): the M/N grid's sub-tiles assembled in place into the
 *     scratch, a rint cast between folded per sub-tile (PH-AT-009: FP32 scratch on a2a3; PH-AT-006:
 *     scratch over Mat);
 *   - an uncast Acc operand (a5 only: a same-dtype Acc -> Mat copy; a2a3 narrows only, PH-AT-009).
 * Does: after the walk, any Acc tile still read by a vector cast or as a matmul operand is a located
 *       error naming the fix (a mixed cube/vector kernel is not supported yet). */
#include "pass/auto_tile.h"

#include <string.h>

static bool is_mm(const Expr *c) {
    return pass_is_op(c, OP_TILE_MATMUL) || pass_is_op(c, OP_TILE_MATMUL_ACC) || pass_is_op(c, OP_TILE_MATMUL_BIAS);
}

/* The matrix operand slots of a matmul call: lhs and rhs (after the accumulator of matmul_acc). */
static int mm_first(const Expr *c) { return c->call.op == OP_TILE_MATMUL_ACC ? 1 : 0; }

typedef struct { const Var *v; int all, mm; } Uses;

static void count_use(Expr *x, void *ud) {
    Uses *u = ud;
    if (x->kind == EX_VAR && x->var == u->v) u->all++;
    if (x->kind != EX_CALL || !is_mm(x)) return;
    for (int i = mm_first(x); i < mm_first(x) + 2; i++)
        if (x->call.args[i]->kind == EX_VAR && x->call.args[i]->var == u->v) u->mm++;
}

static Uses uses_of(Function *f, const Var *v) {
    Uses u = { v, 0, 0 };
    ir_visit_exprs(&f->body, count_use, &u);
    return u;
}

static bool only_matmul_operand(Function *f, const Var *v) {
    Uses u = uses_of(f, v);
    return u.all > 0 && u.all == u.mm;
}

static void untiled(PassCtx *ctx, Function *f, Span sp, const char *code, const char *reason) {
    vec_push(&ctx->untiled, ((PassUntiled){ f->name, sp, code, reason }));
}

static const char *mode_of(const Expr *cast) {
    const AttrVal *m = ir_attr_get(&cast->call.kwargs, "mode");
    if (!m) return "round";
    if (m->kind == AV_STR) return m->s;
    static const char *names[] = { "none", "rint", "round", "floor", "ceil", "trunc", "odd" };
    return m->kind == AV_INT && m->i >= 0 && m->i < 7 ? names[m->i] : "?";
}

/* What FIXPIPE reproduces: FP32 -> BF16/FP16, round half to even. NULL when foldable, else why not. */
static const char *fold_blocker(PassCtx *ctx, const Expr *cast) {
    DType from = cast->call.args[0]->type->dtype, to = cast->type->dtype;
    if (from != DT_FP32)
        return arena_printf(ctx->ir->arena, "the source is %s (FIXPIPE narrows FP32 only)", dtype_name(from));
    if (to != DT_BF16 && to != DT_FP16)
        return arena_printf(ctx->ir->arena, "the target is %s (FIXPIPE narrows to BF16 / FP16 only)", dtype_name(to));
    if (strcmp(mode_of(cast), "rint") != 0)
        return arena_printf(ctx->ir->arena, "mode=\"%s\" (FIXPIPE rounds half to even only)", mode_of(cast));
    return NULL;
}

static void hint_010(PassCtx *ctx, Function *f, const Expr *cast, const char *why) {
    pass_hint(ctx, cast->span, "PH-AT-010",
              "tile.cast of matmul result '%s' cannot fold onto the cube FIXPIPE: %s; it stays a vector cast of an Acc tile "
              "(a cube -> vector -> cube round trip); cast an FP32 result to BF16/FP16 with mode=\"rint\" to keep it on the cube",
              cast->call.args[0]->kind == EX_VAR ? cast->call.args[0]->var->name : "?", why);
    untiled(ctx, f, cast->span, "PH-AT-010", why);
}

/* The scratch must fit Mat (a necessary condition: other Mat tiles are not counted). */
static bool scratch_fits(PassCtx *ctx, Function *f, Span sp, int64_t M, int64_t N, DType dt) {
    IrCtx *c = ctx->ir;
    Type *t = ir_tile_type(c, dt, 2, (int64_t[]){ M, N }, MS_MAT);
    int64_t bytes = ir_tile_physical_bytes(t, 16), cap = ctx->target->capacity[MS_MAT];
    if (bytes <= cap) return true;
    pass_hint(ctx, sp, "PH-AT-006",
              "chained matmul intermediate [%lld, %lld] %s needs a %lld-byte Mat scratch, but Mat holds %lld bytes; left untiled "
              "(split the chain into two pl.at regions through a GM tensor)",
              (long long)M, (long long)N, dtype_name(dt), (long long)bytes, (long long)cap);
    untiled(ctx, f, sp, "PH-AT-006", "its chained-matmul Mat scratch exceeds Mat");
    return false;
}

static void hint_009(PassCtx *ctx, Function *f, Span sp, const char *name, int64_t M, int64_t N, DType dt) {
    pass_hint(ctx, sp, "PH-AT-009",
              "matmul result '%s' [%lld, %lld] %s feeds another matmul: on %s the Acc -> Mat copy (FIXPIPE TINSERT) narrows to "
              "BF16/FP16 only, so an %s Mat scratch cannot be written; cast it with pl.cast(%s, pl.BF16, mode=\"rint\") before "
              "the consumer matmul; left on the deferred path",
              name, (long long)M, (long long)N, dtype_name(dt), ctx->target->name, dtype_name(dt), name);
    untiled(ctx, f, sp, "PH-AT-009", "an FP32 chained-matmul intermediate needs a BF16/FP16 Mat scratch on this target");
}

static void drop_stmt(StmtList *l, int i) {
    memmove(l->items + i, l->items + i + 1, sizeof(Stmt *) * (size_t)(l->len - i - 1));
    l->len--;
}

/* scratch = tile.create([M, N], dt, Mat); tile.assemble(scratch, src, [0, 0]), narrowed to src's
 * valid rows. */
static Expr *whole_scratch(Emit *e, Expr *src, DType dt) {
    int64_t M = ir_type_dim(src->type, 0), N = ir_type_dim(src->type, 1), mv = M;
    TileView v = ir_effective_view(src->type);
    if (v.nvalid == 2 && !ir_is_const_int(v.valid_shape[0], &mv)) mv = M;
    e->mvalid = mv;
    Expr *scratch = at_create(e, M, N, dt, MS_MAT, "mat");
    Expr *offs[2] = { at_idx(e, 0), at_idx(e, 0) };
    Expr *args[3] = { scratch, src, ir_tuple(e->ctx->ir, offs, 2) };
    Expr *a = ir_ref(at_bind(e, "mat", at_call(e, OP_TILE_ASSEMBLE, args, 3, MS_NONE)));
    return at_narrow_rows(e, a, at_idx(e, 0));
}

static void subst_one(PassCtx *ctx, Function *f, Var *from, Expr *to) {
    VarMap m = {0};
    ir_varmap_put(&m, from, to);
    ir_subst_stmts(ctx->ir, &f->body, &m);
    ir_varmap_free(&m);
}

/* The cast fold: l->items[*at] is `cb = tile.cast(c, ...)` with c in Acc. */
static void fold_cast(PassCtx *ctx, Function *f, StmtList *l, int *at) {
    Stmt *s = l->items[*at];
    Expr *cast = s->assign.value, *src = cast->call.args[0];
    if (!only_matmul_operand(f, s->assign.var)) return;     /* a vector consumer keeps the vector cast */
    const char *why = fold_blocker(ctx, cast);
    if (why) { hint_010(ctx, f, cast, why); return; }
    int64_t d[2];
    if (!ir_type_static_dims(src->type, d) || ir_tile_physical_bytes(src->type, 16) > ctx->target->capacity[MS_ACC]) return;
    if (!scratch_fits(ctx, f, cast->span, d[0], d[1], cast->type->dtype)) return;
    drop_stmt(l, *at);
    Emit e = { ctx, l, *at, s->span, NULL, NULL, DT_FP32, s->assign.var->name, d[0], false };
    subst_one(ctx, f, s->assign.var, whole_scratch(&e, src, cast->type->dtype));
    *at = e.at - 1;
}

/* A matmul (l->items[*at]) reading an Acc tile directly: a same-dtype Acc -> Mat copy before it
 * (a5), or PH-AT-009 (a2a3, whose TINSERT only narrows). */
static void copy_acc_operands(PassCtx *ctx, Function *f, StmtList *l, int *at) {
    Stmt *s = l->items[*at];
    Expr *c = s->assign.value;
    for (int i = mm_first(c); i < mm_first(c) + 2; i++) {
        Expr *x = c->call.args[i];
        int64_t d[2];
        if (x->kind != EX_VAR || x->type->kind != TY_TILE || x->type->space != MS_ACC || !ir_type_static_dims(x->type, d))
            continue;
        if (ir_tile_physical_bytes(x->type, 16) > ctx->target->capacity[MS_ACC]) continue;   /* hinted by the grid */
        if (ctx->target->id == TGT_A2A3) { hint_009(ctx, f, c->span, x->var->name, d[0], d[1], x->type->dtype); continue; }
        if (!scratch_fits(ctx, f, c->span, d[0], d[1], x->type->dtype)) continue;
        Emit e = { ctx, l, *at, s->span, NULL, NULL, x->type->dtype, x->var->name, d[0], false };
        c->call.args[i] = whole_scratch(&e, x, x->type->dtype);
        *at = e.at;
    }
}

bool at_chain_hook(PassCtx *ctx, Function *f, StmtList *l, int *at) {
    Stmt *s = l->items[*at];
    Expr *c = s->kind == ST_ASSIGN ? s->assign.value : NULL;
    if (pass_is_op(c, OP_TILE_CAST) && c->call.args[0]->type && c->call.args[0]->type->kind == TY_TILE &&
        c->call.args[0]->type->space == MS_ACC)
        fold_cast(ctx, f, l, at);
    else if (c && is_mm(c))
        copy_acc_operands(ctx, f, l, at);
    return true;
}

/* The cast statement in l after `at` whose source is x, when x has no other use. */
static int sole_cast_of(Function *f, StmtList *l, int at, Var *x) {
    for (int j = at + 1; j < l->len; j++) {
        Stmt *s = l->items[j];
        if (s->kind == ST_ASSIGN && pass_is_op(s->assign.value, OP_TILE_CAST) && s->assign.value->call.args[0]->kind == EX_VAR &&
            s->assign.value->call.args[0]->var == x)
            return uses_of(f, x).all == 1 ? j : -1;
    }
    return -1;
}

int at_chain_grid(Emit *e, Function *f, const L0TileResult *r, int64_t M, int64_t N, int64_t K) {
    PassCtx *ctx = e->ctx;
    StmtList *l = e->list;
    Stmt *s = l->items[e->at];
    Var *x = s->assign.var, *bound = x;
    Expr *call = s->assign.value;
    DType dt = call->type->dtype;
    int cj = -1;
    if (!only_matmul_operand(f, x)) {
        cj = sole_cast_of(f, l, e->at, x);
        if (cj < 0 || !only_matmul_operand(f, l->items[cj]->assign.var)) return 0;
        Expr *cast = l->items[cj]->assign.value;
        const char *why = fold_blocker(ctx, cast);
        if (why) { hint_010(ctx, f, cast, why); return -1; }
        bound = l->items[cj]->assign.var;
        dt = cast->type->dtype;
    } else if (ctx->target->id == TGT_A2A3 && dt != DT_BF16 && dt != DT_FP16) {
        hint_009(ctx, f, call->span, x->name, M, N, dt);
        return -1;
    }
    if (!scratch_fits(ctx, f, call->span, M, N, dt)) return -1;
    if (cj >= 0) drop_stmt(l, cj);
    drop_stmt(l, e->at);
    Expr *scratch = at_create(e, M, N, dt, MS_MAT, "mat");
    Placer pl;
    at_scratch_placer(&pl);
    Grid g = { M, N, K, r->m, r->n, r->stationarity == STAT_A || (r->stationarity == STAT_OUTPUT && r->os_holds_a),
               r->double_buffer_c, &pl, NULL, NULL };
    Expr *final = r->k < K ? at_split_k_grid(e, &g, r->k, scratch) : at_full_k_grid(e, &g, scratch);
    subst_one(ctx, f, bound, at_narrow_rows(e, final, at_idx(e, 0)));
    return 1;
}

/* ---- what is left: an Acc tile read by a vector cast or as a matmul operand ---- */
typedef struct { PassCtx *ctx; bool ok; } Check;

static const char *name_of(const Expr *x) { return x->kind == EX_VAR ? x->var->name : "?"; }

static void check_call(Expr *c, void *ud) {
    Check *k = ud;
    if (!k->ok || c->kind != EX_CALL) return;
    if (pass_is_op(c, OP_TILE_CAST) && c->call.args[0]->type->space == MS_ACC) {
        Expr *x = c->call.args[0];
        const char *why = fold_blocker(k->ctx, c);
        diag_error(k->ctx->diag, c->span,
                   "tile.cast of the matmul result '%s' [%lld, %lld] %s (in Acc) to %s is a vector op on a cube result%s%s: a "
                   "kernel mixing cube and vector work is not supported by ptoc yet; to feed another matmul, cast an FP32 result "
                   "to BF16/FP16 with mode=\"rint\" (folded onto the FIXPIPE), otherwise store it and cast it in its own pl.at region",
                   name_of(x), (long long)ir_type_dim(x->type, 0), (long long)ir_type_dim(x->type, 1), dtype_name(x->type->dtype),
                   dtype_name(c->type->dtype), why ? " [PH-AT-010: " : "", why ? arena_printf(k->ctx->ir->arena, "%s]", why) : "");
        k->ok = false;
        return;
    }
    if (!is_mm(c)) return;
    for (int i = mm_first(c); i < mm_first(c) + 2 && k->ok; i++) {
        Expr *x = c->call.args[i];
        if (x->type->kind != TY_TILE || x->type->space != MS_ACC) continue;
        bool a2a3_narrow = k->ctx->target->id == TGT_A2A3 && x->type->dtype != DT_BF16 && x->type->dtype != DT_FP16;
        diag_error(k->ctx->diag, c->span,
                   "matmul operand '%s' is the matmul result [%lld, %lld] %s in Acc; a matmul reads its operands from Mat and "
                   "this one cannot be copied there%s; cast it with pl.cast(%s, pl.BF16, mode=\"rint\") "
                   "and keep its [M, N] within Mat, or store it to a tensor in one pl.at region and read it in the next",
                   name_of(x), (long long)ir_type_dim(x->type, 0), (long long)ir_type_dim(x->type, 1), dtype_name(x->type->dtype),
                   a2a3_narrow ? " [PH-AT-009: on a2a3 the Acc -> Mat copy narrows to BF16/FP16 only]"
                               : " [PH-AT-006: its Mat scratch does not fit, or its M/N grid has no placement]", name_of(x));
        k->ok = false;
    }
}

bool at_chain_check(PassCtx *ctx, Function *f) {
    Check k = { ctx, true };
    ir_visit_exprs(&f->body, check_call, &k);
    return k.ok;
}
