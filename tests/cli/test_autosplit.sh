#!/usr/bin/env bash
# test_autosplit — AutoSplitCores and the split-K lint on the CLI (issue 11 point 2):
#   - walkthrough rung 2 form A (examples/splitk_chain.py) prints PH-SC-003 naming the chain and the
#     pl.spmd form; form B (examples/splitk_spmd.py) and rung 1 (examples/spmd_rows.py) print no PH-SC
#     hint and keep their task counts;
#   - the reference GEMM's 6144^3 c = a @ b^T gets the 4 x 6 grid of 1536 x 1024 blocks (PH-SC-001 on
#     stderr of ptoc compile; the compile itself needs AutoTileL1 for the per-core blocks);
#   - --cores 1 prints no PH-SC-001; --cores 0 / abc are usage errors (exit 2); --cores 37 on a5 is
#     a compile error (exit 1) naming the 36 cube cores.
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
check() { if eval "$2"; then ok "$1"; else ko "$1" "$2"; fi; }

"$PTOC" run examples/splitk_chain.py --json > "$T/a.json" 2> /dev/null
check "form A runs" '[ $? -eq 0 ] && grep -q "\"ok\":true" "$T/a.json"'
check "form A: PH-SC-003 in --json" 'grep -q "PH-SC-003" "$T/a.json"'
"$PTOC" compile examples/splitk_chain.py -o "$T/a" > /dev/null 2> "$T/a.err"
check "form A keeps 5 tasks, 4 edges" 'grep -q "\"tasks\":5,\"edges\":4" "$T/a.json"'
check "form A: PH-SC-003 at the loop" 'grep -qF "examples/splitk_chain.py:16:5: perf-hint: [PH-SC-003]" "$T/a.err"'
check "form A: hint names the chain" 'grep -qF "chains them one after another (4 tasks, 3 edges" "$T/a.err"'
check "form A: hint shows the spmd form" 'grep -qF "for ks in pl.spmd(4):" "$T/a.err" && grep -qF "atomic=pl.AtomicType.Add" "$T/a.err"'
for f in splitk_spmd spmd_rows; do
    "$PTOC" run "examples/$f.py" --json > "$T/$f.json" 2> /dev/null
    check "$f runs" 'grep -q "\"ok\":true" "$T/$f.json"'
    "$PTOC" compile "examples/$f.py" -o "$T/$f" > /dev/null 2> "$T/$f.err"
    check "$f: no PH-SC hint" '! grep -q "PH-SC" "$T/$f.err" && ! grep -q "PH-SC" "$T/$f.json"'
done
check "form B keeps 2 tasks, 1 edge" 'grep -q "\"tasks\":2,\"edges\":1" "$T/splitk_spmd.json"'
check "rung 1 keeps block_num 4" 'grep -q "\"block_num\":4" "$T/spmd_rows.json"'

"$PTOC" compile tests/autosplit/gemm_6144_bt.py -o "$T/g" > /dev/null 2> "$T/g.err"
check "6144^3: 4 x 6 grid of [1536, 1024]" 'grep -qF "split across 24 of 24 cube cores as one SPMD task: a 4 x 6 grid of per-core blocks [1536, 1024] x K 6144" "$T/g.err"'
"$PTOC" compile tests/autosplit/gemm_6144_bt.py --target a5 -o "$T/g5" > /dev/null 2> "$T/g5.err"
check "6144^3 on a5: 6 x 6 grid" 'grep -qF "split across 36 of 36 cube cores as one SPMD task: a 6 x 6 grid of per-core blocks [1024, 1024]" "$T/g5.err"'
"$PTOC" compile tests/e2e/autosplit_cores1.py --cores 1 -o "$T/c1" > /dev/null 2> "$T/c1.err"
check "--cores 1: no split hint" '! grep -q "PH-SC-001" "$T/c1.err"'
"$PTOC" compile tests/e2e/autosplit_cores1.py -o "$T/c24" > /dev/null 2> "$T/c24.err"
check "default: split hint" 'grep -q "PH-SC-001" "$T/c24.err"'
for bad in 0 abc -3; do
    "$PTOC" run tests/e2e/autosplit_cores1.py --cores "$bad" > /dev/null 2> "$T/bad.err"
    rc=$?
    check "--cores $bad: usage error" '[ $rc -eq 2 ] && grep -qF "bad core count" "$T/bad.err"'
done
"$PTOC" run tests/e2e/autosplit_cores1.py --target a5 --cores 37 > /dev/null 2> "$T/a5.err"
rc=$?
check "--cores 37 on a5: compile error" '[ $rc -eq 1 ] && grep -qF "target a5 has 36 cube cores" "$T/a5.err"'

echo "$PASS passed, $FAIL failed"
[ "$FAIL" -eq 0 ]
