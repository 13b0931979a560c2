/* test_rt_cores — where and when the runtime runs each block (RtKernelCall.core / core_index /
 * start_cycle, the input of the per-core timeline) and the deps.json fields of mixed tasks: "core",
 * "kernels" (the Group callee's AIC / AIV members) and kernel_ids [aic, aiv0, aiv1] numbered as the
 * orchestration emitter numbers them. Programs are built with the IR builders and run with a fake
 * kernel callback that records every call. */
#include "rt/rt_internal.h"
#include "test.h"
#include "rt_build_util.h"

#define DISPATCH 1480
#define CYCLES 1000

typedef struct Seen { int n; const char *name[32]; RtCallCore core[32]; int index[32]; int64_t start[32], block[32]; } Seen;

static bool record_run(void *ud, const RtKernelCall *c, int64_t *cycles, DiagSink *d) {
    Seen *s = ud;
    if (s->n < 32) {
        s->name[s->n] = c->kernel->name, s->core[s->n] = c->core, s->index[s->n] = c->core_index;
        s->start[s->n] = c->start_cycle, s->block[s->n] = c->block_idx;
        s->n++;
    }
    *cycles = CYCLES;
    return true;
}

static bool run(Tb *t, void **bufs, int n, Seen *s, RtResult *r) {
    RtOptions o = { .target = target_get(TGT_A2A3), .threads = 1, .capture_deps = true };
    memset(r, 0, sizeof *r);
    return rt_run(t->p, NULL, bufs, n, &o, record_run, s, r, &t->diag);
}

/* Moves the function's trailing return after statements pushed since (kernel() ends the body with it). */
static void return_last(Function *f) {
    StmtList *b = &f->body;
    for (int i = 0; i + 1 < b->len; i++)
        if (b->items[i]->kind == ST_RETURN) {
            Stmt *r = b->items[i];
            memmove(&b->items[i], &b->items[i + 1], sizeof(Stmt *) * (size_t)(b->len - i - 1));
            b->items[b->len - 1] = r;
            return;
        }
}

/* Two independent AIC tasks run on AIC 0 and AIC 1 at the same time; a 3-block AIV task takes AIV 0,
 * 1, 2; every block starts after the dispatch overhead. */
TEST(test_call_cores) {
    Tb t; tb_init(&t);
    Var *a = param(&t, "a", ten(&t, DT_FP32, 4, 4), PD_OUT);
    Var *b = param(&t, "b", ten(&t, DT_FP32, 4, 4), PD_OUT);
    Var *v = param(&t, "v", ten(&t, DT_FP32, 4, 4), PD_OUT);
    Type *ts[1] = { a->type };
    ParamDir pd[1] = { PD_INOUT };
    Function *mm = kernel(&t, "mm", FT_AIC, 1, ts, pd);
    Function *vec = kernel(&t, "vec", FT_AIV, 1, ts, pd);
    Stmt *sc = scope(&t, t.body, false);
    const char *d[1] = { "inout" };
    Expr *arg = ir_ref(a);
    call(&t, &sc->scope.body, NULL, mm, &arg, 1, d);
    arg = ir_ref(b);
    call(&t, &sc->scope.body, NULL, mm, &arg, 1, d);
    arg = ir_ref(v);
    Expr *e = call(&t, &sc->scope.body, NULL, vec, &arg, 1, d);
    ir_attr_set(t.c, &e->call.attrs, "block_num", ir_av_int(3));
    static float ba[16], bb[16], bv[16];
    void *bufs[3] = { ba, bb, bv };
    Seen s = {0};
    RtResult r;
    CHECK(run(&t, bufs, 3, &s, &r));
    CHECK_EQ_INT(s.n, 5);
    for (int i = 0; i < s.n; i++) CHECK_EQ_INT(s.start[i], DISPATCH);
    CHECK_EQ_INT(s.core[0], RT_CALL_AIC); CHECK_EQ_INT(s.index[0], 0);
    CHECK_EQ_INT(s.core[1], RT_CALL_AIC); CHECK_EQ_INT(s.index[1], 1);
    for (int i = 2; i < 5; i++) {
        CHECK_EQ_INT(s.core[i], RT_CALL_AIV);
        CHECK_EQ_INT(s.index[i], i - 2);
        CHECK_EQ_INT(s.block[i], i - 2);
    }
    CHECK_CONTAINS(r.deps_json, "\"kernel\":\"vec\",\"core\":\"aiv\",\"kernel_ids\":[-1,1,-1],\"block_num\":3");
    rt_result_free(&r);
    tb_free(&t);
}

/* A Group callee is a MIX task on a whole cluster: after an AIC task on AIC 0 it takes cluster 1
 * (AIC 1 + AIV 2, 3), and deps.json names its members. */
TEST(test_mixed_task_json) {
    Tb t; tb_init(&t);
    Var *a = param(&t, "a", ten(&t, DT_FP32, 4, 4), PD_OUT);
    Var *c = param(&t, "c", ten(&t, DT_FP32, 4, 4), PD_OUT);
    Type *ts[1] = { c->type };
    ParamDir pd[1] = { PD_INOUT };
    Function *pre = kernel(&t, "pre", FT_AIC, 1, ts, pd);
    Function *g = kernel(&t, "grp", FT_GROUP, 1, ts, pd);
    Function *aic = kernel(&t, "grp_aic", FT_AIC, 1, ts, pd);
    Function *aiv0 = kernel(&t, "grp_aiv0", FT_AIV, 1, ts, pd);
    Function *aiv1 = kernel(&t, "grp_aiv1", FT_AIV, 1, ts, pd);
    Expr *gp = ir_ref(g->params.items[0]);
    call(&t, &g->body, NULL, aic, &gp, 1, NULL);
    call(&t, &g->body, NULL, aiv0, &gp, 1, NULL);
    call(&t, &g->body, NULL, aiv1, &gp, 1, NULL);
    return_last(g);
    Stmt *sc = scope(&t, t.body, false);
    const char *d[1] = { "inout" };
    Expr *arg = ir_ref(a);
    call(&t, &sc->scope.body, NULL, pre, &arg, 1, d);
    arg = ir_ref(c);
    call(&t, &sc->scope.body, NULL, g, &arg, 1, d);
    static float ba[16], bc[16];
    void *bufs[2] = { ba, bc };
    Seen s = {0};
    RtResult r;
    CHECK(run(&t, bufs, 2, &s, &r));
    CHECK_EQ_INT(s.n, 2);
    CHECK_EQ_STR(s.name[1], "grp");
    CHECK_EQ_INT(s.core[1], RT_CALL_MIX);
    CHECK_EQ_INT(s.index[1], 1);                                 /* cluster 1: AIC 0 is busy */
    CHECK_EQ_INT(s.start[1], DISPATCH);
    CHECK_EQ_STR(r.tasks.data[1].core, "mix");
    /* ids as back/orch.c gives them: pre 0, then the group's members in order */
    CHECK_CONTAINS(r.deps_json, "\"kernel\":\"pre\",\"core\":\"aic\",\"kernel_ids\":[0,-1,-1],\"block_num\":1");
    CHECK_CONTAINS(r.deps_json, "\"kernel\":\"grp\",\"core\":\"mix\",\"kernel_ids\":[1,2,3],\"kernels\":["
                                "{\"name\":\"grp_aic\",\"core\":\"aic\"},{\"name\":\"grp_aiv0\",\"core\":\"aiv\"},"
                                "{\"name\":\"grp_aiv1\",\"core\":\"aiv\"}],\"block_num\":1");
    rt_result_free(&r);
    tb_free(&t);
}

int main(void) {
    RUN(test_call_cores);
    RUN(test_mixed_task_json);
    return test_summary();
}
