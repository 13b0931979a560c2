/* AutoTileMatmulL0 — the M/N grid builders and the sub-tile placers.
 * Requires: the chooser's (m, n, k) with m < M or n < N (the whole Acc would overflow L0C); a placer.
 * Produces: cdiv(M, m) x cdiv(N, n) output sub-tiles of logical extent [min(m, M - mi), min(n, N - ni)],
 *           each handed to the placer, the placed state (output tensor or Mat scratch) chained in SSA:
 *           split K (k < K) — one K loop per sub-tile, row-major; full K (k == K) — a Sequential outer
 *           loop owning the stationary panel (rows for A- or output-stationary holding A, columns
 *           otherwise) around a 2-stage pipelined inner sweep over the moving axis, boundary blocks
 *           peeled straight-line (the L-shaped peel).
 * Does: placers — direct store: `tile.store(sub, [br + mi, bc + ni], out)`; Mat scratch:
 *       `tile.assemble(scratch, sub, [mi, ni])` (Acc -> Mat through the FIXPIPE, in place). */
#include "pass/auto_tile.h"

static Expr *place_store(Emit *e, const Placer *p, Expr *sub, Expr *mi, Expr *ni, Expr *out) {
    sub = at_narrow_rows(e, sub, mi);
    Expr *offs[2] = { at_add(e, p->br, mi), at_add(e, p->bc, ni) };
    Expr *args[3] = { sub, ir_tuple(e->ctx->ir, offs, 2), out };
    Expr *st = at_call(e, OP_TILE_STORE, args, 3, MS_NONE);
    for (int i = 0; p->store_kwargs && i < p->store_kwargs->len; i++)
        ir_attr_set(e->ctx->ir, &st->call.kwargs, p->store_kwargs->items[i].key, p->store_kwargs->items[i].val);
    return ir_ref(at_bind(e, "out", st));
}

static Expr *place_scratch(Emit *e, const Placer *p, Expr *sub, Expr *mi, Expr *ni, Expr *scratch) {
    (void)p;
    Expr *offs[2] = { mi, ni };
    Expr *args[3] = { scratch, sub, ir_tuple(e->ctx->ir, offs, 2) };
    return ir_ref(at_bind(e, "mat", at_call(e, OP_TILE_ASSEMBLE, args, 3, MS_NONE)));
}

void at_direct_placer(Placer *p, Expr *br, Expr *bc, const AttrList *store_kwargs) {
    *p = (Placer){ place_store, br, bc, store_kwargs };
}

void at_scratch_placer(Placer *p) { *p = (Placer){ place_scratch, NULL, NULL, NULL }; }

static Expr *place(Emit *e, const Grid *g, Expr *sub, Expr *mi, Expr *ni, Expr *state) {
    return g->placer->place(e, g->placer, sub, mi, ni, state);
}

/* One full-K output tile: the moving operand's extract, the matmul (biased: with its window), the
 * placement. */
static Expr *full_k_tile(Emit *e, const Grid *g, Var *panel, Expr *mi, Expr *ni, int64_t ms, int64_t ns, Expr *state) {
    Var *mv = g->rows_outer ? at_extract(e, false, at_idx(e, 0), ni, g->K, ns) : at_extract(e, true, mi, at_idx(e, 0), ms, g->K);
    Var *sa = g->rows_outer ? panel : mv, *sb = g->rows_outer ? mv : panel;
    Expr *args[3] = { ir_ref(sa), ir_ref(sb), g->bias ? g->bias(e, g->bias_ud, ni, ns) : NULL };
    Var *cc = at_bind(e, "acc", at_call(e, g->bias ? OP_TILE_MATMUL_BIAS : OP_TILE_MATMUL, args, g->bias ? 3 : 2, MS_NONE));
    return place(e, g, ir_ref(cc), mi, ni, state);
}

/* A loop over `trips` blocks of `step` carrying the placed state; returns the loop, with the body
 * emitter, the loop variable and the iter_arg in *body, *iv, *carry. */
static Stmt *carry_loop(Emit *e, int64_t trips, int64_t step, bool pipelined, Expr *state, Emit *body, Var **iv, Var **carry) {
    IrCtx *c = e->ctx->ir;
    *iv = ir_var_new(c, pass_name(e->ctx, pipelined ? "ni" : "mi", "idx"), ir_scalar_type(c, DT_INDEX));
    Stmt *loop = ir_for(c, *iv, at_idx(e, 0), at_idx(e, trips * step), at_idx(e, step), pipelined ? FK_PIPELINE : FK_SEQUENTIAL);
    if (pipelined) ir_attr_set(c, &loop->for_.attrs, "pipeline_stages", ir_av_int(2));
    *carry = ir_iter_arg_new(c, pass_name(e->ctx, "out", "iter"), state->type, state);
    ir_varlist_push(c, &loop->for_.iter_args, *carry);
    at_put(e, loop);
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

/* Row blocks of the output covered by a loop: only blocks fully inside the valid rows. */
static int64_t full_row_blocks(const Emit *e, int64_t m) { return e->mvalid / m; }

/* The stationary panel at outer offset `o` of extent `os`, then the inner sweep over the moving axis. */
static Expr *full_k_outer_body(Emit *e, const Grid *g, Expr *o, int64_t os, Expr *state) {
    Var *panel = g->rows_outer ? at_extract(e, true, o, at_idx(e, 0), os, g->K) : at_extract(e, false, at_idx(e, 0), o, g->K, os);
    int64_t inner_total = g->rows_outer ? g->N : g->M, step = g->rows_outer ? g->n : g->m;
    int64_t full = g->rows_outer ? inner_total / step : full_row_blocks(e, step), rest = inner_total - full * step;
    if (full >= 2) {
        Emit body;
        Var *iv, *carry;
        Stmt *loop = carry_loop(e, full, step, true, state, &body, &iv, &carry);
        if (g->dbc) {
            ir_attr_set(e->ctx->ir, &loop->for_.attrs, "pipeline_double_buffer_c", ir_av_bool(true));
            ir_attr_set(e->ctx->ir, &loop->for_.attrs, "pipeline_overlap_stores", ir_av_bool(false));
        }
        Expr *y = g->rows_outer ? full_k_tile(&body, g, panel, o, ir_ref(iv), os, step, ir_ref(carry))
                                : full_k_tile(&body, g, panel, ir_ref(iv), o, step, os, ir_ref(carry));
        state = close_loop(e, loop, y);
    } else if (full == 1) {
        state = g->rows_outer ? full_k_tile(e, g, panel, o, at_idx(e, 0), os, step, state)
                              : full_k_tile(e, g, panel, at_idx(e, 0), o, step, os, state);
    }
    if (rest > 0)
        state = g->rows_outer ? full_k_tile(e, g, panel, o, at_idx(e, full * step), os, rest, state)
                              : full_k_tile(e, g, panel, at_idx(e, full * step), o, rest, os, state);
    return state;
}

Expr *at_full_k_grid(Emit *e, const Grid *g, Expr *state) {
    int64_t total = g->rows_outer ? g->M : g->N, step = g->rows_outer ? g->m : g->n;
    int64_t full = g->rows_outer ? full_row_blocks(e, step) : total / step, rest = total - full * step;
    if (full >= 2) {
        Emit body;
        Var *iv, *carry;
        Stmt *loop = carry_loop(e, full, step, false, state, &body, &iv, &carry);
        Expr *y = full_k_outer_body(&body, g, ir_ref(iv), step, ir_ref(carry));
        state = close_loop(e, loop, y);
    } else if (full == 1) {
        state = full_k_outer_body(e, g, at_idx(e, 0), step, state);
    }
    if (rest > 0) state = full_k_outer_body(e, g, at_idx(e, full * step), rest, state);
    return state;
}

Expr *at_split_k_grid(Emit *e, const Grid *g, int64_t k, Expr *state) {
    for (int64_t mi = 0; mi < g->M; mi += g->m)
        for (int64_t ni = 0; ni < g->N; ni += g->n) {
            int64_t ms = g->M - mi < g->m ? g->M - mi : g->m, ns = g->N - ni < g->n ? g->N - ni : g->n;
            Expr *sub = g->bias ? at_split_k_bias(e, at_idx(e, mi), at_idx(e, ni), ms, ns, k, g->K, g->bias(e, g->bias_ud, at_idx(e, ni), ns))
                                : at_split_k(e, at_idx(e, mi), at_idx(e, ni), ms, ns, k, g->K, NULL, NULL);
            state = place(e, g, sub, at_idx(e, mi), at_idx(e, ni), state);
        }
    return state;
}
