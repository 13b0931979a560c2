/* auto_tile — the parts of AutoTileMatmulL0 (reference/autotile_matmul_l0_pass.md), one file each:
 *   auto_tile_matmul_l0.c   the pass driver: filters, hints, the chooser call, dispatch per regime
 *   auto_tile_kloop.c       the K-loop builder (split K, K peels, the biased head peel)
 *   auto_tile_split_k.c     the canonical split-K chain (create -> K loop -> store) M/N grid
 *   auto_tile_grid.c        the M/N grid builders (split-K grid, full-K nests) and the sub-tile placers
 *                           (direct store to GM, Mat scratch)
 *   auto_tile_bias.c        biased matmuls: the chooser config, the rewrite checks, [1, n] bias windows
 *   auto_tile_pipeline_dbc.c  the existing-pipeline L0C double buffer (user pl.pipeline loops)
 * Emitters insert statements into a statement list at a moving insertion point. */
#ifndef PTOC_AUTO_TILE_H
#define PTOC_AUTO_TILE_H

#include "pass/pass.h"
#include "tile/tile.h"

typedef struct Emit {
    PassCtx *ctx;
    StmtList *list;
    int at;                 /* insertion point in list */
    Span span;
    Expr *lhs, *rhs;        /* Mat operands */
    DType acc;
    const char *base;       /* name hint of the result */
    int64_t mvalid;         /* valid rows of the left operand (< its rows when M was padded to the box) */
    bool unroll_k;          /* inside a user pipeline: short K loops unrolled in ping-pong order (auto_tile_kloop.c) */
} Emit;

/* ---- transposed operands (auto_tile_matmul_l0.c) ---- */
/* A transposed (ZN-viewed, tile.transpose_view) Mat operand boxes its rows to 32 / element bytes: sets
 * o->lhs_zn_rows / rhs_zn_rows for tile_pass_config (for INT8 the left one steps M, the right one K
 * by 32). NULL, or why M / K is not a multiple of such a box. */
const char *at_trans_box_align(PassCtx *ctx, const Expr *lhs, const Expr *rhs, int64_t M, int64_t K, TilePassOpts *o);

/* ---- emit primitives (auto_tile_kloop.c) ---- */
Expr *at_idx(Emit *e, int64_t v);
Expr *at_add(Emit *e, Expr *a, Expr *b);
void at_put(Emit *e, Stmt *s);
Var *at_bind(Emit *e, const char *suffix, Expr *value);
/* A deduced call; target != MS_NONE sets its target_memory. */
Expr *at_call(Emit *e, OpId op, Expr **args, int n, MemSpace target);
/* [rows, cols] window of the left (Left) or right (Right) operand at (r, c). */
Var *at_extract(Emit *e, bool left, Expr *r, Expr *c, int64_t rows, int64_t cols);
Var *at_matmul_acc(Emit *e, Expr *acc, Var *sa, Var *sb, Expr *pred);
/* A Vec left operand moved to Mat once (ExpandMixedKernel lowers the crossing), for the extracts. */
Expr *at_stage_to_mat(Emit *e, Expr *vec_tile);
/* tile.create([rows, cols], acc dtype, target_memory=space) bound to a fresh variable. */
Expr *at_create(Emit *e, int64_t rows, int64_t cols, DType dtype, MemSpace space, const char *suffix);

/* ---- the K-loop builder (auto_tile_kloop.c) ---- */
/* One output (sub-)tile at (mi, ni) of [ms, ns] with K split in blocks of k: seed, pipelined loop over
 * the full blocks, peeled tail. init == NULL: a fresh matmul; else accumulate into init, composing a
 * caller's init_cond user_pred with the loop's first block. */
Expr *at_split_k(Emit *e, Expr *mi, Expr *ni, int64_t ms, int64_t ns, int64_t k, int64_t K, Expr *init, Expr *user_pred);
/* The same over K range [k0, K). */
Expr *at_split_k_from(Emit *e, Expr *mi, Expr *ni, int64_t ms, int64_t ns, int64_t k, int64_t k0, int64_t K, Expr *init,
                      Expr *user_pred);
/* A biased output tile at (mi, ni): head-peeled tile.matmul_bias of the first K block (bias already
 * windowed to [1, ns]), the rest accumulated. */
Expr *at_split_k_bias(Emit *e, Expr *mi, Expr *ni, int64_t ms, int64_t ns, int64_t k, int64_t K, Expr *bias);
/* A tile whose rows starting at row0 run past the left operand's valid rows, narrowed to them. */
Expr *at_narrow_rows(Emit *e, Expr *tile, Expr *row0);

/* ---- sub-tile placers and grids (auto_tile_grid.c) ---- */
typedef struct Placer Placer;
/* Places sub-tile `sub` at output offset (mi, ni) into the carried state (the output tensor, or the
 * Mat scratch); returns the new state. */
typedef Expr *(*PlaceFn)(Emit *e, const Placer *p, Expr *sub, Expr *mi, Expr *ni, Expr *state);
struct Placer {
    PlaceFn place;
    Expr *br, *bc;                  /* direct store: the replaced store's base offsets */
    const AttrList *store_kwargs;   /* direct store: its options (atomic add), kept on every sub-store */
};
void at_direct_placer(Placer *p, Expr *br, Expr *bc, const AttrList *store_kwargs);
void at_scratch_placer(Placer *p);

/* Per-tile bias windows of a biased grid: returns the [1, ns] bias of output columns [ni, ni + ns). */
typedef Expr *(*BiasWindowFn)(Emit *e, void *ud, Expr *ni, int64_t ns);

typedef struct Grid {
    int64_t M, N, K, m, n;
    bool rows_outer, dbc;
    const Placer *placer;
    BiasWindowFn bias;              /* NULL: plain matmul */
    void *bias_ud;
} Grid;

/* ---- biased matmuls (auto_tile_bias.c) ---- */
/* The §13 biased chooser config; NULL when the chooser may be called, else why not (PH-AT-011). */
const char *at_bias_config(PassCtx *ctx, Expr *call, const TilePassOpts *o, int64_t M, int64_t N, int64_t K, L0TileConfig *cfg);
/* Where a biased rewrite's per-tile bias comes from: the whole bias (load < 0), or [1, ns] windows
 * of tensor at (r0, c0 + ni), the full load at l->items[load] to be removed. */
typedef struct BiasWindows { Expr *whole, *tensor, *r0, *c0; int load; } BiasWindows;
/* Whether the biased matmul l->items[at] may be rewritten for r (dtype pair, and for n < N a
 * windowable bias); else a PH-AT-011 / PH-AT-006 hint, recorded as untiled, and false. */
bool at_bias_check(PassCtx *ctx, Function *f, StmtList *l, int at, Expr *call, const L0TileResult *r, BiasWindows *bw);
/* Removes the full bias load (before *at); *at and *st shift down. */
void at_bias_commit(BiasWindows *bw, StmtList *l, int *at, int *st);
/* The BiasWindowFn of a biased grid (ud: BiasWindows). */
Expr *at_bias_window(Emit *e, void *ud, Expr *ni, int64_t ns);

/* The grid with k < K: one K loop per sub-tile, placed in row-major order. */
Expr *at_split_k_grid(Emit *e, const Grid *g, int64_t k, Expr *state);
/* The grid with k == K: nested loops, the outer one owning the stationary panel, boundaries peeled. */
Expr *at_full_k_grid(Emit *e, const Grid *g, Expr *state);

/* ---- chained matmuls (auto_tile_chain.c) ---- */
/* Before l->items[*at] is tiled: folds a rint tile.cast of an Acc tile feeding matmuls into an
 * Acc -> Mat assemble; gives a matmul reading an Acc tile a Mat copy (or PH-AT-009). */
bool at_chain_hook(PassCtx *ctx, Function *f, StmtList *l, int *at);
/* An oversized matmul (e->list->items[e->at]) whose result feeds only matmuls (through at most one
 * cast): the M/N grid into a Mat scratch. 1: done (e->at past it); -1: hinted, left untiled; 0: n/a. */
int at_chain_grid(Emit *e, Function *f, const L0TileResult *r, int64_t M, int64_t N, int64_t K);
/* After the walk: an Acc tile still read by a cast or a matmul is a located error. */
bool at_chain_check(PassCtx *ctx, Function *f);
/* ---- the existing-pipeline L0C double buffer (auto_tile_pipeline_dbc.c) ---- */
typedef struct AtDbcLoops AtDbcLoops;
/* The user's pl.pipeline loops of f, taken before the per-call tiling; NULL when the recogniser is off
 * (a planner other than PYPTO, or --no-pipeline-dbc). */
AtDbcLoops *at_dbc_collect(PassCtx *ctx, Function *f);
/* Marks the eligible ones pipeline_double_buffer_c (hint PH-AT-020 for each decline); no-op on NULL. */
void at_pipeline_dbc(PassCtx *ctx, Function *f, AtDbcLoops *loops);
/* ---- the canonical split-K chain (auto_tile_split_k.c) ---- */
/* l->items[*at] may start a create -> K loop -> store chain whose Acc exceeds L0C (stages: the
 * enclosing loops' clone product). Returns 1 when it was replaced by the per-sub-tile grid (the new
 * statements start at *at and still need the per-call tiling), 0 otherwise (a non-canonical chain
 * has been reported with PH-AT-006). */
int at_split_k_chain(PassCtx *ctx, Function *f, StmtList *l, int *at, int64_t stages);
/* A matmul at sp was already reported untiled (its hint must not repeat). */
bool at_already_untiled(PassCtx *ctx, Span sp);

#endif
