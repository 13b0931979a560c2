/* AutoTileMatmulL0 — biased matmuls: the chooser config and the [1, n] bias windows of an M/N grid.
 * Requires: a Mat x Mat tile.matmul_bias (SSA, one statement list); the driver's chooser call.
 * Produces: the §13 biased config (chooser.md: box alignments, n capped by the Bias table, pipelined
 *           caps for a Mat bias), the PH-AT-011 / PH-AT-006 verdicts for a biased rewrite, and a
 *           BiasWindowFn for the M/N grid builders: each sub-tile's bias is a fresh
 *           `tile.load(bias_tensor, [r0, c0 + ni], [1, ns], target_memory=Mat)` (InferTileMemorySpace
 *           later moves it Mat -> Bias, as for any Mat bias), so the whole [1, N] Mat load is removed.
 * Does: the windowed bias must be a single-use, full, static [1, N] Mat tile.load of the same list,
 *       separated from the matmul only by other loads (any other statement could write the tensor or
 *       depend on the load's position); a grid whose tiles keep the whole N reuses the bias as it is. */
#include "pass/auto_tile.h"

#include <string.h>

static void untiled(PassCtx *ctx, Function *f, Expr *call, const char *code, const char *reason) {
    vec_push(&ctx->untiled, ((PassUntiled){ f->name, call->span, code, arena_strdup(ctx->ir->arena, reason) }));
}

/* The Mat-layout box of a tile (rows x cols), the granularity its storage is padded to; 0 when the
 * layout has none (spec/chooser.md §12.1). */
static void box_of(const Type *t, int64_t *rows, int64_t *cols) {
    TileView v = ir_effective_view(t);
    int64_t eb = dtype_bytes(t->dtype);
    *rows = *cols = 0;
    if (v.slayout == TL_NONE_BOX || eb <= 0) return;
    if (v.fractal == 1024) *rows = 16, *cols = 16;
    else if (v.slayout == TL_ROW_MAJOR) *rows = 16, *cols = 32 / eb;
    else *rows = 32 / eb, *cols = 16;
}

const char *at_bias_config(PassCtx *ctx, Expr *call, const TilePassOpts *o, int64_t M, int64_t N, int64_t K, L0TileConfig *cfg) {
    const Target *t = ctx->target;
    Expr *lhs = call->call.args[0], *rhs = call->call.args[1], *bias = call->call.args[2];
    TileBiasInfo bi = { 0, 0, 0, 0, bias->type && bias->type->space == MS_BIAS };
    box_of(lhs->type, &bi.lhs_box_rows, &bi.lhs_box_cols);
    box_of(rhs->type, &bi.rhs_box_rows, &bi.rhs_box_cols);
    DType dc = call->type->dtype;
    if (!tile_pass_config_bias(cfg, t, M, N, K, lhs->type->dtype, rhs->type->dtype, dc, o, &bi)) return NULL;
    Arena *a = ctx->ir->arena;
    if (bi.lhs_box_rows <= 0 || bi.rhs_box_cols <= 0)
        return arena_printf(a, "the layout of its %s operand has no box (a Mat operand in the standard NZ layout is needed)",
                            bi.lhs_box_rows <= 0 ? "left" : "right");
    if (cfg->max_n == 0)
        return arena_printf(a, "the Bias table (%lld bytes) holds fewer than %lld %s columns", (long long)t->bias_bytes,
                            (long long)t->l0_min, dtype_name(dc));
    if (M % cfg->align_m || N % cfg->align_n) {
        if (cfg->align_m == cfg->align_n)
            return arena_printf(a, "M = %lld and N = %lld must be multiples of the cube fractal (%lld)", (long long)M, (long long)N,
                                (long long)cfg->align_m);
        return arena_printf(a, "M = %lld and N = %lld must be multiples of %lld and %lld (the operand boxes)", (long long)M,
                            (long long)N, (long long)cfg->align_m, (long long)cfg->align_n);
    }
    return arena_printf(a, "K = %lld must be a multiple of %lld (the %s operand boxes)", (long long)K, (long long)cfg->align_k,
                        dtype_name(lhs->type->dtype));
}

/* The Mat -> Bias moves the cube supports: an FP32 / FP16 / BF16 bias into an FP32 result, an INT32
 * bias into an INT32 result. */
static bool bias_dtype_ok(DType bias, DType out) {
    if (out == DT_FP32) return bias == DT_FP32 || bias == DT_FP16 || bias == DT_BF16;
    if (out == DT_INT32) return bias == DT_INT32;
    return false;
}

/* The defining tile.load of the bias, if it is a full static [1, N] Mat load in l before `at` with only
 * loads in between and no other use; its index, else -1 with *why set. */
static int window_source(PassCtx *ctx, Function *f, StmtList *l, int at, Expr *call, int64_t N, const char **why) {
    Expr *bias = call->call.args[2];
    *why = "it is not a variable defined by a tile.load";
    if (bias->kind != EX_VAR) return -1;
    int j = at - 1;
    for (; j >= 0; j--) {
        Stmt *s = l->items[j];
        Expr *c = pass_stmt_call(s);
        if (s->kind == ST_ASSIGN && s->assign.var == bias->var) break;
        if (!c || !pass_is_op(c, OP_TILE_LOAD)) {
            *why = "its tile.load is separated from the matmul by a statement other than a load (move the load next to the matmul)";
            return -1;
        }
    }
    Expr *ld = j >= 0 ? pass_stmt_call(l->items[j]) : NULL;
    if (!ld || !pass_is_op(ld, OP_TILE_LOAD)) return -1;
    TileView v = ir_effective_view(bias->type);
    int64_t d[2], r0;
    if (bias->type->space != MS_MAT || !ir_type_static_dims(bias->type, d) || bias->type->rank != 2 || d[0] != 1 || d[1] != N ||
        v.nvalid || ld->call.args[1]->kind != EX_TUPLE || ld->call.args[1]->tuple.n != 2 ||
        !ir_is_const_int(ld->call.args[1]->tuple.items[0], &r0)) {
        *why = arena_printf(ctx->ir->arena, "its tile.load is not a full static [1, %lld] load into Mat", (long long)N);
        return -1;
    }
    call->call.args[2] = ir_const_int(ctx->ir, 0, DT_INDEX);   /* probe other uses */
    bool other = ir_stmts_use_var(&f->body, bias->var);
    call->call.args[2] = bias;
    if (other) {
        *why = "its tile is used by more than this matmul";
        return -1;
    }
    return j;
}

bool at_bias_check(PassCtx *ctx, Function *f, StmtList *l, int at, Expr *call, const L0TileResult *r, BiasWindows *bw) {
    Expr *bias = call->call.args[2];
    int64_t M = ir_type_dim(call->type, 0), N = ir_type_dim(call->type, 1);
    *bw = (BiasWindows){ bias, NULL, NULL, NULL, -1 };
    const char *why = NULL;
    if (!bias_dtype_ok(bias->type->dtype, call->type->dtype))
        why = arena_printf(ctx->ir->arena, "its bias is %s, which the cube cannot move to Bias for a %s result "
                           "(legal: an FP32, FP16 or BF16 bias for FP32; INT32 for INT32)", dtype_name(bias->type->dtype), dtype_name(call->type->dtype));
    if (!why && r->n < N && bias->type->space == MS_BIAS) {
        pass_hint(ctx, call->span, "PH-AT-006",
                  "biased matmul [%lld, %lld] needs N windows of %lld columns, but its bias is already in Bias and cannot be "
                  "sub-windowed; keep the bias in Mat; left untiled", (long long)M, (long long)N, (long long)r->n);
        untiled(ctx, f, call, "PH-AT-006", "its bias is already in Bias and cannot be sub-windowed (keep it in Mat)");
        return false;
    }
    if (!why && r->n < N) {
        bw->load = window_source(ctx, f, l, at, call, N, &why);
        if (bw->load >= 0) {
            why = NULL;
            Expr *ld = pass_stmt_call(l->items[bw->load]);
            bw->tensor = ld->call.args[0];
            bw->r0 = ld->call.args[1]->tuple.items[0];
            bw->c0 = ld->call.args[1]->tuple.items[1];
        } else {
            why = arena_printf(ctx->ir->arena, "its [1, %lld] bias must be split into [1, %lld] windows, but %s", (long long)N,
                               (long long)r->n, why);
        }
    }
    if (!why) return true;
    pass_hint(ctx, call->span, "PH-AT-011", "biased matmul [%lld, %lld] cannot form a legal Bias window: %s; left untiled",
              (long long)M, (long long)N, why);
    untiled(ctx, f, call, "PH-AT-011", why);
    return false;
}

void at_bias_commit(BiasWindows *bw, StmtList *l, int *at, int *st) {
    if (bw->load < 0) return;
    memmove(l->items + bw->load, l->items + bw->load + 1, sizeof(Stmt *) * (size_t)(l->len - bw->load - 1));
    l->len--;
    (*at)--;
    (*st)--;
}

Expr *at_bias_window(Emit *e, void *ud, Expr *ni, int64_t ns) {
    BiasWindows *bw = ud;
    if (bw->load < 0) return bw->whole;     /* the grid keeps the whole N: one bias for every tile */
    Expr *offs[2] = { bw->r0, at_add(e, bw->c0, ni) };
    Expr *args[4] = { bw->tensor, ir_tuple(e->ctx->ir, offs, 2), ir_int_tuple(e->ctx->ir, (int64_t[]){ 1, ns }, 2),
                      ir_int_tuple(e->ctx->ir, (int64_t[]){ 1, ns }, 2) };
    return ir_ref(at_bind(e, "bias", at_call(e, OP_TILE_LOAD, args, 4, MS_MAT)));
}
