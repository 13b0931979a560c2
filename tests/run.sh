#!/usr/bin/env bash
# Runs every test of the project and prints "N passed, M failed" last.
#   unit:   build/tests/test_*           (each prints its own summary line)
#   embed:  build/tests/embed            (the public API example)
#   golden: tests/golden/*.py            (tests/golden/run_golden.sh)
#   e2e:    examples/*.py tests/e2e/*.py (compiled, simulated, compared with the interpreter)
#   fuzz:   tests/fuzz/run_fuzz_slice.sh (a fixed-seed slice of the program fuzzer)
set -u
BUILD=${1:-build}
PASS=0
FAIL=0
count() {   # add the "N passed, M failed" line of a log to the totals
    local line p f
    line=$(grep -E '^[0-9]+ passed, [0-9]+ failed$' "$1" | tail -n 1)
    if [ -z "$line" ]; then FAIL=$((FAIL + 1)); echo "FAIL $2: no summary line"; return; fi
    p=${line%% passed*}; f=${line#*, }; f=${f%% failed*}
    PASS=$((PASS + p)); FAIL=$((FAIL + f))
}
LOG=$(mktemp)
trap 'rm -f "$LOG"' EXIT

for t in "$BUILD"/tests/test_*; do
    [ -x "$t" ] || continue
    "$t" > "$LOG" 2>&1
    rc=$?
    grep -E '^FAIL' "$LOG"
    count "$LOG" "$(basename "$t")"
    if [ $rc -ne 0 ] && ! grep -q '^FAIL' "$LOG"; then
        echo "FAIL $(basename "$t"): exit code $rc"; tail -n 20 "$LOG"; FAIL=$((FAIL + 1))
    fi
done

if [ -x "$BUILD/tests/embed" ]; then
    if "$BUILD/tests/embed" > "$LOG" 2>&1; then PASS=$((PASS + 1)); else FAIL=$((FAIL + 1)); echo "FAIL embed:"; cat "$LOG"; fi
fi

for s in tests/golden/run_golden.sh tests/e2e/run_e2e.sh tests/cli/run_cli.sh tests/fuzz/run_fuzz_slice.sh; do
    [ -f "$s" ] || continue
    bash "$s" "$BUILD" > "$LOG" 2>&1
    grep -E '^FAIL' "$LOG"
    count "$LOG" "$s"
done

echo "$PASS passed, $FAIL failed"
[ "$FAIL" -eq 0 ]
