#!/usr/bin/env bash
# make bench: runs every bench/*.sh part; each prints its figures as ratios against a baseline
# measured side by side in the same run.
set -u
BUILD=${1:-build}
for b in bench/*.sh; do
    [ "$(basename "$b")" = run.sh ] && continue
    echo "== $(basename "$b" .sh)"
    bash "$b" "$BUILD" || echo "bench $(basename "$b") FAILED"
done
