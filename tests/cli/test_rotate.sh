#!/usr/bin/env bash
# test_rotate — RotateMixedLoops (docs/passes/RotateMixedLoops.md): a textbook flash-attention loop in a
# mixed region is software-pipelined across cube and vector by the compiler.
#   * examples/flash_attention_plain.py keeps the cube >= 50% busy on a2a3 and >= 60% on a5 (issue 10's
#     figure, without hand scheduling), against <= 35% when run as written (--no-rotate);
#   * the rotated program's outputs are bit-identical to the loop as written (--out files compared
#     byte for byte, a2a3 and a5), and both match the interpreter;
#   * PH-RM-001 names the loop; --no-rotate turns it off;
#   * the driver keeps the first schedule that compiles: pl.pipeline(stage=2) for the a5 long-sequence
#     loop (tests/cli/rotate/flash_long_plain_a5.py, cube >= 60%), stage 1 for the a2a3 example;
#   * a rotation that does not fit on chip under any schedule is undone: PH-RM-002 names the error,
#     the program still runs (tests/cli/rotate/flash_q80_no_room.py);
#   * a loop the user rotated already (tests/golden/mixed_carried_push) and a user pl.pipeline loop
#     (examples/flash_attention.py) are left alone.
set -u
BUILD=${1:-build}
PTOC="$BUILD/ptoc"
PASS=0
FAIL=0
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
ok() { PASS=$((PASS + 1)); echo "PASS $1"; }
bad() { FAIL=$((FAIL + 1)); echo "FAIL $1: $2"; }
check() { if eval "$2"; then ok "$1"; else bad "$1" "$2"; fi; }
num() { grep -o "\"$2\":[0-9.e+-]*" "$1" | head -n 1 | cut -d: -f2; }
ge() { awk -v a="$1" -v b="$2" 'BEGIN { exit !(a != "" && a + 0 >= b + 0) }'; }
le() { awk -v a="$1" -v b="$2" 'BEGIN { exit !(a != "" && a + 0 <= b + 0) }'; }

P=examples/flash_attention_plain.py
for target in a2a3 a5; do
    bound=0.50; [ "$target" = a5 ] && bound=0.60
    "$PTOC" run "$P" --target "$target" --json --out "o=$T/rot_$target.npy" > "$T/rot_$target.json" 2> "$T/rot_$target.err"
    rc=$?
    check "$target rotated: runs and matches" '[ $rc -eq 0 ] && grep -q "\"ok\":true" "$T/rot_$target.json"'
    check "$target rotated: no race, no sync error" '[ "$(num "$T/rot_$target.json" races)" = 0 ] && [ "$(num "$T/rot_$target.json" sync_errors)" = 0 ]'
    u=$(num "$T/rot_$target.json" cube_util)
    echo "  $target rotated: cube_util $u, makespan $(num "$T/rot_$target.json" makespan_cycles) cycles"
    check "$target rotated: cube >= $bound" 'ge "$u" "$bound"'
    check "$target rotated: PH-RM-001 names the loop" 'grep -q "PH-RM-001 [^\"]*loop over .j. (64 iterations)" "$T/rot_$target.json"'
    "$PTOC" run "$P" --target "$target" --json --no-rotate --out "o=$T/plain_$target.npy" > "$T/plain_$target.json" 2> "$T/plain_$target.err"
    rc=$?
    check "$target --no-rotate: runs and matches" '[ $rc -eq 0 ] && grep -q "\"ok\":true" "$T/plain_$target.json"'
    check "$target --no-rotate: no PH-RM hint" '! grep -q "PH-RM-" "$T/plain_$target.json"'
    u2=$(num "$T/plain_$target.json" cube_util)
    echo "  $target as written: cube_util $u2, makespan $(num "$T/plain_$target.json" makespan_cycles) cycles"
    check "$target as written: cube <= 0.35" 'le "$u2" 0.35'
    check "$target: rotated output bit-identical to the loop as written" 'cmp -s "$T/rot_$target.npy" "$T/plain_$target.npy"'
done

L=tests/cli/rotate/flash_long_plain_a5.py
"$PTOC" run "$L" --target a5 --json > "$T/long.json" 2> /dev/null
rc=$?
check "long a5: runs and matches" '[ $rc -eq 0 ] && grep -q "\"ok\":true" "$T/long.json"'
u=$(num "$T/long.json" cube_util)
echo "  long a5 rotated: cube_util $u, makespan $(num "$T/long.json" makespan_cycles) cycles"
check "long a5: the stage-2 schedule kept" 'grep -q "PH-RM-001 [^\"]*the rest a pl.pipeline(stage=2) loop" "$T/long.json"'
check "long a5: cube >= 0.60" 'ge "$u" 0.60'
check "flash_attention_plain a2a3: stage 2 does not fit, stage 1 kept" 'grep -q "PH-RM-001 [^\"]*the rest a pl.pipeline(stage=1) loop" "$T/rot_a2a3.json"'

R=tests/cli/rotate/flash_q80_no_room.py
"$PTOC" run "$R" --json > "$T/room.json" 2> "$T/room.err"
rc=$?
check "no room: still runs and matches" '[ $rc -eq 0 ] && grep -q "\"ok\":true" "$T/room.json"'
check "no room: PH-RM-002 names the capacity error" 'grep -q "PH-RM-002 [^\"]*loop over .j. not software-pipelined[^\"]*Acc buffer usage" "$T/room.json"'
check "no room: no PH-RM-001 left from the undone attempt" '! grep -q "PH-RM-001" "$T/room.json"'
"$PTOC" compile "$R" --dump-passes "$T/roomdump" > /dev/null 2>&1
check "no room: the dumps are of the program as written" '! grep -q "rotated_mixed" "$T"/roomdump/*.py'
"$PTOC" compile "$R" -o "$T/roomout" > /dev/null 2>&1
check "no room: the output tree keeps 00_frontend.py and every pass dump" '[ -f "$T/roomout/passes_dump/00_frontend.py" ] && [ "$(ls "$T/roomout/passes_dump" | wc -l)" = "$(ls "$T/roomdump" | wc -l)" ]'

"$PTOC" run tests/golden/mixed_carried_push/prog.py > /dev/null 2> "$T/carried.err"
check "hand-rotated pl.range loop left alone" '! grep -q "PH-RM-" "$T/carried.err"'
"$PTOC" compile examples/flash_attention.py > /dev/null 2> "$T/pipe.err"
check "user pl.pipeline loop left alone" '! grep -q "PH-RM-" "$T/pipe.err"'

echo "$PASS passed, $FAIL failed"
[ "$FAIL" -eq 0 ]
