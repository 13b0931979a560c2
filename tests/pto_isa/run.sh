#!/bin/bash
# run.sh — the --check-pto-isa tier: every program through ptoc's simulator AND pto-isa's CPU
# simulation, compared bit for bit (docs/backend.md).
#   bash tests/pto_isa/run.sh BUILD PTO_ISA [prog.py...]     (default: examples/*.py tests/pto_isa/sweep/*.py)
# Needs g++ with C++20. Skips (exit 0, with a message) when PTO_ISA/include/pto/pto-inst.hpp is missing.
# Each program ends as match / differs / unchecked (a form the emitter or pto-isa's CPU simulation
# cannot run, with the reason). A program that differs fails the tier unless tests/pto_isa/expected.txt
# lists it ("NAME reason": a recorded finding, docs/sim.md); a listed program that matches fails too
# (the entry is stale). JOBS (default 2) programs run at a time.
set -u
BUILD=${1:?usage: run.sh BUILD PTO_ISA [prog.py...]}
PTO_ISA=${2:?usage: run.sh BUILD PTO_ISA [prog.py...]}
shift 2
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
if [ ! -r "$PTO_ISA/include/pto/pto-inst.hpp" ]; then
    echo "check-pto-isa: skipped: no pto-isa headers at $PTO_ISA/include (set PTO_ISA=DIR)"
    exit 0
fi
PTO_ISA=$(cd "$PTO_ISA" && pwd)
PTOC=$(cd "$BUILD" && pwd)/ptoc
if [ $# -eq 0 ]; then set -- "$ROOT"/examples/*.py "$HERE"/sweep/*.py; fi
OUT=$(mktemp -d)
trap 'rm -rf "$OUT"' EXIT

one() {   # prog -> OUT/<name>.res : "<verdict>\t<name>\t<message>"
    local f=$1 name args json m msg
    name=$(basename "$f" .py)
    args=$(sed -n 's/^# args: //p' "$f" | head -1)
    json=$(cd "$(dirname "$f")" && timeout 600 "$PTOC" run "$(basename "$f")" $args --no-race-check --json \
           --check-pto-isa "$PTO_ISA" 2>/dev/null)
    m=$(printf '%s' "$json" | grep -o '"pto_isa_match":[a-z]*' | head -1 | cut -d: -f2)
    msg=$(printf '%s' "$json" | grep -o '"pto_isa":"[^"]*' | head -1 | cut -d'"' -f4)
    case "$m" in
    true) v=match ;;
    false) v=differs ;;
    null) v=unchecked ;;
    *) v=error; msg="ptoc run failed: $(printf '%s' "$json" | grep -o '"error":"[^"]*' | cut -c10-200)" ;;
    esac
    printf '%s\t%s\t%s\n' "$v" "$name" "$msg" > "$OUT/$name.res"
}
export -f one
export PTOC PTO_ISA OUT
t0=$(date +%s)
printf '%s\n' "$@" | xargs -P "${JOBS:-2}" -I{} bash -c 'one "$@"' _ {}
cat "$OUT"/*.res > "$OUT/all"
fail=0
while IFS=$'\t' read -r v name msg; do
    exp=$(grep -E "^$name( |$)" "$HERE/expected.txt" 2>/dev/null | head -1)
    if [ "$v" = differs ] && [ -n "$exp" ]; then v=known; fi
    if [ "$v" = match ] && [ -n "$exp" ]; then echo "STALE  $name: listed in expected.txt but matches"; fail=1; fi
    case "$v" in
    differs|error) echo "FAIL   $name: $msg"; fail=1 ;;
    known) echo "KNOWN  $name: $msg  [${exp#* }]" ;;
    unchecked) echo "UNCHK  $name: ${msg#unchecked: }" ;;
    esac
done < "$OUT/all"
n=$(wc -l < "$OUT/all")
printf 'check-pto-isa: %d programs in %ds: %d match, %d differ (%d known, expected.txt), %d unchecked, %d failed to run\n' \
    "$n" $(( $(date +%s) - t0 )) "$(grep -c '^match' "$OUT/all")" "$(grep -c '^differs' "$OUT/all")" \
    "$(cut -f2 "$OUT/all" | while read -r x; do grep -qE "^$x( |$)" "$HERE/expected.txt" 2>/dev/null && echo; done | wc -l)" \
    "$(grep -c '^unchecked' "$OUT/all")" "$(grep -c '^error' "$OUT/all")"
exit $fail
