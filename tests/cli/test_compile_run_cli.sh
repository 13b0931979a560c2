#!/usr/bin/env bash
# test_compile_run_cli — `ptoc parse`, `ptoc compile` (the -o tree, --dump-passes, --json) and
# `ptoc run` (--json keys and values, exit codes, --keep, errors) end to end on examples/matmul.py.
# Usage: tests/cli/test_compile_run_cli.sh BUILD_DIR. Prints PASS/FAIL lines, "N passed, M failed" last.
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
# run NAME EXPECTED_RC ARGS...   (stdout -> $OUT, stderr -> $ERR)
run() {
    local name=$1 want=$2; shift 2
    "$PTOC" "$@" > "$OUT" 2> "$ERR"
    local rc=$?
    if [ "$rc" -ne "$want" ]; then ko "$name" "exit $rc, want $want; stderr: $(head -c 300 "$ERR")"; return 1; fi
    ok "$name-exit"
    return 0
}
has() { if grep -qF -- "$3" "$2"; then ok "$1"; else ko "$1" "missing '$3' in: $(head -c 300 "$2")"; fi; }
hasnt() { if grep -qF -- "$3" "$2"; then ko "$1" "unexpected '$3'"; else ok "$1"; fi; }
file() { if [ -f "$2" ] && { [ -s "$2" ] || [ "${3:-}" = empty ]; }; then ok "$1"; else ko "$1" "missing file $2"; fi; }

# ---- usage ----
run help 0 --help && has help-lists-run "$OUT" "run" && has help-lists-compile "$OUT" "compile"
run compile-noarg 2 compile
run run-noarg 2 run
run run-badopt 2 run examples/matmul.py --frobnicate
run run-badtarget 2 run examples/matmul.py --target x9

# ---- parse ----
if run parse 0 parse examples/matmul.py; then
    has parse-program "$OUT" "@pl.program"
    has parse-entry "$OUT" "def matmul(self"
    has parse-type "$OUT" "pl.Tensor[[128, 512], pl.FP16]"
    has parse-out "$OUT" "pl.Out[pl.Tensor[[128, 128], pl.FP32]]"
fi
run parse-entry-colon 0 parse examples/matmul.py:matmul
run parse-missing-file 1 parse "$TMP/nope.py" && has parse-missing-msg "$ERR" "cannot read"
run parse-error 1 parse tests/e2e/errors/unterminated_string.py && has parse-error-gcc "$ERR" "unterminated_string.py:8:"

# ---- compile --dump-passes ----
if run dump 0 compile examples/matmul.py --verify-roundtrip --dump-passes "$TMP/dump"; then
    file dump-00 "$TMP/dump/00_frontend.py"
    file dump-01 "$TMP/dump/01_after_ConvertToSSA.py"
    file dump-autotile "$(ls "$TMP"/dump/*_after_AutoTileMatmulL0.py 2>/dev/null | head -n 1)"
    has dump-autotile-k "$(ls "$TMP"/dump/*_after_AutoTileMatmulL0.py 2>/dev/null | head -n 1)" "pl.tile.extract"
    n=$(ls "$TMP/dump" | grep -c '^[0-9][0-9]_after_')
    [ "$n" -ge 5 ] && ok dump-count || ko dump-count "only $n NN_after_ files"
    # the dumps parse back
    "$PTOC" parse "$TMP/dump/01_after_ConvertToSSA.py" > /dev/null 2>&1 && ok dump-reparses || ko dump-reparses "01 dump does not parse"
fi

# ---- compile -o ----
if run compile-o 0 compile examples/matmul.py --verify-roundtrip -o "$TMP/o"; then
    file o-frontend "$TMP/o/passes_dump/00_frontend.py"
    file o-summary "$TMP/o/report/summary.json"
    file o-hints "$TMP/o/report/perf_hints.log" empty
    has o-svg "$TMP/o/report/memory.svg" '<svg xmlns="http://www.w3.org/2000/svg"'
    has o-svg-kernel "$TMP/o/report/memory.svg" 'matmul_incore_0 (aic, target a2a3)'
    has o-svg-mat "$TMP/o/report/memory.svg" '<title>b__tile: addr 131072, 131072 bytes</title>'
    has o-svg-fill "$TMP/o/report/memory.svg" '50% of 524288'
    [ "$(grep -c '<rect' "$TMP/o/report/memory.svg")" -ge 11 ] && ok o-svg-rects || ko o-svg-rects "too few boxes"
    npto=$(ls "$TMP/o/ptoas/"*.pto 2>/dev/null | wc -l)
    [ "$npto" -ge 1 ] && ok o-pto || ko o-pto "no ptoas/*.pto"
    pto=$(ls "$TMP/o/ptoas/"*.pto 2>/dev/null | head -n 1)
    [ -n "$pto" ] && has o-pto-matmul "$pto" "pto.tmatmul"
    [ -n "$pto" ] && has o-pto-flag "$pto" "set_flag"
    has o-summary-ok "$TMP/o/report/summary.json" '"ok":true'
    has o-summary-kernels "$TMP/o/report/summary.json" '"kernels":[{"name":"'
    [ ! -e "$TMP/o/run" ] && ok o-no-run-dir || ko o-no-run-dir "run/ exists after compile"
fi
if run hints 0 compile tests/e2e/mm_k24_hint.py -o "$TMP/h"; then
    has hints-log "$TMP/h/report/perf_hints.log" "PH-AT-007 tests/e2e/mm_k24_hint.py:9: matmul K = 24 is not a multiple of the cube fractal (16); left untiled"
    [ "$(grep -c . "$TMP/h/report/perf_hints.log")" -eq 1 ] && ok hints-one-line || ko hints-one-line "$(cat "$TMP/h/report/perf_hints.log")"
    has hints-stderr "$ERR" "mm_k24_hint.py:9:16: perf-hint: [PH-AT-007]"
    has hints-summary "$TMP/h/report/summary.json" '"perf_hints":["PH-AT-007 tests/e2e/mm_k24_hint.py:9: '
fi
run compile-json 0 compile examples/matmul.py --json && has compile-json-ok "$OUT" '{"ok":true'
run compile-error 1 compile tests/e2e/errors/k_mismatch.py && has compile-error-msg "$ERR" "inner dimensions differ"
run compile-error-json 1 compile tests/e2e/errors/k_mismatch.py --json && has compile-error-json-obj "$OUT" '{"ok":false,"error":"'

# ---- run --json: keys and real values ----
if run run-json 0 run examples/matmul.py --json --verify-roundtrip; then
    lines=$(grep -c . "$OUT")
    [ "$lines" -eq 1 ] && ok run-json-one-line || ko run-json-one-line "$lines lines"
    has run-json-ok "$OUT" '"ok":true'
    for k in max_abs_err max_rel_err races race_messages tasks edges makespan_cycles kernels; do
        has "run-json-key-$k" "$OUT" "\"$k\":"
    done
    has run-json-races0 "$OUT" '"races":0,"race_messages":[]'
    has run-json-tasks1 "$OUT" '"tasks":1,"edges":0'
    has run-json-core "$OUT" '"core":"aic"'
    has run-json-tile "$OUT" '"m":128,"n":128,"k":128,"stationarity":"OS","dbc":false'
    has run-json-buffers "$OUT" '"buffers":[{"var":"'
    has run-json-mat "$OUT" '"space":"mat"'
    has run-json-left "$OUT" '"space":"left"'
    has run-json-acc "$OUT" '"space":"acc"'
    has run-json-events "$OUT" '"event_ids":{"'
    has run-json-mte2-mte1 "$OUT" '"MTE2->MTE1":'
    has run-json-mte1-m "$OUT" '"MTE1->M":'
    grep -qE '"makespan_cycles":[1-9][0-9]*' "$OUT" && ok run-json-makespan || ko run-json-makespan "zero makespan"
    grep -qE '"cube_util":0\.[0-9]' "$OUT" && ok run-json-cube-util || ko run-json-cube-util "cube_util not in (0, 1)"
    grep -qE '"max_abs_err":[0-9.e-]+,' "$OUT" && ok run-json-err-num || ko run-json-err-num "max_abs_err not a number"
fi

# ---- run human ----
if run run-text 0 run examples/matmul.py; then
    has run-text-ok "$OUT" "OK"
    has run-text-clean "$OUT" "race check: clean"
    has run-text-tile "$OUT" "L0 tile m=128 n=128 k=128, OS"
    has run-text-golden "$OUT" "vs golden: max abs err"
    has run-text-runtime "$OUT" "runtime: 1 task(s), 0 edge(s)"
    has run-text-buffers "$OUT" "buffers:"
fi
run run-text-fail 1 run tests/e2e/errors/k_mismatch.py && hasnt run-text-fail-no-ok "$OUT" "OK"
run run-seed 0 run examples/matmul.py --seed 42 --json && has run-seed-json "$OUT" '"seed":42'
run run-norace 0 run examples/matmul.py --no-race-check && has run-norace-text "$OUT" "race check: off"
run run-dsa 0 run examples/matmul.py --memory-planner dsa_rp --verify-roundtrip --json && has run-dsa-ok "$OUT" '"ok":true'
run run-dbc 0 run examples/matmul.py --dbc --json && has run-dbc-ok "$OUT" '"ok":true'
run run-threads1 0 run examples/matmul.py --threads 1 --json && has run-threads1-ok "$OUT" '"ok":true'
run run-badplanner 2 run examples/matmul.py --memory-planner nope && has run-badplanner-msg "$ERR" "unknown memory planner"
# the same seed gives the same inputs, hence the same error; another seed another one
"$PTOC" run examples/matmul.py --seed 3 --json | grep -o '"max_abs_err":[^,]*' > "$TMP/s3a"
"$PTOC" run examples/matmul.py --seed 3 --json | grep -o '"max_abs_err":[^,]*' > "$TMP/s3b"
"$PTOC" run examples/matmul.py --seed 4 --json | grep -o '"max_abs_err":[^,]*' > "$TMP/s4"
cmp -s "$TMP/s3a" "$TMP/s3b" && ok seed-deterministic || ko seed-deterministic "$(cat "$TMP/s3a") vs $(cat "$TMP/s3b")"
cmp -s "$TMP/s3a" "$TMP/s4" && ko seed-varies "seed 3 and 4 give $(cat "$TMP/s4")" || ok seed-varies
run run-a5 0 run examples/matmul.py --target a5 --json && has run-a5-target "$OUT" '"target":"a5"'

# ---- a two-task program: the second matmul depends on the first through an intermediate ----
if run chain 0 run tests/e2e/mm_chain.py --json; then
    has chain-ok "$OUT" '"ok":true'
    grep -qE '"tasks":([2-9]|[1-9][0-9]+),"edges":[1-9]' "$OUT" && ok chain-graph || ko chain-graph "$(grep -o '"tasks":[0-9]*,"edges":[0-9]*' "$OUT")"
    has chain-k0 "$OUT" '"name":"chain_incore_0"'
    has chain-k1 "$OUT" '"name":"chain_incore_1"'
    has chain-fp32-tol "$OUT" '"atol":0.0001,"rtol":0.0001'
    grep -qE '"kernel":"chain_incore_0","core":"aic","block_num":1,"start":[0-9]+,"end":[0-9]+\},\{"id":[0-9]+,"kernel":"chain_incore_1"' "$OUT" \
        && ok chain-task-order || ko chain-task-order "$(grep -o '"task_list":[^]]*' "$OUT")"
    e0=$(grep -o '"kernel":"chain_incore_0"[^}]*' "$OUT" | sed 's/.*"end":\([0-9]*\).*/\1/')
    s1=$(grep -o '"kernel":"chain_incore_1"[^}]*' "$OUT" | sed 's/.*"start":\([0-9]*\).*/\1/')
    [ -n "$e0" ] && [ -n "$s1" ] && [ "$s1" -ge "$e0" ] && ok chain-dependency || ko chain-dependency "task 1 starts at $s1 before task 0 ends at $e0"
fi

# ---- run --keep ----
if run keep 0 run examples/matmul.py --keep "$TMP/k"; then
    file keep-deps "$TMP/k/run/deps.json"
    has keep-deps-tasks "$TMP/k/run/deps.json" '"tasks"'
    file keep-summary "$TMP/k/report/summary.json"
    file keep-dump "$TMP/k/passes_dump/00_frontend.py"
    has keep-timeline "$TMP/k/report/timeline.json" '{"name":"matmul_incore_0","ph":"X","pid":0,"tid":0'
    has keep-summary-ran "$TMP/k/report/summary.json" '"ran":true'
    [ ! -e "$TMP/o/report/timeline.json" ] && ok compile-no-timeline || ko compile-no-timeline "timeline.json without a run"
fi

# ---- --in / --out .npy ----
if run npy-out 0 run examples/matmul.py --out c="$TMP/c.npy"; then
    has npy-out-header "$TMP/c.npy" "{'descr': '<f4', 'fortran_order': False, 'shape': (128, 128), }"
    sz=$(wc -c < "$TMP/c.npy")
    [ "$sz" -eq $((128 + 128 * 128 * 4)) ] && ok npy-out-size || ko npy-out-size "$sz bytes"
    head -c 8 "$TMP/c.npy" | od -An -tx1 | grep -q "93 4e 55 4d 50 59 01 00" && ok npy-out-magic || ko npy-out-magic "bad magic"
    # a file written for one parameter is checked against another's dtype and shape
    run npy-in-dtype 1 run examples/matmul.py --in a="$TMP/c.npy" && has npy-in-dtype-msg "$ERR" "has dtype '<f4' but parameter 'a' is FP16"
    run npy-in-shape 1 run tests/e2e/mm_fp32.py --in a="$TMP/c.npy" && has npy-in-shape-msg "$ERR" "has shape (128, 128) but parameter 'a'"
    # all-ones FP32 inputs written here byte by byte: z = x @ y is 128.0 everywhere, exactly
    printf 'import pypto.language as pl\n\n@pl.jit\ndef sq(x: pl.Tensor[[128, 128], pl.FP32], y: pl.Tensor[[128, 128], pl.FP32],\n       z: pl.Out[pl.Tensor[[128, 128], pl.FP32]]):\n    with pl.at(level=pl.Level.CORE_GROUP):\n        z[:] = pl.matmul(x, y, out_dtype=pl.FP32)\n    return z\n' > "$TMP/sq.py"
    head -c 128 "$TMP/c.npy" > "$TMP/ones.npy"
    printf '\x00\x00\x80\x3f%.0s' $(seq 16384) >> "$TMP/ones.npy"
    if run npy-in-ok 0 run "$TMP/sq.py" --in x="$TMP/ones.npy" --in y="$TMP/ones.npy" --out z="$TMP/z.npy" --json; then
        has npy-in-ok-json "$OUT" '"ok":true'
        vals=$(tail -c 65536 "$TMP/z.npy" | od -An -tx4 -v | tr -s ' \n' '\n' | grep . | sort -u | tr '\n' ' ')
        [ "$vals" = "43000000 " ] && ok npy-in-values || ko npy-in-values "z holds $vals"
    fi
fi
run npy-in-output 1 run examples/matmul.py --in c=x.npy && has npy-in-output-msg "$ERR" "parameter 'c' is an output; --in needs an In or InOut tensor"
run npy-out-input 1 run examples/matmul.py --out a=x.npy && has npy-out-input-msg "$ERR" "parameter 'a' is an input; --out needs an Out or InOut tensor"
run npy-unknown 1 run examples/matmul.py --in zz=x.npy && has npy-unknown-msg "$ERR" "'matmul' has no parameter named 'zz'"
run npy-missing 1 run examples/matmul.py --in a="$TMP/none.npy" && has npy-missing-msg "$ERR" "cannot read"
run npy-usage 2 run examples/matmul.py --in a

# ---- run errors ----
run run-missing 1 run "$TMP/none.py"
run run-error 1 run tests/e2e/errors/unknown_op.py && has run-error-gcc "$ERR" "error:"
run run-error-json 1 run tests/e2e/errors/unknown_op.py --json && has run-error-json "$OUT" '{"ok":false,"error":"'

echo "$PASS passed, $FAIL failed"
[ "$FAIL" -eq 0 ]
