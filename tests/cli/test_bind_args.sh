#!/usr/bin/env bash
# test_bind_args — specialising a @pl.jit entry from the command line (language.md §1.1, §8
# decision 1): --arg NAME=DxD:dtype / scalar values on parse, compile and run; --in NAME=file.npy
# binding an unshaped parameter's shape and dtype from the file's header (and its data; a shaped
# parameter is checked by the data read as before); --arg over
# --in; usage errors for malformed --arg; a shaped parameter against a different --in file. The
# .npy files are produced by ptoc itself (run --out), so no Python is needed. When the PyPTO
# reference examples are present (/work/shared/reference/pypto-examples, not part of the repository)
# they are run in place with --arg.
# Usage: tests/cli/test_bind_args.sh BUILD_DIR. Prints PASS/FAIL lines, "N passed, M failed" last.
set -u
BUILD=${1:-build}
PTOC="$(cd "$(dirname "$BUILD")" 2>/dev/null && pwd)/$(basename "$BUILD")/ptoc"
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
cd "$ROOT" || exit 1
PASS=0
FAIL=0
TMP=$(mktemp -d)
OUT="$TMP/out"
ERR="$TMP/err"
trap 'rm -rf "$TMP"' EXIT

ok() { echo "PASS $1"; PASS=$((PASS + 1)); }
ko() { echo "FAIL $1: $2"; FAIL=$((FAIL + 1)); }
run() {   # run NAME EXPECTED_RC ARGS...   (stdout -> $OUT, stderr -> $ERR)
    local name=$1 want=$2; shift 2
    timeout 120 "$PTOC" "$@" > "$OUT" 2> "$ERR"
    local rc=$?
    if [ "$rc" -ne "$want" ]; then ko "$name" "exit $rc, want $want; stderr: $(head -c 300 "$ERR")"; return 1; fi
    ok "$name-exit"
}
has() { if grep -qF -- "$3" "$2"; then ok "$1"; else ko "$1" "missing '$3' in: $(head -c 300 "$2")"; fi; }

cat > "$TMP/shaped.py" <<'PY'
import pypto.language as pl


@pl.jit
def make(x: pl.Tensor[[32, 64], pl.FP16], y: pl.Out[pl.Tensor[[32, 64], pl.FP16]]):
    with pl.at(level=pl.Level.CORE_GROUP):
        pl.store(pl.load(x, [0, 0], [32, 64]), [0, 0], y)
    return y
PY
cat > "$TMP/unshaped.py" <<'PY'
import pypto.language as pl


@pl.jit
def twice(x: pl.Tensor, y: pl.Out[pl.Tensor], k: pl.FP32):
    R, C = x.shape
    with pl.at(level=pl.Level.CORE_GROUP):
        t = pl.load(x, [0, 0], [R, C])
        pl.store(pl.mul(t, k), [0, 0], y)
    return y
PY

# a 32x64 FP16 .npy written by ptoc
run make-npy 0 run "$TMP/shaped.py" --out "y=$TMP/a.npy"

# --in binds x (shape and dtype from the header); y and k by --arg
run in-parse 0 parse "$TMP/unshaped.py" --in "x=$TMP/a.npy" --arg y=32x64:fp16 --arg k=2.0
has in-parse-shape "$OUT" "x: pl.Tensor[[32, 64], pl.FP16]"
has in-parse-scalar "$OUT" "pl.tile.muls(t, pl.const(2.0, pl.FP16))"
run in-run 0 run "$TMP/unshaped.py" --in "x=$TMP/a.npy" --arg y=32x64:fp16 --arg k=2.0 --out "y=$TMP/b.npy"
run in-compile 0 compile "$TMP/unshaped.py" --in "x=$TMP/a.npy" --arg y=32x64:fp16 --arg k=0.5

# --arg takes precedence over --in: the run then reads a file of another shape (an error at --in)
run arg-over-in 1 run "$TMP/unshaped.py" --in "x=$TMP/a.npy" --arg x=16x64:fp16 --arg y=16x64:fp16 --arg k=2.0
has arg-over-in-msg "$ERR" "has shape (32, 64) but parameter 'x'"

# --in with a file of another shape for a shaped parameter: the data read's error (a header binds
# unshaped parameters only); an unreadable file binds nothing (parse: x unbound; run: cannot read)
run make-npy2 0 run "$TMP/unshaped.py" --arg x=16x64:fp16 --arg y=16x64:fp16 --arg k=1.0 --out "y=$TMP/c.npy"
run in-mismatch 1 run "$TMP/shaped.py" --in "x=$TMP/c.npy"
has in-mismatch-msg "$ERR" "has shape (16, 64) but parameter 'x'"
run in-missing 1 parse "$TMP/unshaped.py" --in "x=$TMP/none.npy"
has in-missing-msg "$ERR" "parameter 'x' of 'twice' is an unshaped pl.Tensor"
run in-missing-run 1 run "$TMP/shaped.py" --in "x=$TMP/none.npy"
has in-missing-run-msg "$ERR" "cannot read"

# usage errors (exit 2)
run arg-no-dtype 2 parse "$TMP/unshaped.py" --arg x=32x64
has arg-no-dtype-msg "$ERR" "a tensor needs a dtype, e.g. x=32x64:fp32"
run arg-bad-dtype 2 compile "$TMP/unshaped.py" --arg x=32x64:fp64
has arg-bad-dtype-msg "$ERR" "unknown dtype 'fp64'"
run arg-bad-shape 2 run "$TMP/unshaped.py" --arg x=32xx64:fp32
run arg-no-value 2 run "$TMP/unshaped.py" --arg
run arg-no-eq 2 parse "$TMP/unshaped.py" --arg x

# unbound: the error names the parameter and the ways to bind it
run unbound 1 compile "$TMP/unshaped.py" --arg y=32x64:fp16
has unbound-msg "$ERR" "parameter 'x' of 'twice' is an unshaped pl.Tensor and nothing binds its shape"

# the reference PyPTO examples, read in place (not copied into the repository: their licence)
REF=/work/shared/reference/pypto-examples
if [ -d "$REF" ]; then
    A128="--arg a=128x128:fp32 --arg b=128x128:fp32 --arg c=128x128:fp32"
    A64="--arg a=64x64:fp32 --arg b=64x64:fp32 --arg c=64x64:fp32"
    # shellcheck disable=SC2086
    {
        run ref-hello 0 run "$REF/beginner_01_hello_world.py" $A128
        run ref-elementwise 0 run "$REF/beginner_02_elementwise.py:tile_mul_64" $A64
        run ref-chunked 0 run "$REF/beginner_02_elementwise.py:chunked_add" --arg a=512x128:fp32 --arg b=512x128:fp32 --arg c=512x128:fp32
        run ref-matmul 0 run "$REF/beginner_05_matmul.py" $A64
        run ref-softmax 0 run "$REF/intermediate_02_softmax.py" --arg a=64x64:fp32 --arg output=64x64:fp32
        run ref-matmul-acc 0 run "$REF/intermediate_04_matmul_acc.py" $A64
        run ref-staged 0 run "$REF/advanced_03_mixed_kernel.py:staged_matmul_bias" --arg a=128x256:fp16 --arg b=256x128:fp16 \
            --arg bias=128x128:fp32 --arg out=128x128:fp32
    }
fi

echo "$PASS passed, $FAIL failed"
[ "$FAIL" -eq 0 ]
