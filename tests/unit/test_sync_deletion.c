/* test_sync_deletion: for every set_flag / wait_flag the sync pass inserted into the compiled
 * matmul kernel, delete it and check that the simulator's race detector reports what that leaves:
 * a data race for a flag that orders a data dependency, a flag-protocol error (deadlock, a set on a
 * set flag, or a token left set) for every deletion. (A deleted pipe_barrier is not always a
 * hazard: the inserted MTE1 barrier is also covered by the M<->MTE1 flag chain, so only the set/wait
 * flags carry this guarantee; the M barriers are checked separately.) */
#include <stdio.h>
#include <string.h>

#include "pipeline_util.h"
#include "sim/sim.h"
#include "test.h"

typedef struct { MirBlock *block; int at; } Site;

static void collect(MirBlock *b, Site *sites, int *n, bool barriers) {
    for (int i = 0; i < b->len; i++) {
        MirInst *in = b->items[i];
        bool want = in->op == MI_SET_FLAG || in->op == MI_WAIT_FLAG || (barriers && in->op == MI_BARRIER && in->pipe != PIPE_ALL);
        if (want && *n < 256) sites[(*n)++] = (Site){ b, i };
        if (in->op == MI_FOR) collect(&in->body, sites, n, barriers);
        if (in->op == MI_IF) { collect(&in->then_body, sites, n, barriers); collect(&in->else_body, sites, n, barriers); }
    }
}

static void run(Kernel *k, SimResult *r) {
    static uint16_t a[128 * 512], b[512 * 128];
    static float c[128 * 128];
    for (int i = 0; i < 128 * 512; i++) { a[i] = f32_to_fp16((float)((i * 7) % 13) / 8.0f - 0.75f); b[i] = f32_to_fp16((float)((i * 5) % 11) / 8.0f - 0.6f); }
    SimCore *core = sim_core_new(target_get(TGT_A2A3), CORE_AIC);
    void *gm[3] = { a, b, c };
    SimOptions so = { .race_check = true };
    DiagSink d;
    diag_init(&d);
    sim_run(core, k, gm, &so, r, &d);
    diag_free(&d);
    sim_core_free(core);
}

TEST(delete_each_sync) {
    DiagSink d;
    diag_init(&d);
    IrCtx *c = ir_ctx_new(&d);
    Program *p = parse_file(c, "examples/matmul.py");
    CHECK(p != NULL);
    if (!p) return;
    PassCtx ctx = { .ir = c, .target = target_get(TGT_A2A3), .diag = &d };
    CHECK(pass_run_pipeline(p, &ctx, NULL, NULL));
    pass_ctx_free(&ctx);
    Arena *ar = arena_new();
    Kernel *k = back_lower_function(find_kernel(p), target_get(TGT_A2A3), ar, &d);
    SyncStats st = {0};
    CHECK(k && back_insert_sync(k, target_get(TGT_A2A3), &st));
    if (!k) return;
    SimResult base = {0};
    run(k, &base);
    CHECK_EQ_INT(base.races.len, 0);
    CHECK_EQ_INT(base.sync_errors.len, 0);
    sim_result_free(&base);

    Site sites[256];
    int n = 0;
    collect(&k->body, sites, &n, true);
    CHECK_MSG(n >= 14, "expected at least 14 inserted syncs, found %d", n);
    int flags = 0;
    for (int s = 0; s < n; s++) {
        MirInst *in = sites[s].block->items[sites[s].at];
        mir_block_remove(sites[s].block, sites[s].at);
        SimResult r = {0};
        run(k, &r);
        mir_block_insert(k, sites[s].block, sites[s].at, in);
        const char *what = in->op == MI_SET_FLAG ? "set_flag" : in->op == MI_WAIT_FLAG ? "wait_flag" : "pipe_barrier";
        if (in->op == MI_BARRIER) {
            if (in->pipe == PIPE_M)
                CHECK_MSG(r.races.len > 0, "deleting pipe_barrier(M) leaves a same-pipe hazard on the accumulator");
        } else {
            flags++;
            CHECK_MSG(r.races.len + r.sync_errors.len > 0, "deleting %s(%s, %s, %d)%s is reported", what,
                      mir_pipe_name(in->src_pipe), mir_pipe_name(in->dst_pipe), in->event, in->compensation ? " [compensation]" : "");
            /* a data-path flag (not a pre-set / drain): its deletion must leave a data race */
            if (!in->compensation)
                CHECK_MSG(r.races.len > 0, "deleting %s(%s, %s, %d) leaves a data race (got %d races, %d sync errors)", what,
                          mir_pipe_name(in->src_pipe), mir_pipe_name(in->dst_pipe), in->event, r.races.len, r.sync_errors.len);
        }
        if (getenv("PTOC_TEST_VERBOSE")) {
            if (in->op == MI_BARRIER) printf("-- delete pipe_barrier(%s)\n", mir_pipe_name(in->pipe));
            else printf("-- delete %s(%s, %s, %d)\n", what, mir_pipe_name(in->src_pipe), mir_pipe_name(in->dst_pipe), in->event);
            for (int i = 0; i < r.races.len; i++) printf("   %s\n", r.races.data[i]);
            for (int i = 0; i < r.sync_errors.len; i++) printf("   %s\n", r.sync_errors.data[i]);
        }
        sim_result_free(&r);
    }
    CHECK_MSG(flags >= 12, "expected at least 12 set/wait flags, found %d", flags);
    arena_free(ar);
    ir_ctx_free(c);
    diag_free(&d);
}

int main(void) {
    RUN(delete_each_sync);
    return test_summary();
}
