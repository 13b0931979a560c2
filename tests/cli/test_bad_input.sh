#!/usr/bin/env bash
# test_bad_input — what ptoc says about inputs that are not programs and outputs it cannot write:
# a directory, /dev/zero (capped read), bytes that are not UTF-8 reaching the --json and --batch
# output (must stay valid JSON), unwritable --keep / --out / --dump-passes (the verdict line and
# the exit code agree and name the path), and deps.json identical across two identical runs.
# Usage: tests/cli/test_bad_input.sh BUILD_DIR. Prints PASS/FAIL lines, "N passed, M failed" last.
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
    timeout 60 "$PTOC" "$@" > "$OUT" 2> "$ERR"
    local rc=$?
    if [ "$rc" -ne "$want" ]; then ko "$name" "exit $rc, want $want; stderr: $(head -c 300 "$ERR")"; return 1; fi
    ok "$name-exit"
}
has() { if grep -qF -- "$3" "$2"; then ok "$1"; else ko "$1" "missing '$3' in: $(head -c 300 "$2")"; fi; }
hasnt() { if grep -qF -- "$3" "$2"; then ko "$1" "unexpected '$3' in: $(head -c 300 "$2")"; else ok "$1"; fi; }
# no line that is exactly $3 (a verdict line; a substring could be part of a random temporary path)
hasnt_line() { if grep -qxF -- "$3" "$2"; then ko "$1" "unexpected line '$3' in: $(head -c 300 "$2")"; else ok "$1"; fi; }
last_line() { if [ "$(tail -n 1 "$2")" = "$3" ]; then ok "$1"; else ko "$1" "last line '$(tail -n 1 "$2")', want '$3'"; fi; }
# a strict UTF-8 JSON check (one document per line)
json_lines() {
    if python3 -c 'import json,sys
for l in sys.stdin.buffer.read().decode("utf-8").splitlines(): json.loads(l)' < "$2" 2> "$TMP/jerr"; then ok "$1"
    else ko "$1" "not valid UTF-8 JSON: $(head -c 200 "$TMP/jerr")"; fi
}

# ---- inputs that are not program files ----
run directory 1 run "$TMP" && has directory-msg "$ERR" "'$TMP' is a directory"
hasnt directory-not-jit "$ERR" "no @pl.jit function"
run devzero 1 compile /dev/zero && has devzero-msg "$ERR" "'/dev/zero' is larger than 16 MiB"
run devzero-json 1 run /dev/zero --json && json_lines devzero-json-valid "$OUT"
run devzero-npy 1 run examples/matmul.py --in a=/dev/zero && has devzero-npy-msg "$ERR" "'/dev/zero' is larger than a .npy of parameter 'a'"

# ---- bytes that are not UTF-8 in names and text reaching JSON ----
NAME=$(printf "$TMP/caf\xe9.py")
cp examples/matmul.py "$NAME"
run latin1-path 0 run "$NAME" --json && json_lines latin1-path-json "$OUT"
printf 'import pypto.language as pl\n@pl.jit\ndef f(a: pl.Tensor[[16, 16], pl.FP16]):\n    x\xff = 1\n' > "$TMP/bad.py"
run latin1-source 1 run "$TMP/bad.py" --json && json_lines latin1-source-json "$OUT"
has latin1-source-msg "$ERR" "byte 0xff is not UTF-8"
printf 'M=16 N=16 K=\xff\nM=16 N=16 K=16\n' | "$PTOC" tile --batch > "$OUT" 2> "$ERR"
json_lines batch-json "$OUT"

# ---- generated programs deep enough to overflow a recursive walk (they crashed with SIGSEGV) ----
gen() {   # gen FILE EXPR: a program assigning EXPR inside a loop
    { printf 'import pypto.language as pl\n\n@pl.jit\ndef f(a: pl.Tensor[[16, 16], pl.FP16],\n'
      printf '      c: pl.Out[pl.Tensor[[16, 16], pl.FP32]]):\n    for i in pl.range(2):\n        x = %s\n' "$2"
      printf '    with pl.at(level=pl.Level.CORE_GROUP):\n        c[:] = pl.matmul(a, a, out_dtype=pl.FP32)\n    return c\n'; } > "$1"
}
gen "$TMP/chain.py" "i$(python3 -c 'print(" + i" * 200000)')"
run long-chain 1 run "$TMP/chain.py" && has long-chain-msg "$ERR" "chain.py:7:13: error: expression too long (400001 tokens, at most 2000)"
has long-line-window "$ERR" " + i + ..."
gen "$TMP/pow.py" "i$(python3 -c 'print(" ** 1" * 200000)')"
run pow-chain 1 run "$TMP/pow.py" && has pow-chain-msg "$ERR" "error: expression nested too deeply"
gen "$TMP/parens.py" "$(python3 -c 'print("(" * 100000 + "i" + ")" * 100000)')"
run paren-chain 1 run "$TMP/parens.py" && has paren-chain-msg "$ERR" "error: expression nested too deeply"

# ---- outputs that cannot be written: the verdict line agrees with the exit code ----
touch "$TMP/file"
run keep-unwritable 1 run examples/matmul.py --keep "$TMP/file/sub"
last_line keep-verdict "$OUT" "FAIL: cannot create directory '$TMP/file/sub': Not a directory"
hasnt_line keep-no-ok "$OUT" "OK"
run keep-unwritable-json 1 run examples/matmul.py --keep "$TMP/file/sub" --json && has keep-json "$OUT" '{"ok":false'
run out-unwritable 1 run examples/matmul.py --out "c=$TMP/nodir/c.npy"
last_line out-verdict "$OUT" "FAIL: cannot write '$TMP/nodir/c.npy': No such file or directory"
run dump-unwritable 1 compile examples/matmul.py --dump-passes "$TMP/file/d"
has dump-msg "$ERR" "cannot write the pass dump '$TMP/file/d/00_frontend.py': Not a directory"

# an empty directory name used to mean the file system's root ("" + "/ptoas/...")
run out-empty 1 compile examples/matmul.py -o "" && has out-empty-msg "$ERR" "the output directory is an empty string"
run dump-empty 1 compile examples/matmul.py --dump-passes "" && has dump-empty-msg "$ERR" "the pass dump directory is an empty string"
run keep-empty 1 run examples/matmul.py --keep ""
last_line keep-empty-verdict "$OUT" "FAIL: the output directory is an empty string; give a directory such as out/"

# ---- deps.json is the same for two identical runs (no host addresses in it) ----
run deps-1 0 run tests/e2e/mm_chain.py --keep "$TMP/k1"
run deps-2 0 run tests/e2e/mm_chain.py --keep "$TMP/k2"
if cmp -s "$TMP/k1/run/deps.json" "$TMP/k2/run/deps.json"; then ok deps-identical; else ko deps-identical "two runs differ"; fi
has deps-virtual-address "$TMP/k1/run/deps.json" '"buffer_addr":"4294967296"'

echo "$PASS passed, $FAIL failed"
[ "$FAIL" -eq 0 ]
