#!/usr/bin/env bash
# test_tile_cli — `ptoc tile` end to end: friendly, raw, --json, --batch, usage and rejected configs.
# Usage: tests/cli/test_tile_cli.sh BUILD_DIR   (binary at BUILD_DIR/ptoc). Prints PASS/FAIL lines and
# "N passed, M failed" last.
set -u
PTOC="${1:-build}/ptoc"
PASS=0
FAIL=0
OUT=$(mktemp)
ERR=$(mktemp)
trap 'rm -f "$OUT" "$ERR"' EXIT

ok() { echo "PASS $1"; PASS=$((PASS + 1)); }
ko() { echo "FAIL $1: $2"; FAIL=$((FAIL + 1)); }

# run NAME EXPECTED_RC ARGS... (stdout -> $OUT, stderr -> $ERR)
run() {
    local name=$1 want=$2; shift 2
    "$PTOC" tile "$@" > "$OUT" 2> "$ERR"
    local rc=$?
    if [ "$rc" -ne "$want" ]; then ko "$name" "exit $rc, want $want; stderr: $(head -c 300 "$ERR")"; return 1; fi
    return 0
}
# has NAME FILE PATTERN (fixed string)
has() { if grep -qF -- "$3" "$2"; then ok "$1"; else ko "$1" "missing '$3' in: $(head -c 400 "$2")"; fi; }

# friendly form: the published 128x128x512 pick with residency and the cost breakdown
if run friendly 0 128 128 512; then
    has friendly-pick "$OUT" "pick: m=128 n=128 k=128  regime OS dbC1"
    has friendly-cost "$OUT" "cost 3279 cycles, traffic 327680 B, padded volume 8388608, os_holds_a true"
    has friendly-l0a "$OUT" "L0A  2 x 32768 B = 65536 / 65536 B (100.0%)"
    has friendly-l0c "$OUT" "L0C  1 x 65536 B = 65536 / 131072 B (50.0%)"
    has friendly-load "$OUT" "C_load   2545.379"
    has friendly-drain "$OUT" "C_drain  733.600"
    has friendly-wall "$OUT" "= 3278.979 -> 3279"
    has friendly-kblocks "$OUT" "k-blocks 8 > 4"
    has friendly-gate "$OUT" "OS dbC2: dbC gate closed"
    has friendly-as "$OUT" "AS dbC1:"
fi
# the derivation's runner-up k=16 loses on the wall
if run friendly-raw-k 0 M=128 N=128 K=512; then has runnerup-wall "$OUT" "wall 3454 > 3279"; fi

# --dbc opens the L0C double buffer under the pypto planner; other planners open it anyway
if run dbc 0 512 512 64 --dbc --dtype bf16 --json; then
    has dbc-json "$OUT" '{"m":64,"n":256,"k":64,"stationarity":"OS","dbc":1,"os_holds_a":0,"cost":11787,"traffic":1245184,"pvol":16777216,"perf_hint":""}'
fi
if run planner 0 512 512 64 --memory-planner ptoas --json; then has planner-dbc "$OUT" '"dbc":1'; fi
if run planner-pypto 0 512 512 64 --json; then has planner-pypto "$OUT" '"m":128,"n":256,"k":64,"stationarity":"OS","dbc":0'; fi
if run fp32 0 256 256 256 --dtype fp32 --json; then has fp32-pick "$OUT" '"m":128,"n":256,"k":32'; fi
if run int8 0 256 256 256 --dtype int8; then has int8-acc "$OUT" "INT8 x INT8 -> INT32"; fi
if run a5 0 4096 4096 4096 --target a5; then has a5-target "$OUT" "target a5"; has a5-l0c "$OUT" "/ 262144 B"; fi

# raw form
if run raw-json 0 M=4096 N=4096 K=4096 --json; then
    has raw-4096 "$OUT" '{"m":128,"n":256,"k":64,"stationarity":"OS","dbc":0,"os_holds_a":0,"cost":18118031,"traffic":1677721600,"pvol":68719476736,"perf_hint":""}'
fi
if run raw-bs 0 M=256 N=256 K=256 allow_a_stationary=true allow_b_stationary=1 allow_double_buffer_c=1 --json; then
    has raw-bs "$OUT" '"m":64,"n":128,"k":256,"stationarity":"BS","dbc":1'
    has raw-bs-cost "$OUT" '"cost":4713'
fi
if run raw-pad 0 M=5 N=5 K=5 allow_padding=1 --json; then has raw-hint "$OUT" 'tile shape padded up to (16, 16, 16)'; fi
if run raw-cost-model 0 M=256 N=256 K=64 bw_drain=30.0 drain_fixed_cycles=343.4 l0c_bytes=262144 --json; then
    has raw-cost-model "$OUT" '"stationarity":"OS"'
fi

# rejected configs: exit 1, JSON error object or stderr message
if run reject-json 1 M=0 N=16 K=16 --json; then
    has reject-json "$OUT" '{"error":"ChooseL0Tile: M, N, K must all be positive (got 0, 16, 16)"}'
fi
if run reject-text 1 M=16 N=16 K=50 allow_k_boundary=1; then
    has reject-text "$ERR" "no legal (m, n, k) tile found for M=16, N=16, K=50"
fi
if run reject-maxn 1 M=64 N=64 K=64 max_n=8; then has reject-maxn "$ERR" "max_n must be zero (unbounded) or at least min_n"; fi

# usage errors: exit 2 naming the field / option
if run bad-field 2 M=16 N=16 K=16 foo=3; then has bad-field "$ERR" "unknown field 'foo'"; fi
if run bad-value 2 M=16 N=x K=16; then has bad-value "$ERR" "bad value 'x' for field 'N'"; fi
if run bad-bool 2 M=16 N=16 K=16 c_read=yes; then has bad-bool "$ERR" "field 'c_read'"; fi
if run bad-opt 2 128 128 128 --frobnicate; then has bad-opt "$ERR" "unknown option '--frobnicate'"; fi
if run bad-dtype 2 128 128 128 --dtype fp64; then has bad-dtype "$ERR" "--dtype"; fi
if run mixed 2 M=16 N=16 K=16 --target a5; then has mixed "$ERR" "cannot be mixed"; fi
if run no-args 2; then has no-args "$ERR" "usage: ptoc tile"; fi
if run help 0 --help; then has help "$OUT" "allow_k_boundary"; fi

# batch: one JSON line per non-blank input line, errors inline, exit 0
printf 'M=128 N=128 K=512\n\n  M=0 N=1 K=1\nM=16 bogus=1\nM=5 N=5 K=5 allow_padding=1\nM=512 N=512 K=64 allow_double_buffer_c=1\n' \
    | "$PTOC" tile --batch > "$OUT" 2> "$ERR"
rc=$?
if [ $rc -eq 0 ]; then ok batch-rc; else ko batch-rc "exit $rc"; fi
if [ "$(wc -l < "$OUT")" -eq 5 ]; then ok batch-lines; else ko batch-lines "$(wc -l < "$OUT") lines"; fi
if sed -n 1p "$OUT" | grep -qF '"m":128,"n":128,"k":128,'; then ok batch-1; else ko batch-1 "$(sed -n 1p "$OUT")"; fi
if sed -n 2p "$OUT" | grep -qF '{"error":"ChooseL0Tile: M, N, K must all be positive'; then ok batch-2; else ko batch-2 "$(sed -n 2p "$OUT")"; fi
if sed -n 3p "$OUT" | grep -qF "{\"error\":\"unknown field 'bogus'\"}"; then ok batch-3; else ko batch-3 "$(sed -n 3p "$OUT")"; fi
if sed -n 4p "$OUT" | grep -qF '"perf_hint":"Matmul shape (M=5, N=5, K=5)'; then ok batch-4; else ko batch-4 "$(sed -n 4p "$OUT")"; fi
if sed -n 5p "$OUT" | grep -qF '"m":64,"n":256,"k":64,"stationarity":"OS","dbc":1,"os_holds_a":0,"cost":11787'; then ok batch-5; else ko batch-5 "$(sed -n 5p "$OUT")"; fi

echo "$PASS passed, $FAIL failed"
[ "$FAIL" -eq 0 ]
