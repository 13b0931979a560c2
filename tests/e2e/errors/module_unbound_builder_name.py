# A builder parameter without a default, a call site or -D: the error names it, the builder, what
# can be bound and the -D spelling.
# expect: module_unbound_builder_name.py:16:44: error:
# expect: 'cols' is a parameter of 'build' (line 10) without a value
# expect: -D cols=VALUE
# expect: names of build that can be bound: rows, cols, n
import pypto.language as pl


def build(rows=64, cols=None):
    n = rows // 32

    @pl.program
    class P:
        @pl.function(type=pl.FunctionType.Orchestration)
        def main(self, x: pl.Tensor[[rows, cols], pl.FP32]) -> pl.Tensor[[rows, cols], pl.FP32]:
            return x

    return P
