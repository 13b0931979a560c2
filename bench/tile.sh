#!/usr/bin/env bash
# bench/tile — speed of the L0 tile chooser, as ratios against baselines measured in the same run.
#   (a) one tile_choose_l0 call on 4096^3 with every gate open (AS, BS, dbC, K boundary): ms per call
#       (timed inside ptoc with the hidden --repeat option), against the 1 ms target and against a
#       trivially small problem (16^3) timed the same way;
#   (b) `ptoc tile --batch` on 20,000 generated configs: configs/s, against `cat` of the same input
#       through a trivial process; target >= 5,000 configs/s.
# Usage: bash bench/tile.sh BUILD_DIR
set -u
BUILD=${1:-build}
PTOC="$BUILD/ptoc"
[ -x "$PTOC" ] || { echo "bench/tile: $PTOC not built"; exit 1; }
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
now() { date +%s.%N; }

GATES="allow_a_stationary=1 allow_b_stationary=1 allow_double_buffer_c=1 allow_k_boundary=1"
REP=2000
# shellcheck disable=SC2086
big=$("$PTOC" tile --repeat $REP M=4096 N=4096 K=4096 l0a_bytes=65536 l0b_bytes=65536 l0c_bytes=131072 $GATES --json \
      2>&1 >/dev/null | sed -n 's/.*, \([0-9.]*\) ms\/call/\1/p')
# shellcheck disable=SC2086
small=$("$PTOC" tile --repeat $REP M=16 N=16 K=16 $GATES --json 2>&1 >/dev/null | sed -n 's/.*, \([0-9.]*\) ms\/call/\1/p')
verdict=$(awk -v t="$big" 'BEGIN { print (t <= 1.0) ? "PASS" : "FAIL" }')
awk -v b="$big" -v s="$small" -v v="$verdict" 'BEGIN {
    printf "chooser 4096^3, all gates: %.4f ms/call = %.3fx the 1 ms target (%s); %.1fx a 16^3 call (%.4f ms)\n",
           b, b / 1.0, v, (s > 0 ? b / s : 0), s }'

# 20,000 varied configs (seeded): both cost models, dtypes, gates, boxes, caps, padding, K boundary
N=20000
awk -v n=$N 'BEGIN {
    srand(12345)
    for (i = 0; i < n; i++) {
        M = 16 * int(1 + rand() * 256); Nn = 16 * int(1 + rand() * 256); K = 16 * int(1 + rand() * 256)
        if (rand() < 0.1) { M += int(rand() * 15) }
        b = (rand() < 0.5) ? 2 : ((rand() < 0.5) ? 1 : 4)
        line = sprintf("M=%d N=%d K=%d bytes_a=%d bytes_b=%d", M, Nn, K, b, b)
        if (rand() < 0.5) line = line " l0c_bytes=262144 bw_a=206.3 bw_b=223.8 bw_drain=30.0 drain_fixed_cycles=343.4 drain_row_cycles=4.59 drain_penalty_cycles=0.26 mad_head=25 mad_fp32_passes=8"
        if (rand() < 0.5) line = line " allow_a_stationary=1 allow_b_stationary=1"
        if (rand() < 0.5) line = line " allow_double_buffer_c=1"
        if (rand() < 0.7) line = line " allow_k_boundary=1"
        if (rand() < 0.2) line = line " box_align_n=32 l0c_align_m=32"
        if (rand() < 0.1) line = line " max_n=256 max_n_pipelined=128 max_n_nested_pipelined=64"
        if (rand() < 0.05) line = line " allow_padding=1"
        print line
    }
}' > "$TMP/in.txt"

t0=$(now); cat < "$TMP/in.txt" | cat > "$TMP/base.txt"; t1=$(now)
"$PTOC" tile --batch < "$TMP/in.txt" > "$TMP/out.txt"; t2=$(now)
lines=$(wc -l < "$TMP/out.txt")
[ "$lines" -eq "$N" ] || echo "bench/tile: batch wrote $lines lines for $N configs"
awk -v n=$N -v t0="$t0" -v t1="$t1" -v t2="$t2" 'BEGIN {
    tb = t1 - t0; tc = t2 - t1
    rate = n / tc
    printf "batch: %d configs in %.3f s = %.0f configs/s (%s, target >= 5000/s, %.1fx the target); %.1fx the time of cat (%.4f s)\n",
           n, tc, rate, (rate >= 5000 ? "PASS" : "FAIL"), rate / 5000, (tb > 0 ? tc / tb : 0), tb }'
