#!/usr/bin/env bash
# test_splitk — M/N tiling of INT8 matmuls against products computed outside ptoc (numpy, by
# tests/splitk/gen_splitk_data.py; the data is committed, no Python is needed here). Each line of
# CASES is PROGRAM DATA: `ptoc run tests/splitk/PROGRAM.py --in a=... --in b=... --out c=...` must
# print OK last (the simulator matched the interpreter) and write c equal, element for element, to
# the numpy INT32 product tests/splitk/data/DATA.c.npy ($BUILD/tests/npycmp, exact). A split-K
# chain program must also have been re-tiled around its K loop: its --json report must list the
# sub-tile matmuls given in the third column (no tile of the full accumulator remains).
# A negative control runs a chain on random inputs: its c must differ from the numpy product.
# Usage: tests/cli/test_splitk.sh BUILD_DIR. Prints PASS/FAIL lines and "N passed, M failed" last.
set -u
BUILD=${1:-build}
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
cd "$ROOT" || exit 1
case $BUILD in /*) ;; *) BUILD="$ROOT/$BUILD" ;; esac
PTOC="$BUILD/ptoc"
CMP="$BUILD/tests/npycmp"
D=tests/splitk/data
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
PASS=0
FAIL=0
ok() { PASS=$((PASS + 1)); echo "PASS $1"; }
ko() { FAIL=$((FAIL + 1)); echo "FAIL $1: $2"; }
if [ ! -x "$PTOC" ] || [ ! -x "$CMP" ]; then
    echo "FAIL test_splitk: $PTOC or $CMP is missing (make test builds them)"
    echo "0 passed, 1 failed"
    exit 1
fi

# PROGRAM DATA EXPECTED-SUB-TILES (";"-separated "M":m,"N":n pairs, or -)
CASES='chain_16x1152_int8 i8_16x64x1152 "M":16,"N":512,"K":32;"M":16,"N":128,"K":32
mm_16x1152_int8 i8_16x64x1152 "M":16,"N":1152,"K":64,"m":16,"n":512
chain_512x80_int8 i8_512x128x80 "M":256,"N":64,"K":64;"M":256,"N":16,"K":64
mm_64x80_int8 i8_64x128x80 -'
while read -r prog data subs; do
    out="$T/$prog.c.npy"
    args=(run "tests/splitk/$prog.py" --in "a=$D/$data.a.npy" --in "b=$D/$data.b.npy")
    if ! "$PTOC" "${args[@]}" --out "c=$out" > "$T/log" 2>&1; then
        ko "$prog" "exit $?: $(grep -m1 -i 'error\|FAIL' "$T/log")"
        continue
    fi
    if [ "$(tail -n 1 "$T/log")" != OK ]; then ko "$prog" "last line $(tail -n 1 "$T/log")"; continue; fi
    if ! "$CMP" "$out" "$D/$data.c.npy" > "$T/cmp" 2>&1; then ko "$prog" "c differs from numpy: $(head -c 300 "$T/cmp")"; continue; fi
    miss=""
    if [ "$subs" != - ]; then
        json=$("$PTOC" "${args[@]}" --json 2>/dev/null)
        IFS=';' read -r -a want <<< "$subs"
        for w in "${want[@]}"; do [[ $json == *"$w"* ]] || miss="$miss $w"; done
    fi
    if [ -n "$miss" ]; then ko "$prog" "tile report lacks$miss"; else ok "$prog"; fi
done <<< "$CASES"

# negative control: the same program on ptoc's own random inputs must not reproduce the numpy
# product (the comparison depends on the data fed in)
if ! "$PTOC" run tests/splitk/chain_16x1152_int8.py --out "c=$T/rand.npy" > "$T/log" 2>&1; then
    ko control "random-input run failed: $(grep -m1 -i 'error\|FAIL' "$T/log")"
elif "$CMP" "$T/rand.npy" "$D/i8_16x64x1152.c.npy" > /dev/null 2>&1; then
    ko control "random inputs reproduced the numpy product"
else
    ok control
fi
echo "$PASS passed, $FAIL failed"
[ "$FAIL" -eq 0 ]
