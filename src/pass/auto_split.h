/* auto_split — internals of AutoSplitCores (issue 11 point 2), shared by its files:
 *   auto_split_plan.c   the cost model and the choice of the core grid (split_plan);
 *   auto_split_cores.c  the pass: matching a region, rewriting it to one SPMD task, the hints;
 *   auto_split_match.c  the region matcher (one matmul, an elementwise epilogue, one assemble);
 *   auto_split_lint.c   the split-K lint (a loop of regions accumulating into one tensor).
 * Perf hints: PH-SC-001 (split chosen), PH-SC-002 (a large matmul left whole, and why), PH-SC-003
 * (split-K lint). docs/passes/README.md lists them. */
#ifndef PTOC_PASS_AUTO_SPLIT_H
#define PTOC_PASS_AUTO_SPLIT_H

#include "pass/pass.h"

/* The smallest per-core output block worth a core (outputs), and the smallest estimated gain
 * (single-core makespan / split makespan) for which the split is made. */
#define SPLIT_MIN_BLOCK_OUTPUTS (128 * 128)
#define SPLIT_MIN_GAIN 1.5

/* The matmul to split: C[M, N] = A[M, K] @ B[K, N], operand dtype in, accumulator acc. An epilogue
 * (vector work on the result) makes each block a mixed kernel whose vector half must fit Vec. */
typedef struct SplitShape {
    int64_t M, N, K;
    DType in, acc;
    bool epilogue;
    double vec_bytes_per_output;    /* estimated Vec bytes per output element of an epilogue */
} SplitShape;

typedef struct SplitPlan {
    int gm, gn;                 /* core grid: gm block rows x gn block columns (gm * gn blocks) */
    int64_t bm, bn;             /* per-core output block */
    double t1, tn;              /* estimated makespans in cycles: one core, the grid */
    double traffic;             /* GM -> L1 bytes over all blocks (tie-break) */
} SplitPlan;

/* Chooses the grid on at most `cores` cube cores. Always fills *out (gm = gn = 1 when nothing better
 * exists); returns true when the split pays (more than one block, blocks of at least
 * SPLIT_MIN_BLOCK_OUTPUTS, gain at least SPLIT_MIN_GAIN). */
bool split_plan(const Target *t, int cores, const SplitShape *s, SplitPlan *out);
/* The same search with blocks that need not divide M and N (ceil(dim / g) aligned to 16, the last one
 * smaller but at least 16): the grid of AutoSplitCores' uneven split where no grid of equal blocks pays. */
bool split_plan_uneven(const Target *t, int cores, const SplitShape *s, SplitPlan *out);

/* One matched region (auto_split_match.c). */
typedef struct SplitOperand {
    Var *base;                  /* the tensor outside the region the operand is a window of */
    Expr *off[2];               /* window offsets into base (outside values or region scalars) */
    Stmt *slice;                /* the region's tensor.slice making the window, NULL = base itself */
} SplitOperand;

typedef struct SplitRegion {
    Stmt *scope;                /* the SC_INCORE region */
    Stmt *mm;                   /* x = tensor.matmul(A, B, ...) */
    SplitOperand a, b;
    bool a_trans, b_trans;
    int64_t M, N, K;
    int epilogue_ops;           /* statements between the matmul and the store */
    int full_operands;          /* epilogue tensor operands of the full [M, N] shape */
    Stmt *store;                /* c' = tensor.assemble(c, x_last, offs) */
} SplitRegion;

/* The function's variable reads (counted before any split) and a scratch count for one region. */
typedef struct SplitReads { PassUses all, inside; } SplitReads;

/* Matches a region. On false, *why says what blocks the split (static text) and r->mm is the
 * region's matmul when it has one (for the hint). */
bool split_match_region(PassCtx *ctx, Function *f, SplitReads *reads, Stmt *scope, SplitRegion *r, const char **why);

/* The split-K lint over one function (auto_split_lint.c). */
void split_lint_function(PassCtx *ctx, Function *f);

#endif
