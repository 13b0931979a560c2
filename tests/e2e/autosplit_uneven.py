# AutoSplitCores with no grid of equal 16-aligned blocks: M = 1000 and N = 1001 have none on the 24 cube
# cores, so the region becomes the four tasks of an uneven 3 x 8 grid — 2 x 7 whole blocks of
# [336, 128], the last block column (105 wide), the last block row (328 high) and their corner —
# which write disjoint windows of c and run at once (no edges: DeriveCallDirections does not order
# split siblings; the task-level race check confirms they are disjoint). Until 2026-12-01 the region
# stayed on one core (171,747 cycles; now 11,735).
# expect-json: PH-SC-001
# expect-json: as 4 independent tasks of an uneven 3 x 8 grid: per-core blocks [336, 128] x K 256, the last block row 328 high and the last block column 105 wide
# expect-json: "tasks":4,"edges":0
# expect-json: "makespan_cycles":11735
# expect-json: "races":0
import pypto.language as pl


@pl.jit
def mm(a: pl.Tensor[[1000, 256], pl.FP16], b: pl.Tensor[[256, 1001], pl.FP16], c: pl.Out[pl.Tensor[[1000, 1001], pl.FP32]]):
    with pl.at(level=pl.Level.CORE_GROUP):
        c[:] = pl.matmul(a, b, out_dtype=pl.FP32)
    return c
