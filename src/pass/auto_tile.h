/* auto_tile — the parts of AutoTileMatmulL0 (reference/autotile_matmul_l0_pass.md), one file each:
 *   auto_tile_matmul_l0.c   the pass driver: filters, hints, the chooser call, dispatch per regime
 *   auto_tile_kloop.c       the K-loop builder (split K, K peels, the biased head peel)
 *   auto_tile_split_k.c     the canonical split-K chain (create -> K loop -> store) M/N grid
 *   auto_tile_grid.c        the M/N grid builders (split-K grid, full-K nests) and the sub-tile placers
 *                           (direct store to GM, Mat scratch)
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
} Emit;

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

/* The grid with k < K: one K loop per sub-tile, placed in row-major order. */
Expr *at_split_k_grid(Emit *e, const Grid *g, int64_t k, Expr *state);
/* The grid with k == K: nested loops, the outer one owning the stationary panel, boundaries peeled. */
Expr *at_full_k_grid(Emit *e, const Grid *g, Expr *state);

/* ---- the canonical split-K chain (auto_tile_split_k.c) ---- */
/* l->items[*at] may start a create -> K loop -> store chain whose Acc exceeds L0C (stages: the
 * enclosing loops' clone product). Returns 1 when it was replaced by the per-sub-tile grid (the new
 * statements start at *at and still need the per-call tiling), 0 otherwise (a non-canonical chain
 * has been reported with PH-AT-006). */
int at_split_k_chain(PassCtx *ctx, Function *f, StmtList *l, int *at, int64_t stages);
/* A matmul at sp was already reported untiled (its hint must not repeat). */
bool at_already_untiled(PassCtx *ctx, Span sp);

#endif
