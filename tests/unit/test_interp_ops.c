/* test_interp_ops — interpreter op semantics beyond the matmul pipeline: matmul_bias, transposed and
 * accumulating tensor matmuls, tile.assemble, set_validshape, load zero-fill, tuple returns,
 * while loops, dynamic dims, SPMD scopes, and scalar/op errors. */
#include "interp/interp.h"
#include "interp/interp_internal.h"
#include "test.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* ---------------------------------------------------------------- builders (as in test_interp.c) */
static Type *tt(IrCtx *c, DType dt, int64_t r, int64_t k) { int64_t d[2] = { r, k }; return ir_tensor_type(c, dt, 2, d); }
static Expr *it2(IrCtx *c, int64_t x, int64_t y) { int64_t v[2] = { x, y }; return ir_int_tuple(c, v, 2); }
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
    CHECK_MSG(ok, "deduction of %s: %s", ir_op_info(e->call.op)->name, c->diag && c->diag->items.len ? c->diag->items.data[c->diag->items.len - 1].msg : "");
    return e;
}

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

/* tile.load(t, [r0, c0], [r, k], [vr, vk], target_memory=sp) */
static Var *load(IrCtx *c, StmtList *b, const char *name, Var *t, Expr *off, int64_t r, int64_t k, int64_t vr, int64_t vk, MemSpace sp) {
    Expr *e = mkop(c, OP_TILE_LOAD, 4, ir_ref(t), off, it2(c, r, k), it2(c, vr, vk));
    ir_attr_set(c, &e->call.kwargs, "target_memory", ir_av_mem(sp));
    return let(c, b, name, ded(c, e));
}

static Var *store(IrCtx *c, StmtList *b, Var *tile, int64_t r0, int64_t c0, Var *out) {
    return let(c, b, "o", ded(c, mkop(c, OP_TILE_STORE, 3, ir_ref(tile), it2(c, r0, c0), ir_ref(out))));
}

static Program *prog1(IrCtx *c, Function *f) {
    Program *p = ir_program_new(c, f->name);
    ir_program_add(c, p, f);
    return p;
}

static InterpTensor tens(DType dt, int64_t r, int64_t k, void *data) {
    InterpTensor t = { .dtype = dt, .rank = 2, .shape = { r, k }, .data = data };
    return t;
}

static void fill(float *p, int n, float scale, float bias) { for (int i = 0; i < n; i++) p[i] = (float)((i * 7) % 13) * scale + bias; }

typedef struct { DiagSink d; IrCtx *c; } Env;
static void env_open(Env *e) { diag_init(&e->d); e->c = ir_ctx_new(&e->d); }
static void env_close(Env *e) { ir_ctx_free(e->c); diag_free(&e->d); }
static const char *first_msg(const Env *e) { return e->d.items.len ? e->d.items.data[0].msg : ""; }

/* ---------------------------------------------------------------- tests */
/* assemble(c, matmul(a, b), off) is computed into c by row bands (interp_ops.c, fused_assemble):
 * bit-identical to the unfused form (t = matmul; assemble(c, t, off)) — mode 0: transposed A, atomic
 * add into an offset window, a ragged last band (300 rows against 128-row bands of an 8192-column FP32
 * product); mode 1: when the target is an operand (c = c @ b, an FP16 product), the whole product is
 * formed before c changes; mode 2: plain A read in place and whole rows of c written in place (rows
 * 10.. of a [320, 8192] target, ragged bands again). */
static Program *mm_into(IrCtx *c, bool fused, int mode, int64_t M, int64_t N, int64_t K, int64_t R, int64_t C) {
    bool alias = mode == 1, trans = mode == 0;
    Function *f = ir_func_new(c, fused ? "fused" : "unfused", FT_ORCHESTRATION);
    Var *a = param(c, f, "a", trans ? tt(c, DT_FP16, K, M) : tt(c, DT_FP16, M, K), PD_IN);
    Var *b = alias ? NULL : param(c, f, "b", tt(c, DT_FP16, K, N), PD_IN);
    Var *out = param(c, f, "c", tt(c, alias ? DT_FP16 : DT_FP32, R, C), PD_INOUT);
    Expr *m = mkop(c, OP_TENSOR_MATMUL, 2, ir_ref(a), ir_ref(alias ? out : b));
    if (trans) ir_attr_set(c, &m->call.kwargs, "a_trans", ir_av_bool(true));
    ir_attr_set(c, &m->call.kwargs, "out_dtype", ir_av_dtype(alias ? DT_FP16 : DT_FP32));
    ded(c, m);
    Expr *src = fused ? m : ir_ref(let(c, &f->body, "t", m));
    Expr *asm_ = mkop(c, OP_TENSOR_ASSEMBLE, 3, ir_ref(out), src, alias ? it2(c, 0, 0) : it2(c, 10, trans ? 5 : 0));
    if (trans) ir_attr_set(c, &asm_->call.kwargs, "atomic", ir_av_int(1));
    ret1(c, f, &f->body, let(c, &f->body, "c2", ded(c, asm_)));
    return prog1(c, f);
}

TEST(test_assemble_matmul_bands) {
    for (int mode = 0; mode < 3; mode++) {
        bool alias = mode == 1;
        /* alias: c [40, 65536] FP16 = a [40, 40] @ c, in 32-row bands were it not an operand */
        int64_t M = alias ? 40 : 300, N = alias ? 65536 : 8192, K = alias ? 40 : 8, R = alias ? 40 : 320,
                C = alias ? 65536 : mode == 0 ? 8200 : 8192;
        size_t ab = (size_t)(K * M), bb = alias ? 1 : (size_t)(K * N), cb = (size_t)(R * C) * (alias ? 2 : 4);
        uint16_t *av = malloc(2 * ab), *bv = malloc(2 * bb);
        unsigned char *c1 = malloc(cb), *c2 = malloc(cb);
        for (size_t i = 0; i < ab; i++) av[i] = f32_to_fp16((float)((i * 7) % 23) * 0.125f - 1.375f);
        for (size_t i = 0; i < bb; i++) bv[i] = f32_to_fp16((float)((i * 5) % 19) * 0.0625f - 0.5625f);
        for (size_t i = 0; i < cb / 2; i++) {   /* c's initial values: small numbers */
            uint16_t h = f32_to_fp16((float)(i % 11) * 0.25f - 1.0f);
            if (alias) memcpy(c1 + 2 * i, &h, 2);
            else if (i % 2 == 0) { float x = fp16_to_f32(h); memcpy(c1 + 2 * i, &x, 4); }
        }
        memcpy(c2, c1, cb);
        unsigned char *outs[2] = { c1, c2 };
        for (int fused = 0; fused < 2; fused++) {
            Env e;
            env_open(&e);
            InterpTensor args[3];
            int n = 0;
            args[n++] = mode == 0 ? tens(DT_FP16, K, M, av) : tens(DT_FP16, M, K, av);
            if (!alias) args[n++] = tens(DT_FP16, K, N, bv);
            args[n++] = tens(alias ? DT_FP16 : DT_FP32, R, C, outs[fused]);
            CHECK(interp_run(mm_into(e.c, fused, mode, M, N, K, R, C), NULL, args, n, &e.d));
            CHECK_EQ_INT(e.d.nerrors, 0);
            env_close(&e);
        }
        CHECK_MSG(memcmp(c1, c2, cb) == 0, "mode %d: the banded product differs from the unfused one", mode);
        if (mode == 2) {   /* and it is the product: c[10 + i][j] = sum_k a[i][k] b[k][j], exact in float here */
            int bad = 0;
            for (int64_t i = 0; i < M; i += 37)
                for (int64_t j = 0; j < N; j += 101) {
                    float want = 0;
                    for (int64_t k = 0; k < K; k++) want += fp16_to_f32(av[i * K + k]) * fp16_to_f32(bv[k * N + j]);
                    float got;
                    memcpy(&got, c2 + 4 * (size_t)((10 + i) * C + j), 4);
                    bad += got != want;
                }
            CHECK_EQ_INT(bad, 0);
        }
        free(av); free(bv); free(c1); free(c2);
    }
}

/* y = tile.matmul_bias(x, w, bias): x [16,32] FP16, w [32,16] FP16, bias [1,16] FP32 */
TEST(test_matmul_bias) {
    Env e;
    env_open(&e);
    IrCtx *c = e.c;
    Function *f = ir_func_new(c, "mb", FT_INCORE);
    Var *x = param(c, f, "x", tt(c, DT_FP16, 16, 32), PD_IN), *w = param(c, f, "w", tt(c, DT_FP16, 32, 16), PD_IN);
    Var *bias = param(c, f, "bias", tt(c, DT_FP32, 1, 16), PD_IN), *out = param(c, f, "c", tt(c, DT_FP32, 16, 16), PD_OUT);
    Var *tx = load(c, &f->body, "tx", x, it2(c, 0, 0), 16, 32, 16, 32, MS_MAT);
    Var *tw = load(c, &f->body, "tw", w, it2(c, 0, 0), 32, 16, 32, 16, MS_MAT);
    Var *tb = load(c, &f->body, "tb", bias, it2(c, 0, 0), 1, 16, 1, 16, MS_BIAS);
    Var *y = let(c, &f->body, "y", ded(c, mkop(c, OP_TILE_MATMUL_BIAS, 3, ir_ref(tx), ir_ref(tw), ir_ref(tb))));
    ret1(c, f, &f->body, store(c, &f->body, y, 0, 0, out));
    uint16_t xv[16 * 32], wv[32 * 16];
    float bv[16], ov[256];
    for (int i = 0; i < 512; i++) { xv[i] = f32_to_fp16((float)(i % 9) * 0.125f - 0.5f); wv[i] = f32_to_fp16((float)(i % 5) * 0.25f - 0.5f); }
    fill(bv, 16, 0.5f, -3.0f);
    InterpTensor args[4] = { tens(DT_FP16, 16, 32, xv), tens(DT_FP16, 32, 16, wv), tens(DT_FP32, 1, 16, bv), tens(DT_FP32, 16, 16, ov) };
    CHECK(interp_run(prog1(c, f), NULL, args, 4, &e.d));
    int bad = 0;
    for (int i = 0; i < 16; i++)
        for (int j = 0; j < 16; j++) {
            float s = 0;
            for (int k = 0; k < 32; k++) s += fp16_to_f32(xv[i * 32 + k]) * fp16_to_f32(wv[k * 16 + j]);
            s = s + bv[j];
            bad += ov[i * 16 + j] != s;
        }
    CHECK_EQ_INT(bad, 0);
    CHECK_EQ_INT(e.d.nerrors, 0);
    env_close(&e);
}

/* c2 = tensor.matmul_acc(c, a, b, b_trans=True, init_cond=False): c + a @ b^T, in place */
TEST(test_tensor_matmul_acc_trans) {
    Env e;
    env_open(&e);
    IrCtx *c = e.c;
    Function *f = ir_func_new(c, "acc", FT_ORCHESTRATION);
    Var *a = param(c, f, "a", tt(c, DT_FP32, 8, 24), PD_IN), *b = param(c, f, "b", tt(c, DT_FP32, 12, 24), PD_IN);
    Var *out = param(c, f, "c", tt(c, DT_FP32, 8, 12), PD_INOUT);
    Expr *m = mkop(c, OP_TENSOR_MATMUL_ACC, 3, ir_ref(out), ir_ref(a), ir_ref(b));
    ir_attr_set(c, &m->call.kwargs, "b_trans", ir_av_bool(true));
    ir_attr_set(c, &m->call.kwargs, "init_cond", ir_av_bool(false));
    ret1(c, f, &f->body, let(c, &f->body, "c2", ded(c, m)));
    float av[8 * 24], bv[12 * 24], cv[8 * 12], c0[8 * 12];
    fill(av, 8 * 24, 0.1f, -0.6f);
    fill(bv, 12 * 24, 0.3f, -1.0f);
    fill(cv, 8 * 12, 1.5f, 0.25f);
    memcpy(c0, cv, sizeof cv);
    InterpTensor args[3] = { tens(DT_FP32, 8, 24, av), tens(DT_FP32, 12, 24, bv), tens(DT_FP32, 8, 12, cv) };
    CHECK(interp_run(prog1(c, f), NULL, args, 3, &e.d));
    double worst = 0;
    for (int i = 0; i < 8; i++)
        for (int j = 0; j < 12; j++) {
            double s = c0[i * 12 + j];
            for (int k = 0; k < 24; k++) s += (double)av[i * 24 + k] * bv[j * 24 + k];
            worst = fmax(worst, fabs(s - cv[i * 12 + j]));
        }
    CHECK_MSG(worst < 1e-4, "max abs err %g", worst);
    CHECK_EQ_INT(e.d.nerrors, 0);
    env_close(&e);
}

/* t = tile.create([32, 32]); t = assemble(t, x, [0, 0]); t = assemble(t, y, [16, 16]); store */
TEST(test_tile_assemble) {
    Env e;
    env_open(&e);
    IrCtx *c = e.c;
    Function *f = ir_func_new(c, "asm", FT_INCORE);
    Var *a = param(c, f, "a", tt(c, DT_FP32, 32, 32), PD_IN), *out = param(c, f, "c", tt(c, DT_FP32, 32, 32), PD_OUT);
    Expr *cr = mkop(c, OP_TILE_CREATE, 1, it2(c, 32, 32));
    ir_attr_set(c, &cr->call.kwargs, "dtype", ir_av_dtype(DT_FP32));
    Var *t = let(c, &f->body, "t", ded(c, cr));
    Var *x = load(c, &f->body, "x", a, it2(c, 16, 16), 16, 16, 16, 16, MS_VEC);
    Var *y = load(c, &f->body, "y", a, it2(c, 0, 0), 16, 16, 16, 16, MS_VEC);
    Var *t1 = let(c, &f->body, "t1", ded(c, mkop(c, OP_TILE_ASSEMBLE, 3, ir_ref(t), ir_ref(x), it2(c, 0, 0))));
    Var *t2 = let(c, &f->body, "t2", ded(c, mkop(c, OP_TILE_ASSEMBLE, 3, ir_ref(t1), ir_ref(y), it2(c, 16, 16))));
    ret1(c, f, &f->body, store(c, &f->body, t2, 0, 0, out));
    float av[1024], ov[1024];
    fill(av, 1024, 1.0f, 1.0f);
    InterpTensor args[2] = { tens(DT_FP32, 32, 32, av), tens(DT_FP32, 32, 32, ov) };
    CHECK(interp_run(prog1(c, f), NULL, args, 2, &e.d));
    CHECK(ov[0] == av[16 * 32 + 16] && ov[15 * 32 + 15] == av[31 * 32 + 31]);   /* swapped quadrants */
    CHECK(ov[16 * 32 + 16] == av[0] && ov[31 * 32 + 31] == av[15 * 32 + 15]);
    CHECK(ov[0 * 32 + 16] == 0 && ov[16 * 32 + 0] == 0);                         /* created zeros */
    CHECK_EQ_INT(e.d.nerrors, 0);
    env_close(&e);
}

/* store of a set_validshape-narrowed tile writes only the valid region; a load with a narrow valid
 * shape or past the tensor's end zero-fills (observed through a matmul with an all-ones tile). */
TEST(test_valid_shapes) {
    Env e;
    env_open(&e);
    IrCtx *c = e.c;
    Function *f = ir_func_new(c, "vs", FT_INCORE);
    Var *a = param(c, f, "a", tt(c, DT_FP32, 8, 8), PD_IN), *out = param(c, f, "c", tt(c, DT_FP32, 8, 8), PD_INOUT);
    Var *o2 = param(c, f, "d", tt(c, DT_FP32, 8, 8), PD_OUT);
    Var *t = load(c, &f->body, "t", a, it2(c, 0, 0), 8, 8, 8, 8, MS_VEC);
    Var *tv = let(c, &f->body, "tv", ded(c, mkop(c, OP_TILE_SET_VALIDSHAPE, 3, ir_ref(t), cint(c, 3), cint(c, 5))));
    store(c, &f->body, tv, 0, 0, out);
    Var *narrow = load(c, &f->body, "n", a, it2(c, 4, 0), 8, 8, 2, 8, MS_MAT);   /* rows 2..7 zero */
    Var *ones = load(c, &f->body, "ones", a, it2(c, 0, 0), 8, 8, 8, 8, MS_MAT);
    Var *past = load(c, &f->body, "p", a, it2(c, 6, 0), 8, 8, 8, 8, MS_MAT);     /* rows 2..7 past the end */
    Var *m1 = let(c, &f->body, "m1", ded(c, mkop(c, OP_TILE_MATMUL, 2, ir_ref(narrow), ir_ref(ones))));
    Var *m2 = let(c, &f->body, "m2", ded(c, mkop(c, OP_TILE_MATMUL_ACC, 3, ir_ref(m1), ir_ref(past), ir_ref(ones))));
    ret1(c, f, &f->body, store(c, &f->body, m2, 0, 0, o2));
    float av[64], cv[64], dv[64];
    for (int i = 0; i < 64; i++) { av[i] = 1.0f; cv[i] = -1.0f; }
    InterpTensor args[3] = { tens(DT_FP32, 8, 8, av), tens(DT_FP32, 8, 8, cv), tens(DT_FP32, 8, 8, dv) };
    CHECK(interp_run(prog1(c, f), NULL, args, 3, &e.d));
    CHECK(cv[0] == 1 && cv[2 * 8 + 4] == 1);       /* inside [3, 5] */
    CHECK(cv[3 * 8 + 0] == -1 && cv[0 * 8 + 5] == -1);
    CHECK_EQ_INT((int)dv[0], 16);                   /* 8 (narrow row 0) + 8 (past row 0) */
    CHECK_EQ_INT((int)dv[1 * 8 + 7], 16);
    CHECK_EQ_INT((int)dv[2 * 8 + 0], 0);            /* zero-filled rows contribute nothing */
    CHECK_EQ_INT((int)dv[7 * 8 + 7], 0);
    CHECK_EQ_INT(e.d.nerrors, 0);
    env_close(&e);
}

/* kernel(a, c, d) -> (c2, d2); orchestration: r = kernel(a, c, d); x = r[0]; y = r[1]; return x */
TEST(test_tuple_return) {
    Env e;
    env_open(&e);
    IrCtx *c = e.c;
    Function *k = ir_func_new(c, "kernel", FT_INCORE);
    Var *a = param(c, k, "a", tt(c, DT_FP32, 4, 4), PD_IN);
    Var *kc = param(c, k, "c", tt(c, DT_FP32, 4, 4), PD_OUT), *kd = param(c, k, "d", tt(c, DT_FP16, 4, 4), PD_OUT);
    Var *t = load(c, &k->body, "t", a, it2(c, 0, 0), 4, 4, 4, 4, MS_VEC);
    Var *c2 = store(c, &k->body, t, 0, 0, kc), *d2 = NULL;
    Expr *as = mkop(c, OP_TENSOR_ASSEMBLE, 3, ir_ref(kd), ir_ref(kd), it2(c, 0, 0));   /* d is its own source */
    d2 = let(c, &k->body, "d2", ded(c, as));
    Expr *rets[2] = { ir_ref(c2), ir_ref(d2) };
    ir_list_push(c, &k->body, ir_return(c, rets, 2));
    k->return_types = ARENA_ARRAY(c->arena, Type *, 2);
    k->return_types[0] = c2->type;
    k->return_types[1] = d2->type;
    k->nreturns = 2;
    Function *o = ir_func_new(c, "main", FT_ORCHESTRATION);
    Var *oa = param(c, o, "a", tt(c, DT_FP32, 4, 4), PD_IN);
    Var *oc = param(c, o, "c", tt(c, DT_FP32, 4, 4), PD_OUT), *od = param(c, o, "d", tt(c, DT_FP16, 4, 4), PD_INOUT);
    Expr *args3[3] = { ir_ref(oa), ir_ref(oc), ir_ref(od) };
    Var *r = let(c, &o->body, "r", ir_call_fn(c, k, args3, 3));
    Expr *g0 = ARENA_NEW(c->arena, Expr);   /* r[0] */
    g0->kind = EX_TUPLE_GET;
    g0->tget.tuple = ir_ref(r);
    g0->tget.index = 0;
    g0->type = c2->type;
    Var *x = let(c, &o->body, "x", g0);
    ret1(c, o, &o->body, x);
    Program *p = ir_program_new(c, "tup");
    ir_program_add(c, p, k);
    ir_program_add(c, p, o);
    float av[16], cv[16] = {0};
    uint16_t dv[16];
    fill(av, 16, 1.0f, 0.5f);
    for (int i = 0; i < 16; i++) dv[i] = f32_to_fp16((float)i);
    InterpTensor args[3] = { tens(DT_FP32, 4, 4, av), tens(DT_FP32, 4, 4, cv), tens(DT_FP16, 4, 4, dv) };
    CHECK(interp_run(p, NULL, args, 3, &e.d));
    CHECK(memcmp(av, cv, sizeof av) == 0);
    CHECK(fp16_to_f32(dv[5]) == 5.0f);
    CHECK_EQ_INT(e.d.nerrors, 0);
    env_close(&e);
}

/* i = 0; while i < 5: i = i + 2  (-> 6);  for j in range(n): cnt = cnt + 1  (n: a's dynamic dim);
 * c = tile.store(tile.load(a, [i - 6 + cnt - 1, 0], [1, 16]), [0, 0], c)  -> row n - 1 of a */
static Var *scalar_loop_var(IrCtx *c, const char *name) { return ir_var_new(c, name, ir_scalar_type(c, DT_INDEX)); }

static Var *while_six(IrCtx *c, StmtList *body) {
    Stmt *w = ARENA_NEW(c->arena, Stmt);
    w->kind = ST_WHILE;
    Var *i = ir_iter_arg_new(c, "i", ir_scalar_type(c, DT_INDEX), cint(c, 0));
    ir_varlist_push(c, &w->while_.iter_args, i);
    w->while_.cond = ir_binary(c, BIN_LT, ir_ref(i), cint(c, 5));
    Var *i2 = let(c, &w->while_.body, "i2", ir_binary(c, BIN_ADD, ir_ref(i), cint(c, 2)));
    Expr *y = ir_ref(i2);
    ir_list_push(c, &w->while_.body, ir_yield(c, &y, 1));
    Var *r = scalar_loop_var(c, "i_final");
    ir_varlist_push(c, &w->while_.return_vars, r);
    ir_list_push(c, body, w);
    return r;
}

static Var *count_to(IrCtx *c, StmtList *body, Var *n) {
    Stmt *l = ir_for(c, scalar_loop_var(c, "j"), cint(c, 0), ir_ref(n), cint(c, 1), FK_SEQUENTIAL);
    Var *cnt = ir_iter_arg_new(c, "cnt", ir_scalar_type(c, DT_INDEX), cint(c, 0));
    ir_varlist_push(c, &l->for_.iter_args, cnt);
    Var *c2 = let(c, &l->for_.body, "cnt2", ir_binary(c, BIN_ADD, ir_ref(cnt), cint(c, 1)));
    Expr *y = ir_ref(c2);
    ir_list_push(c, &l->for_.body, ir_yield(c, &y, 1));
    Var *r = scalar_loop_var(c, "count");
    ir_varlist_push(c, &l->for_.return_vars, r);
    ir_list_push(c, body, l);
    return r;
}

TEST(test_while_and_dynamic_dims) {
    Env e;
    env_open(&e);
    IrCtx *c = e.c;
    Var *n = scalar_loop_var(c, "n");
    Type *at = tt(c, DT_FP32, 1, 16);
    at->shape[0] = ir_ref(n);
    Function *f = ir_func_new(c, "wl", FT_INCORE);
    Var *a = param(c, f, "a", at, PD_IN), *out = param(c, f, "c", tt(c, DT_FP32, 1, 16), PD_OUT);
    Var *i = while_six(c, &f->body), *cnt = count_to(c, &f->body, n);
    Expr *row = ir_binary(c, BIN_SUB, ir_binary(c, BIN_ADD, ir_binary(c, BIN_SUB, ir_ref(i), cint(c, 6)), ir_ref(cnt)), cint(c, 1));
    Expr *offs[2] = { row, cint(c, 0) };
    Var *t = load(c, &f->body, "t", a, ir_tuple(c, offs, 2), 1, 16, 1, 16, MS_VEC);
    ret1(c, f, &f->body, store(c, &f->body, t, 0, 0, out));
    float av[5 * 16], cv[16];
    fill(av, 80, 1.0f, 0.0f);
    for (int i2 = 0; i2 < 16; i2++) av[4 * 16 + i2] = 100.0f + (float)i2;
    InterpTensor args[2] = { { .dtype = DT_FP32, .rank = 2, .shape = { 5, 16 }, .data = av }, tens(DT_FP32, 1, 16, cv) };
    CHECK(interp_run(prog1(c, f), NULL, args, 2, &e.d));
    CHECK(cv[0] == 100.0f && cv[15] == 115.0f);
    CHECK_EQ_INT(e.d.nerrors, 0);
    env_close(&e);
}

/* with pl.spmd(3): c = tensor.assemble(c, x, [0, 0], atomic=Add)  -> c + 3x */
TEST(test_spmd_scope) {
    Env e;
    env_open(&e);
    IrCtx *c = e.c;
    Function *f = ir_func_new(c, "sp", FT_ORCHESTRATION);
    Var *x = param(c, f, "x", tt(c, DT_FP32, 2, 8), PD_IN), *out = param(c, f, "c", tt(c, DT_FP32, 2, 8), PD_INOUT);
    Stmt *sc = ir_scope(c, SC_SPMD);
    sc->scope.core_num = cint(c, 3);
    Expr *as = mkop(c, OP_TENSOR_ASSEMBLE, 3, ir_ref(out), ir_ref(x), it2(c, 0, 0));
    ir_attr_set(c, &as->call.kwargs, "atomic", ir_av_enum("pl.AtomicType.Add"));
    let(c, &sc->scope.body, "c2", ded(c, as));
    ir_list_push(c, &f->body, sc);
    float xv[16], cv[16];
    for (int i = 0; i < 16; i++) { xv[i] = (float)i; cv[i] = 1.0f; }
    InterpTensor args[2] = { tens(DT_FP32, 2, 8, xv), tens(DT_FP32, 2, 8, cv) };
    CHECK(interp_run(prog1(c, f), NULL, args, 2, &e.d));
    CHECK_EQ_INT((int)cv[0], 1);
    CHECK_EQ_INT((int)cv[5], 16);
    CHECK_EQ_INT((int)cv[15], 46);
    CHECK_EQ_INT(e.d.nerrors, 0);
    env_close(&e);
}

/* with pl.spmd(3): i = get_block_idx(); n = get_block_num(); s = get_subblock_idx();
 *   c = tensor.write(c, [i, 0], i * 10 + n + s)  -> row i starts with 10 i + 3; outside: 0, 1, 0 */
TEST(test_spmd_queries) {
    Env e;
    env_open(&e);
    IrCtx *c = e.c;
    Function *f = ir_func_new(c, "sq", FT_ORCHESTRATION);
    Var *out = param(c, f, "c", tt(c, DT_INT32, 4, 2), PD_INOUT);
    Stmt *sc = ir_scope(c, SC_SPMD);
    sc->scope.core_num = cint(c, 3);
    Var *i = let(c, &sc->scope.body, "i", ded(c, mkop(c, OP_TILE_GET_BLOCK_IDX, 0)));
    Var *n = let(c, &sc->scope.body, "n", ded(c, mkop(c, OP_TILE_GET_BLOCK_NUM, 0)));
    Var *s = let(c, &sc->scope.body, "s", ded(c, mkop(c, OP_TILE_GET_SUBBLOCK_IDX, 0)));
    CHECK(i->type->kind == TY_SCALAR && i->type->dtype == DT_INDEX);
    Expr *v = ir_binary(c, BIN_ADD, ir_binary(c, BIN_ADD, ir_binary(c, BIN_MUL, ir_ref(i), cint(c, 10)), ir_ref(n)), ir_ref(s));
    Expr *idx[2] = { ir_ref(i), cint(c, 0) };
    let(c, &sc->scope.body, "c2", ded(c, mkop(c, OP_TENSOR_WRITE, 3, ir_ref(out), ir_tuple(c, idx, 2), v)));
    ir_list_push(c, &f->body, sc);
    Var *n0 = let(c, &f->body, "n0", ded(c, mkop(c, OP_TILE_GET_BLOCK_NUM, 0)));
    Expr *idx3[2] = { cint(c, 3), cint(c, 1) };
    let(c, &f->body, "c3", ded(c, mkop(c, OP_TENSOR_WRITE, 3, ir_ref(out), ir_tuple(c, idx3, 2), ir_ref(n0))));
    int32_t cv[8] = { 0 };
    InterpTensor args[1] = { { .dtype = DT_INT32, .rank = 2, .shape = { 4, 2 }, .data = cv } };
    CHECK(interp_run(prog1(c, f), NULL, args, 1, &e.d));
    CHECK_EQ_INT(cv[0], 3);
    CHECK_EQ_INT(cv[2], 13);
    CHECK_EQ_INT(cv[4], 23);
    CHECK_EQ_INT(cv[7], 1);
    CHECK_EQ_INT(e.d.nerrors, 0);
    env_close(&e);
}

/* Runs a one-statement InCore function f(a [8, 8], flag) whose statement is built by mk; expects an
 * error containing `want`. */
static void expect_error(Expr *(*mk)(IrCtx *, Var *, Var *), int64_t flag, const char *want) {
    Env e;
    env_open(&e);
    IrCtx *c = e.c;
    Function *f = ir_func_new(c, "err", FT_INCORE);
    Var *a = param(c, f, "a", tt(c, DT_FP32, 8, 8), PD_IN);
    Var *fl = param(c, f, "flag", ir_scalar_type(c, DT_INDEX), PD_IN);
    Expr *x = mk(c, a, fl);
    x->span = (Span){ NULL, 3, 5, 4 };
    ir_list_push(c, &f->body, ir_eval(c, x));
    float av[64] = {0};
    InterpTensor args[2] = { tens(DT_FP32, 8, 8, av), { .dtype = DT_INDEX, .rank = 0, .data = &flag } };
    CHECK(!interp_run(prog1(c, f), NULL, args, 2, &e.d));
    CHECK_EQ_INT(e.d.nerrors, 1);
    CHECK_CONTAINS(first_msg(&e), want);
    if (e.d.items.len) CHECK_EQ_INT(e.d.items.data[0].span.line, 3);
    env_close(&e);
}

static Expr *mk_divzero(IrCtx *c, Var *a, Var *fl) { return ir_binary(c, BIN_FLOORDIV, cint(c, 10), ir_ref(fl)); }
static Expr *mk_unknown_op(IrCtx *c, Var *a, Var *fl) { return mkop(c, (OpId)OP_COUNT, 1, ir_ref(a)); }
static Expr *mk_huge(IrCtx *c, Var *a, Var *fl) {
    Expr *shape[2] = { ir_binary(c, BIN_SHL, cint(c, 1), cint(c, 40)), cint(c, 1 << 20) };
    Expr *cr = mkop(c, OP_TILE_CREATE, 1, ir_tuple(c, shape, 2));
    return cr;
}
static Expr *mk_bad_matmul(IrCtx *c, Var *a, Var *fl) {
    Expr *sh[2] = { cint(c, 8), ir_ref(fl) };   /* [8, flag] window: K mismatch against [8, 8] */
    Expr *t = mkop(c, OP_TILE_LOAD, 4, ir_ref(a), it2(c, 0, 0), ir_tuple(c, sh, 2), ir_tuple(c, sh, 2));
    return mkop(c, OP_TILE_MATMUL, 2, t, t);
}
static Expr *mk_store_oob(IrCtx *c, Var *a, Var *fl) {
    Expr *t = mkop(c, OP_TILE_LOAD, 4, ir_ref(a), it2(c, 0, 0), it2(c, 8, 8), it2(c, 8, 8));
    Expr *off[2] = { ir_ref(fl), cint(c, 0) };
    return mkop(c, OP_TILE_STORE, 3, t, ir_tuple(c, off, 2), ir_ref(a));
}
static Expr *mk_undefined(IrCtx *c, Var *a, Var *fl) { return ir_ref(ir_var_new(c, "ghost", fl->type)); }

TEST(test_errors) {
    expect_error(mk_divzero, 0, "division by zero in 10 // 0");
    expect_error(mk_unknown_op, 0, "call of an unknown op");
    expect_error(mk_huge, 0, "tile.create: the result has more than");
    expect_error(mk_bad_matmul, 4, "tile.matmul: operands [8, 4] FP32 and [8, 4] FP32 do not form a 2-D matrix product");
    expect_error(mk_store_oob, 2, "tile.store: window of extent 8 at offset 2 leaves the target [8, 8] FP32 in dim 0");
    expect_error(mk_undefined, 0, "variable 'ghost' is used before it is defined");
}

/* Element rounding: FP16/BF16 round once from the exact value (no double rounding through float),
 * integers truncate toward zero and wrap like C conversions to the narrower type. */
TEST(test_element_rounding) {
    CHECK(interp_round(DT_FP16, 1.0 + ldexp(1, -11) + ldexp(1, -34)) == 1.0 + ldexp(1, -10));
    CHECK(interp_round(DT_FP16, 1.0 + ldexp(1, -11)) == 1.0);                       /* tie -> even */
    CHECK(interp_round(DT_FP16, 1.0 + 3 * ldexp(1, -11)) == 1.0 + ldexp(1, -9));    /* tie -> even (up) */
    CHECK(interp_round(DT_BF16, 1.0 + ldexp(1, -8) + ldexp(1, -30)) == 1.0 + ldexp(1, -7));
    CHECK(interp_round(DT_FP16, 70000.0) == INFINITY);
    CHECK(interp_round(DT_FP32, 0.1) == (double)0.1f);
    CHECK(interp_round(DT_INT32, 2147483648.0) == -2147483648.0);
    CHECK(interp_round(DT_INT8, -129.7) == 127.0);
    CHECK(interp_round(DT_UINT8, 300.0) == 44.0);
    CHECK(interp_round(DT_INT32, -2.9) == -2.0);
    CHECK(interp_round(DT_BOOL, 0.5) == 1.0);
}

int main(void) {
    RUN(test_element_rounding);
    RUN(test_matmul_bias);
    RUN(test_tensor_matmul_acc_trans);
    RUN(test_tile_assemble);
    RUN(test_valid_shapes);
    RUN(test_tuple_return);
    RUN(test_while_and_dynamic_dims);
    RUN(test_spmd_scope);
    RUN(test_spmd_queries);
    RUN(test_errors);
    RUN(test_assemble_matmul_bands);
    return test_summary();
}
