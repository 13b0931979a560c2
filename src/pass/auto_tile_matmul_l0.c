/* AutoTileMatmulL0
 * Requires: SSAForm, SplitIncoreOrch, IncoreTileOps (2-D tile ops; operand spaces from their loads).
 * Produces: every Mat-resident tile.matmul / tile.matmul_acc whose operands do not fit L0 rewritten
 *           for the L0 tile (m, n, k) chosen by src/tile (the roofline chooser, config as
 *           chooser.md §13): a 2-stage pipelined K loop with Left/Right extracts and a predicated
 *           matmul_acc (K-boundary tail peeled), and — when m < M or n < N — a direct-store M/N grid
 *           (split K: one K loop per sub-tile; full K: nested loops, the outer one owning the
 *           stationary panel, boundary tiles peeled). A tile.matmul_bias is K-tiled with a head-peeled
 *           first block carrying the bias (its M/N grid with [1, n] bias windows is not done yet:
 *           PH-AT-006; an illegal Bias window: PH-AT-011). Skips come with perf hints
 *           PH-AT-003/005/006/007/011.
 * Does: see reference/autotile_matmul_l0_pass.md; the rewrite never materialises an oversized Acc. */
#include "pass/pass.h"
#include "tile/tile.h"

#include <string.h>

typedef struct {
    PassCtx *ctx;
    StmtList *list;
    int at;                 /* insertion point in list */
    Span span;
    Expr *lhs, *rhs;        /* Mat operands */
    DType acc;
    const char *base;       /* name hint of the result */
    int64_t mvalid;         /* valid rows of the left operand (< its rows when M was padded to the box) */
    const AttrList *store_kwargs;   /* the replaced tile.store's options (atomic add), kept on every sub-store */
} Emit;

static Expr *idx(Emit *e, int64_t v) { return ir_const_int(e->ctx->ir, v, DT_INDEX); }

static Expr *add(Emit *e, Expr *a, Expr *b) {
    int64_t x, y;
    if (ir_is_const_int(a, &x) && ir_is_const_int(b, &y)) return idx(e, x + y);
    if (ir_is_const_int(b, &y) && y == 0) return a;
    if (ir_is_const_int(a, &x) && x == 0) return b;
    return ir_binary(e->ctx->ir, BIN_ADD, a, b);
}

static void put(Emit *e, Stmt *s) {
    s->span = e->span;
    ir_list_insert(e->ctx->ir, e->list, e->at++, s);
}

static Var *bind(Emit *e, const char *suffix, Expr *value) {
    Var *v = ir_var_new(e->ctx->ir, pass_name(e->ctx, e->base, suffix), value->type);
    v->span = e->span;
    put(e, ir_assign(e->ctx->ir, v, value));
    return v;
}

static Expr *call(Emit *e, OpId op, Expr **args, int n, MemSpace target) {
    Expr *c = ir_call(e->ctx->ir, op, args, n);
    c->span = e->span;
    if (target != MS_NONE) ir_attr_set(e->ctx->ir, &c->call.kwargs, "target_memory", ir_av_mem(target));
    bool ok = ir_deduce_call(e->ctx->ir, c);
    PTOC_ASSERT(ok, "AutoTileMatmulL0 built an ill-typed %s", ir_op_info(op)->name);
    return c;
}

static Var *extract(Emit *e, bool left, Expr *r, Expr *c, int64_t rows, int64_t cols) {
    Expr *args[4] = { left ? e->lhs : e->rhs, r, c, ir_int_tuple(e->ctx->ir, (int64_t[]){ rows, cols }, 2) };
    return bind(e, left ? "l0a" : "l0b", call(e, OP_TILE_EXTRACT, args, 4, left ? MS_LEFT : MS_RIGHT));
}

static Var *matmul_acc(Emit *e, Expr *acc, Var *sa, Var *sb, Expr *pred) {
    Expr *args[4] = { acc, ir_ref(sa), ir_ref(sb), pred };
    return bind(e, "acc", call(e, OP_TILE_MATMUL_ACC, args, pred ? 4 : 3, MS_NONE));
}

static Expr *and_pred(Emit *e, Expr *user, Expr *mine) {
    if (!user) return mine;
    return ir_binary(e->ctx->ir, BIN_AND, user, mine);
}

/* One output (sub-)tile with split K over [k0, K): seed, pipelined loop over the full K blocks, peeled
 * tail. init == NULL: fresh matmul (predicated on the first K block); else accumulate into init.
 * user_pred: a caller's init_cond (matmul_acc with 4 operands), composed with ko == k0. */
static Expr *emit_split_k_from(Emit *e, Expr *mi, Expr *ni, int64_t ms, int64_t ns, int64_t k, int64_t k0, int64_t K,
                               Expr *init, Expr *user_pred) {
    IrCtx *c = e->ctx->ir;
    int64_t kf = (K - k0) / k, kt = K - k0 - kf * k;
    Expr *cur = init;
    bool fresh = init == NULL;
    if (fresh) {
        Expr *shape = ir_int_tuple(c, (int64_t[]){ ms, ns }, 2);
        Expr *cr = call(e, OP_TILE_CREATE, &shape, 1, MS_ACC);
        ir_attr_set(c, &cr->call.kwargs, "dtype", ir_av_dtype(e->acc));
        ir_deduce_call(c, cr);
        cur = ir_ref(bind(e, "l0_init", cr));
    }
    if (kf >= 2) {
        Var *ko = ir_var_new(c, pass_name(e->ctx, "ko", "idx"), ir_scalar_type(c, DT_INDEX));
        Stmt *loop = ir_for(c, ko, idx(e, k0), idx(e, k0 + kf * k), idx(e, k), FK_PIPELINE);
        ir_attr_set(c, &loop->for_.attrs, "pipeline_stages", ir_av_int(2));
        Var *it = ir_iter_arg_new(c, pass_name(e->ctx, e->base, "iter"), cur->type, cur);
        ir_varlist_push(c, &loop->for_.iter_args, it);
        put(e, loop);
        Emit body = *e;
        body.list = &loop->for_.body;
        body.at = 0;
        Var *sa = extract(&body, true, mi, ir_ref(ko), ms, k);
        Var *sb = extract(&body, false, ir_ref(ko), ni, k, ns);
        Expr *first = ir_binary(c, BIN_EQ, ir_ref(ko), idx(e, k0));
        Var *acc = matmul_acc(&body, ir_ref(it), sa, sb, fresh ? and_pred(e, NULL, first) : user_pred ? and_pred(e, user_pred, first) : NULL);
        Expr *y = ir_ref(acc);
        ir_list_push(c, &loop->for_.body, ir_yield(c, &y, 1));
        Var *rv = ir_var_new(c, pass_name(e->ctx, e->base, "rv"), acc->type);
        ir_varlist_push(c, &loop->for_.return_vars, rv);
        cur = ir_ref(rv);
    } else if (kf == 1) {
        Var *sa = extract(e, true, mi, idx(e, k0), ms, k);
        Var *sb = extract(e, false, idx(e, k0), ni, k, ns);
        cur = ir_ref(matmul_acc(e, cur, sa, sb, fresh ? ir_const_bool(c, true) : user_pred));
    }
    if (kt > 0) {
        Var *sa = extract(e, true, mi, idx(e, k0 + kf * k), ms, kt);
        Var *sb = extract(e, false, idx(e, k0 + kf * k), ni, kt, ns);
        cur = ir_ref(matmul_acc(e, cur, sa, sb, kf == 0 && fresh ? ir_const_bool(c, true) : NULL));
    }
    return cur;
}

static Expr *emit_split_k(Emit *e, Expr *mi, Expr *ni, int64_t ms, int64_t ns, int64_t k, int64_t K, Expr *init,
                          Expr *user_pred) {
    return emit_split_k_from(e, mi, ni, ms, ns, k, 0, K, init, user_pred);
}

/* A biased matmul with split K (reference pass document, matmul_bias row): the first K block is a
 * head-peeled tile.matmul_bias that applies the bias once, the rest accumulate with matmul_acc —
 * no predicate, no if. */
static Expr *emit_split_k_bias(Emit *e, int64_t M, int64_t N, int64_t k, int64_t K, Expr *bias) {
    int64_t kh = K < k ? K : k;
    Var *sa = extract(e, true, idx(e, 0), idx(e, 0), M, kh);
    Var *sb = extract(e, false, idx(e, 0), idx(e, 0), kh, N);
    Expr *args[3] = { ir_ref(sa), ir_ref(sb), bias };
    Expr *head = ir_ref(bind(e, "acc", call(e, OP_TILE_MATMUL_BIAS, args, 3, MS_NONE)));
    return kh == K ? head : emit_split_k_from(e, idx(e, 0), idx(e, 0), M, N, k, kh, K, head, NULL);
}

/* A tile whose rows [row0, row0 + rows) run past the left operand's valid rows is narrowed with
 * tile.set_validshape, so that its store writes only the valid rows (the padded rows exist only to
 * keep tiles whole boxes). Loop iterations never need it: loops cover fully valid row blocks. */
static Expr *narrow_rows(Emit *e, Expr *tile, Expr *row0) {
    int64_t r0;
    if (!ir_is_const_int(row0, &r0) || r0 + ir_type_dim(tile->type, 0) <= e->mvalid) return tile;
    Expr *args[3] = { tile, idx(e, e->mvalid - r0), tile->type->shape[1] };
    return ir_ref(bind(e, "valid", call(e, OP_TILE_SET_VALIDSHAPE, args, 3, MS_NONE)));
}

/* Row blocks of the output covered by a loop: only blocks fully inside the valid rows. */
static int64_t full_row_blocks(const Emit *e, int64_t m) { return e->mvalid / m; }

/* out' = tile.store(sub, [br + mi, bc + ni], out) */
static Expr *store_sub(Emit *e, Expr *sub, Expr *br, Expr *bc, Expr *mi, Expr *ni, Expr *out) {
    sub = narrow_rows(e, sub, mi);
    Expr *offs[2] = { add(e, br, mi), add(e, bc, ni) };
    Expr *args[3] = { sub, ir_tuple(e->ctx->ir, offs, 2), out };
    Expr *st = call(e, OP_TILE_STORE, args, 3, MS_NONE);
    for (int i = 0; e->store_kwargs && i < e->store_kwargs->len; i++)
        ir_attr_set(e->ctx->ir, &st->call.kwargs, e->store_kwargs->items[i].key, e->store_kwargs->items[i].val);
    return ir_ref(bind(e, "out", st));
}

typedef struct { Expr *br, *bc; int64_t M, N, K, m, n; bool rows_outer, dbc; } Grid;

/* One full-K output tile: the moving operand's extract, the matmul and the store. */
static Expr *full_k_tile(Emit *e, const Grid *g, Var *panel, Expr *mi, Expr *ni, int64_t ms, int64_t ns, Expr *out) {
    Var *mv = g->rows_outer ? extract(e, false, idx(e, 0), ni, g->K, ns) : extract(e, true, mi, idx(e, 0), ms, g->K);
    Var *sa = g->rows_outer ? panel : mv, *sb = g->rows_outer ? mv : panel;
    Expr *args[2] = { ir_ref(sa), ir_ref(sb) };
    Var *cc = bind(e, "acc", call(e, OP_TILE_MATMUL, args, 2, MS_NONE));
    return store_sub(e, ir_ref(cc), g->br, g->bc, mi, ni, out);
}

/* A loop over `trips` blocks of `step` with the output tensor carried; returns the loop body
 * emitter, the loop variable and the iter_arg through *body, *iv, *carry. */
static Stmt *carry_loop(Emit *e, int64_t trips, int64_t step, bool pipelined, Expr *out, Emit *body, Var **iv, Var **carry) {
    IrCtx *c = e->ctx->ir;
    *iv = ir_var_new(c, pass_name(e->ctx, pipelined ? "ni" : "mi", "idx"), ir_scalar_type(c, DT_INDEX));
    Stmt *loop = ir_for(c, *iv, idx(e, 0), idx(e, trips * step), idx(e, step), pipelined ? FK_PIPELINE : FK_SEQUENTIAL);
    if (pipelined) ir_attr_set(c, &loop->for_.attrs, "pipeline_stages", ir_av_int(2));
    *carry = ir_iter_arg_new(c, pass_name(e->ctx, "out", "iter"), out->type, out);
    ir_varlist_push(c, &loop->for_.iter_args, *carry);
    put(e, loop);
    *body = *e;
    body->list = &loop->for_.body;
    body->at = 0;
    return loop;
}

static Expr *close_loop(Emit *e, Stmt *loop, Expr *yielded) {
    IrCtx *c = e->ctx->ir;
    ir_list_push(c, &loop->for_.body, ir_yield(c, &yielded, 1));
    Var *rv = ir_var_new(c, pass_name(e->ctx, "out", "rv"), yielded->type);
    ir_varlist_push(c, &loop->for_.return_vars, rv);
    return ir_ref(rv);
}

/* The stationary panel at outer offset `o` of extent `os`, then the inner sweep over the moving axis. */
static Expr *full_k_outer_body(Emit *e, const Grid *g, Expr *o, int64_t os, Expr *out) {
    Var *panel = g->rows_outer ? extract(e, true, o, idx(e, 0), os, g->K) : extract(e, false, idx(e, 0), o, g->K, os);
    int64_t inner_total = g->rows_outer ? g->N : g->M, step = g->rows_outer ? g->n : g->m;
    int64_t full = g->rows_outer ? inner_total / step : full_row_blocks(e, step), rest = inner_total - full * step;
    if (full >= 2) {
        Emit body;
        Var *iv, *carry;
        Stmt *loop = carry_loop(e, full, step, true, out, &body, &iv, &carry);
        if (g->dbc) {
            ir_attr_set(e->ctx->ir, &loop->for_.attrs, "pipeline_double_buffer_c", ir_av_bool(true));
            ir_attr_set(e->ctx->ir, &loop->for_.attrs, "pipeline_overlap_stores", ir_av_bool(false));
        }
        Expr *y = g->rows_outer ? full_k_tile(&body, g, panel, o, ir_ref(iv), os, step, ir_ref(carry))
                                : full_k_tile(&body, g, panel, ir_ref(iv), o, step, os, ir_ref(carry));
        out = close_loop(e, loop, y);
    } else if (full == 1) {
        out = g->rows_outer ? full_k_tile(e, g, panel, o, idx(e, 0), os, step, out)
                            : full_k_tile(e, g, panel, idx(e, 0), o, step, os, out);
    }
    if (rest > 0)
        out = g->rows_outer ? full_k_tile(e, g, panel, o, idx(e, full * step), os, rest, out)
                            : full_k_tile(e, g, panel, idx(e, full * step), o, rest, os, out);
    return out;
}

static Expr *emit_full_k_grid(Emit *e, const Grid *g, Expr *out) {
    int64_t total = g->rows_outer ? g->M : g->N, step = g->rows_outer ? g->m : g->n;
    int64_t full = g->rows_outer ? full_row_blocks(e, step) : total / step, rest = total - full * step;
    if (full >= 2) {
        Emit body;
        Var *iv, *carry;
        Stmt *loop = carry_loop(e, full, step, false, out, &body, &iv, &carry);
        Expr *y = full_k_outer_body(&body, g, ir_ref(iv), step, ir_ref(carry));
        out = close_loop(e, loop, y);
    } else if (full == 1) {
        out = full_k_outer_body(e, g, idx(e, 0), step, out);
    }
    if (rest > 0) out = full_k_outer_body(e, g, idx(e, full * step), rest, out);
    return out;
}

static Expr *emit_split_k_grid(Emit *e, const Grid *g, int64_t k, Expr *out) {
    for (int64_t mi = 0; mi < g->M; mi += g->m)
        for (int64_t ni = 0; ni < g->N; ni += g->n) {
            int64_t ms = g->M - mi < g->m ? g->M - mi : g->m, ns = g->N - ni < g->n ? g->N - ni : g->n;
            Expr *sub = emit_split_k(e, idx(e, mi), idx(e, ni), ms, ns, k, g->K, NULL, NULL);
            out = store_sub(e, sub, g->br, g->bc, idx(e, mi), idx(e, ni), out);
        }
    return out;
}

/* ---- matching and the chooser call ---- */
/* stages: product of the pipeline_stages of the user loops around the matmul. LowerPipelineLoops
 * clones such a loop's body once per stage, every L0 buffer included, so each clone gets 1/stages
 * of L0A / L0B / L0C. */
typedef struct { PassCtx *ctx; Function *f; int64_t stages; } Walk;

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

static bool choose(Walk *w, Expr *call, int64_t M, int64_t N, int64_t K, L0TileResult *r) {
    Expr *lhs = call->call.args[call->call.op == OP_TILE_MATMUL_ACC ? 1 : 0];
    Expr *rhs = call->call.args[call->call.op == OP_TILE_MATMUL_ACC ? 2 : 1];
    if (!dtype_bytes(lhs->type->dtype) || !dtype_bytes(rhs->type->dtype) || !dtype_bytes(call->type->dtype)) {
        pass_hint(w->ctx, call->span, "PH-AT-003", "matmul with a sub-byte dtype (%s x %s) is not tiled: the cube path does not support it",
                  dtype_name(lhs->type->dtype), dtype_name(rhs->type->dtype));
        untiled(w, call, "PH-AT-003", "a sub-byte dtype");
        return false;
    }
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
    L0TileConfig cfg;
    tile_pass_config(&cfg, w->ctx->target, M, N, K, lhs->type->dtype, rhs->type->dtype, call->type->dtype, &o);
    cfg.l0a_bytes /= w->stages;
    cfg.l0b_bytes /= w->stages;
    cfg.l0c_bytes /= w->stages;
    char err[512];
    if (!tile_choose_l0(&cfg, r, err, sizeof err)) {
        pass_hint(w->ctx, call->span, "PH-AT-005", "%s; matmul [%lld, %lld] x [%lld, %lld] left untiled", err,
                  (long long)M, (long long)K, (long long)K, (long long)N);
        untiled(w, call, "PH-AT-005", err);
        return false;
    }
    return true;
}

/* A biased matmul's [1, N] bias must form a legal Bias window (chooser.md §13, biased matmul): M and
 * N whole fractals, the bias within the Bias buffer (ptoc does not sub-window it yet). Else
 * PH-AT-011 and the call is left unchanged. */
static bool bias_window_ok(Walk *w, Expr *call, int64_t M, int64_t N) {
    const Target *t = w->ctx->target;
    int64_t bytes = N * dtype_bytes(call->type->dtype), align = t->l0_align;
    const char *why = NULL;
    if (M % align || N % align)
        why = arena_printf(w->ctx->ir->arena, "M = %lld and N = %lld must be multiples of the cube fractal (%lld)", (long long)M,
                           (long long)N, (long long)align);
    else if (bytes > t->bias_bytes)
        why = arena_printf(w->ctx->ir->arena, "its [1, %lld] %s bias needs %lld bytes of Bias, which holds %lld", (long long)N,
                           dtype_name(call->type->dtype), (long long)bytes, (long long)t->bias_bytes);
    if (!why) return true;
    pass_hint(w->ctx, call->span, "PH-AT-011", "biased matmul [%lld, %lld] cannot form a legal Bias window: %s; left untiled",
              (long long)M, (long long)N, why);
    untiled(w, call, "PH-AT-011", why);
    return false;
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
    if (rs != MS_MAT || ls != MS_MAT) return true;   /* Vec operands: not auto-tiled (yet) */
    int64_t M = ld[0], K = ld[1], N = rd[1];
    if (bias_form && !bias_window_ok(w, c, M, N)) return true;
    L0TileResult r;
    if (!choose(w, c, M, N, K, &r)) return true;
    PassTileChoice tc = { w->f->name, c->span, M, N, K, r.m, r.n, r.k, (int)r.stationarity, r.double_buffer_c,
                          r.os_holds_a, r.estimated_cost_cycles };
    vec_push(&w->ctx->tiles, tc);
    if (r.m == M && r.n == N && r.k == K) return true;
    Var *x = s->assign.var;
    TileView lv = ir_effective_view(lhs->type);
    int64_t mvalid = M;
    if (lv.nvalid == 2 && !ir_is_const_int(lv.valid_shape[0], &mvalid)) mvalid = M;
    Emit e = { w->ctx, l, *at, s->span, lhs, rhs, c->type->dtype, x->name, mvalid, NULL };
    Expr *final;
    VarMap m = {0};
    if (bias_form && (r.m < M || r.n < N)) {
        pass_hint(w->ctx, c->span, "PH-AT-006",
                  "biased matmul output [%lld, %lld] needs an M/N grid (tile %lld x %lld x %lld): [1, n] bias windows are not "
                  "supported by ptoc yet; left untiled", (long long)M, (long long)N, (long long)r.m, (long long)r.n, (long long)r.k);
        untiled(w, c, "PH-AT-006", "a biased matmul needing an M/N grid (bias windows are not supported yet)");
        return true;
    }
    if (bias_form) {
        l->len--, memmove(l->items + *at, l->items + *at + 1, sizeof(Stmt *) * (size_t)(l->len - *at));
        final = narrow_rows(&e, emit_split_k_bias(&e, M, N, r.k, K, c->call.args[2]), idx(&e, 0));
        ir_varmap_put(&m, x, final);
    } else if (r.m == M && r.n == N) {
        l->len--, memmove(l->items + *at, l->items + *at + 1, sizeof(Stmt *) * (size_t)(l->len - *at));
        Expr *init = acc_form ? c->call.args[0] : NULL, *upred = acc_form && c->call.nargs == 4 ? c->call.args[3] : NULL;
        final = emit_split_k(&e, ir_const_int(w->ctx->ir, 0, DT_INDEX), ir_const_int(w->ctx->ir, 0, DT_INDEX), M, N, r.k, K, init, upred);
        if (!acc_form) final = narrow_rows(&e, final, idx(&e, 0));
        ir_varmap_put(&m, x, final);
    } else {
        int st = acc_form ? -1 : find_direct_store(w, l, *at, x);
        if (st < 0) {
            pass_hint(w->ctx, c->span, "PH-AT-006",
                      "matmul output [%lld, %lld] needs an M/N grid (tile %lld x %lld x %lld) but no supported placement applies "
                      "(it must be a fresh matmul consumed by one tile.store); left untiled",
                      (long long)M, (long long)N, (long long)r.m, (long long)r.n, (long long)r.k);
            untiled(w, c, "PH-AT-006", "its M/N grid has no supported placement (it must be a fresh matmul consumed by one tile.store)");
            return true;
        }
        Stmt *store = l->items[st];
        Expr *sc = store->assign.value;
        Grid g = { sc->call.args[1]->tuple.items[0], sc->call.args[1]->tuple.items[1], M, N, K, r.m, r.n,
                   r.stationarity == STAT_A || (r.stationarity == STAT_OUTPUT && r.os_holds_a), r.double_buffer_c };
        Expr *out = sc->call.args[2];
        memmove(l->items + st, l->items + st + 1, sizeof(Stmt *) * (size_t)(l->len - st - 1));
        l->len--;
        memmove(l->items + *at, l->items + *at + 1, sizeof(Stmt *) * (size_t)(l->len - *at - 1));
        l->len--;
        e.at = *at;
        e.base = store->assign.var->name;
        e.store_kwargs = &sc->call.kwargs;
        final = r.k < K ? emit_split_k_grid(&e, &g, r.k, out) : emit_full_k_grid(&e, &g, out);
        ir_varmap_put(&m, store->assign.var, final);
    }
    ir_subst_stmts(w->ctx->ir, &w->f->body, &m);
    ir_varmap_free(&m);
    *at = e.at - 1;
    return true;
}

static bool walk_list(Walk *w, StmtList *l) {
    for (int i = 0; i < l->len; i++) {
        Stmt *s = l->items[i];
        if (s->kind == ST_FOR) {
            const AttrVal *st = ir_attr_get(&s->for_.attrs, "pipeline_stages");
            int64_t saved = w->stages, a, b, d, span;
            if (st && st->kind == AV_INT && st->i > 1) {
                /* a loop of T iterations has at most T clones, whatever stage= asks (stage=64 over 4
                 * chunks cut every L0 tile to 1/64 and the kernel to thousands of tiny matmuls) */
                int64_t clones = st->i;
                if (ir_is_const_int(s->for_.start, &a) && ir_is_const_int(s->for_.stop, &b) && ir_is_const_int(s->for_.step, &d) &&
                    d > 0 && b > a && checked_sub(b, a, &span) && (span - 1) / d + 1 < clones)
                    clones = (span - 1) / d + 1;
                w->stages *= clones;
            }
            bool ok = walk_list(w, &s->for_.body);
            w->stages = saved;
            if (!ok) return false;
        }
        if (s->kind == ST_IF && (!walk_list(w, &s->if_.then_body) || !walk_list(w, &s->if_.else_body))) return false;
        if (s->kind == ST_ASSIGN && !tile_one(w, l, &i)) return false;
    }
    return true;
}

bool pass_auto_tile_matmul_l0(Program *p, PassCtx *ctx) {
    ctx->counter = 0;
    for (int i = 0; i < p->nfuncs; i++) {
        if (!ir_functype_is_incore(p->funcs[i]->type)) continue;
        Walk w = { ctx, p->funcs[i], 1 };
        if (!walk_list(&w, &p->funcs[i]->body)) return false;
    }
    return true;
}
