/* AutoTileL1 — automatic L1 (Mat) tiling of matmuls whose operands exceed the Mat buffer (issue 11).
 *
 * Requires: outlined InCore functions holding tensor-level matmuls (runs before
 *   ConvertTensorToTileOps).
 * Produces: (being written) K/M/N-blocked loops with a stage-2 pipeline over K chunks.
 * Does: nothing yet: the pass holds its place in the pipeline so the dump numbering is final. */
#include "pass/pass.h"

bool pass_auto_tile_l1(Program *p, PassCtx *ctx) {
    (void)p; (void)ctx;
    return true;
}
