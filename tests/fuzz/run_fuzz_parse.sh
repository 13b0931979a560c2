#!/usr/bin/env bash
# run_fuzz_parse — runs the libFuzzer harness tests/fuzz/fuzz_compile.c (built by `make fuzz-parse`).
#   usage: tests/fuzz/run_fuzz_parse.sh FUZZ_DIR SECONDS [RUNS]
# The corpus lives in FUZZ_DIR/corpus (kept between runs); it is seeded from examples/*.py,
# tests/**/*.py, /work/shared/reference/pypto-examples/*.py (when present) and the committed
# reproducers tests/fuzz/regress/*. Tokens of the DSL come from tests/fuzz/pl.dict. A finding lands
# in FUZZ_DIR/crashes/ (crash-*, timeout-*, leak-*, oom-*); minimise it with
#   FUZZ_DIR/fuzz_compile -minimize_crash=1 -runs=20000 -exact_artifact_path=min.py FUZZ_DIR/crashes/crash-...
# then fix the bug and commit the minimised input as tests/fuzz/regress/<name>.py (make test
# replays every file there through tests/unit/test_fuzz_replay.c). FUZZ_ARGS adds libFuzzer options,
# e.g. FUZZ_ARGS="-fork=1 -ignore_crashes=1" to keep going after a finding.
set -u
DIR=${1:-build/fuzz}
SECS=${2:-60}
RUNS=${3:--1}
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
cd "$ROOT" || exit 1
mkdir -p "$DIR/corpus" "$DIR/seeds" "$DIR/crashes"
for f in examples/*.py tests/*/*.py tests/*/*/*.py tests/*/*/*/*.py /work/shared/reference/pypto-examples/*.py tests/fuzz/regress/*; do
    [ -f "$f" ] || continue
    [ "$(stat -c %s "$f")" -le 8192 ] || continue
    cp "$f" "$DIR/seeds/$(echo "$f" | tr '/' '_')"
done
exec "$DIR/fuzz_compile" ${FUZZ_ARGS:-} -max_total_time="$SECS" -runs="$RUNS" -timeout=10 -rss_limit_mb=2048 -max_len=8192 \
    -dict=tests/fuzz/pl.dict -print_final_stats=1 -artifact_prefix="$DIR/crashes/" "$DIR/corpus" "$DIR/seeds"
