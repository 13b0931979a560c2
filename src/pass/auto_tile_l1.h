/* auto_tile_l1 — the parts of AutoTileL1 (docs/passes/AutoTileL1.md), one file each:
 *   auto_tile_l1.c          the pass driver: find a Mat-overflowing tensor.matmul stored by one
 *                           tensor.assemble, rewrite it into M/N block nests with a stage-2 K pipeline
 *   auto_tile_l1_choose.c   the (mb, nb, kb) chooser: Mat budget, the L0 chooser's verdict on the
 *                           carried accumulator, and the cycle estimate it minimises */
#ifndef PTOC_AUTO_TILE_L1_H
#define PTOC_AUTO_TILE_L1_H

#include "pass/pass.h"

/* One matmul's problem, in the operands' logical orientation (A is M x K, B is K x N). */
typedef struct L1Problem {
    int64_t M, N, K;
    DType a, b, c;
    bool a_trans, b_trans;
} L1Problem;

typedef struct L1Choice {
    int64_t mb, nb, kb;         /* output block and K chunk */
    int64_t kal;                /* K chunk alignment (the cube fractal / transposed box) */
    int64_t cycles;             /* the model's estimate over all blocks */
    int64_t mat_bytes;          /* 2 x (A block + B block), the double-buffered Mat footprint */
} L1Choice;

/* The part of a buffer AutoTileL1 may plan for: all of it, less an eighth per retry (PassCtx.l1_shrink). */
int64_t at_l1_shrunk(const PassCtx *ctx, int64_t bytes);
/* Mat bytes of a [rows, cols] operand as ConvertTensorToTileOps lays it out (fractal boxes). */
int64_t at_l1_mat_bytes(const Target *t, DType dt, int64_t rows, int64_t cols);
/* Chooses the blocking; false with a reason in why when no candidate fits. */
bool at_l1_choose(PassCtx *ctx, const L1Problem *p, int64_t mat_budget, L1Choice *out, const char **why);

#endif
