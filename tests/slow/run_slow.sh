#!/usr/bin/env bash
# run_slow — the slow tier (make test-slow; not part of make test or .ci/run): big matmuls that
# AutoTileL1 blocks for Mat (up to 2048 x 2048 x 2048 in every dtype), run with data on the simulator,
# compared with the interpreter and race-checked. Usage: tests/slow/run_slow.sh [BUILD]. Each file may
# carry a "# args: ..." line. Prints each run's host seconds; the largest must stay under 3 minutes.
set -u
BUILD=${1:-build}
PTOC="$BUILD/ptoc"
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
cd "$ROOT" || exit 1
pass=0 failn=0
for f in tests/slow/*.py; do
    args=$(sed -n 's/^# args: //p' "$f" | head -n 1)
    t0=$(date +%s%N)
    # shellcheck disable=SC2086
    out=$(timeout 600 "$PTOC" run "$f" $args --json 2>/dev/null)
    rc=$?
    ms=$(( ($(date +%s%N) - t0) / 1000000 ))
    if [ $rc -eq 0 ] && echo "$out" | grep -q '"ok":true' && echo "$out" | grep -q '"races":0' &&
       echo "$out" | grep -q '"mismatches":0' && echo "$out" | grep -q 'PH-L1-001'; then
        pass=$((pass + 1)); printf 'PASS %s (%d.%03d s)\n' "$f" $((ms / 1000)) $((ms % 1000))
    else
        failn=$((failn + 1)); printf 'FAIL %s (exit %d, %d.%03d s)\n' "$f" "$rc" $((ms / 1000)) $((ms % 1000))
    fi
done
echo "$pass passed, $failn failed"
[ $failn -eq 0 ]
