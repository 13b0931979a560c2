# An activation chain at the tile level: relu, exp, recip and sigmoid built from them,
# sigmoid(x) = 1 / (1 + exp(-x)); each result goes to its own output.
import pypto.language as pl


@pl.jit
def activations(x: pl.Tensor[[32, 64], pl.FP32], relu: pl.Out[pl.Tensor[[32, 64], pl.FP32]],
                sigmoid: pl.Out[pl.Tensor[[32, 64], pl.FP32]], inv_exp: pl.Out[pl.Tensor[[32, 64], pl.FP32]]):
    with pl.at(level=pl.Level.CORE_GROUP):
        t = pl.load(x, [0, 0], [32, 64], target_memory=pl.Mem.Vec)
        pl.store(pl.relu(t), [0, 0], relu)
        e = pl.exp(t)
        pl.store(pl.recip(e), [0, 0], inv_exp)
        s = pl.recip(pl.add(pl.exp(pl.neg(t)), 1.0))
        pl.store(s, [0, 0], sigmoid)
    return relu, sigmoid, inv_exp
