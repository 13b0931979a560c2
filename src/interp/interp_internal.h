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

#define INTERP_MAX_RANK 8
#define INTERP_MAX_DEPTH 64
#define INTERP_MAX_NUMEL (INT64_C(1) << 31)   /* larger arrays are reported, not allocated */

/* A logical array: row-major doubles, every element already rounded to `dtype`. `valid` is the
 * leading valid rectangle (tiles); it equals `shape` for tensors. */
typedef struct InterpArray {
    int refs;
    DType dtype;
    int rank;
    int64_t shape[INTERP_MAX_RANK];
    int64_t valid[INTERP_MAX_RANK];
    int64_t numel;
    double *data;
} InterpArray;

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
InterpArray *interp_array_copy(const InterpArray *a, DType dt);            /* rounded to dt */
double interp_round(DType dt, double v);              /* the value a `dt` element stores */
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
