/* InitMemRef
 * Requires: SSAForm, TileMemoryInferred (AIC/AIV functions).
 * Produces: HasMemRefs — every tile and tensor variable of a kernel carries a MemRef; one
 *           `mem_<space>_<n>: pl.Ptr = pl.tile.alloc(pl.Mem.<Space>, <bytes>)` per on-chip base at
 *           the top of the body. Invalidates SSAForm (buffers are shared from here on).
 * Does: tensor params get DDR MemRefs (mem_ddr_<n>, no alloc); a tile.store result shares its
 *   output tensor's MemRef; in-place ops (matmul_acc, assemble) and views share their designated
 *   input's; `a = b` shares b's; a loop's iter_arg shares its init's (group A) and its return var
 *   its yielded value's (group B); a tensor If return var its then-yield's, a tile one a fresh base
 *   (MaterializeSemanticAliases unifies the branches). Everything else gets a fresh
 *   base sized by the tile's physical footprint (boxed rows/cols; L0C rows to the accumulator
 *   alignment). */
#include "pass/pass.h"

#include <string.h>

typedef struct { PassCtx *ctx; Function *f; int n; StmtList allocs; MemRef ring; } Init;

static MemRef *memref_of(const Expr *e) { return e && e->type ? e->type->memref : NULL; }

static void give(Init *in, Var *v, const MemRef *src) {
    if (!src) return;
    Type *t = ir_type_copy(in->ctx->ir, v->type);
    t->memref = ARENA_NEW(in->ctx->ir->arena, MemRef);
    *t->memref = *src;
    pass_var_set_type(v, t);
}

static MemRef fresh(Init *in, MemSpace sp, int64_t size, Span span) {
    IrCtx *c = in->ctx->ir;
    Var *base = ir_var_new(c, arena_printf(c->arena, "mem_%s_%d", memspace_lower(sp), in->n++), ir_ptr_type(c));
    if (sp != MS_DDR) {
        Expr *args[2] = { ir_enum_mem(c, sp), ir_const_int(c, size, DT_INDEX) };
        Expr *alloc = ir_call(c, OP_TILE_ALLOC, args, 2);
        ir_deduce_call(c, alloc);
        Stmt *s = ir_assign(c, base, alloc);
        s->span = span;
        ir_list_push(c, &in->allocs, s);
    }
    return (MemRef){ base, 0, size };
}

static void fresh_for(Init *in, Var *v, Span span) {
    Type *t = v->type;
    if (t->kind == TY_TILE) {
        MemRef m = fresh(in, t->space, ir_tile_physical_bytes(t, pass_l0c_align(in->ctx, t->dtype)), span);
        give(in, v, &m);
    } else if (t->kind == TY_TENSOR) {
        MemRef m = fresh(in, MS_DDR, ir_type_numel(t) * dtype_bytes(t->dtype), span);
        give(in, v, &m);
    }
}

static bool shaped(const Var *v) { return v->type && (v->type->kind == TY_TILE || v->type->kind == TY_TENSOR); }

static bool is_data_pop(const Expr *e) {
    return (pass_is_op(e, OP_TILE_TPOP_FROM_AIC) || pass_is_op(e, OP_TILE_TPOP_FROM_AIV)) && e->call.nargs == 1;
}

/* The cross-core ring of a kernel that receives tiles (spec ir_and_passes.md §8.14, reserve_buffer):
 * one base of slot_num slots, each as large as the largest tile received; every pop result lives in
 * it (the slot is chosen at run time). */
typedef struct { int64_t slot, slots; MemSpace space; Span span; PassCtx *ctx; } RingScan;
static void ring_visit(Expr *e, void *ud) {
    RingScan *r = ud;
    if (!is_data_pop(e)) return;
    int64_t b = ir_tile_physical_bytes(e->type, pass_l0c_align(r->ctx, e->type->dtype));
    const AttrVal *sn = ir_attr_get(&e->call.kwargs, "slot_num");
    if (b > r->slot) r->slot = b;
    if (sn && sn->kind == AV_INT && sn->i > r->slots) r->slots = sn->i;
    r->space = e->type->space;
    r->span = e->span;
}

static void make_ring(Init *in) {
    RingScan r = { 0, 1, MS_NONE, SPAN_NONE, in->ctx };
    ir_visit_exprs(&in->f->body, ring_visit, &r);
    if (!r.slot) return;
    r.slot = (r.slot + in->ctx->target->alloc_align - 1) / in->ctx->target->alloc_align * in->ctx->target->alloc_align;
    in->ring = fresh(in, r.space, r.slot * r.slots, r.span);
    in->ring.size = r.slot;
    Stmt *alloc = in->allocs.items[in->allocs.len - 1];
    ir_attr_set(in->ctx->ir, &alloc->assign.value->call.kwargs, "ring_slots", ir_av_int(r.slots));
}

static void init_assign(Init *in, Stmt *s) {
    Var *v = s->assign.var;
    Expr *e = s->assign.value;
    if (!shaped(v)) return;
    if (e->kind == EX_VAR) { give(in, v, memref_of(e)); return; }
    if (is_data_pop(e)) {
        MemRef m = in->ring;
        m.size = ir_tile_physical_bytes(v->type, pass_l0c_align(in->ctx, v->type->dtype));
        give(in, v, &m);
        return;
    }
    if (e->kind == EX_CALL && e->call.op != OP_NONE) {
        const OpInfo *info = ir_op_info(e->call.op);
        int src = info->reuses_input >= 0 ? info->reuses_input : (info->flags & OPF_VIEW) ? 0 : -1;
        if (src >= 0 && src < e->call.nargs && memref_of(e->call.args[src])) { give(in, v, memref_of(e->call.args[src])); return; }
    }
    fresh_for(in, v, s->span);
}

static const Expr *last_yield(StmtList *l, int k) {
    if (!l->len || l->items[l->len - 1]->kind != ST_YIELD) return NULL;
    Stmt *y = l->items[l->len - 1];
    return k < y->yield.n ? y->yield.values[k] : NULL;
}

static void init_list(Init *in, StmtList *l) {
    for (int i = 0; i < l->len; i++) {
        Stmt *s = l->items[i];
        switch (s->kind) {
        case ST_ASSIGN: init_assign(in, s); break;
        case ST_FOR:
            for (int k = 0; k < s->for_.iter_args.len; k++) {
                Var *it = s->for_.iter_args.items[k];
                if (shaped(it)) give(in, it, memref_of(it->init));
            }
            init_list(in, &s->for_.body);
            for (int k = 0; k < s->for_.return_vars.len; k++) {
                Var *rv = s->for_.return_vars.items[k];
                if (shaped(rv)) give(in, rv, memref_of(last_yield(&s->for_.body, k)));
            }
            break;
        case ST_IF:
            init_list(in, &s->if_.then_body);
            init_list(in, &s->if_.else_body);
            for (int k = 0; k < s->if_.return_vars.len; k++) {
                Var *rv = s->if_.return_vars.items[k];
                /* a tile phi gets its own base: MaterializeSemanticAliases puts both branches' values on it,
                 * or moves the phi onto a branch's buffer when that one may be overwritten */
                if (rv->type && rv->type->kind == TY_TILE) fresh_for(in, rv, s->span);
                else if (shaped(rv)) give(in, rv, memref_of(last_yield(&s->if_.then_body, k)));
            }
            break;
        case ST_SCOPE: init_list(in, &s->scope.body); break;
        default: break;
        }
    }
}

bool pass_init_memref(Program *p, PassCtx *ctx) {
    for (int i = 0; i < p->nfuncs; i++) {
        Function *f = p->funcs[i];
        if (!ir_functype_is_incore(f->type)) continue;
        Init in = { ctx, f, 0, {0}, {0} };
        /* a program that already carries MemRefs (a re-parsed dump) gets them derived afresh */
        int kept = 0;
        for (int j = 0; j < f->body.len; j++)
            if (!(f->body.items[j]->kind == ST_ASSIGN && pass_is_op(f->body.items[j]->assign.value, OP_TILE_ALLOC)))
                f->body.items[kept++] = f->body.items[j];
        f->body.len = kept;
        for (int j = 0; j < f->params.len; j++)
            if (f->params.items[j]->type->kind == TY_TENSOR && !f->params.items[j]->type->memref)
                fresh_for(&in, f->params.items[j], f->span);
        make_ring(&in);
        init_list(&in, &f->body);
        /* the allocs, then the body: one new list (inserting each alloc at the front moved the whole
         * body once per alloc, quadratic in the tiles of a kernel) */
        StmtList body = {0};
        for (int j = 0; j < in.allocs.len; j++) ir_list_push(ctx->ir, &body, in.allocs.items[j]);
        for (int j = 0; j < f->body.len; j++) ir_list_push(ctx->ir, &body, f->body.items[j]);
        f->body = body;
    }
    return true;
}
