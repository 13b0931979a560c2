/* sim/xcore — the cross-core FIFO channels of a mixed task (mir.h, MirXDir): tpush, tpop, tfree, the
 * ring buffers the pops fill, and the happens-before the channels carry between cores.
 *
 * Requires: a group (group.c) whose members are the AIC kernel and the AIV kernels of lanes 0 / 1;
 * the pipe engine (pipes.c) asks whether a push / pop head can start and executes it.
 * Produces: entries moving from producer to consumer in push order, data copied (logical elements,
 * through the buffer views) into the consumer's ring slot, channel sync errors.
 * Does: channel (xdir, lane) keeps every entry and every slot release by number: push n waits for the
 * release of push n - slot_num (tfree n - slot_num), pop m for entry m; a release is visible to the
 * producer, an entry to the consumer, xcore_flag_cycles after it happens. A pop joins the push's
 * vector clock and a push the clock of the tfree that freed its slot, so the race detector orders GM
 * accesses fenced through a channel. The walk resolves ring slots: pop n of a buffer uses slot
 * n % ring_slots; every other instruction naming the buffer uses the slot of the latest pop before
 * it; a tfree releases the slot of its core's oldest unfreed pop of the channel. */
#include "sim/sim_int.h"

#include <stdlib.h>
#include <string.h>

static const char *xdir_name(MirXDir x) { return x == XDIR_C2V ? "C2V" : "V2C"; }

static int64_t max64(int64_t a, int64_t b) { return a > b ? a : b; }

/* The lanes an instruction of s uses: the AIC's by its split, an AIV's its own. */
static int lanes_of(const SimRun *s, const MirInst *i, int *lanes) {
    if (s->k->core == CORE_AIV) { lanes[0] = s->k->lane; return 1; }
    lanes[0] = 0;
    lanes[1] = 1;
    return i->split == MSPLIT_NONE ? 1 : 2;
}

static SimChan *chan(SimRun *s, const MirInst *i, int lane) { return &s->g->ch[i->xdir][lane]; }

/* ---- issue (the walk) ---- */

void sim_ring_slots(SimRun *s, SimDyn *d) {
    const MirInst *i = d->inst;
    int ids[4] = { i->dst, i->src0, i->src1, i->src2 };
    for (int j = 0; j < 4; j++)
        if (ids[j] >= 0 && ids[j] < s->k->nbufs && s->k->bufs[ids[j]].ring_slots > 0) d->slot[j] = s->ring_cur[ids[j]];
}

static bool check_xcore(SimRun *s, const MirInst *i) {
    const char *op = mir_op_name(i->op);
    if ((int)i->xdir < 0 || i->xdir > XDIR_V2C || (int)i->split < 0 || i->split > MSPLIT_LEFT_RIGHT || i->slot_num < 1 ||
        i->slot_num > SIM_MAX_SLOTS)
        return sim_hard_error(s, i, "%s: invalid direction %d, split %d or slot_num %d (1..%d)", op, (int)i->xdir, (int)i->split,
                              i->slot_num, SIM_MAX_SLOTS);
    bool aic = s->k->core == CORE_AIC;
    MirXDir want = (i->op == MI_TPUSH) == aic ? XDIR_C2V : XDIR_V2C;
    if (i->xdir != want)
        return sim_hard_error(s, i, "%s of the %s channel on an %s kernel (it %s the %s channel)", op, xdir_name(i->xdir),
                              aic ? "AIC" : "AIV", i->op == MI_TPUSH ? "pushes to" : "takes from", xdir_name(want));
    if (!aic && i->split != MSPLIT_NONE)
        return sim_hard_error(s, i, "%s: a split belongs on the AIC side; an AIV kernel moves its own part", op);
    if (!aic && s->k->lane != 0 && s->k->lane != 1) return sim_hard_error(s, i, "%s: AIV lane %d (0 or 1)", op, s->k->lane);
    int lanes[2], nl = lanes_of(s, i, lanes);
    for (int l = 0; l < nl; l++) {
        SimChan *c = chan(s, i, lanes[l]);
        if (!c->slot_num) c->slot_num = i->slot_num;
        if (c->slot_num != i->slot_num)
            return sim_hard_error(s, i, "%s: slot_num %d, but the %s channel (lane %d) was used with slot_num %d", op, i->slot_num,
                                  xdir_name(i->xdir), lanes[l], c->slot_num);
    }
    if (i->sync_only) return true;
    int b = i->op == MI_TPUSH ? i->src0 : i->dst;
    if (b >= 32767) return sim_hard_error(s, i, "%s: buffer id %d too large for the simulator's ring bookkeeping", op, b);
    if (i->op == MI_TFREE) return b < 0 || b < s->k->nbufs ? true : sim_hard_error(s, i, "tfree: invalid buffer %d", b);
    if (b < 0 || b >= s->k->nbufs) return sim_hard_error(s, i, "%s without its %s buffer", op, i->op == MI_TPUSH ? "source" : "ring");
    const MirBuf *buf = &s->k->bufs[b];
    if (i->op == MI_TPOP && buf->ring_slots != i->slot_num)
        return sim_hard_error(s, i, "tpop into %s: a ring buffer of slot_num = %d slots is needed (it has ring_slots %d)", buf->name,
                              i->slot_num, buf->ring_slots);
    return true;
}

bool sim_xcore_issue(SimRun *s, const MirInst *i, SimDyn *d) {
    if (!check_xcore(s, i)) return false;
    d->off0 = -1;
    if (i->op == MI_TPUSH) { sim_ring_slots(s, d); return true; }
    int x = i->xdir;
    if (i->op == MI_TPOP) {
        int b = i->sync_only ? -1 : i->dst, slot = 0;
        if (b >= 0) {
            /* the slot count is the ring's, not the buffer's: tiles of several shapes (buffers) may be
             * received through one ring, pop n taking slot n % slot_num */
            int r = b;
            for (int q = 0; q < b; q++)
                if (s->k->bufs[q].ring_slots > 0 && s->k->bufs[q].space == s->k->bufs[b].space && s->k->bufs[q].addr == s->k->bufs[b].addr) { r = q; break; }
            slot = s->ring_npop[r] % s->k->bufs[b].ring_slots;
            s->ring_npop[r]++;
            s->ring_cur[b] = (int16_t)slot;
        }
        d->slot[0] = (int16_t)slot;
        vec_push(&s->pend[x], (int32_t)((b + 1) << 16 | slot));
        return true;
    }
    if (s->pend_head[x] >= s->pend[x].len)
        return sim_hard_error(s, i, "tfree of the %s channel with no popped slot left to release (every tpop before it was freed)",
                              xdir_name(i->xdir));
    int32_t e = s->pend[x].data[s->pend_head[x]++];
    int b = (e >> 16) - 1;
    if (i->dst >= 0 && i->dst != b)
        return sim_hard_error(s, i, "tfree names %s, but the oldest unfreed pop of the %s channel filled %s", s->k->bufs[i->dst].name,
                              xdir_name(i->xdir), b >= 0 ? s->k->bufs[b].name : "nothing (a fence)");
    d->off0 = b;                     /* the buffer whose slot it releases (-1: a fence's) */
    d->slot[0] = (int16_t)(e & 0xffff);
    return true;
}

void sim_ring_rebase(SimRun *s, const SimDyn *d, int sign) {
    const MirInst *i = d->inst;
    int ids[4] = { i->dst, i->src0, i->src1, i->src2 };
    for (int j = 0; j < 4; j++) {
        if (ids[j] < 0 || ids[j] >= s->k->nbufs || !d->slot[j]) continue;
        bool seen = false;           /* one buffer named twice (in place) moves once */
        for (int q = 0; q < j; q++) seen |= ids[q] == ids[j];
        if (!seen) s->views[ids[j]].base += sign * d->slot[j] * s->k->bufs[ids[j]].bytes;
    }
}

/* ---- the engine ---- */

bool sim_xcore_can_start(SimRun *s, const SimDyn *d, int64_t *t0) {
    const MirInst *i = d->inst;
    int lanes[2], nl = lanes_of(s, i, lanes);
    for (int l = 0; l < nl; l++) {
        SimChan *c = chan(s, i, lanes[l]);
        if (i->op == MI_TPUSH) {
            int n = c->ent.len - c->slot_num;      /* the release this push needs, if any */
            if (n < 0) continue;
            if (n >= c->fr.len) return false;
            *t0 = max64(*t0, c->fr.data[n].time);
        } else {
            if (c->npop >= c->ent.len) return false;
            *t0 = max64(*t0, c->ent.data[c->npop].ready);
        }
    }
    return true;
}

static void join(int32_t *known, const int32_t *vc) {
    for (int q = 0; q < SIM_VC; q++)
        if (known[q] < vc[q]) known[q] = vc[q];
}

/* The clock an entry / a release carries: the pipe's knowledge and everything before it on its pipe. */
static void stamp(const SimRun *s, const SimDyn *d, int32_t *vc) {
    memcpy(vc, s->known[d->pipe], sizeof(int32_t) * SIM_VC);
    int32_t *own = &vc[s->ci * PIPE_COUNT + d->pipe];
    if (*own < d->seq) *own = d->seq;
}

/* Rows [r0, r0 + nr) x cols [c0, c0 + nc) of lane l's part of an R x C tile under a split. */
static void part_of(MirSplit sp, int l, int64_t R, int64_t C, int64_t *r0, int64_t *c0, int64_t *nr, int64_t *nc) {
    int64_t h = (R + 1) / 2, w = (C + 1) / 2;
    *r0 = *c0 = 0; *nr = R; *nc = C;
    if (sp == MSPLIT_UP_DOWN) { *r0 = l ? h : 0; *nr = l ? R - h : h; }
    if (sp == MSPLIT_LEFT_RIGHT) { *c0 = l ? w : 0; *nc = l ? C - w : w; }
}

static bool exec_push(SimRun *s, const SimDyn *d, int64_t end, bool forced) {
    const MirInst *i = d->inst;
    int lanes[2], nl = lanes_of(s, i, lanes);
    for (int l = 0; l < nl && !forced; l++) {
        SimChan *c = chan(s, i, lanes[l]);
        int n = c->ent.len - c->slot_num;
        if (n >= 0 && n < c->fr.len) join(s->known[d->pipe], c->fr.data[n].vc);
    }
    sim_ring_rebase(s, d, 1);
    if (s->o->race_check) sim_race_access(s, d);
    const SimView *v = i->sync_only ? NULL : &s->views[i->src0];
    for (int l = 0; l < nl; l++) {
        SimXEntry e = { .sync_only = i->sync_only, .ready = end + (int64_t)s->t->xcore_flag_cycles, .producer = s->ci,
                        .consumer = -1, .push = i };
        stamp(s, d, e.vc);
        if (v && s->o->timing_only) {              /* the entry's shape, for the pop's checks; no data */
            int64_t r0, c0;
            part_of(s->k->core == CORE_AIC ? i->split : MSPLIT_NONE, lanes[l], v->buf->valid_rows, v->buf->valid_cols, &r0, &c0,
                    &e.rows, &e.cols);
            e.dt = v->buf->dtype;
        } else if (v) {
            int64_t r0, c0;
            part_of(s->k->core == CORE_AIC ? i->split : MSPLIT_NONE, lanes[l], v->buf->valid_rows, v->buf->valid_cols, &r0, &c0,
                    &e.rows, &e.cols);
            e.dt = v->buf->dtype;
            e.data = malloc((size_t)(e.rows * e.cols * v->eb) + 1);
            PTOC_ASSERT(e.data != NULL, "out of memory");
            for (int64_t r = 0; r < e.rows; r++)
                for (int64_t k = 0; k < e.cols; k++)
                    memcpy(e.data + (r * e.cols + k) * v->eb, sim_elem_ptr(v, r0 + r, c0 + k), (size_t)v->eb);
        }
        vec_push(&chan(s, i, lanes[l])->ent, e);
    }
    sim_ring_rebase(s, d, -1);
    return true;
}

/* Copies entry e (lane l's part) into the popped slot; hard error when it does not fit. */
static bool pop_data(SimRun *s, const SimDyn *d, int l, const SimXEntry *e) {
    const MirInst *i = d->inst;
    const SimRun *pr = s->g->runs[e->producer];
    if (i->sync_only != e->sync_only)
        return sim_hard_error(s, i, "tpop%s from the %s channel (lane %d) takes %s pushed by kernel %s at line %d%s", i->sync_only ? " (a fence)" : "",
                              xdir_name(i->xdir), l, e->sync_only ? "a fence" : "data", pr->k->name, e->push->loc.line,
                              i->sync_only ? "" : ": a data pop needs a data push");
    if (i->sync_only) return true;
    const SimView *v = &s->views[i->dst];
    const MirBuf *b = v->buf;
    int64_t r0, c0, nr, nc;
    part_of(s->k->core == CORE_AIC ? i->split : MSPLIT_NONE, l, b->valid_rows, b->valid_cols, &r0, &c0, &nr, &nc);
    if (e->dt != b->dtype)
        return sim_hard_error(s, i, "tpop into %s (%s): the tpush at line %d of kernel %s sends %s", b->name, dtype_name(b->dtype),
                              e->push->loc.line, pr->k->name, dtype_name(e->dt));
    if (e->rows != nr || e->cols != nc)
        return sim_hard_error(s, i, "tpop into %s (valid %lldx%lld) expects a %lldx%lld part from lane %d, but the tpush at line %d of "
                              "kernel %s sends %lldx%lld", b->name, (long long)b->valid_rows, (long long)b->valid_cols, (long long)nr,
                              (long long)nc, l, e->push->loc.line, pr->k->name, (long long)e->rows, (long long)e->cols);
    for (int64_t r = 0; r < nr && e->data; r++)        /* timing-only entries carry no data */
        for (int64_t k = 0; k < nc; k++)
            memcpy(sim_elem_ptr(v, r0 + r, c0 + k), e->data + (r * nc + k) * v->eb, (size_t)v->eb);
    return true;
}

static bool exec_pop(SimRun *s, const SimDyn *d, bool forced) {
    const MirInst *i = d->inst;
    int lanes[2], nl = lanes_of(s, i, lanes);
    SimXEntry *es[2] = { NULL, NULL };
    for (int l = 0; l < nl; l++) {
        SimChan *c = chan(s, i, lanes[l]);
        if (c->npop >= c->ent.len) {         /* forced: a phantom entry, nothing to copy */
            PTOC_ASSERT(forced, "pop without an entry");
            vec_push(&c->ent, ((SimXEntry){ .phantom = true, .producer = s->ci, .push = i }));
        }
        es[l] = &c->ent.data[c->npop++];
        es[l]->consumer = s->ci;
        es[l]->pop = i;
        if (!es[l]->phantom) join(s->known[d->pipe], es[l]->vc);
    }
    sim_ring_rebase(s, d, 1);
    if (s->o->race_check) sim_race_access(s, d);
    bool ok = true;
    for (int l = 0; l < nl && ok; l++) {
        if (!es[l]->phantom) ok = pop_data(s, d, lanes[l], es[l]);
        free(es[l]->data);
        es[l]->data = NULL;
    }
    sim_ring_rebase(s, d, -1);
    return ok;
}

static void exec_free(SimRun *s, const SimDyn *d, int64_t end) {
    const MirInst *i = d->inst;
    int b = (int)d->off0;
    if (b >= 0 && s->o->race_check) {     /* the release hands the slot back: like a write of it */
        const MirBuf *buf = &s->k->bufs[b];
        MirAccess a = { buf->space, -1, buf->addr + d->slot[0] * buf->bytes, buf->addr + (d->slot[0] + 1) * buf->bytes };
        sim_race_touch(s, d, &a, true);
    }
    int lanes[2], nl = lanes_of(s, i, lanes);
    for (int l = 0; l < nl; l++) {
        SimChan *c = chan(s, i, lanes[l]);
        if (c->fr.len >= c->npop && b >= 0)   /* nothing orders the pop before the release (a fence's slot holds nothing) */
            sim_add_msg(s, false, "sync: kernel %s: tfree of the %s channel (lane %d) at line %d ran before the tpop whose slot it "
                        "releases (no flag orders the pop and the slot's uses before it)", s->k->name, xdir_name(i->xdir), lanes[l],
                        i->loc.line);
        SimXFree f = { .time = end + (int64_t)s->t->xcore_flag_cycles };
        stamp(s, d, f.vc);
        vec_push(&c->fr, f);
    }
}

bool sim_xcore_exec(SimRun *s, const SimDyn *d, int64_t end, bool forced) {
    switch (d->inst->op) {
    case MI_TPUSH: return exec_push(s, d, end, forced);
    case MI_TPOP: return exec_pop(s, d, forced);
    default: exec_free(s, d, end); return true;
    }
}

void sim_xcore_blocked(SimRun *s, const SimDyn *d, StrBuf *sb) {
    const MirInst *i = d->inst;
    int lanes[2], nl = lanes_of(s, i, lanes);
    for (int l = 0; l < nl; l++) {
        SimChan *c = chan(s, i, lanes[l]);
        if (i->op == MI_TPOP && c->npop >= c->ent.len) {
            sb_printf(sb, "tpop from the %s channel (lane %d) at line %d waits for a push that never comes", xdir_name(i->xdir),
                      lanes[l], i->loc.line);
            return;
        }
        if (i->op == MI_TPUSH && c->ent.len - c->slot_num >= c->fr.len) {
            sb_printf(sb, "tpush to the %s channel (lane %d) at line %d waits for a free slot that is never released "
                      "(all %d slots full, no tfree frees one)", xdir_name(i->xdir), lanes[l], i->loc.line, c->slot_num);
            return;
        }
    }
}

void sim_xcore_finish(SimGroup *g) {
    for (int x = 0; x < 2; x++)
        for (int l = 0; l < 2; l++) {
            SimChan *c = &g->ch[x][l];
            for (int n = 0; n < c->ent.len; n++) {
                const SimXEntry *e = &c->ent.data[n];
                if (e->phantom) continue;
                if (n >= c->npop)
                    sim_add_msg(g->runs[e->producer], false, "sync: kernel %s: tpush to the %s channel (lane %d) at line %d: "
                                "pushed, never popped", g->runs[e->producer]->k->name, xdir_name((MirXDir)x), l, e->push->loc.line);
                else if (n >= c->fr.len)
                    sim_add_msg(g->runs[e->consumer], false, "sync: kernel %s: tpop from the %s channel (lane %d) at line %d: slot "
                                "popped, never freed (no tfree)", g->runs[e->consumer]->k->name, xdir_name((MirXDir)x), l,
                                e->pop->loc.line);
            }
        }
}

void sim_xcore_free(SimGroup *g) {
    for (int x = 0; x < 2; x++)
        for (int l = 0; l < 2; l++) {
            SimChan *c = &g->ch[x][l];
            for (int n = 0; n < c->ent.len; n++) free(c->ent.data[n].data);
            vec_free(&c->ent);
            vec_free(&c->fr);
        }
}
