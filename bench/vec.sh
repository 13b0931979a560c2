#!/usr/bin/env bash
# bench/vec.sh BUILD — the vector unit: (1) simulating an FP32 add over 1M elements against a plain C
# loop measured side by side (bench/vec_bench.c); (2) the timing model of a streaming kernel written
# with pl.pipeline(stage=2) over 2 MiB (examples/stream_add.py): the busy fraction of its busiest
# pipe (target >= 0.85), from `ptoc run --json` pipe_util.
set -eu
BUILD=${1:-build}
[ -f "$BUILD/libptoc.a" ] || make -s "$BUILD/libptoc.a"
mkdir -p "$BUILD/bench"
${CC:-gcc} -std=c11 -D_POSIX_C_SOURCE=200809L -O2 -Wall -Wextra -Werror -Wno-unused-parameter -ffp-contract=off \
    -Isrc -Iinclude -Itests/unit -o "$BUILD/bench/vec_bench" bench/vec_bench.c "$BUILD/libptoc.a" -lm -lpthread
"$BUILD/bench/vec_bench"
json=$("$BUILD/ptoc" run examples/stream_add.py --json)
util=$(echo "$json" | grep -o '"pipe_util":{[^}]*}' | head -n 1)
best=$(echo "$util" | grep -o '[A-Z0-9]*":[0-9.e-]*' | sort -t: -k2 -g | tail -n 1)
echo "stream_add (pl.pipeline stage=2, 2 MiB per operand): busiest pipe ${best%%\"*} ${best##*:} (target >= 0.85); $util"
