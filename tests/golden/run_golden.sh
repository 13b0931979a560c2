#!/usr/bin/env bash
# run_golden — golden pass-dump tests. Each tests/golden/<name>/prog.py is compiled with
# `ptoc compile prog.py --verify-roundtrip --dump-passes TMP` (plus the options of a `# args: ...`
# line of prog.py, e.g. --cores 1); every file of tests/golden/<name>/expected/ (00_frontend.py, NN_after_<Pass>.py) must equal the produced dump of the same name byte for byte.
# A mismatch prints "FAIL <name>/<file>" and the first lines of the diff. Regenerate the expected
# files with tests/golden/update.sh (and review them). Ends with "N passed, M failed".
set -u
BUILD=${1:-build}
PTOC="$BUILD/ptoc"
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
cd "$ROOT" || exit 1
PASS=0
FAIL=0
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

for dir in tests/golden/*/; do
    name=$(basename "$dir")
    [ -f "$dir/prog.py" ] || continue
    out="$TMP/$name"
    # shellcheck disable=SC2046
    if ! "$PTOC" compile "$dir/prog.py" $(sed -n 's/^# args: //p' "$dir/prog.py" | head -n 1) --verify-roundtrip \
            --dump-passes "$out" > "$TMP/$name.log" 2>&1; then
        echo "FAIL $name: ptoc compile exited $?: $(grep -m1 'error' "$TMP/$name.log")"
        FAIL=$((FAIL + 1))
        continue
    fi
    n=0
    for exp in "$dir"/expected/*.py; do
        [ -f "$exp" ] || continue
        n=$((n + 1))
        f=$(basename "$exp")
        if [ ! -f "$out/$f" ]; then
            echo "FAIL $name/$f: not produced (dump has: $(ls "$out" | tr '\n' ' '))"
            FAIL=$((FAIL + 1))
        elif ! diff -u "$exp" "$out/$f" > "$TMP/diff" 2>&1; then
            echo "FAIL $name/$f: dump differs from the expected file"
            head -n 20 "$TMP/diff" | sed 's/^/    /'
            FAIL=$((FAIL + 1))
        else
            echo "PASS $name/$f"
            PASS=$((PASS + 1))
        fi
    done
    if [ $n -eq 0 ]; then
        echo "FAIL $name: no expected files (run tests/golden/update.sh $name)"
        FAIL=$((FAIL + 1))
    fi
done

echo "$PASS passed, $FAIL failed"
[ "$FAIL" -eq 0 ]
