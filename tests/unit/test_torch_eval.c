/* test_torch_eval — the torch-expression evaluator of the __main__ runner (driver/torch_eval.h)
 * against hand-computed values: arithmetic with broadcasting and scalars, matmul, transpose,
 * reductions, softmax, cat, casts (rounding), slicing, reshape / unsqueeze, constructors, the checks,
 * and the main-block reader's statement classification. */
#include "test.h"

#include "driver/torch_eval.h"
#include "front/main_block.h"

typedef struct Env { const char *names[32]; TVal vals[32]; int n; } Env;

static bool env_lookup(void *ud, const char *name, TVal *out) {
    Env *e = ud;
    for (int i = e->n - 1; i >= 0; i--)
        if (!strcmp(e->names[i], name)) {
            *out = e->vals[i];
            if (out->kind == TV_TENSOR) tarr_ref(out->t);
            return true;
        }
    return false;
}

static DiagSink g_diag;
static IrCtx *g_ir;
static MainBlock g_mb;
static Env g_env;
static uint64_t g_rng = 1;
static char g_why[256];

/* Runs the assignments of a main block made of `body` (lines indented by 4) and returns the value
 * of the last one (NULL when it failed; g_why says why). The last MS_CHECK, if any, goes to *chk. */
static TArr *run(const char *body, TCheck *chk, bool *chk_ok) {
    static char src_text[4096];
    static SrcFile src;
    snprintf(src_text, sizeof src_text, "if __name__ == \"__main__\":\n%s", body);
    src = (SrcFile){ "t.py", src_text, strlen(src_text) };
    for (int i = 0; i < g_env.n; i++) tval_free(&g_env.vals[i]);
    g_env.n = 0;
    front_main_block_free(&g_mb);
    front_main_block(g_ir, &src, &g_mb);
    TArr *last = NULL;
    g_why[0] = 0;
    for (int i = 0; i < g_mb.n; i++) {
        const MbStmt *st = &g_mb.stmts[i];
        TEval ev = { env_lookup, &g_env, &g_rng, "", SPAN_NONE };
        if (st->kind == MS_ASSIGN) {
            TVal v;
            last = NULL;
            if (!teval(&ev, st->e, &v)) { snprintf(g_why, sizeof g_why, "%s", ev.why); continue; }
            g_env.names[g_env.n] = st->target, g_env.vals[g_env.n++] = v;
            last = v.kind == TV_TENSOR ? v.t : NULL;
        } else if (st->kind == MS_CHECK && chk) {
            *chk_ok = st->e && tcheck(&ev, st->check, st->e, chk);
            snprintf(g_why, sizeof g_why, "%s", ev.why);
        }
    }
    return last;
}

#define VALS(t, ...) do { double _w[] = { __VA_ARGS__ }; int _n = (int)(sizeof _w / sizeof _w[0]); \
    CHECK_MSG((t) && (t)->n == _n, "element count: %s", g_why);                                      \
    for (int _i = 0; (t) && _i < _n && _i < (t)->n; _i++) CHECK_NEAR((t)->d[_i], _w[_i], 1e-12); } while (0)

TEST(arith_broadcast) {
    TArr *t = run("    a = torch.tensor([[1.0, 2.0], [3.0, 4.0]])\n    r = a + torch.tensor([10.0, 20.0]) * 2 - 1\n", NULL, NULL);
    VALS(t, 20, 41, 22, 43);
    t = run("    a = torch.tensor([[1.0, 2.0], [3.0, 4.0]])\n    r = -a / 2 + a ** 2\n", NULL, NULL);
    VALS(t, 0.5, 3, 7.5, 14);
    t = run("    a = torch.tensor([[1.0], [2.0]])\n    r = 1 - a * torch.tensor([1.0, 2.0, 3.0])\n", NULL, NULL);
    CHECK(t && t->rank == 2 && t->dims[0] == 2 && t->dims[1] == 3);
    VALS(t, 0, -1, -2, -1, -3, -5);
}

TEST(matmul_transpose) {
    TArr *t = run("    a = torch.tensor([[1.0, 2.0], [3.0, 4.0]])\n    b = torch.tensor([[5.0, 6.0], [7.0, 8.0]])\n    r = a @ b\n", NULL, NULL);
    VALS(t, 19, 22, 43, 50);
    t = run("    a = torch.tensor([[1.0, 2.0, 3.0]])\n    r = torch.matmul(a.T, a)\n", NULL, NULL);
    VALS(t, 1, 2, 3, 2, 4, 6, 3, 6, 9);
    t = run("    a = torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])\n    r = a.transpose(0, 1)\n", NULL, NULL);
    VALS(t, 1, 4, 2, 5, 3, 6);
    t = run("    a = torch.ones(2, 2, 3)\n    b = torch.ones(2, 3, 1)\n    r = torch.bmm(a, b)\n", NULL, NULL);
    VALS(t, 3, 3, 3, 3);
}

TEST(reductions_softmax) {
    const char *a = "    a = torch.tensor([[1.0, 5.0, 3.0], [4.0, 2.0, 6.0]])\n";
    char buf[512];
    snprintf(buf, sizeof buf, "%s    r = a.sum(dim=1)\n", a);
    VALS(run(buf, NULL, NULL), 9, 12);
    snprintf(buf, sizeof buf, "%s    r = a.mean(dim=0, keepdim=True)\n", a);
    TArr *t = run(buf, NULL, NULL);
    CHECK(t && t->rank == 2 && t->dims[0] == 1);
    VALS(t, 2.5, 3.5, 4.5);
    snprintf(buf, sizeof buf, "%s    r = a.max(dim=-1).values\n", a);
    VALS(run(buf, NULL, NULL), 5, 6);
    snprintf(buf, sizeof buf, "%s    r = torch.amax(a, dim=0)\n", a);
    VALS(run(buf, NULL, NULL), 4, 5, 6);
    t = run("    a = torch.tensor([[0.0, 0.0], [0.0, 1.0]])\n    r = torch.softmax(a, dim=-1)\n", NULL, NULL);
    double e = 1.0 / (1.0 + exp(1.0));
    VALS(t, 0.5, 0.5, e, 1 - e);
}

TEST(elementwise_cat_views) {
    TArr *t = run("    a = torch.tensor([-1.0, 0.0, 4.0])\n    r = torch.clamp(torch.relu(a) + torch.abs(a), min=0.5, max=6.0)\n", NULL, NULL);
    VALS(t, 1, 0.5, 6);
    t = run("    a = torch.tensor([4.0, 16.0])\n    r = torch.maximum(torch.sqrt(a), torch.rsqrt(a) * 16)\n", NULL, NULL);
    VALS(t, 8, 4);
    t = run("    a = torch.tensor([0.0])\n    r = torch.sigmoid(a) + torch.exp(a)\n", NULL, NULL);
    VALS(t, 1.5);
    t = run("    a = torch.tensor([[1.0, 2.0]])\n    b = torch.tensor([[3.0, 4.0]])\n    r = torch.cat([a, b], dim=0)\n", NULL, NULL);
    CHECK(t && t->dims[0] == 2 && t->dims[1] == 2);
    VALS(t, 1, 2, 3, 4);
    t = run("    a = torch.arange(12).reshape(3, 4)\n    r = a[1:, ::2]\n", NULL, NULL);
    CHECK(t && t->rank == 2 && t->dims[0] == 2 && t->dims[1] == 2);
    VALS(t, 4, 6, 8, 10);
    t = run("    a = torch.arange(6).reshape((2, -1))\n    r = a[:, 2].unsqueeze(0)\n", NULL, NULL);
    CHECK(t && t->rank == 2 && t->dims[0] == 1 && t->dims[1] == 2);
    VALS(t, 2, 5);
}

TEST(casts_and_constructors) {
    TArr *t = run("    a = torch.tensor([1.0001, 3.14159])\n    r = a.half().float()\n", NULL, NULL);
    VALS(t, 1.0, 3.140625);
    CHECK(t && t->dtype == DT_FP32);
    t = run("    r = torch.full((2, 2), 1.0001, dtype=torch.bfloat16)\n", NULL, NULL);
    VALS(t, 1, 1, 1, 1);
    t = run("    r = torch.tensor([2.7, -2.7]).to(torch.int32)\n", NULL, NULL);
    VALS(t, 2, -2);
    t = run("    n = 3\n    r = torch.zeros(n, n * 2, dtype=torch.float16)\n", NULL, NULL);
    CHECK(t && t->dtype == DT_FP16 && t->dims[0] == 3 && t->dims[1] == 6);
    t = run("    torch.manual_seed(0)\n    r = torch.randn(64, 64)\n", NULL, NULL);
    double s = 0, s2 = 0;
    for (int64_t i = 0; t && i < t->n; i++) s += t->d[i], s2 += t->d[i] * t->d[i];
    CHECK(t && fabs(s / 4096) < 0.1 && fabs(s2 / 4096 - 1) < 0.1);
    for (int64_t i = 0; t && i < t->n; i++) CHECK(t->d[i] == (double)(float)t->d[i]);   /* rounded to FP32 */
    t = run("    a = torch.ones(2, 3, dtype=torch.float16)\n    r = torch.rand_like(a)\n", NULL, NULL);
    CHECK(t && t->dtype == DT_FP16 && t->n == 6);
    for (int64_t i = 0; t && i < t->n; i++) CHECK(t->d[i] >= 0 && t->d[i] <= 1);
}

TEST(checks) {
    TCheck c;
    bool ok = false;
    run("    a = torch.tensor([1.0, 2.0])\n    b = torch.tensor([1.0, 2.001])\n"
        "    assert torch.allclose(a, b, rtol=1e-3, atol=0)\n", &c, &ok);
    CHECK(ok && c.passed && fabs(c.max_abs_err - 0.001) < 1e-6);
    run("    a = torch.tensor([1.0, 2.0])\n    b = torch.tensor([1.0, 2.01])\n"
        "    assert torch.allclose(a, b, rtol=1e-3, atol=1e-3), 'msg'\n", &c, &ok);
    CHECK(ok && !c.passed && c.mismatches == 1 && c.worst == 1);
    run("    a = torch.tensor([1.0])\n    torch.testing.assert_close(a, a + 1e-6)\n", &c, &ok);
    CHECK(ok && c.passed && c.rtol == 1.3e-6 && c.atol == 1e-5);
    run("    a = torch.tensor([1.0])\n    assert torch.equal(a, a + 1e-6)\n", &c, &ok);
    CHECK(ok && !c.passed);
    run("    a = torch.tensor([1.0])\n    assert torch.allclose(a, torch.fft(a))\n", &c, &ok);
    CHECK(!ok);
    CHECK_CONTAINS(g_why, "torch.fft");
}

TEST(reader_statements) {
    run("    for i in range(3):\n        x = 1\n    y = foo(1)\n    helper()\n    print('x')\n    a, b = 1, 2\n"
        "    assert x.shape == (1,)\n", NULL, NULL);
    CHECK_EQ_INT(g_mb.n, 6);
    CHECK(g_mb.n == 6 && g_mb.stmts[0].kind == MS_SKIP && strstr(g_mb.stmts[0].why, "for"));
    CHECK(g_mb.n == 6 && g_mb.stmts[1].kind == MS_ASSIGN);
    CHECK(g_mb.n == 6 && g_mb.stmts[2].kind == MS_SKIP && strstr(g_mb.stmts[2].why, "module function 'helper'"));
    CHECK(g_mb.n == 6 && g_mb.stmts[3].kind == MS_SKIP && g_mb.stmts[3].why == NULL);     /* print */
    CHECK(g_mb.n == 6 && g_mb.stmts[4].kind == MS_SKIP && strstr(g_mb.stmts[4].why, "tuple"));
    CHECK(g_mb.n == 6 && g_mb.stmts[5].kind == MS_CHECK && g_mb.stmts[5].e == NULL);
}

int main(void) {
    diag_init(&g_diag);
    g_ir = ir_ctx_new(&g_diag);
    RUN(arith_broadcast);
    RUN(matmul_transpose);
    RUN(reductions_softmax);
    RUN(elementwise_cat_views);
    RUN(casts_and_constructors);
    RUN(checks);
    RUN(reader_statements);
    for (int i = 0; i < g_env.n; i++) tval_free(&g_env.vals[i]);
    front_main_block_free(&g_mb);
    ir_ctx_free(g_ir);
    diag_free(&g_diag);
    return test_summary();
}
