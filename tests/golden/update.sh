#!/usr/bin/env bash
# update — regenerates the expected dumps of the golden tests from the current compiler:
#   tests/golden/update.sh [BUILD] [NAME...]
# For each test (all when no NAME is given) the files already in expected/ are rewritten; a test
# with an empty expected/ gets every dump (00_frontend.py and each NN_after_<Pass>.py). Review the
# result with `git diff tests/golden` before committing.
set -u
BUILD=build
if [ $# -gt 0 ] && [ -x "$1/ptoc" ]; then BUILD=$1; shift; fi
PTOC="$BUILD/ptoc"
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
cd "$ROOT" || exit 1
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
names=("$@")
if [ ${#names[@]} -eq 0 ]; then
    for d in tests/golden/*/; do [ -f "$d/prog.py" ] && names+=("$(basename "$d")"); done
fi
for name in "${names[@]}"; do
    dir="tests/golden/$name"
    rm -rf "$TMP/out"
    # shellcheck disable=SC2046
    if ! "$PTOC" compile "$dir/prog.py" $(sed -n 's/^# args: //p' "$dir/prog.py" | head -n 1) --dump-passes "$TMP/out"; then
        echo "update: $name does not compile; expected files left as they are" >&2
        continue
    fi
    mkdir -p "$dir/expected"
    if ls "$dir"/expected/*.py > /dev/null 2>&1; then
        for exp in "$dir"/expected/*.py; do
            f=$(basename "$exp")
            if [ -f "$TMP/out/$f" ]; then cp "$TMP/out/$f" "$exp"; else echo "update: $name/$f no longer produced" >&2; fi
        done
    else
        cp "$TMP/out"/*.py "$dir/expected/"
    fi
    echo "updated $name: $(ls "$dir/expected" | tr '\n' ' ')"
done
