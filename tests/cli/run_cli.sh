#!/usr/bin/env bash
# run_cli — runs every tests/cli/test_*.sh with the build dir, shows their FAIL lines and prints the
# summed "N passed, M failed" as its last line.
set -u
BUILD=${1:-build}
DIR=$(cd "$(dirname "$0")" && pwd)
PASS=0
FAIL=0
for t in "$DIR"/test_*.sh; do
    [ -f "$t" ] || continue
    out=$(bash "$t" "$BUILD" 2>&1)
    echo "$out" | grep -E '^FAIL'
    line=$(echo "$out" | grep -E '^[0-9]+ passed, [0-9]+ failed$' | tail -n 1)
    if [ -z "$line" ]; then echo "FAIL $(basename "$t"): no summary line"; FAIL=$((FAIL + 1)); continue; fi
    p=${line%% passed*}; f=${line#*, }; f=${f%% failed*}
    PASS=$((PASS + p)); FAIL=$((FAIL + f))
done
echo "$PASS passed, $FAIL failed"
[ "$FAIL" -eq 0 ]
