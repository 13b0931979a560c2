#!/usr/bin/env bash
# test_pipeline_dbc — the existing-pipeline L0C double buffer (AutoTileMatmulL0, auto_tile_pipeline_dbc.c)
# on the real CLI path. An accepted user pl.pipeline(stage=F) gets exactly two distinct Acc addresses while
# its moving operand keeps F buffers, and simulates in fewer cycles than with --no-pipeline-dbc (which
# keeps one Acc buffer). A declined loop keeps one Acc buffer and prints its PH-AT-020 hint on stderr
# (ptoc compile). The Acc buffers are counted on the compact --json with grep.
set -u
BUILD=${1:-build}
PTOC="$BUILD/ptoc"
E=tests/e2e
PASS=0
FAIL=0
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
ok() { PASS=$((PASS + 1)); echo "PASS $1"; }
bad() { FAIL=$((FAIL + 1)); echo "FAIL $1: $2"; }
check() { if eval "$2"; then ok "$1"; else bad "$1" "$2"; fi; }
json_has() { grep -q -- "$2" "$1"; }
acc_addrs() { grep -o '"space":"acc","addr":[0-9]*' "$1" | sort -u | wc -l; }
count_space() { grep -o "\"space\":\"$2\"" "$1" | wc -l; }
cycles() { grep -o '"makespan_cycles":[0-9]*' "$1" | head -n 1 | cut -d: -f2; }

# accepted: program, moving space, its depth F
while read -r prog space depth; do
    n=$(basename "$prog" .py)
    "$PTOC" run "$E/$prog" --json > "$T/$n.on.json" 2> /dev/null
    rc=$?
    "$PTOC" run "$E/$prog" --json --no-pipeline-dbc > "$T/$n.off.json" 2> /dev/null
    rc_off=$?
    check "$n: runs and matches (on)" '[ $rc -eq 0 ] && json_has "$T/$n.on.json" "\"ok\":true"'
    check "$n: runs and matches (off)" '[ $rc_off -eq 0 ] && json_has "$T/$n.off.json" "\"ok\":true"'
    check "$n: two distinct Acc addresses" '[ "$(acc_addrs "$T/$n.on.json")" -eq 2 ]'
    check "$n: $space keeps depth $depth" '[ "$(count_space "$T/$n.on.json" "$space")" -eq "$depth" ]'
    check "$n: one Acc buffer with --no-pipeline-dbc" '[ "$(count_space "$T/$n.off.json" acc)" -eq 1 ]'
    check "$n: fewer cycles than --no-pipeline-dbc" '[ "$(cycles "$T/$n.on.json")" -lt "$(cycles "$T/$n.off.json")" ]'
    "$PTOC" compile "$E/$prog" > /dev/null 2> "$T/$n.err"
    check "$n: no decline hint" '! grep -q PH-AT-020 "$T/$n.err"'
done <<'LIST'
pipeline_dbc_stage2_fp16.py right 2
pipeline_dbc_stage3_bf16.py right 3
pipeline_dbc_stage4_int8.py right 4
pipeline_dbc_moving_left_fp16.py left 2
pipeline_dbc_move_left_stage4_bf16.py left 4
pipeline_dbc_mat_scratch_fp16.py right 2
LIST

# the stage-2 and stage-4 accumulators sit at 0 and 64 KiB
for n in pipeline_dbc_stage2_fp16 pipeline_dbc_stage4_int8; do
    check "$n: Acc at 0 and 65536" 'json_has "$T/$n.on.json" "\"space\":\"acc\",\"addr\":0," && json_has "$T/$n.on.json" "\"space\":\"acc\",\"addr\":65536,"'
done

# declined: program, a piece of the hint naming the rule
while IFS='|' read -r prog why; do
    n=$(basename "$prog" .py)
    "$PTOC" run "$E/$prog" --json > "$T/$n.json" 2> /dev/null
    rc=$?
    check "$n: runs and matches" '[ $rc -eq 0 ] && json_has "$T/$n.json" "\"ok\":true"'
    check "$n: one Acc address" '[ "$(acc_addrs "$T/$n.json")" -eq 1 ]'
    "$PTOC" compile "$E/$prog" > /dev/null 2> "$T/$n.err"
    check "$n: hint on stderr" 'grep -q "perf-hint: \[PH-AT-020\].*$why" "$T/$n.err"'
    "$PTOC" compile "$E/$prog" --no-pipeline-dbc > /dev/null 2> "$T/$n.off.err"
    check "$n: no hint with --no-pipeline-dbc" '! grep -q PH-AT-020 "$T/$n.off.err"'
done <<'LIST'
pipeline_dbc_reject_trips2.py|needs at least 4 trips to gain, the loop has 2
pipeline_dbc_reject_trips3.py|needs at least 4 trips to gain, the loop has 3
pipeline_dbc_reject_indivisible.py|trip count 5 is not a multiple of stage=2
pipeline_dbc_reject_extra_store.py|'o3' is another store or write
pipeline_dbc_reject_nested_if.py|body is not flat
pipeline_dbc_reject_scratch_trips.py|needs at least 8 trips to gain, the loop has 4
pipeline_dbc_reject_scratch_small.py|at least 32768 bytes (L0C / 4)
pipeline_dbc_reject_inventory.py|over the 131072 bytes of L0C
LIST
# two matmuls: the hint, and each matmul keeps its single accumulator
"$PTOC" compile "$E/pipeline_dbc_reject_two_matmuls.py" > /dev/null 2> "$T/two.err"
check "two matmuls: hint on stderr" 'grep -q "PH-AT-020.*2 matmuls, not exactly one" "$T/two.err"'

# the recogniser is PYPTO-only: other planners never see the attribute nor the hint
"$PTOC" compile "$E/pipeline_dbc_stage2_fp16.py" --memory-planner ptoas --dump-passes "$T/ptoas" > /dev/null 2> "$T/ptoas.err"
check "ptoas: no pipeline_double_buffer_c" '! grep -q pipeline_double_buffer_c "$T/ptoas/"*_after_AutoTileMatmulL0.py'
"$PTOC" compile "$E/pipeline_dbc_reject_trips2.py" --memory-planner dsa_rp > /dev/null 2> "$T/dsa.err"
check "dsa_rp: no decline hint" '! grep -q PH-AT-020 "$T/dsa.err"'
# nothing to say about loops AutoTile built itself (the K loop of examples/matmul.py) nor vector pipelines
check "no hint on AutoTile's own K loop" '! "$PTOC" compile examples/matmul.py 2>&1 | grep -q PH-AT-020'
check "no hint on a vector pipeline" '! "$PTOC" compile examples/stream_add.py 2>&1 | grep -q PH-AT-020'

echo "$PASS passed, $FAIL failed"
[ "$FAIL" -eq 0 ]
