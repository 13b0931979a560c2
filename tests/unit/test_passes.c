/* test_passes: the pass pipeline on the matmul program built by hand — the walkthrough's facts
 * (tile, clones, buffers and addresses, directions, scope) and the variations of the issue. */
#include <stdio.h>
#include <string.h>

#include "pipeline_util.h"
#include "test.h"

typedef struct { int verbose; } Dump;
static bool dump_hook(void *ud, int index, const PassInfo *info, Program *p, double seconds) {
    if (!((Dump *)ud)->verbose) return true;
    StrBuf sb = {0};
    ir_print_program(p, &sb, (PrintOpts){ 0 });
    printf("===== %02d_after_%s.py\n%s\n", index, info->name, sb_cstr(&sb));
    sb_free(&sb);
    return true;
}

static PassTileChoice last_tile;
static bool no_auto_l1;             /* --no-auto-l1 for the next compile() */

static Program *compile(IrCtx *c, DiagSink *d, int64_t M, int64_t N, int64_t K, bool *ok) {
    Program *p = (M == 128 && N == 128 && K == 512) ? parse_file(c, "examples/matmul.py") : build_matmul(c, M, N, K, DT_FP16, DT_FP32);
    if (!p) { *ok = false; return NULL; }
    PassCtx ctx = { .ir = c, .target = target_get(TGT_A2A3), .diag = d, .no_auto_l1 = no_auto_l1 };
    Dump dump = { getenv("PTOC_TEST_VERBOSE") != NULL };
    *ok = pass_run_pipeline(p, &ctx, dump_hook, &dump);
    memset(&last_tile, 0, sizeof last_tile);
    if (ctx.tiles.len) last_tile = ctx.tiles.data[0];
    pass_ctx_free(&ctx);
    return p;
}

/* Distinct (space, address, bytes) buffers of the kernel after lowering. */
static int count_bufs(Kernel *k, MemSpace sp, int64_t bytes) {
    int n = 0;
    for (int i = 0; i < k->nbufs; i++) {
        bool dup = false;
        for (int j = 0; j < i; j++) dup |= k->bufs[j].space == k->bufs[i].space && k->bufs[j].addr == k->bufs[i].addr;
        if (!dup && k->bufs[i].space == sp && k->bufs[i].bytes == bytes) n++;
    }
    return n;
}

static bool has_buf_at(Kernel *k, MemSpace sp, int64_t addr, int64_t bytes) {
    for (int i = 0; i < k->nbufs; i++)
        if (k->bufs[i].space == sp && k->bufs[i].addr == addr && k->bufs[i].bytes == bytes) return true;
    return false;
}

TEST(walkthrough_facts) {
    DiagSink d;
    diag_init(&d);
    IrCtx *c = ir_ctx_new(&d);
    bool ok;
    Program *p = compile(c, &d, 128, 128, 512, &ok);
    StrBuf err = {0};
    diag_format_all(&d, &err);
    CHECK_MSG(ok, "pipeline failed: %s", sb_cstr(&err));
    Function *k = find_kernel(p);
    CHECK(k && k->type == FT_AIC);
    CHECK_EQ_INT(last_tile.m, 128);
    CHECK_EQ_INT(last_tile.n, 128);
    CHECK_EQ_INT(last_tile.k, 128);
    CHECK_EQ_INT(last_tile.stationarity, 0);
    CHECK(!last_tile.dbc);
    CHECK_EQ_INT(last_tile.cost_cycles, 3279);
    if (!ok || !k) return;
    Arena *ar = arena_new();
    Kernel *mk = back_lower_function(k, target_get(TGT_A2A3), ar, &d);
    CHECK(mk != NULL);
    if (mk) {
        CHECK(has_buf_at(mk, MS_MAT, 0, 131072));
        CHECK(has_buf_at(mk, MS_MAT, 131072, 131072));
        CHECK(has_buf_at(mk, MS_LEFT, 0, 32768));
        CHECK(has_buf_at(mk, MS_LEFT, 32768, 32768));
        CHECK(has_buf_at(mk, MS_RIGHT, 0, 32768));
        CHECK(has_buf_at(mk, MS_RIGHT, 32768, 32768));
        CHECK(has_buf_at(mk, MS_ACC, 0, 65536));
        CHECK_EQ_INT(count_bufs(mk, MS_ACC, 65536), 1);
        SyncStats st = {0};
        CHECK(back_insert_sync(mk, target_get(TGT_A2A3), &st));
        CHECK_EQ_INT(st.ids_used[PIPE_MTE1][PIPE_M], 2);
        CHECK_EQ_INT(st.ids_used[PIPE_M][PIPE_MTE1], 2);
        if (getenv("PTOC_TEST_VERBOSE")) {
            StrBuf sb = {0};
            back_print_pto(mk, target_get(TGT_A2A3), &sb);
            printf("%s\n", sb_cstr(&sb));
            sb_free(&sb);
        }
    }
    arena_free(ar);
    sb_free(&err);
    ir_ctx_free(c);
    diag_free(&d);
}

/* With AutoTileL1 off (--no-auto-l1) the 2 MiB of operands overflow Mat: the capacity error. */
TEST(k4096_capacity_error) {
    DiagSink d;
    diag_init(&d);
    IrCtx *c = ir_ctx_new(&d);
    bool ok;
    no_auto_l1 = true;
    compile(c, &d, 128, 128, 4096, &ok);
    no_auto_l1 = false;
    CHECK(!ok);
    StrBuf err = {0};
    diag_format_all(&d, &err);
    CHECK_CONTAINS(sb_cstr(&err), "Function 'matmul_incore_0': Mat buffer usage (2097152 bytes) exceeds platform limit (524288 bytes)");
    sb_free(&err);
    ir_ctx_free(c);
    diag_free(&d);
}

/* AutoTileL1 blocks the same matmul (K chunks in a stage-2 pipeline) and says so (PH-L1-001). */
TEST(k4096_auto_l1) {
    DiagSink d;
    diag_init(&d);
    IrCtx *c = ir_ctx_new(&d);
    bool ok;
    compile(c, &d, 128, 128, 4096, &ok);
    CHECK(ok);
    StrBuf err = {0};
    diag_format_all(&d, &err);
    CHECK_CONTAINS(sb_cstr(&err), "[PH-L1-001] matmul [128, 4096] x [4096, 128] operands need 2097152 bytes of Mat");
    CHECK_CONTAINS(sb_cstr(&err), "1 block(s) of 128 x 128");
    sb_free(&err);
    ir_ctx_free(c);
    diag_free(&d);
}

int main(void) {
    RUN(walkthrough_facts);
    RUN(k4096_capacity_error);
    RUN(k4096_auto_l1);
    return test_summary();
}
