# Row and column reductions of an FP16 block at the tensor level: sums, maxima and minima. Row
# results are [16, 1] columns, column results [1, 64] rows.
import pypto.language as pl


@pl.jit
def reductions(x: pl.Tensor[[16, 64], pl.FP16], rsum: pl.Out[pl.Tensor[[16, 1], pl.FP16]],
               rmax: pl.Out[pl.Tensor[[16, 1], pl.FP16]], rmin: pl.Out[pl.Tensor[[16, 1], pl.FP16]],
               csum: pl.Out[pl.Tensor[[1, 64], pl.FP16]], cmax: pl.Out[pl.Tensor[[1, 64], pl.FP16]],
               cmin: pl.Out[pl.Tensor[[1, 64], pl.FP16]]):
    with pl.at(level=pl.Level.CORE_GROUP):
        rsum[:] = pl.row_sum(x)
        rmax[:] = pl.row_max(x)
        rmin[:] = pl.row_min(x)
        csum[:] = pl.col_sum(x)
        cmax[:] = pl.col_max(x)
        cmin[:] = pl.col_min(x)
    return rsum, rmax, rmin, csum, cmax, cmin
