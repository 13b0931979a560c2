#!/usr/bin/env bash
# test_vec — every vector op end to end against values computed outside ptoc (numpy, by
# tests/vec/gen_vec_cases.py; the data is committed, no Python is needed here).
#
# 1. Each case of tests/vec/cases.list (NAME SPELLINGS INPUTS OUTPUTS TOLERANCE) is run in each of
#    its spellings (tests/vec/cases/NAME_tile.py, NAME_tensor.py) on --target a2a3 and a5 with
#    `ptoc run PROG --in P=tests/vec/data/NAME.P.npy ... --out Y=...`; it must exit 0 and print OK
#    last, and every output (the simulator's) must equal tests/vec/data/NAME.Y.expect.npy under
#    $BUILD/tests/npycmp: bit-exact (any NaN = any NaN) unless the case says rtol=X (exp/log/rsqrt
#    of FP32: numpy's float64 exp/log may be an ulp of double away from C's, see the generator).
#    For exact cases the report's "vs golden: max abs err" must be 0 too: the interpreter, which
#    ptoc compares with the simulator under a 1e-4 / 1e-2 tolerance, must then be exact as well.
# 2. Each line of tests/vec/examples.list (NAME PROGRAM INPUTS OUTPUTS TOLERANCES) runs an
#    examples/*.py program on numpy data and compares each output with a numpy float64 reference
#    under the per-output tolerance the generator documents (exact, or atol:rtol).
# A failing run names the side at fault: "ptoc FAIL" with the simulator output equal to numpy means
# the interpreter is wrong; a simulator output different from numpy is the simulator's.
# Usage: tests/cli/test_vec.sh BUILD_DIR [NAME_FILTER_REGEX]. Runs 2 jobs at a time (VEC_JOBS=N).
# Prints PASS/FAIL lines and "N passed, M failed" last.
set -u

if [ "${1:-}" = --one ]; then
    # worker: --one BUILD TMP KIND NAME PROG TARGET INPUTS OUTPUTS TOL
    BUILD=$2 T=$3 KIND=$4 NAME=$5 PROG=$6 TARGET=$7 INS=$8 OUTS=$9 TOL=${10}
    PTOC="$BUILD/ptoc"
    CMP="$BUILD/tests/npycmp"
    D=tests/vec/data
    label="$NAME/$(basename "$PROG" .py)/$TARGET"
    pre="$T/$(basename "$PROG" .py).$TARGET"
    args=(run "$PROG" --target "$TARGET")
    if [ "$INS" != - ]; then
        IFS=, read -r -a ins <<< "$INS"
        for p in "${ins[@]}"; do args+=(--in "$p=$D/$NAME.$p.npy"); done
    fi
    IFS=, read -r -a outs <<< "$OUTS"
    for o in "${outs[@]}"; do rm -f "$pre.$o.npy"; args+=(--out "$o=$pre.$o.npy"); done
    "$PTOC" "${args[@]}" > "$pre.log" 2>&1
    rc=$?
    last=$(tail -n 1 "$pre.log")
    golden=$(grep -m1 '^vs golden:' "$pre.log")
    # the simulator's outputs against numpy
    IFS=, read -r -a tols <<< "$TOL"
    simmsg=""
    i=0
    for o in "${outs[@]}"; do
        t=${tols[$i]:-${tols[0]}}
        i=$((i + 1))
        copt=()
        case $t in
            exact) ;;
            rtol=*) copt=(--rtol "${t#rtol=}") ;;
            *:*) copt=(--atol "${t%%:*}" --rtol "${t#*:}") ;;
        esac
        if [ ! -f "$pre.$o.npy" ]; then simmsg+="${simmsg:+; }no output $o"; continue; fi
        if ! m=$("$CMP" "${copt[@]}" "$pre.$o.npy" "$D/$NAME.$o.expect.npy" 2>&1); then
            simmsg+="${simmsg:+; }simulator $o vs numpy ($t): $m"
        fi
    done
    if [ $rc -ne 0 ] || [ "$last" != OK ]; then
        err=$(grep -m1 -E 'error|^FAIL' "$pre.log")
        if [ -z "$simmsg" ] && [ -n "$golden" ]; then
            echo "FAIL $label: ptoc exit $rc ($golden) while the simulator output equals numpy: the interpreter is wrong"
        else
            echo "FAIL $label: ptoc exit $rc, last line '$last'${err:+: $err}${golden:+ ($golden)}${simmsg:+; $simmsg}"
        fi
        exit 0
    fi
    if [ -n "$simmsg" ]; then echo "FAIL $label: $simmsg"; exit 0; fi
    if [ "$KIND" = case ] && [ "$TOL" = exact ] && [[ "$golden" != "vs golden: max abs err 0,"* ]]; then
        echo "FAIL $label: the simulator equals numpy but the interpreter differs: $golden"
        exit 0
    fi
    echo "PASS $label"
    exit 0
fi

BUILD=${1:-build}
FILTER=${2:-.}
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
cd "$ROOT" || exit 1
case $BUILD in /*) ;; *) BUILD="$ROOT/$BUILD" ;; esac
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
PASS=0
FAIL=0
if [ ! -x "$BUILD/ptoc" ] || [ ! -x "$BUILD/tests/npycmp" ]; then
    echo "FAIL test_vec: $BUILD/ptoc or $BUILD/tests/npycmp is missing (make test builds them)"
    echo "0 passed, 1 failed"
    exit 1
fi

{
    while read -r name spells ins outs tol; do
        case $name in ''|'#'*) continue ;; esac
        [[ $name =~ $FILTER ]] || continue
        for s in ${spells//,/ }; do
            for target in a2a3 a5; do
                echo "case $name tests/vec/cases/${name}_$s.py $target $ins $outs $tol"
            done
        done
    done < tests/vec/cases.list
    while read -r name prog ins outs tol; do
        case $name in ''|'#'*) continue ;; esac
        [[ $name =~ $FILTER ]] || continue
        for target in a2a3 a5; do echo "example $name $prog $target $ins $outs $tol"; done
    done < tests/vec/examples.list
} > "$T/jobs"

xargs -P "${VEC_JOBS:-2}" -L 1 bash "$0" --one "$BUILD" "$T" < "$T/jobs" > "$T/results"
sort -k2 "$T/results"
PASS=$(grep -c '^PASS' "$T/results")
FAIL=$(grep -c '^FAIL' "$T/results")
want=$(wc -l < "$T/jobs")
if [ $((PASS + FAIL)) -ne "$want" ]; then
    echo "FAIL test_vec: $((PASS + FAIL)) results for $want runs"
    FAIL=$((FAIL + 1))
fi
echo "$PASS passed, $FAIL failed"
[ "$FAIL" -eq 0 ]
