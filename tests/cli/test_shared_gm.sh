#!/usr/bin/env bash
# test_shared_gm — GM bandwidth is shared by the cores streaming at once (issue 11; docs/sim.md
# "Shared GM bandwidth"). The same per-block work (two 32 KiB fp32 loads, an add, a 32 KiB store) as
# an SPMD task of 8 and of 48 AIV blocks on a2a3. With 8 blocks every transfer runs at its per-core
# figure (2182 / 8 = 272.8 B/cycle is above all of them); with 48 each gets 2182 / 48 = 45.46 B/cycle:
#   load  32768 / 58.6  + 100 = 659.2 -> 660 cycles;  32768 / 45.46 + 100 = 820.8 -> 821
#   store 32768 / 109.4 + 100 = 399.5 -> 400 cycles;  -> 821
# The two loads and the store are on the critical path, so a block is 2 * 161 + 421 = 743 cycles
# longer. Both runs must also match the interpreter.
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
kcycles() { grep -o '"kernels":\[{"name":"[a-z_0-9]*","core":"[a-z]*","runs":[0-9]*,"cycles":[0-9]*' "$1" | grep -o '[0-9]*$'; }

D=tests/cli/shared_gm
"$PTOC" run $D/stream8.py --json > "$T/8.json" 2> /dev/null; rc8=$?
"$PTOC" run $D/stream48.py --json > "$T/48.json" 2> /dev/null; rc48=$?
check "8 blocks run and match" '[ $rc8 -eq 0 ] && grep -q "\"ok\":true" "$T/8.json" && grep -q "\"block_num\":8" "$T/8.json"'
check "48 blocks run and match" '[ $rc48 -eq 0 ] && grep -q "\"ok\":true" "$T/48.json" && grep -q "\"block_num\":48" "$T/48.json"'
c8=$(kcycles "$T/8.json"); c48=$(kcycles "$T/48.json")
echo "  per-block cycles: 8 blocks ${c8:-?}, 48 blocks ${c48:-?}"
check "48 streaming blocks share GM: 743 cycles more per block" '[ -n "$c8" ] && [ -n "$c48" ] && [ $((c48 - c8)) -eq 743 ]'
echo "$PASS passed, $FAIL failed"
[ "$FAIL" -eq 0 ]
