#!/usr/bin/env bash
# Regenerates docs/passes/<Pass>.md and the table of docs/passes/README.md from the pipeline order
# (src/pass/pipeline.c) and each pass file's header comment (the authority). Run from anywhere.
set -eu
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
cd "$ROOT"
table=$(mktemp)
trap 'rm -f "$table"' EXIT
n=0
while read -r name fn; do
    n=$((n + 1))
    nn=$(printf '%02d' "$n")
    file="src/pass/${fn#pass_}.c"
    [ -f "$file" ] || { echo "update.sh: $file (pass $name) not found" >&2; exit 1; }
    {
        echo "# $nn $name"
        echo
        echo "Source: \`$file\`. Dump: \`${nn}_after_$name.py\`."
        echo
        echo '```'
        awk 'NR == 1 { sub(/^\/\* ?/, "") } { done = sub(/ *\*\/.*$/, ""); sub(/^ \* ?/, ""); print } done { exit }' "$file"
        echo '```'
    } > "docs/passes/$name.md"
    echo "| $nn | [$name]($name.md) | \`$file\` |" >> "$table"
done < <(sed -n 's/^ *{ "\([A-Za-z0-9]*\)", \(pass_[a-z0-9_]*\),.*/\1 \2/p' src/pass/pipeline.c)
awk -v table="$table" '
    /^\| # \| pass \| file \|$/ { print; getline; print; while ((getline line < table) > 0) print line; skip = 1; next }
    skip && /^\|/ { next }
    { skip = 0; print }' docs/passes/README.md > docs/passes/README.md.new
mv docs/passes/README.md.new docs/passes/README.md
