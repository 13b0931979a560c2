# pypto.program: constructs
import pypto.language as pl


@pl.program
class constructs:
    @pl.function(type=pl.FunctionType.AIC, level=pl.Level.AIC, role=pl.Role.SubWorker)
    def k(self, a: pl.Tensor[[128, 128], pl.FP16, pl.MemRef("mem_ddr_0", pl.const(0, pl.INT64), 32768)], o: pl.InOut[pl.Tensor[[128, 128], pl.FP32, pl.NZ]]) -> tuple[pl.Tensor[[128, 128], pl.FP32], pl.Scalar[pl.INDEX]]:
        pl.func_attr({"split": 2, "name": "x", "ratio": 0.25, "modes": [pl.Mem.Vec, pl.FP16]})
        mem_mat_0: pl.Ptr = pl.tile.alloc(pl.Mem.Mat, 32768)
        t: pl.Tile[[128, 128], pl.FP16, pl.MemRef(mem_mat_0, pl.const(0, pl.INT64), 32768), pl.Mem.Mat, pl.TileView(valid_shape=[64, 128])] = pl.tile.load(a, [0, 0], [128, 128], [64, 128], target_memory=pl.Mem.Mat)
        v: pl.Tile[[16, 128], pl.FP32, pl.Mem.Vec, pl.TileView(valid_shape=[8, 128], stride=[128, 1], start_offset=0, slayout=pl.TileLayout.row_major, fractal=1024, pad=pl.PadValue.zero, compact=True)] = pl.tile.create([16, 128], dtype=pl.FP32, target_memory=pl.Mem.Vec)
        n: pl.Scalar[pl.INDEX] = -128
        m: pl.Scalar[pl.INT64] = pl.const(-5, pl.INT64)
        f: pl.Scalar[pl.FP16] = pl.const(1.5, pl.FP16)
        g: pl.Scalar[pl.FP32] = 0.5
        h: pl.Scalar[pl.INDEX] = (n + 3) * 2 // 4 % 7
        q: pl.Scalar[pl.BOOL] = not (n < 0 and n >= -5) or n == 1
        r: pl.Scalar[pl.INDEX] = pl.min(n, pl.max(h, 0)) - -3
        for i in pl.range(4):
            pl.tile.store(v, [0, 0], o, atomic=pl.AtomicType.Add)
        for i2, (x, y) in pl.parallel(1, 8, 2, init_values=(n, h), attrs={"core_placement": "spread"}):
            if x < y:
                x2: pl.Scalar[pl.INDEX] = x + 1
                xr, yr = pl.yield_(x2, y)
            else:
                xr, yr = pl.yield_(x, y - 1)
            xo, yo = pl.yield_(xr, yr)
        for j in pl.unroll(2, 4):
            pass
        with pl.at(level=pl.Level.CORE_GROUP, name_hint="k"):
            pass
        with pl.scope(mode=pl.ScopeMode.MANUAL):
            pass
        with pl.spmd(4):
            pass
        with pl.cluster():
            pass
        return o, xo

    @pl.function(type=pl.FunctionType.Orchestration, level=pl.Level.CHIP, role=pl.Role.Orchestrator)
    def main(self, a: pl.Tensor[[128, 128], pl.FP16], o: pl.InOut[pl.Tensor[[128, 128], pl.FP32, pl.NZ]]) -> pl.Scalar[pl.INDEX]:
        r: pl.Tuple[pl.Tensor[[128, 128], pl.FP32, pl.NZ], pl.Scalar[pl.INDEX]] = self.k(a, o)
        s: pl.Scalar[pl.INDEX] = r[1]
        t: pl.Tensor[[128, 128], pl.FP32, pl.NZ] = pl.tensor.matmul_acc(o, a, a, init_cond=(s + 1) * 2 == 4)
        if s > 0:
            pl.tensor.create([16, 16], dtype=pl.FP16)
        return s
