/* expand_mixed — ExpandMixedKernel's private interface: statement affinity, one side of a split
 * kernel, and the AIV lanes of a split region (expand_mixed_kernel.c, expand_mixed_side.c,
 * expand_mixed_lanes.c). */
#ifndef PTOC_PASS_EXPAND_MIXED_H
#define PTOC_PASS_EXPAND_MIXED_H

#include "pass/pass.h"

/* Core affinity: which side a statement needs (a bit set; AFF_BOTH = a compound statement or a
 * boundary move). */
typedef enum { AFF_SHARED = 0, AFF_CUBE = 1, AFF_VEC = 2, AFF_BOTH = 3 } Aff;
/* A value crossing sides: a tile.move between a cube space and Vec, or a fence marker (a push with
 * no operand, inserted before a load that reads what the other side stored). */
typedef enum { XB_NONE = 0, XB_C2V, XB_V2C } Boundary;

bool emk_cube_space(MemSpace s);
bool emk_is_xcore(OpId op);            /* tpush / tpop / tfree in either direction */
Boundary emk_boundary(const Expr *call);
Aff emk_call_aff(const Expr *call);
Aff emk_stmt_aff(const Stmt *s);
Aff emk_type_aff(const Type *t);

/* The options of the split region: split 0 none, 1 up_down, 2 left_right; slot_num the ring depth. */
typedef struct EmkOpts { int split, slot_num; } EmkOpts;

/* Keeps the statements of side (AFF_CUBE or AFF_VEC) in l (a clone of the mixed body): the other
 * side's statements go, boundary moves and fences become tpush / tpop, each popped tile gets a
 * tfree after its last use, loop carries and if results of the other side are dropped. False after
 * a diagnostic. */
bool emk_keep_side(PassCtx *ctx, Function *f, StmtList *l, Aff side, const EmkOpts *o);

/* Pushes a carried value at the end of the iteration that makes it (and its init value before the
 * loop) instead of at the top of the next one, and drops the carry when nothing else on the side
 * reads it (expand_mixed_carry.c; the channel order does not change). */
void emk_early_carry_pushes(PassCtx *ctx, StmtList *l);

/* Specialises AIV function f to lane `lane` of split o->split: every Vec tile whose extent along the
 * split axis is the crossing tiles' extent keeps only the lane's part (lane 0 the first
 * ceil(E / 2), lane 1 the rest), and GM windows move by the part's offset. False after a
 * diagnostic naming the tile or op that cannot be split. */
bool emk_split_lane(PassCtx *ctx, Function *f, const EmkOpts *o, int lane);

#endif
