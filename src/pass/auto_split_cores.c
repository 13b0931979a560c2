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
 *   grid of equal 16-aligned blocks dividing M and N is one SPMD task. Where none pays but an uneven
 *   grid does (split_plan_uneven: blocks of ceil(dim / g) aligned to 16, the last one smaller), the
 *   region becomes up to four tasks (split_uneven): the whole blocks, the ragged last block column,
 *   the ragged last block row, their corner — copies of the region, each rewritten for its blocks
 *   from its origin, the output chained through them; the later ones carry the pl.at option
 *   split_sibling=True, so DeriveCallDirections does not order them after each other (their output
 *   windows are disjoint) and the runtime runs them at once. Not for a region with an epilogue (its
 *   vector halves need whole 32-row blocks): PH-SC-002. */
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

/* One task of a split: a gm x gn grid of bm x bn output blocks (one SPMD task; a single block is a
 * plain region) whose first block's output origin is (om, on). An even split is one task at (0, 0);
 * an uneven one adds a task per ragged row / column strip and the corner. */
typedef struct SplitTask { int gm, gn; int64_t bm, bn, om, on; } SplitTask;

typedef struct Block { const SplitRegion *r; const SplitTask *t; Var *r0, *c0; } Block;

static void rewrite_matmul(PassCtx *ctx, const Block *b, StmtList *out, Stmt *s) {
    const SplitRegion *r = b->r;
    Expr **args = s->assign.value->call.args;
    if (b->r0) args[0] = r->a_trans ? window(ctx, out, r->a.base, r->K, b->t->bm, r->a.off[0], add(ctx, r->a.off[1], b->r0), s->span)
                                    : window(ctx, out, r->a.base, b->t->bm, r->K, add(ctx, r->a.off[0], b->r0), r->a.off[1], s->span);
    if (b->c0) args[1] = r->b_trans ? window(ctx, out, r->b.base, b->t->bn, r->K, add(ctx, r->b.off[0], b->c0), r->b.off[1], s->span)
                                    : window(ctx, out, r->b.base, r->K, b->t->bn, r->b.off[0], add(ctx, r->b.off[1], b->c0), s->span);
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
        v->call.args[i] = window(ctx, out, a->var, rows ? b->t->bm : d0, cols ? b->t->bn : d1,
                                 rows ? ir_ref(b->r0) : zero, cols ? ir_ref(b->c0) : zero, s->span);
    }
    rededuce(ctx, s);
    ir_list_push(ctx->ir, out, s);
}

/* origin + (place of the block along one grid dimension) * size, as a new scalar of the region */
static Var *block_origin(PassCtx *ctx, StmtList *out, const char *name, Expr *place, int64_t size, int64_t origin) {
    Expr *e = place ? ir_binary(ctx->ir, BIN_MUL, place, ir_const_int(ctx->ir, size, DT_INDEX)) : NULL;
    if (origin || !e) e = e ? ir_binary(ctx->ir, BIN_ADD, e, ir_const_int(ctx->ir, origin, DT_INDEX)) : ir_const_int(ctx->ir, origin, DT_INDEX);
    return new_scalar(ctx, out, name, e);
}

/* The region's new body: the block index and origin, then its statements rewritten. A dimension
 * the task's blocks cover whole keeps its operands whole. */
static void rewrite_body(PassCtx *ctx, const SplitRegion *r, const SplitTask *t) {
    StmtList *body = &r->scope->scope.body, out = { 0 };
    Var *blk = NULL;
    if (t->gm * t->gn > 1) {
        Expr *q = ir_call(ctx->ir, OP_TILE_GET_BLOCK_IDX, NULL, 0);
        PTOC_ASSERT(ir_deduce_call(ctx->ir, q), "AutoSplitCores: tile.get_block_idx does not deduce");
        blk = new_scalar(ctx, &out, "blk", q);
    }
    Block b = { r, t, NULL, NULL };
    Expr *gn = ir_const_int(ctx->ir, t->gn, DT_INDEX);
    if (t->bm < r->M) {
        Expr *row = t->gm > 1 ? (t->gn > 1 ? ir_binary(ctx->ir, BIN_FLOORDIV, ir_ref(blk), gn) : ir_ref(blk)) : NULL;
        b.r0 = block_origin(ctx, &out, "r0", row, t->bm, t->om);
    }
    if (t->bn < r->N) {
        Expr *col = t->gn > 1 ? (t->gm > 1 ? ir_binary(ctx->ir, BIN_FLOORMOD, ir_ref(blk), gn) : ir_ref(blk)) : NULL;
        b.c0 = block_origin(ctx, &out, "c0", col, t->bn, t->on);
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

/* The region rewritten as task t: an SPMD scope around it when t has more than one block. */
static Stmt *as_task(PassCtx *ctx, const SplitRegion *r, const SplitTask *t, bool epilogue, bool sibling) {
    Stmt *scope = r->scope;
    rewrite_body(ctx, r, t);
    if (epilogue) ir_attr_set(ctx->ir, &scope->scope.kwargs, "split", ir_av_int(1));   /* pl.split(UP_DOWN) */
    if (sibling) ir_attr_set(ctx->ir, &scope->scope.kwargs, "split_sibling", ir_av_bool(true));
    if (t->gm * t->gn == 1) return scope;
    Stmt *spmd = ir_scope(ctx->ir, SC_SPMD);
    spmd->span = scope->span;
    spmd->scope.core_num = ir_const_int(ctx->ir, (int64_t)t->gm * t->gn, DT_INDEX);
    ir_list_push(ctx->ir, &spmd->scope.body, scope);
    return spmd;
}

/* One dimension of an uneven grid of g blocks of size b over dim: the whole blocks, then the ragged
 * last one as a group of its own. Returns the number of groups (1 or 2). */
static int dim_groups(int64_t dim, int g, int64_t b, int count[2], int64_t size[2], int64_t origin[2]) {
    int64_t last = dim - (int64_t)(g - 1) * b;
    if (g == 1 || last == b) { count[0] = g; size[0] = g == 1 ? dim : b; origin[0] = 0; return 1; }
    count[0] = g - 1, size[0] = b, origin[0] = 0;
    count[1] = 1, size[1] = last, origin[1] = (int64_t)(g - 1) * b;
    return 2;
}

/* The uneven split of a matched region (no epilogue): up to four tasks — the grid of whole blocks,
 * the ragged last block row and column, their corner — each a copy of the region rewritten for its
 * blocks, chained through the output (c1 = assemble(c, ..); c2 = assemble(c1, ..); ...: disjoint
 * windows, so the runtime finds no dependency and runs them at once). The original region becomes
 * the last task, so its result variable stays the one read after it. Returns the statements added
 * before list->items[at]. */
static int split_uneven(PassCtx *ctx, Function *f, SplitReads *reads, StmtList *list, int at, SplitRegion *r,
                        const SplitPlan *u, int *ntasks) {
    int cm[2], cn[2];
    int64_t sm[2], sn[2], om[2], on[2];
    int nm = dim_groups(r->M, u->gm, u->bm, cm, sm, om), nn = dim_groups(r->N, u->gn, u->bn, cn, sn, on);
    SplitTask tasks[4];
    int nt = 0;
    for (int i = 0; i < nm; i++)
        for (int j = 0; j < nn; j++) tasks[nt++] = (SplitTask){ cm[i], cn[j], sm[i], sn[j], om[i], on[j] };
    Var *prev = NULL;
    for (int k = 0; k < nt - 1; k++) {
        VarMap m = { 0 };
        Stmt *copy = ir_clone_stmt(ctx->ir, r->scope, &m);
        ir_varmap_free(&m);
        SplitRegion rc;
        const char *why = NULL;
        PTOC_ASSERT(split_match_region(ctx, f, reads, copy, &rc, &why), "AutoSplitCores: a copy of a matched region does not match (%s)",
                    why ? why : "?");
        if (prev) {
            rc.store->assign.value->call.args[0] = ir_ref(prev);
            rededuce(ctx, rc.store);
        }
        prev = rc.store->assign.var;
        ir_list_insert(ctx->ir, list, at + k, as_task(ctx, &rc, &tasks[k], false, k > 0));
    }
    if (prev) {
        r->store->assign.value->call.args[0] = ir_ref(prev);
        rededuce(ctx, r->store);
    }
    list->items[at + nt - 1] = as_task(ctx, r, &tasks[nt - 1], false, nt > 1);
    *ntasks = nt;
    return nt - 1;
}

static double us(const Target *t, double cycles) { return cycles / (t->clock_ghz * 1000.0); }

static const char *region_name(const Stmt *scope) { return scope->scope.name_hint ? scope->scope.name_hint : "(unnamed)"; }

/* PH-SC-001 of an uneven split: the grid, the whole block, the ragged last block row / column. */
static void hint_uneven(PassCtx *ctx, Span sp, const Stmt *scope, const SplitRegion *r, const SplitPlan *u, int cores, int ntasks) {
    const Target *t = ctx->target;
    int64_t tm = r->M - (int64_t)(u->gm - 1) * u->bm, tn = r->N - (int64_t)(u->gn - 1) * u->bn;
    char ragged[96];
    if (tm != u->bm && tn != u->bn) snprintf(ragged, sizeof ragged, "the last block row %lld high and the last block column %lld wide", (long long)tm, (long long)tn);
    else if (tm != u->bm) snprintf(ragged, sizeof ragged, "the last block row %lld high", (long long)tm);
    else snprintf(ragged, sizeof ragged, "the last block column %lld wide", (long long)tn);
    pass_hint(ctx, sp, "PH-SC-001",
              "region '%s' (matmul [%lld, %lld] x K %lld) split across %d of %d cube cores as %d independent tasks of an uneven "
              "%d x %d grid: per-core blocks [%lld, %lld] x K %lld, %s (no grid of equal 16-aligned blocks divides M and N); "
              "estimated %.1f us instead of %.1f us on one core (gain %.1fx); --cores N limits the cores, --cores 1 turns the "
              "split off", region_name(scope), (long long)r->M, (long long)r->N, (long long)r->K, u->gm * u->gn, cores, ntasks,
              u->gm, u->gn, (long long)u->bm, (long long)u->bn, (long long)r->K, ragged, us(t, u->tn), us(t, u->t1), u->t1 / u->tn);
}

/* Splits the region if it matches and pays: into one SPMD task of equal blocks when a grid of them
 * pays, else into the tasks of an uneven grid (split_uneven). The first task replaces
 * list->items[at]; returns the number of statements added before the region (the walk skips them). */
static int try_region(PassCtx *ctx, Function *f, SplitReads *reads, StmtList *list, int at, int cores) {
    Stmt *scope = list->items[at];
    SplitRegion r;
    const char *why = NULL;
    bool ok = split_match_region(ctx, f, reads, scope, &r, &why);
    if (!r.mm || !r.M) return 0;                             /* no (static) matmul: nothing to say */
    Expr *mm = r.mm->assign.value;
    const Target *t = ctx->target;
    SplitShape sh = { r.M, r.N, r.K, mm->call.args[0]->type->dtype, mm->type->dtype, r.epilogue_ops > 0, 0 };
    double ab = dtype_bytes(sh.acc);
    sh.vec_bytes_per_output = 3 * ab + r.full_operands * ab;    /* ring slots x 2, a temporary, the operands */
    SplitPlan even, uneven;
    bool is_even = split_plan(t, cores, &sh, &even);
    bool is_uneven = !is_even && even.gm * even.gn == 1 && split_plan_uneven(t, cores, &sh, &uneven);
    if (!is_even && !is_uneven) {
        if (ok && sh.epilogue && even.gm * even.gn == 1) {
            SplitShape cube = sh;                                /* would the matmul alone have split? */
            cube.epilogue = false;
            SplitPlan p;
            if (split_plan(t, cores, &cube, &p) || split_plan_uneven(t, cores, &cube, &p))
                pass_hint(ctx, mm->span, "PH-SC-002",
                          "region '%s' (matmul [%lld, %lld] x K %lld) is not split across cores: its epilogue's vector working set "
                          "(about %.0f bytes per output, half a block per vector core) leaves no grid of 32-row-aligned blocks of at "
                          "least %d outputs that fits Vec (%lld bytes)", region_name(scope), (long long)r.M, (long long)r.N,
                          (long long)r.K, sh.vec_bytes_per_output, SPLIT_MIN_BLOCK_OUTPUTS, (long long)t->capacity[MS_VEC]);
        }
        return 0;
    }
    const SplitPlan *p = is_even ? &even : &uneven;
    int64_t kal = t->l0_align, eb = dtype_bytes(sh.in);
    if (eb > 0 && 32 / eb > kal) kal = 32 / eb;              /* an INT8 K steps by its 32-byte box */
    if (ok && r.K % kal) {
        /* a core's block would fit Mat and keep K whole in L0 (AutoTileMatmulL0 cannot tile a K that is
         * not a whole number of fractals, PH-AT-007); on one core AutoTileL1 peels the sub-fractal part */
        ok = false;
        why = "its K is not a multiple of the cube fractal, so a core's block would keep K whole in L0";
    }
    if (ok && is_uneven && sh.epilogue) {
        ok = false;
        why = "no grid of equal 16-aligned blocks divides M and N, and the ragged blocks of an uneven grid cannot carry "
              "an epilogue (its vector halves need whole 32-row blocks)";
    }
    if (!ok) {
        pass_hint(ctx, mm->span, "PH-SC-002",
                  "region '%s' (matmul [%lld, %lld] x K %lld) is not split across cores although %d x %d blocks of %s[%lld, %lld] "
                  "would take an estimated %.1f us instead of %.1f us: %s; write the split yourself with `for i in pl.spmd(N)` "
                  "(examples/spmd_rows.py)", region_name(scope), (long long)r.M, (long long)r.N, (long long)r.K, p->gm, p->gn,
                  is_uneven ? "about " : "", (long long)p->bm, (long long)p->bn, us(t, p->tn), us(t, p->t1), why);
        return 0;
    }
    if (is_even) {
        SplitTask task = { even.gm, even.gn, even.bm, even.bn, 0, 0 };
        list->items[at] = as_task(ctx, &r, &task, sh.epilogue, false);
        pass_hint(ctx, mm->span, "PH-SC-001",
                  "region '%s' (matmul [%lld, %lld] x K %lld) split across %d of %d cube cores as one SPMD task: a %d x %d grid of "
                  "per-core blocks [%lld, %lld] x K %lld%s; estimated %.1f us instead of %.1f us on one core (gain %.1fx); "
                  "--cores N limits the cores, --cores 1 turns the split off", region_name(scope), (long long)r.M, (long long)r.N,
                  (long long)r.K, even.gm * even.gn, cores, even.gm, even.gn, (long long)even.bm, (long long)even.bn, (long long)r.K,
                  sh.epilogue ? " (each a mixed kernel, its epilogue split UP_DOWN over the cluster's two vector cores)" : "",
                  us(t, even.tn), us(t, even.t1), even.t1 / even.tn);
        return 0;
    }
    int ntasks = 0, added = split_uneven(ctx, f, reads, list, at, &r, &uneven, &ntasks);
    hint_uneven(ctx, mm->span, scope, &r, &uneven, cores, ntasks);
    return added;
}

static void walk(PassCtx *ctx, Function *f, SplitReads *reads, StmtList *l, int cores) {
    for (int i = 0; i < l->len; i++) {
        Stmt *s = l->items[i];
        switch (s->kind) {
        case ST_FOR: walk(ctx, f, reads, &s->for_.body, cores); break;
        case ST_WHILE: walk(ctx, f, reads, &s->while_.body, cores); break;
        case ST_IF: walk(ctx, f, reads, &s->if_.then_body, cores); walk(ctx, f, reads, &s->if_.else_body, cores); break;
        case ST_SCOPE:
            if (s->scope.kind == SC_INCORE) i += try_region(ctx, f, reads, l, i, cores);
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
