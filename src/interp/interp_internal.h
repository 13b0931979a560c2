/* interp_internal — values, arrays, environments and the evaluator's entry points shared by the
 * interpreter's files (interp.c statements and calls, interp_expr.c scalar expressions,
 * interp_ops.c op semantics, interp_matmul.c the cube numerics, interp_vec*.c the vector ops,
 * interp_array.c storage).
 *
 * Requires: ir.h. Produces: nothing global; every run owns its context.
 * Ownership: arrays and tuples are reference counted. Every InterpValue returned by an eval
 * function is an owned reference (release it or hand it on); the environment owns its values. */
#ifndef PTOC_INTERP_INTERNAL_H
#define PTOC_INTERP_INTERNAL_H

#include "interp/interp.h"

#include <string.h>

#define INTERP_MAX_RANK 8
#define INTERP_MAX_DEPTH 64
#define INTERP_MAX_NUMEL (INT64_C(1) << 31)   /* larger arrays are reported, not allocated */

/* A logical array: row-major elements of `dtype`, held in the dtype's own storage (below) so that
 * a tensor costs what the caller's buffer costs, and an entry tensor can be the caller's buffer
 * itself (`borrowed`: not freed). Every element is a value of `dtype` (stores round first), and
 * interp_get returns it as the double the evaluator computes with. `valid` is the leading valid
 * rectangle (tiles); it equals `shape` for tensors.
 *
 * Storage: FP16/BF16 their 16-bit patterns, FP32 float, BOOL/INT8/UINT8 one byte, INT16/UINT16,
 * INT32/UINT32 their C types — the packed byte format of a caller's buffer, and exact: each holds
 * every value interp_round gives for its dtype, so get(set(v)) == v. 64-bit integers (and any other
 * dtype) stay double, as the interpreter computes integers in double (exact to 2^53); their caller
 * buffers are copied in and packed back out. */
typedef struct InterpArray {
    int refs;
    DType dtype;
    int rank;
    int64_t shape[INTERP_MAX_RANK];
    int64_t valid[INTERP_MAX_RANK];
    int64_t numel;
    void *data;
    bool borrowed;              /* data is the caller's buffer: not freed */
} InterpArray;

typedef enum { IS_F16, IS_BF16, IS_F32, IS_BOOL, IS_I8, IS_U8, IS_I16, IS_U16, IS_I32, IS_U32, IS_F64 } InterpStore;

static inline InterpStore interp_store_of(DType dt) {
    switch (dt) {
    case DT_FP16: return IS_F16;
    case DT_BF16: return IS_BF16;
    case DT_FP32: return IS_F32;
    case DT_BOOL: return IS_BOOL;
    case DT_INT8: return IS_I8;
    case DT_UINT8: return IS_U8;
    case DT_INT16: return IS_I16;
    case DT_UINT16: return IS_U16;
    case DT_INT32: return IS_I32;
    case DT_UINT32: return IS_U32;
    default: return IS_F64;
    }
}

/* Bytes per element of dt's storage; the storage is the caller's packed format unless it is IS_F64. */
static inline int interp_elem_bytes(DType dt) {
    static const int bytes[] = { 2, 2, 4, 1, 1, 1, 2, 2, 4, 4, 8 };
    return bytes[interp_store_of(dt)];
}
static inline bool interp_store_packed(DType dt) { return interp_store_of(dt) != IS_F64; }

/* FP16 / BF16 bits -> float, inline for the hot loops (operand copies of a matmul): normal FP16
 * numbers by bit arithmetic, the rest (zero, subnormal, Inf, NaN) through base's fp16_to_f32. */
static inline float interp_bits_f32(uint32_t u) { float f; memcpy(&f, &u, sizeof f); return f; }
static inline float interp_f16(uint16_t h) {
    uint32_t e = (h >> 10) & 0x1f;
    if (e == 0 || e == 0x1f) return fp16_to_f32(h);
    return interp_bits_f32(((uint32_t)(h & 0x8000) << 16) | ((e + 112) << 23) | ((uint32_t)(h & 0x3ff) << 13));
}

/* Element i of a as a double (exact). */
static inline double interp_get(const InterpArray *a, int64_t i) {
    const void *d = a->data;
    switch (interp_store_of(a->dtype)) {
    case IS_F16: return interp_f16(((const uint16_t *)d)[i]);
    case IS_BF16: return interp_bits_f32((uint32_t)((const uint16_t *)d)[i] << 16);
    case IS_F32: return ((const float *)d)[i];
    case IS_BOOL: return ((const uint8_t *)d)[i] != 0;
    case IS_I8: return ((const int8_t *)d)[i];
    case IS_U8: return ((const uint8_t *)d)[i];
    case IS_I16: return ((const int16_t *)d)[i];
    case IS_U16: return ((const uint16_t *)d)[i];
    case IS_I32: return ((const int32_t *)d)[i];
    case IS_U32: return ((const uint32_t *)d)[i];
    default: return ((const double *)d)[i];
    }
}

/* Element i of a := v, a value already rounded to a->dtype (interp_round): the conversions below
 * are exact on such values. */
static inline void interp_set(InterpArray *a, int64_t i, double v) {
    void *d = a->data;
    switch (interp_store_of(a->dtype)) {
    case IS_F16: ((uint16_t *)d)[i] = f32_to_fp16((float)v); return;
    case IS_BF16: ((uint16_t *)d)[i] = f32_to_bf16((float)v); return;
    case IS_F32: ((float *)d)[i] = (float)v; return;
    case IS_BOOL: ((uint8_t *)d)[i] = v != 0; return;
    case IS_I8: ((int8_t *)d)[i] = (int8_t)v; return;
    case IS_U8: ((uint8_t *)d)[i] = (uint8_t)v; return;
    case IS_I16: ((int16_t *)d)[i] = (int16_t)v; return;
    case IS_U16: ((uint16_t *)d)[i] = (uint16_t)v; return;
    case IS_I32: ((int32_t *)d)[i] = (int32_t)v; return;
    case IS_U32: ((uint32_t *)d)[i] = (uint32_t)v; return;
    default: ((double *)d)[i] = v; return;
    }
}

typedef enum { IV_NONE = 0, IV_INT, IV_FLOAT, IV_BOOL, IV_ARRAY, IV_TUPLE, IV_PTR } InterpKind;

typedef struct InterpTuple InterpTuple;
typedef struct InterpValue {
    InterpKind kind;
    union {
        int64_t i;              /* IV_INT, IV_BOOL (0/1) */
        double f;               /* IV_FLOAT */
        InterpArray *arr;       /* IV_ARRAY */
        InterpTuple *tup;       /* IV_TUPLE */
    };
} InterpValue;

struct InterpTuple {
    int refs;
    int n;
    InterpValue *items;
};

/* Var* -> value, open addressing; one per function activation. */
typedef struct InterpEnv {
    const Var **keys;
    InterpValue *vals;
    int len, cap;
} InterpEnv;

typedef struct InterpCtx {
    const Program *prog;
    DiagSink *diag;
    int depth;                  /* call depth */
    int64_t block_idx;          /* current SPMD block (0 outside SPMD scopes) */
    int64_t subblock_idx;       /* current pl.split_aiv lane (0 outside one) */
    int64_t block_num;          /* its SPMD scope's core_num (1 outside SPMD scopes) */
} InterpCtx;

/* One function activation. */
typedef struct InterpFrame {
    InterpEnv env;
    const Function *fn;
    InterpValue *yield; int nyield;   /* the last executed Yield's values (owned) */
    bool has_yield;
    InterpValue *ret; int nret;       /* the Return's values (owned) */
    bool returned;
} InterpFrame;

/* ---- values and arrays (interp_array.c) ---- */
InterpValue interp_int(int64_t v);
InterpValue interp_float(double v);
InterpValue interp_bool(bool v);
InterpValue interp_arr_value(InterpArray *a);          /* takes the reference */
InterpValue interp_retain(InterpValue v);
void interp_release(InterpValue v);
InterpTuple *interp_tuple_new(int n);                   /* items IV_NONE, refs 1 */

InterpArray *interp_array_new(DType dt, int rank, const int64_t *shape);   /* zeros, refs 1 */
void interp_array_release(InterpArray *a);
/* An array over the caller's packed buffer (dt's storage must be packed; BOOL bytes are normalised
 * to 0 / 1 in place): writes go straight to the caller, nothing is copied or freed. */
InterpArray *interp_array_borrow(DType dt, int rank, const int64_t *shape, void *data);
InterpArray *interp_array_copy(const InterpArray *a, DType dt);            /* rounded to dt */
double interp_round(DType dt, double v);              /* the value a `dt` element stores */
/* Element i of a := v rounded to a->dtype (FP16/BF16: one conversion straight to the bits). */
void interp_store(InterpArray *a, int64_t i, double v);
bool interp_dtype_supported(DType dt);
/* Packed caller data <-> arrays. */
void interp_array_unpack(InterpArray *a, const void *data);
void interp_array_pack(const InterpArray *a, void *data);
const char *interp_shape_str(const InterpArray *a, char *buf, size_t n);   /* "[128, 512] FP16" */
/* pl.NZ tensors. The logical R x C matrix <-> its blocked form [1, C/c0, R/16, 16, c0]
 * (c0 = 32 B / element size), whose row-major order is the NZ byte order of a caller's buffer:
 * blocked[0, bj, bi, ii, jj] = logical[16·bi + ii, c0·bj + jj]. NULL when the shape does not tile
 * into whole fractals (the caller reports it). */
int64_t interp_nz_c0(DType dt);
InterpArray *interp_nz_block(const InterpArray *logical);
InterpArray *interp_nz_unblock(const InterpArray *blocked);

void interp_env_init(InterpEnv *e);
void interp_env_free(InterpEnv *e);
void interp_env_put(InterpEnv *e, const Var *v, InterpValue val);   /* takes the reference */
const InterpValue *interp_env_get(const InterpEnv *e, const Var *v);

/* ---- evaluation (interp.c, interp_expr.c) ---- */
bool interp_eval(InterpCtx *c, InterpFrame *f, const Expr *e, InterpValue *out);
bool interp_eval_int(InterpCtx *c, InterpFrame *f, const Expr *e, int64_t *out);
bool interp_eval_bool(InterpCtx *c, InterpFrame *f, const Expr *e, bool *out);
bool interp_call_function(InterpCtx *c, InterpFrame *f, const Expr *call, InterpValue *out);
bool interp_fail(InterpCtx *c, Span sp, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* ---- ops (interp_ops.c, interp_matmul.c) ---- */
bool interp_eval_op(InterpCtx *c, InterpFrame *f, const Expr *call, InterpValue *out);
/* C = op(A) @ op(B) (optionally transposed), accumulated in FP32 (INT32 for integer operands);
 * init: store A@B, else acc + A@B with one rounding. Writes into res (shape [M, N] checked by the
 * caller). bias: optional [1, N] row added before rounding. */
typedef struct InterpMatmul {
    const InterpArray *a, *b, *bias;
    bool a_trans, b_trans;
    bool accumulate;            /* res = res + A@B instead of res = A@B */
} InterpMatmul;
bool interp_matmul_dims(const InterpMatmul *m, int64_t *M, int64_t *N, int64_t *K);
void interp_matmul_run(const InterpMatmul *m, InterpArray *res);
/* The vector ops (OPF_VEC rows of ops.def, tile and tensor forms; interp_vec.c,
 * interp_vec_reduce.c): evaluates the call's arguments and returns a fresh array. */
bool interp_vec_op(InterpCtx *c, InterpFrame *f, const Expr *call, InterpValue *out);
/* tensor/tile read and write (interp_access.c). */
bool interp_access_op(InterpCtx *c, InterpFrame *f, const Expr *call, InterpValue *out);

#endif
