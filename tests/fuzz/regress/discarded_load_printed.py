r/  pl

@pl.program
class P:
    @pl.function(type=pl.FunctionType.InCore)
    def ws(self, a: pl.Tensor[[6432 ,], pl.FP32], b: pl.Tensor[[ 48], pl.FP32]):
     pl.load(b, [0, ], [3, 8], target_memory=pl.Mem.Vec)# 1 =