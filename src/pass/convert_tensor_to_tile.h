/* convert_tensor_to_tile — state shared by the files of ConvertTensorToTileOps:
 * convert_tensor_to_tile_ops.c (the pass driver, matmul bridge loads, assemble, exit stores) and
 * convert_tensor_vec.c (the vector ops of spec/ops.md §3.1). */
#ifndef PTOC_CONVERT_TENSOR_TO_TILE_H
#define PTOC_CONVERT_TENSOR_TO_TILE_H

#include "pass/pass.h"

/* Bridge loads already emitted at the top level of a kernel, reused by later matmuls that read the
 * same window of the same read-only (In) tensor. */
typedef struct { Var *src; int64_t off[2], dims[2]; Var *tile; } Loaded;
/* Vec loads of tensors read by vector ops: one per tensor variable (read-only parameter: at entry,
 * list NULL; slice: where first used, reused by later uses in that same statement list). */
typedef struct { Var *tensor; Var *tile; StmtList *list; } VecLoaded;
typedef struct {
    PassCtx *ctx; Function *f;
    StmtList *list; int *at;            /* the statement being converted: list->items[*at] */
    Loaded *cache; int *ncache;
    bool top;                           /* at the function's top level */
    VEC(VecLoaded) *vec_loads;
    VEC(Stmt *) *entry_loads;           /* whole-parameter Vec loads, put at the function's entry */
    VarMap *other_uses;                 /* variables some call reads other than as a matmul operand, a
                                           tensor.read source or a vector op operand (one walk per function) */
} Conv;

/* The assignment defining v anywhere in l (nested bodies included), or NULL. */
Stmt *ctt_def_of(StmtList *l, const Var *v);
/* Whether v is a read-only (In) parameter of f. */
bool ctt_is_in_param(const Function *f, const Var *v);
/* `tile.load(src, offs, shape, valid, target_memory=space)`, typed; NULL after a reported error. */
Expr *ctt_load_call(IrCtx *c, Expr *src, Expr *offs, const int64_t *shape, const int64_t *valid, int rank, MemSpace space,
                    Span sp);
/* Inserts `name = value` before the statement being converted (which moves one down). */
Var *ctt_insert_before(Conv *cv, const char *name, Expr *value);
/* tensor.X (OPF_VEC) -> tile.X on Vec tiles, loading tensor operands (convert_tensor_vec.c). */
bool ctt_convert_vec(Conv *cv, Stmt *s);

#endif
