#!/usr/bin/env bash
# test_valgrind — the main commands are valgrind-clean (no invalid access, no use of uninitialised
# values, no leak). Skipped for the sanitizer build (ASan and valgrind do not mix) and when valgrind
# is not installed.
set -u
BUILD=${1:-build}
PTOC="$BUILD/ptoc"
PASS=0
FAIL=0
if ! command -v valgrind > /dev/null 2>&1 || [ "$(basename "$BUILD")" = san ]; then
    echo "skip: valgrind not available or sanitizer build"
    echo "0 passed, 0 failed"
    exit 0
fi
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
vg() {   # vg NAME CMD... : the command runs under memcheck with errors and leaks made fatal
    local name=$1; shift
    valgrind -q --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite,indirect "$@" > "$T/out" 2> "$T/err" < /dev/null
    if [ $? -eq 99 ]; then FAIL=$((FAIL + 1)); echo "FAIL $name: $(head -c 600 "$T/err")"; else PASS=$((PASS + 1)); echo "PASS $name"; fi
}
vg "run matmul" "$PTOC" run examples/matmul.py
vg "run grid" "$PTOC" run examples/matmul_256x256x512.py
vg "compile -o" "$PTOC" compile examples/matmul.py -o "$T/o"
vg "compile error" "$PTOC" compile tests/e2e/errors/k4096_mat_overflow.py --no-auto-l1
vg "auto L1" "$PTOC" run tests/e2e/l1_ragged_200x136x3000_fp16.py
vg "parse error" "$PTOC" run tests/e2e/errors/missing_colon.py
vg "tile explorer" "$PTOC" tile 256 256 256 --dtype fp32
vg "embed" "$BUILD/tests/embed"
echo "$PASS passed, $FAIL failed"
[ "$FAIL" -eq 0 ]
