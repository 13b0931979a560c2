/* test_front_roundtrip — the invariant: print -> parse -> structurally equal (and the second print
 * identical) after every pass of the pipeline, starting from the user-form samples in tests/front/.
 * Run from the repository root. */
#include <stdlib.h>
#include <string.h>

#include "front/front.h"
#include "pass/pass.h"
#include "test.h"

typedef struct RT { const char *file; int checked; } RT;

static bool roundtrip_hook(void *ud, int index, const PassInfo *info, Program *p, double seconds) {
    RT *rt = ud;
    StrBuf t1 = { 0 }, t2 = { 0 }, why = { 0 }, err = { 0 };
    ir_print_program(p, &t1, (PrintOpts){ 0 });
    DiagSink d;
    diag_init(&d);
    IrCtx *c = ir_ctx_new(&d);
    SrcFile src = { info->name, sb_cstr(&t1), t1.len };
    Program *q = front_parse(c, &src, NULL);
    diag_format_all(&d, &err);
    CHECK_MSG(q != NULL, "%s: after %02d %s the dump does not parse:\n%s\n%s", rt->file, index, info->name, sb_cstr(&err), sb_cstr(&t1));
    if (q) {
        CHECK_MSG(ir_program_equal(p, q, &why), "%s: after %02d %s: not equal: %s\n%s", rt->file, index, info->name,
                  sb_cstr(&why), sb_cstr(&t1));
        ir_print_program(q, &t2, (PrintOpts){ 0 });
        CHECK_MSG(strcmp(sb_cstr(&t1), sb_cstr(&t2)) == 0, "%s: after %02d %s: second print differs:\n%s\n---\n%s", rt->file,
                  index, info->name, sb_cstr(&t1), sb_cstr(&t2));
    }
    rt->checked++;
    ir_ctx_free(c);
    diag_free(&d);
    sb_free(&t1);
    sb_free(&t2);
    sb_free(&why);
    sb_free(&err);
    return true;
}

static void run_file(const char *path, const char *entry) {
    size_t len = 0;
    char *text = base_read_file(path, &len);
    CHECK_MSG(text != NULL, "cannot read %s (run from the repository root)", path);
    if (!text) return;
    DiagSink d;
    diag_init(&d);
    IrCtx *c = ir_ctx_new(&d);
    SrcFile src = { path, text, len };
    Program *p = front_parse(c, &src, entry);
    StrBuf err = { 0 };
    diag_format_all(&d, &err);
    CHECK_MSG(p != NULL, "%s", sb_cstr(&err));
    if (p) {
        RT rt = { path, 0 };
        roundtrip_hook(&rt, 0, &(PassInfo){ "frontend", NULL, 0 }, p, 0);
        PassCtx ctx = { .ir = c, .target = target_get(TGT_A2A3), .diag = &d, .planner = PLANNER_PYPTO };
        bool ok = pass_run_pipeline(p, &ctx, roundtrip_hook, &rt);
        err.len = 0;
        diag_format_all(&d, &err);
        CHECK_MSG(ok, "%s: pipeline failed: %s", path, sb_cstr(&err));
        int n;
        pass_pipeline(&n);
        CHECK_MSG(!ok || rt.checked == n + 1, "%s: %d dumps checked, %d passes", path, rt.checked, n);
        pass_ctx_free(&ctx);
    }
    sb_free(&err);
    ir_ctx_free(c);
    diag_free(&d);
    free(text);
}

TEST(pipeline_roundtrip) {
    run_file("tests/front/matmul.py", NULL);
    run_file("tests/front/matmul_ksplit.py", NULL);
}

int main(void) {
    RUN(pipeline_roundtrip);
    return test_summary();
}
