#!/usr/bin/env bash
# test_overlap — double buffering pays in the timing model (issue 11 point 5): the single-core K loops of
# tests/cli/overlap/ (the walkthrough rung-3 form, K chunks of 256 under pl.pipeline(1, 16, stage=2)) keep
# the cube busy when they are compute-bound and MTE2 busy when they are GM-bound. Every program must also
# match the interpreter with no race and no sync error. Reads kernels[0].cube_util / pipe_util from
# `ptoc run --json`; the figures are printed.
#   fp32 128 x 128 x 4096, a2a3: compute-bound (4096 cube vs 3344 MTE2 cycles a chunk)  cube >= 0.90
#   fp16 256 x 256 x 4096 as one matmul, --cores 1 (issue 11's example; AutoTileL1 blocks it into two
#     128 x 256 accumulators, each streaming all of B: 6 MiB at 143.4 B/cycle, ~48,000 MTE2 cycles
#     against ~71,000 of cube)                                                            cube >= 0.90
#   the same, fp32 operands (two cube passes per K fractal)                              cube >= 0.90
#   fp16 128 x 256 x 4096, a2a3: compute-bound (1571 MTE2 vs 2216 cube cycles a chunk)  cube >= 0.90
#   rung3_k4096_w256_s2_fp16 (tests/e2e), a2a3: bound by the L1 -> L0 extracts (a 128 x 256 x 128
#     chunk: 505 + 767 MTE1 cycles at bw_a / bw_b against 1108 of cube)                   MTE1 >= 0.85
#   fp16 256 x 256 x 4096, a5: compute-bound, but its one FIXPIPE drain of the 256 KiB accumulator
#     (30 B/cycle on a5, ~8.7k cycles, 10% of the run) cannot overlap anything              cube >= 0.80
#   examples/flash_attention_long.py, a5: software-pipelined across the cube / vector hand-off, bound
#     by the K / V stream (MTE2 95%); was 0.45 when the softmax waited for the previous p @ v   cube >= 0.60
#   examples/flash_attention.py, a2a3: MTE2-bound (K, V and the p ring through GM)              cube >= 0.50
#   examples/flash_attention.py, a5: the same program on a5 (0.62)                              cube >= 0.60
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
# first value of "key": in a --json output (kernels[0] comes before any other kernel)
num() { grep -o "\"$2\":[0-9.e+-]*" "$1" | head -n 1 | cut -d: -f2; }
ge() { awk -v a="$1" -v b="$2" 'BEGIN { exit !(a != "" && a + 0 >= b + 0) }'; }

# program, target, key (cube_util or a pipe of pipe_util), bound, more ptoc run options
while read -r prog target key bound opts; do
    n=$(basename "$prog" .py)-$target
    # shellcheck disable=SC2086
    "$PTOC" run "$prog" --target "$target" $opts --json > "$T/$n.json" 2> /dev/null
    rc=$?
    check "$n: runs and matches" '[ $rc -eq 0 ] && grep -q "\"ok\":true" "$T/$n.json"'
    check "$n: no race, no sync error" '[ "$(num "$T/$n.json" races)" = 0 ] && [ "$(num "$T/$n.json" sync_errors)" = 0 ]'
    v=$(num "$T/$n.json" "$key")
    echo "  $n: $key ${v:-?} (cube_util $(num "$T/$n.json" cube_util), makespan $(num "$T/$n.json" makespan_cycles) cycles)"
    check "$n: $key >= $bound" 'ge "$v" "$bound"'
done <<'LIST'
tests/cli/overlap/mm_fp32_128x128x4096.py a2a3 cube_util 0.90
tests/cli/overlap/mm_fp16_256x256x4096_whole.py a2a3 cube_util 0.90 --cores 1
tests/cli/overlap/mm_fp32_256x256x4096_whole.py a2a3 cube_util 0.90 --cores 1
tests/cli/overlap/mm_fp16_128x256x4096.py a2a3 cube_util 0.90
tests/e2e/rung3_k4096_w256_s2_fp16.py a2a3 MTE1 0.85
tests/cli/overlap/mm_a5_fp16_256x256x4096.py a5 cube_util 0.80
examples/flash_attention_long.py a5 cube_util 0.60
examples/flash_attention.py a2a3 cube_util 0.50
examples/flash_attention.py a5 cube_util 0.60
LIST

echo "$PASS passed, $FAIL failed"
[ "$FAIL" -eq 0 ]
