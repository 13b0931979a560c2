/* ConvertTensorToTileOps
 * Requires: SSAForm, SplitIncoreOrch.
 * Produces: IncoreTileOps — InCore functions use tile ops only.
 * Does: tensor.matmul(a, b) becomes two GM->Mat bridge loads (the operand tensor, or the window of
 *   a tensor.slice feeding it; the left operand's rows rounded up to the 16-row box with the true
 *   extent as valid_shape) and tile.matmul producing an Acc tile of the accumulator dtype;
 *   tensor.assemble(tensor, tile, offs) becomes tile.store(tile, offs, tensor) (atomic kept). A later
 *   matmul reading the same window of the same In tensor at the top level reuses the earlier load.
 *   Tensor ops this pass does not lower are reported as user errors naming the op. */
#include "pass/pass.h"

#include <string.h>

/* Bridge loads already emitted at the top level of a kernel, reused by later matmuls that read the
 * same window of the same read-only (In) tensor. */
typedef struct { Var *src; int64_t off[2], dims[2]; Var *tile; } Loaded;
typedef struct { PassCtx *ctx; Function *f; StmtList *list; int *at; Loaded *cache; int *ncache; bool top; } Conv;

static bool is_in_param(const Function *f, const Var *v) {
    for (int i = 0; i < f->params.len; i++)
        if (f->params.items[i] == v) return f->param_dirs[i] == PD_IN;
    return false;
}

static Stmt *def_of(StmtList *l, const Var *v) {
    for (int i = 0; i < l->len; i++) {
        Stmt *s = l->items[i];
        if (s->kind == ST_ASSIGN && s->assign.var == v) return s;
        Stmt *r = NULL;
        if (s->kind == ST_FOR) r = def_of(&s->for_.body, v);
        if (s->kind == ST_IF) { r = def_of(&s->if_.then_body, v); if (!r) r = def_of(&s->if_.else_body, v); }
        if (s->kind == ST_WHILE) r = def_of(&s->while_.body, v);
        if (s->kind == ST_SCOPE) r = def_of(&s->scope.body, v);
        if (r) return r;
    }
    return NULL;
}

/* Emits `o__tile = tile.load(src, offs, shape, valid, target_memory=Mat)` before the current statement. */
static Expr *bridge_load(Conv *cv, Expr *operand, bool is_lhs, Span at) {
    IrCtx *c = cv->ctx->ir;
    Expr *src = operand, *offs = NULL;
    int64_t dims[2];
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
    Stmt *d = def_of(&cv->f->body, operand->var);
    if (d && pass_is_op(d->assign.value, OP_TENSOR_SLICE)) {
        src = d->assign.value->call.args[0];
        offs = d->assign.value->call.args[2];
    }
    if (!offs) offs = ir_int_tuple(c, (int64_t[]){ 0, 0 }, 2);
    int64_t o[2];
    bool cacheable = cv->top && src->kind == EX_VAR && is_in_param(cv->f, src->var) && offs->kind == EX_TUPLE &&
                     ir_is_const_int(offs->tuple.items[0], &o[0]) && ir_is_const_int(offs->tuple.items[1], &o[1]);
    for (int i = 0; cacheable && i < *cv->ncache; i++) {
        Loaded *L = &cv->cache[i];
        if (L->src == src->var && L->off[0] == o[0] && L->off[1] == o[1] && L->dims[0] == dims[0] && L->dims[1] == dims[1])
            return ir_ref(L->tile);
    }
    int64_t phys[2] = { dims[0], dims[1] };
    if (is_lhs && phys[0] % 16) phys[0] = (phys[0] + 15) / 16 * 16;
    Expr *args[4] = { src, offs, ir_int_tuple(c, phys, 2), ir_int_tuple(c, dims, 2) };
    Expr *load = ir_call(c, OP_TILE_LOAD, args, 4);
    load->span = operand->span;
    ir_attr_set(c, &load->call.kwargs, "target_memory", ir_av_mem(MS_MAT));
    ir_attr_set(c, &load->call.attrs, "__compiler_tensor_to_tile_mat_bridge", ir_av_bool(true));
    if (!ir_deduce_call(c, load)) return NULL;
    Var *t = ir_var_new(c, arena_printf(c->arena, "%s__tile", operand->var->name), load->type);
    t->span = operand->span;
    Stmt *s = ir_assign(c, t, load);
    s->span = (*cv->list).items[*cv->at]->span;
    ir_list_insert(c, cv->list, *cv->at, s);
    (*cv->at)++;
    if (cacheable && *cv->ncache < 32) cv->cache[(*cv->ncache)++] = (Loaded){ src->var, { o[0], o[1] }, { dims[0], dims[1] }, t };
    return ir_ref(t);
}

static bool convert_matmul(Conv *cv, Stmt *s) {
    IrCtx *c = cv->ctx->ir;
    Expr *call = s->assign.value;
    if (ir_attr_get(&call->call.kwargs, "a_trans") || ir_attr_get(&call->call.kwargs, "b_trans")) {
        const AttrVal *at = ir_attr_get(&call->call.kwargs, "a_trans"), *bt = ir_attr_get(&call->call.kwargs, "b_trans");
        if ((at && at->i) || (bt && bt->i)) {
            diag_error(cv->ctx->diag, call->span, "matmul with a_trans/b_trans is not supported by ptoc yet; transpose the operand in the caller");
            return false;
        }
    }
    Expr *a = bridge_load(cv, call->call.args[0], true, call->span);
    Expr *b = a ? bridge_load(cv, call->call.args[1], false, call->span) : NULL;
    if (!b) return false;
    Expr *mm = ir_call(c, OP_TILE_MATMUL, (Expr *[]){ a, b }, 2);
    mm->span = call->span;
    if (!ir_deduce_call(c, mm)) return false;
    int64_t M = ir_type_dim(call->call.args[0]->type, 0);
    if (M % 16) {                                   /* valid rows of a row-padded product */
        TileView v = ir_implicit_view(mm->type);
        v.nvalid = 2;
        v.valid_shape = ARENA_ARRAY(c->arena, Expr *, 2);
        v.valid_shape[0] = ir_const_int(c, M, DT_INDEX);
        v.valid_shape[1] = mm->type->shape[1];
        mm->type->view = ARENA_NEW(c->arena, TileView);
        *mm->type->view = v;
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

static bool only_feeds_matmul(Function *f, Var *v);

/* The user's spelling of an SSA name: x__ssa_v2, x__iter_v1, x__rv_v3 -> x. */
static int user_name_len(const char *name) {
    const char *cut = strstr(name, "__");
    return cut ? (int)(cut - name) : (int)strlen(name);
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
        int n = user_name_len(v->name);
        const Expr *val = y->yield.values[i];
        const Stmt *def = val->kind == EX_VAR ? def_of((StmtList *)body, val->var) : NULL;
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

static bool convert_list(PassCtx *ctx, Function *f, StmtList *l, Loaded *cache, int *ncache, bool top) {
    for (int i = 0; i < l->len; i++) {
        Stmt *s = l->items[i];
        Conv cv = { ctx, f, l, &i, cache, ncache, top };
        if (s->kind == ST_FOR && (!convert_list(ctx, f, &s->for_.body, cache, ncache, false) ||
                                  !carried_types_agree(ctx, &s->for_.body, &s->for_.iter_args, "loop", s->span)))
            return false;
        if (s->kind == ST_IF && (!convert_list(ctx, f, &s->if_.then_body, cache, ncache, false) ||
                                 !convert_list(ctx, f, &s->if_.else_body, cache, ncache, false) ||
                                 !carried_types_agree(ctx, &s->if_.then_body, &s->if_.return_vars, "if", s->span) ||
                                 !carried_types_agree(ctx, &s->if_.else_body, &s->if_.return_vars, "if", s->span)))
            return false;
        if (s->kind == ST_WHILE && (!convert_list(ctx, f, &s->while_.body, cache, ncache, false) ||
                                    !carried_types_agree(ctx, &s->while_.body, &s->while_.iter_args, "loop", s->span)))
            return false;
        if (s->kind == ST_SCOPE && !convert_list(ctx, f, &s->scope.body, cache, ncache, top)) return false;
        Expr *call = pass_stmt_call(s);
        if (!call || call->call.op == OP_NONE || !(ir_op_info(call->call.op)->flags & OPF_TENSOR)) continue;
        if (s->kind != ST_ASSIGN) {
            diag_error(ctx->diag, call->span, "the result of %s is unused", ir_op_info(call->call.op)->name);
            return false;
        }
        switch (call->call.op) {
        case OP_TENSOR_MATMUL: if (!convert_matmul(&cv, s)) return false; break;
        case OP_TENSOR_ASSEMBLE: if (!convert_assemble(&cv, s)) return false; break;
        case OP_TENSOR_SLICE:
            if (!only_feeds_matmul(f, s->assign.var)) {
                diag_error(ctx->diag, call->span, "a tensor slice inside pl.at must feed a matmul operand (other uses are not supported by ptoc yet)");
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

typedef struct { const Var *v; bool other; } SliceUse;
static void slice_use(Expr *e, void *ud) {
    SliceUse *u = ud;
    if (e->kind != EX_CALL) return;
    for (int i = 0; i < e->call.nargs; i++)
        if (e->call.args[i]->kind == EX_VAR && e->call.args[i]->var == u->v && !pass_is_op(e, OP_TENSOR_MATMUL))
            u->other = true;
}
static bool only_feeds_matmul(Function *f, Var *v) {
    SliceUse u = { v, false };
    ir_visit_exprs(&f->body, slice_use, &u);
    return !u.other;
}

/* Slices consumed by the bridge loads are dead now. */
static void drop_dead_slices(Function *f, StmtList *l) {
    for (int i = 0; i < l->len; i++) {
        Stmt *s = l->items[i];
        if (s->kind == ST_ASSIGN && pass_is_op(s->assign.value, OP_TENSOR_SLICE) && !ir_stmts_use_var(&f->body, s->assign.var)) {
            memmove(l->items + i, l->items + i + 1, sizeof(Stmt *) * (size_t)(l->len - i - 1));
            l->len--;
            i--;
        } else if (s->kind == ST_FOR) {
            drop_dead_slices(f, &s->for_.body);
        } else if (s->kind == ST_IF) {
            drop_dead_slices(f, &s->if_.then_body);
            drop_dead_slices(f, &s->if_.else_body);
        } else if (s->kind == ST_WHILE) {
            drop_dead_slices(f, &s->while_.body);
        } else if (s->kind == ST_SCOPE) {
            drop_dead_slices(f, &s->scope.body);
        }
    }
}

bool pass_convert_tensor_to_tile_ops(Program *p, PassCtx *ctx) {
    for (int i = 0; i < p->nfuncs; i++) {
        Function *f = p->funcs[i];
        if (!ir_functype_is_incore(f->type)) continue;
        Loaded cache[32];
        int ncache = 0;
        if (!convert_list(ctx, f, &f->body, cache, &ncache, true)) return false;
        drop_dead_slices(f, &f->body);
    }
    return true;
}
