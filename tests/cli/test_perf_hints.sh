#!/usr/bin/env bash
# test_perf_hints — every perf hint a program can reach lands in report/perf_hints.log of
# `ptoc run --keep DIR` as "CODE file:line: message", and on stderr of `ptoc compile` as
# "file:line:col: perf-hint: [CODE] message": PH-AT-005 (the chooser refuses M = 8), PH-AT-006
# (a biased grid with no direct-store placement), PH-AT-007 (K = 24), PH-AT-011 (a biased matmul
# with M = 40), PH-MR-001 (a Vec pipeline whose depth 2 does not fit). Each program still runs (OK).
# Walkthrough rung 3 (K = 4096 in 256-wide chunks under stage=2) gets no PH-MR-001 in ptoc: the
# chooser divides the L0 budgets by the enclosing stage count, so every nested K loop's ping-pong
# pair fits (Left holds exactly two pairs of buffers).
set -u
BUILD=${1:-build}
PTOC="$BUILD/ptoc"
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
cd "$ROOT" || exit 1
PASS=0
FAIL=0
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
ok() { PASS=$((PASS + 1)); echo "PASS $1"; }
ko() { FAIL=$((FAIL + 1)); echo "FAIL $1: $2"; }

# hint CODE FILE LINE COL MESSAGE-SUBSTRING
hint() {
    local code=$1 f=$2 line=$3 col=$4 msg=$5 d="$T/$1"
    "$PTOC" run "$f" --keep "$d" > "$d.out" 2> "$d.err"
    [ $? -eq 0 ] && grep -q '^OK$' "$d.out" && ok "$code runs" || ko "$code runs" "$(tail -n 3 "$d.out" "$d.err")"
    grep -qF "$code $f:$line: $msg" "$d/report/perf_hints.log" 2>/dev/null && ok "$code in perf_hints.log" \
        || ko "$code in perf_hints.log" "$(cat "$d/report/perf_hints.log" 2>&1)"
    "$PTOC" compile "$f" -o "$d.c" > /dev/null 2> "$d.cerr"
    grep -qF "$f:$line:$col: perf-hint: [$code] $msg" "$d.cerr" && ok "$code on stderr" || ko "$code on stderr" "$(cat "$d.cerr")"
}

hint PH-AT-005 tests/e2e/mm_m8_ph_at_005.py 11 15 "ChooseL0Tile: allow_padding=false but M=8 is below the cube minimum tile dimension 16; matmul [8, 512] x [512, 64] left untiled"
hint PH-AT-006 tests/e2e/mm_bias_grid_two_stores_ph_at_006.py 14 15 "biased matmul output [64, 512] needs an M/N grid (tile 64 x 256 x 32) but no supported placement applies"
hint PH-AT-007 tests/e2e/mm_k24_hint.py 9 16 "matmul K = 24 is not a multiple of the cube fractal (16); left untiled"
hint PH-AT-011 tests/e2e/mm_bias_m40_ph_at_011.py 13 15 "biased matmul [40, 64] cannot form a legal Bias window: M = 40 and N = 64 must be multiples of the cube fractal (16); left untiled"
hint PH-MR-001 tests/e2e/vec_pipeline_depth_ph_mr_001.py 10 9 "requested depth 2 for the pipelined loop at line 10 (group 0) in Vec, but only 1 of 2 buffers fit (depth 2 needs 196608 bytes of Vec, which holds 188416); stages 1 apart share storage and serialize"

# rung 3: no hint, and Left holds one ping-pong pair (0 and 16384): the head chunk's matmul is tiled with
# the pipeline's per-clone budget, so the head and both stage clones share the same two L0 buffers
"$PTOC" run tests/e2e/rung3_k4096_w256_s2_fp16.py --keep "$T/r3" > "$T/r3.out" 2>&1
grep -q '^OK$' "$T/r3.out" && ok "rung3 runs" || ko "rung3 runs" "$(tail -n 3 "$T/r3.out")"
! grep -q "PH-MR-001" "$T/r3/report/perf_hints.log" && ok "rung3 no PH-MR-001" || ko "rung3 no PH-MR-001" "$(cat "$T/r3/report/perf_hints.log")"
[ "$(grep -c 'left  addr ' "$T/r3.out")" -eq 2 ] && grep -q 'left  addr       0  bytes   16384' "$T/r3.out" &&
    grep -q 'left  addr   16384  bytes   16384' "$T/r3.out" && ok "rung3 one Left ping-pong pair" || ko "rung3 one Left ping-pong pair" "$(grep left "$T/r3.out")"

echo "$PASS passed, $FAIL failed"
[ "$FAIL" -eq 0 ]
