#!/usr/bin/env bash
# bench/mixed — issue 10's figures, each against its baseline run side by side in the same run:
#   simulated makespan of a mixed cube + vector region vs the same computation as regions that meet
#   in GM (target: ratio < 1), of an SPMD task of 4 attention blocks vs one block (target: ratio 1,
#   the blocks run concurrently), and the flash-attention examples' cube busy fraction (the issue's
#   target is >= 50%: examples/flash_attention.py a2a3 51%, a5 62%, examples/flash_attention_long.py a5
#   66%; the textbook loop examples/flash_attention_plain.py, rotated by the compiler, a2a3 52%, a5 62%;
#   the toy-size examples/flash_attention_small.py is bound by its vector work to <= 14%:
#   docs/sim.md, "Flash attention"). Host time of the mixed run is
#   reported with the ratio to the staged run's.
# Usage: bash bench/mixed.sh BUILD_DIR
set -u
BUILD=${1:-build}
PTOC="$BUILD/ptoc"
[ -x "$PTOC" ] || { echo "bench/mixed: $PTOC not built"; exit 1; }
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
field() { grep -o "\"$2\":[0-9.e+-]*" "$1" | head -n 1 | cut -d: -f2; }
ms() { local t0=${EPOCHREALTIME/[.,]/}; "$@" > "$TMP/out.json" 2> /dev/null; local t1=${EPOCHREALTIME/[.,]/}; echo $(( (t1 - t0) / 1000 )); }

pair() {   # label mixed staged target
    local hm hs
    hm=$(ms "$PTOC" run "$2" --target "$4" --json); cp "$TMP/out.json" "$TMP/m.json"
    hs=$(ms "$PTOC" run "$3" --target "$4" --json); cp "$TMP/out.json" "$TMP/s.json"
    local m s
    m=$(field "$TMP/m.json" makespan_cycles); s=$(field "$TMP/s.json" makespan_cycles)
    awk -v l="$1" -v m="$m" -v s="$s" -v hm="$hm" -v hs="$hs" 'BEGIN {
        printf "%-34s %8d vs %8d cycles  ratio %.2f  %s   host %d vs %d ms\n", l, m, s, m / s, (m < s ? "PASS" : "FAIL"), hm, hs }'
}
pair "mm+bias+relu mixed/staged a2a3" examples/mm_bias_relu_mixed.py tests/cli/mixed/mm_bias_relu_staged.py a2a3
pair "mm+bias+relu mixed/staged a5" examples/mm_bias_relu_mixed.py tests/cli/mixed/mm_bias_relu_staged.py a5
pair "fused MLP mixed/staged a5" examples/fused_mlp.py tests/cli/mixed/fused_mlp_staged.py a5

"$PTOC" run examples/attention_spmd.py --json > "$TMP/spmd.json" 2> /dev/null
"$PTOC" run examples/attention.py --json > "$TMP/one.json" 2> /dev/null
awk -v a="$(field "$TMP/spmd.json" makespan_cycles)" -v b="$(field "$TMP/one.json" makespan_cycles)" 'BEGIN {
    printf "%-34s %8d vs %8d cycles  ratio %.2f\n", "attention 4 SPMD blocks / 1 block", a, b, a / b }'

for t in "examples/flash_attention.py a2a3 target" "examples/flash_attention.py a5 target" \
         "examples/flash_attention_plain.py a2a3 target" "examples/flash_attention_plain.py a5 target" \
         "examples/flash_attention_long.py a5 target" \
         "examples/flash_attention_small.py a2a3 toy" "examples/flash_attention_small.py a5 toy"; do
    set -- $t
    "$PTOC" run "$1" --target "$2" --json > "$TMP/fa.json" 2> /dev/null
    awk -v u="$(field "$TMP/fa.json" cube_util)" -v l="$(basename "$1" .py) $2" -v kind="$3" 'BEGIN {
        if (kind == "toy") verdict = "toy size, vector-bound: no target"
        else verdict = "target >= 50%: " (u >= 0.5 ? "PASS" : "FAIL")
        printf "%-34s cube busy %.1f%%  (%s)\n", l, 100 * u, verdict }'
done
