#!/usr/bin/env bash
# test_vec — every vector op end to end against values computed outside ptoc (numpy, by
# tests/vec/gen_vec_cases.py; the data is committed, no Python is needed here).
#
# 1. Each case of tests/vec/cases.list (NAME SPELLINGS INPUTS OUTPUTS TOLERANCE) is run in each of
#    its spellings (tests/vec/cases/NAME_tile.py, NAME_tensor.py) on --target a2a3 and a5 with
#    `ptoc run PROG --in P=tests/vec/data/NAME.P.npy ... --out Y=...`; it must exit 0 and print OK
#    last, and every output (the simulator's) must equal tests/vec/data/NAME.Y.expect.npy under
#    $BUILD/tests/npycmp: bit-exact (any NaN = any NaN; exp/log/rsqrt included: the generator keeps
#    their results away from rounding boundaries, see there), or within rtol=X if a case says so.
#    The report's "vs golden: max abs err" must be 0 too: the interpreter, which ptoc compares with
#    the simulator under a 1e-4 / 1e-2 tolerance, must then be exact as well. A case with
#    TOLERANCE "error" (integer division by zero) must exit 1 with "integer division by zero".
#    tests/vec/access.list (tests/vec/gen_access_cases.py: element reads and writes, run-time scalar
#    operands) lists whole programs (NAME PROGRAM INPUTS OUTPUTS TOLERANCE) held to the same standard.
# 2. Each line of tests/vec/examples.list (NAME PROGRAM INPUTS OUTPUTS TOLERANCES) runs an
#    examples/*.py program on numpy data and compares each output with a numpy float64 reference
#    under the per-output tolerance the generator documents (exact, or atol:rtol).
# A failing run names the side at fault: "ptoc FAIL" with the simulator output equal to numpy means
# the interpreter is wrong; a simulator output different from numpy is the simulator's.
# Usage: tests/cli/test_vec.sh BUILD_DIR [NAME_REGEX]. Runs VEC_JOBS (default 2) workers.
# Prints PASS/FAIL lines and "N passed, M failed" last. Process creation dominates the run time
# (~15 ms each here), so the workers parse the logs with shell builtins and each compares all the
# outputs of its runs with a single npycmp call.
set -u
BUILD=${1:-build}
FILTER=${2:-.}
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
cd "$ROOT" || exit 1
case $BUILD in /*) ;; *) BUILD="$ROOT/$BUILD" ;; esac
PTOC="$BUILD/ptoc"
CMP="$BUILD/tests/npycmp"
D=tests/vec/data
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
if [ ! -x "$PTOC" ] || [ ! -x "$CMP" ]; then
    echo "FAIL test_vec: $PTOC or $CMP is missing (make test builds them)"
    echo "0 passed, 1 failed"
    exit 1
fi

# run_one KIND NAME PROG TARGET INPUTS OUTPUTS TOLS: runs ptoc, records the run in the worker's
# arrays (index J) and appends the run's output/expected pairs to the worker's npycmp arguments
run_one() {
    local kind=$1 name=$2 prog=$3 target=$4 ins=$5 outs=$6 tol=$7
    local base=${prog##*/}
    base=${base%.py}
    local pre="$T/$kind.$base.$target"
    local -a args=(run "$prog" --target "$target") inl outl toll
    # print -> parse -> equal after every pass, once per program (on a2a3)
    [ "$target" = a2a3 ] && args+=(--verify-roundtrip)
    local p o i=0 t line last="" golden="" err="" rc
    label[J]="$name/$base/$target"
    kinds[J]=$kind
    tols[J]=$tol
    if [ "$ins" != - ]; then
        IFS=, read -r -a inl <<< "$ins"
        for p in "${inl[@]}"; do args+=(--in "$p=$D/$name.$p.npy"); done
    fi
    IFS=, read -r -a outl <<< "$outs"
    for o in "${outl[@]}"; do args+=(--out "$o=$pre.$o.npy"); done
    "$PTOC" "${args[@]}" > "$pre.log" 2>&1
    rc=$?
    while IFS= read -r line; do
        last=$line
        case $line in
            "vs golden:"*) golden=$line ;;
            *error*|FAIL*) [ -z "$err" ] && err=$line ;;
        esac
    done < "$pre.log"
    rcs[J]=$rc
    lasts[J]=$last
    goldens[J]=$golden
    errs[J]=$err
    simmsg[J]=""
    [ "$tol" = error ] && return
    if [ ! -f "$pre.${outl[0]}.npy" ]; then
        simmsg[J]="no output written"
        return
    fi
    # the simulator's outputs against numpy, compared later by one npycmp call per worker
    IFS=, read -r -a toll <<< "$tol"
    for o in "${outl[@]}"; do
        t=${toll[$i]:-${toll[0]}}
        i=$((i + 1))
        case $t in
            exact) cmp+=(--exact) ;;
            rtol=*) cmp+=(--atol 0 --rtol "${t#rtol=}") ;;
            *:*) cmp+=(--atol "${t%%:*}" --rtol "${t#*:}") ;;
        esac
        cmp+=("$pre.$o.npy" "$D/$name.$o.expect.npy")
        owner+=("$J")
    done
}

# verdict J: the PASS/FAIL line of run J
verdict() {
    local j=$1 lab=${label[$1]} sm=${simmsg[$1]} g=${goldens[$1]}
    if [ "${tols[$j]}" = error ]; then
        if [ "${rcs[$j]}" -eq 1 ] && [[ "${errs[$j]}" == *"integer division by zero"* ]]; then
            echo "PASS $lab: ${errs[$j]#*error: }"
        else
            echo "FAIL $lab: want exit 1 and 'integer division by zero', got exit ${rcs[$j]}, '${errs[$j]:-${lasts[$j]}}'"
        fi
        return
    fi
    if [ "${rcs[$j]}" -ne 0 ] || [ "${lasts[$j]}" != OK ]; then
        if [ -z "$sm" ] && [ -n "$g" ]; then
            echo "FAIL $lab: ptoc exit ${rcs[$j]} ($g) while the simulator output equals numpy: the interpreter is wrong"
        else
            echo "FAIL $lab: ptoc exit ${rcs[$j]}, last line '${lasts[$j]}'${errs[$j]:+: ${errs[$j]}}${g:+ ($g)}${sm:+; $sm}"
        fi
    elif [ -n "$sm" ]; then
        echo "FAIL $lab: $sm"
    elif [ "${kinds[$j]}" = case ] && [ "${tols[$j]}" = exact ] && [[ "$g" != "vs golden: max abs err 0,"* ]]; then
        echo "FAIL $lab: the simulator equals numpy but the interpreter differs: $g"
    else
        echo "PASS $lab"
    fi
}

# worker W: the runs W, W + JOBS, ... of the job list
worker() {
    local w=$1 n=0 k line
    local -a label kinds tols rcs lasts goldens errs simmsg cmp=() owner=() res
    J=0
    while read -r kind name prog target ins outs tol; do
        [ $((n++ % JOBS)) -eq "$w" ] || continue
        run_one "$kind" "$name" "$prog" "$target" "$ins" "$outs" "$tol"
        J=$((J + 1))
    done < "$T/jobs"
    if [ ${#owner[@]} -gt 0 ]; then
        # one line per pair: "equal: ..." or "GOT: first difference ..." / "GOT: dtype|shape differs"
        mapfile -t res < <("$CMP" "${cmp[@]}" 2>&1)
        for ((k = 0; k < ${#owner[@]}; k++)); do
            line=${res[$k]:-"npycmp stopped: ${res[*]: -1}"}
            case $line in
                equal:*) ;;
                *) simmsg[${owner[$k]}]+="${simmsg[${owner[$k]}]:+; }simulator vs numpy (${tols[${owner[$k]}]}): $line" ;;
            esac
        done
    fi
    for ((k = 0; k < J; k++)); do verdict $k; done
}

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
    while read -r name prog ins outs tol; do          # scalar element access, held to the cases' standard
        case $name in ''|'#'*) continue ;; esac
        [[ $name =~ $FILTER ]] || continue
        for target in a2a3 a5; do echo "case $name $prog $target $ins $outs $tol"; done
    done < tests/vec/access.list
} > "$T/jobs"

JOBS=${VEC_JOBS:-2}
for ((w = 0; w < JOBS; w++)); do
    worker $w > "$T/results.$w" &
done
wait
sort -k2 "$T"/results.*
PASS=0
FAIL=0
while read -r verdict _; do
    case $verdict in PASS) PASS=$((PASS + 1)) ;; FAIL) FAIL=$((FAIL + 1)) ;; esac
done < <(cat "$T"/results.*)
want=0
while read -r _; do want=$((want + 1)); done < "$T/jobs"
if [ $((PASS + FAIL)) -ne "$want" ]; then
    echo "FAIL test_vec: $((PASS + FAIL)) results for $want runs"
    FAIL=$((FAIL + 1))
fi
echo "$PASS passed, $FAIL failed"
[ "$FAIL" -eq 0 ]
