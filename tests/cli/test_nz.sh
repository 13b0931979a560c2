#!/usr/bin/env bash
# test_nz — pl.NZ against data computed outside ptoc (tests/nz/gen_nz_data.py, numpy): each
# tests/nz/NAME.py is run with `--in b=NAME_b_nz.npy` (the NZ-ordered bytes of b, logical shape in
# the header) and its pl.ND twin (the same file without pl.NZ) with `--in b=NAME_b.npy`, on both
# targets; each must print OK and write `--out c` equal byte for byte to the numpy product NAME_c.npy
# (integer-valued inputs: every product is exact). A negative control checks the data tells the
# layouts apart: the ND program fed the NZ bytes must not produce the product. Then every
# tests/e2e/nz_*.py runs on --target a5 too (run_e2e.sh covers a2a3), and its .pto must declare
# the NZ operand as the blocked rank-5 nz view and load it through a rank-5 partition.
set -u
BUILD=${1:-build}
PTOC="$BUILD/ptoc"
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
cd "$ROOT" || exit 1
PASS=0
FAIL=0
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
ok() { PASS=$((PASS + 1)); echo "PASS $1"; }
ko() { FAIL=$((FAIL + 1)); echo "FAIL $1: $2"; }

# the product's bytes: the last M*N*4 bytes of a .npy file
payload_equal() { cmp -s <(tail -c "$3" "$1") <(tail -c "$3" "$2"); }

D=tests/nz/data
while read -r name m n; do
    bytes=$((m * n * 4))
    sed 's/, pl\.NZ//' "tests/nz/$name.py" > "$T/${name}_nd.py"
    for target in a2a3 a5; do
        for layout in nz nd; do
            prog="tests/nz/$name.py"; bfile="$D/${name}_b_nz.npy"
            [ $layout = nd ] && prog="$T/${name}_nd.py" && bfile="$D/${name}_b.npy"
            out="$T/${name}_${layout}_$target.npy"
            if ! "$PTOC" run "$prog" --target $target --in "a=$D/${name}_a.npy" --in "b=$bfile" --out "c=$out" \
                    > "$T/log" 2>&1; then
                ko "$name/$layout/$target" "exit $?: $(grep -m1 -i 'error\|FAIL' "$T/log")"
            elif [ "$(tail -n 1 "$T/log")" != OK ]; then
                ko "$name/$layout/$target" "last line $(tail -n 1 "$T/log")"
            elif ! payload_equal "$out" "$D/${name}_c.npy" $bytes; then
                ko "$name/$layout/$target" "c differs from the numpy product $D/${name}_c.npy"
            else
                ok "$name/$layout/$target: OK and c == numpy a @ b"
            fi
        done
    done
    "$PTOC" run "$T/${name}_nd.py" --in "a=$D/${name}_a.npy" --in "b=$D/${name}_b_nz.npy" --out "c=$T/ctl.npy" > /dev/null 2>&1
    if [ -f "$T/ctl.npy" ] && ! payload_equal "$T/ctl.npy" "$D/${name}_c.npy" $bytes; then
        ok "$name/control: NZ bytes read row-major do not give the product"
    else
        ko "$name/control" "the ND program fed NZ bytes produced the product: the data does not tell the layouts apart"
    fi
done <<'CASES'
rung4_fp16 128 128
small_bf16 32 48
small_fp32 32 48
small_int8 48 64
CASES

for f in tests/e2e/nz_*.py; do
    if "$PTOC" run "$f" --target a5 --json > "$T/r.json" 2> "$T/r.err" && grep -q '"ok":true' "$T/r.json"; then
        ok "$f on a5"
    else
        ko "$f on a5" "$(head -c 300 "$T/r.err")"
    fi
    # the kernel sees the NZ operand as the blocked rank-5 view the .pto declares
    rm -rf "$T/o"
    if "$PTOC" compile "$f" -o "$T/o" > /dev/null 2>&1 &&
        grep -q '{layout = #pto.layout<nz>} : !pto.tensor_view<?x?x?x?x?x' "$T"/o/ptoas/*.pto &&
        grep -q 'pto.tload ins(%pv[0-9]* : !pto.partition_tensor_view<1x[0-9]*x[0-9]*x16x' "$T"/o/ptoas/*.pto; then
        ok "$f: .pto has the blocked nz view and a rank-5 NZ load"
    else
        ko "$f" ".pto lacks the blocked nz tensor view / rank-5 partition"
    fi
done

echo "$PASS passed, $FAIL failed"
[ "$FAIL" -eq 0 ]
