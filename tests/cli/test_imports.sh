#!/usr/bin/env bash
# test_imports — module constants imported from sibling files (spec/language.md §1.2, decision 5):
# `from .config import ROWS, COLS as C`, a package one level down importing `from ..config`, and a
# missing module (its names stay unknown: a located error when the DSL reads one).
set -u
BUILD=${1:-build}
PTOC="$BUILD/ptoc"
PASS=0
FAIL=0
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
ok() { PASS=$((PASS + 1)); echo "PASS $1"; }
ko() { FAIL=$((FAIL + 1)); echo "FAIL $1: $2"; }

"$PTOC" run tests/imports/pkg/prog.py > "$T/run.out" 2>&1
[ $? -eq 0 ] && [ "$(tail -n 1 "$T/run.out")" = OK ] && grep -q "checks: 1 passed, 0 failed" "$T/run.out" \
    && ok "imported constants run" || ko "imported constants run" "$(tail -n 5 "$T/run.out")"
"$PTOC" parse tests/imports/pkg/prog.py | grep -q 'pl.Tensor\[\[64, 128\], pl.FP32\]' && ok "shapes from imported constants" \
    || ko "shapes from imported constants" "$("$PTOC" parse tests/imports/pkg/prog.py 2>&1 | head -5)"
sed 's/from .config import/from .nowhere import/' tests/imports/pkg/prog.py > "$T/missing.py"
"$PTOC" compile "$T/missing.py" > "$T/m.out" 2> "$T/m.err"
rc=$?
[ $rc -eq 1 ] && grep -q "missing.py:.*error:.*ROWS" "$T/m.err" && ok "a missing module leaves its names unknown (located error)" \
    || ko "missing module" "rc=$rc $(head -3 "$T/m.err")"

echo "$PASS passed, $FAIL failed"
[ "$FAIL" -eq 0 ]
