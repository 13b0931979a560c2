#!/usr/bin/env bash
# test_chain — chained matmuls (AutoTileMatmulL0 cast fold and Mat-scratch grid) against numpy: each
# tests/chain/NAME.py runs on the committed integer inputs of tests/chain/gen_chain.py, whose
# intermediate hits exact BF16 / FP16 ties, so the output equals tests/chain/data/NAME.d.expect.npy
# bit for bit only if the Acc -> Mat copy rounds half to even (simulator), and the report's
# "vs golden" error must be 0 (the interpreter agrees). Prints "N passed, M failed" last.
set -u
BUILD=${1:-build}
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
cd "$ROOT" || exit 1
case $BUILD in /*) ;; *) BUILD="$ROOT/$BUILD" ;; esac
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
pass=0 failn=0
for n in castfold_kloop_bf16 matscratch_256_bf16 matscratch_peel_fp16; do
    D=tests/chain/data/$n
    if "$BUILD/ptoc" run tests/chain/$n.py --in a=$D.a.npy --in b=$D.b.npy --in e=$D.e.npy --out d="$T/$n.npy" > "$T/log" 2>&1 &&
       grep -q "vs golden: max abs err 0," "$T/log" && "$BUILD/tests/npycmp" "$T/$n.npy" $D.d.expect.npy > "$T/cmp" 2>&1; then
        echo "PASS chain $n"; pass=$((pass + 1))
    else
        echo "FAIL chain $n"; tail -3 "$T/log"; cat "$T/cmp" 2>/dev/null; failn=$((failn + 1))
    fi
done
echo "$pass passed, $failn failed"
[ $failn -eq 0 ]
