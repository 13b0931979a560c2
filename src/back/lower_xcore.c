/* lower_xcore — cross-core transfer instructions of a mixed kernel's side (mir.h, MirXDir).
 * Requires: tile.tpush_to_aiv / tpush_to_aic / tpop_from_aic / tpop_from_aiv / tfree_to_* calls
 *   written by ExpandMixedKernel, the ring base found by lower_find_ring.
 * Produces: MI_TPUSH (FIX from Acc, MTE3 from Vec / Mat), MI_TPOP (MTE2 on a2a3; on a5 the pipe that
 *   reads the received tile: MTE1 from L1, V from UB) into the ring buffer,
 *   MI_TFREE (S), with the channel's direction, the AIC side's split and the slot count; a call
 *   without an operand is a synchronization-only fence. */
#include "back/lower_internal.h"

#include <string.h>

static int kw_int(const Expr *c, const char *key, int dflt) {
    const AttrVal *v = ir_attr_get(&c->call.kwargs, key);
    return v && v->kind == AV_INT ? (int)v->i : dflt;
}

void lower_find_ring(Lower *l) {
    for (int i = 0; i < l->f->body.len; i++) {
        const Stmt *s = l->f->body.items[i];
        if (s->kind != ST_ASSIGN || s->assign.value->kind != EX_CALL || s->assign.value->call.op != OP_TILE_ALLOC) continue;
        const Expr *c = s->assign.value;
        int slots = kw_int(c, "ring_slots", 0);
        int64_t size;
        if (slots <= 0 || !ir_is_const_int(c->call.args[1], &size)) continue;
        l->ring_base = s->assign.var;
        l->ring_slots = slots;
        l->ring_slot_bytes = size / slots;
    }
}

void lower_xcore(Lower *l, MirBlock *b, Var *v, Expr *c, Span sp) {
    OpId op = c->call.op;
    bool push = op == OP_TILE_TPUSH_TO_AIV || op == OP_TILE_TPUSH_TO_AIC;
    bool pop = op == OP_TILE_TPOP_FROM_AIC || op == OP_TILE_TPOP_FROM_AIV;
    MirOp mop = push ? MI_TPUSH : pop ? MI_TPOP : MI_TFREE;
    int buf = -1;
    if (push && c->call.nargs) buf = lower_buf(l, c->call.args[0], sp);
    if (pop && c->call.nargs) buf = v ? lower_buf(l, ir_ref(v), sp) : -1;
    if (!push && !pop && c->call.nargs) buf = lower_buf(l, c->call.args[0], sp);
    if (!l->ok) return;
    if ((pop || !push) && buf >= 0 && l->k->bufs[buf].ring_slots <= 0) {
        lower_fail(l, sp, "internal: kernel '%s': the tile received from the other core is not in the cross-core ring", l->f->name);
        return;
    }
    /* a push travels on the pipe that reads its tile; a fence's on the pipe of the GM store it follows,
     * so the store is ahead of it in that pipe's order */
    const AttrVal *after = ir_attr_get(&c->call.kwargs, "after");
    MemSpace from = buf >= 0 ? l->k->bufs[buf].space : after && after->kind == AV_MEM ? after->mem : MS_VEC;
    /* a pop on a2a3 is an MTE2 load from the GM ring; on a5 the data is already in the receiver's buffer
     * (the producer wrote it there), so the pop is a wait on the pipe that reads the tile next: MTE1
     * out of L1, V out of UB. It must not sit on MTE2 there, where it would hold up the loads behind it. */
    Pipe pop_pipe = PIPE_MTE2;
    if (l->t->bw_xcore > 0 && buf >= 0) pop_pipe = l->k->bufs[buf].space == MS_MAT ? PIPE_MTE1 : PIPE_V;
    Pipe pipe = push ? (from == MS_ACC ? PIPE_FIX : PIPE_MTE3) : pop ? pop_pipe : PIPE_S;
    MirInst *i = mir_inst_new(l->k, mop, pipe);
    i->loc = sp;
    if (push) i->src0 = buf;
    else i->dst = buf;
    i->xdir = (op == OP_TILE_TPUSH_TO_AIV || op == OP_TILE_TPOP_FROM_AIC || op == OP_TILE_TFREE_TO_AIC) ? XDIR_C2V : XDIR_V2C;
    i->split = l->k->core == CORE_AIC ? (MirSplit)kw_int(c, "split", 0) : MSPLIT_NONE;
    i->region_split = (MirSplit)kw_int(c, "split", 0);
    i->slot_num = kw_int(c, "slot_num", l->ring_slots > 0 ? l->ring_slots : 2);
    i->sync_only = buf < 0;
    mir_block_push(l->k, b, i);
}
