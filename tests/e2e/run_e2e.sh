#!/usr/bin/env bash
# run_e2e — end-to-end tests: every examples/*.py and tests/e2e/*.py is compiled, run on the
# simulator under the runtime and compared with the reference interpreter (`ptoc run FILE --json`
# --verify-roundtrip must print "ok":true and exit 0; every pass dump must parse back equal). Every tests/e2e/errors/*.py must fail: exit code 1, each
# "# expect: <substring>" line of the file found on stderr, and `--json` printing "ok":false.
# A "# args: <options>" line adds options to every run of the file (e.g. --target a5). Each
# "# entry: NAME" line runs the file once as FILE:NAME (a jit function or a program class / path).
# A passing program may carry "# expect-json: <substring>" lines: each must occur in its --json report
# (e.g. the task and edge counts). Every tests/e2e/fail/*.py compiles but its run must fail (a race, a
# mismatch): exit code 1, every "# expect: <substring>" found in stdout or stderr, --json "ok":false.
# Prints "PASS name" / "FAIL name: why" and ends with "N passed, M failed".
set -u
BUILD=${1:-build}
PTOC="$BUILD/ptoc"
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
cd "$ROOT" || exit 1
PASS=0
FAIL=0
OUT=$(mktemp)
ERR=$(mktemp)
trap 'rm -f "$OUT" "$ERR"' EXIT

pass() { echo "PASS $1"; PASS=$((PASS + 1)); }
fail() { echo "FAIL $1: $2"; FAIL=$((FAIL + 1)); }

args_of() { sed -n 's/^# args: //p' "$1" | head -n 1; }
# FILE, or FILE:NAME for every "# entry: NAME" line
targets_of() { if grep -q '^# entry: ' "$1"; then sed -n 's/^# entry: //p' "$1" | sed "s|^|$1:|"; else echo "$1"; fi; }

for src in examples/*.py tests/e2e/*.py; do
  [ -f "$src" ] || continue
  for f in $(targets_of "$src"); do
    # shellcheck disable=SC2046
    timeout 120 "$PTOC" run "$f" $(args_of "$src") --json --verify-roundtrip > "$OUT" 2> "$ERR"
    rc=$?
    if [ $rc -ne 0 ]; then
        why=$(grep -o '"error":"[^"]*"' "$OUT" | head -n 1)
        [ -z "$why" ] && why=$(grep -v '^ *[0-9]* |\|^ *|' "$ERR" | head -n 1)
        fail "$f" "exit $rc ${why:0:300}"
    elif [ "$(grep -c . "$OUT")" -ne 1 ]; then
        fail "$f" "--json printed $(grep -c . "$OUT") lines, expected exactly one JSON object"
    elif ! grep -q '"ok":true' "$OUT"; then
        fail "$f" "no \"ok\":true in $(head -c 300 "$OUT")"
    elif ! grep -q '"max_abs_err":[0-9]' "$OUT"; then
        fail "$f" "no golden comparison in the report"
    else
        missing=""
        while IFS= read -r want; do
            grep -qF -- "$want" "$OUT" || missing="$want"
        done < <(sed -n 's/^# expect-json: //p' "$src")
        if [ -n "$missing" ]; then fail "$f" "--json lacks '$missing'"; else pass "$f"; fi
    fi
  done
done

for f in tests/e2e/fail/*.py; do
    [ -f "$f" ] || continue
    # shellcheck disable=SC2046
    timeout 120 "$PTOC" run "$f" $(args_of "$f") > "$OUT" 2> "$ERR"
    rc=$?
    if [ $rc -ne 1 ]; then fail "$f" "exit $rc, expected 1 (a failed run)"; continue; fi
    missing=""
    while IFS= read -r want; do
        grep -qF -- "$want" "$OUT" "$ERR" || missing="$want"
    done < <(sed -n 's/^# expect: //p' "$f")
    if [ -z "$(sed -n 's/^# expect: //p' "$f")" ]; then fail "$f" "no '# expect:' line"; continue; fi
    if [ -n "$missing" ]; then fail "$f" "output lacks '$missing': $(tail -n 2 "$OUT")"; continue; fi
    # shellcheck disable=SC2046
    timeout 120 "$PTOC" run "$f" $(args_of "$f") --json > "$OUT" 2> /dev/null
    rc=$?
    if [ $rc -ne 1 ] || ! grep -q '"ok":false' "$OUT"; then fail "$f" "--json: exit $rc, no \"ok\":false"; continue; fi
    pass "$f"
done

for f in tests/e2e/errors/*.py; do
    [ -f "$f" ] || continue
    run="$(targets_of "$f" | head -n 1)"
    # shellcheck disable=SC2046
    timeout 120 "$PTOC" run "$run" $(args_of "$f") > "$OUT" 2> "$ERR"
    rc=$?
    if [ $rc -ne 1 ]; then fail "$f" "exit $rc, expected 1"; continue; fi
    missing=""
    while IFS= read -r want; do
        grep -qF -- "$want" "$ERR" || missing="$want"
    done < <(sed -n 's/^# expect: //p' "$f")
    if [ -n "$missing" ]; then fail "$f" "stderr lacks '$missing': $(head -n 1 "$ERR")"; continue; fi
    if [ -z "$(sed -n 's/^# expect: //p' "$f")" ]; then fail "$f" "no '# expect:' line"; continue; fi
    # shellcheck disable=SC2046
    timeout 120 "$PTOC" run "$run" $(args_of "$f") --json > "$OUT" 2> /dev/null
    rc=$?
    if [ $rc -ne 1 ] || ! grep -q '^{"ok":false,"error":"' "$OUT"; then
        fail "$f" "--json: exit $rc, stdout $(head -c 200 "$OUT")"
        continue
    fi
    pass "$f"
done

echo "$PASS passed, $FAIL failed"
[ "$FAIL" -eq 0 ]
