/* AutoTileMatmulL0 — the pass driver.
 * Requires: SSAForm, SplitIncoreOrch, IncoreTileOps (2-D tile ops; operand spaces from their loads).
 * Produces: every Mat-resident tile.matmul / tile.matmul_acc / tile.matmul_bias whose operands do not
 *           fit L0 rewritten for the L0 tile (m, n, k) chosen by src/tile (the roofline chooser, config
 *           as chooser.md §13): a K loop (auto_tile_kloop.c) when the output fits L0C, else an M/N grid
 *           (auto_tile_grid.c) whose sub-tiles a placer stores to GM (biased: with [1, n] bias windows,
 *           auto_tile_bias.c), or assembles into a Mat scratch for a chained matmul (auto_tile_chain.c,
 *           which also folds a rint cast between two matmuls). Manual L0 operands are checked
 *           (an oversized one is an error), never re-tiled. A chooser fallback hint is forwarded as
 *           PH-AT-008 (dormant: the pass never allows padding). Skips come with perf hints PH-AT-003/005/
 *           006/007/011 and leave the call unchanged. Under the PYPTO planner, the user's canonical
 *           pl.pipeline loops get an L0C double buffer (auto_tile_pipeline_dbc.c, PH-AT-020 on declines).
 * Does: walks every InCore function; the pipeline stage product of enclosing user loops divides the
 *       L0 budgets (each clone of a user pipeline holds its own L0 buffers) — L0C excepted for a
 *       matmul_acc, whose clones chain one accumulator in place. Inside a user pipeline a K loop of at
 *       most 16 blocks is emitted unrolled in ping-pong order (auto_tile_kloop.c). A transposed operand (a
 *       ZN tile.transpose_view of its Mat load, a_trans / b_trans) is extracted like any Mat operand;
 *       its ZN box (32 / element bytes rows) raises the chooser's M (left) or K (right) alignment
 *       when it exceeds 16 (INT8: 32), and a shape not a multiple of it is left untiled (PH-AT-007). */
#include "pass/auto_tile.h"

#include <string.h>

/* stages: product of the pipeline_stages of the user loops around the matmul. LowerPipelineLoops
 * clones such a loop's body once per stage, every L0 buffer included, so each clone gets 1/stages
 * of L0A / L0B / L0C. */
/* force_os: choose an output-stationary tile (no M/N grid), the retry for a matmul whose grid has no
 * placement; quiet: no hints from that retry. */
/* head_acc: the matmul being tiled starts the accumulator chain of the pipeline right after it (the
 * rung-3 head chunk, init value of a carried matmul_acc): it gets that pipeline's per-clone L0A / L0B
 * budget, so its tiles are the loop's and share their buffers, and the whole L0C like the chain. */
typedef struct { PassCtx *ctx; Function *f; int64_t stages; bool force_os, quiet, head_acc; } Walk;

static bool static_2d(const Expr *x, int64_t d[2]) {
    return x->type && x->type->kind == TY_TILE && x->type->rank == 2 && ir_type_static_dims(x->type, d);
}

/* The store consuming x: the first statement after `at` that is not a load must be
 * `y = tile.store(x, offs, out)`, and x must have no other use. */
static int find_direct_store(Walk *w, StmtList *l, int at, Var *x) {
    for (int j = at + 1; j < l->len; j++) {
        Stmt *s = l->items[j];
        Expr *c = pass_stmt_call(s);
        if (c && pass_is_op(c, OP_TILE_LOAD)) continue;
        if (s->kind != ST_ASSIGN || !pass_is_op(c, OP_TILE_STORE) || c->call.args[0]->kind != EX_VAR ||
            c->call.args[0]->var != x || c->call.args[1]->kind != EX_TUPLE || c->call.args[1]->tuple.n != 2)
            return -1;
        s->assign.value->call.args[0] = ir_const_int(w->ctx->ir, 0, DT_INDEX);   /* probe other uses */
        bool other = ir_stmts_use_var(&w->f->body, x);
        s->assign.value->call.args[0] = ir_ref(x);
        return other ? -1 : j;
    }
    return -1;
}

static void untiled(Walk *w, Expr *call, const char *code, const char *reason) {
    vec_push(&w->ctx->untiled, ((PassUntiled){ w->f->name, call->span, code, arena_strdup(w->ctx->ir->arena, reason) }));
}

/* Rows of the ZN box (32 bytes of elements) of a transposed Mat operand (a tile.transpose_view of an
 * NZ load), else 0: its extracts must start on whole boxes along that axis (chooser.md §12.1). */
static int64_t zn_box_rows(const Expr *x) {
    TileView v = ir_effective_view(x->type);
    int64_t eb = dtype_bytes(x->type->dtype);
    return x->type->space == MS_MAT && v.slayout == TL_COL_MAJOR && v.fractal == 512 && eb > 0 ? 32 / eb : 0;
}

/* (auto_tile.h) */
const char *at_trans_box_align(PassCtx *ctx, const Expr *lhs, const Expr *rhs, int64_t M, int64_t K, TilePassOpts *o) {
    o->lhs_zn_rows = zn_box_rows(lhs);
    o->rhs_zn_rows = zn_box_rows(rhs);
    int64_t al = ctx->target->l0_align;
    if (o->lhs_zn_rows > al && M % o->lhs_zn_rows)
        return arena_printf(ctx->ir->arena, "M = %lld is not a multiple of %lld, the box rows of its transposed %s left "
                            "operand", (long long)M, (long long)o->lhs_zn_rows, dtype_name(lhs->type->dtype));
    if (o->rhs_zn_rows > al && K % o->rhs_zn_rows)
        return arena_printf(ctx->ir->arena, "K = %lld is not a multiple of %lld, the box rows of its transposed %s right "
                            "operand (b_trans); pad K with zeros to %lld", (long long)K, (long long)o->rhs_zn_rows,
                            dtype_name(rhs->type->dtype), (long long)((K + o->rhs_zn_rows - 1) / o->rhs_zn_rows * o->rhs_zn_rows));
    return NULL;
}

static bool choose(Walk *w, Expr *call, int64_t M, int64_t N, int64_t K, L0TileResult *r) {
    Expr *lhs = call->call.args[call->call.op == OP_TILE_MATMUL_ACC ? 1 : 0];
    Expr *rhs = call->call.args[call->call.op == OP_TILE_MATMUL_ACC ? 2 : 1];
    if (K % w->ctx->target->l0_align) {
        pass_hint(w->ctx, call->span, "PH-AT-007", "matmul K = %lld is not a multiple of the cube fractal (%lld); left untiled",
                  (long long)K, (long long)w->ctx->target->l0_align);
        untiled(w, call, "PH-AT-007", arena_printf(w->ctx->ir->arena, "K = %lld is not a multiple of the cube fractal (%lld); "
                "pad K to %lld with zeros to let it be tiled", (long long)K, (long long)w->ctx->target->l0_align,
                (long long)((K / w->ctx->target->l0_align + 1) * w->ctx->target->l0_align)));
        return false;
    }
    TilePassOpts o;
    tile_pass_opts_defaults(&o);
    o.memory_planner = (TileMemoryPlanner)w->ctx->planner;
    o.enable_pypto_l0c_double_buffer = w->ctx->enable_pypto_l0c_double_buffer;
    o.is_matmul_acc = call->call.op == OP_TILE_MATMUL_ACC;
    o.force_output_stationary = w->force_os;
    L0TileConfig cfg;
    if (call->call.op == OP_TILE_MATMUL_BIAS) {
        const char *why = at_bias_config(w->ctx, call, &o, M, N, K, &cfg);
        if (why) {
            pass_hint(w->ctx, call->span, "PH-AT-011", "biased matmul [%lld, %lld] cannot form a legal Bias window: %s; left untiled",
                      (long long)M, (long long)N, why);
            untiled(w, call, "PH-AT-011", why);
            return false;
        }
    } else {
        const char *why = at_trans_box_align(w->ctx, lhs, rhs, M, K, &o);
        if (why) {
            pass_hint(w->ctx, call->span, "PH-AT-007", "matmul %s; left untiled", why);
            untiled(w, call, "PH-AT-007", why);
            return false;
        }
        tile_pass_config(&cfg, w->ctx->target, M, N, K, lhs->type->dtype, rhs->type->dtype, call->type->dtype, &o);
    }
    if (w->force_os) cfg.min_m = M, cfg.min_n = N;      /* the whole output: a K loop only */
    cfg.l0a_bytes /= w->stages;
    cfg.l0b_bytes /= w->stages;
    /* A matmul_acc updates its accumulator in place: the pipeline clones chain one Acc value through
     * (clone j + 1 accumulates onto clone j's result), so they hold no extra L0C between them. */
    if (!o.is_matmul_acc && !w->head_acc) cfg.l0c_bytes /= w->stages;
    char err[512];
    if (!tile_choose_l0(&cfg, r, err, sizeof err)) {
        if (w->quiet) return false;
        pass_hint(w->ctx, call->span, "PH-AT-005", "%s; matmul [%lld, %lld] x [%lld, %lld] left untiled", err,
                  (long long)M, (long long)K, (long long)K, (long long)N);
        untiled(w, call, "PH-AT-005", err);
        return false;
    }
    if (r->perf_hint[0] && !w->quiet) pass_hint(w->ctx, call->span, "PH-AT-008", "%s", r->perf_hint);   /* a fallback tile, still used */
    return true;
}

/* The chooser again, output-stationary and silent: a matmul whose M/N grid has no placement (an
 * accumulating matmul, a result merged at a phi) still gets a K loop when its whole output fits. */
static bool k_only_retry(Walk *w, Expr *c, int64_t M, int64_t N, int64_t K, L0TileResult *r) {
    w->force_os = w->quiet = true;
    bool ok = choose(w, c, M, N, K, r);
    w->force_os = w->quiet = false;
    return ok && r->m == M && r->n == N;
}

/* The whole output fits L0C: the matmul at l->items[at] replaced by its K loop (the caller's
 * accumulator and init_cond carried for matmul_acc); returns the result. */
static Expr *k_loop(Emit *e, StmtList *l, int at, Expr *c, int64_t K, int64_t k) {
    bool acc_form = c->call.op == OP_TILE_MATMUL_ACC;
    int64_t M = ir_type_dim(c->type, 0), N = ir_type_dim(c->type, 1);
    l->len--, memmove(l->items + at, l->items + at + 1, sizeof(Stmt *) * (size_t)(l->len - at));
    Expr *init = acc_form ? c->call.args[0] : NULL, *upred = acc_form && c->call.nargs == 4 ? c->call.args[3] : NULL;
    Expr *final = at_split_k(e, at_idx(e, 0), at_idx(e, 0), M, N, k, K, init, upred);
    return acc_form ? final : at_narrow_rows(e, final, at_idx(e, 0));
}

/* Rewrites l->items[at]; returns how many statements now stand in its place (>= 1). */
static bool tile_one(Walk *w, StmtList *l, int *at) {
    Stmt *s = l->items[*at];
    Expr *c = s->kind == ST_ASSIGN ? s->assign.value : NULL;
    if (!pass_is_op(c, OP_TILE_MATMUL) && !pass_is_op(c, OP_TILE_MATMUL_ACC) && !pass_is_op(c, OP_TILE_MATMUL_BIAS)) return true;
    bool acc_form = c->call.op == OP_TILE_MATMUL_ACC, bias_form = c->call.op == OP_TILE_MATMUL_BIAS;
    Expr *lhs = c->call.args[acc_form], *rhs = c->call.args[acc_form + 1];
    int64_t ld[2], rd[2];
    if (!static_2d(lhs, ld) || !static_2d(rhs, rd)) return true;
    if (!dtype_bytes(lhs->type->dtype) || !dtype_bytes(rhs->type->dtype) || !dtype_bytes(c->type->dtype)) {
        /* before any byte arithmetic (a sub-byte tile has no physical size ptoc can compute) */
        pass_hint(w->ctx, c->span, "PH-AT-003", "matmul with a sub-byte dtype (%s x %s -> %s) is not tiled: the cube path does not support it",
                  dtype_name(lhs->type->dtype), dtype_name(rhs->type->dtype), dtype_name(c->type->dtype));
        untiled(w, c, "PH-AT-003", "a sub-byte dtype");
        return true;
    }
    MemSpace ls = lhs->type->space, rs = rhs->type->space;
    const int64_t *cap = w->ctx->target->capacity;
    if (ls == MS_LEFT || rs == MS_RIGHT) {          /* manual L0 placement: checked, never re-tiled */
        Expr *big = ls == MS_LEFT && ir_tile_physical_bytes(lhs->type, 16) > cap[MS_LEFT] ? lhs
                  : rs == MS_RIGHT && ir_tile_physical_bytes(rhs->type, 16) > cap[MS_RIGHT] ? rhs : NULL;
        if (big) {
            MemSpace sp = big->type->space;
            diag_error(w->ctx->diag, c->span,
                       "matmul operand '%s' in %s is [%lld, %lld] %s and needs %lld bytes, but %s holds %lld bytes; "
                       "keep it in Mat and pass it to the matmul directly so AutoTileMatmulL0 can tile it, or extract a smaller L0 tile manually",
                       big->kind == EX_VAR ? big->var->name : "?", memspace_name(sp), (long long)ir_type_dim(big->type, 0),
                       (long long)ir_type_dim(big->type, 1), dtype_name(big->type->dtype),
                       (long long)ir_tile_physical_bytes(big->type, 16), sp == MS_LEFT ? "L0A" : "L0B", (long long)cap[sp]);
            return false;
        }
        return true;
    }
    /* a Vec right operand cannot feed L0B from L1; a Vec left one is staged to Mat (below) */
    bool vec_left = ls == MS_VEC && rs == MS_MAT && !bias_form;
    if (rs != MS_MAT || (ls != MS_MAT && !vec_left)) return true;
    int64_t M = ld[0], K = ld[1], N = rd[1];
    L0TileResult r;
    if (!choose(w, c, M, N, K, &r)) return true;
    PassTileChoice tc = { w->f->name, c->span, M, N, K, r.m, r.n, r.k, (int)r.stationarity, r.double_buffer_c,
                          r.os_holds_a, r.estimated_cost_cycles };
    vec_push(&w->ctx->tiles, tc);
    if (r.m == M && r.n == N && r.k == K) return true;
    BiasWindows bw;
    if (bias_form && !at_bias_check(w->ctx, w->f, l, *at, c, &r, &bw)) return true;
    Var *x = s->assign.var;
    TileView lv = ir_effective_view(lhs->type);
    int64_t mvalid = M;
    if (lv.nvalid == 2 && !ir_is_const_int(lv.valid_shape[0], &mvalid)) mvalid = M;
    Emit e = { w->ctx, l, *at, s->span, lhs, rhs, c->type->dtype, x->name, mvalid, w->stages > 1 };
    if (vec_left) {
        if (r.m < M || r.n < N) {
            pass_hint(w->ctx, c->span, "PH-AT-006",
                      "matmul output [%lld, %lld] needs an M/N grid (tile %lld x %lld x %lld), which a Vec left operand does not "
                      "support; left untiled", (long long)M, (long long)N, (long long)r.m, (long long)r.n, (long long)r.k);
            untiled(w, c, "PH-AT-006", "a Vec left operand with an M/N grid");
            return true;
        }
        e.lhs = at_stage_to_mat(&e, lhs);       /* one Vec -> Mat move before the loop; the extracts read it */
    }
    Expr *final;
    VarMap m = {0};
    if (bias_form && r.m == M && r.n == N) {
        l->len--, memmove(l->items + *at, l->items + *at + 1, sizeof(Stmt *) * (size_t)(l->len - *at));
        final = at_narrow_rows(&e, at_split_k_bias(&e, at_idx(&e, 0), at_idx(&e, 0), M, N, r.k, K, c->call.args[2]), at_idx(&e, 0));
        ir_varmap_put(&m, x, final);
    } else if (r.m == M && r.n == N) {
        ir_varmap_put(&m, x, k_loop(&e, l, *at, c, K, r.k));
    } else {
        int st = acc_form ? -1 : find_direct_store(w, l, *at, x);
        int chained = st < 0 && !acc_form && !bias_form ? at_chain_grid(&e, w->f, &r, M, N, K) : 0;
        if (chained > 0) *at = e.at - 1;
        if (chained) return true;
        L0TileResult os;
        if (st < 0 && !bias_form && k_only_retry(w, c, M, N, K, &os)) {
            r = os;                                 /* an output-stationary K loop fits: no grid needed */
            w->ctx->tiles.data[w->ctx->tiles.len - 1] = (PassTileChoice){ w->f->name, c->span, M, N, K, r.m, r.n, r.k,
                (int)r.stationarity, r.double_buffer_c, r.os_holds_a, r.estimated_cost_cycles };
            ir_varmap_put(&m, x, k_loop(&e, l, *at, c, K, r.k));
            ir_subst_stmts(w->ctx->ir, &w->f->body, &m);
            ir_varmap_free(&m);
            *at = e.at - 1;
            return true;
        }
        if (st < 0) {
            if (at_already_untiled(w->ctx, c->span)) return true;   /* a split-K chain's own PH-AT-006 */
            pass_hint(w->ctx, c->span, "PH-AT-006",
                      "%smatmul output [%lld, %lld] needs an M/N grid (tile %lld x %lld x %lld) but no supported placement applies "
                      "(it must be a fresh matmul consumed by one tile.store); left untiled",
                      bias_form ? "biased " : "", (long long)M, (long long)N, (long long)r.m, (long long)r.n, (long long)r.k);
            untiled(w, c, "PH-AT-006", "its M/N grid has no supported placement (it must be a fresh matmul consumed by one tile.store)");
            return true;
        }
        if (bias_form) at_bias_commit(&bw, l, at, &st);
        Stmt *store = l->items[st];
        Expr *sc = store->assign.value;
        Placer pl;
        at_direct_placer(&pl, sc->call.args[1]->tuple.items[0], sc->call.args[1]->tuple.items[1], &sc->call.kwargs);
        Grid g = { M, N, K, r.m, r.n, r.stationarity == STAT_A || (r.stationarity == STAT_OUTPUT && r.os_holds_a),
                   r.double_buffer_c, &pl, bias_form ? at_bias_window : NULL, bias_form ? &bw : NULL };
        Expr *out = sc->call.args[2];
        memmove(l->items + st, l->items + st + 1, sizeof(Stmt *) * (size_t)(l->len - st - 1));
        l->len--;
        memmove(l->items + *at, l->items + *at + 1, sizeof(Stmt *) * (size_t)(l->len - *at - 1));
        l->len--;
        e.at = *at;
        e.base = store->assign.var->name;
        final = r.k < K ? at_split_k_grid(&e, &g, r.k, out) : at_full_k_grid(&e, &g, out);
        ir_varmap_put(&m, store->assign.var, final);
    }
    ir_subst_stmts(w->ctx->ir, &w->f->body, &m);
    ir_varmap_free(&m);
    *at = e.at - 1;
    return true;
}

/* The number of clones LowerPipelineLoops makes of a user pipeline loop (1 for any other loop): a
 * loop of T iterations has at most T clones, whatever stage= asks (stage=64 over 4 chunks cut every
 * L0 tile to 1/64 and the kernel to thousands of tiny matmuls). */
static int64_t pipeline_clones(const Stmt *s) {
    const AttrVal *st = ir_attr_get(&s->for_.attrs, "pipeline_stages");
    int64_t a, b, d, span;
    if (!st || st->kind != AV_INT || st->i <= 1) return 1;
    int64_t clones = st->i;
    if (ir_is_const_int(s->for_.start, &a) && ir_is_const_int(s->for_.stop, &b) && ir_is_const_int(s->for_.step, &d) &&
        d > 0 && b > a && checked_sub(b, a, &span) && (span - 1) / d + 1 < clones)
        clones = (span - 1) / d + 1;
    return clones;
}

/* Clones of the pipeline loop later in l whose carried value starts as the result of l->items[i] (a
 * fresh tile.matmul heading a matmul_acc chain), else 1. */
static int64_t heads_pipeline(const StmtList *l, int i) {
    const Stmt *s = l->items[i];
    if (s->kind != ST_ASSIGN || !pass_is_op(s->assign.value, OP_TILE_MATMUL)) return 1;
    for (int j = i + 1; j < l->len; j++) {
        const Stmt *f = l->items[j];
        if (f->kind != ST_FOR) continue;
        for (int a = 0; a < f->for_.iter_args.len; a++) {
            const Expr *init = f->for_.iter_args.items[a]->init;
            if (init && init->kind == EX_VAR && init->var == s->assign.var) return pipeline_clones(f);
        }
    }
    return 1;
}

static bool walk_list(Walk *w, StmtList *l) {
    for (int i = 0; i < l->len; i++) {
        Stmt *s = l->items[i];
        if (s->kind == ST_FOR) {
            int64_t saved = w->stages;
            w->stages *= pipeline_clones(s);
            bool ok = walk_list(w, &s->for_.body);
            w->stages = saved;
            if (!ok) return false;
        }
        if (s->kind == ST_IF && (!walk_list(w, &s->if_.then_body) || !walk_list(w, &s->if_.else_body))) return false;
        if (s->kind == ST_ASSIGN && at_split_k_chain(w->ctx, w->f, l, &i, w->stages)) {
            i--;                                    /* visit the rewritten chain */
            continue;
        }
        if (s->kind == ST_ASSIGN) {
            int64_t saved = w->stages, head = heads_pipeline(l, i);
            w->stages *= head, w->head_acc = head > 1;
            bool ok = at_chain_hook(w->ctx, w->f, l, &i) && tile_one(w, l, &i);
            w->stages = saved, w->head_acc = false;
            if (!ok) return false;
        }
    }
    return true;
}

bool pass_auto_tile_matmul_l0(Program *p, PassCtx *ctx) {
    ctx->counter = 0;
    for (int i = 0; i < p->nfuncs; i++) {
        if (!ir_functype_is_incore(p->funcs[i]->type)) continue;
        Walk w = { ctx, p->funcs[i], 1, false, false, false };
        AtDbcLoops *user_loops = at_dbc_collect(ctx, p->funcs[i]);
        if (!walk_list(&w, &p->funcs[i]->body) || !at_chain_check(ctx, p->funcs[i])) return false;
        at_pipeline_dbc(ctx, p->funcs[i], user_loops);
    }
    return true;
}
