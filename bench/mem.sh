#!/usr/bin/env bash
# bench/mem — peak RSS of `ptoc run` against its budget (issue 12 point 7): at most 2 x the bytes
# of the program's tensors (inputs + outputs, as the entry signature declares them) + 64 MiB.
# The program: bench/mem_8192.py (c = a @ b at 8192 x 8192 x 16: 0.5 MiB of FP16 inputs, a 256 MiB
# FP32 output). Prints the peak, the tensor bytes, the bound and peak / bound with PASS or FAIL.
# Usage: bench/mem.sh [BUILD_DIR [PROGRAM]]. Needs GNU time (/usr/bin/time); skipped without it.
set -u
BUILD=${1:-build}
PROG=${2:-bench/mem_8192.py}
PTOC="$BUILD/ptoc"
TIME=/usr/bin/time
if [ ! -x "$TIME" ]; then echo "mem: skipped (no $TIME to measure the peak RSS)"; exit 0; fi

# bytes of every pl.Tensor[[d0, d1, ...], pl.DTYPE] the program declares (its one function's signature)
tensor_bytes() {
    grep -o 'Tensor\[\[[0-9, ]*\], *pl\.[A-Z0-9]*' "$1" | sed 's/Tensor\[\[//; s/\], *pl\./ /; s/,/ /g' |
        awk '{ n = 1; for (i = 1; i < NF; i++) n *= $i
               b = 1
               if ($NF ~ /^(FP32|INT32|UINT32)$/) b = 4
               if ($NF ~ /^(FP16|BF16|INT16|UINT16)$/) b = 2
               if ($NF ~ /^(INT64|UINT64)$/) b = 8
               s += n * b } END { printf "%d\n", s }'
}

T=$(tensor_bytes "$PROG")
OUT=$(mktemp)
trap 'rm -f "$OUT"' EXIT
"$TIME" -f 'maxrss_kb %M' "$PTOC" run "$PROG" >"$OUT" 2>&1
rc=$?
KB=$(grep -o 'maxrss_kb [0-9]*' "$OUT" | awk '{ print $2 }')
verdict=$(grep -x 'OK' "$OUT" || echo "not OK (exit $rc)")
awk -v kb="$KB" -v t="$T" -v prog="$PROG" -v v="$verdict" 'BEGIN {
    mib = 1048576; peak = kb * 1024; bound = 2 * t + 64 * mib;
    printf "mem: %s: peak RSS %.1f MiB, tensors %.1f MiB, bound 2 x tensors + 64 MiB = %.1f MiB, peak / bound %.3f, peak / tensors %.2f  %s (run %s)\n",
           prog, peak / mib, t / mib, bound / mib, peak / bound, peak / t, peak <= bound ? "PASS" : "FAIL", v }'
