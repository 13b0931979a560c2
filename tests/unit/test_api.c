/* test_api — the public C API (include/ptoc.h) and the driver helpers behind it: options, loading
 * from text with errors and entry selection, parameter queries, runs with caller buffers checked
 * against a C reference, the golden comparison, deps capture, the output tree, random inputs. */
#include "test.h"

#include <stdint.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "driver/driver.h"
#include "ptoc.h"

static const char *TWO = "import pypto.language as pl\n"
                         "\n"
                         "@pl.jit\n"
                         "def first(a: pl.Tensor[[32, 64], pl.FP16], b: pl.Tensor[[64, 48], pl.FP16],\n"
                         "          c: pl.Out[pl.Tensor[[32, 48], pl.FP32]]):\n"
                         "    with pl.at(level=pl.Level.CORE_GROUP):\n"
                         "        c[:] = pl.matmul(a, b, out_dtype=pl.FP32)\n"
                         "    return c\n"
                         "\n"
                         "@pl.jit\n"
                         "def second(x: pl.Tensor[[16, 32], pl.FP32], y: pl.Tensor[[32, 64], pl.FP32],\n"
                         "           z: pl.Out[pl.Tensor[[16, 64], pl.FP32]]):\n"
                         "    with pl.at(level=pl.Level.CORE_GROUP):\n"
                         "        z[:] = pl.matmul(x, y, out_dtype=pl.FP32)\n"
                         "    return z\n";

static bool file_exists(const char *dir, const char *rel) {
    char path[512];
    struct stat st;
    snprintf(path, sizeof path, "%s/%s", dir, rel);
    return stat(path, &st) == 0;
}

TEST(test_options) {
    ptoc_program *p = ptoc_program_new();
    CHECK_EQ_STR(ptoc_version(), PTOC_VERSION);
    CHECK_EQ_INT(ptoc_set_option(p, "target", "a5"), 0);
    CHECK_EQ_INT(ptoc_set_option(p, "memory_planner", "dsa_rp"), 0);
    CHECK_EQ_INT(ptoc_set_option(p, "dbc", "1"), 0);
    CHECK_EQ_INT(ptoc_set_option(p, "seed", "99"), 0);
    CHECK_EQ_INT(ptoc_set_option(p, "race_check", "true"), 0);
    CHECK_EQ_INT(ptoc_set_option(p, "bogus", "1"), -1);
    CHECK_CONTAINS(ptoc_diagnostics(p), "unknown option 'bogus'");
    CHECK_EQ_INT(ptoc_set_option(p, "target", "x9"), -1);
    CHECK_CONTAINS(ptoc_diagnostics(p), "unknown target 'x9'");
    CHECK_EQ_INT(ptoc_set_option(p, "dbc", "maybe"), -1);
    CHECK_EQ_INT(ptoc_set_option(p, "seed", "12abc"), -1);
    CHECK_EQ_INT(ptoc_set_option(p, NULL, "1"), -1);
    ptoc_program_free(p);
}

TEST(test_load_errors) {
    ptoc_program *p = ptoc_program_new();
    CHECK_EQ_INT(ptoc_load_text(p, "bad.py", "import pypto.language as pl\n@pl.jit\ndef f(a: pl.Tensor[[16, 16], pl.FP16]:\n", NULL), -1);
    CHECK_CONTAINS(ptoc_diagnostics(p), "bad.py:3:");
    CHECK_CONTAINS(ptoc_report_json(p), "{\"ok\":false,\"error\":\"bad.py:3:");
    CHECK_EQ_INT(ptoc_num_params(p), 0);
    CHECK(ptoc_entry_name(p) == NULL);
    CHECK_EQ_INT(ptoc_compile(p), -1);
    ptoc_program_free(p);

    p = ptoc_program_new();
    CHECK_EQ_INT(ptoc_load_file(p, "/nonexistent/x.py", NULL), -1);
    CHECK_CONTAINS(ptoc_diagnostics(p), "cannot read '/nonexistent/x.py'");
    ptoc_program_free(p);

    p = ptoc_program_new();
    CHECK_EQ_INT(ptoc_load_text(p, "two.py", TWO, "third"), -1);
    CHECK_CONTAINS(ptoc_diagnostics(p), "third");
    ptoc_program_free(p);
}

TEST(test_params_and_entry) {
    ptoc_program *p = ptoc_program_new();
    CHECK_EQ_INT(ptoc_load_text(p, "two.py", TWO, "second"), 0);
    CHECK_EQ_STR(ptoc_entry_name(p), "second");
    CHECK_EQ_INT(ptoc_num_params(p), 3);
    CHECK_EQ_STR(ptoc_param_name(p, 0), "x");
    CHECK_EQ_STR(ptoc_param_name(p, 2), "z");
    CHECK_EQ_STR(ptoc_param_dtype(p, 1), "FP32");
    CHECK_EQ_INT(ptoc_param_elem_bytes(p, 1), 4);
    CHECK_EQ_INT(ptoc_param_rank(p, 1), 2);
    CHECK_EQ_INT(ptoc_param_dim(p, 1, 0), 32);
    CHECK_EQ_INT(ptoc_param_dim(p, 1, 1), 64);
    CHECK_EQ_INT(ptoc_param_dim(p, 1, 2), -1);
    CHECK_EQ_INT(ptoc_param_numel(p, 2), 16 * 64);
    CHECK_EQ_INT(ptoc_param_bytes(p, 2), 16 * 64 * 4);
    CHECK_EQ_INT(ptoc_param_direction(p, 0), PTOC_DIR_IN);
    CHECK_EQ_INT(ptoc_param_direction(p, 2), PTOC_DIR_OUT);
    CHECK(ptoc_param_name(p, 3) == NULL);
    CHECK_EQ_INT(ptoc_load_text(p, "two.py", TWO, "first"), -1);   /* one load per handle */
    ptoc_program_free(p);

    p = ptoc_program_new();
    CHECK_EQ_INT(ptoc_load_text(p, "two.py", TWO, NULL), 0);
    CHECK_EQ_STR(ptoc_entry_name(p), "first");
    CHECK_EQ_STR(ptoc_param_dtype(p, 0), "FP16");
    ptoc_program_free(p);
}

/* FP32 16x32 @ 32x64 with small integers: exact in any summation order. */
TEST(test_run_caller_buffers) {
    ptoc_program *p = ptoc_program_new();
    CHECK_EQ_INT(ptoc_set_option(p, "golden", "1"), 0);
    CHECK_EQ_INT(ptoc_set_option(p, "capture_deps", "1"), 0);
    CHECK_EQ_INT(ptoc_load_text(p, "two.py", TWO, "second"), 0);
    float x[16 * 32], y[32 * 64], z[16 * 64], ref[16 * 64];
    for (int i = 0; i < 16 * 32; i++) x[i] = (float)(i % 7 - 3);
    for (int i = 0; i < 32 * 64; i++) y[i] = (float)(i % 5 - 2);
    for (int i = 0; i < 16; i++)
        for (int j = 0; j < 64; j++) {
            float acc = 0;
            for (int k = 0; k < 32; k++) acc += x[i * 32 + k] * y[k * 64 + j];
            ref[i * 64 + j] = acc;
            z[i * 64 + j] = -1234.0f;
        }
    void *bufs[3] = { x, y, z };
    CHECK_EQ_INT(ptoc_run(p, bufs, 2), -1);
    CHECK_CONTAINS(ptoc_diagnostics(p), "takes 3 parameters, 2 buffers given");
    CHECK_CONTAINS(ptoc_report_json(p), "{\"ok\":false,\"error\":\"'second' takes 3 parameters");
    CHECK_EQ_INT(ptoc_run(p, bufs, 3), 0);
    int bad = 0;
    for (int i = 0; i < 16 * 64; i++) bad += z[i] != ref[i];
    CHECK_EQ_INT(bad, 0);
    CHECK_EQ_INT((int)x[1], -2);                 /* inputs untouched */
    const char *r = ptoc_report_json(p);
    CHECK_CONTAINS(r, "\"ok\":true");
    CHECK_CONTAINS(r, "\"compared\":true,\"max_abs_err\":0,\"max_rel_err\":0,\"atol\":0.0001,\"rtol\":0.0001,\"mismatches\":0,\"checked\":1024");
    CHECK_CONTAINS(r, "\"races\":0,\"race_messages\":[]");
    CHECK_CONTAINS(r, "\"tasks\":1,\"edges\":0");
    CHECK_CONTAINS(r, "\"name\":\"second_incore_0\",\"core\":\"aic\",\"runs\":1");
    CHECK(ptoc_makespan_cycles(p) > 0);
    CHECK(ptoc_deps_json(p) && strstr(ptoc_deps_json(p), "\"tasks\""));

    char dir[] = "/tmp/ptoc_api_XXXXXX";
    CHECK(mkdtemp(dir) != NULL);
    CHECK_EQ_INT(ptoc_write_outputs(p, dir), 0);
    CHECK(file_exists(dir, "ptoas/second_incore_0.pto"));
    CHECK(file_exists(dir, "report/summary.json"));
    CHECK(file_exists(dir, "report/perf_hints.log"));
    CHECK(file_exists(dir, "run/deps.json"));
    CHECK(!file_exists(dir, "passes_dump/00_frontend.py"));   /* ptoc_keep_dumps was not called */
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    CHECK_EQ_INT(system(cmd), 0);
    ptoc_program_free(p);
}

TEST(test_run_random_and_dumps) {
    ptoc_program *p = ptoc_program_new();
    CHECK_EQ_INT(ptoc_set_option(p, "verify_roundtrip", "1"), 0);
    CHECK_EQ_INT(ptoc_load_text(p, "two.py", TWO, "first"), 0);
    CHECK_EQ_INT(ptoc_keep_dumps(p), 0);
    CHECK_EQ_INT(ptoc_compile(p), 0);
    CHECK_EQ_INT(ptoc_compile(p), 0);                         /* idempotent */
    CHECK_EQ_INT(ptoc_run_random(p), 0);
    const char *r = ptoc_report_json(p);
    CHECK_CONTAINS(r, "\"ok\":true");
    CHECK_CONTAINS(r, "\"atol\":0.01,\"rtol\":0.01");
    CHECK_CONTAINS(r, "\"checked\":1536");
    char dir[] = "/tmp/ptoc_api_XXXXXX";
    CHECK(mkdtemp(dir) != NULL);
    CHECK_EQ_INT(ptoc_write_outputs(p, dir), 0);
    CHECK(file_exists(dir, "passes_dump/00_frontend.py"));
    CHECK(file_exists(dir, "passes_dump/09_after_AutoTileMatmulL0.py"));
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    CHECK_EQ_INT(system(cmd), 0);
    ptoc_program_free(p);
}

static void random_values(void) {
    uint16_t h1[4096], h2[4096];
    int8_t i8[4096];
    float f[4096];
    uint64_t s1 = 5, s2 = 5, s3 = 6, s4 = 7;
    drv_fill_random(h1, DT_FP16, 4096, &s1);
    drv_fill_random(h2, DT_FP16, 4096, &s2);
    CHECK(memcmp(h1, h2, sizeof h1) == 0);
    drv_fill_random(h2, DT_FP16, 4096, &s3);
    CHECK(memcmp(h1, h2, sizeof h1) != 0);
    drv_fill_random(i8, DT_INT8, 4096, &s4);
    drv_fill_random(f, DT_FP32, 4096, &s4);
    /* the stream is splitmix64 from the seed, one value per element, continuing across tensors:
     * recomputed here sequentially (the driver makes element i on its own, possibly on threads) */
    uint64_t z0 = 7;
    int differ = 0;
    for (int i = 0; i < 8192; i++) {
        uint64_t z = (z0 += 0x9E3779B97F4A7C15ull);
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
        z ^= z >> 31;
        if (i < 4096) differ += i8[i] != (int)(z % 16) - 8;
        else differ += f[i - 4096] != (float)((double)(z >> 11) * 0x1p-53 * 2.0 - 1.0);
    }
    CHECK_EQ_INT(differ, 0);
    CHECK(s4 == z0);
    /* FP16: the float of the same stream rounded by base's f32_to_fp16 (the driver converts inline) */
    static uint16_t h3[1 << 16];
    uint64_t s5 = 11, z1 = 11;
    drv_fill_random(h3, DT_FP16, 1 << 16, &s5);
    differ = 0;
    for (int i = 0; i < 1 << 16; i++) {
        uint64_t z = (z1 += 0x9E3779B97F4A7C15ull);
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
        z ^= z >> 31;
        differ += h3[i] != f32_to_fp16((float)((double)(z >> 11) * 0x1p-53 * 2.0 - 1.0));
    }
    CHECK_EQ_INT(differ, 0);
    int out = 0, lo8 = 0, hi8 = 0, neg = 0;
    for (int i = 0; i < 4096; i++) {
        double v = drv_elem_get(h1, DT_FP16, i);
        out += v < -1.0 || v > 1.0 || f[i] < -1.0f || f[i] >= 1.0f;
        neg += v < 0;
        out += i8[i] < -8 || i8[i] > 7;
        lo8 += i8[i] == -8;
        hi8 += i8[i] == 7;
    }
    CHECK_EQ_INT(out, 0);
    CHECK(neg > 1800 && neg < 2300);
    CHECK(lo8 > 0 && hi8 > 0);
}

/* every variant of the fill (AVX-512 where the CPU has it, AVX2, scalar) makes the same stream */
TEST(test_random_values) {
    random_values();
    setenv("PTOC_FILL_ISA", "avx2", 1);
    random_values();
    setenv("PTOC_FILL_ISA", "generic", 1);
    random_values();
    unsetenv("PTOC_FILL_ISA");
}

/* Removes every wait_flag of a block (recursively); returns how many. */
static int drop_waits(MirBlock *b) {
    int n = 0;
    for (int i = 0; i < b->len; i++) {
        MirInst *in = b->items[i];
        if (in->op == MI_WAIT_FLAG) {
            mir_block_remove(b, i--);
            n++;
        } else if (in->op == MI_FOR) {
            n += drop_waits(&in->body);
        } else if (in->op == MI_IF) {
            n += drop_waits(&in->then_body) + drop_waits(&in->else_body);
        }
    }
    return n;
}

/* A kernel whose waits were deleted after sync insertion: the race detector must catch it, the
 * run must not be OK, and the report must carry the messages. */
TEST(test_race_reported) {
    DrvOptions o;
    drv_options_defaults(&o);
    DrvSession *s = drv_new(&o);
    CHECK(drv_load_file(s, "examples/matmul.py", NULL));
    CHECK(drv_compile(s));
    CHECK_EQ_INT(drv_num_kernels(s), 1);
    Kernel *k = drv_kernel(s, 0)->k;
    CHECK(drop_waits(&k->body) > 0);
    drv_run_random(s);
    const DrvRunStats *r = drv_run_stats(s);
    CHECK(r->race_messages.len + r->sync_messages.len > 0);
    CHECK(!drv_run_ok(s));
    StrBuf sb = {0};
    drv_report_json(s, &sb);
    CHECK_CONTAINS(sb_cstr(&sb), "\"ok\":false");
    CHECK_CONTAINS(sb_cstr(&sb), "matmul_incore_0: ");
    sb.len = 0;
    drv_report_text(s, &sb);
    CHECK_CONTAINS(sb_cstr(&sb), "FAIL");
    CHECK(strstr(sb_cstr(&sb), "race: ") || strstr(sb_cstr(&sb), "sync error: "));
    sb_free(&sb);
    drv_free(s);

    /* the same with the race detector off: no messages */
    o.race_check = false;
    s = drv_new(&o);
    CHECK(drv_load_file(s, "examples/matmul.py", NULL) && drv_compile(s));
    drop_waits(&drv_kernel(s, 0)->k->body);
    drv_run_random(s);
    CHECK_EQ_INT(drv_run_stats(s)->race_messages.len, 0);
    drv_free(s);
}

TEST(test_npy) {
    char err[256];
    DrvParam v = { .name = "v", .dtype = DT_INT32, .rank = 1, .shape = { 5 }, .dir = PD_IN, .is_tensor = true,
                   .numel = 5, .bytes = 20 };
    int32_t in[5] = { 1, -2, 3, -4, 5 }, out[5] = { 0 };
    CHECK(drv_npy_write("/tmp/ptoc_test_v.npy", &v, in, err, sizeof err));
    size_t len;
    char *raw = base_read_file("/tmp/ptoc_test_v.npy", &len);
    CHECK_EQ_INT(len, 128 + 20);
    CHECK(raw && strstr(raw + 10, "{'descr': '<i4', 'fortran_order': False, 'shape': (5,), }") == raw + 10);
    CHECK_EQ_INT(raw ? raw[127] : 0, '\n');
    free(raw);
    CHECK(drv_npy_read("/tmp/ptoc_test_v.npy", &v, out, err, sizeof err));
    CHECK(memcmp(in, out, sizeof in) == 0);
    DrvParam w = v;
    w.shape[0] = 6, w.numel = 6, w.bytes = 24;
    CHECK(!drv_npy_read("/tmp/ptoc_test_v.npy", &w, out, err, sizeof err));
    CHECK_CONTAINS(err, "has shape (5,) but parameter 'v'");
    DrvParam h = { .name = "h", .dtype = DT_BF16, .rank = 2, .shape = { 1, 2 }, .dir = PD_IN, .is_tensor = true,
                   .numel = 2, .bytes = 4 };
    uint16_t hb[2] = { 0x3f80, 0xbf80 }, hr[2] = { 0 };
    CHECK(drv_npy_write("/tmp/ptoc_test_h.npy", &h, hb, err, sizeof err));
    raw = base_read_file("/tmp/ptoc_test_h.npy", &len);
    CHECK(raw && strstr(raw + 10, "'descr': '|V2'"));
    free(raw);
    CHECK(drv_npy_read("/tmp/ptoc_test_h.npy", &h, hr, err, sizeof err));
    CHECK_EQ_INT(hr[1], 0xbf80);
    CHECK(!drv_npy_read("/tmp/ptoc_test_h.npy", &v, out, err, sizeof err));
    CHECK_CONTAINS(err, "has dtype '|V2' but parameter 'v' is INT32");
    CHECK(!drv_npy_read("/nonexistent.npy", &v, out, err, sizeof err));
    CHECK(base_write_file("/tmp/ptoc_test_bad.npy", "hello", 5));
    CHECK(!drv_npy_read("/tmp/ptoc_test_bad.npy", &v, out, err, sizeof err));
    CHECK_CONTAINS(err, "is not a .npy file");
    remove("/tmp/ptoc_test_v.npy"), remove("/tmp/ptoc_test_h.npy"), remove("/tmp/ptoc_test_bad.npy");
}

/* A rejected option or a second load used to leave an error in the session that failed every later
 * compile and run without a word: each call now stands on its own, and the refusal says why. */
TEST(test_recovers_after_refusals) {
    ptoc_program *p = ptoc_program_new();
    CHECK_EQ_INT(ptoc_set_option(p, "bogus", "1"), -1);
    CHECK_EQ_INT(ptoc_load_text(p, "two.py", TWO, "first"), 0);
    CHECK_EQ_INT(ptoc_load_text(p, "again.py", TWO, "second"), -1);
    CHECK_CONTAINS(ptoc_diagnostics(p), "a program ('two.py') is already loaded in this session");
    CHECK_EQ_STR(ptoc_entry_name(p), "first");
    CHECK_EQ_INT(ptoc_compile(p), 0);
    CHECK_EQ_INT(ptoc_run_random(p), 0);
    CHECK_CONTAINS(ptoc_report_json(p), "{\"ok\":true");
    ptoc_program_free(p);

    p = ptoc_program_new();
    CHECK_EQ_INT(ptoc_load_text(p, "bad.py", "import pypto.language as pl\n@pl.jit\ndef f(:\n", NULL), -1);
    CHECK_EQ_INT(ptoc_load_text(p, "two.py", TWO, NULL), -1);       /* one load per handle, said so */
    CHECK_CONTAINS(ptoc_diagnostics(p), "already loaded in this session; use a new session");
    ptoc_program_free(p);
}

TEST(test_bad_sources) {
    ptoc_program *p = ptoc_program_new();
    CHECK_EQ_INT(ptoc_load_text(p, "empty.py", "import pypto.language as pl\n@pl.program\nclass E:\n    x = 1\n", NULL), -1);
    CHECK_CONTAINS(ptoc_diagnostics(p), "@pl.program class 'E' has no @pl.function methods");
    ptoc_program_free(p);

    p = ptoc_program_new();
    CHECK_EQ_INT(ptoc_load_text(p, "latin1.py", "# caf\xe9\n", NULL), -1);
    CHECK_CONTAINS(ptoc_diagnostics(p), "latin1.py:1:6: error: byte 0xe9 is not UTF-8");
    CHECK_CONTAINS(ptoc_report_json(p), "\"error\":\"latin1.py:1:6: byte 0xe9 is not UTF-8");
    ptoc_program_free(p);

    p = ptoc_program_new();
    CHECK_EQ_INT(ptoc_load_file(p, "/tmp", NULL), -1);
    CHECK_CONTAINS(ptoc_diagnostics(p), "'/tmp' is a directory");
    ptoc_program_free(p);
}

/* A kernel offset dividing by a run-time zero (the loop variable): without the golden run nothing
 * catches it before the simulator, whose scalar evaluation asserted (an abort of the host program). */
TEST(test_kernel_division_by_zero) {
    static const char *DIVZ = "import pypto.language as pl\n"
                              "@pl.jit\n"
                              "def f(a: pl.Tensor[[32, 16], pl.FP16], b: pl.Tensor[[16, 16], pl.FP16],\n"
                              "      c: pl.Out[pl.Tensor[[32, 16], pl.FP32]]):\n"
                              "    for j in pl.range(2):\n"
                              "        with pl.at(level=pl.Level.CORE_GROUP):\n"
                              "            r = (16 // j) * 0\n"
                              "            c[r:r + 16, :] = pl.matmul(a[r:r + 16, :], b, out_dtype=pl.FP32)\n"
                              "    return c\n";
    ptoc_program *p = ptoc_program_new();
    CHECK_EQ_INT(ptoc_load_text(p, "divz.py", DIVZ, NULL), 0);
    CHECK_EQ_INT(ptoc_compile(p), 0);
    uint16_t a[32 * 16] = { 0 }, b[16 * 16] = { 0 };
    float c[32 * 16] = { 0 };
    void *bufs[3] = { a, b, c };
    CHECK_EQ_INT(ptoc_run(p, bufs, 3), -1);
    CHECK_CONTAINS(ptoc_diagnostics(p), "divz.py:8:30: error: simulator: an offset overflows or divides by zero");
    CHECK_EQ_INT(ptoc_set_option(p, "golden", "1"), 0);
    CHECK_EQ_INT(ptoc_run(p, bufs, 3), -1);
    CHECK_CONTAINS(ptoc_diagnostics(p), "error: division by zero in 16 // 0");
    ptoc_program_free(p);
}

/* `t = 1` used to make t a compile-time constant wherever it was assigned: in an if / else or
 * before a loop that reassigns it, every use took the value parsed last (or first), so both
 * iterations wrote row block 0 — and the interpreter, reading the same IR, agreed. Names assigned
 * under control flow or more than once are variables now. Checked here against a C reference:
 * with b = identity, c must equal a row for row. */
static void check_rows_copied(const char *name, const char *text) {
    ptoc_program *p = ptoc_program_new();
    CHECK_EQ_INT(ptoc_load_text(p, name, text, NULL), 0);
    uint16_t a[32 * 16], b[16 * 16] = { 0 };
    float c[32 * 16];
    for (int i = 0; i < 32 * 16; i++) { a[i] = f32_to_fp16((float)(i % 13 + 1)); c[i] = -1.0f; }
    for (int i = 0; i < 16; i++) b[i * 16 + i] = f32_to_fp16(1.0f);
    void *bufs[3] = { a, b, c };
    CHECK_EQ_INT(ptoc_run(p, bufs, 3), 0);
    int wrong = 0;
    for (int i = 0; i < 32 * 16; i++) wrong += c[i] != (float)(i % 13 + 1);
    CHECK_MSG(wrong == 0, "%s: %d of 512 elements differ from the C reference: %s", name, wrong, ptoc_diagnostics(p));
    ptoc_program_free(p);
}

TEST(test_control_flow_is_not_constant) {
    static const char *HEAD = "import pypto.language as pl\n"
                              "@pl.jit\n"
                              "def f(a: pl.Tensor[[32, 16], pl.FP16], b: pl.Tensor[[16, 16], pl.FP16],\n"
                              "      c: pl.Out[pl.Tensor[[32, 16], pl.FP32]]):\n";
    static const char *TAIL = "        with pl.at(level=pl.Level.CORE_GROUP):\n"
                              "            c[r:r + 16, :] = pl.matmul(a[r:r + 16, :], b, out_dtype=pl.FP32)\n"
                              "    return c\n";
    char text[2048];
    snprintf(text, sizeof text, "%s    for i in pl.range(2):\n        if i > 0:\n            t = 1\n        else:\n"
             "            t = 0\n        r = t * 16\n%s", HEAD, TAIL);
    check_rows_copied("if_else.py", text);
    snprintf(text, sizeof text, "%s    k = 0\n    for i in pl.range(2):\n        r = k * 16\n        k = 1\n%s", HEAD, TAIL);
    check_rows_copied("carried.py", text);
}

TEST(test_null_handle_and_buffers) {
    CHECK_EQ_INT(ptoc_set_option(NULL, "target", "a5"), -1);
    CHECK_EQ_INT(ptoc_load_text(NULL, "x.py", "", NULL), -1);
    CHECK_EQ_INT(ptoc_compile(NULL), -1);
    CHECK_EQ_INT(ptoc_run_random(NULL), -1);
    CHECK(ptoc_entry_name(NULL) == NULL && ptoc_num_params(NULL) == 0 && ptoc_param_name(NULL, 0) == NULL);
    CHECK_CONTAINS(ptoc_diagnostics(NULL), "NULL ptoc_program handle");
    CHECK_CONTAINS(ptoc_report_json(NULL), "\"ok\":false");
    ptoc_program_free(NULL);
    ptoc_program *p = ptoc_program_new();
    CHECK_EQ_INT(ptoc_load_text(p, "two.py", TWO, "first"), 0);
    CHECK_EQ_INT(ptoc_run(p, NULL, 3), -1);
    CHECK_CONTAINS(ptoc_diagnostics(p), "ptoc_run: bufs is NULL");
    ptoc_program_free(p);
}

int main(void) {
    RUN(test_options);
    RUN(test_load_errors);
    RUN(test_params_and_entry);
    RUN(test_run_caller_buffers);
    RUN(test_run_random_and_dumps);
    RUN(test_random_values);
    RUN(test_race_reported);
    RUN(test_npy);
    RUN(test_recovers_after_refusals);
    RUN(test_bad_sources);
    RUN(test_kernel_division_by_zero);
    RUN(test_control_flow_is_not_constant);
    RUN(test_null_handle_and_buffers);
    return test_summary();
}
