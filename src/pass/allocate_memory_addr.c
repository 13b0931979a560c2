/* AllocateMemoryAddr
 * Requires: HasMemRefs (after MemoryReuse: one tile.alloc per physical buffer).
 * Produces: AllocatedMemoryAddr — every MemRef's byte_offset is its absolute address inside its
 *           memory space; each space's high-water mark checked against the target's usable capacity.
 * Does: the PYPTO bump policy: per space, buffers in allocation order, each at the current offset,
 *   then current = align32(current + size). A space over capacity is the user error
 *   "Function '<f>': <Space> buffer usage (<high> bytes) exceeds platform limit (<cap> bytes)",
 *   followed by a note listing the buffers and the fix. */
#include "pass/pass.h"

#include <string.h>

typedef struct { Var *base; MemSpace space; int64_t size, addr; } Slot;

static const Slot *slot_of(const Slot *s, int n, const Var *base) {
    for (int i = 0; i < n; i++)
        if (s[i].base == base) return &s[i];
    return NULL;
}

static void place(IrCtx *c, Var *v, const Slot *slots, int n) {
    if (!v->type || !v->type->memref) return;
    const Slot *s = slot_of(slots, n, v->type->memref->base);
    if (!s) return;
    Type *t = ir_type_copy(c, v->type);
    t->memref = ARENA_NEW(c->arena, MemRef);
    *t->memref = *v->type->memref;
    t->memref->offset = s->addr + v->type->memref->offset;   /* relative offset inside the base */
    pass_var_set_type(v, t);
}

static void place_list(IrCtx *c, StmtList *l, const Slot *slots, int n) {
    for (int i = 0; i < l->len; i++) {
        Stmt *s = l->items[i];
        if (s->kind == ST_ASSIGN) place(c, s->assign.var, slots, n);
        if (s->kind == ST_FOR) {
            for (int j = 0; j < s->for_.iter_args.len; j++) place(c, s->for_.iter_args.items[j], slots, n);
            for (int j = 0; j < s->for_.return_vars.len; j++) place(c, s->for_.return_vars.items[j], slots, n);
            place_list(c, &s->for_.body, slots, n);
        }
        if (s->kind == ST_IF) {
            for (int j = 0; j < s->if_.return_vars.len; j++) place(c, s->if_.return_vars.items[j], slots, n);
            place_list(c, &s->if_.then_body, slots, n);
            place_list(c, &s->if_.else_body, slots, n);
        }
    }
}

/* Names the variables living in a base, for the capacity note. */
typedef struct { const Var *base; StrBuf *sb; int n; } Names;
static void name_visit(Expr *e, void *ud) {
    Names *nm = ud;
    if (e->kind != EX_VAR || !e->type || !e->type->memref || e->type->memref->base != nm->base || nm->n >= 3) return;
    if (nm->sb->len && strstr(nm->sb->data, e->var->name)) return;
    sb_printf(nm->sb, "%s%s", nm->n++ ? ", " : "", e->var->name);
}

static bool check_capacity(PassCtx *ctx, Function *f, const Slot *slots, int n) {
    for (int sp = 0; sp < MS_COUNT; sp++) {
        int64_t high = 0, cap = ctx->target->capacity[sp];
        for (int i = 0; i < n; i++)
            if (slots[i].space == (MemSpace)sp && slots[i].addr + slots[i].size > high) high = slots[i].addr + slots[i].size;
        if (cap <= 0 || high <= cap) continue;
        diag_error(ctx->diag, f->span, "Function '%s': %s buffer usage (%lld bytes) exceeds platform limit (%lld bytes)",
                   f->name, memspace_name((MemSpace)sp), (long long)high, (long long)cap);
        StrBuf sb = {0};
        for (int i = 0; i < n; i++) {
            if (slots[i].space != (MemSpace)sp) continue;
            StrBuf names = {0};
            Names nm = { slots[i].base, &names, 0 };
            ir_visit_exprs(&f->body, name_visit, &nm);
            sb_printf(&sb, "%s%s (%lld bytes @ %lld)", sb.len ? "; " : "", names.len ? names.data : slots[i].base->name,
                      (long long)slots[i].size, (long long)slots[i].addr);
            sb_free(&names);
        }
        const char *fix = sp == MS_MAT
            ? "AutoTileL1 blocks only a matmul whose result is stored whole by one c[...] = (its PH-L1 hint says why "
              "it did not, and --no-auto-l1 turns it off): store the matmul directly, or load smaller operands (slice "
              "the reduction and accumulate into the output, or split the output across several pl.at regions)"
            : sp == MS_VEC
            ? "the vector working set does not fit UB: process smaller chunks (a pl.range / pl.pipeline loop over "
              "slices of the tensors), or lower the pipeline depth"
            : "the L0 working set does not fit: shrink the operands of the matmul (the chooser only sees one matmul "
              "at a time), or lower the pipeline depth";
        diag_add(ctx->diag, DIAG_NOTE, f->span, NULL, "%s holds %s; %s", memspace_name((MemSpace)sp), sb_cstr(&sb), fix);
        sb_free(&sb);
        for (int i = 0; i < f->body.len; i++) {       /* the cross-core ring's reserved floor */
            Expr *c = pass_stmt_call(f->body.items[i]);
            const AttrVal *rs = pass_is_op(c, OP_TILE_ALLOC) && c->call.args[0]->enm.mem == (MemSpace)sp
                              ? ir_attr_get(&c->call.kwargs, "ring_slots") : NULL;
            int64_t size = 0;
            if (!rs || !ir_is_const_int(c->call.args[1], &size)) continue;
            diag_add(ctx->diag, DIAG_NOTE, f->span, NULL, "the cube/vector ring reserves %lld bytes from address 0 (%lld slots of %lld "
                     "bytes, one received tile each): a smaller pl.cross_core_slot(slot_num=N), or pl.split(pl.SplitMode.UP_DOWN) "
                     "to halve the tile each vector core receives, lowers it", (long long)size, (long long)rs->i,
                     (long long)(size / (rs->i > 0 ? rs->i : 1)));
        }
        for (int i = 0; sp != MS_MAT && sp != MS_VEC && i < ctx->untiled.len; i++) {   /* an untiled matmul keeps whole operands in L0 */
            const PassUntiled *u = &ctx->untiled.data[i];
            if (!strcmp(u->function, f->name))
                diag_add(ctx->diag, DIAG_NOTE, u->span, NULL, "this matmul was left untiled (%s): %s", u->code, u->reason);
        }
        return false;
    }
    return true;
}

static bool allocate_function(PassCtx *ctx, Function *f) {
    Slot *slots = malloc(sizeof(Slot) * (size_t)(f->body.len + 1));
    PTOC_ASSERT(slots, "out of memory");
    int n = 0;
    int64_t current[MS_COUNT] = {0};
    /* the cross-core rings first: reserved from address 0 of their space, tiles above them */
    for (int pass = 0; pass < 2; pass++)
    for (int i = 0; i < f->body.len; i++) {
        Stmt *s = f->body.items[i];
        Expr *c = pass_stmt_call(s);
        if (s->kind != ST_ASSIGN || !pass_is_op(c, OP_TILE_ALLOC)) continue;
        if ((ir_attr_get(&c->call.kwargs, "ring_slots") != NULL) != (pass == 0)) continue;
        MemSpace sp = c->call.args[0]->enm.mem;
        int64_t size = 0;
        ir_is_const_int(c->call.args[1], &size);
        slots[n] = (Slot){ s->assign.var, sp, size, current[sp] };
        current[sp] = (current[sp] + size + ctx->target->alloc_align - 1) / ctx->target->alloc_align * ctx->target->alloc_align;
        n++;
    }
    place_list(ctx->ir, &f->body, slots, n);
    bool ok = check_capacity(ctx, f, slots, n);
    free(slots);
    return ok;
}

bool pass_allocate_memory_addr(Program *p, PassCtx *ctx) {
    /* PTOAS would place addr-less tiles itself; ptoc bakes addresses under every planner so the
     * simulator can run the kernel. */
    for (int i = 0; i < p->nfuncs; i++)
        if (ir_functype_is_incore(p->funcs[i]->type) && !allocate_function(ctx, p->funcs[i])) return false;
    return true;
}
