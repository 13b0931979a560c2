#!/usr/bin/env bash
# test_compile_scale — compile time stays linear in program size (issue 12 point 4; bench/compile_scale.sh
# measures the ratios). Generous bounds that a return to a quadratic scan would break without making
# the test flaky on a loaded machine:
# * 512 matmuls in one region compile in < 2 s (in-process compile_ms; ~0.25 s now, several seconds
#   with the quadratic sync scan);
# * the generated programs are correct: 64 matmuls in one region, 64 regions and a 1,000-statement
#   chain run OK against the interpreter.
# Usage: tests/cli/test_compile_scale.sh BUILD_DIR. Prints PASS/FAIL lines, "N passed, M failed" last.
set -u
BUILD=${1:-build}
PTOC="$(cd "$(dirname "$BUILD")" 2>/dev/null && pwd)/$(basename "$BUILD")/ptoc"
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
cd "$ROOT" || exit 1
PASS=0
FAIL=0
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
ok() { echo "PASS $1"; PASS=$((PASS + 1)); }
ko() { echo "FAIL $1: $2"; FAIL=$((FAIL + 1)); }

# a sanitizer build (BUILD .../san) runs several times slower: the bound there only catches quadratic
case "$PTOC" in *san*) LIMIT=10000 ;; *) LIMIT=2000 ;; esac
bash bench/gen/scale.sh mm 512 > "$TMP/mm512.py"
if "$PTOC" compile "$TMP/mm512.py" --json > "$TMP/mm512.json" 2> "$TMP/err"; then
    ms=$(grep -o '"compile_ms":[0-9.e+-]*' "$TMP/mm512.json" | cut -d: -f2)
    if awk -v m="$ms" -v l="$LIMIT" 'BEGIN { exit !(m < l) }'; then ok "512 matmuls in one region compile in ${ms} ms (< $LIMIT)"
    else ko "512 matmuls" "compile_ms $ms >= $LIMIT (quadratic again?)"; fi
else
    ko "512 matmuls" "compile failed: $(head -3 "$TMP/err")"
fi

for spec in "mm 64" "region 64" "stmt 1000"; do
    set -- $spec
    bash bench/gen/scale.sh "$1" "$2" > "$TMP/p.py"
    if "$PTOC" run "$TMP/p.py" > "$TMP/out" 2>&1 && grep -q '^OK' "$TMP/out"; then ok "run gen_scale $1 $2"
    else ko "run gen_scale $1 $2" "$(head -3 "$TMP/out")"; fi
done
echo "$PASS passed, $FAIL failed"
[ "$FAIL" -eq 0 ]
