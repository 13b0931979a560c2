# A module-level @pl.function kernel called by bare name from two @pl.program classes (language.md
# §1.3): each program gets its own copy; each class is selected by name.
# entry: Once
# entry: Twice
import pypto.language as pl


@pl.function(type=pl.FunctionType.InCore)
def add_one(a: pl.Tensor[[32, 64], pl.FP32],
            c: pl.Out[pl.Tensor[[32, 64], pl.FP32]]) -> pl.Tensor[[32, 64], pl.FP32]:
    t: pl.Tile[[32, 64], pl.FP32] = pl.load(a, [0, 0], [32, 64])
    c = pl.store(pl.add(t, 1.0), [0, 0], c)
    return c


@pl.program
class Once:
    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, a: pl.Tensor[[32, 64], pl.FP32],
             c: pl.Out[pl.Tensor[[32, 64], pl.FP32]]) -> pl.Tensor[[32, 64], pl.FP32]:
        c = add_one(a, c)
        return c


@pl.program
class Twice:
    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, a: pl.Tensor[[32, 64], pl.FP32],
             c: pl.Out[pl.Tensor[[32, 64], pl.FP32]]) -> pl.Tensor[[32, 64], pl.FP32]:
        tmp: pl.Tensor[[32, 64], pl.FP32] = pl.create_tensor([32, 64], dtype=pl.FP32)
        tmp = add_one(a, tmp)
        c = add_one(tmp, c)
        return c
