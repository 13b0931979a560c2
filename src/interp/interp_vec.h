/* interp_vec — private to the interpreter's vector ops: interp_vec.c (arguments, element
 * arithmetic, elementwise ops, casts, the expand family, dispatch) and interp_vec_reduce.c (fills
 * and reductions) share the argument record and the helpers declared here.
 *
 * Requires: interp_internal.h. Produces: nothing outside src/interp/.
 * Arrays are seen as 2-D matrices [rows, cols]: cols is the last dim (1 for rank 0), rows the
 * product of the others; a row is valid when each of its leading indices is inside the valid box
 * (so an N-D tile's valid box is walked row by row, as FlattenTileNdTo2D would see it). */
#ifndef PTOC_INTERP_VEC_H
#define PTOC_INTERP_VEC_H

#include "interp/interp_internal.h"

#define VEC_MAX_ARGS 4

/* One vector op call with its evaluated arguments (owned; released by interp_vec_op). */
typedef struct VecArgs {
    InterpCtx *c;
    const Expr *call;
    InterpValue v[VEC_MAX_ARGS];
    int n;
} VecArgs;

const char *vec_name(const VecArgs *a);                       /* "tile.add" */
bool vec_arg_array(VecArgs *a, int i, const char *what, InterpArray **out);
/* Argument i as a scalar converted to dtype `to`: a float rounds to nearest even (to a float
 * type) or truncates and saturates (to an integer type); an integer wraps to `to`'s width. */
bool vec_arg_scalar(VecArgs *a, int i, DType to, double *out);
/* The dtype written as argument i (pl.FP16, an enum expression); false when it is not one. */
bool vec_arg_dtype(const VecArgs *a, int i, DType *out);
/* call->type's dtype when it is a tensor/tile of a supported dtype, else fallback. */
DType vec_result_dtype(const VecArgs *a, DType fallback);
/* A fresh zero array (valid = shape). The shape must agree with call->type's static dims: a
 * disagreement between type deduction and the interpreter is reported, never followed silently. */
bool vec_new_result(VecArgs *a, DType dt, int rank, const int64_t *shape, InterpArray **out);

int64_t vec_cols(const InterpArray *x);
int64_t vec_rows(const InterpArray *x);
int64_t vec_valid_cols(const InterpArray *x);
bool vec_row_valid(const InterpArray *x, int64_t r);

/* A value of dtype `from` (already rounded to it) as a value of `to`: identity when equal, else
 * dtype_convert with round-to-nearest-even (float target) or truncation (integer target). */
double vec_convert(DType to, DType from, double v);
/* Integer element values <-> two's-complement bits; vec_wrap keeps dt's width (sign-extended for
 * signed types). */
uint64_t vec_bits(double v);
double vec_wrap(DType dt, uint64_t bits);

/* std::max / std::min: max(a, NaN) = a, max(NaN, b) = NaN (spec/ops.md §2.8). */
static inline double vec_max(double a, double b) { return a < b ? b : a; }
static inline double vec_min(double a, double b) { return b < a ? b : a; }

/* full, expands, fillpad and the row/col reductions (interp_vec_reduce.c); the op must be one of
 * them, anything else is reported as unsupported. */
bool interp_vec_fill_reduce(VecArgs *a, InterpValue *out);
/* cmp, cmps and sel (interp_vec_cmp.c). */
bool interp_vec_cmp(VecArgs *a, InterpValue *out);
/* transpose, transpose_view, concat and tile slice (interp_vec_move.c). */
bool interp_vec_move(VecArgs *a, InterpValue *out);
/* fmod rem and_ or_ xor shl shr (and their scalar forms), not_, lrelu prelu, row/col_expand_expdif
 * and part_* (interp_vec_bits.c). */
bool interp_vec_bits(VecArgs *a, InterpValue *out);
/* row/col argmax/argmin (interp_vec_arg.c). */
bool interp_vec_arg(VecArgs *a, InterpValue *out);
/* sin and cos: the FP32 step sequence of spec/ops.md §4.3 (interp_vec_trig.c). */
bool interp_vec_trig(VecArgs *a, InterpValue *out);

#endif
