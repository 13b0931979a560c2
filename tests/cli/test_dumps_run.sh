#!/usr/bin/env bash
# test_dumps_run — every pass dump is itself a program: it parses back to the same text
# (`ptoc parse` prints it identically) and `ptoc run` on it compiles the rest of the way, simulates
# and matches the interpreter's golden run of that dump.
set -u
BUILD=${1:-build}
PTOC="$BUILD/ptoc"
PASS=0
FAIL=0
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
for prog in examples/matmul.py examples/matmul_256x256x512.py tests/golden/matmul_boundary/prog.py \
            tests/golden/matmul_nz_kblock/prog.py tests/e2e/nz_kblock_orch_bf16.py tests/e2e/nz_kloop_pipeline_fp16.py; do
    name=$(basename "$(dirname "$prog")")_$(basename "$prog" .py)
    rm -rf "$T/d"
    if ! "$PTOC" compile "$prog" --dump-passes "$T/d" > /dev/null 2>&1; then
        FAIL=$((FAIL + 1)); echo "FAIL $name: does not compile"; continue
    fi
    for f in "$T"/d/*.py; do
        d=$(basename "$f" .py)
        if "$PTOC" parse "$f" > "$T/p.py" 2> "$T/p.err" && cmp -s "$f" "$T/p.py"; then
            PASS=$((PASS + 1)); echo "PASS $name/$d parses back identically"
        else
            FAIL=$((FAIL + 1)); echo "FAIL $name/$d: parse/print differs: $(head -c 300 "$T/p.err")"
        fi
        if "$PTOC" run "$f" --json > "$T/r.json" 2> "$T/r.err" && grep -q '"ok":true' "$T/r.json"; then
            PASS=$((PASS + 1)); echo "PASS $name/$d runs"
        else
            FAIL=$((FAIL + 1)); echo "FAIL $name/$d: run: $(head -c 300 "$T/r.err")"
        fi
    done
done
echo "$PASS passed, $FAIL failed"
[ "$FAIL" -eq 0 ]
