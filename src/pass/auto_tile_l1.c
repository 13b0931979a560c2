/* AutoTileL1 — automatic L1 (Mat) tiling of matmuls whose operands exceed the Mat buffer (issue 11;
 * the generated equivalent of walkthrough rung 3).
 *
 * Requires: outlined InCore functions holding tensor-level matmuls (runs right after
 *   OutlineIncoreScopes, before ConvertTensorToTileOps), SSA.
 * Produces: for each `x = tensor.matmul(A, B)` (a_trans / b_trans included) whose operands, counted as
 *   ConvertTensorToTileOps lays them out in Mat (rows boxed to 16, columns to 32 bytes), exceed the Mat
 *   capacity (512 KiB on a2a3 and a5) — or that fit Mat but whose K is not a multiple of the cube
 *   fractal (or of the 32-row box of a transposed INT8 right operand: k_step) and whose operands overflow
 *   L0A / L0B whole (AutoTileMatmulL0 leaves such a matmul untiled; the blocking's K head, a matmul of
 *   its own, makes the rest tileable) — and whose only use is
 *   `y = tensor.assemble(C, x, [o0, o1])`
 *   (a `c[...] = pl.matmul(...)` store): pl.range nests over the full mb x nb output blocks, plus peeled
 *   tail blocks when mb / nb does not divide M / N; each block is
 *     acc = tensor.matmul(A[m0:m0+mb, 0:h], B[0:h, n0:n0+nb])         (h = the head K chunk, K % kb or kb;
 *                                                                     a sub-fractal part of it first)
 *     for k in pl.pipeline(0, T, stage=2): acc = tensor.matmul_acc(acc, A[.., h+k*kb : +kb], B[..])
 *     C = tensor.assemble(C, acc, [o0 + m0, o1 + n0])
 *   with C carried through the loops and y replaced by the final C. AutoTileMatmulL0 then tiles each
 *   chunk for L0 (the carried accumulator as one L0 block).
 * Chooser (auto_tile_l1_choose.c): candidates mb, nb = powers of two from 16 up to 512, each also
 *   balanced (same block count, size ceil(E / blocks) aligned to 16), and the whole extent when <= 512;
 *   kb = powers of two of the K alignment (16; 32 for INT8 or a transposed INT8 right operand) up to
 *   2048, all of K rounded down to the alignment, and chunks of 128..2048 that divide K. Each candidate
 *   is judged under one of two budgets. Conservative (always tried): 3 x (A chunk + B chunk) Mat bytes
 *   <= the budget (the capacity less the operands of the function's matmuls that stay whole) — two
 *   pipeline stage buffers plus the head chunk's own — and L0A/L0B/L0C halved for the stage-2 clones.
 *   Tight (only when mb | M, nb | N and kb | K: one block and chunk shape, the head a full chunk):
 *   2 x (A chunk + B chunk), since MemoryReuse gives the head chunk the last stage's Mat buffers and
 *   AutoTileMatmulL0 tiles the chain head with the loop's per-clone L0 budget, and the whole L0C for
 *   the carried accumulator (the clones chain one value); 6144^3 per core gets 128 x 256 x 256 this way.
 *   Under either: every occurring block shape (full, M tail, N tail, corner) accepted by the L0 chooser
 *   (src/tile) as one output-stationary L0 block of a matmul_acc, N >= 16; and the L0A / L0B bytes the
 *   chosen L0 tiles will occupy — per stage clone one k-tile plus its peeled K-tail tile (Right n boxed
 *   to 16), plus the head chunk's at stage 1, plus a sub-fractal K head's whole operands (its K extent
 *   boxed to 32 bytes) — within L0A / L0B. Objective: sum over blocks of
 *     load + chunks x max(cube, load) + drain,
 *   load = 2 x dma_fixed_cycles + (A chunk + B chunk bytes) / bw_gm_to_mat; cube = the chunk's MAD time
 *   (mad_head per L0 k-step plus one unit per 16 x 16 x K-box fractal, fp32 passes) or its L1 -> L0
 *   extracts (bw_a / bw_b), whichever is longer — they overlap through the ping-pong L0 buffers;
 *   drain = the FIX drain of the accumulator (drain_fixed_cycles + rows x max(drain_row_cycles, row
 *   bytes / bw_drain)). Target numbers, at the GM rate one of the function's blocks gets when its largest
 *   launch streams at once (a call in pl.spmd(core_num=n): min(n, cube cores) blocks, target_share_gm),
 *   as the simulator runs it. Ties: larger blocks, then larger kb.
 *   A result dtype other than the accumulator's (out_dtype=pl.FP16 / BF16): the blocks accumulate in
 *   FP32 as any other, and each block's assemble carries attrs {acc_store} — the store converts the
 *   accumulator (FIXPIPE), one rounding of the whole sum, as the unblocked matmul's result.
 * Hints: PH-L1-001 (done: the matmul's line, operand bytes vs Mat capacity, mb x nb x kb, block and
 *   chunk counts, the double-buffered Mat bytes, the estimate; for a ragged K that fits Mat, why it was
 *   blocked); PH-L1-003 (the driver's: the first blocking did not allocate — the L0 / Mat bytes of
 *   ragged blocks are predicted, not planned — so the program was compiled again with AutoTileL1 judging
 *   against 7/8, 6/8 .. 4/8 of Mat / L0A / L0B, PassCtx.l1_shrink); PH-L1-002 (an overflowing matmul kept
 *   whole: its result is not stored by one assemble, or no blocking fits — the capacity error of
 *   AllocateMemoryAddr then stands).
 * Does: operands that are tensor.slice windows (dynamic offsets included, e.g. AutoSplitCores' block
 *   windows) are re-sliced from their source with composed offsets (ConvertTensorToTileOps loads one
 *   slice level). Matmuls inside user pl.pipeline loops, and everything under --no-auto-l1
 *   (PassCtx.no_auto_l1), are left alone; a matmul whose operands fit is never touched. */
#include "pass/auto_tile_l1.h"

#include <stdlib.h>
#include <string.h>

typedef struct {
    PassCtx *ctx;
    StmtList *list;
    int at;
    Span span;
    const char *base;
} L1Emit;

/* A matmul operand: its source tensor and the window origin in it. */
typedef struct { Expr *src, *o0, *o1; } Win;

typedef struct {
    L1Problem p;
    L1Choice ch;
    Win a, b;
    DType res;                  /* the matmul's result dtype: p.c (the accumulator's) or FP16 / BF16, which the
                                 * final assemble converts to (acc_store) */
    Expr *store_off0, *store_off1;
    bool ragged;                /* fits Mat, but its K is ragged and it does not fit L0 whole (ragged_k_overflows_l0) */
} L1Job;

static Expr *idx(L1Emit *e, int64_t v) { return ir_const_int(e->ctx->ir, v, DT_INDEX); }

static Expr *add(L1Emit *e, Expr *a, Expr *b) {
    int64_t x, y;
    if (ir_is_const_int(a, &x) && ir_is_const_int(b, &y)) return idx(e, x + y);
    if (ir_is_const_int(b, &y) && y == 0) return a;
    if (ir_is_const_int(a, &x) && x == 0) return b;
    return ir_binary(e->ctx->ir, BIN_ADD, a, b);
}

static Var *bind(L1Emit *e, const char *suffix, Expr *value) {
    Var *v = ir_var_new(e->ctx->ir, pass_name(e->ctx, e->base, suffix), value->type);
    v->span = e->span;
    Stmt *s = ir_assign(e->ctx->ir, v, value);
    s->span = e->span;
    ir_list_insert(e->ctx->ir, e->list, e->at++, s);
    return v;
}

static Expr *call(L1Emit *e, OpId op, Expr **args, int n) {
    Expr *c = ir_call(e->ctx->ir, op, args, n);
    c->span = e->span;
    return c;
}

static Expr *deduced(L1Emit *e, Expr *c) {
    bool ok = ir_deduce_call(e->ctx->ir, c);
    PTOC_ASSERT(ok, "AutoTileL1 built an ill-typed %s", ir_op_info(c->call.op)->name);
    return c;
}

/* The [r, c] window of w at (r0, c0) relative to its origin. */
static Expr *slice(L1Emit *e, const Win *w, Expr *r0, Expr *c0, int64_t r, int64_t c, const char *sfx) {
    IrCtx *ic = e->ctx->ir;
    Expr *offs[2] = { add(e, w->o0, r0), add(e, w->o1, c0) };
    Expr *args[3] = { w->src, ir_int_tuple(ic, (int64_t[]){ r, c }, 2), ir_tuple(ic, offs, 2) };
    return ir_ref(bind(e, sfx, deduced(e, call(e, OP_TENSOR_SLICE, args, 3))));
}

/* One K chunk [k0, k0 + kc) of the block at (m0, n0) of [mb, nb]: matmul (acc == NULL) or matmul_acc. */
static Expr *chunk(L1Emit *e, const L1Job *j, Expr *acc, Expr *m0, Expr *n0, int64_t mb, int64_t nb, Expr *k0, int64_t kc) {
    IrCtx *ic = e->ctx->ir;
    Expr *a = j->p.a_trans ? slice(e, &j->a, k0, m0, kc, mb, "l1a") : slice(e, &j->a, m0, k0, mb, kc, "l1a");
    Expr *b = j->p.b_trans ? slice(e, &j->b, n0, k0, nb, kc, "l1b") : slice(e, &j->b, k0, n0, kc, nb, "l1b");
    Expr *args[3] = { acc, a, b };
    Expr *c = acc ? call(e, OP_TENSOR_MATMUL_ACC, args, 3) : call(e, OP_TENSOR_MATMUL, args + 1, 2);
    if (!acc) ir_attr_set(ic, &c->call.kwargs, "out_dtype", ir_av_dtype(j->p.c));   /* the accumulator's */
    if (j->p.a_trans) ir_attr_set(ic, &c->call.kwargs, "a_trans", ir_av_bool(true));
    if (j->p.b_trans) ir_attr_set(ic, &c->call.kwargs, "b_trans", ir_av_bool(true));
    return ir_ref(bind(e, "acc", deduced(e, c)));
}

/* A for loop at the insertion point carrying one value; the body is emitted by the caller between
 * loop_open and loop_close. */
typedef struct { Stmt *s; StmtList *outer; int outer_at; Var *iter; } Loop;

static Loop loop_open(L1Emit *e, const char *var, int64_t trips, ForKind kind, Expr *init) {
    IrCtx *ic = e->ctx->ir;
    Var *lv = ir_var_new(ic, pass_name(e->ctx, var, "l1"), ir_scalar_type(e->ctx->ir, DT_INDEX));
    lv->span = e->span;
    Stmt *s = ir_for(ic, lv, idx(e, 0), idx(e, trips), idx(e, 1), kind);
    s->span = e->span;
    if (kind == FK_PIPELINE) ir_attr_set(ic, &s->for_.attrs, "pipeline_stages", ir_av_int(2));
    Var *it = ir_iter_arg_new(ic, pass_name(e->ctx, e->base, "iter"), init->type, init);
    it->span = e->span;
    ir_varlist_push(ic, &s->for_.iter_args, it);
    ir_list_insert(ic, e->list, e->at++, s);
    Loop l = { s, e->list, e->at, it };
    e->list = &s->for_.body, e->at = 0;
    return l;
}

static Expr *loop_close(L1Emit *e, Loop *l, Expr *yielded) {
    IrCtx *ic = e->ctx->ir;
    Stmt *y = ir_yield(ic, &yielded, 1);
    y->span = e->span;
    ir_list_insert(ic, e->list, e->at++, y);
    Var *rv = ir_var_new(ic, pass_name(e->ctx, e->base, "rv"), yielded->type);
    rv->span = e->span;
    ir_varlist_push(ic, &l->s->for_.return_vars, rv);
    e->list = l->outer, e->at = l->outer_at;
    return ir_ref(rv);
}

/* The block at (m0, n0) of [mb, nb]: the head K chunk (a sub-fractal remainder first, untiled), then
 * the full chunks in a stage-2 pipeline; assembled into C. */
static Expr *block(L1Emit *e, const L1Job *j, Expr *C, Expr *m0, Expr *n0, int64_t mb, int64_t nb) {
    int64_t K = j->p.K, kb = j->ch.kb, kal = j->ch.kal;
    int64_t head = K % kb ? K % kb : kb, trips = (K - head) / kb, h1 = head % kal;
    Expr *acc = chunk(e, j, NULL, m0, n0, mb, nb, idx(e, 0), h1 ? h1 : head);
    if (h1 && head > h1) acc = chunk(e, j, acc, m0, n0, mb, nb, idx(e, h1), head - h1);
    if (trips == 1) acc = chunk(e, j, acc, m0, n0, mb, nb, idx(e, head), kb);
    if (trips > 1) {
        Loop l = loop_open(e, "k", trips, FK_PIPELINE, acc);
        Expr *k0 = add(e, idx(e, head), ir_binary(e->ctx->ir, BIN_MUL, ir_ref(l.s->for_.loop_var), idx(e, kb)));
        Expr *k0v = ir_ref(bind(e, "k0", k0));
        acc = loop_close(e, &l, chunk(e, j, ir_ref(l.iter), m0, n0, mb, nb, k0v, kb));
    }
    Expr *offs[2] = { add(e, j->store_off0, m0), add(e, j->store_off1, n0) };
    Expr *args[3] = { C, acc, ir_tuple(e->ctx->ir, offs, 2) };
    Expr *as = call(e, OP_TENSOR_ASSEMBLE, args, 3);
    if (j->res != j->p.c) ir_attr_set(e->ctx->ir, &as->call.attrs, "acc_store", ir_av_bool(true));
    return ir_ref(bind(e, "l1c", deduced(e, as)));
}

/* The blocks of one (M segment, N segment): `cm` x `cn` blocks of [mb, nb] from (ms, ns), looped when
 * more than one. */
static Expr *segment(L1Emit *e, const L1Job *j, Expr *C, int64_t ms, int64_t cm, int64_t mb, int64_t ns, int64_t cn,
                     int64_t nb) {
    Loop lm, ln;
    Expr *m0 = idx(e, ms), *n0 = idx(e, ns);
    if (cm > 1) {
        lm = loop_open(e, "mb", cm, FK_SEQUENTIAL, C);
        C = ir_ref(lm.iter);
        m0 = ir_ref(bind(e, "m0", add(e, idx(e, ms), ir_binary(e->ctx->ir, BIN_MUL, ir_ref(lm.s->for_.loop_var), idx(e, mb)))));
    }
    if (cn > 1) {
        ln = loop_open(e, "nb", cn, FK_SEQUENTIAL, C);
        C = ir_ref(ln.iter);
        n0 = ir_ref(bind(e, "n0", add(e, idx(e, ns), ir_binary(e->ctx->ir, BIN_MUL, ir_ref(ln.s->for_.loop_var), idx(e, nb)))));
    }
    C = block(e, j, C, m0, n0, mb, nb);
    if (cn > 1) C = loop_close(e, &ln, C);
    if (cm > 1) C = loop_close(e, &lm, C);
    return C;
}

static Expr *emit_all(L1Emit *e, const L1Job *j, Expr *C) {
    int64_t M = j->p.M, N = j->p.N, mb = j->ch.mb, nb = j->ch.nb;
    int64_t fm = M / mb, mt = M % mb, fn = N / nb, nt = N % nb;
    int64_t mseg[2][3] = { { 0, fm, mb }, { fm * mb, mt ? 1 : 0, mt } };
    int64_t nseg[2][3] = { { 0, fn, nb }, { fn * nb, nt ? 1 : 0, nt } };
    for (int a = 0; a < 2; a++)
        for (int b = 0; b < 2; b++)
            if (mseg[a][1] && nseg[b][1])
                C = segment(e, j, C, mseg[a][0], mseg[a][1], mseg[a][2], nseg[b][0], nseg[b][1], nseg[b][2]);
    return C;
}

/* ---------------------------------------------------------------- finding the matmuls */

static Stmt *def_of(StmtList *l, const Var *v) {
    for (int i = 0; i < l->len; i++) {
        Stmt *s = l->items[i], *d = NULL;
        if (s->kind == ST_ASSIGN && s->assign.var == v) return s;
        if (s->kind == ST_FOR) d = def_of(&s->for_.body, v);
        if (s->kind == ST_IF && !(d = def_of(&s->if_.then_body, v))) d = def_of(&s->if_.else_body, v);
        if (s->kind == ST_WHILE) d = def_of(&s->while_.body, v);
        if (d) return d;
    }
    return NULL;
}

/* The operand's source tensor and window origin, through tensor.slice levels (offsets composed). */
static Win win_of(L1Emit *e, Function *f, Expr *x) {
    Win w = { x, idx(e, 0), idx(e, 0) };
    while (w.src->kind == EX_VAR) {
        Stmt *d = def_of(&f->body, w.src->var);
        Expr *c = d ? d->assign.value : NULL;
        if (!pass_is_op(c, OP_TENSOR_SLICE) || c->call.nargs != 3 || c->call.args[2]->kind != EX_TUPLE ||
            c->call.args[2]->tuple.n != 2)
            break;
        w.o0 = add(e, c->call.args[2]->tuple.items[0], w.o0);
        w.o1 = add(e, c->call.args[2]->tuple.items[1], w.o1);
        w.src = c->call.args[0];
    }
    return w;
}

static bool kw_bool(const Expr *c, const char *key) {
    const AttrVal *v = ir_attr_get(&c->call.kwargs, key);
    return v && v->kind == AV_BOOL && v->i;
}

/* The only use of x: `y = tensor.assemble(C, x, [o0, o1])` later in l (index, else -1). */
static int find_assemble(Function *f, StmtList *l, int at, Var *x) {
    for (int j = at + 1; j < l->len; j++) {
        Stmt *s = l->items[j];
        Expr *c = pass_stmt_call(s);
        if (s->kind != ST_ASSIGN || !pass_is_op(c, OP_TENSOR_ASSEMBLE) || c->call.args[1]->kind != EX_VAR ||
            c->call.args[1]->var != x)
            continue;
        if (c->call.kwargs.len || c->call.args[2]->kind != EX_TUPLE || c->call.args[2]->tuple.n != 2) return -1;
        Expr *keep = c->call.args[1];
        c->call.args[1] = c->call.args[0];          /* probe for other uses */
        bool other = ir_stmts_use_var(&f->body, x);
        c->call.args[1] = keep;
        return other ? -1 : j;
    }
    return -1;
}

/* Mat bytes of the function's matmuls that stay whole (their operands fit Mat): they may sit in Mat
 * beside a blocked one, whose chunks get what they leave. Counted once per function, before any
 * rewrite (the blocked matmuls' own chunks are not counted: one block's chunks are live at a time). */
typedef struct { const Target *t; int64_t bytes; } OtherMat;

static bool ragged_k_overflows_l0(const Target *t, const L1Problem *p);

/* The K step below which AutoTileMatmulL0 leaves a matmul untiled (PH-AT-007): the cube fractal, or a
 * transposed INT8 right operand's 32-row box (at_trans_box_align). */
static int64_t k_step(const Target *t, const L1Problem *p) {
    int64_t boxb = 32 / dtype_bytes(p->b);
    return p->b_trans && boxb > t->l0_align ? boxb : t->l0_align;
}

static void other_mat_visit(Expr *e, void *ud) {
    OtherMat *o = ud;
    if (e->kind != EX_CALL || (e->call.op != OP_TENSOR_MATMUL && e->call.op != OP_TENSOR_MATMUL_ACC)) return;
    int64_t sum = 0, d[2][2];
    int first = e->call.op == OP_TENSOR_MATMUL_ACC;
    for (int i = first; i < e->call.nargs && i < first + 2; i++) {
        Type *ty = e->call.args[i]->type;
        if (!ty || ty->kind != TY_TENSOR || ty->rank != 2 || !ir_type_static_dims(ty, d[i - first]) || !dtype_bytes(ty->dtype)) return;
        sum += at_l1_mat_bytes(o->t, ty->dtype, d[i - first][0], d[i - first][1]);
    }
    if (first + 2 > e->call.nargs) return;
    /* a matmul with a ragged K that overflows L0 whole is blocked itself (its chunks are not beside it) */
    bool at = kw_bool(e, "a_trans"), bt = kw_bool(e, "b_trans");
    L1Problem p = { d[0][at], d[1][!bt], d[0][!at], e->call.args[first]->type->dtype, e->call.args[first + 1]->type->dtype,
                    DT_FP32, at, bt };
    if (e->call.op == OP_TENSOR_MATMUL && ragged_k_overflows_l0(o->t, &p)) return;
    if (sum <= o->t->capacity[MS_MAT]) o->bytes += sum;
}

static void hint_done(PassCtx *ctx, Span sp, const L1Job *j, int64_t need) {
    int64_t bm = (j->p.M + j->ch.mb - 1) / j->ch.mb, bn = (j->p.N + j->ch.nb - 1) / j->ch.nb;
    int64_t chunks = (j->p.K + j->ch.kb - 1) / j->ch.kb;
    if (j->ragged) {
        int64_t kal = k_step(ctx->target, &j->p);
        pass_hint(ctx, sp, "PH-L1-001",
                  "matmul [%lld, %lld] x [%lld, %lld]: K is not a multiple of %lld (%s), so AutoTileMatmulL0 "
                  "cannot tile it, and its operands do not fit L0A / L0B whole: blocked as for L1 into %lld block(s) of "
                  "%lld x %lld, K in %lld chunk(s) of %lld, the K head of %lld its own matmul (stage-2 "
                  "pipeline, %lld bytes of Mat); estimated %lld cycles",
                  (long long)j->p.M, (long long)j->p.K, (long long)j->p.K, (long long)j->p.N, (long long)kal,
                  kal == ctx->target->l0_align ? "the cube fractal" : "the box rows of its transposed INT8 right operand",
                  (long long)(bm * bn), (long long)j->ch.mb, (long long)j->ch.nb, (long long)chunks, (long long)j->ch.kb,
                  (long long)(j->p.K % j->ch.kal), (long long)j->ch.mat_bytes, (long long)j->ch.cycles);
        return;
    }
    pass_hint(ctx, sp, "PH-L1-001",
              "matmul [%lld, %lld] x [%lld, %lld] operands need %lld bytes of Mat, which holds %lld: L1-tiled into %lld "
              "block(s) of %lld x %lld, K in %lld chunk(s) of %lld (stage-2 pipeline, %lld bytes of Mat); estimated %lld cycles",
              (long long)j->p.M, (long long)j->p.K, (long long)j->p.K, (long long)j->p.N, (long long)need,
              (long long)ctx->target->capacity[MS_MAT], (long long)(bm * bn), (long long)j->ch.mb, (long long)j->ch.nb,
              (long long)chunks, (long long)j->ch.kb, (long long)j->ch.mat_bytes, (long long)j->ch.cycles);
}

/* A matmul whose K is not a multiple of the cube fractal stays untiled in AutoTileMatmulL0, whole in
 * L0A / L0B: does it overflow them? (Then the blocking's sub-fractal K head makes it tileable.) */
static bool ragged_k_overflows_l0(const Target *t, const L1Problem *p) {
    int64_t ea = dtype_bytes(p->a), eb = dtype_bytes(p->b), boxa = 32 / ea, boxb = 32 / eb;
    if (p->K % k_step(t, p) == 0) return false;
    int64_t left = (p->M + 15) / 16 * 16 * ((p->K + boxa - 1) / boxa * boxa) * ea;
    int64_t right = (p->K + boxb - 1) / boxb * boxb * ((p->N + 15) / 16 * 16) * eb;
    return left > t->capacity[MS_LEFT] || right > t->capacity[MS_RIGHT];
}

/* Rewrites l->items[*at] when it is an overflowing matmul; *at is left on the last emitted statement. */
static void tile_one(PassCtx *ctx, Function *f, int64_t others, StmtList *l, int *at) {
    Stmt *s = l->items[*at];
    Expr *c = s->kind == ST_ASSIGN ? s->assign.value : NULL;
    if (!pass_is_op(c, OP_TENSOR_MATMUL) || ir_attr_get(&c->call.kwargs, "c_matrix_nz")) return;
    Expr *A = c->call.args[0], *B = c->call.args[1];
    int64_t ad[2], bd[2];
    if (A->type->kind != TY_TENSOR || B->type->kind != TY_TENSOR || A->type->rank != 2 || B->type->rank != 2 ||
        !ir_type_static_dims(A->type, ad) || !ir_type_static_dims(B->type, bd) || !dtype_bytes(A->type->dtype) ||
        !dtype_bytes(B->type->dtype) || !dtype_bytes(c->type->dtype))
        return;
    const Target *t = ctx->target;
    int64_t need = at_l1_mat_bytes(t, A->type->dtype, ad[0], ad[1]) + at_l1_mat_bytes(t, B->type->dtype, bd[0], bd[1]);
    int64_t cap = t->capacity[MS_MAT];
    L1Job j;
    memset(&j, 0, sizeof j);
    /* the blocks accumulate in the accumulator's dtype; an FP16 / BF16 result is converted by the store */
    j.res = c->type->dtype;
    j.p = (L1Problem){ 0, 0, 0, A->type->dtype, B->type->dtype, dtype_is_int(A->type->dtype) ? DT_INT32 : DT_FP32,
                       kw_bool(c, "a_trans"), kw_bool(c, "b_trans") };
    j.p.M = ad[j.p.a_trans], j.p.K = ad[!j.p.a_trans], j.p.N = bd[!j.p.b_trans];
    j.ragged = need <= cap && ragged_k_overflows_l0(t, &j.p);
    if (!cap || (need <= cap && !j.ragged)) return;
    int st = find_assemble(f, l, *at, s->assign.var);
    if (st < 0 && j.ragged) return;          /* AllocateMemoryAddr's L0 error and PH-AT-007 say why */
    if (st < 0) {
        pass_hint(ctx, c->span, "PH-L1-002",
                  "matmul operands need %lld bytes of Mat, which holds %lld, but it is not L1-tiled: its result is not "
                  "stored whole by one tensor.assemble / c[...] = (only such a result can be produced block by block)",
                  (long long)need, (long long)cap);
        return;
    }
    const char *why = others >= cap ? "the function's other matmul operands already fill Mat" : NULL;
    if (why || !at_l1_choose(ctx, &j.p, cap - others, &j.ch, &why)) {
        if (j.ragged) return;
        pass_hint(ctx, c->span, "PH-L1-002", "matmul operands need %lld bytes of Mat, which holds %lld, but it is not L1-tiled: %s",
                  (long long)need, (long long)cap, why);
        return;
    }
    Stmt *as = l->items[st];
    L1Emit e = { ctx, l, 0, s->span, s->assign.var->name };
    j.a = win_of(&e, f, A), j.b = win_of(&e, f, B);
    Expr *offs = as->assign.value->call.args[2];
    j.store_off0 = offs->tuple.items[0], j.store_off1 = offs->tuple.items[1];
    Expr *C = as->assign.value->call.args[0];
    /* the nest stands where the assemble stood: C and every operand window are defined by then */
    memmove(l->items + st, l->items + st + 1, sizeof(Stmt *) * (size_t)(l->len - st - 1));
    l->len--;
    memmove(l->items + *at, l->items + *at + 1, sizeof(Stmt *) * (size_t)(l->len - *at - 1));
    l->len--;
    e.at = st - 1;
    Expr *final = emit_all(&e, &j, C);
    VarMap m = { 0 };
    ir_varmap_put(&m, as->assign.var, final);
    ir_subst_stmts(ctx->ir, &f->body, &m);
    ir_varmap_free(&m);
    hint_done(ctx, c->span, &j, need);
    if (!ctx->l1_tiled++) ctx->l1_span = c->span;
    *at = e.at - 1;
}

static void walk(PassCtx *ctx, Function *f, int64_t others, StmtList *l) {
    for (int i = 0; i < l->len; i++) {
        Stmt *s = l->items[i];
        if (s->kind == ST_FOR && s->for_.kind != FK_PIPELINE && !ir_attr_get(&s->for_.attrs, "pipeline_stages"))
            walk(ctx, f, others, &s->for_.body);            /* user pipelines are the user's blocking: not touched */
        if (s->kind == ST_IF) walk(ctx, f, others, &s->if_.then_body), walk(ctx, f, others, &s->if_.else_body);
        if (s->kind == ST_ASSIGN) tile_one(ctx, f, others, l, &i);
    }
}

/* ---------------------------------------------------------------- how many cores stream at once */

/* The blocks of a kernel that run at once share the die's GM bandwidth (docs/sim.md "Shared GM
 * bandwidth"), so its blocking is judged at the rate one of them gets, as the simulator will run it:
 * the largest launch of the function — a call inside `pl.spmd(core_num=n)` (AutoSplitCores' or the
 * user's) runs min(n, cube cores) blocks together, a call outside one block; a core_num that is not a
 * constant counts as every cube core. */
typedef struct { const Program *p; int64_t *most; int64_t in_scope; } Launches;   /* most[i]: p->funcs[i]'s */

/* The index of f in p->funcs (kept sorted by name). */
static int func_index(const Program *p, const Function *f) {
    int lo = 0, hi = p->nfuncs;
    while (lo < hi) {
        int mid = (lo + hi) / 2, c = strcmp(p->funcs[mid]->name, f->name);
        if (c == 0) return p->funcs[mid] == f ? mid : -1;
        if (c < 0) lo = mid + 1;
        else hi = mid;
    }
    return -1;
}

static void launch_visit(Expr *e, void *ud) {
    Launches *l = ud;
    if (e->kind != EX_CALL || e->call.op != OP_NONE || !e->call.callee) return;
    int i = func_index(l->p, e->call.callee);
    if (i >= 0 && l->in_scope > l->most[i]) l->most[i] = l->in_scope;
}

static void launch_walk(Launches *l, const Target *t, StmtList *body, int64_t blocks) {
    for (int i = 0; i < body->len; i++) {
        Stmt *s = body->items[i];
        StmtList one = { &body->items[i], 1, 1 };
        int64_t n = t->num_aic;
        switch (s->kind) {
        case ST_ASSIGN: case ST_EVAL:
            l->in_scope = blocks;
            ir_visit_exprs(&one, launch_visit, l);
            break;
        case ST_IF: launch_walk(l, t, &s->if_.then_body, blocks), launch_walk(l, t, &s->if_.else_body, blocks); break;
        case ST_FOR: launch_walk(l, t, &s->for_.body, blocks); break;
        case ST_WHILE: launch_walk(l, t, &s->while_.body, blocks); break;
        case ST_SCOPE:
            if (s->scope.kind == SC_SPMD && s->scope.core_num && ir_is_const_int(s->scope.core_num, &n) && n < 1) n = 1;
            launch_walk(l, t, &s->scope.body, s->scope.kind == SC_SPMD ? (n < t->num_aic ? n : t->num_aic) : blocks);
            break;
        default: break;
        }
    }
}

/* Every function's largest launch (1 when never called inside a pl.spmd), in one walk of the program. */
static int64_t *concurrent_blocks(Program *p, const Target *t) {
    int64_t *most = malloc(sizeof(int64_t) * (size_t)(p->nfuncs ? p->nfuncs : 1));
    PTOC_ASSERT(most, "out of memory");
    for (int i = 0; i < p->nfuncs; i++) most[i] = 1;
    Launches l = { p, most, 1 };
    for (int i = 0; i < p->nfuncs; i++) launch_walk(&l, t, &p->funcs[i]->body, 1);
    return most;
}

bool pass_auto_tile_l1(Program *p, PassCtx *ctx) {
    if (ctx->no_auto_l1) return true;
    const Target *own = ctx->target;
    int64_t *streaming = concurrent_blocks(p, own);
    for (int i = 0; i < p->nfuncs; i++) {
        if (!ir_functype_is_incore(p->funcs[i]->type)) continue;
        OtherMat om = { own, 0 };
        ir_visit_exprs(&p->funcs[i]->body, other_mat_visit, &om);
        Target shared;
        ctx->target = target_share_gm(own, streaming[i], &shared);
        walk(ctx, p->funcs[i], om.bytes, &p->funcs[i]->body);   /* adds no function: the indices hold */
        ctx->target = own;
    }
    free(streaming);
    return true;
}
