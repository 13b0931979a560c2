#!/usr/bin/env bash
# test_timeline — `ptoc run --keep DIR` writes report/timeline.json with every used core's pipes
# (a Chrome trace: process "AIC n" / "AIV n", threads "MTE2", "M", "V", ...) next to the task row,
# and run/deps.json with each task's core and block count (a mixed task: its member kernels); a run without --keep has the same timing
# (tracing is only on for --keep). JSON validity and span bounds are checked in tests/unit/test_timeline.c.
# Usage: tests/cli/test_timeline.sh BUILD_DIR. Prints PASS/FAIL lines, "N passed, M failed" last.
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
has() { if grep -qF -- "$3" "$2"; then ok "$1"; else ko "$1" "missing '$3' in: $(head -c 300 "$2")"; fi; }
hasnt() { if grep -qF -- "$3" "$2"; then ko "$1" "unexpected '$3'"; else ok "$1"; fi; }
keep() {   # keep NAME PROGRAM: run with --keep $TMP/NAME
    if "$PTOC" run "$2" --keep "$TMP/$1" > "$TMP/$1.out" 2>&1; then ok "$1-run"; else ko "$1-run" "$(head -c 300 "$TMP/$1.out")"; fi
}
# a thread (pipe) name under process PID
thread() { has "$1" "$2" "\"pid\":$3,\"tid\":$4,\"args\":{\"name\":\"$5\"}"; }

# ---- a matmul: the AIC's load, cube and fixpipe rows, the task row ----
keep mm examples/matmul.py
T="$TMP/mm/report/timeline.json"
has mm-aic0 "$T" '"pid":1,"args":{"name":"AIC 0"}'
thread mm-mte2 "$T" 1 4 MTE2
thread mm-m "$T" 1 2 M
thread mm-fix "$T" 1 10 FIX
thread mm-kernel-row "$T" 1 100 kernel
has mm-tmatmul "$T" '"name":"tmatmul"'
has mm-args "$T" '"args":{"kernel":"matmul_incore_0","task":0,"block":0,"op":"tload"'
has mm-tasks-row "$T" '"pid":0,"args":{"name":"tasks"}'
has mm-task-event "$T" '"name":"matmul_incore_0","ph":"X","pid":0,"tid":0'
hasnt mm-no-aiv "$T" '"AIV 0"'
D="$TMP/mm/run/deps.json"
has mm-deps-core "$D" '"kernel":"matmul_incore_0","core":"aic","kernel_ids":[0,-1,-1],"block_num":1'

# ---- a vector kernel: the AIV's vector row ----
keep vec examples/softmax_rows.py
T="$TMP/vec/report/timeline.json"
has vec-aiv0 "$T" '"pid":25,"args":{"name":"AIV 0"}'
thread vec-v "$T" 25 1 V
thread vec-mte3 "$T" 25 5 MTE3
hasnt vec-no-aic "$T" '"AIC 0"'
has vec-deps-core "$TMP/vec/run/deps.json" '"core":"aiv","kernel_ids":[-1,0,-1],"block_num":1'

# ---- two independent tasks run on two cores at once ----
keep two tests/e2e/manual_scope_disjoint_fp16.py
T="$TMP/two/report/timeline.json"
has two-aic0 "$T" '"pid":1,"args":{"name":"AIC 0"}'
has two-aic1 "$T" '"pid":2,"args":{"name":"AIC 1"}'
thread two-aic1-m "$T" 2 2 M
has two-top "$T" '"name":"top","ph":"X","pid":1,"tid":100'
has two-bottom "$T" '"name":"bottom","ph":"X","pid":2,"tid":100'

# ---- a mixed task: the AIC and the AIV of cluster 0 side by side, deps.json names the members ----
cat > "$TMP/mixed.py" <<'PY'
import pypto.language as pl

@pl.jit
def mixed(q: pl.Tensor[[64, 128], pl.FP16], k: pl.Tensor[[128, 64], pl.FP16],
          p: pl.Out[pl.Tensor[[64, 64], pl.FP32]]):
    with pl.at(level=pl.Level.CORE_GROUP):
        s = pl.matmul(q, k, out_dtype=pl.FP32)
        p[:] = pl.exp(s)
    return p
PY
keep mix "$TMP/mixed.py"
T="$TMP/mix/report/timeline.json"
has mix-aic0 "$T" '"pid":1,"args":{"name":"AIC 0"}'
has mix-aiv0 "$T" '"pid":25,"args":{"name":"AIV 0"}'
thread mix-aic-m "$T" 1 2 M
thread mix-aiv-v "$T" 25 1 V
has mix-tpush "$T" '"name":"tpush"'
has mix-tpop "$T" '"name":"tpop"'
has mix-task-row "$T" '"name":"mixed_incore_0","ph":"X","pid":0,"tid":2'
has mix-deps "$TMP/mix/run/deps.json" '"kernel":"mixed_incore_0","core":"mix","kernel_ids":[0,1,-1],"kernels":[{"name":"mixed_incore_0_aic","core":"aic"},{"name":"mixed_incore_0_aiv","core":"aiv"}],"block_num":1'
has mix-orch-ids "$TMP/mix/orchestration/mixed.cpp" 'MixedKernels mixed_0 = {0, 1, INVALID_KERNEL_ID}'

# ---- deterministic, and --keep does not change the timing ----
"$PTOC" run tests/e2e/manual_scope_disjoint_fp16.py --keep "$TMP/two2" > /dev/null 2>&1
if cmp -s "$TMP/two/report/timeline.json" "$TMP/two2/report/timeline.json"; then ok timeline-identical; else ko timeline-identical "two runs differ"; fi
a=$("$PTOC" run examples/matmul.py --json | grep -o '"makespan_cycles":[0-9]*')
b=$("$PTOC" run examples/matmul.py --json --keep "$TMP/mm2" | grep -o '"makespan_cycles":[0-9]*')
if [ -n "$a" ] && [ "$a" = "$b" ]; then ok keep-same-timing; else ko keep-same-timing "'$a' vs '$b'"; fi

echo "$PASS passed, $FAIL failed"
[ "$FAIL" -eq 0 ]
