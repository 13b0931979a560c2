#!/usr/bin/env bash
# bench/compile_run — wall time of the main job, side by side with a baseline process in the same run:
#   compile: `ptoc compile examples/matmul.py` (parse, every pass, lowering, sync, .pto text — the
#            issue's "all passes plus .pto")                                  target <= 5 ms
#   compile -o: the same writing the whole output tree (17 dumps, .pto, orchestration C++, reports:
#            25 files), reported for reference
#   run:     `ptoc run examples/matmul.py` (the above + golden interpreter + runtime + simulator with
#            the race detector + comparison)                                  target <= 100 ms
#   also:    `ptoc compile examples/matmul.py` without -o (no files written), to separate the compiler
#            from file-system cost (25 files; slow on overlay file systems)
#   baseline: `ptoc --help` (process start-up) and `/bin/true` (the cheapest process).
# Each command runs REPS times (default 50) interleaved; the median wall time is reported, with the
# ratio to the baseline. PASS/FAIL against the targets is judged on the perf stat figures (end). Also: the same net of the
# `ptoc --help` start-up, and the in-process times the report measures (compile_ms, run_ms), which
# do not depend on process start-up (slow on a loaded machine).
# With perf available, the same commands are also timed by `perf stat -r REPS` (see the end).
# Usage: bash bench/compile_run.sh BUILD_DIR [REPS]
set -u
BUILD=${1:-build}
REPS=${2:-50}
PTOC="$BUILD/ptoc"
[ -x "$PTOC" ] || { echo "bench/compile_run: $PTOC not built"; exit 1; }
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
PROG=examples/matmul.py

now_us() {   # microseconds, without forking when bash has EPOCHREALTIME
    if [ -n "${EPOCHREALTIME:-}" ]; then local t=${EPOCHREALTIME/[.,]/}; echo "$t"; else echo $(( $(date +%s%N) / 1000 )); fi
}
# time_one FILE CMD...: appends the wall time in ms of one execution to FILE
time_one() {
    local f=$1; shift
    local t0 t1
    if [ -n "${EPOCHREALTIME:-}" ]; then     # no subshell between the two clock reads
        t0=${EPOCHREALTIME/[.,]/}; "$@" > /dev/null 2>&1; local rc=$?; t1=${EPOCHREALTIME/[.,]/}
    else
        t0=$(now_us); "$@" > /dev/null 2>&1; local rc=$?; t1=$(now_us)
    fi
    echo "$(( t1 - t0 ))" >> "$f"
    return $rc
}
median_ms() { sort -n "$1" | awk '{ a[NR] = $1 } END { m = (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2; printf "%.3f", m / 1000 }'; }

"$PTOC" compile "$PROG" -o "$TMP/o" > /dev/null 2>&1 || { echo "bench/compile_run: ptoc compile $PROG fails"; exit 1; }
"$PTOC" run "$PROG" > /dev/null 2>&1 || { echo "bench/compile_run: ptoc run $PROG fails"; exit 1; }
for ((i = 0; i < REPS; i++)); do
    time_one "$TMP/true" /bin/true
    time_one "$TMP/help" "$PTOC" --help
    time_one "$TMP/compile" "$PTOC" compile "$PROG" -o "$TMP/o"
    time_one "$TMP/compile_nofiles" "$PTOC" compile "$PROG"
    time_one "$TMP/run" "$PTOC" run "$PROG"
done
# in-process figures (from --json: parse-to-.pto, and runtime + simulator), immune to process start-up
for ((i = 0; i < REPS; i++)); do
    "$PTOC" compile "$PROG" --json 2>/dev/null | grep -o '"compile_ms":[0-9.]*' | cut -d: -f2 | awk '{ printf "%d\n", $1 * 1000 }' >> "$TMP/c_in"
    "$PTOC" run "$PROG" --json 2>/dev/null | grep -o '"run_ms":[0-9.]*' | cut -d: -f2 | awk '{ printf "%d\n", $1 * 1000 }' >> "$TMP/r_in"
done
c_in=$(median_ms "$TMP/c_in")
r_in=$(median_ms "$TMP/r_in")
t_true=$(median_ms "$TMP/true")
t_help=$(median_ms "$TMP/help")
t_compile=$(median_ms "$TMP/compile")
t_run=$(median_ms "$TMP/run")
t_nof=$(median_ms "$TMP/compile_nofiles")
awk -v tt="$t_true" -v th="$t_help" -v tc="$t_compile" -v tr="$t_run" -v n="$REPS" -v ci="$c_in" -v ri="$r_in" -v tn="$t_nof" 'BEGIN {
    printf "bash-timed, median of %d runs (includes the shell fork/wait): /bin/true %.3f ms, ptoc --help %.3f ms\n", n, tt, th
    printf "ptoc compile examples/matmul.py:        %8.3f ms = %6.2fx ptoc --help, %6.2fx true; %.2fx the 5 ms target\n",
           tn, tn / th, tn / tt, tn / 5
    printf "ptoc run examples/matmul.py:            %8.3f ms = %6.2fx ptoc --help, %6.2fx true; %.2fx the 100 ms target\n",
           tr, tr / th, tr / tt, tr / 100
    printf "ptoc compile examples/matmul.py -o DIR: %8.3f ms = %6.2fx ptoc --help (the 25-file output tree costs %.3f ms of file creation)\n",
           tc, tc / th, tc - tn
    printf "net of process start-up (minus ptoc --help): compile %.3f ms, run %.3f ms\n", tn - th, tr - th
    printf "in-process (--json compile_ms / run_ms): parse..pto %.3f ms = %.2fx the 5 ms target; runtime+sim %.3f ms\n",
           ci, ci / 5, ri
}'

# The same, timed by `perf stat -r` (fork + exec + wait measured by perf, not by a bash loop whose own
# fork/wait overhead is ~1-2 ms on this VM). This is the figure the targets are judged on when perf
# is available.
perf_ms() { perf stat -r "$REPS" "$@" 2>&1 >/dev/null | awk '/seconds time elapsed/ { printf "%.3f", $1 * 1000 }'; }
if command -v perf > /dev/null 2>&1 && perf stat -r 1 true > /dev/null 2>&1; then
    p_true=$(perf_ms /bin/true)
    p_help=$(perf_ms "$PTOC" --help)
    p_comp=$(perf_ms "$PTOC" compile "$PROG")
    p_out=$(perf_ms "$PTOC" compile "$PROG" -o "$TMP/o")
    p_run=$(perf_ms "$PTOC" run "$PROG")
    awk -v tt="$p_true" -v th="$p_help" -v tc="$p_comp" -v to="$p_out" -v tr="$p_run" -v n="$REPS" 'BEGIN {
        printf "perf stat -r %d (mean wall): /bin/true %.3f ms, ptoc --help %.3f ms\n", n, tt, th
        printf "  ptoc compile examples/matmul.py:        %8.3f ms = %6.2fx /bin/true; %.2fx the 5 ms target (%s)\n",
               tc, tc / tt, tc / 5, (tc <= 5 ? "PASS" : "FAIL")
        printf "  ptoc compile examples/matmul.py -o DIR: %8.3f ms = %6.2fx /bin/true\n", to, to / tt
        printf "  ptoc run examples/matmul.py:            %8.3f ms = %6.2fx /bin/true; %.2fx the 100 ms target (%s)\n",
               tr, tr / tt, tr / 100, (tr <= 100 ? "PASS" : "FAIL")
    }'
fi
