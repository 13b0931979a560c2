/* AutoSplitCores — the automatic multi-core split of a region holding a large matmul (issue 11
 * point 2; spec/language.md §4.1 SPMD, runtime.md §9).
 *
 * Requires: SSA orchestration functions with their InCore regions still inline (runs before
 *   OutlineIncoreScopes); PassCtx.cores (the driver's --cores N, default every cube core of the
 *   target; 0 or 1 = no split).
 * Produces: in place of each region auto_split_match.c accepts (one matmul, an elementwise epilogue,
 *   one store) whose split pays by the cost model of auto_split_plan.c, exactly the IR the user's
 *   `for i in pl.spmd(gm * gn)` form gives: SPMD(InCore(i = tile.get_block_idx(); body)), where block
 *   i computes output block (i // gn, i % gn) of the gm x gn grid:
 *       r0 = i // gn * bm;  c0 = i % gn * bn
 *       a_w = tensor.slice(A, [bm, K], [a0 + r0, a1])      ([K, bm] at [a0, a1 + r0] when a_trans)
 *       b_w = tensor.slice(B, [K, bn], [b0, b1 + c0])      ([bn, K] at [b0 + c0, b1] when b_trans)
 *       x0 = tensor.matmul(a_w, b_w, ...); epilogue on [bm, bn] (its operands windowed alike)
 *       c' = tensor.assemble(c, xn, [o0 + r0, o1 + c0])
 *   (a dimension the grid does not split keeps its operand whole). Perf hint PH-SC-001 names the grid,
 *   the per-core block, the cores and the estimated gain; PH-SC-002 names why a region whose matmul
 *   would pay was left whole. Then the split-K lint (auto_split_lint.c, PH-SC-003).
 * Does: only orchestration functions; regions already under a pl.spmd are the user's and stay. A
 *   grid only splits into 16-aligned blocks that divide M and N, so no block is ragged; where none
 *   exists but an uneven grid would pay (split_plan_uneven), PH-SC-002 says so, with the fix. */
#include "pass/auto_split.h"

#include <string.h>

static Var *new_scalar(PassCtx *ctx, StmtList *out, const char *base, Expr *value) {
    Var *v = ir_var_new(ctx->ir, pass_name(ctx, base, "spmd"), ir_scalar_type(ctx->ir, DT_INDEX));
    ir_list_push(ctx->ir, out, ir_assign(ctx->ir, v, value));
    return v;
}

/* a + b (b may be NULL: a); a constant 0 gives b itself */
static Expr *add(PassCtx *ctx, Expr *a, Var *b) {
    int64_t v;
    if (!b) return a;
    if (ir_is_const_int(a, &v) && v == 0) return ir_ref(b);
    return ir_binary(ctx->ir, BIN_ADD, a, ir_ref(b));
}

/* name = tensor.slice(base, [d0, d1], [o0, o1]) appended to out; returns its reference. */
static Expr *window(PassCtx *ctx, StmtList *out, Var *base, int64_t d0, int64_t d1, Expr *o0, Expr *o1, Span sp) {
    int64_t dims[2] = { d0, d1 };
    Expr *offs[2] = { o0, o1 };
    Expr *args[3] = { ir_ref(base), ir_int_tuple(ctx->ir, dims, 2), ir_tuple(ctx->ir, offs, 2) };
    Expr *call = ir_call(ctx->ir, OP_TENSOR_SLICE, args, 3);
    call->span = sp;
    PTOC_ASSERT(ir_deduce_call(ctx->ir, call), "AutoSplitCores: a block window does not deduce");
    Var *v = ir_var_new(ctx->ir, pass_name(ctx, base->name, "blk"), call->type);
    Stmt *s = ir_assign(ctx->ir, v, call);
    s->span = sp;
    ir_list_push(ctx->ir, out, s);
    return ir_ref(v);
}

static void rededuce(PassCtx *ctx, Stmt *s) {
    PTOC_ASSERT(ir_deduce_call(ctx->ir, s->assign.value), "AutoSplitCores: a rewritten call does not deduce");
    pass_var_set_type(s->assign.var, s->assign.value->type);
}

typedef struct Block { const SplitRegion *r; const SplitPlan *p; Var *r0, *c0; } Block;

static void rewrite_matmul(PassCtx *ctx, const Block *b, StmtList *out, Stmt *s) {
    const SplitRegion *r = b->r;
    Expr **args = s->assign.value->call.args;
    if (b->r0) args[0] = r->a_trans ? window(ctx, out, r->a.base, r->K, b->p->bm, r->a.off[0], add(ctx, r->a.off[1], b->r0), s->span)
                                    : window(ctx, out, r->a.base, b->p->bm, r->K, add(ctx, r->a.off[0], b->r0), r->a.off[1], s->span);
    if (b->c0) args[1] = r->b_trans ? window(ctx, out, r->b.base, b->p->bn, r->K, add(ctx, r->b.off[0], b->c0), r->b.off[1], s->span)
                                    : window(ctx, out, r->b.base, r->K, b->p->bn, r->b.off[0], add(ctx, r->b.off[1], b->c0), s->span);
    rededuce(ctx, s);
    ir_list_push(ctx->ir, out, s);
}

/* An epilogue statement: its outside tensor operands become the block's window of them. */
static void rewrite_epilogue(PassCtx *ctx, const Block *b, StmtList *out, Stmt *s, StmtList *body) {
    Expr *v = s->assign.value;
    for (int i = 0; i < v->call.nargs; i++) {
        Expr *a = v->call.args[i];
        if (a->kind != EX_VAR || !a->type || a->type->kind != TY_TENSOR) continue;
        bool inside = false;
        for (int j = 0; j < body->len; j++) inside |= body->items[j]->assign.var == a->var;
        if (inside) continue;
        int64_t d0 = ir_type_dim(a->type, 0), d1 = ir_type_dim(a->type, 1);
        bool rows = b->r0 && d0 == b->r->M && d0 != 1, cols = b->c0 && d1 == b->r->N && d1 != 1;
        if (!rows && !cols) continue;
        Expr *zero = ir_const_int(ctx->ir, 0, DT_INDEX);
        v->call.args[i] = window(ctx, out, a->var, rows ? b->p->bm : d0, cols ? b->p->bn : d1,
                                 rows ? ir_ref(b->r0) : zero, cols ? ir_ref(b->c0) : zero, s->span);
    }
    rededuce(ctx, s);
    ir_list_push(ctx->ir, out, s);
}

/* The region's new body: the block index and origin, then its statements rewritten. */
static void rewrite_body(PassCtx *ctx, const SplitRegion *r, const SplitPlan *p) {
    StmtList *body = &r->scope->scope.body, out = { 0 };
    Expr *q = ir_call(ctx->ir, OP_TILE_GET_BLOCK_IDX, NULL, 0);
    PTOC_ASSERT(ir_deduce_call(ctx->ir, q), "AutoSplitCores: tile.get_block_idx does not deduce");
    Var *blk = new_scalar(ctx, &out, "blk", q);
    Block b = { r, p, NULL, NULL };
    Expr *gn = ir_const_int(ctx->ir, p->gn, DT_INDEX);
    if (p->gm > 1) {
        Expr *row = p->gn > 1 ? ir_binary(ctx->ir, BIN_FLOORDIV, ir_ref(blk), gn) : ir_ref(blk);
        b.r0 = new_scalar(ctx, &out, "r0", ir_binary(ctx->ir, BIN_MUL, row, ir_const_int(ctx->ir, p->bm, DT_INDEX)));
    }
    if (p->gn > 1) {
        Expr *col = p->gm > 1 ? ir_binary(ctx->ir, BIN_FLOORMOD, ir_ref(blk), gn) : ir_ref(blk);
        b.c0 = new_scalar(ctx, &out, "c0", ir_binary(ctx->ir, BIN_MUL, col, ir_const_int(ctx->ir, p->bn, DT_INDEX)));
    }
    bool after = false;
    for (int i = 0; i < body->len; i++) {
        Stmt *s = body->items[i];
        if ((s == r->a.slice && b.r0) || (s == r->b.slice && b.c0)) continue;   /* replaced by the block window */
        if (s == r->mm) { rewrite_matmul(ctx, &b, &out, s); after = true; continue; }
        if (s == r->store) {
            Expr *o = s->assign.value->call.args[2];
            o->tuple.items[0] = add(ctx, o->tuple.items[0], b.r0);
            o->tuple.items[1] = add(ctx, o->tuple.items[1], b.c0);
            rededuce(ctx, s);
            ir_list_push(ctx->ir, &out, s);
            continue;
        }
        if (after && s->assign.var->type->kind != TY_SCALAR) rewrite_epilogue(ctx, &b, &out, s, body);
        else ir_list_push(ctx->ir, &out, s);
    }
    *body = out;
}

static double us(const Target *t, double cycles) { return cycles / (t->clock_ghz * 1000.0); }

static const char *region_name(const Stmt *scope) { return scope->scope.name_hint ? scope->scope.name_hint : "(unnamed)"; }

/* Splits the region if it matches and pays; the new SPMD scope replaces list->items[at]. */
static void try_region(PassCtx *ctx, Function *f, SplitReads *reads, StmtList *list, int at, int cores) {
    Stmt *scope = list->items[at];
    SplitRegion r;
    const char *why = NULL;
    bool ok = split_match_region(ctx, f, reads, scope, &r, &why);
    if (!r.mm || !r.M) return;                               /* no (static) matmul: nothing to say */
    Expr *mm = r.mm->assign.value;
    SplitShape sh = { r.M, r.N, r.K, mm->call.args[0]->type->dtype, mm->type->dtype, r.epilogue_ops > 0, 0 };
    double ab = dtype_bytes(sh.acc);
    sh.vec_bytes_per_output = 3 * ab + r.full_operands * ab;    /* ring slots x 2, a temporary, the operands */
    SplitPlan p;
    if (!split_plan(ctx->target, cores, &sh, &p)) {
        SplitPlan u;
        if (ok && p.gm * p.gn == 1 && split_plan_uneven(ctx->target, cores, &sh, &u)) {
            pass_hint(ctx, mm->span, "PH-SC-002",
                      "region '%s' (matmul [%lld, %lld] x K %lld) is not split across cores: AutoSplitCores splits only into "
                      "equal 16-aligned blocks that divide M and N, and none of at most %d does; a %d x %d grid of blocks of "
                      "about [%lld, %lld] would take an estimated %.1f us instead of %.1f us. Write the split yourself with "
                      "`for i in pl.spmd(N)` (examples/spmd_rows.py), or pad M / N to multiples of 16 x the grid",
                      region_name(scope), (long long)r.M, (long long)r.N, (long long)r.K, cores, u.gm, u.gn, (long long)u.bm,
                      (long long)u.bn, us(ctx->target, u.tn), us(ctx->target, u.t1));
            return;
        }
        if (ok && sh.epilogue && p.gm * p.gn == 1) {
            SplitShape cube = sh;                                /* would the matmul alone have split? */
            cube.epilogue = false;
            if (split_plan(ctx->target, cores, &cube, &p))
                pass_hint(ctx, mm->span, "PH-SC-002",
                          "region '%s' (matmul [%lld, %lld] x K %lld) is not split across cores: its epilogue's vector working set "
                          "(about %.0f bytes per output, half a block per vector core) leaves no grid of 32-row-aligned blocks of at "
                          "least %d outputs that fits Vec (%lld bytes)", region_name(scope), (long long)r.M, (long long)r.N,
                          (long long)r.K, sh.vec_bytes_per_output, SPLIT_MIN_BLOCK_OUTPUTS, (long long)ctx->target->capacity[MS_VEC]);
        }
        return;
    }
    const Target *t = ctx->target;
    int64_t kal = t->l0_align, eb = dtype_bytes(sh.in);
    if (eb > 0 && 32 / eb > kal) kal = 32 / eb;              /* an INT8 K steps by its 32-byte box */
    if (ok && r.K % kal) {
        /* a core's block would fit Mat and keep K whole in L0 (AutoTileMatmulL0 cannot tile a K that is
         * not a whole number of fractals, PH-AT-007); on one core AutoTileL1 peels the sub-fractal part */
        ok = false;
        why = "its K is not a multiple of the cube fractal, so a core's block would keep K whole in L0";
    }
    if (!ok) {
        pass_hint(ctx, mm->span, "PH-SC-002",
                  "region '%s' (matmul [%lld, %lld] x K %lld) is not split across cores although %d x %d blocks of [%lld, %lld] "
                  "would take an estimated %.1f us instead of %.1f us: %s; write the split yourself with `for i in pl.spmd(N)` "
                  "(examples/spmd_rows.py)", region_name(scope), (long long)r.M, (long long)r.N, (long long)r.K, p.gm, p.gn,
                  (long long)p.bm, (long long)p.bn, us(t, p.tn), us(t, p.t1), why);
        return;
    }
    rewrite_body(ctx, &r, &p);
    if (sh.epilogue) ir_attr_set(ctx->ir, &scope->scope.kwargs, "split", ir_av_int(1));   /* pl.split(UP_DOWN) */
    Stmt *spmd = ir_scope(ctx->ir, SC_SPMD);
    spmd->span = scope->span;
    spmd->scope.core_num = ir_const_int(ctx->ir, (int64_t)p.gm * p.gn, DT_INDEX);
    ir_list_push(ctx->ir, &spmd->scope.body, scope);
    list->items[at] = spmd;
    pass_hint(ctx, mm->span, "PH-SC-001",
              "region '%s' (matmul [%lld, %lld] x K %lld) split across %d of %d cube cores as one SPMD task: a %d x %d grid of "
              "per-core blocks [%lld, %lld] x K %lld%s; estimated %.1f us instead of %.1f us on one core (gain %.1fx); "
              "--cores N limits the cores, --cores 1 turns the split off", region_name(scope), (long long)r.M, (long long)r.N,
              (long long)r.K, p.gm * p.gn, cores, p.gm, p.gn, (long long)p.bm, (long long)p.bn, (long long)r.K,
              sh.epilogue ? " (each a mixed kernel, its epilogue split UP_DOWN over the cluster's two vector cores)" : "",
              us(t, p.tn), us(t, p.t1), p.t1 / p.tn);
}

static void walk(PassCtx *ctx, Function *f, SplitReads *reads, StmtList *l, int cores) {
    for (int i = 0; i < l->len; i++) {
        Stmt *s = l->items[i];
        switch (s->kind) {
        case ST_FOR: walk(ctx, f, reads, &s->for_.body, cores); break;
        case ST_WHILE: walk(ctx, f, reads, &s->while_.body, cores); break;
        case ST_IF: walk(ctx, f, reads, &s->if_.then_body, cores); walk(ctx, f, reads, &s->if_.else_body, cores); break;
        case ST_SCOPE:
            if (s->scope.kind == SC_INCORE) try_region(ctx, f, reads, l, i, cores);
            else if (s->scope.kind == SC_RUNTIME || s->scope.kind == SC_HIERARCHY) walk(ctx, f, reads, &s->scope.body, cores);
            break;                                            /* SC_SPMD, SC_CLUSTER: the user's own launch */
        default: break;
        }
    }
}

bool pass_auto_split_cores(Program *p, PassCtx *ctx) {
    int cores = ctx->cores;
    for (int i = 0; i < p->nfuncs; i++) {
        Function *f = p->funcs[i];
        if (f->type != FT_ORCHESTRATION) continue;
        if (cores > 1) {
            SplitReads reads;
            pass_uses_count(ctx, &f->body, &reads.all);
            pass_uses_init(ctx, &reads.inside);
            walk(ctx, f, &reads, &f->body, cores);
            pass_uses_free(&reads.all);
            pass_uses_free(&reads.inside);
        }
        split_lint_function(ctx, f);
    }
    return true;
}
