#!/usr/bin/env bash
# gen_large — writes a 500-line program to stdout: 10 @pl.jit functions (element-wise, 64 x 64 FP32),
# about 380 lines of ordinary Python around them (constants, helpers the reader skips), and a main
# block with 10 calls and 20 checks. Used by tests/cli/test_main_block.sh for the reader's speed
# (spec: < 1 s host time for such a file).
set -u
echo "import torch"
echo "import pypto.language as pl"
echo "from pypto.runtime import RunConfig"
echo
echo "R = 64"
echo "C = 64"
for k in $(seq 0 9); do
    echo
    echo "@pl.jit"
    echo "def k$k(a: pl.Tensor[[R, C], pl.FP32], b: pl.Tensor[[R, C], pl.FP32], c: pl.Out[pl.Tensor[[R, C], pl.FP32]]):"
    echo "    with pl.at(level=pl.Level.CORE_GROUP):"
    if [ $((k % 2)) -eq 0 ]; then echo "        c[:] = pl.add(a, b)"; else echo "        c[:] = pl.mul(a, b)"; fi
    echo "    return c"
done
lines=$((6 + 10 * 6))
i=0
while [ $lines -lt 400 ]; do
    echo
    echo "def helper_$i(x, y):"
    echo "    # plain Python the reader skips"
    echo "    return x * $i + y"
    lines=$((lines + 4)); i=$((i + 1))
done
echo
echo 'if __name__ == "__main__":'
echo "    torch.manual_seed(0)"
echo "    cfg = RunConfig()"
echo "    a = torch.randn(R, C, dtype=torch.float32)"
echo "    b = torch.rand((R, C), dtype=torch.float32)"
for k in $(seq 0 9); do
    echo "    c$k = torch.zeros(R, C, dtype=torch.float32)"
    echo "    k$k(a, b, c$k, config=cfg)"
    if [ $((k % 2)) -eq 0 ]; then op="+"; else op="*"; fi
    echo "    assert torch.allclose(c$k, a $op b, rtol=1e-5, atol=1e-5)"
    echo "    torch.testing.assert_close(c$k[:, :32], (a $op b)[:, :32])"
    echo "    print(\"k$k ok\")"
    echo "    e$k = (a $op b).sum(dim=1)"
    echo "    s$k = c$k.sum(dim=1)"
done
n=$(( 500 - lines - 3 - 5 - 10 * 7 - 2 ))
for j in $(seq 1 $n); do echo "    # padding line $j"; done
echo '    print("OK")'
