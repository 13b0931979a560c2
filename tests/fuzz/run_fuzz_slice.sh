#!/usr/bin/env bash
# run_fuzz_slice — the fixed-seed slice of the differential program fuzzer for `make test`
# (docs/fuzzing.md): seeds 1..N of build/progfuzz with the default features (about a third of them hold
# a mixed cube + vector region: features mix*), then seeds 1..V with the vector features too (default,+vec), each program compiled, simulated and compared with the
# interpreter in-process, then seeds 1..T of default,+vec,+threads (each also run with 2 host threads:
# byte-identical outputs, cycles and reports). N = 1500, V = 1000, T = 200 (about 35 s together); 250,
# 150 and 40 under the sanitizers (build/san). A failing program is minimised; its text is printed here and kept in fuzz-slice-out/.
# Prints "FAIL progfuzz seed ..." per failure and ends with "N passed, M failed" over both passes.
set -u
BUILD=${1:-build}
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
cd "$ROOT" || exit 1
COUNT=${FUZZ_SLICE_COUNT:-1500}
VCOUNT=${FUZZ_SLICE_VEC_COUNT:-1000}
TCOUNT=${FUZZ_SLICE_THREADS_COUNT:-200}
case "$BUILD" in *san*) COUNT=${FUZZ_SLICE_COUNT:-250}; VCOUNT=${FUZZ_SLICE_VEC_COUNT:-150}; TCOUNT=${FUZZ_SLICE_THREADS_COUNT:-40} ;; esac
OUT=$(mktemp -d)
LOG=$(mktemp)
trap 'rm -rf "$OUT" "$LOG"' EXIT
if [ ! -x "$BUILD/progfuzz" ]; then echo "FAIL progfuzz: $BUILD/progfuzz not built"; echo "0 passed, 1 failed"; exit 1; fi
passed=0
failed=0
status=0
for pass in "default $COUNT" "default,+vec $VCOUNT" "default,+vec,+threads $TCOUNT"; do
    set -- $pass
    feats=$1
    n=$2
    [ "$n" -gt 0 ] || continue
    rm -rf "$OUT"/*
    "$BUILD/progfuzz" --seed 1 --count "$n" --features "$feats" --out "$OUT" > "$LOG" 2>&1
    rc=$?
    sed -n "s/^seed \([0-9]*\): \(.*\)$/FAIL progfuzz ($feats) seed \1: \2/p" "$LOG"
    grep -E '^progfuzz:|^  [a-z-]+ +[0-9]+$' "$LOG" | sed "s/^progfuzz:/progfuzz ($feats):/"
    if ls "$OUT"/*.min.py > /dev/null 2>&1; then
        mkdir -p fuzz-slice-out && cp "$OUT"/* fuzz-slice-out/
        for f in "$OUT"/*.min.py; do echo "--- $(basename "$f") ($feats; kept in fuzz-slice-out/)"; cat "$f"; done
    fi
    summary=$(grep -E '^[0-9]+ passed, [0-9]+ failed$' "$LOG" | tail -n 1)
    if [ -z "$summary" ]; then echo "FAIL progfuzz ($feats): exit $rc, no summary"; tail -n 5 "$LOG"; failed=$((failed + 1)); status=1; continue; fi
    set -- $summary
    passed=$((passed + $1))
    failed=$((failed + $3))
    [ "$rc" -eq 0 ] || status=1
done
echo "$passed passed, $failed failed"
[ "$status" -eq 0 ]
