/* convert_tensor_vec — ConvertTensorToTileOps for the vector ops (spec/ops.md §3.1).
 * Requires: SSAForm; called per tensor.X (OPF_VEC) statement of an InCore function, in order.
 * Produces: `x = tile.X(...)` on Vec tiles. A tensor operand is loaded into Vec: a read-only (In)
 *   parameter whole, once, at the function's entry; a tensor.slice window right before its first
 *   vector use (its offsets may depend on a loop variable), reused by later uses in the same
 *   statement list (which it dominates); a tensor the kernel writes right before each use (after
 *   the writes that precede it). Row reductions get
 *   their scratch tile (`tile.create`, the input's shape with the last dim raised to 128), arg
 *   reductions and xor / xors / rem / rems one of exactly the input's shape. Results
 *   are tiles: a later assemble stores them, a returned one gets an exit store (the pass driver). */
#include "pass/convert_tensor_to_tile.h"

#include <string.h>

/* A load that dominates the statement being converted: at entry, or earlier in the same list. */
static Var *cached_load(Conv *cv, Var *tensor) {
    for (int i = 0; i < cv->vec_loads->len; i++) {
        const VecLoaded *l = &cv->vec_loads->data[i];
        if (l->tensor == tensor && (!l->list || l->list == cv->list)) return l->tile;
    }
    return NULL;
}

/* The Vec load of tensor x: the window of the slice defining it (def), or the whole tensor. */
static Expr *vec_load_call(Conv *cv, Expr *x, const Stmt *def, Span sp) {
    IrCtx *c = cv->ctx->ir;
    int64_t d[8];
    if (x->type->rank > 8 || !ir_type_static_dims(x->type, d)) {
        diag_error(cv->ctx->diag, sp, "a vector op needs a static shape for %s", x->var->name);
        return NULL;
    }
    if (def) return ctt_load_call(c, def->assign.value->call.args[0], def->assign.value->call.args[2], d, d, x->type->rank, MS_VEC, sp);
    Expr *zeros = ir_int_tuple(c, (int64_t[]){ 0, 0, 0, 0, 0, 0, 0, 0 }, x->type->rank);
    return ctt_load_call(c, x, zeros, d, d, x->type->rank, MS_VEC, sp);
}

/* The Vec tile holding tensor operand x (loading it when this is its first vector use). */
static Expr *vec_operand(Conv *cv, Expr *x, Span sp) {
    if (x->type && x->type->kind == TY_TILE && x->type->space != MS_VEC && x->type->space != MS_NONE) {
        /* computed by the cube in this region: one boundary move to Vec per statement list, which
         * ExpandMixedKernel turns into a cross-core push / pop */
        if (x->kind != EX_VAR) {
            diag_error(cv->ctx->diag, sp, "a vector op reads a %s tile that is not a variable", memspace_name(x->type->space));
            return NULL;
        }
        Var *have = cached_load(cv, x->var);
        if (have) return ir_ref(have);
        IrCtx *c = cv->ctx->ir;
        Expr *arg = x;
        Expr *mv = ir_call(c, OP_TILE_MOVE, &arg, 1);
        ir_attr_set(c, &mv->call.kwargs, "target_memory", ir_av_mem(MS_VEC));
        if (!ir_deduce_call(c, mv)) return NULL;
        mv->span = sp;
        Var *t = ctt_insert_before(cv, arena_printf(c->arena, "%s__vec", x->var->name), mv);
        VecLoaded vl = { x->var, t, cv->list };
        vec_push(cv->vec_loads, vl);
        return ir_ref(t);
    }
    if (x->kind != EX_VAR || !x->type || x->type->kind != TY_TENSOR) return x;
    Var *have = cached_load(cv, x->var);
    if (have) return ir_ref(have);
    IrCtx *c = cv->ctx->ir;
    Stmt *d = ctt_def_of(&cv->f->body, x->var);
    bool slice = d && pass_is_op(d->assign.value, OP_TENSOR_SLICE);
    Expr *load = vec_load_call(cv, x, slice ? d : NULL, sp);
    if (!load) return NULL;
    const char *name = arena_printf(c->arena, "%s__vec", x->var->name);
    Var *t;
    if (slice) t = ctt_insert_before(cv, name, load);          /* the window, where the slice is */
    else if (!ctt_is_in_param(cv->f, x->var))
        /* a tensor this kernel writes (an Out / InOut parameter, a store's result): read where it is
         * used, after the writes before it, and never reused (a store may not rebind the name) */
        return ir_ref(ctt_insert_before(cv, name, load));
    else {                                                      /* a read-only parameter: whole, at entry */
        t = ir_var_new(c, name, load->type);
        t->span = sp;
        Stmt *as = ir_assign(c, t, load);
        as->span = cv->f->span;
        vec_push(cv->entry_loads, as);                          /* inserted at the top by the driver */
    }
    VecLoaded vl = { x->var, t, slice ? cv->list : NULL };   /* a slice's window: reused in its list only */
    vec_push(cv->vec_loads, vl);
    return ir_ref(t);
}

/* The scratch tile a tile form needs (§2.6): for a row reduction the input's shape with the last
 * dim raised to 128; for an arg reduction exactly the input's shape (a wider one would make the
 * column argmax walk past the valid columns, §5.12); for xor / xors / rem / rems the input's (lhs's)
 * shape. */
static Expr *op_scratch(Conv *cv, const Expr *x, bool row_reduce, Span sp) {
    IrCtx *c = cv->ctx->ir;
    int64_t d[2] = { ir_type_dim(x->type, 0), ir_type_dim(x->type, 1) };
    if (row_reduce && d[1] < 128) d[1] = 128;
    Expr *cr = ir_call(c, OP_TILE_CREATE, (Expr *[]){ ir_int_tuple(c, d, 2) }, 1);
    cr->span = sp;
    ir_attr_set(c, &cr->call.kwargs, "dtype", ir_av_dtype(x->type->dtype));
    ir_attr_set(c, &cr->call.kwargs, "target_memory", ir_av_mem(MS_VEC));
    if (!ir_deduce_call(c, cr)) return NULL;
    return ir_ref(ctt_insert_before(cv, arena_printf(c->arena, "%s__tmp", x->kind == EX_VAR ? x->var->name : "row"), cr));
}

bool ctt_convert_vec(Conv *cv, Stmt *s) {
    IrCtx *c = cv->ctx->ir;
    Expr *call = s->assign.value;
    OpId tile_op = ir_vec_tile_op(call->call.op);
    PTOC_ASSERT(tile_op != OP_NONE, "no tile form of %s", ir_op_info(call->call.op)->name);
    int n = call->call.nargs;
    VecKind k = ir_vec_kind(call->call.op);
    bool row_reduce = k == VK_ROW_REDUCE;
    bool scratch = ((row_reduce || k == VK_ROW_ARG || k == VK_COL_ARG) && n == 1) ||
                   ir_op_info(tile_op)->min_args > n;   /* xor xors rem rems: a tmp operand last */
    Expr **args = ARENA_ARRAY(c->arena, Expr *, n + 1);
    for (int i = 0; i < n; i++)
        if (!(args[i] = vec_operand(cv, call->call.args[i], call->span))) return false;
    if (scratch && !(args[n++] = op_scratch(cv, args[0], row_reduce, call->span))) return false;
    Expr *t = ir_call(c, tile_op, args, n);
    t->span = call->span;
    t->call.kwargs = call->call.kwargs;
    if (!ir_deduce_call(c, t)) return false;
    s->assign.value = t;
    pass_var_set_type(s->assign.var, t->type);
    return true;
}
