#!/usr/bin/env bash
# test_walkthrough — the facts of the walkthrough (reference/one_matmul_all_the_way_down.md, Part I)
# and the variations of the issue, checked on the real CLI path (parse -> passes -> sim -> compare):
#   tile (128, 128, 128) output-stationary; the stage-2 pipeline lowered into two clones; Mat holds a
#   and b (131072 bytes each); Left and Right each hold two 32768-byte buffers at 0 and 32768; one
#   65536-byte Acc buffer at 0; two event IDs serve each MTE1<->M direction; one AIC task with
#   directions [input, input, output_existing] inside one runtime scope; K = 128 untiled; K = 256 a
#   2-trip K loop; M = N = 256, K = 512 the direct-store grid (on one core, --cores 1); K = 4096 the Mat capacity error.
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

# a little JSON reader: jq is not a dependency, python3 is not either — use grep on compact JSON
json_has() { grep -q -- "$2" "$1"; }

"$PTOC" run examples/matmul.py --json > "$T/run.json" 2> "$T/run.err"
rc=$?
check "run exits 0" '[ $rc -eq 0 ]'
check "ok true" 'json_has "$T/run.json" "\"ok\":true"'
check "no races" 'json_has "$T/run.json" "\"races\":0"'
check "tile 128x128x128 OS" 'json_has "$T/run.json" "\"m\":128,\"n\":128,\"k\":128,\"stationarity\":\"OS\""'
check "one task, no edges" 'json_has "$T/run.json" "\"tasks\":1,\"edges\":0"'
for b in '"space":"mat","addr":0,"bytes":131072' '"space":"mat","addr":131072,"bytes":131072' \
         '"space":"left","addr":0,"bytes":32768' '"space":"left","addr":32768,"bytes":32768' \
         '"space":"right","addr":0,"bytes":32768' '"space":"right","addr":32768,"bytes":32768' \
         '"space":"acc","addr":0,"bytes":65536'; do
    check "buffer $b" 'json_has "$T/run.json" "$b"'
done
check "exactly one acc buffer" '[ "$(grep -o "\"space\":\"acc\"" "$T/run.json" | wc -l)" -eq 1 ]'
check "exactly two left buffers" '[ "$(grep -o "\"space\":\"left\"" "$T/run.json" | wc -l)" -eq 2 ]'
check "two IDs MTE1->M" 'json_has "$T/run.json" "\"MTE1->M\":2"'
check "two IDs M->MTE1" 'json_has "$T/run.json" "\"M->MTE1\":2"'

"$PTOC" compile examples/matmul.py -o "$T/out" > /dev/null 2>&1
D="$T/out/passes_dump"
check "00_frontend.py written" '[ -s "$D/00_frontend.py" ]'
check "AutoTile: stage-2 pipeline over K" 'grep -q "pl.pipeline(0, 512, 128, init_values=" "$D"/*_after_AutoTileMatmulL0.py'
check "AutoTile: stage=2" 'grep -q "stage=2)" "$D"/*_after_AutoTileMatmulL0.py'
check "LowerPipelineLoops: step 256, stage 1" 'grep -q "pl.pipeline(0, 512, 256, init_values=.*stage=1)" "$D"/*_after_LowerPipelineLoops.py'
check "LowerPipelineLoops: two clones" '[ "$(grep -c "pl.tile.matmul_acc" "$D"/*_after_LowerPipelineLoops.py)" -eq 2 ]'
check "clones tagged 0:0 and 0:1" 'grep -q "\"pipeline_membership\": \"0:0\"" "$D"/*_after_LowerPipelineLoops.py && grep -q "\"pipeline_membership\": \"0:1\"" "$D"/*_after_LowerPipelineLoops.py'
check "CanonicalizeIOOrder: demoted to pl.range" 'grep -q "pl.range(0, 512, 256, init_values=" "$D"/*_after_CanonicalizeIOOrder.py'
check "ExpandMixedKernel: AIC" 'grep -q "type=pl.FunctionType.AIC" "$D"/*_after_ExpandMixedKernel.py'
check "directions" 'grep -q "\"arg_directions\": \[pl.adir.input, pl.adir.input, pl.adir.output_existing\]" "$D"/*_after_DeriveCallDirections.py'
F=$(ls "$D"/*_after_MaterializeRuntimeScopes.py)
check "one runtime scope" '[ "$(grep -c "with pl.scope():" "$F")" -eq 1 ]'
check "one kernel call" '[ "$(grep -c "self\.matmul_incore_0(" "$F")" -eq 1 ]'
check "Simplify: ko == -128" 'grep -q "== -128" "$F"'
check ".pto written" '[ -s "$T/out/ptoas/matmul_incore_0.pto" ]'
check ".pto has two left allocs at 0 and 32768" 'grep -q "loc=left" "$T/out/ptoas/matmul_incore_0.pto" && grep -q "c32768_i64" "$T/out/ptoas/matmul_incore_0.pto"'
check "perf_hints.log written" '[ -f "$T/out/report/perf_hints.log" ]'

# variations
"$PTOC" compile examples/matmul_k128.py -o "$T/k128" > /dev/null 2>&1
check "K=128 untiled (no loop after AutoTile)" '! grep -q "pl.pipeline\|pl.range" "$T/k128/passes_dump/"*_after_AutoTileMatmulL0.py'
check "K=128 operands moved to L0 whole" 'grep -q "pl.tile.move" "$T/k128/passes_dump/"*_after_InferTileMemorySpace.py'
"$PTOC" run examples/matmul_k128.py --json > "$T/k128.json" 2>/dev/null
check "K=128 runs correctly" 'json_has "$T/k128.json" "\"ok\":true"'
"$PTOC" compile examples/matmul_k256.py -o "$T/k256" > /dev/null 2>&1
check "K=256 2-trip K loop" 'grep -q "pl.pipeline(0, 256, 128, init_values=" "$T/k256/passes_dump/"*_after_AutoTileMatmulL0.py'
"$PTOC" run examples/matmul_k256.py --json > "$T/k256.json" 2>/dev/null
check "K=256 runs correctly" 'json_has "$T/k256.json" "\"ok\":true"'
"$PTOC" compile examples/matmul_256x256x512.py --cores 1 -o "$T/grid" > /dev/null 2>&1
check "256x256x512: direct-store grid (several stores)" '[ "$(grep -c "pl.tile.store" "$T/grid/passes_dump/"*_after_AutoTileMatmulL0.py)" -ge 2 ]'
"$PTOC" run examples/matmul_256x256x512.py --json > "$T/grid.json" 2>/dev/null
check "256x256x512 runs correctly" 'json_has "$T/grid.json" "\"ok\":true"'
"$PTOC" run tests/e2e/errors/k4096_mat_overflow.py --no-auto-l1 > /dev/null 2> "$T/k4096.err"
rc=$?
check "K=4096 exits 1" '[ $rc -eq 1 ]'
check "K=4096 message" 'grep -q "Mat buffer usage (2097152 bytes) exceeds platform limit (524288 bytes)" "$T/k4096.err"'
check "K=4096 names the function" 'grep -q "Function '"'"'[a-z_0-9]*'"'"'" "$T/k4096.err"'
check "K=4096 has a source location" 'grep -q "k4096_mat_overflow.py:[0-9]*:[0-9]*: error" "$T/k4096.err"'
"$PTOC" run tests/e2e/errors/k4096_mat_overflow.py --json > "$T/k4096.json" 2>/dev/null
check "K=4096 without --no-auto-l1: AutoTileL1 blocks it and it runs" 'json_has "$T/k4096.json" "\"ok\":true" && json_has "$T/k4096.json" "PH-L1-001"'

echo "$PASS passed, $FAIL failed"
[ "$FAIL" -eq 0 ]
