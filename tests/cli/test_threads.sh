#!/usr/bin/env bash
# test_threads — parallel simulation (ptoc run --threads N, docs/runtime.md "Host threads") changes
# nothing but host time: for every program below, --threads 1, 2 and 8 give byte-identical --out
# files and identical --json output once the host timings (run_ms, golden_ms, compile_ms, the passes'
# ms) are blanked: the same values, cycles, task times, race and sync-error messages, and the same
# exit status. The programs: independent matmul regions (run early on workers), a vector kernel, a
# mixed (cube + vector) kernel, SPMD tasks (blocks on workers; split-K's atomic adds keep their
# order), and racy programs that must fail the same way whatever the thread count (tasks that race
# are run in their serial order, so even their data is the same), programs that read tensor elements in
# orchestration (each read ends a batch of the streaming runtime) and runs without the race check
# (one thread retires task records; more keep them); a program the golden interpreter rejects (with
# more than one thread the golden run overlaps the simulation). Also: a bad thread count is refused.
# Uses no Python. Usage: tests/cli/test_threads.sh BUILD_DIR. Prints PASS/FAIL lines, "N passed, M failed" last.
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
# the host timings, the only fields allowed to differ
blank() { sed -E 's/"(run_ms|golden_ms|compile_ms|ms)":[-0-9.eE+]+/"\1":0/g' "$1"; }

# name | program | output parameter | extra options
CASES="matmul_regions|bench/threads_8mm.py|c|
matmul|examples/matmul.py|c|
parallel_rows|tests/e2e/loop_regions_rows_parallel_bf16.py|c|
manual_disjoint|tests/e2e/manual_scope_disjoint_fp16.py|c|
vector|examples/softmax_rows.py|y|
mixed|examples/mm_bias_relu_mixed.py|out|--target a5
spmd_rows|examples/spmd_rows.py|c|
spmd_splitk_atomic|examples/splitk_spmd.py|c|
spmd_attention|examples/attention_spmd.py|o|--target a5
race_tasks|tests/e2e/fail/manual_scope_missing_dep_fp32.py|c|
race_blocks|tests/e2e/fail/spmd_blocks_overlap_race_fp32.py|y|
timing_only|bench/threads_8mm.py||--timing-only
read_loop|tests/e2e/read_orch_loop_count_int32.py|y|
read_scale|tests/e2e/read_orch_scale_fp16.py|y|
read_after_store|tests/e2e/read_after_store_fp32.py|z|
no_race_check|bench/threads_8mm.py|c|--no-race-check
read_no_race_check|tests/e2e/read_orch_loop_count_int32.py|y|--no-race-check"

while IFS='|' read -r name prog out extra; do
    [ -n "$name" ] || continue
    good=1
    for t in 1 2 8; do
        o=""; [ -n "$out" ] && o="--out $out=$TMP/$name.$t.npy"
        # shellcheck disable=SC2086
        timeout 300 "$PTOC" run "$prog" $extra --threads $t --json $o > "$TMP/$name.$t.json" 2> "$TMP/$name.$t.err"
        echo $? > "$TMP/$name.$t.rc"
        blank "$TMP/$name.$t.json" > "$TMP/$name.$t.norm"
    done
    if ! grep -q '"makespan_cycles":[1-9]' "$TMP/$name.1.json"; then
        ko "$name-ran" "no makespan in --json: $(head -c 300 "$TMP/$name.1.err")"; continue
    fi
    for t in 2 8; do
        if ! cmp -s "$TMP/$name.1.rc" "$TMP/$name.$t.rc"; then
            ko "$name-exit-$t" "exit $(cat "$TMP/$name.1.rc") with 1 thread, $(cat "$TMP/$name.$t.rc") with $t"; good=0
        fi
        if ! cmp -s "$TMP/$name.1.norm" "$TMP/$name.$t.norm"; then
            ko "$name-json-$t" "$(diff <(tr ',' '\n' < "$TMP/$name.1.norm") <(tr ',' '\n' < "$TMP/$name.$t.norm") | head -n 6 | tr '\n' ' ')"; good=0
        fi
        if [ -n "$out" ] && ! cmp -s "$TMP/$name.1.npy" "$TMP/$name.$t.npy"; then
            ko "$name-out-$t" "--out $out differs between 1 and $t threads"; good=0
        fi
    done
    [ "$good" -eq 1 ] && ok "$name-threads-1-2-8"
done <<< "$CASES"

# the racy programs fail (exit 1) and report the race the same way
for name in race_tasks race_blocks; do
    if [ "$(cat "$TMP/$name.2.rc" 2>/dev/null)" = 1 ] && grep -q '"races":[1-9]' "$TMP/$name.2.json"; then ok "$name-reported"
    else ko "$name-reported" "exit $(cat "$TMP/$name.2.rc" 2>/dev/null), $(grep -o '"races":[0-9]*' "$TMP/$name.2.json")"; fi
done
# the independent regions really ran: 8 tasks, no edges
if grep -q '"tasks":8,"edges":0' "$TMP/matmul_regions.2.json"; then ok "matmul_regions-independent"
else ko "matmul_regions-independent" "$(grep -o '"tasks":[0-9]*,"edges":[0-9]*' "$TMP/matmul_regions.2.json")"; fi

# the golden run overlaps the simulation with more than one thread; when it fails, the simulation's
# reports are dropped: the same exit status, stderr and --json as the serial order (golden first)
for t in 1 2 8; do
    "$PTOC" run tests/cli/threads/golden_fails.py --threads $t --json > "$TMP/gf.$t.json" 2> "$TMP/gf.$t.err"
    echo $? > "$TMP/gf.$t.rc"
done
if [ "$(cat "$TMP/gf.1.rc")" = 1 ] && grep -q "tile.load: negative offset" "$TMP/gf.1.err" && [ "$(grep -c error: "$TMP/gf.1.err")" = 1 ] &&
   cmp -s "$TMP/gf.1.err" "$TMP/gf.2.err" && cmp -s "$TMP/gf.1.err" "$TMP/gf.8.err" &&
   cmp -s "$TMP/gf.1.rc" "$TMP/gf.2.rc" && cmp -s "$TMP/gf.1.rc" "$TMP/gf.8.rc" &&
   cmp -s <(blank "$TMP/gf.1.json") <(blank "$TMP/gf.2.json") && cmp -s <(blank "$TMP/gf.1.json") <(blank "$TMP/gf.8.json"); then
    ok "golden-fails-threads-1-2-8"
else ko "golden-fails-threads-1-2-8" "rc $(cat "$TMP"/gf.*.rc | tr '\n' ' '); $(diff "$TMP/gf.1.err" "$TMP/gf.2.err" | head -n 4 | tr '\n' ' ')"; fi

if "$PTOC" run examples/matmul.py --threads x > /dev/null 2> "$TMP/bad.err"; then ko "bad-count" "--threads x accepted"
elif grep -q "bad thread count 'x'" "$TMP/bad.err"; then ok "bad-count"
else ko "bad-count" "$(head -c 200 "$TMP/bad.err")"; fi

echo "$PASS passed, $FAIL failed"
[ "$FAIL" -eq 0 ]
