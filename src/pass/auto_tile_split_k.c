/* AutoTileMatmulL0 — the canonical split-K chain (reference/autotile_matmul_l0_pass.md, "A canonical
 * frontend split-K reduction"; spec ir_and_passes.md §8.6 item 5; issue #2232).
 * Requires: SSA; the driver's walk positioned on a `tile.create([M, N], target_memory=Acc)`.
 * Produces: when the chain's physical [M, N] Acc exceeds the L0C budget, one legal [m, n] Acc create,
 *           one clone of the whole source K loop with both loads narrowed to the sub-tile's window, and
 *           one `tile.store` at the sub-tile offset per output sub-tile (mi, ni), the output tensor
 *           chained through the stores. The clone keeps the source spelling (predicated or peeled).
 * Does: matches create -> one loop carrying it -> one 2-D store of the loop's result; the loop body
 *       may hold only scalar address arithmetic, two full-panel GM->Mat loads (each possibly read
 *       through a tile.transpose_view: then the A^T load is narrowed on its columns, the B^T load
 *       on its rows) and the reduction:
 *         predicated: acc2 = tile.matmul_acc(acc, lhs, rhs, <seed test>)
 *         peeled:     if <seed test>: tile.matmul(lhs, rhs) else: tile.matmul_acc(acc, lhs, rhs)
 *       where a seed test is `x == 0` with x this loop's induction variable, or a body-local
 *       `x = iv * C` (C a nonzero constant). Slicing the final Acc would still need the impossible
 *       [M, N] allocation, so the grid must enclose the reduction. A chain that exceeds L0C but is
 *       not canonical gets PH-AT-006 naming why, and is left unchanged. */
#include "pass/auto_tile.h"

#include <string.h>

typedef struct Chain {
    Stmt *create, *loop, *store;
    Var *iv, *acc;                  /* induction variable, the loop's accumulator iter-arg */
    Stmt *lload, *rload;            /* the lhs / rhs GM->Mat loads in the body */
    Expr *red;                      /* the predicated matmul_acc, or the peeled branch's matmul_acc */
    int64_t M, N, K;
    bool ltrans, rtrans;            /* the operand is a tile.transpose_view of its load (a_trans / b_trans) */
} Chain;

static Expr *assign_call(Stmt *s, OpId op) {
    Expr *c = s && s->kind == ST_ASSIGN ? s->assign.value : NULL;
    return pass_is_op(c, op) ? c : NULL;
}

static bool is_var(const Expr *e, const Var *v) { return e && e->kind == EX_VAR && e->var == v; }

/* `x == 0` with x the induction variable, or a body-local `x = iv * C` (C != 0). */
static bool seed_test(const Chain *ch, const Expr *cond) {
    int64_t z, k;
    if (!cond || cond->kind != EX_BINARY || cond->bin.op != BIN_EQ || !ir_is_const_int(cond->bin.rhs, &z) || z != 0 ||
        cond->bin.lhs->kind != EX_VAR)
        return false;
    Var *x = cond->bin.lhs->var;
    if (x == ch->iv) return true;
    StmtList *b = &ch->loop->for_.body;
    for (int i = 0; i < b->len; i++) {
        Stmt *s = b->items[i];
        if (s->kind != ST_ASSIGN || s->assign.var != x) continue;
        Expr *v = s->assign.value;
        if (v->kind != EX_BINARY || v->bin.op != BIN_MUL) return false;
        return (is_var(v->bin.lhs, ch->iv) && ir_is_const_int(v->bin.rhs, &k) && k != 0) ||
               (is_var(v->bin.rhs, ch->iv) && ir_is_const_int(v->bin.lhs, &k) && k != 0);
    }
    return false;
}

/* A direct GM -> Mat load of a static, fully valid 2-D panel defining operand `op`, or viewed
 * transposed by it (`op = tile.transpose_view(load)`: *trans set, d the view's dims). */
static Stmt *panel_load(StmtList *b, const Expr *op, int64_t d[2], bool *trans) {
    if (!op || op->kind != EX_VAR) return NULL;
    *trans = false;
    for (int i = 0; i < b->len; i++) {
        Expr *v = assign_call(b->items[i], OP_TILE_TRANSPOSE_VIEW);
        if (!v || b->items[i]->assign.var != op->var) continue;
        bool inner;
        Stmt *ld = panel_load(b, v->call.args[0], d, &inner);
        if (!ld || inner) return NULL;
        int64_t t = d[0];
        d[0] = d[1], d[1] = t;
        *trans = true;
        return ld;
    }
    for (int i = 0; i < b->len; i++) {
        Expr *c = assign_call(b->items[i], OP_TILE_LOAD);
        if (!c || b->items[i]->assign.var != op->var) continue;
        if (c->type->space != MS_MAT || c->call.args[0]->type->kind != TY_TENSOR || c->type->rank != 2 ||
            !ir_type_static_dims(c->type, d) || c->call.args[1]->kind != EX_TUPLE || c->call.args[1]->tuple.n != 2)
            return NULL;
        TileView v = ir_effective_view(c->type);
        int64_t vr, vc;
        if (v.nvalid == 2 && (!ir_is_const_int(v.valid_shape[0], &vr) || !ir_is_const_int(v.valid_shape[1], &vc) ||
                              vr != d[0] || vc != d[1]))
            return NULL;
        return b->items[i];
    }
    return NULL;
}

/* The reduction statement(s): returns why the body is not canonical, or NULL (ch->red set). */
static const char *match_reduction(Chain *ch, Stmt *s, const Expr *yielded) {
    Expr *c = assign_call(s, OP_TILE_MATMUL_ACC);
    if (c) {
        if (!is_var(yielded, s->assign.var)) return "the loop does not yield its matmul_acc result";
        if (c->call.nargs != 4) return "its tile.matmul_acc has no init_cond, so the placeholder would be accumulated into";
        if (!is_var(c->call.args[0], ch->acc)) return "its tile.matmul_acc does not accumulate into the loop's iter-arg";
        if (!seed_test(ch, c->call.args[3]))
            return "init_cond is not a split-K seed test on this loop's induction variable (`kb == 0`, or `k0 == 0` with "
                   "k0 = kb * C): a caller flag or another loop's variable does not prove the accumulator is overwritten on "
                   "the first K block";
        ch->red = c;
        return NULL;
    }
    if (s->kind != ST_IF || s->if_.return_vars.len != 1 || !is_var(yielded, s->if_.return_vars.items[0]) ||
        s->if_.then_body.len != 2 || s->if_.else_body.len != 2)
        return "its body holds a statement other than scalar address arithmetic, the two operand loads and the reduction";
    if (!seed_test(ch, s->if_.cond))
        return "the peeled branch's condition is not a split-K seed test on this loop's induction variable";
    Expr *first = assign_call(s->if_.then_body.items[0], OP_TILE_MATMUL);
    Expr *later = assign_call(s->if_.else_body.items[0], OP_TILE_MATMUL_ACC);
    Stmt *ty = s->if_.then_body.items[1], *ey = s->if_.else_body.items[1];
    if (!first || !later || later->call.nargs != 3 || !is_var(later->call.args[0], ch->acc) || ty->kind != ST_YIELD ||
        ey->kind != ST_YIELD || ty->yield.n != 1 || ey->yield.n != 1 ||
        !is_var(ty->yield.values[0], s->if_.then_body.items[0]->assign.var) ||
        !is_var(ey->yield.values[0], s->if_.else_body.items[0]->assign.var) || first->call.nargs != 2 ||
        !is_var(first->call.args[0], later->call.args[1]->kind == EX_VAR ? later->call.args[1]->var : NULL) ||
        !is_var(first->call.args[1], later->call.args[2]->kind == EX_VAR ? later->call.args[2]->var : NULL))
        return "its peeled branch is not `tile.matmul(lhs, rhs)` then `tile.matmul_acc(acc, lhs, rhs)` on the same operands";
    ch->red = later;
    return NULL;
}

/* The loop body: scalar assignments, the two loads, the reduction, the yield. */
static const char *match_body(Chain *ch) {
    StmtList *b = &ch->loop->for_.body;
    Stmt *last = b->len ? b->items[b->len - 1] : NULL;
    if (!last || last->kind != ST_YIELD || last->yield.n != 1) return "its loop does not end in a single yield";
    Stmt *red = NULL;
    for (int i = 0; i < b->len - 1; i++) {
        Stmt *s = b->items[i];
        if (assign_call(s, OP_TILE_LOAD) || assign_call(s, OP_TILE_TRANSPOSE_VIEW)) continue;
        if (s->kind == ST_ASSIGN && s->assign.var->type->kind == TY_SCALAR && s->assign.value->kind != EX_CALL) continue;
        if (red) return "its body holds a statement other than scalar address arithmetic, the two operand loads and the reduction";
        red = s;
    }
    if (!red) return "its loop holds no reduction";
    const char *why = match_reduction(ch, red, last->yield.values[0]);
    if (why) return why;
    int64_t ld[2], rd[2];
    Expr *lhs = ch->red->call.args[1], *rhs = ch->red->call.args[2];
    ch->lload = panel_load(b, lhs, ld, &ch->ltrans);
    ch->rload = panel_load(b, rhs, rd, &ch->rtrans);
    if (!ch->lload || !ch->rload || ch->lload == ch->rload)
        return "its operands are not two distinct per-iteration GM->Mat tile.loads of full static panels (or transpose_views "
               "of them)";
    int nloads = 0, nviews = 0;
    for (int i = 0; i < b->len; i++) nloads += assign_call(b->items[i], OP_TILE_LOAD) != NULL;
    for (int i = 0; i < b->len; i++) nviews += assign_call(b->items[i], OP_TILE_TRANSPOSE_VIEW) != NULL;
    if (nloads != 2) return "its body loads tiles the reduction does not use";
    if (nviews != ch->ltrans + ch->rtrans) return "its body views tiles the reduction does not use";
    if (ld[0] != ch->M || rd[1] != ch->N || ld[1] != rd[0])
        return "its operand panels do not cover the accumulator's [M, N]";
    ch->K = ld[1];
    return NULL;
}

/* create at l[i], the loop carrying it at l[i + 1], its one use a 2-D store at l[i + 2]. Returns
 * false when the statements do not even look like the chain; *why says what breaks canonicity. */
static bool match_shape(Function *f, StmtList *l, int i, Chain *ch, const char **why) {
    Expr *cr = assign_call(l->items[i], OP_TILE_CREATE);
    int64_t d[2];
    if (!cr || cr->type->space != MS_ACC || cr->type->rank != 2 || !ir_type_static_dims(cr->type, d) || i + 1 >= l->len)
        return false;
    Stmt *loop = l->items[i + 1];
    if (loop->kind != ST_FOR || loop->for_.iter_args.len < 1 || !is_var(loop->for_.iter_args.items[0]->init, l->items[i]->assign.var))
        return false;
    *ch = (Chain){ l->items[i], loop, NULL, loop->for_.loop_var, loop->for_.iter_args.items[0], NULL, NULL, NULL, d[0], d[1], 0, false, false };
    *why = NULL;
    if (loop->for_.iter_args.len != 1 || loop->for_.return_vars.len != 1) {
        *why = "its loop carries more than the accumulator";
        return true;
    }
    Var *rv = loop->for_.return_vars.items[0];
    Expr *st = i + 2 < l->len ? assign_call(l->items[i + 2], OP_TILE_STORE) : NULL;
    if (!st || !is_var(st->call.args[0], rv) || st->call.args[1]->kind != EX_TUPLE || st->call.args[1]->tuple.n != 2) {
        *why = "the loop's result is not stored right after it by one 2-D tile.store";
        return true;
    }
    /* SSA: the result and the placeholder can only be used after their definitions (the parser may
     * share the iter-arg and the result Var, so the loop itself is not probed) */
    Expr *probe = st->call.args[0];
    st->call.args[0] = st->call.args[1]->tuple.items[0];
    StmtList rest = { l->items + i + 2, l->len - i - 2, l->len - i - 2 };
    bool other = ir_stmts_use_var(&rest, rv) || ir_stmts_use_var(&rest, l->items[i]->assign.var);
    st->call.args[0] = probe;
    if (other) {
        *why = "the loop's result has uses besides its store";
        return true;
    }
    ch->store = l->items[i + 2];
    return true;
}

/* Box rows / cols of a tile's effective layout (the granularity its physical shape is padded to;
 * the same rule as ir_tile_physical_bytes). */
static void box_of(const Type *t, int64_t *r0, int64_t *c0) {
    TileView v = ir_effective_view(t);
    int eb = dtype_bytes(t->dtype);
    *r0 = *c0 = 1;
    if (v.slayout != TL_NONE_BOX) {
        if (v.fractal == 1024) *r0 = *c0 = 16;
        else if (v.slayout == TL_ROW_MAJOR) *r0 = 16, *c0 = 32 / eb;
        else *r0 = 32 / eb, *c0 = 16;
    } else if (v.blayout == TL_ROW_MAJOR) *c0 = 32 / eb;
    else *r0 = 32 / eb;
}

/* The clones LowerPipelineLoops makes of a loop (the driver's rule: stage=, capped at its trips). */
static int64_t loop_clones(const Stmt *s) {
    const AttrVal *st = ir_attr_get(&s->for_.attrs, "pipeline_stages");
    int64_t a, b, d, span;
    if (!st || st->kind != AV_INT || st->i <= 1) return 1;
    int64_t clones = st->i;
    if (ir_is_const_int(s->for_.start, &a) && ir_is_const_int(s->for_.stop, &b) && ir_is_const_int(s->for_.step, &d) && d > 0 &&
        b > a && checked_sub(b, a, &span) && (span - 1) / d + 1 < clones)
        clones = (span - 1) / d + 1;
    return clones;
}

/* (m, n) for the chain: output-stationary, the operands' Mat boxes charged, the L0 budgets of the
 * call inside the cloned loop (the driver divides them by the same stage product). */
static bool choose_chain(PassCtx *ctx, const Chain *ch, int64_t stages, L0TileResult *r, char *err, size_t errn) {
    Expr *lhs = ch->red->call.args[1], *rhs = ch->red->call.args[2];
    TilePassOpts o;
    tile_pass_opts_defaults(&o);
    o.memory_planner = (TileMemoryPlanner)ctx->planner;
    o.force_output_stationary = true;
    o.is_matmul_acc = true;
    int64_t r0, c0;
    box_of(lhs->type, &o.box_align_m, &c0);
    box_of(rhs->type, &r0, &o.box_align_n);
    L0TileConfig cfg;
    const char *why = at_trans_box_align(ctx, lhs, rhs, ch->M, ch->K, &o);
    if (why) {
        snprintf(err, errn, "%s", why);
        return false;
    }
    tile_pass_config(&cfg, ctx->target, ch->M, ch->N, ch->K, lhs->type->dtype, rhs->type->dtype, ch->red->type->dtype, &o);
    cfg.allow_double_buffer_c = false;      /* the carried accumulator has one L0C buffer */
    cfg.l0a_bytes /= stages;
    cfg.l0b_bytes /= stages;
    /* peeled: the first block's fresh tile.matmul owns an Acc of its own in every pipeline clone,
     * live beside the carried accumulator (the phi does not share it) */
    cfg.l0c_bytes /= ch->red->call.nargs == 3 ? stages + 1 : stages;
    return tile_choose_l0(&cfg, r, err, errn);
}

/* Narrows a cloned load to rows (rows) or columns (!rows) [o, o + ext) of its panel; re-deduced. */
static void narrow_load(PassCtx *ctx, Stmt *s, bool rows, Expr *o, int64_t ext) {
    Expr *c = s->assign.value;
    int ax = rows ? 0 : 1;
    Emit e = { .ctx = ctx };
    Expr **offs = c->call.args[1]->tuple.items;
    Expr *no[2] = { offs[0], offs[1] };
    no[ax] = at_add(&e, offs[ax], o);
    c->call.args[1] = ir_tuple(ctx->ir, no, 2);
    for (int a = 2; a < c->call.nargs && a < 4; a++) {
        int64_t d[2] = { 0, 0 };
        Expr **it = c->call.args[a]->tuple.items;
        ir_is_const_int(it[0], &d[0]), ir_is_const_int(it[1], &d[1]);
        d[ax] = ext;
        c->call.args[a] = ir_int_tuple(ctx->ir, d, 2);
    }
    bool ok = ir_deduce_call(ctx->ir, c);
    PTOC_ASSERT(ok, "split-K chain: narrowed load does not type");
    pass_var_set_type(s->assign.var, c->type);
}

/* Re-types a cloned body after its loads were narrowed: every tile call re-deduced in order, the
 * phis and yields following. */
static void retype_list(PassCtx *ctx, StmtList *b) {
    for (int i = 0; i < b->len; i++) {
        Stmt *s = b->items[i];
        if (s->kind == ST_ASSIGN && s->assign.value->kind == EX_CALL && s->assign.value->call.op != OP_NONE) {
            bool ok = ir_deduce_call(ctx->ir, s->assign.value);
            PTOC_ASSERT(ok, "split-K chain: cloned %s does not type", ir_op_info(s->assign.value->call.op)->name);
            pass_var_set_type(s->assign.var, s->assign.value->type);
        } else if (s->kind == ST_IF) {
            retype_list(ctx, &s->if_.then_body);
            retype_list(ctx, &s->if_.else_body);
            Stmt *y = s->if_.then_body.items[s->if_.then_body.len - 1];
            pass_var_set_type(s->if_.return_vars.items[0], y->yield.values[0]->type);
        }
    }
}

/* The corresponding statement of a clone: the same position in the same list shape. */
static Stmt *twin(StmtList *src, StmtList *dst, Stmt *s) {
    for (int i = 0; i < src->len; i++)
        if (src->items[i] == s) return dst->items[i];
    PTOC_UNREACHABLE("split-K chain: statement not in its loop body");
}

/* One output sub-tile: [ms, ns] seed, the cloned K loop over narrowed loads, the store. */
static Expr *emit_sub_tile(Emit *e, const Chain *ch, const Placer *pl, int64_t mi, int64_t ni, int64_t ms, int64_t ns, Expr *out) {
    PassCtx *ctx = e->ctx;
    Expr *seed = at_create(e, ms, ns, ch->red->type->dtype, MS_ACC, "acc_init");
    VarMap m = {0};
    ir_varmap_put(&m, ch->create->assign.var, seed);
    Stmt *loop = ir_clone_stmt(ctx->ir, ch->loop, &m);
    ir_varmap_free(&m);
    StmtList *src = &ch->loop->for_.body, *dst = &loop->for_.body;
    narrow_load(ctx, twin(src, dst, ch->lload), !ch->ltrans, at_idx(e, mi), ms);   /* A^T [K, M]: M is its columns */
    narrow_load(ctx, twin(src, dst, ch->rload), ch->rtrans, at_idx(e, ni), ns);     /* B^T [N, K]: N is its rows */
    pass_var_set_type(loop->for_.iter_args.items[0], seed->type);
    retype_list(ctx, dst);
    Stmt *y = dst->items[dst->len - 1];
    /* the parser may share one Var between the iter-arg and the result; the clone's result is a plain
     * Var of its own (as the printed `x = pl.yield_(...)` reads back) */
    Var *rv = ir_var_new(ctx->ir, loop->for_.return_vars.items[0]->name, y->yield.values[0]->type);
    rv->span = loop->for_.return_vars.items[0]->span;
    loop->for_.return_vars.items[0] = rv;
    at_put(e, loop);
    loop->span = ch->loop->span;
    return pl->place(e, pl, ir_ref(loop->for_.return_vars.items[0]), at_idx(e, mi), at_idx(e, ni), out);
}

static void reject(PassCtx *ctx, Function *f, const Chain *ch, const char *why) {
    Span sp = ch->red ? ch->red->span : ch->loop->span;
    pass_hint(ctx, sp, "PH-AT-006",
              "split-K accumulator [%lld, %lld] %s exceeds L0C but the chain is not canonical: %s; left untiled",
              (long long)ch->M, (long long)ch->N, dtype_name(ch->create->assign.var->type->dtype), why);
    vec_push(&ctx->untiled, ((PassUntiled){ f->name, sp, "PH-AT-006",
                                            arena_printf(ctx->ir->arena, "a non-canonical split-K chain: %s", why) }));
}

/* The reduction call of a loop that looks like a chain, for the span of a rejection. */
/* Whether the store's destination and a load's source are one buffer: the grid interleaves stores
 * with reloads, which the untiled chain (all loads before the one store) does not. */
static bool output_is_operand(PassCtx *ctx, Function *f, const Chain *ch) {
    Expr *out = assign_call(ch->store, OP_TILE_STORE)->call.args[2];
    Expr *srcs[2] = { assign_call(ch->lload, OP_TILE_LOAD)->call.args[0], assign_call(ch->rload, OP_TILE_LOAD)->call.args[0] };
    if (out->kind != EX_VAR) return true;
    PassAliases a;
    pass_aliases_build(ctx, &f->body, &a);
    Var *root = pass_alias_root(&a, out->var);
    bool same = false;
    for (int k = 0; k < 2; k++) same |= srcs[k]->kind != EX_VAR || pass_alias_root(&a, srcs[k]->var) == root;
    pass_aliases_free(&a);
    return same;
}

static Expr *any_reduction(StmtList *b) {
    for (int i = 0; i < b->len; i++) {
        Stmt *s = b->items[i];
        Expr *c = assign_call(s, OP_TILE_MATMUL_ACC);
        if (c) return c;
        if (s->kind == ST_IF && (c = any_reduction(&s->if_.else_body))) return c;
    }
    return NULL;
}

int at_split_k_chain(PassCtx *ctx, Function *f, StmtList *l, int *at, int64_t stages) {
    Chain ch;
    const char *why;
    if (!match_shape(f, l, *at, &ch, &why)) return 0;
    int64_t total = stages * loop_clones(ch.loop);
    if (ir_tile_physical_bytes(ch.create->assign.var->type, pass_l0c_align(ctx, ch.create->assign.var->type->dtype)) <=
        ctx->target->capacity[MS_ACC] / total)
        return 0;                        /* fits: the per-call tiling K-tiles the reduction */
    if (!why) why = match_body(&ch);
    if (!why && output_is_operand(ctx, f, &ch))
        why = "its output tensor is also an operand's source: each sub-tile's K loop would reload what an earlier "
              "sub-tile already stored";
    if (why) {
        if (!ch.red) ch.red = any_reduction(&ch.loop->for_.body);
        reject(ctx, f, &ch, why);
        return 0;
    }
    L0TileResult r;
    char err[512];
    if (!choose_chain(ctx, &ch, total, &r, err, sizeof err) || (r.m == ch.M && r.n == ch.N))
        return 0;                        /* the per-call path reports the chooser's verdict */
    Expr *sc = ch.store->assign.value;
    Emit e = { ctx, l, *at, ch.create->span, NULL, NULL, ch.red->type->dtype, ch.store->assign.var->name, ch.M, false };
    Placer pl;
    at_direct_placer(&pl, sc->call.args[1]->tuple.items[0], sc->call.args[1]->tuple.items[1], &sc->call.kwargs);
    l->len -= 3;
    memmove(l->items + *at, l->items + *at + 3, sizeof(Stmt *) * (size_t)(l->len - *at));
    Expr *out = sc->call.args[2];
    for (int64_t mi = 0; mi < ch.M; mi += r.m)
        for (int64_t ni = 0; ni < ch.N; ni += r.n)
            out = emit_sub_tile(&e, &ch, &pl, mi, ni, ch.M - mi < r.m ? ch.M - mi : r.m, ch.N - ni < r.n ? ch.N - ni : r.n, out);
    VarMap m = {0};
    ir_varmap_put(&m, ch.store->assign.var, out);
    ir_subst_stmts(ctx->ir, &f->body, &m);
    ir_varmap_free(&m);
    return 1;                            /* *at unchanged: the driver now visits the first new statement */
}

bool at_already_untiled(PassCtx *ctx, Span sp) {
    for (int i = 0; i < ctx->untiled.len; i++) {
        Span u = ctx->untiled.data[i].span;
        if (u.file == sp.file && u.line == sp.line && u.col == sp.col) return true;
    }
    return false;
}
