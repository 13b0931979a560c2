# The reference GEMM written by hand (issue 11): c = a @ b^T, a: M x K, b: N x K (fp16, ND), c: M x N
# fp32, split over 24 cube cores as one SPMD task on a 4 x 6 core grid (core i takes rows
# (i // 6) * M/4 .. and columns (i % 6) * N/6 ..). Each core walks its block in 128 x 256 output
# tiles; a tile's K loop is a first matmul on K chunk 0 and a pl.pipeline(stage=2) of matmul_acc over
# the remaining 64-wide K chunks (the reference base block 128 x 256 x 64; a 256-wide chunk
# does not fit L0 with a carried 128 x 256 accumulator: AutoTileMatmulL0 leaves the matmul_acc untiled, PH-AT-006), then the tile is assembled into c.
# Size: -D S=1536 | 3072 | 6144 (M = N = K = S; default 1536). Meant for `ptoc run --timing-only`:
#   ptoc run bench/gemm_ref_spmd.py:gemm -D S=6144 --timing-only
import pypto.language as pl

S = 1536
TM = 128
TN = 256
TK = 64
GM = 4
GN = 6
PM = S // GM          # rows per core
PN = S // GN          # columns per core
NK = S // TK          # K chunks


@pl.jit
def gemm(a: pl.Tensor[[S, S], pl.FP16], b: pl.Tensor[[S, S], pl.FP16],
         c: pl.Out[pl.Tensor[[S, S], pl.FP32]]):
    for i in pl.spmd(GM * GN, name_hint="gemm_core"):
        r0 = (i // GN) * PM
        c0 = (i % GN) * PN
        for bm in pl.range(PM // TM):
            for bn in pl.range(PN // TN):
                r = r0 + bm * TM
                col = c0 + bn * TN
                acc = pl.matmul(a[r:r + TM, 0:TK], b[col:col + TN, 0:TK], b_trans=True, out_dtype=pl.FP32)
                for k in pl.pipeline(1, NK, stage=2):
                    k0 = k * TK
                    acc = pl.matmul_acc(acc, a[r:r + TM, k0:k0 + TK], b[col:col + TN, k0:k0 + TK], b_trans=True)
                c = pl.assemble(c, acc, [r, col])
    return c
