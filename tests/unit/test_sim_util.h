/* test_sim_util.h — helpers shared by the simulator unit tests: building kernels by hand with the
 * mir API, random FP16/BF16 data, reference matmuls. */
#ifndef PTOC_TEST_SIM_UTIL_H
#define PTOC_TEST_SIM_UTIL_H

#include "sim/sim.h"

#include <stdlib.h>
#include <string.h>

typedef struct KB {              /* kernel builder: numbers every instruction with a source line */
    Kernel *k;
    int line;
    unsigned skip;               /* bit n set: drop the n-th sync instruction created */
    int nsync;
} KB;

static inline MirBuf tbuf(const char *name, MemSpace sp, int64_t addr, DType dt, int64_t rows, int64_t cols, MirLayout bl,
                   MirLayout sl, int64_t fractal) {
    MirBuf b = { .name = name, .space = sp, .addr = addr, .dtype = dt, .rows = rows, .cols = cols, .valid_rows = rows,
                 .valid_cols = cols, .blayout = bl, .slayout = sl, .fractal = fractal };
    b.bytes = rows * cols * dtype_bytes(dt);
    return b;
}
#define NZ ML_COL_MAJOR, ML_ROW_MAJOR
#define ZZ ML_ROW_MAJOR, ML_ROW_MAJOR
#define ZN ML_ROW_MAJOR, ML_COL_MAJOR
#define NDL ML_ROW_MAJOR, ML_NONE_BOX

static inline void tparams(Kernel *k, int n, const char **names, const DType *dts, const int64_t (*shapes)[2]) {
    k->params = ARENA_ARRAY(k->arena, MirParam, n);
    k->nparams = n;
    for (int j = 0; j < n; j++) {
        MirParam *p = &k->params[j];
        p->name = names[j]; p->is_tensor = true; p->dtype = dts[j]; p->rank = 2;
        p->shape[0] = shapes[j][0]; p->shape[1] = shapes[j][1];
        p->strides[0] = shapes[j][1]; p->strides[1] = 1;
    }
}

static inline MirInst *kb_push(KB *b, MirBlock *blk, MirInst *i) {
    i->loc.line = ++b->line;
    if (mir_is_sync(i) && ((b->skip >> (b->nsync++)) & 1u)) return i;
    mir_block_push(b->k, blk ? blk : &b->k->body, i);
    return i;
}

static inline MirInst *kb_tile(KB *b, MirBlock *blk, MirOp op, int dst, int src0, int src1, int src2) {
    MirInst *i = mir_inst_new(b->k, op, PIPE_NONE);
    i->dst = dst; i->src0 = src0; i->src1 = src1; i->src2 = src2;
    i->pipe = mir_pipe_for(b->k, op, dst, src0);
    return kb_push(b, blk, i);
}

static inline MirInst *kb_gm(KB *b, MirBlock *blk, MirOp op, int buf, int param, MirExpr *r, MirExpr *c) {
    MirInst *i = mir_inst_new(b->k, op, PIPE_NONE);
    if (op == MI_TLOAD) i->dst = buf; else i->src0 = buf;
    i->param = param;
    i->off[0] = r ? r : mir_const(b->k, 0);
    i->off[1] = c ? c : mir_const(b->k, 0);
    i->pipe = mir_pipe_for(b->k, op, i->dst, i->src0);
    return kb_push(b, blk, i);
}

static inline MirInst *kb_ext(KB *b, MirBlock *blk, int dst, int src, MirExpr *r, MirExpr *c) {
    MirInst *i = kb_tile(b, blk, MI_TEXTRACT, dst, src, -1, -1);
    i->off[0] = r ? r : mir_const(b->k, 0);
    i->off[1] = c ? c : mir_const(b->k, 0);
    return i;
}

static inline MirInst *kb_flag(KB *b, MirBlock *blk, MirOp op, Pipe src, Pipe dst, int ev) {
    MirInst *i = mir_inst_new(b->k, op, op == MI_SET_FLAG ? src : dst);
    i->src_pipe = src; i->dst_pipe = dst; i->event = ev;
    return kb_push(b, blk, i);
}

static inline MirInst *kb_bar(KB *b, MirBlock *blk, Pipe p) { return kb_push(b, blk, mir_inst_new(b->k, MI_BARRIER, p)); }

static inline uint32_t trand(uint32_t *s) { *s = *s * 1664525u + 1013904223u; return *s >> 8; }
static inline float trandf(uint32_t *s) { return (float)trand(s) / (float)(1u << 24) * 2.0f - 1.0f; }

static inline uint16_t *rand_fp16(int64_t n, uint32_t seed) {
    uint16_t *p = malloc(sizeof(uint16_t) * (size_t)n);
    for (int64_t j = 0; j < n; j++) p[j] = f32_to_fp16(trandf(&seed));
    return p;
}

/* c[m x n] = a * b, FP32 accumulation in order of k, a and b given as floats. */
static inline void ref_matmul(int64_t m, int64_t n, int64_t k, const float *a, const float *b, float *c) {
    for (int64_t i = 0; i < m; i++)
        for (int64_t j = 0; j < n; j++) {
            double s = 0;
            for (int64_t l = 0; l < k; l++) s += (double)a[i * k + l] * b[l * n + j];
            c[i * n + j] = (float)s;
        }
}

static inline bool msgs_contain(const char *const *v, int n, const char *needle) {
    for (int j = 0; j < n; j++)
        if (strstr(v[j], needle)) return true;
    return false;
}

/* The [128,512]@[512,128] FP16 -> FP32 kernel of isa_and_sync.md §9, synchronised by hand
 * (plus pipe_barrier(M) before each matmul and M->FIX before the store). skip drops sync
 * instructions by creation index (0..18, see the comments). Params: a, b, c. */
static inline Kernel *build_matmul(Arena *ar, unsigned skip) {
    KB b = { .k = mir_kernel_new(ar, "matmul", CORE_AIC), .skip = skip };
    Kernel *k = b.k;
    const char *names[] = { "a", "b", "c" };
    DType dts[] = { DT_FP16, DT_FP16, DT_FP32 };
    int64_t shapes[][2] = { { 128, 512 }, { 512, 128 }, { 128, 128 } };
    tparams(k, 3, names, dts, shapes);
    int a_mat = mir_add_buf(k, tbuf("a_mat", MS_MAT, 0, DT_FP16, 128, 512, NZ, 512));
    int b_mat = mir_add_buf(k, tbuf("b_mat", MS_MAT, 131072, DT_FP16, 512, 128, NZ, 512));
    int sa0 = mir_add_buf(k, tbuf("sa0", MS_LEFT, 0, DT_FP16, 128, 128, ZZ, 512));
    int sa1 = mir_add_buf(k, tbuf("sa1", MS_LEFT, 32768, DT_FP16, 128, 128, ZZ, 512));
    int sb0 = mir_add_buf(k, tbuf("sb0", MS_RIGHT, 0, DT_FP16, 128, 128, ZN, 512));
    int sb1 = mir_add_buf(k, tbuf("sb1", MS_RIGHT, 32768, DT_FP16, 128, 128, ZN, 512));
    int acc = mir_add_buf(k, tbuf("acc", MS_ACC, 0, DT_FP32, 128, 128, NZ, 1024));
    int ko = mir_add_var(k, "ko");
    kb_gm(&b, NULL, MI_TLOAD, a_mat, 0, NULL, NULL);
    kb_gm(&b, NULL, MI_TLOAD, b_mat, 1, NULL, NULL);
    kb_flag(&b, NULL, MI_SET_FLAG, PIPE_MTE2, PIPE_MTE1, 0);    /* 0 */
    kb_flag(&b, NULL, MI_SET_FLAG, PIPE_M, PIPE_MTE1, 0);       /* 1 pre-set */
    kb_flag(&b, NULL, MI_SET_FLAG, PIPE_M, PIPE_MTE1, 1);       /* 2 pre-set */
    kb_flag(&b, NULL, MI_WAIT_FLAG, PIPE_MTE2, PIPE_MTE1, 0);   /* 3 */
    MirInst *f = mir_inst_new(k, MI_FOR, PIPE_NONE);
    f->var = ko; f->start = mir_const(k, 0); f->stop = mir_const(k, 512); f->step = mir_const(k, 256);
    kb_push(&b, NULL, f);
    MirBlock *L = &f->body;
    MirExpr *vko = mir_var(k, ko), *ko128 = mir_bin(k, MB_ADD, mir_var(k, ko), mir_const(k, 128));
    kb_flag(&b, L, MI_WAIT_FLAG, PIPE_M, PIPE_MTE1, 0);         /* 4 */
    kb_bar(&b, L, PIPE_MTE1);                                   /* 5 */
    kb_ext(&b, L, sa0, a_mat, NULL, vko);
    kb_ext(&b, L, sb0, b_mat, vko, NULL);
    kb_flag(&b, L, MI_SET_FLAG, PIPE_MTE1, PIPE_M, 0);          /* 6 */
    kb_flag(&b, L, MI_WAIT_FLAG, PIPE_M, PIPE_MTE1, 1);         /* 7 */
    kb_ext(&b, L, sa1, a_mat, NULL, ko128);
    kb_ext(&b, L, sb1, b_mat, ko128, NULL);
    kb_flag(&b, L, MI_SET_FLAG, PIPE_MTE1, PIPE_M, 1);          /* 8 */
    kb_flag(&b, L, MI_WAIT_FLAG, PIPE_MTE1, PIPE_M, 0);         /* 9 */
    kb_bar(&b, L, PIPE_M);                                      /* 10 */
    for (int half = 0; half < 2; half++) {
        MirInst *c = mir_inst_new(k, MI_IF, PIPE_NONE);
        c->cond = mir_bin(k, MB_EQ, half ? ko128 : vko, mir_const(k, 0));
        kb_push(&b, L, c);
        int x = half ? sa1 : sa0, y = half ? sb1 : sb0;
        kb_tile(&b, &c->then_body, MI_TMATMUL, acc, x, y, -1);
        kb_tile(&b, &c->else_body, MI_TMATMUL_ACC, acc, x, y, acc);
        kb_flag(&b, L, MI_SET_FLAG, PIPE_M, PIPE_MTE1, half);    /* 11, 14 */
        if (half == 0) {
            kb_flag(&b, L, MI_WAIT_FLAG, PIPE_MTE1, PIPE_M, 1);  /* 12 */
            kb_bar(&b, L, PIPE_M);                              /* 13 */
        }
    }
    kb_flag(&b, NULL, MI_WAIT_FLAG, PIPE_M, PIPE_MTE1, 0);      /* 15 drain */
    kb_flag(&b, NULL, MI_WAIT_FLAG, PIPE_M, PIPE_MTE1, 1);      /* 16 drain */
    kb_flag(&b, NULL, MI_SET_FLAG, PIPE_M, PIPE_FIX, 0);        /* 17 */
    kb_flag(&b, NULL, MI_WAIT_FLAG, PIPE_M, PIPE_FIX, 0);       /* 18 */
    kb_gm(&b, NULL, MI_TSTORE, acc, 2, NULL, NULL);
    kb_bar(&b, NULL, PIPE_ALL);                                 /* 19 */
    return k;
}

#endif
