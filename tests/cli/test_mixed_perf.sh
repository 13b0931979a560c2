#!/usr/bin/env bash
# test_mixed_perf — a mixed cube + vector region beats the same computation written as regions that
# meet in global memory, in simulated cycles (issue 10): the cube and the vector cores of one cluster
# overlap and hand tiles over through the cross-core ring, instead of two or three tasks each paying a
# dispatch and a GM round trip. Both forms must also match the interpreter. The figures are printed.
set -u
BUILD=${1:-build}
PTOC="$BUILD/ptoc"
PASS=0
FAIL=0
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
ok() { PASS=$((PASS + 1)); echo "PASS $1"; }
bad() { FAIL=$((FAIL + 1)); echo "FAIL $1: $2"; }
check() { if eval "$2"; then ok "$1"; else bad "$1" "$2"; fi; }
cycles() { grep -o '"makespan_cycles":[0-9]*' "$1" | head -n 1 | cut -d: -f2; }

# mixed program, staged program, target
while read -r mixed staged target; do
    n=$(basename "$mixed" .py)-$target
    "$PTOC" run "$mixed" --target "$target" --json > "$T/$n.mixed.json" 2> /dev/null
    rc_m=$?
    "$PTOC" run "$staged" --target "$target" --json > "$T/$n.staged.json" 2> /dev/null
    rc_s=$?
    check "$n: mixed runs and matches" '[ $rc_m -eq 0 ] && grep -q "\"ok\":true" "$T/$n.mixed.json"'
    check "$n: staged runs and matches" '[ $rc_s -eq 0 ] && grep -q "\"ok\":true" "$T/$n.staged.json"'
    m=$(cycles "$T/$n.mixed.json"); s=$(cycles "$T/$n.staged.json")
    echo "  $n: mixed ${m:-?} cycles, staged ${s:-?} cycles"
    check "$n: mixed is faster" '[ -n "$m" ] && [ -n "$s" ] && [ "$m" -lt "$s" ]'
done <<'LIST'
examples/mm_bias_relu_mixed.py tests/cli/mixed/mm_bias_relu_staged.py a2a3
examples/mm_bias_relu_mixed.py tests/cli/mixed/mm_bias_relu_staged.py a5
examples/fused_mlp.py tests/cli/mixed/fused_mlp_staged.py a5
LIST

echo "$PASS passed, $FAIL failed"
[ "$FAIL" -eq 0 ]
