#!/bin/bash
# run.sh — the --check-pto-isa tier: every program through ptoc's simulator AND pto-isa's CPU
# simulation, compared bit for bit (docs/backend.md).
#   bash tests/pto_isa/run.sh BUILD PTO_ISA [prog.py...]     (default: examples/*.py tests/pto_isa/sweep/*.py)
# Needs g++ (or $CXX) with C++20. Skips (exit 0, with a message) when PTO_ISA/include/pto/pto-inst.hpp
# is missing. Each program ends as match / differs / unchecked (a form the emitter or pto-isa's CPU
# simulation cannot run, with the reason). A program that differs (or whose kernels do not build)
# fails the tier unless tests/pto_isa/expected.txt lists it ("NAME reason": a recorded finding,
# docs/sim.md); a listed program that matches fails too (the entry is stale).
# Speed: ptoc runs every program with PTOC_PTO_CHECK_DEFER, which leaves the kernels and records
# instead of building; the harnesses are then built BATCH (default 40) programs per binary, so
# pto-isa's templates are instantiated once per batch, not once per program. JOBS (default 2) at a time.
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
CXX=${CXX:-g++}
JOBS=${JOBS:-2}
BATCH=${BATCH:-40}
if [ $# -eq 0 ]; then set -- "$ROOT"/examples/*.py "$HERE"/sweep/*.py; fi
OUT=$(mktemp -d)
trap 'rm -rf "$OUT"' EXIT
mkdir -p "$OUT/res" "$OUT/defer" "$OUT/pch"
FLAGS="-std=c++20 -O1 -D__CPU_SIM -DTCOLREDUCEIDX_CPU_HPP -isystem $PTO_ISA/include -Wall -Werror"

verdict() {   # json name -> res line
    local json=$1 name=$2 m msg v
    m=$(printf '%s' "$json" | grep -o '"pto_isa_match":[a-z]*' | head -1 | cut -d: -f2)
    msg=$(printf '%s' "$json" | grep -o '"pto_isa":"[^"]*' | head -1 | cut -d'"' -f4)
    case "$m" in
    true) v=match ;;
    false) v=differs ;;
    null) v=unchecked; case "$msg" in deferred:*) v=deferred; msg=${msg#deferred: } ;; esac ;;
    *) v=error; msg="ptoc run failed: $(printf '%s' "$json" | grep -o '"error":"[^"]*' | cut -c10-200)" ;;
    esac
    printf '%s\t%s\t%s\n' "$v" "$name" "$msg"
}

one() {   # prog [defer] -> OUT/res/<name>
    local f=$1 name args json
    name=$(basename "$f" .py)
    args=$(sed -n 's/^# args: //p' "$f" | head -1)
    json=$(cd "$(dirname "$f")" && PTOC_PTO_CHECK_DEFER=${2:-} timeout 900 "$PTOC" run "$(basename "$f")" $args \
           --no-race-check --json --check-pto-isa "$PTO_ISA" 2>/dev/null)
    verdict "$json" "$name" > "$OUT/res/$name"
    [ -n "${2:-}" ] && printf '%s\n' "$(cd "$(dirname "$f")" && pwd)/$(basename "$f")" > "$OUT/res/$name.src"
    return 0
}

batch() {   # list-file: builds one harness for the deferred programs listed (name<TAB>id), runs each
    local list=$1 h=$1.cpp bin=$1.bin name id out
    { cat "$OUT/defer/head.inc"
      while IFS=$'\t' read -r name id; do cat "$OUT/defer/$id/part.cpp"; done < "$list"
      echo "static const PtocProgram ptoc_programs[] = {"
      while IFS=$'\t' read -r name id; do cat "$OUT/defer/$id/row.txt"; done < "$list"
      echo "};"
      cat "$OUT/defer/main.inc"; } > "$h"
    if ! $CXX $FLAGS -I"$OUT/pch" -include ptoc_pch.hpp -Winvalid-pch "$h" -o "$bin" > "$list.log" 2>&1; then
        # one bad kernel fails the batch: check its programs one by one (each with its own build)
        while IFS=$'\t' read -r name id; do one "$(cat "$OUT/res/$name.src")"; done < "$list"
        return 0
    fi
    while IFS=$'\t' read -r name id; do
        out=$("$bin" "$id" "$OUT/defer/$id/records.bin" 2>&1 | head -1)
        case "$out" in
        MATCH*) printf 'match\t%s\t%s\n' "$name" "bit-identical (${out#MATCH } kernel calls)" ;;
        MISMATCH*) printf 'differs\t%s\tpto-isa differs: %s\n' "$name" "${out#MISMATCH }" ;;
        *) printf 'error\t%s\tthe harness failed: %s\n' "$name" "$out" ;;
        esac > "$OUT/res/$name"
    done < "$list"
}
export -f one verdict batch
export PTOC PTO_ISA OUT CXX FLAGS
t0=$(date +%s)
printf '%s\n' "$@" | xargs -P "$JOBS" -I{} bash -c 'one "$1" "$OUT/defer"' _ {}
# the precompiled header of the batches (the flags must equal the harness's)
if grep -qh '^deferred' "$OUT"/res/* 2>/dev/null; then
    printf '#include <cstdint>\n#include <pto/pto-inst.hpp>\n#include <cmath>\n#include <cstdio>\n#include <cstdlib>\n#include <cstring>\n#include <vector>\n' \
        > "$OUT/pch/ptoc_pch.hpp"
    $CXX $FLAGS -x c++-header "$OUT/pch/ptoc_pch.hpp" -o "$OUT/pch/ptoc_pch.hpp.gch" || { echo "check-pto-isa: precompiling pto-inst.hpp failed"; exit 1; }
    grep -h '^deferred' "$OUT"/res/* | cut -f2,3 | split -l "$BATCH" - "$OUT/batch."
    ls "$OUT"/batch.?? | xargs -P "$JOBS" -I{} bash -c 'batch "$1"' _ {}
fi
for r in "$OUT"/res/*; do case "$r" in *.src) ;; *) cat "$r" ;; esac; done > "$OUT/all"
fail=0
while IFS=$'\t' read -r v name msg; do
    exp=$(grep -E "^$name( |$)" "$HERE/expected.txt" 2>/dev/null | head -1)
    if [ "$v" = differs ] && [ -n "$exp" ]; then v=known; fi
    # a listed finding whose harness blocks or crashes (expected.txt marks it "harness-fails")
    if [ "$v" = error ] && [ -n "$exp" ] && [[ "$exp" == *harness-fails* ]]; then v=known; fi
    if [ "$v" = match ] && [ -n "$exp" ]; then echo "STALE  $name: listed in expected.txt but matches"; fail=1; fi
    case "$v" in
    differs|error|deferred) echo "FAIL   $name: $msg"; fail=1 ;;
    known) echo "KNOWN  $name: $msg  [${exp#* }]" ;;
    unchecked) echo "UNCHK  $name: ${msg#unchecked: }" ;;
    esac
done < "$OUT/all"
count() { grep -c "^$1	" "$OUT/all"; }
known=0
while IFS=$'\t' read -r v name msg; do
    [ "$v" = differs ] || [ "$v" = error ] || continue
    grep -E "^$name( |$)" "$HERE/expected.txt" 2>/dev/null | grep -q . || continue
    [ "$v" = error ] && ! grep -E "^$name( |$)" "$HERE/expected.txt" | grep -q harness-fails && continue
    known=$((known + 1))
done < "$OUT/all"
printf 'check-pto-isa: %d programs in %ds: %d match, %d differ (%d known, expected.txt), %d unchecked, %d failed\n' \
    "$(wc -l < "$OUT/all")" $(( $(date +%s) - t0 )) "$(count match)" "$(count differs)" "$known" "$(count unchecked)" \
    "$(( $(count error) + $(count deferred) ))"
exit $fail
