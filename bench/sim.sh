#!/usr/bin/env bash
# bench/sim.sh BUILD — simulator speed (MAD kernel, whole matmul kernel run) against naive
# triple-loop baselines measured side by side in the same program. Needs BUILD/libptoc.a.
set -eu
BUILD=${1:-build}
[ -f "$BUILD/libptoc.a" ] || make -s "$BUILD/libptoc.a"
mkdir -p "$BUILD/bench"
${CC:-gcc} -std=c11 -D_POSIX_C_SOURCE=200809L -O2 -Wall -Wextra -Werror -Wno-unused-parameter -ffp-contract=off \
    -Isrc -Iinclude -Itests/unit -o "$BUILD/bench/sim_bench" bench/sim_bench.c "$BUILD/libptoc.a" -lm -lpthread
"$BUILD/bench/sim_bench"
