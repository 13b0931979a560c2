#!/usr/bin/env bash
# test_defines_entries — `-D NAME=VALUE` (builder parameters, module constants, bad values) and
# `prog.py:NAME` entry selection by class name and dotted path, on the module_* e2e programs.
# Usage: tests/cli/test_defines_entries.sh BUILD_DIR. Prints PASS/FAIL lines, "N passed, M failed" last.
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
run() {
    local name=$1 want=$2; shift 2
    "$PTOC" "$@" > "$OUT" 2> "$ERR"
    local rc=$?
    if [ "$rc" -ne "$want" ]; then ko "$name" "exit $rc, want $want; stderr: $(head -c 300 "$ERR")"; return 1; fi
    ok "$name-exit"
}
has() { if grep -qF -- "$3" "$2"; then ok "$1"; else ko "$1" "missing '$3' in: $(head -c 300 "$2")"; fi; }

B=tests/e2e/module_builder_call_args.py
run call-args 0 parse $B:build.AddRows && has call-args-shape "$OUT" "pl.Tensor[[64, 128], pl.FP32]"
run define-param 0 parse $B:AddRows -D M=32 && has define-param-shape "$OUT" "pl.Tensor[[32, 128], pl.FP32]"
run define-joined 0 parse -DN=16 $B && has define-joined-shape "$OUT" "pl.Tensor[[64, 16], pl.FP32]"
run define-module-const 0 parse $B -D K=32 && has define-module-const-loop "$OUT" "pl.range(2)"
run define-bad 1 parse $B -D M=abc && has define-bad-msg "$ERR" "-D M: 'abc' is not an integer, a float, True or False"
run define-noeq 1 parse $B -D M && has define-noeq-msg "$ERR" "expected NAME=VALUE"
run define-missing 2 parse $B -D
run run-define 0 run $B -D M=32 && has run-define-ok "$OUT" "OK"
run compile-define 0 compile tests/e2e/module_dynamic_dim.py -D M=32
T=tests/e2e/module_test_class.py
run ambiguous 1 parse $T:P && has ambiguous-msg "$ERR" "'P' names 2 @pl.program classes"
run default-note 0 parse $T && has default-note-msg "$ERR" "has several entries"
run by-path 0 parse $T:TestRows.get_program.P && has by-path-shape "$OUT" "pl.Tensor[[64, 128], pl.FP32]"
run fn-entry 0 parse tests/e2e/module_shared_kernel.py:main
echo "$PASS passed, $FAIL failed"
[ "$FAIL" -eq 0 ]
