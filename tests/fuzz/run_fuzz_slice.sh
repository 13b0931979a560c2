#!/usr/bin/env bash
# run_fuzz_slice — the fixed-seed slice of the differential program fuzzer for `make test`
# (docs/fuzzing.md): seeds 1..N of build/progfuzz with the default features, each program compiled,
# simulated and compared with the interpreter in-process. N = 1500 (about 12 s), 250 under the
# sanitizers (build/san, about 20 s). A failing program is minimised; its text is printed here and kept in
# fuzz-slice-out/. Prints "FAIL progfuzz seed ..." per failure and ends with "N passed, M failed".
set -u
BUILD=${1:-build}
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
cd "$ROOT" || exit 1
COUNT=${FUZZ_SLICE_COUNT:-1500}
case "$BUILD" in *san*) COUNT=${FUZZ_SLICE_COUNT:-250} ;; esac
OUT=$(mktemp -d)
LOG=$(mktemp)
trap 'rm -rf "$OUT" "$LOG"' EXIT
if [ ! -x "$BUILD/progfuzz" ]; then echo "FAIL progfuzz: $BUILD/progfuzz not built"; echo "0 passed, 1 failed"; exit 1; fi
"$BUILD/progfuzz" --seed 1 --count "$COUNT" --out "$OUT" > "$LOG" 2>&1
rc=$?
sed -n 's/^seed \([0-9]*\): \(.*\)$/FAIL progfuzz seed \1: \2/p' "$LOG"
grep -E '^progfuzz:|^  [a-z-]+ +[0-9]+$' "$LOG"
if ls "$OUT"/*.min.py > /dev/null 2>&1; then
    mkdir -p fuzz-slice-out && cp "$OUT"/* fuzz-slice-out/
    for f in "$OUT"/*.min.py; do echo "--- $(basename "$f") (kept in fuzz-slice-out/)"; cat "$f"; done
fi
summary=$(grep -E '^[0-9]+ passed, [0-9]+ failed$' "$LOG" | tail -n 1)
if [ -z "$summary" ]; then echo "FAIL progfuzz: exit $rc, no summary"; tail -n 5 "$LOG"; echo "0 passed, 1 failed"; exit 1; fi
echo "$summary"
[ "$rc" -eq 0 ]
