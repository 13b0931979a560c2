#!/usr/bin/env bash
# bench/compile_scale — compile time against program size (issue 12 point 4), in-process compile_ms of
# `ptoc compile --json` (parse, every pass, lowering, sync, .pto), median of REPS runs:
#   256 matmuls in one region   vs 1 matmul (bench/gen/scale.sh mm)        target ratio <= 400x
#   256 regions                 vs 1 region (bench/gen/scale.sh region)    target ratio <= 400x
#   10,000 statements in one region (bench/gen/scale.sh stmt)              target <= 200 ms
#   (1,000 statements printed beside it, so the growth from 1k to 10k shows)
# The baselines (1 unit) are measured in the same run; the per-pass split of the big programs is
# printed for the passes above 5% of the total.
# Usage: bash bench/compile_scale.sh BUILD_DIR [REPS]
set -u
BUILD=${1:-build}
REPS=${2:-5}
PTOC="$BUILD/ptoc"
[ -x "$PTOC" ] || { echo "bench/compile_scale: $PTOC not built"; exit 1; }
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
HERE=$(dirname "$0")
for spec in "mm 1" "mm 256" "region 1" "region 256" "stmt 1000" "stmt 10000"; do
    set -- $spec
    bash "$HERE/gen/scale.sh" "$1" "$2" > "$TMP/$1_$2.py"
done
# median_compile NAME REPS: median compile_ms over REPS runs (ms, 3 decimals)
median_compile() {
    local f=$TMP/$1.py r
    : > "$TMP/$1.ms"
    for ((r = 0; r < $2; r++)); do
        "$PTOC" compile "$f" --json 2>/dev/null > "$TMP/$1.json" || { echo "FAIL"; return; }
        grep -o '"compile_ms":[0-9.e+-]*' "$TMP/$1.json" | cut -d: -f2 >> "$TMP/$1.ms"
    done
    sort -g "$TMP/$1.ms" | awk '{ a[NR] = $1 } END { m = (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2; printf "%.3f", m }'
}
# the passes of the last run of NAME that take more than 5% of its compile time
split() {
    tr '{' '\n' < "$TMP/$1.json" | grep -o '"name":"[A-Za-z0-9]*","ms":[0-9.e+-]*' |
        sed 's/"name":"\([^"]*\)","ms":\(.*\)/\1 \2/' |
        awk -v tot="$2" '$2 > 0.05 * tot { printf "    %-28s %8.1f ms\n", $1, $2 }'
}
verdict() { awk -v v="$1" -v t="$2" 'BEGIN { print (v <= t) ? "PASS" : "FAIL" }'; }
small=$((REPS * 4 + 1))   # the 1-unit programs take < 1 ms: more runs for a stable median
mm1=$(median_compile mm_1 $small); mm256=$(median_compile mm_256 "$REPS")
rg1=$(median_compile region_1 $small); rg256=$(median_compile region_256 "$REPS")
st1k=$(median_compile stmt_1000 "$REPS"); st10k=$(median_compile stmt_10000 "$REPS")
for v in "$mm1" "$mm256" "$rg1" "$rg256" "$st1k" "$st10k"; do
    [ "$v" = FAIL ] && { echo "bench/compile_scale: a generated program does not compile"; exit 1; }
done
r_mm=$(awk -v a="$mm256" -v b="$mm1" 'BEGIN { printf "%.0f", a / b }')
r_rg=$(awk -v a="$rg256" -v b="$rg1" 'BEGIN { printf "%.0f", a / b }')
printf "compile 1 matmul in a region      %9.3f ms   (baseline)\n" "$mm1"
printf "compile 256 matmuls in a region   %9.3f ms   %5sx   target <= 400x   %s\n" "$mm256" "$r_mm" "$(verdict "$r_mm" 400)"
split mm_256 "$mm256"
printf "compile 1 region                  %9.3f ms   (baseline)\n" "$rg1"
printf "compile 256 regions               %9.3f ms   %5sx   target <= 400x   %s\n" "$rg256" "$r_rg" "$(verdict "$r_rg" 400)"
split region_256 "$rg256"
printf "compile 1,000 statements          %9.3f ms\n" "$st1k"
printf "compile 10,000 statements         %9.3f ms   %5.1fx the 1,000   target <= 200 ms   %s\n" "$st10k" \
    "$(awk -v a="$st10k" -v b="$st1k" 'BEGIN { printf "%.1f", a / b }')" "$(verdict "$st10k" 200)"
split stmt_10000 "$st10k"
