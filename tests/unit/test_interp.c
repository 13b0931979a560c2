/* test_interp — the reference interpreter on programs built with the IR builders: the tensor-level
 * matmul (bit-identical to a C reference), the tile level after AutoTileMatmulL0 and after
 * LowerPipelineLoops, an M/N grid of stores, and edge cases (If with return vars, zero-trip loop,
 * INT8, BF16, FP16 rounding, slices, atomic add, errors). */
#include "interp/interp.h"
#include "test.h"

#include <stdarg.h>
#include <string.h>

/* ---------------------------------------------------------------- builders */
static Type *tt(IrCtx *c, DType dt, int64_t r, int64_t k) { int64_t d[2] = { r, k }; return ir_tensor_type(c, dt, 2, d); }
static Expr *ituple2(IrCtx *c, int64_t x, int64_t y) { int64_t v[2] = { x, y }; return ir_int_tuple(c, v, 2); }
static Expr *cint(IrCtx *c, int64_t v) { return ir_const_int(c, v, DT_INDEX); }

static Expr *mkop(IrCtx *c, OpId op, int n, ...) {
    Expr *args[8];
    va_list ap;
    va_start(ap, n);
    for (int i = 0; i < n; i++) args[i] = va_arg(ap, Expr *);
    va_end(ap);
    return ir_call(c, op, args, n);
}

static Expr *ded(IrCtx *c, Expr *e) {
    bool ok = ir_deduce_call(c, e);
    CHECK_MSG(ok, "deduction of %s", ir_op_info(e->call.op)->name);
    return e;
}

static Expr *kw_mem(IrCtx *c, Expr *e, MemSpace m) { ir_attr_set(c, &e->call.kwargs, "target_memory", ir_av_mem(m)); return e; }
static Expr *kw_dt(IrCtx *c, Expr *e, const char *k, DType d) { ir_attr_set(c, &e->call.kwargs, k, ir_av_dtype(d)); return e; }

/* v = value; appended to body */
static Var *let(IrCtx *c, StmtList *body, const char *name, Expr *value) {
    Var *v = ir_var_new(c, name, value->type);
    ir_list_push(c, body, ir_assign(c, v, value));
    return v;
}

static void ret1(IrCtx *c, Function *f, StmtList *body, Var *v) {
    Expr *r = ir_ref(v);
    ir_list_push(c, body, ir_return(c, &r, 1));
    f->return_types = ARENA_ARRAY(c->arena, Type *, 1);
    f->return_types[0] = v->type;
    f->nreturns = 1;
}

static Var *param(IrCtx *c, Function *f, const char *name, Type *t, ParamDir d) {
    Var *v = ir_var_new(c, name, t);
    ir_func_add_param(c, f, v, d);
    return v;
}

/* ---------------------------------------------------------------- data */
static uint32_t lcg(uint32_t *s) { *s = *s * 1664525u + 1013904223u; return *s >> 8; }
static float rnd(uint32_t *s) { return (float)(lcg(s) % 2001) / 1000.0f - 1.0f; }

static uint16_t *rand_fp16(int64_t n, uint32_t seed) {
    uint16_t *p = malloc(sizeof(uint16_t) * (size_t)n);
    for (int64_t i = 0; i < n; i++) p[i] = f32_to_fp16(rnd(&seed));
    return p;
}

static InterpTensor tens(DType dt, int64_t r, int64_t k, void *data) {
    InterpTensor t = { .dtype = dt, .rank = 2, .shape = { r, k }, .data = data };
    return t;
}

/* C reference: fp16 inputs as float, float running sum with k ascending. */
static void ref_matmul_fp16(const uint16_t *a, const uint16_t *b, float *c, int M, int N, int K) {
    for (int i = 0; i < M; i++)
        for (int j = 0; j < N; j++) {
            float s = 0;
            for (int k = 0; k < K; k++) s += fp16_to_f32(a[i * K + k]) * fp16_to_f32(b[k * N + j]);
            c[i * N + j] = s;
        }
}

static double max_rel_err(const float *x, const float *ref, int64_t n) {
    double worst = 0;
    for (int64_t i = 0; i < n; i++) {
        double d = fabs((double)x[i] - ref[i]) / (fabs(ref[i]) > 1.0 ? fabs(ref[i]) : 1.0);
        if (d > worst) worst = d;
    }
    return worst;
}

/* ---------------------------------------------------------------- programs */
/* matmul(a, b, c: Out): with InCore scope: c2 = tensor.assemble(c, tensor.matmul(a, b, out_dtype), [0,0]) */
static Program *tensor_matmul_prog(IrCtx *c, DType in, DType out, int64_t M, int64_t N, int64_t K) {
    Function *f = ir_func_new(c, "matmul", FT_ORCHESTRATION);
    Var *a = param(c, f, "a", tt(c, in, M, K), PD_IN), *b = param(c, f, "b", tt(c, in, K, N), PD_IN);
    Var *cv = param(c, f, "c", tt(c, out, M, N), PD_OUT);
    Stmt *sc = ir_scope(c, SC_INCORE);
    Expr *mm = ded(c, kw_dt(c, mkop(c, OP_TENSOR_MATMUL, 2, ir_ref(a), ir_ref(b)), "out_dtype", out));
    Var *c2 = let(c, &sc->scope.body, "c2", ded(c, mkop(c, OP_TENSOR_ASSEMBLE, 3, ir_ref(cv), mm, ituple2(c, 0, 0))));
    ir_list_push(c, &f->body, sc);
    ret1(c, f, &f->body, c2);
    Program *p = ir_program_new(c, "matmul");
    ir_program_add(c, p, f);
    return p;
}

/* The K loop of one [m, n] output sub-tile at (mi, ni) of a_mat @ b_mat, `clones` bodies per trip
 * (1: after AutoTileMatmulL0; 2: after LowerPipelineLoops). Returns the loop's return var. */
static Var *k_loop(IrCtx *c, StmtList *body, Var *a_mat, Var *b_mat, int64_t mi, int64_t ni, int64_t m, int64_t n,
                   int64_t K, int64_t k, int clones) {
    int64_t shp[2] = { m, n };
    Expr *cr = ded(c, kw_mem(c, kw_dt(c, mkop(c, OP_TILE_CREATE, 1, ir_int_tuple(c, shp, 2)), "dtype", DT_FP32), MS_ACC));
    Var *init = let(c, body, "init", cr);
    Var *ko = ir_var_new(c, "ko", ir_scalar_type(c, DT_INDEX));
    Stmt *loop = ir_for(c, ko, cint(c, 0), cint(c, K), cint(c, k * clones), clones > 1 ? FK_PIPELINE : FK_PIPELINE);
    Var *c_iter = ir_iter_arg_new(c, "c_iter", init->type, ir_ref(init));
    ir_varlist_push(c, &loop->for_.iter_args, c_iter);
    Var *acc = c_iter;
    for (int j = 0; j < clones; j++) {
        Expr *kx = j ? ir_binary(c, BIN_ADD, ir_ref(ko), cint(c, j * k)) : ir_ref(ko);
        Expr *sa = ded(c, kw_mem(c, mkop(c, OP_TILE_EXTRACT, 4, ir_ref(a_mat), cint(c, mi), kx, ituple2(c, m, k)), MS_LEFT));
        Expr *sb = ded(c, kw_mem(c, mkop(c, OP_TILE_EXTRACT, 4, ir_ref(b_mat), kx, cint(c, ni), ituple2(c, k, n)), MS_RIGHT));
        Var *va = let(c, &loop->for_.body, "sa", sa), *vb = let(c, &loop->for_.body, "sb", sb);
        Expr *cond = ir_binary(c, BIN_EQ, kx, cint(c, 0));
        acc = let(c, &loop->for_.body, "acc", ded(c, mkop(c, OP_TILE_MATMUL_ACC, 4, ir_ref(acc), ir_ref(va), ir_ref(vb), cond)));
    }
    Expr *y = ir_ref(acc);
    ir_list_push(c, &loop->for_.body, ir_yield(c, &y, 1));
    Var *c_out = ir_var_new(c, "c_out", acc->type);
    ir_varlist_push(c, &loop->for_.return_vars, c_out);
    ir_list_push(c, body, loop);
    return c_out;
}

static Var *load(IrCtx *c, StmtList *body, const char *name, Var *t, int64_t r0, int64_t c0, int64_t r, int64_t k) {
    return let(c, body, name,
               ded(c, kw_mem(c, mkop(c, OP_TILE_LOAD, 4, ir_ref(t), ituple2(c, r0, c0), ituple2(c, r, k), ituple2(c, r, k)), MS_MAT)));
}

/* The tile-level program: an InCore kernel over an (M/m) x (N/n) grid of K loops, each stored into
 * the output chained in SSA; called from an Orchestration function. */
static Program *tile_matmul_prog(IrCtx *c, int64_t M, int64_t N, int64_t K, int64_t m, int64_t n, int64_t k, int clones) {
    Function *kf = ir_func_new(c, "matmul_incore", FT_INCORE);
    Var *a = param(c, kf, "a", tt(c, DT_FP16, M, K), PD_IN), *b = param(c, kf, "b", tt(c, DT_FP16, K, N), PD_IN);
    Var *out = param(c, kf, "c", tt(c, DT_FP32, M, N), PD_OUT);
    for (int64_t mi = 0; mi < M; mi += m) {
        Var *a_mat = load(c, &kf->body, "a_mat", a, mi, 0, m, K);
        for (int64_t ni = 0; ni < N; ni += n) {
            Var *b_mat = load(c, &kf->body, "b_mat", b, 0, ni, K, n);
            Var *c_out = k_loop(c, &kf->body, a_mat, b_mat, 0, 0, m, n, K, k, clones);
            out = let(c, &kf->body, "out_t", ded(c, mkop(c, OP_TILE_STORE, 3, ir_ref(c_out), ituple2(c, mi, ni), ir_ref(out))));
        }
    }
    ret1(c, kf, &kf->body, out);
    Function *of = ir_func_new(c, "matmul", FT_ORCHESTRATION);
    Var *oa = param(c, of, "a", tt(c, DT_FP16, M, K), PD_IN), *ob = param(c, of, "b", tt(c, DT_FP16, K, N), PD_IN);
    Var *oc = param(c, of, "c", tt(c, DT_FP32, M, N), PD_OUT);
    Expr *args[3] = { ir_ref(oa), ir_ref(ob), ir_ref(oc) };
    Var *r = let(c, &of->body, "c2", ir_call_fn(c, kf, args, 3));
    ret1(c, of, &of->body, r);
    Program *p = ir_program_new(c, "matmul");
    ir_program_add(c, p, kf);
    ir_program_add(c, p, of);
    return p;
}

/* Runs the tensor-level FP16 matmul and returns the FP32 result (malloc'd). */
static float *run_tensor_matmul(const uint16_t *a, const uint16_t *b, int64_t M, int64_t N, int64_t K) {
    DiagSink d;
    diag_init(&d);
    IrCtx *c = ir_ctx_new(&d);
    Program *p = tensor_matmul_prog(c, DT_FP16, DT_FP32, M, N, K);
    float *out = calloc((size_t)(M * N), sizeof(float));
    InterpTensor args[3] = { tens(DT_FP16, M, K, (void *)a), tens(DT_FP16, K, N, (void *)b), tens(DT_FP32, M, N, out) };
    CHECK(interp_run(p, NULL, args, 3, &d));
    CHECK_EQ_INT(d.nerrors, 0);
    ir_ctx_free(c);
    diag_free(&d);
    return out;
}

/* ---------------------------------------------------------------- tests */
TEST(test_tensor_matmul) {
    const int M = 128, N = 128, K = 512;
    uint16_t *a = rand_fp16(M * K, 1), *b = rand_fp16(K * N, 2);
    float *ref = malloc(sizeof(float) * M * N);
    ref_matmul_fp16(a, b, ref, M, N, K);
    double t0 = base_now_seconds();
    float *got = run_tensor_matmul(a, b, M, N, K);
    double dt = base_now_seconds() - t0;
    CHECK_MSG(memcmp(got, ref, sizeof(float) * M * N) == 0, "tensor-level matmul is not bit-identical to the C reference");
    CHECK_MSG(got[0] != 0 && got[M * N - 1] != 0, "result is populated");
    CHECK_MSG(dt < 0.5, "128x512 @ 512x128 took %.1f ms", dt * 1e3);
    printf("info: tensor-level 128x512x128 matmul interpreted in %.2f ms\n", dt * 1e3);
    free(a); free(b); free(ref); free(got);
}

static void check_tile_form(int64_t M, int64_t N, int64_t K, int64_t m, int64_t n, int64_t k, int clones) {
    uint16_t *a = rand_fp16(M * K, 3), *b = rand_fp16(K * N, 4);
    float *tref = run_tensor_matmul(a, b, M, N, K);
    DiagSink d;
    diag_init(&d);
    IrCtx *c = ir_ctx_new(&d);
    Program *p = tile_matmul_prog(c, M, N, K, m, n, k, clones);
    float *out = malloc(sizeof(float) * (size_t)(M * N));
    for (int64_t i = 0; i < M * N; i++) out[i] = 12345.0f;   /* every element must be overwritten */
    InterpTensor args[3] = { tens(DT_FP16, M, K, a), tens(DT_FP16, K, N, b), tens(DT_FP32, M, N, out) };
    CHECK(interp_run(p, NULL, args, 3, &d));
    CHECK_EQ_INT(d.nerrors, 0);
    double err = max_rel_err(out, tref, M * N);
    CHECK_MSG(err <= 1e-3, "tile form (M=%lld N=%lld K=%lld k=%lld clones=%d): max rel err %g", (long long)M,
              (long long)N, (long long)K, (long long)k, clones, err);
    printf("info: tile form M=%lld N=%lld K=%lld k=%lld clones=%d: max rel err vs tensor level %.3g\n", (long long)M,
           (long long)N, (long long)K, (long long)k, clones, err);
    /* the same grouping as the tensor level when k == K: bit-identical */
    if (k == K) CHECK(memcmp(out, tref, sizeof(float) * (size_t)(M * N)) == 0);
    /* one K block = one FP32 sum per block then an FP32 add: check element (5, 7) by hand */
    float s = 0;
    for (int64_t k0 = 0; k0 < K; k0 += k) {
        float blk = 0;
        for (int64_t kk = k0; kk < k0 + k; kk++) blk += fp16_to_f32(a[5 * K + kk]) * fp16_to_f32(b[kk * N + 7]);
        s = k0 == 0 ? blk : s + blk;
    }
    CHECK_MSG(out[5 * N + 7] == s, "blocked accumulation: got %.9g want %.9g", out[5 * N + 7], s);
    ir_ctx_free(c);
    diag_free(&d);
    free(a); free(b); free(tref); free(out);
}

TEST(test_tile_level_autotile) { check_tile_form(128, 128, 512, 128, 128, 128, 1); }
TEST(test_tile_level_pipelined) { check_tile_form(128, 128, 512, 128, 128, 128, 2); }
TEST(test_tile_level_full_k) { check_tile_form(128, 128, 256, 128, 128, 256, 1); }
TEST(test_mn_grid) { check_tile_form(256, 256, 256, 128, 128, 128, 1); }

/* ---------------------------------------------------------------- edge cases */
static Var *vload(IrCtx *c, StmtList *body, const char *name, Var *t, int64_t r0, int64_t c0, int64_t r, int64_t k) {
    return let(c, body, name,
               ded(c, kw_mem(c, mkop(c, OP_TILE_LOAD, 4, ir_ref(t), ituple2(c, r0, c0), ituple2(c, r, k), ituple2(c, r, k)), MS_VEC)));
}

static Program *one_func(IrCtx *c, Function *f) {
    Program *p = ir_program_new(c, f->name);
    ir_program_add(c, p, f);
    return p;
}

/* if ((flag - 4) // 3 == -1) and ((flag - 4) % 3 == 1): a[0:16, 0:16] else a[16:32, 16:32] */
static Program *if_prog(IrCtx *c) {
    Function *f = ir_func_new(c, "pick", FT_INCORE);
    Var *a = param(c, f, "a", tt(c, DT_FP32, 32, 32), PD_IN);
    Var *flag = param(c, f, "flag", ir_scalar_type(c, DT_INDEX), PD_IN);
    Var *out = param(c, f, "c", tt(c, DT_FP32, 16, 16), PD_OUT);
    Expr *d = ir_binary(c, BIN_SUB, ir_ref(flag), cint(c, 4));
    Expr *c1 = ir_binary(c, BIN_EQ, ir_binary(c, BIN_FLOORDIV, d, cint(c, 3)), cint(c, -1));
    Expr *c2 = ir_binary(c, BIN_EQ, ir_binary(c, BIN_FLOORMOD, d, cint(c, 3)), cint(c, 1));
    Stmt *s = ir_if(c, ir_binary(c, BIN_AND, c1, c2));
    s->if_.has_else = true;
    Var *x = vload(c, &s->if_.then_body, "x", a, 0, 0, 16, 16);
    Var *y = vload(c, &s->if_.else_body, "y", a, 16, 16, 16, 16);
    Expr *ex = ir_ref(x), *ey = ir_ref(y);
    ir_list_push(c, &s->if_.then_body, ir_yield(c, &ex, 1));
    ir_list_push(c, &s->if_.else_body, ir_yield(c, &ey, 1));
    Var *rv = ir_var_new(c, "rv", x->type);
    ir_varlist_push(c, &s->if_.return_vars, rv);
    ir_list_push(c, &f->body, s);
    Var *r = let(c, &f->body, "c2", ded(c, mkop(c, OP_TILE_STORE, 3, ir_ref(rv), ituple2(c, 0, 0), ir_ref(out))));
    ret1(c, f, &f->body, r);
    return one_func(c, f);
}

static float *iota_f32(int64_t n, float scale) {
    float *p = malloc(sizeof(float) * (size_t)n);
    for (int64_t i = 0; i < n; i++) p[i] = (float)i * scale;
    return p;
}

TEST(test_if_return_vars) {
    DiagSink d;
    diag_init(&d);
    IrCtx *c = ir_ctx_new(&d);
    Program *p = if_prog(c);
    float *a = iota_f32(32 * 32, 1.0f), out[256];
    int64_t flags[3] = { 2, 1, 5 };
    bool then_taken[3] = { true, false, false };   /* Python floor semantics; C truncation would differ */
    for (int t = 0; t < 3; t++) {
        InterpTensor args[3] = { tens(DT_FP32, 32, 32, a), { .dtype = DT_INDEX, .rank = 0, .data = &flags[t] },
                                 tens(DT_FP32, 16, 16, out) };
        CHECK(interp_run(p, NULL, args, 3, &d));
        int64_t o = then_taken[t] ? 0 : 16;
        CHECK_MSG(out[0] == a[o * 32 + o] && out[15 * 16 + 15] == a[(o + 15) * 32 + o + 15],
                  "flag %lld: branch result", (long long)flags[t]);
    }
    CHECK_EQ_INT(d.nerrors, 0);
    free(a);
    ir_ctx_free(c);
    diag_free(&d);
}

/* for i in range(start, stop): acc = tile.matmul_acc(acc, t, t); store acc */
static Program *loop_prog(IrCtx *c, int64_t start, int64_t stop) {
    Function *f = ir_func_new(c, "loop", FT_INCORE);
    Var *a = param(c, f, "a", tt(c, DT_FP32, 16, 16), PD_IN);
    Var *out = param(c, f, "c", tt(c, DT_FP32, 16, 16), PD_OUT);
    Var *t = vload(c, &f->body, "t", a, 0, 0, 16, 16);
    Var *i = ir_var_new(c, "i", ir_scalar_type(c, DT_INDEX));
    Stmt *loop = ir_for(c, i, cint(c, start), cint(c, stop), cint(c, 1), FK_SEQUENTIAL);
    Var *it = ir_iter_arg_new(c, "acc_iter", t->type, ir_ref(t));
    ir_varlist_push(c, &loop->for_.iter_args, it);
    Var *m = let(c, &loop->for_.body, "m", ded(c, mkop(c, OP_TILE_MATMUL_ACC, 3, ir_ref(it), ir_ref(t), ir_ref(t))));
    Expr *y = ir_ref(m);
    ir_list_push(c, &loop->for_.body, ir_yield(c, &y, 1));
    Var *rv = ir_var_new(c, "rv", m->type);
    ir_varlist_push(c, &loop->for_.return_vars, rv);
    ir_list_push(c, &f->body, loop);
    Var *r = let(c, &f->body, "c2", ded(c, mkop(c, OP_TILE_STORE, 3, ir_ref(rv), ituple2(c, 0, 0), ir_ref(out))));
    ret1(c, f, &f->body, r);
    return one_func(c, f);
}

TEST(test_zero_trip_loop) {
    DiagSink d;
    diag_init(&d);
    IrCtx *c = ir_ctx_new(&d);
    float *a = iota_f32(256, 0.01f), out[256];
    /* zero trips (and a reversed range): the return var is the init */
    int64_t ranges[2][2] = { { 0, 0 }, { 5, 2 } };
    for (int r = 0; r < 2; r++) {
        Program *p = loop_prog(c, ranges[r][0], ranges[r][1]);
        InterpTensor args[2] = { tens(DT_FP32, 16, 16, a), tens(DT_FP32, 16, 16, out) };
        memset(out, 0, sizeof out);
        CHECK(interp_run(p, NULL, args, 2, &d));
        CHECK(memcmp(out, a, sizeof out) == 0);
    }
    /* one trip: a + a @ a (the tile load is the accumulator seed, updated in place) */
    Program *p = loop_prog(c, 0, 1);
    InterpTensor args[2] = { tens(DT_FP32, 16, 16, a), tens(DT_FP32, 16, 16, out) };
    CHECK(interp_run(p, NULL, args, 2, &d));
    double s = 0;
    for (int k = 0; k < 16; k++) s += (double)a[2 * 16 + k] * a[k * 16 + 3];
    CHECK_NEAR(out[2 * 16 + 3], a[2 * 16 + 3] + s, 1e-3);
    CHECK_EQ_INT(d.nerrors, 0);
    free(a);
    ir_ctx_free(c);
    diag_free(&d);
}

TEST(test_int8_matmul) {
    const int M = 32, N = 16, K = 64;
    int8_t a[32 * 64], b[64 * 16];
    int32_t out[32 * 16];
    uint32_t s = 7;
    for (int i = 0; i < M * K; i++) a[i] = (int8_t)(lcg(&s) % 256 - 128);
    for (int i = 0; i < K * N; i++) b[i] = (int8_t)(lcg(&s) % 256 - 128);
    DiagSink d;
    diag_init(&d);
    IrCtx *c = ir_ctx_new(&d);
    Program *p = tensor_matmul_prog(c, DT_INT8, DT_INT32, M, N, K);
    InterpTensor args[3] = { tens(DT_INT8, M, K, a), tens(DT_INT8, K, N, b), tens(DT_INT32, M, N, out) };
    CHECK(interp_run(p, NULL, args, 3, &d));
    int bad = 0;
    for (int i = 0; i < M; i++)
        for (int j = 0; j < N; j++) {
            int32_t r = 0;
            for (int k = 0; k < K; k++) r += a[i * K + k] * b[k * N + j];
            bad += out[i * N + j] != r;
        }
    CHECK_EQ_INT(bad, 0);
    CHECK(out[0] != 0);
    ir_ctx_free(c);
    diag_free(&d);
}

/* BF16 -> FP32 (bit-exact vs float accumulation) and FP16 -> FP16 (rounded half to even). */
TEST(test_bf16_and_fp16_out) {
    const int M = 16, N = 32, K = 48;
    uint16_t a[16 * 48], b[48 * 32], h[16 * 32];
    float f[16 * 32];
    uint32_t s = 11;
    for (int i = 0; i < M * K; i++) a[i] = f32_to_bf16(rnd(&s));
    for (int i = 0; i < K * N; i++) b[i] = f32_to_bf16(rnd(&s));
    DiagSink d;
    diag_init(&d);
    IrCtx *c = ir_ctx_new(&d);
    Program *p = tensor_matmul_prog(c, DT_BF16, DT_FP32, M, N, K);
    InterpTensor args[3] = { tens(DT_BF16, M, K, a), tens(DT_BF16, K, N, b), tens(DT_FP32, M, N, f) };
    CHECK(interp_run(p, NULL, args, 3, &d));
    int bad = 0;
    for (int i = 0; i < M; i++)
        for (int j = 0; j < N; j++) {
            float r = 0;
            for (int k = 0; k < K; k++) r += bf16_to_f32(a[i * K + k]) * bf16_to_f32(b[k * N + j]);
            bad += memcmp(&r, &f[i * N + j], 4) != 0;
        }
    CHECK_EQ_INT(bad, 0);
    /* FP16 operands, FP16 result: the FP32 sum rounded once */
    for (int i = 0; i < M * K; i++) a[i] = f32_to_fp16(rnd(&s));
    for (int i = 0; i < K * N; i++) b[i] = f32_to_fp16(rnd(&s));
    p = tensor_matmul_prog(c, DT_FP16, DT_FP16, M, N, K);
    InterpTensor args2[3] = { tens(DT_FP16, M, K, a), tens(DT_FP16, K, N, b), tens(DT_FP16, M, N, h) };
    CHECK(interp_run(p, NULL, args2, 3, &d));
    bad = 0;
    int inexact = 0;
    for (int i = 0; i < M; i++)
        for (int j = 0; j < N; j++) {
            float r = 0;
            for (int k = 0; k < K; k++) r += fp16_to_f32(a[i * K + k]) * fp16_to_f32(b[k * N + j]);
            bad += h[i * N + j] != f32_to_fp16(r);
            inexact += fp16_to_f32(f32_to_fp16(r)) != r;
        }
    CHECK_EQ_INT(bad, 0);
    CHECK_MSG(inexact > 0, "the test exercises FP16 rounding");
    CHECK_EQ_INT(d.nerrors, 0);
    ir_ctx_free(c);
    diag_free(&d);
}

/* c2 = tensor.assemble(c, tensor.slice(a, [16, 32], [r0, c0]), [0, 0]) */
static Program *slice_prog(IrCtx *c, int64_t r0, int64_t c0) {
    Function *f = ir_func_new(c, "sl", FT_ORCHESTRATION);
    Var *a = param(c, f, "a", tt(c, DT_FP32, 32, 64), PD_IN);
    Var *out = param(c, f, "c", tt(c, DT_FP32, 16, 32), PD_OUT);
    Expr *s = ded(c, mkop(c, OP_TENSOR_SLICE, 3, ir_ref(a), ituple2(c, 16, 32), ituple2(c, r0, c0)));
    s->span = (Span){ NULL, 7, 9, 5 };
    Var *r = let(c, &f->body, "c2", ded(c, mkop(c, OP_TENSOR_ASSEMBLE, 3, ir_ref(out), s, ituple2(c, 0, 0))));
    ret1(c, f, &f->body, r);
    return one_func(c, f);
}

TEST(test_slice_windows) {
    DiagSink d;
    diag_init(&d);
    IrCtx *c = ir_ctx_new(&d);
    float *a = iota_f32(32 * 64, 1.0f), out[16 * 32];
    InterpTensor args[2] = { tens(DT_FP32, 32, 64, a), tens(DT_FP32, 16, 32, out) };
    CHECK(interp_run(slice_prog(c, 8, 16), NULL, args, 2, &d));
    CHECK_EQ_INT((int)out[0], 8 * 64 + 16);
    CHECK_EQ_INT((int)out[15 * 32 + 31], 23 * 64 + 47);
    CHECK_EQ_INT((int)out[3 * 32 + 5], 11 * 64 + 21);
    CHECK_EQ_INT(d.nerrors, 0);
    /* a window leaving the tensor is an error at the slice's span */
    CHECK(!interp_run(slice_prog(c, 20, 40), NULL, args, 2, &d));
    CHECK_EQ_INT(d.nerrors, 1);
    if (d.items.len) {
        CHECK_CONTAINS(d.items.data[0].msg, "tensor.slice: window of extent 16 at offset 20 leaves the input [32, 64] FP32 in dim 0");
        CHECK_EQ_INT(d.items.data[0].span.line, 7);
    }
    free(a);
    ir_ctx_free(c);
    diag_free(&d);
}

/* c2 = tensor.assemble(c, x, [4, 4], atomic=Add); t = tile.load(x); c3 = tile.store(t, [8, 8], c2, atomic=1) */
TEST(test_atomic_add) {
    DiagSink d;
    diag_init(&d);
    IrCtx *c = ir_ctx_new(&d);
    Function *f = ir_func_new(c, "acc", FT_INCORE);
    Var *x = param(c, f, "x", tt(c, DT_FP32, 8, 8), PD_IN);
    Var *out = param(c, f, "c", tt(c, DT_FP32, 16, 16), PD_INOUT);
    Expr *as = mkop(c, OP_TENSOR_ASSEMBLE, 3, ir_ref(out), ir_ref(x), ituple2(c, 4, 4));
    ir_attr_set(c, &as->call.kwargs, "atomic", ir_av_enum("pl.AtomicType.Add"));
    Var *c2 = let(c, &f->body, "c2", ded(c, as));
    Var *t = vload(c, &f->body, "t", x, 0, 0, 8, 8);
    Expr *st = mkop(c, OP_TILE_STORE, 3, ir_ref(t), ituple2(c, 8, 8), ir_ref(c2));
    ir_attr_set(c, &st->call.kwargs, "atomic", ir_av_int(1));
    Var *c3 = let(c, &f->body, "c3", ded(c, st));
    ret1(c, f, &f->body, c3);
    Program *p = one_func(c, f);
    float *xv = iota_f32(64, 1.0f), cv[256];
    for (int i = 0; i < 256; i++) cv[i] = 1.0f;
    InterpTensor args[2] = { tens(DT_FP32, 8, 8, xv), tens(DT_FP32, 16, 16, cv) };
    CHECK(interp_run(p, NULL, args, 2, &d));
    CHECK_EQ_INT((int)cv[0], 1);                         /* untouched */
    CHECK_EQ_INT((int)cv[4 * 16 + 4], 1 + 0);            /* x[0][0] = 0 */
    CHECK_EQ_INT((int)cv[5 * 16 + 6], 1 + 10);           /* x[1][2] */
    CHECK_EQ_INT((int)cv[9 * 16 + 9], 1 + 45 + 9);       /* both: x[5][5] + x[1][1] */
    CHECK_EQ_INT((int)cv[15 * 16 + 15], 1 + 63);         /* store only: x[7][7] */
    CHECK_EQ_INT(d.nerrors, 0);
    free(xv);
    ir_ctx_free(c);
    diag_free(&d);
}

/* for ko in range(0, 512, 128): sa = tile.extract(a_mat, 0, ko, [128, 256]) -> leaves a_mat at ko = 384 */
TEST(test_extract_out_of_range) {
    DiagSink d;
    diag_init(&d);
    IrCtx *c = ir_ctx_new(&d);
    Function *f = ir_func_new(c, "bad", FT_INCORE);
    Var *a = param(c, f, "a", tt(c, DT_FP16, 128, 512), PD_IN);
    Var *a_mat = load(c, &f->body, "a_mat", a, 0, 0, 128, 512);
    Var *ko = ir_var_new(c, "ko", ir_scalar_type(c, DT_INDEX));
    Stmt *loop = ir_for(c, ko, cint(c, 0), cint(c, 512), cint(c, 128), FK_SEQUENTIAL);
    Expr *ex = ded(c, kw_mem(c, mkop(c, OP_TILE_EXTRACT, 4, ir_ref(a_mat), cint(c, 0), ir_ref(ko), ituple2(c, 128, 256)), MS_LEFT));
    ex->span = (Span){ NULL, 12, 14, 12 };
    let(c, &loop->for_.body, "sa", ex);
    ir_list_push(c, &f->body, loop);
    Program *p = one_func(c, f);
    uint16_t *av = rand_fp16(128 * 512, 5);
    InterpTensor args[1] = { tens(DT_FP16, 128, 512, av) };
    CHECK(!interp_run(p, NULL, args, 1, &d));
    CHECK_EQ_INT(d.nerrors, 1);
    if (d.items.len) {
        CHECK_CONTAINS(d.items.data[0].msg, "tile.extract: window of extent 256 at offset 384 leaves the source [128, 512] FP16 in dim 1");
        CHECK_EQ_INT(d.items.data[0].span.line, 12);
    }
    free(av);
    ir_ctx_free(c);
    diag_free(&d);
}

TEST(test_entry_and_argument_errors) {
    DiagSink d;
    diag_init(&d);
    IrCtx *c = ir_ctx_new(&d);
    Program *p = tensor_matmul_prog(c, DT_FP16, DT_FP32, 16, 16, 32);
    uint16_t a[16 * 32] = {0}, b[32 * 16] = {0};
    float out[256];
    InterpTensor args[3] = { tens(DT_FP16, 16, 32, a), tens(DT_FP16, 32, 16, b), tens(DT_FP32, 16, 16, out) };
    CHECK(!interp_run(p, "nope", args, 3, &d));
    CHECK(d.items.len == 1 && strstr(d.items.data[0].msg, "entry function 'nope' not found"));
    CHECK(!interp_run(p, "matmul", args, 2, &d));
    CHECK(d.items.len == 2 && strstr(d.items.data[1].msg, "'matmul' takes 3 arguments, got 2"));
    args[1].shape[0] = 16;
    CHECK(!interp_run(p, NULL, args, 3, &d));
    CHECK(d.items.len == 3 && strstr(d.items.data[2].msg, "argument 1 ('b'): dim 0 is 16, expected 32"));
    args[1].shape[0] = 32;
    args[0].dtype = DT_FP32;
    CHECK(!interp_run(p, NULL, args, 3, &d));
    CHECK(d.items.len == 4 && strstr(d.items.data[3].msg, "expected rank 2 FP16, got rank 2 FP32"));
    args[0].dtype = DT_FP16;
    CHECK(interp_run(p, "matmul", args, 3, &d));
    CHECK_EQ_INT(out[0], 0);
    CHECK_EQ_INT(d.nerrors, 4);
    ir_ctx_free(c);
    diag_free(&d);
}

int main(void) {
    RUN(test_tensor_matmul);
    RUN(test_tile_level_autotile);
    RUN(test_tile_level_pipelined);
    RUN(test_tile_level_full_k);
    RUN(test_mn_grid);
    RUN(test_if_return_vars);
    RUN(test_zero_trip_loop);
    RUN(test_int8_matmul);
    RUN(test_bf16_and_fp16_out);
    RUN(test_slice_windows);
    RUN(test_atomic_add);
    RUN(test_extract_out_of_range);
    RUN(test_entry_and_argument_errors);
    return test_summary();
}
