/* AutoTileMatmulL0 — the K-loop builder.
 * Requires: an Emit positioned where the tiled matmul stood; Mat operands; (m, n, k) from the chooser.
 * Produces: one output (sub-)tile's K reduction: an Acc seed (fresh matmul), a 2-stage pipelined loop
 *           of Left/Right extracts and matmul_acc over the full K blocks, and a peeled K tail; or, for
 *           a biased matmul, a head-peeled tile.matmul_bias first block then matmul_acc. Inside a user
 *           pipeline (Emit.unroll_k) a short K loop is unrolled instead, extracts tagged
 *           pipeline_l0_step, in ping-pong order (see split_k_unrolled).
 * Does: the predicate `ko == k0` overwrites the seed on the first block (one L0C buffer, no phi); a
 *       caller's init_cond is ANDed with it in the loop, forwarded verbatim on a lone block, and
 *       dropped on the tail (reference/autotile_matmul_l0_pass.md, tile.matmul_acc). */
#include "pass/auto_tile.h"

Expr *at_idx(Emit *e, int64_t v) { return ir_const_int(e->ctx->ir, v, DT_INDEX); }

Expr *at_add(Emit *e, Expr *a, Expr *b) {
    int64_t x, y;
    if (ir_is_const_int(a, &x) && ir_is_const_int(b, &y)) return at_idx(e, x + y);
    if (ir_is_const_int(b, &y) && y == 0) return a;
    if (ir_is_const_int(a, &x) && x == 0) return b;
    return ir_binary(e->ctx->ir, BIN_ADD, a, b);
}

void at_put(Emit *e, Stmt *s) {
    s->span = e->span;
    ir_list_insert(e->ctx->ir, e->list, e->at++, s);
}

Var *at_bind(Emit *e, const char *suffix, Expr *value) {
    Var *v = ir_var_new(e->ctx->ir, pass_name(e->ctx, e->base, suffix), value->type);
    v->span = e->span;
    at_put(e, ir_assign(e->ctx->ir, v, value));
    return v;
}

Expr *at_call(Emit *e, OpId op, Expr **args, int n, MemSpace target) {
    Expr *c = ir_call(e->ctx->ir, op, args, n);
    c->span = e->span;
    if (target != MS_NONE) ir_attr_set(e->ctx->ir, &c->call.kwargs, "target_memory", ir_av_mem(target));
    bool ok = ir_deduce_call(e->ctx->ir, c);
    PTOC_ASSERT(ok, "AutoTileMatmulL0 built an ill-typed %s", ir_op_info(op)->name);
    return c;
}

Expr *at_create(Emit *e, int64_t rows, int64_t cols, DType dtype, MemSpace space, const char *suffix) {
    IrCtx *c = e->ctx->ir;
    Expr *shape = ir_int_tuple(c, (int64_t[]){ rows, cols }, 2);
    Expr *cr = at_call(e, OP_TILE_CREATE, &shape, 1, space);
    ir_attr_set(c, &cr->call.kwargs, "dtype", ir_av_dtype(dtype));
    ir_deduce_call(c, cr);
    return ir_ref(at_bind(e, suffix, cr));
}

Var *at_extract(Emit *e, bool left, Expr *r, Expr *c, int64_t rows, int64_t cols) {
    Expr *args[4] = { left ? e->lhs : e->rhs, r, c, ir_int_tuple(e->ctx->ir, (int64_t[]){ rows, cols }, 2) };
    return at_bind(e, left ? "l0a" : "l0b", at_call(e, OP_TILE_EXTRACT, args, 4, left ? MS_LEFT : MS_RIGHT));
}

Var *at_matmul_acc(Emit *e, Expr *acc, Var *sa, Var *sb, Expr *pred) {
    Expr *args[4] = { acc, ir_ref(sa), ir_ref(sb), pred };
    return at_bind(e, "acc", at_call(e, OP_TILE_MATMUL_ACC, args, pred ? 4 : 3, MS_NONE));
}

Expr *at_stage_to_mat(Emit *e, Expr *vec_tile) {
    Expr *arg = vec_tile;
    return ir_ref(at_bind(e, "mat", at_call(e, OP_TILE_MOVE, &arg, 1, MS_MAT)));
}

static Expr *and_pred(Emit *e, Expr *user, Expr *mine) {
    if (!user) return mine;
    return ir_binary(e->ctx->ir, BIN_AND, user, mine);
}

/* Inside a user pipeline (e->unroll_k) a K loop of at most UNROLL_MAX blocks is emitted unrolled, in
 * ping-pong order: extracts of block 0, extracts of block 1, matmul 0, extracts of block 2, matmul 1,
 * ... The extracts are tagged pipeline_l0_step: CanonicalizeIOOrder keeps them in place instead of
 * hoisting them, and LowerPipelineLoops leaves them out of the user pipeline's stage guard, so
 * MemoryReuse gives every operand block one of two L0A / L0B buffers by lifetime — the extracts of
 * block j + 1 overlap the matmul of block j, and the next chunk's first extract (straight-line code,
 * not a new loop) waits only for the matmul that last read its buffer, not for the whole chunk. */
#define UNROLL_MAX 16

static Var *step_extract(Emit *e, bool left, Expr *r, Expr *c, int64_t rows, int64_t cols) {
    Var *v = at_extract(e, left, r, c, rows, cols);
    Expr *call = pass_stmt_call(e->list->items[e->at - 1]);
    ir_attr_set(e->ctx->ir, &call->call.attrs, "pipeline_l0_step", ir_av_int(1));
    return v;
}

static Expr *split_k_unrolled(Emit *e, Expr *mi, Expr *ni, int64_t ms, int64_t ns, int64_t k, int64_t k0, int64_t K,
                              Expr *cur, Expr *first_pred) {
    int64_t nb = (K - k0 + k - 1) / k;
    Var *sa[UNROLL_MAX + 1], *sb[UNROLL_MAX + 1];
    for (int64_t j = 0; j <= nb; j++) {
        if (j < nb) {
            int64_t ko = k0 + j * k, kw = K - ko < k ? K - ko : k;
            sa[j] = step_extract(e, true, mi, at_idx(e, ko), ms, kw);
            sb[j] = step_extract(e, false, at_idx(e, ko), ni, kw, ns);
        }
        if (j >= 1) cur = ir_ref(at_matmul_acc(e, cur, sa[j - 1], sb[j - 1], j == 1 ? first_pred : NULL));
    }
    return cur;
}

Expr *at_split_k_from(Emit *e, Expr *mi, Expr *ni, int64_t ms, int64_t ns, int64_t k, int64_t k0, int64_t K, Expr *init,
                      Expr *user_pred) {
    IrCtx *c = e->ctx->ir;
    int64_t kf = (K - k0) / k, kt = K - k0 - kf * k;
    Expr *cur = init;
    bool fresh = init == NULL;
    if (fresh) cur = at_create(e, ms, ns, e->acc, MS_ACC, "l0_init");
    if (e->unroll_k && kf >= 2 && kf + (kt > 0) <= UNROLL_MAX)
        return split_k_unrolled(e, mi, ni, ms, ns, k, k0, K, cur, fresh ? ir_const_bool(c, true) : user_pred);
    if (kf >= 2) {
        Var *ko = ir_var_new(c, pass_name(e->ctx, "ko", "idx"), ir_scalar_type(c, DT_INDEX));
        Stmt *loop = ir_for(c, ko, at_idx(e, k0), at_idx(e, k0 + kf * k), at_idx(e, k), FK_PIPELINE);
        ir_attr_set(c, &loop->for_.attrs, "pipeline_stages", ir_av_int(2));
        Var *it = ir_iter_arg_new(c, pass_name(e->ctx, e->base, "iter"), cur->type, cur);
        ir_varlist_push(c, &loop->for_.iter_args, it);
        at_put(e, loop);
        Emit body = *e;
        body.list = &loop->for_.body;
        body.at = 0;
        Var *sa = at_extract(&body, true, mi, ir_ref(ko), ms, k);
        Var *sb = at_extract(&body, false, ir_ref(ko), ni, k, ns);
        Expr *first = ir_binary(c, BIN_EQ, ir_ref(ko), at_idx(e, k0));
        Var *acc = at_matmul_acc(&body, ir_ref(it), sa, sb, fresh ? first : user_pred ? and_pred(e, user_pred, first) : NULL);
        Expr *y = ir_ref(acc);
        ir_list_push(c, &loop->for_.body, ir_yield(c, &y, 1));
        Var *rv = ir_var_new(c, pass_name(e->ctx, e->base, "rv"), acc->type);
        ir_varlist_push(c, &loop->for_.return_vars, rv);
        cur = ir_ref(rv);
    } else if (kf == 1) {
        Var *sa = at_extract(e, true, mi, at_idx(e, k0), ms, k);
        Var *sb = at_extract(e, false, at_idx(e, k0), ni, k, ns);
        cur = ir_ref(at_matmul_acc(e, cur, sa, sb, fresh ? ir_const_bool(c, true) : user_pred));
    }
    if (kt > 0) {
        Var *sa = at_extract(e, true, mi, at_idx(e, k0 + kf * k), ms, kt);
        Var *sb = at_extract(e, false, at_idx(e, k0 + kf * k), ni, kt, ns);
        cur = ir_ref(at_matmul_acc(e, cur, sa, sb, kf == 0 && fresh ? ir_const_bool(c, true) : NULL));
    }
    return cur;
}

Expr *at_split_k(Emit *e, Expr *mi, Expr *ni, int64_t ms, int64_t ns, int64_t k, int64_t K, Expr *init, Expr *user_pred) {
    return at_split_k_from(e, mi, ni, ms, ns, k, 0, K, init, user_pred);
}

Expr *at_split_k_bias(Emit *e, Expr *mi, Expr *ni, int64_t ms, int64_t ns, int64_t k, int64_t K, Expr *bias) {
    int64_t kh = K < k ? K : k;
    Var *sa = at_extract(e, true, mi, at_idx(e, 0), ms, kh);
    Var *sb = at_extract(e, false, at_idx(e, 0), ni, kh, ns);
    Expr *args[3] = { ir_ref(sa), ir_ref(sb), bias };
    Expr *head = ir_ref(at_bind(e, "acc", at_call(e, OP_TILE_MATMUL_BIAS, args, 3, MS_NONE)));
    return kh == K ? head : at_split_k_from(e, mi, ni, ms, ns, k, kh, K, head, NULL);
}

/* The padded rows exist only to keep tiles whole boxes; loop iterations never need narrowing because
 * loops cover fully valid row blocks. */
Expr *at_narrow_rows(Emit *e, Expr *tile, Expr *row0) {
    int64_t r0;
    if (!ir_is_const_int(row0, &r0) || r0 + ir_type_dim(tile->type, 0) <= e->mvalid) return tile;
    Expr *args[3] = { tile, at_idx(e, e->mvalid - r0), tile->type->shape[1] };
    return ir_ref(at_bind(e, "valid", at_call(e, OP_TILE_SET_VALIDSHAPE, args, 3, MS_NONE)));
}
