/* ExpandMixedKernel
 * Requires: TileMemoryInferred.
 * Produces: MixedKernelExpanded — no InCore function remains: a pure-cube function is retyped AIC,
 *           a pure-vector (or shared-only) one AIV.
 * Does: classifies every op by core affinity (output space Mat/Left/Right/Acc/Bias, or input from a
 *   cube space for extract/store/move -> cube; Vec -> vector). Splitting a kernel that mixes both
 *   into AIC + AIV + Group with tpush/tpop is not implemented yet and is reported as an error. */
#include "pass/pass.h"

static bool cube_space(MemSpace s) { return s == MS_MAT || s == MS_LEFT || s == MS_RIGHT || s == MS_ACC || s == MS_BIAS; }

typedef struct { int cube, vec; Span vec_span, cube_span; } Affinity;

static void classify(Expr *e, void *ud) {
    Affinity *a = ud;
    if (e->kind != EX_CALL || e->call.op == OP_NONE || e->call.op == OP_TILE_ALLOC) return;
    MemSpace sp = MS_NONE;
    if (e->type && e->type->kind == TY_TILE) sp = e->type->space;
    if (e->call.op == OP_TILE_STORE || e->call.op == OP_TILE_EXTRACT || e->call.op == OP_TILE_MOVE) {
        MemSpace in = e->call.args[0]->type ? e->call.args[0]->type->space : MS_NONE;
        if (e->call.op == OP_TILE_MOVE && cube_space(in) != cube_space(sp)) {   /* a boundary move */
            a->cube++; a->vec++; a->vec_span = e->span; a->cube_span = e->span;
            return;
        }
        sp = in;
    }
    if (sp == MS_NONE || sp == MS_DDR) return;
    if (cube_space(sp)) { a->cube++; a->cube_span = e->span; }
    else { a->vec++; a->vec_span = e->span; }
}

bool pass_expand_mixed_kernel(Program *p, PassCtx *ctx) {
    for (int i = 0; i < p->nfuncs; i++) {
        Function *f = p->funcs[i];
        if (f->type != FT_INCORE) continue;
        Affinity a = {0};
        ir_visit_exprs(&f->body, classify, &a);
        if (a.cube && a.vec) {
            diag_error(ctx->diag, a.vec_span,
                       "kernel '%s' mixes cube and vector work; splitting it into AIC + AIV kernels is not supported by ptoc yet "
                       "(put the vector part in its own pl.at region)", f->name);
            return false;
        }
        ir_func_set_type(f, a.cube ? FT_AIC : FT_AIV);
    }
    return true;
}
