# progfuzz finding (seeds 87 / 334 of --seed 1 --count 400): under LEFT_RIGHT the two AIV lanes store the
# column halves of rows 260 bytes apart, so their pieces share 32-byte GM granules; the simulator
# reported a WAW race between the lanes until 4f71719. Values and the race check must be clean.
# expect-json: "races":0
import pypto.language as pl


@pl.jit
def fz(
        x4: pl.Tensor[[16, 16], pl.BF16],
        x5: pl.Tensor[[16, 64], pl.BF16],
        y6: pl.Out[pl.Tensor[[16, 65], pl.FP32]]):
    with pl.at(level=pl.Level.CORE_GROUP, optimizations=[pl.split(pl.SplitMode.LEFT_RIGHT)], name_hint="mix1"):
        acc1 = pl.matmul(x4[0:16, 0:16], x5[0:16, 0:64], out_dtype=pl.FP32)
        v1_0 = pl.relu(acc1)
        y6[0:16, 0:64] = v1_0
    return y6
