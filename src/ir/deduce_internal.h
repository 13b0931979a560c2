/* deduce_internal — helpers shared by the type-deduction files (deduce.c: data movement, cube and
 * tensor ops; deduce_vec.c: the vector ops of spec/ops.md). */
#ifndef PTOC_DEDUCE_INTERNAL_H
#define PTOC_DEDUCE_INTERNAL_H

#include "ir/ir.h"

/* "'a' tile [128, 512] FP16" (arena string) for error messages */
const char *ir_deduce_describe(IrCtx *c, const Expr *e);
/* Reports a located user error at the call; returns false. */
bool ir_deduce_fail(IrCtx *c, const Expr *call, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* A tuple of constant integers (at most 8) into out / n. */
bool ir_deduce_static_tuple(const Expr *e, int64_t *out, int *n);
/* No negative dimension, a byte size that fits in int64, a supported element type. */
bool ir_deduce_shape_ok(IrCtx *c, const Expr *call, const int64_t *d, int n, DType dt);
/* Sets t's view, or none when it equals the implicit one (canonical encoding). */
void ir_deduce_set_view(IrCtx *c, Type *t, TileView v);
/* Scalar element access: tensor/tile read and write (deduce_access.c). */
bool ir_deduce_access(IrCtx *c, Expr *call);
/* Vector ops (deduce_vec.c). */
bool ir_deduce_vec(IrCtx *c, Expr *call);

#endif
