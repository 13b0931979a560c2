#!/usr/bin/env bash
# bench/gemm — issue 11's hardware comparison: the reference GEMM problem (c = a @ b^T, fp16 -> fp32,
# ND, one region) at 1536^3, 3072^3, 6144^3 (and 7680^3, published too but not in issue 11's list) on
# a2a3, simulated --timing-only, against the published A3 measurements of a hand-written 24-core tile-ISA GEMM (targets.md §3). Prints the simulated
# makespan, its ratio to the measurement (target 0.8 .. 1.2), the cube utilisation (6144^3: 86.7%
# measured, target +-10 points) and the host time of each run (target <= 30 s).
set -u
BUILD=${1:-build}
PTOC="$BUILD/ptoc"
num() { grep -o "\"$2\":[-0-9.e+]*" "$1" | head -n 1 | cut -d: -f2; }
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
printf '%-8s %12s %12s %7s %9s %8s\n' size sim_us hw_us ratio cube_util host_s
while read -r n hw; do
    t0=$(date +%s.%N)
    if ! "$PTOC" run "bench/gemm/gemm_$n.py" --timing-only --json > "$T/$n.json" 2> "$T/$n.err"; then
        echo "gemm $n: ptoc failed: $(head -n 3 "$T/$n.err")"
        continue
    fi
    t1=$(date +%s.%N)
    us=$(num "$T/$n.json" makespan_us)
    cu=$(num "$T/$n.json" cube_util)
    awk -v n="$n" -v us="$us" -v hw="$hw" -v cu="$cu" -v t0="$t0" -v t1="$t1" \
        'BEGIN { printf "%-8s %12.1f %12.1f %7.3f %9.3f %8.2f\n", n "^3", us, hw, us / hw, cu, t1 - t0 }'
done <<'LIST'
1536 38.8
3072 206.7
6144 1506
7680 3168
LIST
