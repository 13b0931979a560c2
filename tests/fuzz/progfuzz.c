/* progfuzz — driver of the differential program fuzzer (docs/fuzzing.md).
 *
 * Requires: the ptoc library; options (seed, count / time, features, output directory).
 * Produces: per-outcome counts, programs/second and the rejection reasons on stdout, ending with
 *           "N passed, M failed" (like every suite of tests/run.sh); for every failure the program,
 *           its minimised form and the command that reproduces it in the output directory.
 * Does:     one worker process runs the seeds in-process (one fresh DrvSession per program, no fork
 *           per program) and reports each program's start and outcome through a pipe; the parent
 *           restarts the worker after a crash (PTOC_ASSERT aborts) and kills it when one program
 *           runs longer than --hang seconds. Each failure is then minimised (progfuzz_reduce.c),
 *           every candidate running in its own child so crashes and hangs stay contained.
 *
 *   progfuzz [--seed N] [--count N] [--time SEC] [--features SPEC] [--out DIR] [--no-reduce]
 *            [--hang SEC] [--roundtrip N] [--print SEED] [--list-features] [--verbose]
 *   --roundtrip N  verify print -> parse -> equal after every pass on every Nth seed (default 4, 0 off)
 *   --compile-only load and compile each program without running it (checks the generator's validity
 *                  rules against the compiler alone) */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "driver/driver.h"
#include "progfuzz.h"

static const char *outcome_names[PF_NOUTCOMES] = {
    [PF_OK] = "ok", [PF_MISMATCH] = "mismatch", [PF_RACE] = "race", [PF_RUNTIME] = "runtime-error",
    [PF_REJECTED] = "rejected", [PF_CRASH] = "crash", [PF_HANG] = "hang",
};
const char *pf_outcome_name(PfOutcome o) { return outcome_names[o]; }

typedef struct Opts {
    uint64_t seed, count;
    double time_limit;
    PfFeatures feat;
    const char *out_dir;
    bool reduce, verbose;
    int roundtrip;
    int hang_seconds;
} Opts;

static int g_roundtrip = 4;      /* set once from the options: verify the print -> parse round trip on
                                  * every Nth seed (0 never, 1 always) */
static bool g_compile_only;      /* --compile-only: load and compile, no run (outcomes ok / rejected / crash) */

static void first_error(DrvSession *s, char *msg, size_t len) {
    const DiagSink *d = drv_diag(s);
    for (int i = 0; i < d->items.len; i++) {
        if (d->items.data[i].level != DIAG_ERROR) continue;
        snprintf(msg, len, "%s", d->items.data[i].msg);
        return;
    }
    snprintf(msg, len, "(no diagnostic)");
}

static bool has_matmul(const PfProgram *p) {
    for (int i = 0; i < p->nst; i++) if (p->st[i].kind == PF_S_MM || p->st[i].kind == PF_S_MIX) return true;
    return false;
}

static bool has_mix(const PfProgram *p) {
    for (int i = 0; i < p->nst; i++) if (p->st[i].kind == PF_S_MIX) return true;
    return false;
}

/* ---- the host-threads differential (feature threads) ----
 * The same program on fresh buffers filled from the same seed, as drv_run_random fills them, with
 * one host thread and with two: outputs, cycles, task times and reports must be identical. */
static void **seeded_bufs(DrvSession *s, uint64_t seed, int *n) {
    *n = 0;
    while (drv_param(s, *n)) (*n)++;
    void **bufs = calloc((size_t)*n + 1, sizeof *bufs);
    uint64_t state = seed;
    for (int i = 0; i < *n; i++) {
        const DrvParam *q = drv_param(s, i);
        size_t bytes = (size_t)(q->bytes ? q->bytes : 1);
        bufs[i] = calloc(1, bytes);
        if (q->is_tensor && q->dir != PD_OUT) drv_fill_random(bufs[i], q->dtype, q->numel, &state);
    }
    return bufs;
}

static void free_bufs(void **bufs, int n) {
    for (int i = 0; i < n; i++) free(bufs[i]);
    free(bufs);
}

/* The driver options a program runs with (its target, planner, L0C double buffer, input seed). */
static void program_options(const PfProgram *p, int threads, DrvOptions *o) {
    drv_options_defaults(o);
    o->target = target_get(p->a5 ? TGT_A5 : TGT_A2A3);
    o->planner = (MemoryPlanner)p->planner;
    o->dbc = p->dbc;
    o->seed = p->run_seed;
    o->threads = threads;
}

static DrvSession *threads_session(const PfProgram *p, const char *text, int threads) {
    DrvOptions o;
    program_options(p, threads, &o);
    o.golden = true;
    DrvSession *s = drv_new(&o);
    if (!drv_load_text(s, "fuzz.py", text, NULL) || !drv_compile(s)) {
        drv_free(s);
        return NULL;
    }
    return s;
}

static bool same_strings(const char *what, char *const *a, int na, char *const *b, int nb, char *msg, size_t len) {
    if (na != nb) { snprintf(msg, len, "threads 2: %d %s, threads 1: %d", nb, what, na); return false; }
    for (int i = 0; i < na; i++)
        if (strcmp(a[i], b[i])) { snprintf(msg, len, "threads 2: %s %d differs: '%s' vs '%s'", what, i, b[i], a[i]); return false; }
    return true;
}

/* true when --threads 2 gives what --threads 1 gives; else a message naming the first difference. */
static bool threads_agree(const PfProgram *p, const char *text, char *msg, size_t len) {
    DrvSession *s[2] = { threads_session(p, text, 1), threads_session(p, text, 2) };
    void **bufs[2] = { NULL, NULL };
    int n[2] = { 0, 0 };
    bool ran[2] = { false, false }, ok = s[0] && s[1];
    if (!ok) snprintf(msg, len, "threads: the program no longer compiles");
    for (int t = 0; ok && t < 2; t++) {
        bufs[t] = seeded_bufs(s[t], p->run_seed, &n[t]);
        ran[t] = drv_run(s[t], bufs[t], n[t]);
    }
    if (ok && ran[0] != ran[1]) {
        snprintf(msg, len, "threads 2 %s where threads 1 %s", ran[1] ? "ran" : "failed", ran[0] ? "ran" : "failed");
        ok = false;
    }
    const DrvRunStats *a = ok ? drv_run_stats(s[0]) : NULL, *b = ok ? drv_run_stats(s[1]) : NULL;
    if (ok && (a->makespan_cycles != b->makespan_cycles || a->tasks != b->tasks || a->edges != b->edges ||
               a->task_list.len != b->task_list.len)) {
        snprintf(msg, len, "threads 2: makespan %lld, %d tasks, %d edges; threads 1: %lld, %d, %d", (long long)b->makespan_cycles,
                 b->tasks, b->edges, (long long)a->makespan_cycles, a->tasks, a->edges);
        ok = false;
    }
    for (int i = 0; ok && i < a->task_list.len; i++) {
        const DrvTask *x = &a->task_list.data[i], *y = &b->task_list.data[i];
        if (x->start != y->start || x->end != y->end) {
            snprintf(msg, len, "threads 2: task %d runs [%lld, %lld), threads 1: [%lld, %lld)", i, (long long)y->start,
                     (long long)y->end, (long long)x->start, (long long)x->end);
            ok = false;
        }
    }
    ok = ok && same_strings("race messages", a->race_messages.data, a->race_messages.len, b->race_messages.data,
                            b->race_messages.len, msg, len);
    ok = ok && same_strings("sync messages", a->sync_messages.data, a->sync_messages.len, b->sync_messages.data,
                            b->sync_messages.len, msg, len);
    if (ok && (a->mismatches != b->mismatches || a->max_abs_err != b->max_abs_err)) {
        snprintf(msg, len, "threads 2: %lld elements off, max abs err %g; threads 1: %lld, %g", (long long)b->mismatches,
                 b->max_abs_err, (long long)a->mismatches, a->max_abs_err);
        ok = false;
    }
    for (int i = 0; ok && i < n[0]; i++) {
        const DrvParam *q = drv_param(s[0], i);
        if (!q->is_tensor || q->dir == PD_IN || !memcmp(bufs[0][i], bufs[1][i], (size_t)q->bytes)) continue;
        size_t at = 0;
        while (((const char *)bufs[0][i])[at] == ((const char *)bufs[1][i])[at]) at++;
        snprintf(msg, len, "threads 2: output '%s' differs from threads 1 at byte %zu", q->name, at);
        ok = false;
    }
    for (int t = 0; t < 2; t++) {
        if (bufs[t]) free_bufs(bufs[t], n[t]);
        if (s[t]) drv_free(s[t]);
    }
    return ok;
}

PfOutcome pf_run_text(const PfProgram *p, const char *text, char *msg, size_t msglen) {
    DrvOptions o;
    program_options(p, 1, &o);
    o.verify_roundtrip = g_roundtrip > 0 && p->seed % (uint64_t)g_roundtrip == 0 &&
                         (p->features.on[PF_F_MIX_ROUNDTRIP] || !has_mix(p));
    DrvSession *s = drv_new(&o);
    PfOutcome out = PF_OK;
    snprintf(msg, msglen, "ok");
    if (!drv_load_text(s, "fuzz.py", text, NULL) || !drv_compile(s)) {
        first_error(s, msg, msglen);
        out = strstr(msg, "internal") ? PF_CRASH : PF_REJECTED;
    } else if (!g_compile_only) {
        bool ran = drv_run_random(s);
        const DrvRunStats *r = drv_run_stats(s);
        if (!ran || !r->ran) {
            first_error(s, msg, msglen);
            out = PF_RUNTIME;
        } else if (r->race_messages.len || r->sync_messages.len) {
            snprintf(msg, msglen, "%s", r->race_messages.len ? r->race_messages.data[0] : r->sync_messages.data[0]);
            out = PF_RACE;
        } else if (!r->compared || !r->within_tol) {
            snprintf(msg, msglen, "%lld of %lld elements off, max abs err %g", (long long)r->mismatches,
                     (long long)r->checked, r->max_abs_err);
            out = PF_MISMATCH;
        } else if (!has_matmul(p) && r->max_abs_err != 0) {
            /* without a matmul (whose accumulation order the two may choose differently) the simulator
             * and the interpreter compute every element alike: the tolerance would hide a wrong value */
            snprintf(msg, msglen, "not bit-exact without a matmul: max abs err %g (%lld elements checked)", r->max_abs_err,
                     (long long)r->checked);
            out = PF_MISMATCH;
        }
    }
    drv_free(s);
    if (out == PF_OK && !g_compile_only && p->features.on[PF_F_THREADS] && !threads_agree(p, text, msg, msglen)) out = PF_MISMATCH;
    for (char *c = msg; *c; c++) if (*c == '\n') *c = ' ';
    return out;
}

/* ---- the worker protocol: fixed-size records, atomic on a pipe ---- */

typedef struct Rec { uint64_t seed; int kind; int outcome; char msg[480]; } Rec;   /* kind 0 begin, 1 end */

static double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static void write_all(int fd, const void *buf, size_t n) {
    const char *c = buf;
    while (n > 0) {
        ssize_t k = write(fd, c, n);
        if (k < 0 && errno == EINTR) continue;
        if (k <= 0) _exit(3);
        c += k;
        n -= (size_t)k;
    }
}

static PfOutcome run_seed(uint64_t seed, const PfFeatures *f, char *msg, size_t len) {
    PfProgram *p = malloc(sizeof *p);
    pf_generate(p, seed, f);
    char *text = pf_print(p);
    PfOutcome o = pf_run_text(p, text, msg, len);
    free(text);
    free(p);
    return o;
}

static void worker(int fd, uint64_t from, uint64_t to, double deadline, const PfFeatures *f) {
    for (uint64_t seed = from; seed < to && now() < deadline; seed++) {
        Rec r = { .seed = seed, .kind = 0 };
        write_all(fd, &r, sizeof r);
        r.kind = 1;
        r.outcome = run_seed(seed, f, r.msg, sizeof r.msg);
        write_all(fd, &r, sizeof r);
    }
    _exit(0);
}

/* ---- failures ---- */

typedef struct Failure { uint64_t seed; PfOutcome outcome; char msg[480]; } Failure;

typedef struct Summary {
    uint64_t counts[PF_NOUTCOMES], programs, first, last;
    VEC(Failure) failures;
    VEC(char *) reasons;        /* distinct rejection / error messages (digits folded) */
    VEC(int) reason_count;
} Summary;

/* The message with digits folded to '#': the "kind" of a failure, stable under reduction. */
static void signature(const char *msg, char *out, size_t len) {
    size_t j = 0;
    const char *m = msg;
    for (; *m && j + 1 < len && j < 90; m++) {
        char c = *m >= '0' && *m <= '9' ? '#' : *m;
        if (c == '#' && j > 0 && out[j - 1] == '#') continue;
        out[j++] = c;
    }
    out[j] = 0;
}

static void note_reason(Summary *s, const char *msg) {
    char sig[128];
    signature(msg, sig, sizeof sig);
    for (int i = 0; i < s->reasons.len; i++)
        if (!strcmp(s->reasons.data[i], sig)) { s->reason_count.data[i]++; return; }
    vec_push(&s->reasons, strdup(sig));
    vec_push(&s->reason_count, 1);
}

static void record(Summary *s, uint64_t seed, PfOutcome o, const char *msg, bool verbose) {
    s->counts[o]++;
    s->programs++;
    if (seed > s->last) s->last = seed;
    if (verbose || o != PF_OK) printf("seed %llu: %s%s%s\n", (unsigned long long)seed, outcome_names[o], o == PF_OK ? "" : ": ", o == PF_OK ? "" : msg);
    fflush(stdout);
    if (o == PF_OK) return;
    Failure f = { .seed = seed, .outcome = o };
    snprintf(f.msg, sizeof f.msg, "%s", msg);
    vec_push(&s->failures, f);
    note_reason(s, msg);
}

/* Runs seeds [from, to) in worker processes; restarts after a crash, kills a hung worker. */
static void run_all(const Opts *o, Summary *s) {
    double t0 = now(), deadline = o->time_limit > 0 ? t0 + o->time_limit : 1e300;
    uint64_t next = o->seed, end = o->count ? o->seed + o->count : UINT64_MAX;
    while (next < end && now() < deadline) {
        int fds[2];
        if (pipe(fds)) { perror("pipe"); return; }
        fflush(stdout);
        pid_t pid = fork();
        if (pid == 0) {
            close(fds[0]);
            worker(fds[1], next, end, deadline, &o->feat);
        }
        close(fds[1]);
        Rec r;
        uint64_t running = next;
        bool in_program = false, hung = false;
        for (;;) {
            struct pollfd pfd = { fds[0], POLLIN, 0 };
            int pr = poll(&pfd, 1, o->hang_seconds * 1000);
            if (pr == 0) { hung = true; kill(pid, SIGKILL); break; }
            if (pr < 0 && errno == EINTR) continue;
            size_t got = 0;
            ssize_t k = 0;
            while (got < sizeof r && (k = read(fds[0], (char *)&r + got, sizeof r - got)) > 0) got += (size_t)k;
            if (got < sizeof r) break;                     /* worker ended */
            if (r.kind == 0) { running = r.seed; in_program = true; continue; }
            in_program = false;
            record(s, r.seed, (PfOutcome)r.outcome, r.msg, o->verbose);
            next = r.seed + 1;
        }
        close(fds[0]);
        int st = 0;
        waitpid(pid, &st, 0);
        if (hung) {
            record(s, running, PF_HANG, "no result within the hang limit", o->verbose);
            next = running + 1;
        } else if (in_program) {
            char m[64];
            snprintf(m, sizeof m, "worker died (%s %d)", WIFSIGNALED(st) ? "signal" : "exit",
                     WIFSIGNALED(st) ? WTERMSIG(st) : WEXITSTATUS(st));
            record(s, running, PF_CRASH, m, o->verbose);
            next = running + 1;
        } else if (WIFEXITED(st) && WEXITSTATUS(st) == 0) {
            break;                                         /* range or time done */
        }
    }
}

/* ---- reduction: each candidate in a child process ---- */

typedef struct RedCtx { PfOutcome outcome; char sig[128]; int hang_seconds; } RedCtx;

static PfOutcome run_in_child(const PfProgram *p, int hang_seconds, char *msg, size_t len) {
    int fds[2];
    if (pipe(fds)) return PF_CRASH;
    fflush(stdout);
    pid_t pid = fork();
    if (pid == 0) {
        close(fds[0]);
        int devnull = open("/dev/null", O_WRONLY);
        if (devnull >= 0) dup2(devnull, 2);
        alarm((unsigned)hang_seconds);
        char *text = pf_print(p);
        Rec r = { .seed = p->seed, .kind = 1 };
        r.outcome = pf_run_text(p, text, r.msg, sizeof r.msg);
        write_all(fds[1], &r, sizeof r);
        _exit(0);
    }
    close(fds[1]);
    Rec r;
    size_t got = 0;
    ssize_t k;
    while (got < sizeof r && (k = read(fds[0], (char *)&r + got, sizeof r - got)) > 0) got += (size_t)k;
    close(fds[0]);
    int st = 0;
    waitpid(pid, &st, 0);
    if (got == sizeof r) {
        snprintf(msg, len, "%s", r.msg);
        return (PfOutcome)r.outcome;
    }
    bool alarm_ = WIFSIGNALED(st) && WTERMSIG(st) == SIGALRM;
    snprintf(msg, len, alarm_ ? "no result within the hang limit" : "worker died (signal %d)", WIFSIGNALED(st) ? WTERMSIG(st) : 0);
    return alarm_ ? PF_HANG : PF_CRASH;
}

static bool same_failure(const PfProgram *cand, void *vctx) {
    RedCtx *c = vctx;
    char msg[480], sig[128];
    PfOutcome o = run_in_child(cand, c->hang_seconds, msg, sizeof msg);
    if (o != c->outcome) return false;
    if (o == PF_MISMATCH || o == PF_RACE || o == PF_HANG) return true;
    signature(msg, sig, sizeof sig);
    return !strcmp(sig, c->sig);
}

static void write_file(const char *path, const char *text) {
    FILE *f = fopen(path, "w");
    if (!f) { fprintf(stderr, "progfuzz: cannot write %s: %s\n", path, strerror(errno)); return; }
    fputs(text, f);
    fclose(f);
}

static void feature_spec(const PfFeatures *f, char *buf, size_t len) {
    size_t j = (size_t)snprintf(buf, len, "none");
    for (int i = 0; i < PF_F_COUNT && j < len; i++)
        if (f->on[i]) j += (size_t)snprintf(buf + j, len - j, ",+%s", pf_feature_name((PfFeature)i));
}

static void save_failure(const Opts *o, const Failure *f, bool reduce) {
    mkdir(o->out_dir, 0777);
    PfProgram *p = malloc(sizeof *p);
    pf_generate(p, f->seed, &o->feat);
    char path[1024], opts[200], spec[600], base[64];
    snprintf(base, sizeof base, "seed%llu-%s", (unsigned long long)f->seed, outcome_names[f->outcome]);
    char *text = pf_print(p);
    snprintf(path, sizeof path, "%s/%s.py", o->out_dir, base);
    write_file(path, text);
    free(text);
    int steps = 0;
    if (reduce) {
        RedCtx c = { .outcome = f->outcome, .hang_seconds = o->hang_seconds };
        signature(f->msg, c.sig, sizeof c.sig);
        steps = pf_reduce(p, same_failure, &c, 400);
        text = pf_print(p);
        snprintf(path, sizeof path, "%s/%s.min.py", o->out_dir, base);
        write_file(path, text);
        free(text);
    }
    pf_options_string(p, opts, sizeof opts);
    feature_spec(&o->feat, spec, sizeof spec);
    StrBuf sb = { 0 };
    bool threads = strncmp(f->msg, "threads", 7) == 0;   /* the host-threads differential */
    sb_printf(&sb, "outcome: %s\nmessage: %s\nreproduce: ptoc run %s/%s%s%s%s\nregenerate: progfuzz --seed %llu --count 1 --features %s\n",
              outcome_names[f->outcome], f->msg, o->out_dir, base, reduce ? ".min.py" : ".py", opts,
              threads ? " --threads 2 --json --out NAME=FILE (against --threads 1)" : "", (unsigned long long)f->seed, spec);
    if (reduce) sb_printf(&sb, "reduction: %d steps accepted\n", steps);
    snprintf(path, sizeof path, "%s/%s.txt", o->out_dir, base);
    write_file(path, sb_cstr(&sb));
    printf("  %s/%s%s (%d reduction steps)\n", o->out_dir, base, reduce ? ".min.py" : ".py", steps);
    sb_free(&sb);
    free(p);
}

static int usage(void) {
    fprintf(stderr, "usage: progfuzz [--seed N] [--count N] [--time SEC] [--features SPEC] [--out DIR] [--no-reduce]\n"
                    "                [--hang SEC] [--roundtrip N] [--compile-only] [--verbose] [--print SEED] [--list-features]\n");
    return 2;
}

int main(int argc, char **argv) {
    Opts o = { .seed = 1, .count = 0, .out_dir = "fuzz-out", .reduce = true, .hang_seconds = 60, .roundtrip = 4 };
    pf_features_default(&o.feat);
    long long print_seed = -1;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        char err[200];
        if (!strcmp(a, "--seed") && v) o.seed = strtoull(v, NULL, 10), i++;
        else if (!strcmp(a, "--count") && v) o.count = strtoull(v, NULL, 10), i++;
        else if (!strcmp(a, "--time") && v) o.time_limit = atof(v), i++;
        else if (!strcmp(a, "--out") && v) o.out_dir = v, i++;
        else if (!strcmp(a, "--hang") && v) o.hang_seconds = atoi(v), i++;
        else if (!strcmp(a, "--print") && v) print_seed = atoll(v), i++;
        else if (!strcmp(a, "--features") && v) {
            if (!pf_features_parse(&o.feat, v, err, sizeof err)) return fprintf(stderr, "progfuzz: %s\n", err), 2;
            i++;
        } else if (!strcmp(a, "--no-reduce")) o.reduce = false;
        else if (!strcmp(a, "--roundtrip") && v) o.roundtrip = atoi(v), i++;
        else if (!strcmp(a, "--verbose")) o.verbose = true;
        else if (!strcmp(a, "--compile-only")) g_compile_only = true;
        else if (!strcmp(a, "--list-features")) {
            for (int k = 0; k < PF_F_COUNT; k++)
                printf("%-12s %s  %s\n", pf_feature_name((PfFeature)k), o.feat.on[k] ? "on " : "off", pf_feature_help((PfFeature)k));
            return 0;
        } else return usage();
    }
    if (o.hang_seconds < 1) o.hang_seconds = 1;
    g_roundtrip = o.roundtrip;
    if (print_seed >= 0) {
        PfProgram *p = malloc(sizeof *p);
        pf_generate(p, (uint64_t)print_seed, &o.feat);
        char *text = pf_print(p);
        fputs(text, stdout);
        free(text);
        free(p);
        return 0;
    }
    if (!o.count && o.time_limit <= 0) o.count = 100;
    Summary s = { .first = o.seed, .last = o.seed };
    double t0 = now();
    run_all(&o, &s);
    double secs = now() - t0;
    printf("progfuzz: %llu programs, seeds %llu..%llu, %.1f s, %.1f programs/s\n", (unsigned long long)s.programs,
           (unsigned long long)s.first, (unsigned long long)s.last, secs, secs > 0 ? (double)s.programs / secs : 0.0);
    for (int k = 0; k < PF_NOUTCOMES; k++)
        if (s.counts[k]) printf("  %-14s %llu\n", outcome_names[k], (unsigned long long)s.counts[k]);
    for (int i = 0; i < s.reasons.len; i++) printf("  reason x%d: %s\n", s.reason_count.data[i], s.reasons.data[i]);
    for (int i = 0; i < s.failures.len; i++) save_failure(&o, &s.failures.data[i], o.reduce && i < 20);
    for (int i = 0; i < s.reasons.len; i++) free(s.reasons.data[i]);
    vec_free(&s.reasons);
    vec_free(&s.reason_count);
    uint64_t failed = s.programs - s.counts[PF_OK];
    vec_free(&s.failures);
    printf("%llu passed, %llu failed\n", (unsigned long long)s.counts[PF_OK], (unsigned long long)failed);
    return failed ? 1 : 0;
}
