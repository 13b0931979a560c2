/* mir_build_util.h — builders for hand-written machine kernels shared by the sync and .pto tests:
 * parameters, buffers, tile instructions, and the synchronised-matmul reference kernel of
 * ir_and_passes.md §13 / isa_and_sync.md §9 (before sync insertion). */
#ifndef PTOC_MIR_BUILD_UTIL_H
#define PTOC_MIR_BUILD_UTIL_H

#include <stdlib.h>
#include <string.h>

#include "back/back.h"

/* ---- building helpers ---- */
static inline int param(Kernel *k, const char *name, DType dt, int64_t r, int64_t c) {
    MirParam p = { .name = name, .is_tensor = true, .dtype = dt, .rank = 2, .shape = { r, c }, .strides = { c, 1 } };
    MirParam *np = ARENA_ARRAY(k->arena, MirParam, k->nparams + 1);
    if (k->nparams) memcpy(np, k->params, sizeof(MirParam) * (size_t)k->nparams);
    np[k->nparams] = p;
    k->params = np;
    return k->nparams++;
}

static inline int buf(Kernel *k, const char *name, MemSpace sp, int64_t addr, DType dt, int64_t r, int64_t c,
               MirLayout bl, MirLayout sl, int64_t fractal) {
    MirBuf b = { .name = name, .space = sp, .addr = addr, .bytes = r * c * dtype_bytes(dt), .dtype = dt,
                 .rows = r, .cols = c, .valid_rows = r, .valid_cols = c, .blayout = bl, .slayout = sl,
                 .fractal = fractal };
    return mir_add_buf(k, b);
}

static inline MirInst *tload(Kernel *k, MirBlock *b, int dst, int prm, MirExpr *r, MirExpr *c) {
    MirInst *i = mir_inst_new(k, MI_TLOAD, PIPE_MTE2);
    i->dst = dst; i->param = prm; i->off[0] = r; i->off[1] = c;
    mir_block_push(k, b, i);
    return i;
}

static inline MirInst *tstore(Kernel *k, MirBlock *b, int prm, int src, MirExpr *r, MirExpr *c) {
    MirInst *i = mir_inst_new(k, MI_TSTORE, mir_pipe_for(k, MI_TSTORE, -1, src));
    i->src0 = src; i->param = prm; i->off[0] = r; i->off[1] = c;
    mir_block_push(k, b, i);
    return i;
}

static inline MirInst *move(Kernel *k, MirBlock *b, MirOp op, int dst, int src, MirExpr *r, MirExpr *c) {
    MirInst *i = mir_inst_new(k, op, mir_pipe_for(k, op, dst, src));
    i->dst = dst; i->src0 = src; i->off[0] = r; i->off[1] = c;
    mir_block_push(k, b, i);
    return i;
}

static inline MirInst *matmul(Kernel *k, MirBlock *b, int acc, int a, int bb, bool accumulate) {
    MirInst *i = mir_inst_new(k, accumulate ? MI_TMATMUL_ACC : MI_TMATMUL, PIPE_M);
    i->dst = acc; i->src0 = a; i->src1 = bb;
    if (accumulate) i->src2 = acc;
    mir_block_push(k, b, i);
    return i;
}

static inline MirInst *loop(Kernel *k, MirBlock *b, const char *var, int64_t lo, int64_t hi, int64_t step) {
    MirInst *i = mir_inst_new(k, MI_FOR, PIPE_NONE);
    i->var = mir_add_var(k, var);
    i->start = mir_const(k, lo); i->stop = mir_const(k, hi); i->step = mir_const(k, step);
    mir_block_push(k, b, i);
    return i;
}

static inline MirInst *branch(Kernel *k, MirBlock *b, MirExpr *cond) {
    MirInst *i = mir_inst_new(k, MI_IF, PIPE_NONE);
    i->cond = cond;
    mir_block_push(k, b, i);
    return i;
}

/* ---- the kernel of ir_and_passes.md §13 ---- */
static inline Kernel *matmul_kernel(Arena *a) {
    Kernel *k = mir_kernel_new(a, "matmul_matmul", CORE_AIC);
    int pa = param(k, "a", DT_FP16, 128, 512), pb = param(k, "b", DT_FP16, 512, 128), pc = param(k, "c", DT_FP32, 128, 128);
    int a_mat = buf(k, "a_mat", MS_MAT, 0, DT_FP16, 128, 512, ML_COL_MAJOR, ML_ROW_MAJOR, 512);
    int b_mat = buf(k, "b_mat", MS_MAT, 131072, DT_FP16, 512, 128, ML_COL_MAJOR, ML_ROW_MAJOR, 512);
    int acc = buf(k, "acc", MS_ACC, 0, DT_FP32, 128, 128, ML_COL_MAJOR, ML_ROW_MAJOR, 1024);
    int sa0 = buf(k, "sa0", MS_LEFT, 0, DT_FP16, 128, 128, ML_ROW_MAJOR, ML_ROW_MAJOR, 512);
    int sb0 = buf(k, "sb0", MS_RIGHT, 0, DT_FP16, 128, 128, ML_ROW_MAJOR, ML_COL_MAJOR, 512);
    int sa1 = buf(k, "sa1", MS_LEFT, 32768, DT_FP16, 128, 128, ML_ROW_MAJOR, ML_ROW_MAJOR, 512);
    int sb1 = buf(k, "sb1", MS_RIGHT, 32768, DT_FP16, 128, 128, ML_ROW_MAJOR, ML_COL_MAJOR, 512);
    MirExpr *z = mir_const(k, 0);
    tload(k, &k->body, a_mat, pa, z, z);
    tload(k, &k->body, b_mat, pb, z, z);
    MirInst *f = loop(k, &k->body, "ko", 0, 512, 256);
    MirExpr *ko = mir_var(k, f->var), *ko1 = mir_bin(k, MB_ADD, mir_var(k, f->var), mir_const(k, 128));
    move(k, &f->body, MI_TEXTRACT, sa0, a_mat, z, ko);
    move(k, &f->body, MI_TEXTRACT, sb0, b_mat, ko, z);
    move(k, &f->body, MI_TEXTRACT, sa1, a_mat, z, ko1);
    move(k, &f->body, MI_TEXTRACT, sb1, b_mat, ko1, z);
    MirInst *i0 = branch(k, &f->body, mir_bin(k, MB_EQ, ko, mir_const(k, 0)));
    matmul(k, &i0->then_body, acc, sa0, sb0, false);
    matmul(k, &i0->else_body, acc, sa0, sb0, true);
    MirInst *i1 = branch(k, &f->body, mir_bin(k, MB_EQ, ko1, mir_const(k, 0)));
    matmul(k, &i1->then_body, acc, sa1, sb1, false);
    matmul(k, &i1->else_body, acc, sa1, sb1, true);
    tstore(k, &k->body, pc, acc, z, z);
    return k;
}

#endif
