/* torch_eval — the torch-expression evaluator of the `__main__` runner (spec/language.md §5.3,
 * decisions 2 and 3): a small n-d array type (TArr, float64 values with a torch dtype), the torch
 * operations of the supported subset on it, and the evaluation of a main-block expression
 * (front/main_block.h MbExpr) over a name environment.
 *
 * Requires: base (dtype_convert for rounding), front/main_block.h (the AST).
 * Produces: TArr values; teval() results; tcheck() verdicts of allclose / assert_close / equal.
 * Does: every value is computed in float64; values are rounded to a torch dtype only where torch
 *       would round them: at constructors (randn / rand / full / tensor / arange ... with dtype=) and
 *       at explicit casts (.float() / .half() / .bfloat16() / .to(D)). Element-wise results keep the
 *       promoted dtype as a label (it selects assert_close's default tolerances). Anything outside the
 *       subset fails with a message and the span of the construct, never with a guess. */
#ifndef PTOC_DRIVER_TORCH_EVAL_H
#define PTOC_DRIVER_TORCH_EVAL_H

#include "base/base.h"
#include "base/dtype.h"
#include "front/main_block.h"

#define TARR_MAX_RANK 8

typedef struct TArr {
    int refs;
    DType dtype;
    int rank;
    int64_t dims[TARR_MAX_RANK];
    int64_t n;                      /* product of dims (1 for rank 0) */
    double *d;                      /* row-major */
} TArr;

TArr *tarr_new(DType dt, int rank, const int64_t *dims);    /* zero-filled, refs 1; NULL when too large */
TArr *tarr_ref(TArr *a);
void tarr_unref(TArr *a);

/* Array operations: a new array, or NULL with a message in err. */
typedef enum { TB_ADD, TB_SUB, TB_MUL, TB_DIV, TB_POW, TB_MAX, TB_MIN } TBinOp;
typedef enum { TU_NEG, TU_EXP, TU_SQRT, TU_RSQRT, TU_RELU, TU_SIGMOID, TU_ABS } TUnOp;
typedef enum { TR_SUM, TR_MEAN, TR_MAX, TR_MIN } TRedOp;
TArr *tarr_binary(TBinOp op, const TArr *a, const TArr *b, char *err, size_t n);
TArr *tarr_unary(TUnOp op, const TArr *a);
TArr *tarr_matmul(const TArr *a, const TArr *b, char *err, size_t n);
TArr *tarr_transpose(const TArr *a, int d0, int d1, char *err, size_t n);
/* dim < -rank .. rank-1 ; all == true reduces every dim */
TArr *tarr_reduce(TRedOp op, const TArr *a, bool all, int dim, bool keepdim, char *err, size_t n);
TArr *tarr_softmax(const TArr *a, int dim, char *err, size_t n);
TArr *tarr_cat(TArr *const *xs, int nx, int dim, char *err, size_t n);
TArr *tarr_cast(const TArr *a, DType dt);
TArr *tarr_reshape(const TArr *a, int rank, const int64_t *dims, char *err, size_t n);   /* one -1 allowed */
TArr *tarr_unsqueeze(const TArr *a, int dim, char *err, size_t n);
/* Per leading dim: Python start / stop (negative counts from the end, clamped here) and step > 0;
 * index selects the element `start` and drops the dim. Dims past ns are kept whole. */
typedef struct TSlice { bool index, has_start, has_stop; int64_t start, stop, step; } TSlice;
TArr *tarr_slice(const TArr *a, const TSlice *s, int ns, char *err, size_t n);

/* ---- the seeded generator (decision 2) ---- */
uint64_t teval_next(uint64_t *state);
double teval_uniform(uint64_t *state);      /* [0, 1) */
double teval_normal(uint64_t *state);       /* Box-Muller */

/* ---- expression evaluation ---- */
typedef enum { TV_NONE, TV_NUM, TV_TENSOR, TV_DTYPE, TV_STR } TValKind;
typedef struct TVal {
    TValKind kind;
    double num; bool is_int;        /* TV_NUM (bools are ints) */
    DType dtype;                    /* TV_DTYPE */
    TArr *t;                        /* TV_TENSOR (owned reference) */
    const char *str;                /* TV_STR */
} TVal;
void tval_free(TVal *v);

typedef struct TEval {
    /* name lookup: true with *out set (a tensor value gets a new reference) */
    bool (*lookup)(void *ud, const char *name, TVal *out);
    void *ud;
    uint64_t *rng;
    char why[256];                  /* the first failure */
    Span where;
} TEval;

bool teval(TEval *ev, const MbExpr *e, TVal *out);

/* A check call (torch.allclose / torch.testing.assert_close / torch.equal): evaluates both sides and
 * applies the torch rule |out - ref| <= atol + rtol * |ref|. false when it cannot be evaluated
 * (ev->why); else *passed and the figures. */
typedef struct TCheck {
    bool passed;
    double rtol, atol;
    double max_abs_err;             /* max |out - ref| */
    int64_t mismatches, checked;
    int64_t worst;                  /* flat index of the worst element (largest excess), -1 none */
    char shape_msg[128];            /* a shape mismatch (then passed == false) */
} TCheck;
bool tcheck(TEval *ev, const char *kind, const MbExpr *call, TCheck *out);

#endif
