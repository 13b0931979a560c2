#!/usr/bin/env bash
# bench/gen/scale — prints a generated pl program of N units to stdout (the compile-scaling programs of
# issue 12 point 4; used by bench/compile_scale.sh and tests/cli/test_compile_scale.sh):
#   mm N     one pl.at region holding N independent 16x16x16 fp16 matmuls, one row block each
#   region N N pl.at regions of one such matmul each (N kernels, N tasks)
#   stmt N   one pl.at region holding a chain of N statements (t = pl.add(t, 1.0) on a 16x16 fp32
#            tile: N - 1 vector ops and the store)
# Usage: bash bench/gen/scale.sh KIND N > prog.py
set -eu
kind=$1 n=$2
[ "$n" -ge 1 ] || { echo "gen/scale: N must be >= 1" >&2; exit 2; }
echo "import pypto.language as pl"
echo
echo "@pl.jit"
case $kind in
mm|region)
    echo "def scale(a: pl.Tensor[[$((16 * n)), 16], pl.FP16], b: pl.Tensor[[16, 16], pl.FP16],"
    echo "          c: pl.Out[pl.Tensor[[$((16 * n)), 16], pl.FP32]]):"
    [ "$kind" = mm ] && echo "    with pl.at(level=pl.Level.CORE_GROUP):"
    for ((i = 0; i < n; i++)); do
        r="$((16 * i)):$((16 * i + 16))"
        if [ "$kind" = mm ]; then
            echo "        c[$r, :] = pl.matmul(a[$r, :], b, out_dtype=pl.FP32)"
        else
            echo "    with pl.at(level=pl.Level.CORE_GROUP):"
            echo "        c[$r, :] = pl.matmul(a[$r, :], b, out_dtype=pl.FP32)"
        fi
    done
    echo "    return c" ;;
stmt)
    echo "def scale(x: pl.Tensor[[16, 16], pl.FP32], y: pl.Out[pl.Tensor[[16, 16], pl.FP32]]):"
    echo "    with pl.at(level=pl.Level.CORE_GROUP):"
    echo "        t = pl.add(x, 1.0)"
    for ((i = 2; i < n; i++)); do echo "        t = pl.add(t, 1.0)"; done
    echo "        y[:] = t"
    echo "    return y" ;;
*) echo "gen/scale: unknown kind '$kind' (mm, region, stmt)" >&2; exit 2 ;;
esac
