/* sync — automatic pipe synchronisation: driver and stage 1 (translation to the linear sync IR).
 *
 * Requires: a Kernel at level 3 (fixed buffer addresses), tile instructions with their pipes, and no
 *           set_flag / wait_flag (the pass is skipped, returning false, when any is present).
 * Produces: the kernel body with MI_SET_FLAG / MI_WAIT_FLAG / MI_BARRIER inserted (sync_emit.c) and
 *           SyncStats filled.
 * Does:     spec/isa_and_sync.md §8 in six stages — translate (here), analyse (sync_hazard.c), move and
 *           remove redundant pairs (sync_move.c), guard token races (sync_hazard.c), allocate event
 *           IDs (sync_ids.c), codegen
 *           (sync_emit.c). The ptoc-specific choices are documented in docs/sync.md.
 */
#include "back/sync_internal.h"

#include <stdlib.h>
#include <string.h>

/* ---- sync ops and their lists ---- */
IntVec *sync_list(SyncCtx *c, int elem, bool after) {
    SyncEl *e = &c->el.data[elem];
    return after ? &e->after : &e->before;
}

void sync_op_attach(SyncCtx *c, int op, int elem, bool after, int at) {
    IntVec *l = sync_list(c, elem, after);
    if (at < 0 || at > l->len) at = l->len;
    vec_push(l, 0);
    memmove(l->data + at + 1, l->data + at, sizeof(int) * (size_t)(l->len - 1 - at));
    l->data[at] = op;
    c->ops.data[op].elem = elem;
    c->ops.data[op].after = after;
}

int sync_op_new(SyncCtx *c, SyncOp op, int elem, bool after) {
    op.event = -1;
    vec_push(&c->ops, op);
    int id = c->ops.len - 1;
    sync_op_attach(c, id, elem, after, -1);
    return id;
}

int sync_op_index(SyncCtx *c, int op) {
    const SyncOp *o = &c->ops.data[op];
    IntVec *l = sync_list(c, o->elem, o->after);
    for (int j = 0; j < l->len; j++)
        if (l->data[j] == op) return j;
    PTOC_UNREACHABLE("sync op %d not in its list", op);
}

void sync_op_detach(SyncCtx *c, int op) {
    const SyncOp *o = &c->ops.data[op];
    IntVec *l = sync_list(c, o->elem, o->after);
    int j = sync_op_index(c, op);
    memmove(l->data + j, l->data + j + 1, sizeof(int) * (size_t)(l->len - j - 1));
    l->len--;
}

int sync_op_point(const SyncCtx *c, int op) {
    const SyncOp *o = &c->ops.data[op];
    return 2 * o->elem + (o->after ? 1 : 0);
}

int sync_op_region(const SyncCtx *c, int op) {
    const SyncOp *o = &c->ops.data[op];
    const SyncEl *e = &c->el.data[o->elem];
    if (e->kind == EK_LOOP_BEGIN && o->after) return e->body;
    if (e->kind == EK_LOOP_END && !o->after) return e->body;
    return e->region;
}

bool sync_region_contains(const SyncCtx *c, int outer, int inner) {
    for (int r = inner; r >= 0; r = c->regions.data[r].parent)
        if (r == outer) return true;
    return false;
}

/* ---- stage 1: translation ---- */
static int add_el(SyncCtx *c, ElKind kind, MirInst *inst, int region) {
    SyncEl e;
    memset(&e, 0, sizeof e);
    e.kind = kind;
    e.inst = inst;
    e.pipe = PIPE_NONE;
    e.region = region;
    e.begin = e.mid = e.end = -1;
    e.body = e.then_r = e.else_r = -1;
    vec_push(&c->el, e);
    return c->el.len - 1;
}

static int add_region(SyncCtx *c, RegionKind kind, int parent, int begin) {
    SyncRegion r = { kind, parent, begin, -1 };
    vec_push(&c->regions, r);
    return c->regions.len - 1;
}

static void translate_block(SyncCtx *c, MirBlock *b, int region);

static void translate_for(SyncCtx *c, MirInst *in, int region) {
    int lb = add_el(c, EK_LOOP_BEGIN, in, region);
    int body = add_region(c, RG_LOOP, region, lb);
    c->el.data[lb].body = body;
    translate_block(c, &in->body, body);
    int le = add_el(c, EK_LOOP_END, in, region);
    c->regions.data[body].end = le;
    c->el.data[lb].begin = c->el.data[le].begin = lb;
    c->el.data[lb].end = c->el.data[le].end = le;
    c->el.data[le].body = body;
}

static void translate_if(SyncCtx *c, MirInst *in, int region) {
    int ib = add_el(c, EK_IF_BEGIN, in, region);
    int tr = add_region(c, RG_THEN, region, ib);
    translate_block(c, &in->then_body, tr);
    add_el(c, EK_PH_THEN, in, tr);
    int eb = add_el(c, EK_ELSE_BEGIN, in, region);
    int er = add_region(c, RG_ELSE, region, ib);
    translate_block(c, &in->else_body, er);
    add_el(c, EK_PH_ELSE, in, er);
    int ie = add_el(c, EK_IF_END, in, region);
    c->regions.data[tr].end = c->regions.data[er].end = ie;
    int idx[3] = { ib, eb, ie };
    for (int j = 0; j < 3; j++) {
        SyncEl *e = &c->el.data[idx[j]];
        e->begin = ib; e->mid = eb; e->end = ie;
        e->then_r = tr; e->else_r = er;
    }
}

static void translate_block(SyncCtx *c, MirBlock *b, int region) {
    for (int j = 0; j < b->len; j++) {
        MirInst *in = b->items[j];
        if (in->op == MI_FOR) translate_for(c, in, region);
        else if (in->op == MI_IF) translate_if(c, in, region);
        else if (!mir_is_sync(in)) {
            int ix = add_el(c, EK_COMPOUND, in, region);
            SyncEl *e = &c->el.data[ix];
            e->pipe = in->pipe;
            bool ok = mir_inst_access(c->k, in, e->rd, &e->nrd, e->wr, &e->nwr);
            PTOC_ASSERT(ok, "tile instruction without memory effects");
            if (e->pipe == PIPE_NONE) e->nrd = e->nwr = 0;   /* inert, like the reference's UNASSIGNED ops */
        }
        /* pre-existing pipe_barriers are kept by sync_emit.c and not analysed */
    }
}

static bool block_has_flags(const MirBlock *b) {
    for (int j = 0; j < b->len; j++) {
        const MirInst *in = b->items[j];
        if (in->op == MI_SET_FLAG || in->op == MI_WAIT_FLAG) return true;
        if (in->op == MI_FOR && block_has_flags(&in->body)) return true;
        if (in->op == MI_IF && (block_has_flags(&in->then_body) || block_has_flags(&in->else_body))) return true;
    }
    return false;
}

static void ctx_free(SyncCtx *c) {
    for (int j = 0; j < c->el.len; j++) {
        vec_free(&c->el.data[j].before);
        vec_free(&c->el.data[j].after);
    }
    vec_free(&c->el);
    vec_free(&c->ops);
    vec_free(&c->pairs);
    vec_free(&c->regions);
}

bool back_insert_sync(Kernel *k, const Target *t, SyncStats *stats) {
    SyncStats local;
    if (!stats) stats = &local;
    memset(stats, 0, sizeof *stats);
    if (block_has_flags(&k->body)) return false;

    SyncCtx c;
    memset(&c, 0, sizeof c);
    c.k = k;
    c.t = t;
    c.st = stats;
    int root = add_region(&c, RG_ROOT, -1, -1);
    add_el(&c, EK_FUNC_BEGIN, NULL, root);
    translate_block(&c, &k->body, root);
    add_el(&c, EK_FUNC_END, NULL, root);

    sync_analyse(&c);
    sync_move(&c);
    sync_remove_redundant(&c);
    sync_carry_sunk_sets(&c);
    sync_guard_tokens(&c);
    sync_alloc_ids(&c);
    sync_emit(&c);
    ctx_free(&c);
    return true;
}
