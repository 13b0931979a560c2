/* ConvertTensorToTileOps
 * Requires: SSAForm, SplitIncoreOrch.
 * Produces: IncoreTileOps — InCore functions use tile ops only.
 * Does: tensor.matmul(a, b) becomes two GM->Mat bridge loads (the operand tensor, or the window of
 *   a tensor.slice feeding it; the left operand's rows rounded up to the 16-row box with the true
 *   extent as valid_shape) and tile.matmul producing an Acc tile of the accumulator dtype. An operand
 *   marked a_trans / b_trans (A stored [K, M], B stored [N, K]) is loaded as stored and read through
 *   a zero-copy tile.transpose_view (NZ seen as ZN); A^T's columns (M) are padded instead of its
 *   rows, to the ZN box rows (32 for INT8, else 16);
 *   tensor.assemble(tensor, tile, offs) becomes tile.store(tile, offs, tensor) (atomic kept). A later
 *   matmul reading the same window of the same In tensor at the top level reuses the earlier load
 *   (same physical tile only). tensor.matmul_acc(acc, a, b) with acc an Acc tile of the region
 *   becomes bridge loads (a_trans / b_trans as above; the left operand padded to the accumulator's
 *   rows, or an error when its box does not allow that) and tile.matmul_acc; a loop whose carried
 *   value starts as such a tile carries the tile (walkthrough rung 3: a split-K chain over user chunks in pl.pipeline).
 *   tensor.read / tensor.write stay scalar GM accesses, or become tile.read / tile.write of a
 *   tensor the region holds in a tile.
 *   Vector ops (tensor.X with OPF_VEC) become tile.X on Vec tiles (convert_tensor_vec.c: Vec loads
 *   of their tensor operands, row-reduction scratch tiles). A returned value that became a tile is
 *   stored to a new Out parameter, and every call site passes a tensor.create for it (exit stores).
 *   Vector ops outside InCore functions, and tensor ops this pass does not lower, are reported as
 *   user errors naming the op. */
#include "pass/convert_tensor_to_tile.h"

#include <string.h>

bool ctt_is_in_param(const Function *f, const Var *v) {
    for (int i = 0; i < f->params.len; i++)
        if (f->params.items[i] == v) return f->param_dirs[i] == PD_IN;
    return false;
}

Stmt *ctt_def_of(StmtList *l, const Var *v) {
    for (int i = 0; i < l->len; i++) {
        Stmt *s = l->items[i];
        if (s->kind == ST_ASSIGN && s->assign.var == v) return s;
        Stmt *r = NULL;
        if (s->kind == ST_FOR) r = ctt_def_of(&s->for_.body, v);
        if (s->kind == ST_IF) { r = ctt_def_of(&s->if_.then_body, v); if (!r) r = ctt_def_of(&s->if_.else_body, v); }
        if (s->kind == ST_WHILE) r = ctt_def_of(&s->while_.body, v);
        if (s->kind == ST_SCOPE) r = ctt_def_of(&s->scope.body, v);
        if (r) return r;
    }
    return NULL;
}

/* `t__t = tile.transpose_view(t)` before the current statement: a Mat tile read transposed. */
static Expr *transpose_view(Conv *cv, Var *t, Span sp) {
    IrCtx *c = cv->ctx->ir;
    Expr *arg = ir_ref(t);
    Expr *view = ir_call(c, OP_TILE_TRANSPOSE_VIEW, &arg, 1);
    view->span = sp;
    PTOC_ASSERT(ir_deduce_call(c, view), "transpose_view of Mat tile %s", t->name);
    Var *v = ctt_insert_before(cv, arena_printf(c->arena, "%s_t", t->name), view);
    v->span = sp;
    return ir_ref(v);
}

/* The row box of the left operand in Mat: 16 for its natural NZ layout; for a transposed one (a ZN
 * view) the ZN box rows, 32 bytes of elements (INT8: 32), at least the 16-row cube fractal. */
static int64_t lhs_row_box(DType dt, bool trans) {
    int64_t eb = dtype_bytes(dt), w = eb > 0 ? 32 / eb : 16;
    return trans && w > 16 ? w : 16;
}

/* Emits `o__tile = tile.load(src, offs, shape, valid, target_memory=Mat)` before the current statement.
 * trans: the operand is stored transposed (A as [K, M], B as [N, K]); it is loaded as stored and the
 * matmul reads it through `o__tile_t = tile.transpose_view(o__tile)` (NZ seen as ZN, no copy). */
static Expr *bridge_load(Conv *cv, Expr *operand, bool is_lhs, bool trans, int64_t acc_rows, Span at) {
    IrCtx *c = cv->ctx->ir;
    Expr *src = operand, *offs = NULL;
    int64_t dims[2];
    if (operand->kind == EX_VAR && operand->type->kind == TY_TILE && operand->type->space == MS_VEC) {
        /* computed by vector ops in this region: a boundary move into Mat (ExpandMixedKernel makes it
         * a vector -> cube push / pop) */
        IrCtx *c = cv->ctx->ir;
        Expr *mv = ir_call(c, OP_TILE_MOVE, &operand, 1);
        ir_attr_set(c, &mv->call.kwargs, "target_memory", ir_av_mem(MS_MAT));
        if (!ir_deduce_call(c, mv)) return NULL;
        mv->span = at;
        return ir_ref(ctt_insert_before(cv, arena_printf(c->arena, "%s__mat", operand->var->name), mv));
    }
    if (trans && operand->kind == EX_VAR && operand->type->kind == TY_TILE) {
        diag_error(cv->ctx->diag, at,
                   "matmul operand '%s' is computed on-chip in this pl.at region and marked %s; a transposed on-chip "
                   "operand is not supported by ptoc yet: assemble it into a tensor in one pl.at region and use that "
                   "tensor in the next, or compute it untransposed", operand->var->name, is_lhs ? "a_trans" : "b_trans");
        return NULL;
    }
    /* a matmul result of this region (or its cast): AutoTileMatmulL0 gives the consumer a Mat copy */
    if (operand->kind == EX_VAR && operand->type->kind == TY_TILE && operand->type->space == MS_ACC) return operand;
    if (operand->kind == EX_VAR && operand->type->kind == TY_TILE) {
        diag_error(cv->ctx->diag, at,
                   "matmul operand '%s' is computed on-chip in this pl.at region; feeding one matmul's result to another "
                   "on-chip is not supported by ptoc yet: assemble it into a tensor in one pl.at region and use that "
                   "tensor in the next", operand->var->name);
        return NULL;
    }
    if (operand->kind != EX_VAR || operand->type->kind != TY_TENSOR || operand->type->rank != 2 ||
        !ir_type_static_dims(operand->type, dims)) {
        diag_error(cv->ctx->diag, at, "matmul operand %s must be a static 2-D tensor",
                   operand->kind == EX_VAR ? operand->var->name : "");
        return NULL;
    }
    Stmt *d = ctt_def_of(&cv->f->body, operand->var);
    if (d && pass_is_op(d->assign.value, OP_TENSOR_SLICE)) {
        src = d->assign.value->call.args[0];
        offs = d->assign.value->call.args[2];
    }
    if (!offs) offs = ir_int_tuple(c, (int64_t[]){ 0, 0 }, 2);
    int64_t o[2];
    bool invariant = src->kind == EX_VAR && ctt_is_in_param(cv->f, src->var) && offs->kind == EX_TUPLE &&
                     ir_is_const_int(offs->tuple.items[0], &o[0]) && ir_is_const_int(offs->tuple.items[1], &o[1]);
    /* a constant window of a read-only parameter inside a loop or branch is loaded once, at entry */
    bool cacheable = invariant, hoist = invariant && !cv->top;
    int64_t phys[2] = { dims[0], dims[1] };
    int mdim = trans ? 1 : 0, box = (int)lhs_row_box(operand->type->dtype, trans);   /* M: rows, or columns of A^T */
    if (is_lhs && phys[mdim] % box) phys[mdim] = (phys[mdim] + box - 1) / box * box;
    if (is_lhs && acc_rows && phys[mdim] != acc_rows) {   /* matmul_acc: the rows of the accumulator it adds to */
        if (acc_rows < dims[mdim] || acc_rows % box) {
            diag_error(cv->ctx->diag, at,
                       "matmul_acc: the accumulator has %lld rows (M = %lld padded to the 16-row box) but its %sleft operand "
                       "needs M padded to a multiple of %lld; give M a multiple of %lld rows, or use a_trans in every "
                       "matmul of the chain", (long long)acc_rows, (long long)dims[mdim],
                       trans ? "transposed (a_trans) " : "", (long long)box, (long long)box);
            return NULL;
        }
        phys[mdim] = acc_rows;
    }
    /* reuse needs the same physical tile too: a left operand's rows (M) are padded, a right one's (K)
     * are not — a window read as both would otherwise give the right operand a padded K */
    for (int i = 0; cacheable && i < *cv->ncache; i++) {
        Loaded *L = &cv->cache[i];
        if (L->src == src->var && L->off[0] == o[0] && L->off[1] == o[1] && L->dims[0] == dims[0] && L->dims[1] == dims[1] &&
            ir_type_dim(L->tile->type, 0) == phys[0] && ir_type_dim(L->tile->type, 1) == phys[1])
            return trans ? transpose_view(cv, L->tile, operand->span) : ir_ref(L->tile);
    }
    Expr *load = ctt_load_call(c, src, offs, phys, dims, 2, MS_MAT, operand->span);
    if (!load) return NULL;
    ir_attr_set(c, &load->call.attrs, "__compiler_tensor_to_tile_mat_bridge", ir_av_bool(true));
    Var *t;
    if (hoist) {
        t = ir_var_new(c, arena_printf(c->arena, "%s__tile", operand->var->name), load->type);
        Stmt *as = ir_assign(c, t, load);
        as->span = operand->span;
        vec_push(cv->entry_loads, as);                          /* inserted at the top by the driver */
    } else t = ctt_insert_before(cv, arena_printf(c->arena, "%s__tile", operand->var->name), load);
    t->span = operand->span;
    if (cacheable && *cv->ncache < 32) cv->cache[(*cv->ncache)++] = (Loaded){ src->var, { o[0], o[1] }, { dims[0], dims[1] }, t };
    return trans ? transpose_view(cv, t, operand->span) : ir_ref(t);
}

Expr *ctt_load_call(IrCtx *c, Expr *src, Expr *offs, const int64_t *shape, const int64_t *valid, int rank, MemSpace space,
                    Span sp) {
    Expr *args[4] = { src, offs, ir_int_tuple(c, shape, rank), ir_int_tuple(c, valid, rank) };
    Expr *load = ir_call(c, OP_TILE_LOAD, args, 4);
    load->span = sp;
    ir_attr_set(c, &load->call.kwargs, "target_memory", ir_av_mem(space));
    return ir_deduce_call(c, load) ? load : NULL;
}

Var *ctt_insert_before(Conv *cv, const char *name, Expr *value) {
    IrCtx *c = cv->ctx->ir;
    Var *t = ir_var_new(c, name, value->type);
    Stmt *s = ir_assign(c, t, value);
    s->span = (*cv->list).items[*cv->at]->span;
    t->span = s->span;
    ir_list_insert(c, cv->list, *cv->at, s);
    (*cv->at)++;
    return t;
}

/* Every use of v is a matrix operand of a tensor-level matmul (the chained-matmul case). */
typedef struct { const Var *v; int all, mm; } MmUses;
static void mm_use(Expr *e, void *ud) {
    MmUses *u = ud;
    if (e->kind == EX_VAR && e->var == u->v) u->all++;
    if (e->kind != EX_CALL || !(pass_is_op(e, OP_TENSOR_MATMUL) || pass_is_op(e, OP_TENSOR_MATMUL_ACC))) return;
    int first = e->call.op == OP_TENSOR_MATMUL_ACC;
    for (int i = first; i < first + 2 && i < e->call.nargs; i++)
        if (e->call.args[i]->kind == EX_VAR && e->call.args[i]->var == u->v) u->mm++;
}
static bool only_matmul_operand(Function *f, const Var *v) {
    MmUses u = { v, 0, 0 };
    ir_visit_exprs(&f->body, mm_use, &u);
    return u.all > 0 && u.all == u.mm;
}

/* `x = tile.cast(acc, dtype, mode="rint")` after the current statement: a chained matmul's out_dtype
 * (FIXPIPE narrows half to even, as a store of the result would); AutoTileMatmulL0 folds it. */
static bool cast_after(Conv *cv, Var *x, Var *acc, DType dt, Span sp) {
    IrCtx *c = cv->ctx->ir;
    Expr *dte = ir_enum_mem(c, MS_NONE);             /* an enum expression, retargeted to the dtype */
    dte->enm = ir_av_dtype(dt);
    Expr *cast = ir_call(c, OP_TILE_CAST, (Expr *[]){ ir_ref(acc), dte }, 2);
    cast->span = sp;
    ir_attr_set(c, &cast->call.kwargs, "mode", ir_av_str("rint"));
    if (!ir_deduce_call(c, cast)) return false;
    pass_var_set_type(x, cast->type);
    Stmt *st = ir_assign(c, x, cast);
    st->span = sp;
    ir_list_insert(c, cv->list, *cv->at + 1, st);
    return true;
}

/* tensor.cast of a matmul result of this region feeding only matmuls: tile.cast of the Acc tile. */
static bool convert_acc_cast(Conv *cv, Stmt *s) {
    Expr *call = s->assign.value;
    if (!only_matmul_operand(cv->f, s->assign.var)) return ctt_convert_vec(cv, s);   /* refused there: a mixed kernel */
    Expr *t = ir_call(cv->ctx->ir, OP_TILE_CAST, call->call.args, call->call.nargs);
    t->span = call->span;
    t->call.kwargs = call->call.kwargs;
    if (!ir_deduce_call(cv->ctx->ir, t)) return false;
    s->assign.value = t;
    pass_var_set_type(s->assign.var, t->type);
    return true;
}

static bool kw_flag(const Expr *call, const char *name) {
    const AttrVal *v = ir_attr_get(&call->call.kwargs, name);
    return v && v->i;
}

static bool convert_matmul(Conv *cv, Stmt *s) {
    IrCtx *c = cv->ctx->ir;
    Expr *call = s->assign.value;
    Expr *a = bridge_load(cv, call->call.args[0], true, kw_flag(call, "a_trans"), 0, call->span);
    Expr *b = a ? bridge_load(cv, call->call.args[1], false, kw_flag(call, "b_trans"), 0, call->span) : NULL;
    if (!b) return false;
    Expr *mm = ir_call(c, OP_TILE_MATMUL, (Expr *[]){ a, b }, 2);
    mm->span = call->span;
    if (!ir_deduce_call(c, mm)) return false;
    int64_t M = ir_type_dim(call->type, 0);
    if (M != ir_type_dim(mm->type, 0)) {            /* valid rows of a row-padded product */
        TileView v = ir_implicit_view(mm->type);
        v.nvalid = 2;
        v.valid_shape = ARENA_ARRAY(c->arena, Expr *, 2);
        v.valid_shape[0] = ir_const_int(c, M, DT_INDEX);
        v.valid_shape[1] = mm->type->shape[1];
        mm->type->view = ARENA_NEW(c->arena, TileView);
        *mm->type->view = v;
    }
    DType want = call->type->dtype;
    if (want != mm->type->dtype && only_matmul_operand(cv->f, s->assign.var)) {   /* chained, with out_dtype */
        Var *x = s->assign.var, *acc = ir_var_new(c, arena_printf(c->arena, "%s__acc", x->name), mm->type);
        acc->span = x->span;
        s->assign.var = acc;
        s->assign.value = mm;
        return cast_after(cv, x, acc, want, call->span);
    }
    s->assign.value = mm;
    pass_var_set_type(s->assign.var, mm->type);
    return true;
}

static bool convert_assemble(Conv *cv, Stmt *s) {
    IrCtx *c = cv->ctx->ir;
    Expr *call = s->assign.value;
    Expr *target = call->call.args[0], *src = call->call.args[1];
    if (src->type->kind != TY_TILE) {
        diag_error(cv->ctx->diag, call->span, "assemble of a tensor into a tensor inside pl.at is not supported by ptoc yet");
        return false;
    }
    Expr *st = ir_call(c, OP_TILE_STORE, (Expr *[]){ src, call->call.args[2], target }, 3);
    st->span = call->span;
    const AttrVal *atomic = ir_attr_get(&call->call.kwargs, "atomic");
    if (atomic) ir_attr_set(c, &st->call.kwargs, "atomic", *atomic);
    if (!ir_deduce_call(c, st)) return false;
    s->assign.value = st;
    pass_var_set_type(s->assign.var, st->type);
    return true;
}

static bool only_feeds_matmul(const Conv *cv, Var *v);

/* A loop carrying a matmul result: its initial value became an Acc tile (an earlier tensor.matmul),
 * so the carried value and the loop's result are that tile too (walkthrough rung 3: a split-K chain
 * over user chunks). The body's matmul_acc then accumulates into it on-chip. */
static void carry_tiles_in(Stmt *loop) {
    for (int i = 0; i < loop->for_.iter_args.len; i++) {
        Var *it = loop->for_.iter_args.items[i];
        if (it->init && it->init->type && it->init->type->kind == TY_TILE && it->type->kind == TY_TENSOR)
            pass_var_set_type(it, it->init->type);
    }
}

static void carry_tiles_out(Stmt *loop) {
    for (int i = 0; i < loop->for_.iter_args.len && i < loop->for_.return_vars.len; i++)
        if (loop->for_.iter_args.items[i]->type->kind == TY_TILE)
            pass_var_set_type(loop->for_.return_vars.items[i], loop->for_.iter_args.items[i]->type);
}

/* tensor.matmul_acc(acc, a, b) with acc an on-chip accumulator (a converted tensor.matmul, or a loop
 * carrying one): bridge loads of a and b to Mat, tile.matmul_acc into acc. */
static bool convert_matmul_acc(Conv *cv, Stmt *s) {
    IrCtx *c = cv->ctx->ir;
    Expr *call = s->assign.value, *acc = call->call.args[0];
    if (!acc->type || acc->type->kind != TY_TILE || acc->type->space != MS_ACC) {
        diag_error(cv->ctx->diag, call->span, "tensor.matmul_acc inside pl.at needs an accumulator computed on-chip in the same "
                   "region (acc = pl.matmul(...) first); accumulating into a tensor is not supported by ptoc yet");
        return false;
    }
    if (call->call.nargs > 3 || ir_attr_get(&call->call.kwargs, "init_cond")) {
        diag_error(cv->ctx->diag, call->span, "tensor.matmul_acc inside pl.at with init_cond is not supported by ptoc yet");
        return false;
    }
    Expr *a = bridge_load(cv, call->call.args[1], true, kw_flag(call, "a_trans"), ir_type_dim(acc->type, 0), call->span);
    Expr *b = a ? bridge_load(cv, call->call.args[2], false, kw_flag(call, "b_trans"), 0, call->span) : NULL;
    if (!b) return false;
    Expr *mm = ir_call(c, OP_TILE_MATMUL_ACC, (Expr *[]){ acc, a, b }, 3);
    mm->span = call->span;
    if (!ir_deduce_call(c, mm)) return false;
    s->assign.value = mm;
    pass_var_set_type(s->assign.var, mm->type);
    return true;
}

/* A name carried around a loop or merged by an if holds a tensor before it and, once the body's
 * matmuls became tiles, an on-chip tile inside it: 't = pl.matmul(...)' where t is a tensor (a
 * parameter) rebinds the name, it does not write the tensor. The carried value would need a type
 * for both, so this is a user error with the two fixes. */
static bool carried_types_agree(PassCtx *ctx, const StmtList *body, const VarList *carried, const char *what, Span at) {
    if (!body->len || body->items[body->len - 1]->kind != ST_YIELD) return true;
    const Stmt *y = body->items[body->len - 1];
    for (int i = 0; i < y->yield.n && i < carried->len; i++) {
        const Var *v = carried->items[i];
        if (y->yield.values[i]->type->kind != TY_TILE || v->type->kind != TY_TENSOR) continue;
        int n = pass_user_name_len(v->name);
        const Expr *val = y->yield.values[i];
        const Stmt *def = val->kind == EX_VAR ? ctt_def_of((StmtList *)body, val->var) : NULL;
        if (def && def->span.file) at = def->span;
        diag_error(ctx->diag, at,
                   "'%.*s' is a tensor before this %s and an on-chip matmul result inside it: assigning to a name "
                   "rebinds it and does not write the tensor; write into it with '%.*s[rows, cols] = ...' (or "
                   "pl.assemble), or give the result a new name",
                   n, v->name, what, n, v->name);
        return false;
    }
    return true;
}

/* tensor.read / tensor.write stay scalar GM accesses (spec/ops.md §3.1 item 5), unless the tensor is
 * now a tile (the result of a converted vector op): then they are tile.read / tile.write of it. A
 * slice is read through its base tensor at the offset indices. */
static bool convert_access(Conv *cv, Stmt *s) {
    Expr *call = s->assign.value, *x = call->call.args[0];
    bool write = call->call.op == OP_TENSOR_WRITE;
    if (x->type && x->type->kind == TY_TILE) {
        call->call.op = write ? OP_TILE_WRITE : OP_TILE_READ;
        if (write) s->assign.var->type = x->type;
        return ir_deduce_call(cv->ctx->ir, call);
    }
    Stmt *def = x->kind == EX_VAR ? ctt_def_of(&cv->f->body, x->var) : NULL;
    if (def && pass_is_op(def->assign.value, OP_TENSOR_SLICE) && write) {
        diag_error(cv->ctx->diag, call->span, "tensor.write of a slice inside pl.at is not supported by ptoc yet; write the "
                   "element of the sliced tensor at the offset index");
        return false;
    }
    if (def && pass_is_op(def->assign.value, OP_TENSOR_SLICE)) {
        Expr *base = def->assign.value->call.args[0], *offs = def->assign.value->call.args[2], *idx = call->call.args[1];
        int n = idx->kind == EX_TUPLE ? idx->tuple.n : 1;
        if (offs->kind != EX_TUPLE || offs->tuple.n != n || base->type->rank != n) {
            diag_error(cv->ctx->diag, call->span, "tensor.read of this slice inside pl.at is not supported by ptoc yet");
            return false;
        }
        Expr **sum = ARENA_ARRAY(cv->ctx->ir->arena, Expr *, n);
        for (int d = 0; d < n; d++)
            sum[d] = ir_binary(cv->ctx->ir, BIN_ADD, offs->tuple.items[d], idx->kind == EX_TUPLE ? idx->tuple.items[d] : idx);
        call->call.args[0] = base;
        call->call.args[1] = ir_tuple(cv->ctx->ir, sum, n);
        return ir_deduce_call(cv->ctx->ir, call);
    }
    return true;
}

static bool convert_list(Conv *outer, StmtList *l, bool top) {
    PassCtx *ctx = outer->ctx;
    for (int i = 0; i < l->len; i++) {
        Stmt *s = l->items[i];
        Conv cv = *outer;
        cv.list = l;
        cv.at = &i;
        cv.top = top;
        if (s->kind == ST_FOR) carry_tiles_in(s);
        if (s->kind == ST_FOR && (!convert_list(&cv, &s->for_.body, false) ||
                                  !carried_types_agree(ctx, &s->for_.body, &s->for_.iter_args, "loop", s->span)))
            return false;
        if (s->kind == ST_FOR) carry_tiles_out(s);
        if (s->kind == ST_IF && (!convert_list(&cv, &s->if_.then_body, false) ||
                                 !convert_list(&cv, &s->if_.else_body, false) ||
                                 !carried_types_agree(ctx, &s->if_.then_body, &s->if_.return_vars, "if", s->span) ||
                                 !carried_types_agree(ctx, &s->if_.else_body, &s->if_.return_vars, "if", s->span)))
            return false;
        if (s->kind == ST_WHILE && (!convert_list(&cv, &s->while_.body, false) ||
                                    !carried_types_agree(ctx, &s->while_.body, &s->while_.iter_args, "loop", s->span)))
            return false;
        if (s->kind == ST_SCOPE && !convert_list(&cv, &s->scope.body, top)) return false;
        Expr *call = pass_stmt_call(s);
        if (!call || call->call.op == OP_NONE || !(ir_op_info(call->call.op)->flags & OPF_TENSOR)) continue;
        if (s->kind != ST_ASSIGN) {
            diag_error(ctx->diag, call->span, "the result of %s is unused", ir_op_info(call->call.op)->name);
            return false;
        }
        if (call->call.op == OP_TENSOR_CAST && call->call.args[0]->type->kind == TY_TILE &&
            call->call.args[0]->type->space == MS_ACC) {
            if (!convert_acc_cast(&cv, s)) return false;
            continue;
        }
        if (ir_op_info(call->call.op)->flags & OPF_VEC) {
            if (!ctt_convert_vec(&cv, s)) return false;
            continue;
        }
        switch (call->call.op) {
        case OP_TENSOR_READ: case OP_TENSOR_WRITE:   /* a GM scalar access, or one of a tensor now held in a tile */
            if (!convert_access(&cv, s)) return false;
            break;
        case OP_TENSOR_MATMUL: if (!convert_matmul(&cv, s)) return false; break;
        case OP_TENSOR_MATMUL_ACC: if (!convert_matmul_acc(&cv, s)) return false; break;
        case OP_TENSOR_ASSEMBLE: if (!convert_assemble(&cv, s)) return false; break;
        case OP_TENSOR_SLICE:
            if (!only_feeds_matmul(&cv, s->assign.var)) {
                diag_error(ctx->diag, call->span, "a tensor slice inside pl.at must feed a matmul operand or a vector op (other "
                           "uses are not supported by ptoc yet)");
                return false;
            }
            break;
        default:
            diag_error(ctx->diag, call->span, "%s inside pl.at is not supported by ptoc yet", ir_op_info(call->call.op)->name);
            return false;
        }
    }
    return true;
}

/* Every variable a call reads other than as a matmul operand (the accumulator of a matmul_acc
 * excepted), a tensor.read source or a vector op operand: what a slice inside pl.at may not feed. A
 * slice's uses follow its definition, so the walk before the conversion sees them as they are. */
static void note_other_use(Expr *e, void *ud) {
    VarMap *m = ud;
    if (e->kind != EX_CALL) return;
    for (int i = 0; i < e->call.nargs; i++)
        if (e->call.args[i]->kind == EX_VAR && !pass_is_op(e, OP_TENSOR_MATMUL) && !pass_is_op(e, OP_TENSOR_READ) &&
            !(pass_is_op(e, OP_TENSOR_MATMUL_ACC) && i > 0) && !(e->call.op != OP_NONE && (ir_op_info(e->call.op)->flags & OPF_VEC)) &&
            !ir_varmap_get(m, e->call.args[i]->var))
            ir_varmap_put(m, e->call.args[i]->var, e);
}
static bool only_feeds_matmul(const Conv *cv, Var *v) { return !ir_varmap_get(cv->other_uses, v); }

/* Slices consumed by the bridge loads are dead now: those no expression reads (one walk for the
 * uses, then a pass that drops them). */
static void drop_unused_slices(StmtList *l, const PassUses *used) {
    for (int i = 0; i < l->len; i++) {
        Stmt *s = l->items[i];
        if (s->kind == ST_ASSIGN && pass_is_op(s->assign.value, OP_TENSOR_SLICE) && pass_uses_of(used, s->assign.var) == 0) {
            memmove(l->items + i, l->items + i + 1, sizeof(Stmt *) * (size_t)(l->len - i - 1));
            l->len--;
            i--;
        } else if (s->kind == ST_FOR) {
            drop_unused_slices(&s->for_.body, used);
        } else if (s->kind == ST_IF) {
            drop_unused_slices(&s->if_.then_body, used);
            drop_unused_slices(&s->if_.else_body, used);
        } else if (s->kind == ST_WHILE) {
            drop_unused_slices(&s->while_.body, used);
        } else if (s->kind == ST_SCOPE) {
            drop_unused_slices(&s->scope.body, used);
        }
    }
}

static void drop_dead_slices(PassCtx *ctx, Function *f) {
    PassUses used;
    pass_uses_count(ctx, &f->body, &used);
    drop_unused_slices(&f->body, &used);
    pass_uses_free(&used);
}

/* ---- exit stores (step 4) and call sites (phase 2) ---- */

/* Every call of f anywhere in l gets `name = tensor.create(shape, dtype=...)` per added Out
 * parameter, appended to its arguments. */
static void add_out_args(PassCtx *ctx, StmtList *l, Function *f, Var **outs, int nouts) {
    IrCtx *c = ctx->ir;
    for (int i = 0; i < l->len; i++) {
        Stmt *s = l->items[i];
        if (s->kind == ST_FOR) add_out_args(ctx, &s->for_.body, f, outs, nouts);
        if (s->kind == ST_WHILE) add_out_args(ctx, &s->while_.body, f, outs, nouts);
        if (s->kind == ST_SCOPE) add_out_args(ctx, &s->scope.body, f, outs, nouts);
        if (s->kind == ST_IF) { add_out_args(ctx, &s->if_.then_body, f, outs, nouts); add_out_args(ctx, &s->if_.else_body, f, outs, nouts); }
        Expr *call = pass_stmt_call(s);
        if (!call || call->call.op != OP_NONE || call->call.callee != f) continue;
        Expr **args = ARENA_ARRAY(c->arena, Expr *, call->call.nargs + nouts);
        if (call->call.nargs) memcpy(args, call->call.args, sizeof(Expr *) * (size_t)call->call.nargs);
        for (int k = 0; k < nouts; k++) {
            const Type *t = outs[k]->type;
            int64_t d[8];
            ir_type_static_dims(t, d);
            Expr *cr = ir_call(c, OP_TENSOR_CREATE, (Expr *[]){ ir_int_tuple(c, d, t->rank) }, 1);
            ir_attr_set(c, &cr->call.kwargs, "dtype", ir_av_dtype(t->dtype));
            cr->span = call->span;
            PTOC_ASSERT(ir_deduce_call(c, cr), "tensor.create for %s", outs[k]->name);
            Var *v = ir_var_new(c, pass_name(ctx, outs[k]->name, "create"), cr->type);
            Stmt *as = ir_assign(c, v, cr);
            as->span = s->span;
            ir_list_insert(c, l, i++, as);
            args[call->call.nargs + k] = ir_ref(v);
        }
        call->call.args = args;
        call->call.nargs += nouts;
    }
}

/* A tensor-typed return that became a tile is stored to a new Out parameter (`<name>_out`). */
static bool exit_stores(PassCtx *ctx, Program *p, Function *f) {
    IrCtx *c = ctx->ir;
    Stmt *r = f->body.len ? f->body.items[f->body.len - 1] : NULL;
    if (!r || r->kind != ST_RETURN) return true;
    Var *outs[64];
    int nouts = 0;
    for (int i = 0; i < r->ret.n && i < f->nreturns; i++) {
        Expr *v = r->ret.values[i];
        const Type *rt = f->return_types[i];
        if (!v->type || v->type->kind != TY_TILE || rt->kind != TY_TENSOR) continue;
        if (nouts == 64 || !ir_type_static_dims(rt, NULL)) {
            diag_error(ctx->diag, r->span, "kernel '%s': too many or dynamic results computed on-chip", f->name);
            return false;
        }
        const char *base = v->kind == EX_VAR ? v->var->name : "ret";
        Var *out = ir_var_new(c, pass_name(ctx, base, "out"), (Type *)rt);
        out->span = r->span;
        ir_func_add_param(c, f, out, PD_OUT);
        Expr *zeros = ir_int_tuple(c, (int64_t[]){ 0, 0, 0, 0, 0, 0, 0, 0 }, rt->rank);
        Expr *st = ir_call(c, OP_TILE_STORE, (Expr *[]){ v, zeros, ir_ref(out) }, 3);
        st->span = r->span;
        if (!ir_deduce_call(c, st)) return false;
        Var *sv = ir_var_new(c, pass_name(ctx, base, "stored"), st->type);
        Stmt *as = ir_assign(c, sv, st);
        as->span = r->span;
        ir_list_insert(c, &f->body, f->body.len - 1, as);
        r->ret.values[i] = ir_ref(sv);
        outs[nouts++] = out;
    }
    for (int g = 0; nouts && g < p->nfuncs; g++) add_out_args(ctx, &p->funcs[g]->body, f, outs, nouts);
    return true;
}

/* Vector ops compute on the vector unit: outside a pl.at region there is no kernel to run them. */
typedef struct { PassCtx *ctx; bool bad; } OrchVec;
static void orch_vec(Expr *e, void *ud) {
    OrchVec *o = ud;
    if (o->bad || e->kind != EX_CALL || e->call.op == OP_NONE || !(ir_op_info(e->call.op)->flags & OPF_VEC)) return;
    diag_error(o->ctx->diag, e->span, "pl.%s on tensors outside a pl.at region: vector operations run in a kernel; put it "
               "inside `with pl.at(level=pl.Level.CORE_GROUP):`", ir_vec_short_name(e->call.op));
    o->bad = true;
}

bool pass_convert_tensor_to_tile_ops(Program *p, PassCtx *ctx) {
    for (int i = 0; i < p->nfuncs; i++) {
        Function *f = p->funcs[i];
        if (!ir_functype_is_incore(f->type)) {
            OrchVec o = { ctx, false };
            ir_visit_exprs(&f->body, orch_vec, &o);
            if (o.bad) return false;
            continue;
        }
        Loaded cache[32];
        int ncache = 0, at = 0;
        VEC(VecLoaded) vec_loads = { 0 };
        VEC(Stmt *) entry = { 0 };
        VarMap other = { 0 };
        ir_visit_exprs(&f->body, note_other_use, &other);
        Conv cv = { ctx, f, &f->body, &at, cache, &ncache, true, (void *)&vec_loads, (void *)&entry, &other };
        bool ok = convert_list(&cv, &f->body, true);
        ir_varmap_free(&other);
        for (int e = entry.len; ok && e-- > 0;) ir_list_insert(ctx->ir, &f->body, 0, entry.data[e]);
        vec_free(&vec_loads);
        vec_free(&entry);
        if (!ok) return false;
        drop_dead_slices(ctx, f);
        pass_refresh_loop_results(&f->body);
        if (!exit_stores(ctx, p, f)) return false;
    }
    return true;
}
