#!/usr/bin/env bash
# bench/sim.sh BUILD — simulator speed against baselines measured side by side in the same run:
#   sim_bench: the MAD kernel and a whole 128x512x128 run against naive triple loops;
#   mad_bench (issue 12 points 1-2): the MAD kernel at 128^3 against OpenBLAS sgemm on one thread
#     (libopenblas-dev: installed with apt-get when missing and possible, else the ratio is skipped
#     with a message); the whole simulation of a 256x256x512 FP16 matmul against numpy's float32
#     matmul of the same shape (/usr/bin/python3 with numpy, else skipped); the golden interpreter's
#     matmul against the simulation. Needs BUILD/libptoc.a.
set -eu
BUILD=${1:-build}
[ -f "$BUILD/libptoc.a" ] || make -s "$BUILD/libptoc.a"
mkdir -p "$BUILD/bench"
CFL="-std=gnu11 -D_POSIX_C_SOURCE=200809L -O2 -Wall -Wextra -Werror -Wno-unused-parameter -ffp-contract=off -Isrc -Iinclude -Itests/unit"
${CC:-gcc} $CFL -o "$BUILD/bench/sim_bench" bench/sim_bench.c "$BUILD/libptoc.a" -lm -lpthread
"$BUILD/bench/sim_bench"

blas_ok() { printf '#include <cblas.h>\nint main(void){return 0;}\n' | ${CC:-gcc} -x c - -o /dev/null -lopenblas 2>/dev/null; }
if ! blas_ok && command -v apt-get > /dev/null; then
    echo "mad_bench: libopenblas-dev missing; installing it (benchmark dependency only)"
    { apt-get install -y -q libopenblas-dev || sudo -n apt-get install -y -q libopenblas-dev; } > /dev/null 2>&1 || true
fi
BLAS=""
if blas_ok; then BLAS="-DHAVE_OPENBLAS -lopenblas"; else echo "mad_bench: OpenBLAS not available: the MAD / sgemm ratio is skipped"; fi
# shellcheck disable=SC2086
${CC:-gcc} $CFL -o "$BUILD/bench/mad_bench" bench/mad_bench.c "$BUILD/libptoc.a" $BLAS -lm -lpthread
OUT=$("$BUILD/bench/mad_bench")
echo "$OUT" | grep -v '^SIM_MS='
SIM_MS=$(echo "$OUT" | sed -n 's/^SIM_MS=//p')
NP_MS=""
if [ -x /usr/bin/python3 ]; then
    NP_MS=$(/usr/bin/python3 - 2> /dev/null <<'PY' || true
import time
import numpy as np
a = np.random.rand(256, 512).astype(np.float32)
b = np.random.rand(512, 256).astype(np.float32)
best = 1e30
for _ in range(50):
    t0 = time.perf_counter(); a @ b; best = min(best, time.perf_counter() - t0)
print("%.4f" % (best * 1e3))
PY
)
fi
if [ -n "$NP_MS" ]; then
    awk -v s="$SIM_MS" -v n="$NP_MS" 'BEGIN { r = s / n; printf "whole-kernel simulation 256x256x512 / numpy float32 matmul (%.3f ms) = %.2fx (target <= 4x: %s)\n", n, r, r <= 4 ? "PASS" : "FAIL" }'
else
    echo "numpy not available (/usr/bin/python3 -c 'import numpy'): the simulation / numpy ratio is skipped"
fi
