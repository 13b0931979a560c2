/* sync_emit — stage 6 of synchronisation: codegen (isa_and_sync.md §8.6).
 *
 * Requires: the sync IR after ID allocation (sync_ids.c); element order = the stage-1 walk order.
 * Produces: the kernel's blocks rebuilt with MI_SET_FLAG (issued on src_pipe), MI_WAIT_FLAG (issued on
 *           dst_pipe) and MI_BARRIER instructions in place, one trailing pipe_barrier(PIPE_ALL), and
 *           the instruction counts of SyncStats.
 * Does:     walks the blocks in the same order as stage 1, placing each element's lists where
 *           sync_internal.h says; back-to-back identical barriers are dropped, and so are same-pipe V
 *           barriers on a5 (§8.6: the hardware orders V).
 */
#include "back/sync_internal.h"

static void push(SyncCtx *c, MirBlock *out, MirInst *in) {
    if (in->op == MI_BARRIER && in->pipe == PIPE_V && c->t->id == TGT_A5) return;   /* a5 hardware orders V */
    if (in->op == MI_BARRIER && out->len > 0) {
        const MirInst *last = out->items[out->len - 1];
        if (last->op == MI_BARRIER && last->pipe == in->pipe) return;
    }
    mir_block_push(c->k, out, in);
    if (in->op == MI_SET_FLAG) c->st->nset++;
    else if (in->op == MI_WAIT_FLAG) c->st->nwait++;
    else if (in->op == MI_BARRIER) c->st->nbarrier++;
}

static MirInst *make(SyncCtx *c, const SyncOp *o, Span loc) {
    MirInst *in;
    if (o->kind == SO_BARRIER) {
        in = mir_inst_new(c->k, MI_BARRIER, o->pipe);
    } else {
        in = mir_inst_new(c->k, o->kind == SO_SET ? MI_SET_FLAG : MI_WAIT_FLAG, o->kind == SO_SET ? o->src : o->dst);
        in->src_pipe = o->src;
        in->dst_pipe = o->dst;
        PTOC_ASSERT(o->event >= 0, "set/wait without an event ID");
        in->event = o->event;
        in->compensation = o->compensation;
    }
    in->loc = loc;
    return in;
}

static void push_list(SyncCtx *c, MirBlock *out, int elem, bool after) {
    const SyncEl *e = &c->el.data[elem];
    Span loc = e->inst ? e->inst->loc : SPAN_NONE;
    const IntVec *l = after ? &e->after : &e->before;
    for (int j = 0; j < l->len; j++) push(c, out, make(c, &c->ops.data[l->data[j]], loc));
}

static void emit_block(SyncCtx *c, const MirBlock *src, int *idx, MirBlock *out);

static void emit_for(SyncCtx *c, MirInst *in, int *idx, MirBlock *out) {
    int lb = (*idx)++;
    push_list(c, out, lb, false);
    MirBlock body = { 0 };
    push_list(c, &body, lb, true);
    emit_block(c, &in->body, idx, &body);
    int le = (*idx)++;
    PTOC_ASSERT(c->el.data[le].kind == EK_LOOP_END, "sync IR out of step with the kernel");
    push_list(c, &body, le, false);
    in->body = body;
    mir_block_push(c->k, out, in);
    push_list(c, out, le, true);
}

static void emit_if(SyncCtx *c, MirInst *in, int *idx, MirBlock *out) {
    int ib = (*idx)++;
    push_list(c, out, ib, false);
    MirBlock tb = { 0 }, eb = { 0 };
    emit_block(c, &in->then_body, idx, &tb);
    push_list(c, &tb, (*idx)++, false);           /* PH_THEN */
    (*idx)++;                                     /* ELSE_BEGIN */
    emit_block(c, &in->else_body, idx, &eb);
    push_list(c, &eb, (*idx)++, false);           /* PH_ELSE */
    int ie = (*idx)++;
    PTOC_ASSERT(c->el.data[ie].kind == EK_IF_END, "sync IR out of step with the kernel");
    in->then_body = tb;
    in->else_body = eb;
    mir_block_push(c->k, out, in);
    push_list(c, out, ie, true);
}

static void emit_block(SyncCtx *c, const MirBlock *src, int *idx, MirBlock *out) {
    for (int j = 0; j < src->len; j++) {
        MirInst *in = src->items[j];
        if (in->op == MI_FOR) emit_for(c, in, idx, out);
        else if (in->op == MI_IF) emit_if(c, in, idx, out);
        else if (mir_is_sync(in)) push(c, out, in);      /* pre-existing barrier */
        else {
            int e = (*idx)++;
            PTOC_ASSERT(c->el.data[e].inst == in, "sync IR out of step with the kernel");
            push_list(c, out, e, false);
            mir_block_push(c->k, out, in);
            push_list(c, out, e, true);
        }
    }
}

void sync_emit(SyncCtx *c) {
    MirBlock out = { 0 };
    int idx = 1;
    push_list(c, &out, 0, true);
    emit_block(c, &c->k->body, &idx, &out);
    PTOC_ASSERT(idx == c->el.len - 1, "sync IR out of step with the kernel");
    push_list(c, &out, idx, false);
    push(c, &out, mir_inst_new(c->k, MI_BARRIER, PIPE_ALL));
    c->k->body = out;
}
