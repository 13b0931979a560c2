#!/usr/bin/env bash
# test_main_block — `ptoc run file.py` runs the file's own __main__ block (docs/cli.md "ptoc run",
# spec/language.md §5.3): a correct kernel's assert passes; a wrong kernel (pl.sub for pl.add) fails
# the check that names its line; skipped statements are notes with their lines; a check outside the
# subset is "not evaluated" (counted, never passed); a lower-only block compiles without running;
# `file.py:NAME` keeps the random-input run; a generated 500-line file with 10 jit functions and 20
# checks runs in under a second.
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
D=tests/main_block

# expect NAME FILE RC [grep -F patterns on stdout+stderr...]; the last stdout line is OK for rc 0, FAIL else
expect() {
    local name=$1 f=$2 rc=$3; shift 3
    "$PTOC" run "$f" > "$T/$name.out" 2> "$T/$name.err"
    local got=$?
    [ "$got" -eq "$rc" ] && ok "$name exit $rc" || ko "$name exit $rc" "got $got: $(tail -n 5 "$T/$name.out" "$T/$name.err")"
    local want=OK; [ "$rc" -eq 0 ] || want=FAIL
    [ "$(tail -n 1 "$T/$name.out")" = "$want" ] && ok "$name verdict $want" || ko "$name verdict $want" "$(tail -n 2 "$T/$name.out")"
    for p in "$@"; do
        cat "$T/$name.out" "$T/$name.err" | grep -qF -- "$p" && ok "$name: $p" || ko "$name: $p" "$(cat "$T/$name.out" "$T/$name.err" | grep -v '^  ')"
    done
}

expect add_ok $D/add_ok.py 0 "check $D/add_ok.py:22: torch.allclose passed" "call tile_add at $D/add_ok.py:20" \
    "checks: 1 passed, 0 failed, 0 not evaluated"
# a kernel picked from a dict by an argparse option's default (the PyPTO examples' `_MODES[args.mode](..)`)
expect dispatch_ok $D/dispatch_ok.py 0 "call fused at $D/dispatch_ok.py:37" "checks: 1 passed, 0 failed, 0 not evaluated"
expect dispatch_wrong $D/dispatch_wrong.py 1 "call broken at $D/dispatch_wrong.py:36" "checks: 0 passed, 1 failed, 0 not evaluated"
expect add_wrong $D/add_wrong.py 1 "check $D/add_wrong.py:22: torch.allclose FAILED" "4096 / 4096 elements off" \
    "checks: 0 passed, 1 failed, 0 not evaluated"
expect mixed $D/mixed.py 0 "$D/mixed.py:36:5: note: main block: skipped ('for' statement)" \
    "$D/mixed.py:38:5: note: main block: skipped (call of module function 'golden')" \
    "$D/mixed.py:42:43: warning: main-block check not evaluated: call of 'torch.linalg.norm' is not in the supported subset" \
    "check $D/mixed.py:43: not evaluated" "check $D/mixed.py:41: torch.testing.assert_close passed" \
    "main block: 2 call(s), checks: 2 passed, 0 failed, 2 not evaluated" "RunConfig field 'block_dim' is ignored"
expect lower_only $D/lower_only.py 0 "call tile_mul (compile only) at $D/lower_only.py:16" "main block: 1 call(s)"

# a block whose call arguments come from a skipped statement is given up (not the file): random inputs
"$PTOC" run tests/e2e/mm_torch_helpers.py > "$T/f.out" 2> "$T/f.err"
[ $? -eq 0 ] && [ "$(tail -n 1 "$T/f.out")" = OK ] \
    && grep -qF "mm_torch_helpers.py:37:14: note: cannot read the main block statically: argument 'a' of 'mm_torch'" "$T/f.err" \
    && ok "unreadable block falls back" || ko "unreadable block falls back" "$(cat "$T/f.err"; tail -n 2 "$T/f.out")"

# --json: one object with the checks
"$PTOC" run $D/mixed.py --json > "$T/j.out" 2> /dev/null
[ "$(wc -l < "$T/j.out")" -eq 1 ] && grep -q '"checks":\[{"line":35,"kind":"allclose","evaluated":true,"passed":true' "$T/j.out" \
    && grep -q '"line":42,"kind":"allclose","evaluated":false,"passed":false' "$T/j.out" && grep -q '"checks_not_evaluated":2' "$T/j.out" \
    && ok "json checks" || ko "json checks" "$(head -c 600 "$T/j.out")"

# file.py:NAME runs one entry with random inputs, as before (no main block)
"$PTOC" run $D/add_wrong.py:tile_add > "$T/n.out" 2>&1
[ $? -eq 0 ] && ! grep -q "main block" "$T/n.out" && [ "$(tail -n 1 "$T/n.out")" = OK ] && ok "file:NAME skips the main block" \
    || ko "file:NAME skips the main block" "$(tail -n 3 "$T/n.out")"

# without the main-block run (compile, parse, file.py:NAME), an unshaped entry takes the shapes of the
# block's first call of it; --arg still wins
cat > "$T/unshaped.py" <<'PY'
import pypto.language as pl
import torch

@pl.jit
def twice(a: pl.Tensor, c: pl.Out[pl.Tensor]):
    with pl.at(level=pl.Level.CORE_GROUP):
        t = pl.load(a, [0, 0], [32, 64])
        pl.store(pl.add(t, t), [0, 0], c)
    return c

if __name__ == "__main__":
    a = torch.randn(32, 64, dtype=torch.float32)
    c = torch.zeros(32, 64, dtype=torch.float32)
    twice(a, c)
    assert torch.allclose(c, 2 * a)
PY
"$PTOC" compile "$T/unshaped.py" --json > "$T/u.out" 2> "$T/u.err"
[ $? -eq 0 ] && ok "compile binds from the main block" || ko "compile binds from the main block" "$(head -3 "$T/u.err")"
"$PTOC" parse "$T/unshaped.py" | grep -q 'a: pl.Tensor\[\[32, 64\], pl.FP32\]' && ok "parse binds from the main block"     || ko "parse binds from the main block" "$("$PTOC" parse "$T/unshaped.py" 2>&1 | head -8)"
"$PTOC" run "$T/unshaped.py:twice" > "$T/u2.out" 2>&1
[ $? -eq 0 ] && [ "$(tail -n 1 "$T/u2.out")" = OK ] && ok "file:NAME binds from the main block" || ko "file:NAME binds" "$(tail -3 "$T/u2.out")"
"$PTOC" parse "$T/unshaped.py" --arg a=16x64:fp32 --arg c=16x64:fp32 | grep -q 'a: pl.Tensor\[\[16, 64\], pl.FP32\]'     && ok "--arg wins over the main block" || ko "--arg wins over the main block" "$("$PTOC" parse "$T/unshaped.py" --arg a=16x64:fp32 2>&1 | head -5)"

# one specialisation per distinct binding: a repeated binding reuses its compile, another shape does not
"$PTOC" run $D/respecialise.py > "$T/r.out" 2>&1
[ $? -eq 0 ] && [ "$(grep -c 'its compile is reused' "$T/r.out")" -eq 1 ] && grep -q "respecialise.py:19 (same binding" "$T/r.out" \
    && grep -q "checks: 3 passed, 0 failed" "$T/r.out" && ok "compile reused per binding" || ko "compile reused per binding" "$(grep '^call\|^main' "$T/r.out")"

# a pl.dynamic dim takes the extent of the bound tensor: main-block call, compile, --arg
"$PTOC" run $D/dynamic_dim.py > "$T/d.out" 2>&1
[ $? -eq 0 ] && grep -q "checks: 1 passed, 0 failed" "$T/d.out" && ok "dynamic dim from the main block" || ko "dynamic dim from the main block" "$(tail -3 "$T/d.out")"
"$PTOC" parse $D/dynamic_dim.py | grep -q 'x: pl.Tensor\[\[48, 64\], pl.FP32\]' && ok "parse: dynamic dim 48" || ko "parse: dynamic dim" "$("$PTOC" parse $D/dynamic_dim.py 2>&1 | head -4)"
"$PTOC" run $D/dynamic_dim.py:scale --arg x=32x64:fp32 --arg y=32x64:fp32 > "$T/d2.out" 2>&1
[ $? -eq 0 ] && [ "$(tail -n 1 "$T/d2.out")" = OK ] && ok "dynamic dim from --arg" || ko "dynamic dim from --arg" "$(tail -3 "$T/d2.out")"
"$PTOC" compile $D/dynamic_dim.py:scale --arg x=32x64:fp32 --arg y=16x64:fp32 > /dev/null 2> "$T/d3.err"
[ $? -eq 1 ] && grep -q "parameter 'y' is declared pl.Tensor\[\[32, 64\], pl.FP32\] but is bound to a tensor \[16, 64\]" "$T/d3.err" \
    && ok "one dynamic dim, two extents: located error" || ko "dynamic dim conflict" "$(head -2 "$T/d3.err")"

# speed: 500 lines, 10 jit functions, 20 checks
bash $D/gen_large.sh > "$T/large.py"
t0=$(date +%s%N)
"$PTOC" run "$T/large.py" > "$T/large.out" 2>&1
rc=$?
ms=$(( ($(date +%s%N) - t0) / 1000000 ))
[ $rc -eq 0 ] && grep -q "main block: 10 call(s), checks: 20 passed, 0 failed, 0 not evaluated" "$T/large.out" \
    && ok "large file runs" || ko "large file runs" "$(tail -n 3 "$T/large.out")"
[ "$ms" -lt 1000 ] && ok "large file in ${ms} ms (< 1000)" || ko "large file speed" "${ms} ms"

# the six reference PyPTO examples, unmodified, each by its own main block (read in place when present:
# they are not part of the repository)
REF=/work/shared/reference/pypto-examples
if [ -d "$REF" ]; then
    for f in "$REF"/*.py; do
        n="ref-$(basename "$f" .py)"
        expect "$n" "$f" 0 " 0 failed, 0 not evaluated"
        grep -q "checks: [1-9][0-9]* passed" "$T/$n.out" && ok "$n: its checks ran" || ko "$n: its checks ran" "$(grep 'main block:' "$T/$n.out")"
    done
fi

echo "$PASS passed, $FAIL failed"
[ "$FAIL" -eq 0 ]
