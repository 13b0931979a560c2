#!/usr/bin/env bash
# test_spmd — the SPMD launch end to end beyond the e2e substring checks: split-K as the blocks of one
# task (examples/splitk_spmd.py) runs its 4 blocks concurrently — the split_k task lasts one block's
# time and the makespan is well under the chained form's (examples/splitk_chain.py: 5 tasks one after
# another); deps.json shows block_num 4 and one edge; the orchestration sets the block count; the
# .pto kernel takes the hidden SPMD parameters. Uses no Python.
# Usage: tests/cli/test_spmd.sh BUILD_DIR. Prints PASS/FAIL lines, "N passed, M failed" last.
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
num() { sed -n "s/.*\"$2\":\([0-9]*\).*/\1/p" "$1" | head -n 1; }

for t in a2a3 a5; do
    if ! timeout 120 "$PTOC" run examples/splitk_spmd.py --target $t --json --keep "$TMP/b_$t" > "$TMP/b.json" 2> "$TMP/err" ||
       ! timeout 120 "$PTOC" run examples/splitk_chain.py --target $t --json > "$TMP/a.json" 2>> "$TMP/err"; then
        ko "splitk-$t-run" "$(head -c 300 "$TMP/err")"
        continue
    fi
    ok "splitk-$t-run"
    mb=$(num "$TMP/b.json" makespan_cycles); ma=$(num "$TMP/a.json" makespan_cycles)
    # the split_k task of form B: {"id":1,"kernel":"split_k","core":"aic","block_num":4,"start":S,"end":E}
    task=$(grep -o '"kernel":"split_k","core":"aic","block_num":4,"start":[0-9]*,"end":[0-9]*' "$TMP/b.json")
    s=$(echo "$task" | sed 's/.*"start":\([0-9]*\).*/\1/'); e=$(echo "$task" | sed 's/.*"end":\([0-9]*\).*/\1/')
    blk=$(grep -o '"name":"split_k","core":"aic","runs":4,"cycles":[0-9]*' "$TMP/b.json" | sed 's/.*"cycles"://')
    if [ -n "$s" ] && [ -n "$e" ] && [ -n "$blk" ] && [ $((e - s)) -eq "$blk" ]; then ok "splitk-$t-blocks-concurrent"
    else ko "splitk-$t-blocks-concurrent" "task [$s, $e) vs one block $blk cycles"; fi
    if [ -n "$mb" ] && [ -n "$ma" ] && [ $((2 * mb)) -lt "$ma" ]; then ok "splitk-$t-makespan"
    else ko "splitk-$t-makespan" "SPMD form $mb cycles vs chained form $ma: expected under half"; fi
    deps="$TMP/b_$t/run/deps.json"
    if grep -q '"block_num":4' "$deps" && [ "$(grep -o '"pred"' "$deps" | wc -l)" -eq 1 ]; then ok "splitk-$t-deps"
    else ko "splitk-$t-deps" "$(head -c 300 "$deps")"; fi
    if grep -q 'launch_spec.set_block_num(4);' "$TMP/b_$t"/orchestration/*.cpp; then ok "splitk-$t-orch"
    else ko "splitk-$t-orch" "no set_block_num(4)"; fi
    if grep -q '%__pypto_spmd_block_idx: i32' "$TMP/b_$t/ptoas/split_k.pto" &&
       grep -q '%block_idx = arith.index_cast %__pypto_spmd_block_idx : i32 to index' "$TMP/b_$t/ptoas/split_k.pto"; then ok "splitk-$t-pto"
    else ko "splitk-$t-pto" "no hidden SPMD parameter in split_k.pto"; fi
done
echo "$PASS passed, $FAIL failed"
[ "$FAIL" -eq 0 ]
