/* test_timeline — report/timeline.json (driver/timeline.c) from real runs through the driver: valid
 * JSON; one process per used core ("AIC 0", "AIC 1" for two independent matmul tasks, "AIV 0" for a
 * vector kernel) with pipe threads ("MTE2", "M", "V"); every span inside [0, makespan]; the matmul's
 * MTE1 loads overlap its M (cube) work on the same core; identical files from two runs; and a run that
 * does not keep its output records no trace and has the same makespan. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "driver/driver_int.h"
#include "test.h"

static const char *TWO_MM =
    "import pypto.language as pl\n"
    "@pl.jit\n"
    "def halves(a: pl.Tensor[[64, 512], pl.FP16], b: pl.Tensor[[512, 64], pl.FP16],\n"
    "           c: pl.Out[pl.Tensor[[64, 64], pl.FP32]]):\n"
    "    with pl.manual_scope():\n"
    "        with pl.at(level=pl.Level.CORE_GROUP, name_hint=\"top\"):\n"
    "            c[0:32, :] = pl.matmul(a[0:32, :], b, out_dtype=pl.FP32)\n"
    "        with pl.at(level=pl.Level.CORE_GROUP, name_hint=\"bottom\"):\n"
    "            c[32:64, :] = pl.matmul(a[32:64, :], b, out_dtype=pl.FP32)\n"
    "    return c\n";

static const char *VEC =
    "import pypto.language as pl\n"
    "@pl.jit\n"
    "def vexp(x: pl.Tensor[[64, 128], pl.FP32], y: pl.Out[pl.Tensor[[64, 128], pl.FP32]]):\n"
    "    with pl.at(level=pl.Level.CORE_GROUP):\n"
    "        y[:] = pl.exp(pl.add(x, x))\n"
    "    return y\n";

/* ---- minimal JSON validator ---- */
static const char *js_value(const char *p);
static const char *js_ws(const char *p) { while (*p == ' ' || *p == '\n' || *p == '\t' || *p == '\r') p++; return p; }
static const char *js_string(const char *p) {
    if (*p != '"') return NULL;
    for (p++; *p && *p != '"'; p++) if (*p == '\\') p++;
    return *p == '"' ? p + 1 : NULL;
}
static const char *js_seq(const char *p, char close, bool obj) {
    p = js_ws(p + 1);
    if (*p == close) return p + 1;
    for (;;) {
        if (obj) { p = js_string(js_ws(p)); if (!p) return NULL; p = js_ws(p); if (*p++ != ':') return NULL; }
        p = js_value(js_ws(p));
        if (!p) return NULL;
        p = js_ws(p);
        if (*p == close) return p + 1;
        if (*p++ != ',') return NULL;
    }
}
static const char *js_value(const char *p) {
    p = js_ws(p);
    if (*p == '{') return js_seq(p, '}', true);
    if (*p == '[') return js_seq(p, ']', false);
    if (*p == '"') return js_string(p);
    if (!strncmp(p, "true", 4)) return p + 4;
    if (!strncmp(p, "false", 5)) return p + 5;
    if (!strncmp(p, "null", 4)) return p + 4;
    const char *s = p;
    while (*p == '-' || *p == '+' || *p == '.' || *p == 'e' || *p == 'E' || (*p >= '0' && *p <= '9')) p++;
    return p > s ? p : NULL;
}
static bool json_valid(const char *s) { const char *e = s ? js_value(s) : NULL; return e && *js_ws(e) == 0; }

/* ---- the events ---- */
typedef struct Ev { int pid, tid; int64_t start, end; } Ev;

/* The "X" events of the core processes (pid > 0), from the writer's compact form. */
static int core_events(const char *j, Ev *out, int cap) {
    int n = 0;
    for (const char *p = strstr(j, "\"ph\":\"X\",\"pid\":"); p && n < cap; p = strstr(p + 1, "\"ph\":\"X\",\"pid\":")) {
        Ev e;
        e.pid = (int)strtol(p + strlen("\"ph\":\"X\",\"pid\":"), NULL, 10);
        const char *t = strstr(p, "\"tid\":"), *s = strstr(p, "\"start_cycles\":"), *x = strstr(p, "\"end_cycles\":");
        if (!t || !s || !x) break;
        e.tid = (int)strtol(t + 6, NULL, 10);
        e.start = strtoll(s + 15, NULL, 10);
        e.end = strtoll(x + 13, NULL, 10);
        if (e.pid > 0) out[n++] = e;
    }
    return n;
}

static char *slurp(const char *dir, const char *file) {
    char path[512];
    snprintf(path, sizeof path, "%s/%s", dir, file);
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *b = malloc((size_t)n + 1);
    size_t got = fread(b, 1, (size_t)n, f);
    b[got] = 0;
    fclose(f);
    return b;
}

/* Compiles and runs text; keep: with the output tree in a fresh directory (*dir, to remove). */
static DrvSession *run_prog(const char *name, const char *text, bool keep, char *dir) {
    DrvOptions o;
    drv_options_defaults(&o);
    DrvSession *s = drv_new(&o);
    if (keep) {
        strcpy(dir, "/tmp/ptoc_tl_XXXXXX");
        CHECK(mkdtemp(dir) != NULL);
        drv_output_prepare(s, dir);
    }
    CHECK(drv_load_text(s, name, text, NULL));
    CHECK(drv_compile(s));
    CHECK(drv_run_random(s));
    CHECK(drv_run_ok(s));
    if (keep) CHECK(drv_write_outputs(s, dir));
    return s;
}

static void rm_dir(const char *dir) {
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    CHECK_EQ_INT(system(cmd), 0);
}

static bool overlaps(const Ev *ev, int n, int pid, int tid_a, int tid_b) {
    for (int i = 0; i < n; i++)
        for (int k = 0; k < n; k++)
            if (ev[i].pid == pid && ev[k].pid == pid && ev[i].tid == tid_a && ev[k].tid == tid_b &&
                ev[i].start < ev[k].end && ev[k].start < ev[i].end)
                return true;
    return false;
}

TEST(test_two_cores_pipes) {
    char dir[64], dir2[64];
    DrvSession *s = run_prog("two.py", TWO_MM, true, dir);
    int64_t makespan = drv_run_stats(s)->makespan_cycles;
    char *j = slurp(dir, "report/timeline.json");
    CHECK(j && json_valid(j));
    CHECK_CONTAINS(j, "{\"name\":\"process_name\",\"ph\":\"M\",\"pid\":1,\"args\":{\"name\":\"AIC 0\"}}");
    CHECK_CONTAINS(j, "{\"name\":\"process_name\",\"ph\":\"M\",\"pid\":2,\"args\":{\"name\":\"AIC 1\"}}");
    CHECK_CONTAINS(j, "\"pid\":1,\"tid\":4,\"args\":{\"name\":\"MTE2\"}");
    CHECK_CONTAINS(j, "\"pid\":2,\"tid\":2,\"args\":{\"name\":\"M\"}");
    CHECK_CONTAINS(j, "\"name\":\"tmatmul\"");
    CHECK_CONTAINS(j, "\"args\":{\"kernel\":\"top\"");
    CHECK_CONTAINS(j, "\"args\":{\"kernel\":\"bottom\"");
    CHECK_CONTAINS(j, "{\"name\":\"process_name\",\"ph\":\"M\",\"pid\":0,\"args\":{\"name\":\"tasks\"}}");
    static Ev ev[4096];
    int n = core_events(j, ev, 4096);
    CHECK(n > 10);
    int bad = 0, on1 = 0, on2 = 0;
    for (int i = 0; i < n; i++) {
        bad += ev[i].start < 0 || ev[i].end > makespan || ev[i].end < ev[i].start;
        on1 += ev[i].pid == 1, on2 += ev[i].pid == 2;
    }
    CHECK_EQ_INT(bad, 0);
    CHECK(on1 > 0 && on2 > 0);
    CHECK(overlaps(ev, n, 1, PIPE_MTE1, PIPE_M) || overlaps(ev, n, 1, PIPE_MTE2, PIPE_M));
    /* both tasks run at once: the two cores' kernel rows overlap */
    CHECK(overlaps(ev, n, 1, 100, 100));
    /* a second identical run writes the same file */
    DrvSession *s2 = run_prog("two.py", TWO_MM, true, dir2);
    char *j2 = slurp(dir2, "report/timeline.json");
    CHECK(j2 && !strcmp(j, j2));
    free(j), free(j2);
    rm_dir(dir), rm_dir(dir2);
    drv_free(s2);
    /* without the output tree: no trace, same timing */
    DrvSession *s3 = run_prog("two.py", TWO_MM, false, NULL);
    CHECK(s3->timeline == NULL);
    CHECK_EQ_INT(drv_run_stats(s3)->makespan_cycles, makespan);
    drv_free(s3);
    drv_free(s);
}

TEST(test_vector_core) {
    char dir[64];
    DrvSession *s = run_prog("vec.py", VEC, true, dir);
    char *j = slurp(dir, "report/timeline.json");
    CHECK(j && json_valid(j));
    int pid = 1 + s->opt.target->num_aic;
    char want[128];
    snprintf(want, sizeof want, "{\"name\":\"process_name\",\"ph\":\"M\",\"pid\":%d,\"args\":{\"name\":\"AIV 0\"}}", pid);
    CHECK_CONTAINS(j, want);
    snprintf(want, sizeof want, "\"pid\":%d,\"tid\":%d,\"args\":{\"name\":\"V\"}", pid, PIPE_V);
    CHECK_CONTAINS(j, want);
    CHECK(!strstr(j, "\"AIC 0\""));
    free(j);
    rm_dir(dir);
    drv_free(s);
}

/* drv_timeline_add on a made-up trace: back-to-back instructions of a pipe merge (a set_flag between
 * two loads keeps the name "tload"), a gap starts a new span, zero-length waits are dropped, times
 * are shifted by the block's start; past the cap spans are dropped and the file says so. */
TEST(test_merge_and_cap) {
    DrvOptions o;
    drv_options_defaults(&o);
    DrvSession *s = drv_new(&o);
    Arena *a = arena_new();
    Kernel *k = mir_kernel_new(a, "kern", CORE_AIC);
    MirInst *ld = mir_inst_new(k, MI_TLOAD, PIPE_MTE2), *fl = mir_inst_new(k, MI_SET_FLAG, PIPE_MTE2);
    MirInst *wt = mir_inst_new(k, MI_WAIT_FLAG, PIPE_M), *mm = mir_inst_new(k, MI_TMATMUL, PIPE_M);
    SimResult r;
    memset(&r, 0, sizeof r);
    SimTraceEvent evs[] = { { PIPE_MTE2, ld, 0, 10 }, { PIPE_MTE2, fl, 10, 11 }, { PIPE_MTE2, ld, 11, 20 },
                            { PIPE_M, wt, 20, 20 }, { PIPE_M, mm, 20, 30 }, { PIPE_MTE2, ld, 25, 30 } };
    for (int i = 0; i < 6; i++) vec_push(&r.trace, evs[i]);
    r.cycles = 30;
    RtKernelCall call;
    memset(&call, 0, sizeof call);
    call.core = RT_CALL_AIC, call.core_index = 3, call.start_cycle = 1000, call.task_id = 7, call.block_idx = 2;
    CHECK_EQ_INT(drv_timeline_core(&call, k), 3);
    drv_timeline_add(s, &call, k, CORE_AIC, 3, &r);
    s->run.ran = true, s->run.makespan_cycles = 1030;
    StrBuf sb = {0};
    drv_timeline_json(s, &sb);
    const char *j = sb_cstr(&sb);
    CHECK(json_valid(j));
    CHECK_CONTAINS(j, "\"pid\":4,\"args\":{\"name\":\"AIC 3\"}");
    CHECK_CONTAINS(j, "{\"name\":\"tload\",\"ph\":\"X\",\"pid\":4,\"tid\":4,");
    CHECK_CONTAINS(j, "\"args\":{\"kernel\":\"kern\",\"task\":7,\"block\":2,\"op\":\"tload\",\"insts\":3,"
                      "\"start_cycles\":1000,\"end_cycles\":1020}");
    CHECK_CONTAINS(j, "\"insts\":1,\"start_cycles\":1025,\"end_cycles\":1030}");
    CHECK_CONTAINS(j, "{\"name\":\"tmatmul\",\"ph\":\"X\",\"pid\":4,\"tid\":2,");
    CHECK(!strstr(j, "wait_flag"));
    CHECK(!strstr(j, "truncated"));
    /* a mixed call: the AIV of lane 1 in cluster 3 is AIV 7 */
    Kernel *kv = mir_kernel_new(a, "kv", CORE_AIV);
    kv->lane = 1;
    call.core = RT_CALL_MIX;
    CHECK_EQ_INT(drv_timeline_core(&call, kv), 7);
    CHECK_EQ_INT(drv_timeline_core(&call, k), 3);
    /* the cap: 210000 separate spans in one block */
    r.trace.len = 0;
    for (int i = 0; i < 210000; i++) vec_push(&r.trace, ((SimTraceEvent){ PIPE_MTE2, ld, 2 * i, 2 * i + 1 }));
    drv_timeline_add(s, &call, k, CORE_AIC, 0, &r);
    sb.len = 0;
    drv_timeline_json(s, &sb);
    CHECK(json_valid(sb_cstr(&sb)));
    CHECK_CONTAINS(sb_cstr(&sb), "\"core_spans\":200000,\"truncated\":\"per-core rows capped at 200000 spans: 10005 later");
    sb_free(&sb);
    sim_result_free(&r);
    arena_free(a);
    drv_free(s);
}

int main(void) {
    RUN(test_merge_and_cap);
    RUN(test_two_cores_pipes);
    RUN(test_vector_core);
    return test_summary();
}
