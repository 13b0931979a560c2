/* lower_internal — the state of lowering one AIC/AIV function to a machine kernel, shared by
 * lower.c (data movement, cube, control flow) and lower_vec.c (vector instructions). */
#ifndef PTOC_LOWER_INTERNAL_H
#define PTOC_LOWER_INTERNAL_H

#include "back/back.h"

typedef struct Lower {
    const Function *f;
    const Target *t;
    Kernel *k;
    DiagSink *diag;
    const Var *svars[512]; MirExpr *sexprs[512]; int nsc;   /* scalar Var -> its value as a MirExpr */
    bool ok;
    const Var *ring_base; int ring_slots; int64_t ring_slot_bytes;   /* the cross-core ring (lower_xcore.c) */
} Lower;

void lower_fail(Lower *l, Span sp, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
MirExpr *lower_scalar(Lower *l, const Expr *e);                 /* an integer scalar expression */
int lower_buf(Lower *l, const Expr *e, Span sp);                 /* the buffer of an allocated 2-D tile */
MirInst *lower_inst(Lower *l, MirBlock *b, MirOp op, int dst, int src0, Span sp);
void lower_vec(Lower *l, MirBlock *b, Var *v, Expr *c, Span sp); /* a tile vector op (lower_vec.c) */
/* A tile.slice view's buffer (lower_vec.c): at the parent's address plus the view's start offset,
 * `cols` the parent's row pitch (the capacity a row steps over), the view's own columns valid. */
void lower_view_window(MirBuf *b, const TileView *v);
/* lower_xcore.c: the kernel's cross-core ring (a tile.alloc with ring_slots), and tpush / tpop / tfree */
void lower_find_ring(Lower *l);
void lower_xcore(Lower *l, MirBlock *b, Var *v, Expr *c, Span sp);

#endif
