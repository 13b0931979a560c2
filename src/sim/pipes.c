/* sim/pipes — the pipe engine: in-order pipe queues running concurrently in simulated time,
 * binary flag tokens, barriers, the timing model (including the vector cost table) and deadlock
 * recovery, for one core or for the cores of a cluster together (a group; sim_run is a group of one).
 *
 * Requires: the dynamic instruction streams and per-pipe queues built by the scalar walks (core.c).
 * Produces: functional effects in simulated-time order, SimResult timing, sync errors, trace.
 * Does: a discrete-event loop repeatedly starts, among the pipe heads of every core that can start,
 * the one with the earliest start time (ties: group index, then issue order). A tpush / tpop head
 * waits for its channel (xcore.c). A wait_flag head can start once its flag is set; an
 * instruction issued after a pending pipe_barrier(PIPE_ALL) waits for it; the PIPE_ALL barrier
 * starts when every earlier-issued instruction has completed. When nothing can start but queues are
 * non-empty, every blocked wait / push / pop is reported and the earliest-issued released as if satisfied. The walk may
 * run the engine ahead, up to a scalar read whose value it needs (sim_run_pipes_until). */
#include "sim/sim_int.h"

#include <math.h>
#include <string.h>

static int64_t cyc(double x) {
    int64_t c = (int64_t)ceil(x - 1e-9);
    return c < 1 ? 1 : c;
}

static int64_t odd_part(int64_t x) {
    while (x > 0 && x % 2 == 0) x /= 2;
    return x;
}

static int64_t cdiv(int64_t a, int64_t b) { return (a + b - 1) / b; }

static double tile_bytes(const MirBuf *b) { return (double)(b->valid_rows * b->valid_cols * dtype_bytes(b->dtype)); }

static int64_t drain_cycles(const Target *t, int64_t m, int64_t n, int64_t bc) {
    const L0CostModel *cm = &t->cost;
    int64_t n0 = cm->drain_c0_bytes / bc;
    if (n0 < 1) n0 = 1;
    double per_row = (double)(bc * n) / cm->bw_drain;
    if (per_row < cm->drain_row_cycles) per_row = cm->drain_row_cycles;
    per_row += cm->drain_penalty_cycles * (double)(odd_part(cdiv(n, n0)) - 1);
    return cyc(cm->drain_fixed_cycles + (double)m * per_row);
}

static int64_t mad_cycles(const Target *t, const MirBuf *a, const MirBuf *b) {
    const L0CostModel *cm = &t->cost;
    int64_t ba = dtype_bytes(a->dtype);
    int64_t kt = ba > 0 ? cm->mad_k_fractal_bytes / ba : 1;
    if (kt < 1) kt = 1;
    int64_t cpr = ba == 4 ? cm->mad_fp32_passes : ba / 2;
    if (cpr < 1) cpr = 1;
    return cm->mad_head + cpr * cdiv(a->valid_rows, 16) * cdiv(a->valid_cols, kt) * cdiv(b->valid_cols, 16);
}

static int64_t move_cycles(const Target *t, const MirBuf *src, const MirBuf *dst) {
    double bytes = tile_bytes(dst);
    if (src->space == MS_ACC) return cyc(bytes / t->bw_acc_to_mat);
    if (src->space == MS_MAT && dst->space == MS_RIGHT) return cyc(bytes / t->cost.bw_b);
    return cyc(bytes / t->cost.bw_a);   /* Mat -> Left / Bias, and (model gap) Vec -> Vec */
}

/* ---- vector instructions (spec/ops.md §2.9, the proposed ptoc model; docs/sim.md) ----
 * The intrinsic behind each op with its issue head and cycles per 256-byte repeat (pto-isa's
 * per-intrinsic a2a3 model); floor16: a binary ALU op adds 16 cycles when a row is not a whole
 * number of repeats. Reductions and expands use their fitted per-row forms. */
typedef enum { VC_REPEAT, VC_REDUCE, VC_EXPAND } VecCostShape;
typedef struct VecCost { VecCostShape shape; int16_t head, slope; bool floor16; } VecCost;

static const VecCost vec_cost[VOP_COUNT] = {
    [VOP_ADD] = { VC_REPEAT, 10, 2, true },    [VOP_SUB] = { VC_REPEAT, 10, 2, true },      /* vadd vsub */
    [VOP_MAX] = { VC_REPEAT, 10, 2, true },    [VOP_MIN] = { VC_REPEAT, 10, 2, true },      /* vmax vmin */
    [VOP_MUL] = { VC_REPEAT, 10, 2, true },    [VOP_DIV] = { VC_REPEAT, 11, 4, true },      /* vmul vdiv */
    [VOP_ADDS] = { VC_REPEAT, 13, 1, false },  [VOP_SUBS] = { VC_REPEAT, 13, 1, false },    /* vadds (-s) */
    [VOP_MULS] = { VC_REPEAT, 11, 1, false },  [VOP_DIVS] = { VC_REPEAT, 11, 4, false },    /* vmuls; vdiv by a dup */
    [VOP_MAXS] = { VC_REPEAT, 10, 1, false },  [VOP_MINS] = { VC_REPEAT, 14, 1, false },    /* vmaxs vmins */
    /* remainder and bit ops (no rows of their own in the spec's table): fmod / rem as vdiv, the
     * tile-tile bit ops as vand / vor; xor (three vand-class passes through its tmp: (a | b) & ~(a & b)),
     * shifts as vand; scalar forms as the vmuls class; tnot = vnot */
    [VOP_FMOD] = { VC_REPEAT, 11, 4, true },   [VOP_FMODS] = { VC_REPEAT, 11, 4, false },
    [VOP_REM] = { VC_REPEAT, 11, 4, true },    [VOP_REMS] = { VC_REPEAT, 11, 4, false },
    [VOP_AND] = { VC_REPEAT, 8, 2, true },     [VOP_OR] = { VC_REPEAT, 8, 2, true },       /* vand vor */
    [VOP_XOR] = { VC_REPEAT, 8, 6, true },     [VOP_SHL] = { VC_REPEAT, 8, 2, true },
    [VOP_SHR] = { VC_REPEAT, 8, 2, true },     [VOP_ANDS] = { VC_REPEAT, 11, 1, false },
    [VOP_ORS] = { VC_REPEAT, 11, 1, false },   [VOP_XORS] = { VC_REPEAT, 11, 3, false },
    [VOP_SHLS] = { VC_REPEAT, 11, 1, false },  [VOP_SHRS] = { VC_REPEAT, 11, 1, false },
    [VOP_NOT] = { VC_REPEAT, 8, 2, false },                                                /* vnot */
    /* lrelu = vmuls + vmax, prelu = compare + multiply + select (two vsel-class passes) */
    [VOP_LRELU] = { VC_REPEAT, 11, 2, false }, [VOP_PRELU] = { VC_REPEAT, 13, 4, false },
    [VOP_PARTADD] = { VC_REPEAT, 10, 2, true }, [VOP_PARTMUL] = { VC_REPEAT, 10, 2, true }, /* as vadd vmul vmax vmin */
    [VOP_PARTMAX] = { VC_REPEAT, 10, 2, true }, [VOP_PARTMIN] = { VC_REPEAT, 10, 2, true },
    [VOP_EXP] = { VC_REPEAT, 13, 2, false },   [VOP_LOG] = { VC_REPEAT, 13, 2, false },     /* vexp vln */
    [VOP_SQRT] = { VC_REPEAT, 14, 2, false },  [VOP_RSQRT] = { VC_REPEAT, 10, 1, false },   /* vsqrt vrsqrt */
    [VOP_RECIP] = { VC_REPEAT, 10, 1, false }, [VOP_ABS] = { VC_REPEAT, 13, 1, false },     /* vrec (as vrsqrt) vabs */
    [VOP_NEG] = { VC_REPEAT, 11, 1, false },   [VOP_RELU] = { VC_REPEAT, 10, 1, false },    /* vmuls by -1, vrelu */
    [VOP_CVT] = { VC_REPEAT, 14, 2, false },   [VOP_EXPANDS] = { VC_REPEAT, 11, 1, false }, /* vconv vector_dup */
    [VOP_FILLPAD] = { VC_REPEAT, 11, 1, false },                                           /* vcopy */
    [VOP_ROWSUM] = { VC_REDUCE, 0, 0, false }, [VOP_ROWMAX] = { VC_REDUCE, 0, 0, false },
    [VOP_ROWMIN] = { VC_REDUCE, 0, 0, false }, [VOP_COLSUM] = { VC_REDUCE, 0, 0, false },
    [VOP_COLMAX] = { VC_REDUCE, 0, 0, false }, [VOP_COLMIN] = { VC_REDUCE, 0, 0, false },
    [VOP_ROWPROD] = { VC_REDUCE, 0, 0, false }, [VOP_COLPROD] = { VC_REDUCE, 0, 0, false },
    /* arg reductions: the reduction form (a compare-and-select chain of the same depth) */
    [VOP_ROWARGMAX] = { VC_REDUCE, 0, 0, false }, [VOP_ROWARGMIN] = { VC_REDUCE, 0, 0, false },
    [VOP_COLARGMAX] = { VC_REDUCE, 0, 0, false }, [VOP_COLARGMIN] = { VC_REDUCE, 0, 0, false },
    [VOP_FILLPADEXPAND] = { VC_REPEAT, 11, 1, false },                                     /* vcopy over dst */
    [VOP_ROWEXPAND] = { VC_EXPAND, 0, 0, false },    [VOP_ROWEXPANDADD] = { VC_EXPAND, 0, 0, false },
    [VOP_ROWEXPANDSUB] = { VC_EXPAND, 0, 0, false }, [VOP_ROWEXPANDMUL] = { VC_EXPAND, 0, 0, false },
    [VOP_ROWEXPANDDIV] = { VC_EXPAND, 0, 0, false }, [VOP_ROWEXPANDMAX] = { VC_EXPAND, 0, 0, false },
    [VOP_ROWEXPANDMIN] = { VC_EXPAND, 0, 0, false }, [VOP_COLEXPAND] = { VC_EXPAND, 0, 0, false },
    [VOP_ROWEXPANDEXPDIF] = { VC_EXPAND, 0, 0, false }, [VOP_COLEXPANDEXPDIF] = { VC_EXPAND, 0, 0, false },
    [VOP_COLEXPANDADD] = { VC_EXPAND, 0, 0, false }, [VOP_COLEXPANDSUB] = { VC_EXPAND, 0, 0, false },
    [VOP_COLEXPANDMUL] = { VC_EXPAND, 0, 0, false }, [VOP_COLEXPANDDIV] = { VC_EXPAND, 0, 0, false },
    [VOP_COLEXPANDMAX] = { VC_EXPAND, 0, 0, false }, [VOP_COLEXPANDMIN] = { VC_EXPAND, 0, 0, false },
    /* no vcmp intrinsic in the spec's table: costed as vsel (head 13, 2 per repeat) over the source */
    [VOP_CMP] = { VC_REPEAT, 13, 2, false },   [VOP_CMPS] = { VC_REPEAT, 13, 2, false },    /* vcmp vcmps */
    [VOP_SEL] = { VC_REPEAT, 13, 2, false },   [VOP_SELS] = { VC_REPEAT, 13, 2, false },    /* vsel */
    /* data movement, no intrinsic in the spec's table: costed as vcopy over dst (transpose 2 per repeat) */
    [VOP_TRANS] = { VC_REPEAT, 11, 2, false }, [VOP_CONCAT] = { VC_REPEAT, 11, 1, false },
};

/* Over a [vr, vc] region of b-byte elements: repeats = vr * ceil(vc * b / 256). Reductions are
 * costed on the source's valid region, fillpad on dst's whole capacity, a cast on the wider of its
 * two element types, everything else on dst's valid region. */
static int64_t vec_cycles(const Kernel *k, const MirInst *i) {
    if (i->vop < 0 || i->vop >= VOP_COUNT || i->dst < 0) return 1;
    const VecCost *c = &vec_cost[i->vop];
    MirVecKind vk = mir_vop_kind(i->vop);
    const MirBuf *d = &k->bufs[i->dst], *s = i->src0 >= 0 ? &k->bufs[i->src0] : NULL;
    int64_t vr = d->valid_rows, vc = d->valid_cols, b = dtype_bytes(d->dtype);
    if (vk == MVK_FILLPAD) { vr = d->rows; vc = d->cols; }
    if (c->shape == VC_REDUCE && s) { vr = s->valid_rows; vc = s->valid_cols; b = dtype_bytes(s->dtype); }
    if (vk == MVK_CAST && s && dtype_bytes(s->dtype) > b) b = dtype_bytes(s->dtype);
    if ((vk == MVK_CMP || vk == MVK_CMPS) && s) { vr = s->valid_rows; vc = s->valid_cols; b = dtype_bytes(s->dtype); }
    int64_t per_row = cdiv(vc * b, 256);
    switch (c->shape) {
    case VC_REDUCE: return vr * (7 + per_row - 1) + 40;
    case VC_EXPAND: return 15 * vr + 35;
    default: return c->head + c->slope * vr * per_row + (c->floor16 && (vc * b) % 256 != 0 ? 16 : 0);
    }
}

/* Cross-core transfers (docs/sim.md, "Clusters and the cross-core FIFO"). a2a3 moves the data through
 * a GM ring: a push from Acc is the FIX drain of a tstore, from Vec an MTE3 store; a pop is an MTE2
 * load into the consumer. a5 moves it on chip: a push at bw_xcore, a pop a fixed latency. A fence
 * (sync_only) is a flag: one cycle. */
static int64_t xcore_cycles(const Target *t, const Kernel *k, const MirInst *i) {
    if (i->sync_only) return 1;
    const MirBuf *b = &k->bufs[i->op == MI_TPUSH ? i->src0 : i->dst];
    if (t->id == TGT_A5) return i->op == MI_TPUSH ? cyc(tile_bytes(b) / t->bw_xcore) : cyc(t->xcore_pop_cycles);
    if (i->op == MI_TPOP) return cyc(t->dma_fixed_cycles + tile_bytes(b) / (b->space == MS_VEC ? t->bw_gm_to_vec : t->bw_gm_to_mat));
    if (b->space == MS_ACC) return drain_cycles(t, b->valid_rows, b->valid_cols, dtype_bytes(b->dtype));
    return cyc(t->dma_fixed_cycles + tile_bytes(b) / t->bw_vec_to_gm);
}

int64_t sim_inst_cycles(const Target *t, const Kernel *k, const MirInst *i) {
    switch (i->op) {
    case MI_SET_FLAG: case MI_BARRIER: return 1;
    case MI_WAIT_FLAG: return 0;
    case MI_TLOAD: {
        const MirBuf *d = &k->bufs[i->dst];
        double bw = d->space == MS_VEC ? t->bw_gm_to_vec : t->bw_gm_to_mat;
        return cyc(t->dma_fixed_cycles + tile_bytes(d) / bw);
    }
    case MI_TSTORE: {
        const MirBuf *s = &k->bufs[i->src0];
        if (s->space == MS_ACC) return drain_cycles(t, s->valid_rows, s->valid_cols, dtype_bytes(s->dtype));
        double bw = s->space == MS_MAT ? t->bw_mat_to_gm : t->bw_vec_to_gm;
        return cyc(t->dma_fixed_cycles + tile_bytes(s) / bw);
    }
    case MI_TEXTRACT: case MI_TMOV: return move_cycles(t, &k->bufs[i->src0], &k->bufs[i->dst]);
    case MI_TINSERT: return cyc(tile_bytes(&k->bufs[i->src0]) / t->bw_acc_to_mat);
    case MI_TMATMUL: case MI_TMATMUL_ACC: case MI_TMATMUL_BIAS:
        return mad_cycles(t, &k->bufs[i->src0], &k->bufs[i->src1]);
    case MI_VOP: { int64_t c = vec_cycles(k, i); return c < 1 ? 1 : c; }
    /* ptoc's model (no upstream figure): an element of UB through the scalar unit, a GM element
     * through the D-cache at the cost of a DMA's fixed latency */
    case MI_TGETVAL: case MI_TSETVAL: return SIM_SCALAR_UB_CYCLES;
    case MI_GGETVAL: case MI_GSETVAL: return cyc(t->dma_fixed_cycles);
    case MI_TPUSH: case MI_TPOP: return xcore_cycles(t, k, i);
    case MI_TFREE: return 1;
    default: return 0;
    }
}

/* ---- the event loop (one time line for every core of a group) ---- */

typedef SimEngine Engine;

static int64_t max64(int64_t a, int64_t b) { return a > b ? a : b; }

static SimDyn *head_of(SimRun *s, int p) {
    Engine *e = &s->eng;
    return e->head[p] < s->queue[p].len ? &s->dyn.data[s->queue[p].data[e->head[p]]] : NULL;
}

/* Is the head of p held back by an earlier-issued, not yet executed PIPE_ALL barrier? */
static bool behind_all_barrier(SimRun *s, int p, const SimDyn *d) {
    if (p == PIPE_ALL) return false;
    const SimDyn *b = head_of(s, PIPE_ALL);
    return b && d->order > b->order;
}

static bool is_xcore(const MirInst *i) { return i->op == MI_TPUSH || i->op == MI_TPOP; }

/* Can the head of pipe p start? If so *start gets its start time. */
static bool can_start(SimRun *s, int p, int64_t *start) {
    Engine *e = &s->eng;
    SimDyn *d = head_of(s, p);
    if (!d || behind_all_barrier(s, p, d)) return false;
    if (p == PIPE_ALL) {
        if (e->completed != d->order) return false;
        *start = max64(e->max_end, d->t_issue);
        return true;
    }
    int64_t t0 = max64(max64(e->pipe_free[p], d->t_issue), e->allbar_end);
    if (d->inst->op == MI_WAIT_FLAG) {
        const SimFlag *f = &s->flags[d->inst->src_pipe][d->inst->dst_pipe][d->event];
        if (!f->set) return false;
        t0 = max64(t0, f->time);
    } else if (is_xcore(d->inst) && !sim_xcore_can_start(s, d, &t0)) return false;
    *start = t0;
    return true;
}

static void do_set(SimRun *s, const SimDyn *d, int64_t end) {
    const MirInst *i = d->inst;
    SimFlag *f = &s->flags[i->src_pipe][i->dst_pipe][d->event];
    if (f->set) {
        sim_add_msg(s, false, "sync: %sset_flag(%s, %s, EVENT_ID%d) at line %d on a flag that is already set "
                    "(by line %d, not yet waited for)", sim_kernel_tag(s), mir_pipe_name(i->src_pipe),
                    mir_pipe_name(i->dst_pipe), d->event, i->loc.line, f->setter ? f->setter->loc.line : 0);
        return;
    }
    f->set = true;
    s->nflags_set++;
    f->time = end;
    f->setter = i;
    memcpy(f->vc, s->known[i->src_pipe], sizeof f->vc);
    int32_t *own = &f->vc[s->ci * PIPE_COUNT + i->src_pipe];
    if (*own < d->seq - 1) *own = d->seq - 1;
}

static void do_wait(SimRun *s, const SimDyn *d, bool forced) {
    const MirInst *i = d->inst;
    if (forced) return;
    SimFlag *f = &s->flags[i->src_pipe][i->dst_pipe][d->event];
    if (f->set) s->nflags_set--;
    f->set = false;
    for (int q = 0; q < SIM_VC; q++)
        if (s->known[i->dst_pipe][q] < f->vc[q]) s->known[i->dst_pipe][q] = f->vc[q];
}

/* pipe_barrier(p) orders p after itself; PIPE_ALL orders every pipe after everything issued before
 * it, including what those instructions knew of the other cores. */
static void do_barrier(SimRun *s, const SimDyn *d, int p) {
    int self = s->ci * PIPE_COUNT;
    if (p != PIPE_ALL) {
        if (s->known[p][self + p] < d->seq - 1) s->known[p][self + p] = d->seq - 1;
        return;
    }
    int32_t all[SIM_VC];
    memcpy(all, s->known[0], sizeof all);
    for (int a = 1; a < PIPE_COUNT; a++)
        for (int q = 0; q < SIM_VC; q++)
            if (all[q] < s->known[a][q]) all[q] = s->known[a][q];
    const int32_t *snap = &s->snaps.data[d->snap];
    for (int q = 0; q < PIPE_COUNT; q++)
        if (all[self + q] < snap[q]) all[self + q] = snap[q];
    for (int a = 0; a < PIPE_COUNT; a++) memcpy(s->known[a], all, sizeof all);
}

static bool execute(SimRun *s, int p, int64_t start, bool forced) {
    Engine *e = &s->eng;
    SimDyn *d = head_of(s, p);
    const MirInst *i = d->inst;
    int64_t dur = sim_inst_cycles(s->t, s->k, i), end = start + dur;
    switch (i->op) {
    case MI_SET_FLAG: do_set(s, d, end); break;
    case MI_WAIT_FLAG: do_wait(s, d, forced); break;
    case MI_BARRIER: do_barrier(s, d, p); break;
    case MI_TPUSH: case MI_TPOP: case MI_TFREE:
        if (!sim_xcore_exec(s, d, end, forced)) return false;   /* joins clocks, checks races, moves data */
        break;
    default:
        sim_ring_rebase(s, d, 1);
        if (s->o->race_check) sim_race_access(s, d);
        bool ok = sim_exec(s, d);
        sim_ring_rebase(s, d, -1);
        if (!ok) return false;
    }
    e->pipe_free[p] = end;
    e->max_end = max64(e->max_end, end);
    if (p == PIPE_ALL) e->allbar_end = end;
    e->completed++;
    e->head[p]++;
    s->r->pipe_busy[p] += dur;
    s->r->insts++;
    if (s->o->trace) vec_push(&s->r->trace, ((SimTraceEvent){ (Pipe)p, i, start, end }));
    return true;
}

/* Is the head of p blocked by a wait, a push or a pop (not by a barrier)? */
static bool blocked_head(SimRun *s, int p, SimDyn **out) {
    SimDyn *d = head_of(s, p);
    if (!d || behind_all_barrier(s, p, d)) return false;
    if (d->inst->op != MI_WAIT_FLAG && !is_xcore(d->inst)) return false;
    *out = d;
    return true;
}

/* Nothing can start: report every blocked wait / push / pop (one message per kernel) and release the
 * earliest-issued one (issue time, then group index). In an early run (a scalar read of a group
 * member during the walks) with members not walked yet, the missing instructions may be theirs: a
 * hard error. */
static bool break_deadlock(SimGroup *g) {
    SimRun *bs = NULL;
    int best = -1;
    for (int c = 0; c < g->n; c++) {
        SimRun *s = g->runs[c];
        StrBuf sb = {0};
        for (int p = 0; p < PIPE_COUNT; p++) {
            SimDyn *d;
            if (!blocked_head(s, p, &d)) continue;
            const MirInst *i = d->inst;
            if (g->n > 1) sb_free(&sb);         /* a group: one message per blocked head, naming its kernel */
            if (sb.len) sb_puts(&sb, "; ");
            if (i->op == MI_WAIT_FLAG)
                sb_printf(&sb, "wait_flag(%s, %s, EVENT_ID%d) at line %d can never be satisfied", mir_pipe_name(i->src_pipe),
                          mir_pipe_name(i->dst_pipe), d->event, i->loc.line);
            else sim_xcore_blocked(s, d, &sb);
            if (g->n > 1) sim_add_msg(s, false, "sync: deadlock: %s%s", sim_kernel_tag(s), sb_cstr(&sb));
            if (!bs || d->t_issue < head_of(bs, best)->t_issue) { bs = s; best = p; }
        }
        if (sb.len && g->n == 1) sim_add_msg(s, false, "sync: deadlock: %s", sb_cstr(&sb));
        sb_free(&sb);
    }
    PTOC_ASSERT(bs, "pipe engine stuck without a blocked wait");
    if (g->walking >= 0 && g->walking + 1 < g->n) {
        const SimDyn *d = head_of(bs, best);
        return sim_hard_error(bs, d->inst, "%s: a scalar read of kernel %s needs the cores to run ahead while kernel %s has "
                              "not been walked yet (the value depends on its pushes or frees; not supported)",
                              mir_op_name(d->inst->op), g->runs[g->walking]->k->name, g->runs[g->walking + 1]->k->name);
    }
    Engine *e = &bs->eng;
    SimDyn *d = head_of(bs, best);
    int64_t start = max64(max64(e->pipe_free[best], d->t_issue), e->allbar_end);
    return execute(bs, best, start, true);
}

/* One step: starts the pipe head that can start earliest over every core (ties: group index, then
 * issue order), or breaks a deadlock. */
static bool step(SimGroup *g) {
    SimRun *bs = NULL;
    int best = -1;
    int64_t best_start = 0;
    for (int c = 0; c < g->n; c++) {
        SimRun *s = g->runs[c];
        if (s->eng.completed == s->dyn.len) continue;
        for (int p = 0; p < PIPE_COUNT; p++) {
            int64_t st;
            if (!can_start(s, p, &st)) continue;
            if (!bs || st < best_start || (st == best_start && s == bs && head_of(s, p)->order < head_of(bs, best)->order)) {
                bs = s;
                best = p;
                best_start = st;
            }
        }
    }
    return bs ? execute(bs, best, best_start, false) : break_deadlock(g);
}

bool sim_run_pipes_until(SimRun *s, int32_t order) {
    const SimDyn *d = &s->dyn.data[order];
    int p = d->pipe;
    int32_t seq = d->seq;
    while (s->eng.head[p] < seq)           /* the head index passes an instruction when it executes */
        if (!step(s->g)) return false;
    return true;
}

bool sim_run_pipes(SimGroup *g) {
    for (;;) {
        bool left = false;
        for (int c = 0; c < g->n && !left; c++) left = g->runs[c]->eng.completed < g->runs[c]->dyn.len;
        if (!left) break;
        if (!step(g)) return false;
    }
    for (int c = 0; c < g->n; c++) g->runs[c]->r->cycles = g->runs[c]->eng.max_end;
    return true;
}
