#!/usr/bin/env bash
# test_mem — peak RSS of `ptoc run` within 2 x the bytes of the program's tensors + 64 MiB (issue 12
# point 7; docs/cli.md "Memory"), at sizes that run in a few seconds:
# * c = a @ b at 2048 x 2048 x 16 (FP16 in, FP32 out: 16.1 MiB of tensors), the whole product in
#   one `c[:] = pl.matmul(a, b)` (the golden interpreter writes it into c by row bands), with and
#   without --out, and with the transposed operand form pl.matmul(a, b, b_trans=True);
# * c = a + b over 2048 x 2048 FP32 (48 MiB of tensors) in pipelined [32, 256] tiles;
# every run also prints OK (the simulator matches the interpreter) and the --out file holds the
# 16 MiB output after a 128-byte .npy header.
# Needs GNU time (/usr/bin/time); without it, and under a sanitizer build, the bounds are skipped
# (reported as such).
# Usage: tests/cli/test_mem.sh BUILD_DIR. Prints PASS/FAIL lines, "N passed, M failed" last.
set -u
BUILD=${1:-build}
PTOC="$(cd "$(dirname "$BUILD")" 2>/dev/null && pwd)/$(basename "$BUILD")/ptoc"
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
cd "$ROOT" || exit 1
PASS=0
FAIL=0
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
ok() { echo "PASS $1"; PASS=$((PASS + 1)); }
ko() { echo "FAIL $1: $2"; FAIL=$((FAIL + 1)); }
TIME=/usr/bin/time
# Under a sanitizer build (BUILD .../san) the bound does not apply (ASan's shadow and quarantine):
# the runs must still print OK.
case "$BUILD" in *san*) TIME=/nonexistent ;; esac

cat > "$TMP/mm.py" <<'PY'
import pypto.language as pl

@pl.jit
def mm(a: pl.Tensor[[2048, 16], pl.FP16],
       b: pl.Tensor[[16, 2048], pl.FP16],
       c: pl.Out[pl.Tensor[[2048, 2048], pl.FP32]]):
    with pl.at(level=pl.Level.CORE_GROUP):
        c[:] = pl.matmul(a, b, out_dtype=pl.FP32)
    return c
PY
cat > "$TMP/mm_bt.py" <<'PY'
import pypto.language as pl

@pl.jit
def mm_bt(a: pl.Tensor[[2048, 16], pl.FP16],
          b: pl.Tensor[[2048, 16], pl.FP16],
          c: pl.Out[pl.Tensor[[2048, 2048], pl.FP32]]):
    with pl.at(level=pl.Level.CORE_GROUP):
        c[:] = pl.matmul(a, b, b_trans=True, out_dtype=pl.FP32)
    return c
PY
cat > "$TMP/add.py" <<'PY'
import pypto.language as pl

@pl.jit
def add(a: pl.Tensor[[2048, 2048], pl.FP32], b: pl.Tensor[[2048, 2048], pl.FP32],
        c: pl.Out[pl.Tensor[[2048, 2048], pl.FP32]]):
    with pl.at(level=pl.Level.CORE_GROUP):
        for r in pl.pipeline(0, 2048, 32, stage=2):
            for j in pl.range(0, 2048, 256):
                ta = pl.load(a, [r, j], [32, 256], target_memory=pl.Mem.Vec)
                tb = pl.load(b, [r, j], [32, 256], target_memory=pl.Mem.Vec)
                pl.store(pl.add(ta, tb), [r, j], c)
    return c
PY

# bytes of every pl.Tensor[[d0, ...], pl.DTYPE] the program declares
tensor_bytes() {
    grep -o 'Tensor\[\[[0-9, ]*\], *pl\.[A-Z0-9]*' "$1" | sed 's/Tensor\[\[//; s/\], *pl\./ /; s/,/ /g' |
        awk '{ n = 1; for (i = 1; i < NF; i++) n *= $i
               b = 1
               if ($NF ~ /^(FP32|INT32|UINT32)$/) b = 4
               if ($NF ~ /^(FP16|BF16|INT16|UINT16)$/) b = 2
               s += n * b } END { printf "%d\n", s }'
}

within_bound() {   # within_bound NAME PROGRAM EXPECTED_TENSOR_BYTES [ptoc run options]
    local name=$1 prog=$2 want=$3; shift 3
    local t; t=$(tensor_bytes "$prog")
    [ "$t" = "$want" ] || { ko "$name" "tensor bytes $t, expected $want"; return; }
    if [ ! -x "$TIME" ]; then
        "$PTOC" run "$prog" "$@" > "$TMP/out" 2>&1
        if grep -qx OK "$TMP/out"; then ok "$name (OK; peak RSS not measured)"; else ko "$name" "not OK"; fi
        return
    fi
    "$TIME" -f 'maxrss_kb %M' "$PTOC" run "$prog" "$@" > "$TMP/out" 2>&1
    grep -qx OK "$TMP/out" || { ko "$name" "not OK: $(tail -3 "$TMP/out" | tr '\n' ' ')"; return; }
    local kb; kb=$(grep -o 'maxrss_kb [0-9]*' "$TMP/out" | awk '{ print $2 }')
    local bound=$(( (2 * t + 64 * 1048576) / 1024 ))
    if [ -n "$kb" ] && [ "$kb" -le "$bound" ]; then ok "$name: peak RSS $kb KiB <= $bound KiB (2 x $t B + 64 MiB)"
    else ko "$name" "peak RSS ${kb:-?} KiB > $bound KiB (2 x $t B + 64 MiB)"; fi
}

MM_BYTES=$((2048 * 16 * 2 * 2 + 2048 * 2048 * 4))
within_bound "matmul 2048x2048x16" "$TMP/mm.py" "$MM_BYTES"
within_bound "matmul 2048x2048x16 --out" "$TMP/mm.py" "$MM_BYTES" --out "c=$TMP/c.npy"
size=$(wc -c < "$TMP/c.npy" 2>/dev/null || echo 0)
if [ "$size" = $((128 + 2048 * 2048 * 4)) ]; then ok "--out c.npy: $size bytes"; else ko "--out c.npy" "$size bytes"; fi
within_bound "matmul b_trans 2048x2048x16" "$TMP/mm_bt.py" "$MM_BYTES"
within_bound "tiled add 2048x2048 FP32" "$TMP/add.py" $((3 * 2048 * 2048 * 4))

echo "$PASS passed, $FAIL failed"
[ "$FAIL" -eq 0 ]
