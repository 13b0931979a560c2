/* pipeline: the ordered pass list and the driver loop (verification after each pass, hook for
 * dumps, round-trip checks and timing). The order is the reference order of
 * spec/ir_and_passes.md §7 minus the passes that have nothing to do for the supported op set. */
#include "pass/pass.h"

#include <string.h>

static const PassInfo pipeline[] = {
    { "ConvertToSSA", pass_convert_to_ssa, IRP_SSA },
    { "FlattenCallExpr", pass_flatten_call_expr, IRP_SSA },
    { "AutoSplitCores", pass_auto_split_cores, IRP_SSA },
    { "OutlineIncoreScopes", pass_outline_incore_scopes, IRP_SSA | IRP_SPLIT_INCORE_ORCH },
    { "AutoTileL1", pass_auto_tile_l1, IRP_SSA | IRP_SPLIT_INCORE_ORCH },
    { "RotateMixedLoops", pass_rotate_mixed_loops, IRP_SSA | IRP_SPLIT_INCORE_ORCH },
    { "ConvertTensorToTileOps", pass_convert_tensor_to_tile_ops, IRP_SSA | IRP_INCORE_TILE_OPS },
    { "BlockNzTensorViews", pass_block_nz_tensor_views, IRP_SSA | IRP_INCORE_TILE_OPS },
    { "AutoTileMatmulL0", pass_auto_tile_matmul_l0, IRP_SSA | IRP_INCORE_TILE_OPS },
    { "LowerCompositeOps", pass_lower_composite_ops, IRP_SSA | IRP_INCORE_TILE_OPS },
    { "InferTileMemorySpace", pass_infer_tile_memory_space, IRP_SSA | IRP_TILE_MEMORY },
    { "ExpandMixedKernel", pass_expand_mixed_kernel, IRP_SSA | IRP_TILE_MEMORY },
    { "LowerPipelineLoops", pass_lower_pipeline_loops, IRP_SSA | IRP_TILE_MEMORY },
    { "CanonicalizeIOOrder", pass_canonicalize_io_order, IRP_SSA | IRP_TILE_MEMORY },
    { "InitMemRef", pass_init_memref, IRP_HAS_MEMREFS },
    { "MaterializeSemanticAliases", pass_materialize_semantic_aliases, IRP_HAS_MEMREFS },
    { "MemoryReuse", pass_memory_reuse, IRP_HAS_MEMREFS },
    { "AllocateMemoryAddr", pass_allocate_memory_addr, IRP_HAS_MEMREFS | IRP_ALLOCATED },
    { "DeriveCallDirections", pass_derive_call_directions, IRP_HAS_MEMREFS },
    { "Simplify", pass_simplify, IRP_HAS_MEMREFS },
    { "MaterializeRuntimeScopes", pass_materialize_runtime_scopes, IRP_HAS_MEMREFS },
};

const PassInfo *pass_pipeline(int *n) {
    *n = (int)(sizeof pipeline / sizeof pipeline[0]);
    return pipeline;
}

bool pass_run_pipeline(Program *p, PassCtx *ctx, PassHook hook, void *ud) {
    int n;
    const PassInfo *list = pass_pipeline(&n);
    for (int i = 0; i < n; i++) {
        double t0 = base_now_seconds();
        int errors = ctx->diag->nerrors;
        bool ok = list[i].fn(p, ctx);
        if (!ok || ctx->diag->nerrors > errors) return false;
        if (!ir_verify(p, list[i].produces, ctx->diag)) return false;
        if (hook && !hook(ud, i + 1, &list[i], p, base_now_seconds() - t0)) return false;
    }
    return true;
}
