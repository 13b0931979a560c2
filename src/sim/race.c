/* sim/race — the happens-before race detector (vector clocks over pipes, shadow memory).
 *
 * Requires: SimRun.known[P][Q] maintained by the pipe engine: the highest sequence number of pipe Q
 * known to have completed before P's next instruction starts (set_flag snapshots, wait_flag joins,
 * pipe_barrier(P) orders P after itself, PIPE_ALL orders everything before it).
 * Produces: one message per (static instruction pair, kind) in SimResult.races (capped).
 * Does: each 32-byte granule of each space (GM: per parameter, exact row windows for tload/tstore)
 * keeps its last writer and its last reader per pipe. An access conflicts with an earlier one that
 * is not ordered before it: RAW, WAR, WAW, and two reads of Acc from different pipes. Cross-pipe
 * conflicts are data races; same-pipe ones are hazards without a pipe_barrier. */
#include "sim/sim_int.h"

#include <stdlib.h>

enum { K_RAW, K_WAR, K_WAW, K_RAR };
static const char *kind_names[] = { "RAW", "WAR", "WAW", "RAR" };

static const char *op_name(MirOp op) {
    static const char *names[] = { "tload", "tstore", "textract", "tmov", "tmatmul", "tmatmul.acc", "tmatmul.bias",
                                   "tinsert", "set_flag", "wait_flag", "pipe_barrier", "for", "if" };
    return op >= 0 && op <= MI_IF ? names[op] : "?";
}

void sim_race_init(SimRun *s) {
    s->gm_shadow = calloc((size_t)s->k->nparams + 1, sizeof(SimShadow *));
    s->gm_granules = calloc((size_t)s->k->nparams + 1, sizeof(int64_t));
    PTOC_ASSERT(s->gm_shadow && s->gm_granules, "out of memory");
}

void sim_race_free(SimRun *s) {
    for (int m = 0; m < MS_COUNT; m++) { free(s->shadow[m]); s->shadow[m] = NULL; }
    if (s->gm_shadow)
        for (int p = 0; p < s->k->nparams; p++) free(s->gm_shadow[p]);
    free(s->gm_shadow);
    free(s->gm_granules);
    s->gm_shadow = NULL;
    s->gm_granules = NULL;
    vec_free(&s->reported);
}

/* Shadow array for an access (allocated on first use); *n gets its granule count. */
static SimShadow *shadow_for(SimRun *s, const MirAccess *a, int64_t *n) {
    if (a->space == MS_DDR) {
        if (!s->gm_shadow[a->param]) {
            MirAccess whole;
            const MirParam *p = &s->k->params[a->param];
            int64_t elems = 1;
            for (int d = 0; d < p->rank; d++) elems *= p->shape[d];
            whole.hi = elems * dtype_bytes(p->dtype);
            s->gm_granules[a->param] = whole.hi / SIM_GRANULE + 1;
            s->gm_shadow[a->param] = calloc((size_t)s->gm_granules[a->param], sizeof(SimShadow));
            PTOC_ASSERT(s->gm_shadow[a->param], "out of memory");
        }
        *n = s->gm_granules[a->param];
        return s->gm_shadow[a->param];
    }
    if (!s->shadow[a->space]) {
        s->shadow[a->space] = calloc((size_t)(s->c->size[a->space] / SIM_GRANULE + 1), sizeof(SimShadow));
        PTOC_ASSERT(s->shadow[a->space], "out of memory");
    }
    *n = s->c->size[a->space] / SIM_GRANULE + 1;
    return s->shadow[a->space];
}

/* Name of the operand of i that touches [lo, hi) of the access's space. */
static const char *operand_name(const Kernel *k, const MirInst *i, const MirAccess *a) {
    if (a->space == MS_DDR) return k->params[a->param].name;
    int ids[4] = { i->dst, i->src0, i->src1, i->src2 };
    for (int j = 0; j < 4; j++) {
        if (ids[j] < 0) continue;
        const MirBuf *b = &k->bufs[ids[j]];
        if (b->space == a->space && b->addr < a->hi && a->lo < b->addr + b->bytes) return b->name;
    }
    return "?";
}

/* Reports a conflict between d and an earlier-executed access (prev on pipe ppipe, issued at
 * porder). The message reads in program order: when prev was issued after d (it ran early because
 * nothing held it back), the roles are swapped, so removing a RAW flag reports RAW either way. */
static void report(SimRun *s, int kind, const MirInst *prev, int ppipe, int32_t porder, const SimDyn *d, const MirAccess *a) {
    const MirInst *late = d->inst, *early = prev;
    int lpipe = d->pipe, epipe = ppipe;
    if (porder > d->order) {
        late = prev; early = d->inst; lpipe = ppipe; epipe = d->pipe;
        kind = kind == K_RAW ? K_WAR : kind == K_WAR ? K_RAW : kind;
    }
    for (int j = 0; j < s->reported.len; j++) {
        const SimRace *x = &s->reported.data[j];
        if (x->a == early && x->b == late && x->kind == kind) return;
    }
    vec_push(&s->reported, ((SimRace){ early, late, kind }));
    static const char *verbs[] = { "reads what", "overwrites what", "overwrites what", "reads Acc concurrently with what" };
    static const char *tails[] = { "wrote", "reads", "wrote", "reads" };
    const char *where = a->space == MS_DDR ? "GM" : memspace_name(a->space);
    sim_add_msg(s, true, "race: %s on %s [%lld, %lld): %s (%s, line %d) %s %s (%s, line %d) %s, %s (buffers %s / %s)",
                kind_names[kind], where, (long long)a->lo, (long long)a->hi, op_name(late->op),
                mir_pipe_name((Pipe)lpipe), late->loc.line, verbs[kind], op_name(early->op), mir_pipe_name((Pipe)epipe),
                early->loc.line, tails[kind],
                lpipe == epipe ? "same-pipe hazard without pipe_barrier" : "not ordered by a flag chain",
                operand_name(s->k, late, a), operand_name(s->k, early, a));
}

/* Check and record one access of d to granules [g0, g1] of sh. */
static void touch(SimRun *s, const SimDyn *d, SimShadow *sh, int64_t g0, int64_t g1, bool write, const MirAccess *a) {
    int p = d->pipe;
    const int32_t *kn = s->known[p];
    bool acc_read = !write && a->space == MS_ACC;
    for (int64_t g = g0; g <= g1; g++) {
        SimShadow *x = &sh[g];
        bool self_w = x->wpipe == p && x->wseq == d->seq;
        if (x->wseq && !self_w && kn[x->wpipe] < x->wseq) report(s, write ? K_WAW : K_RAW, x->winst, x->wpipe, x->worder, d, a);
        if (write) {
            for (int q = 0; q < PIPE_COUNT; q++) {
                if (!x->rseq[q] || (q == p && x->rseq[q] == d->seq)) continue;
                if (kn[q] < x->rseq[q]) report(s, K_WAR, x->rinst[q], q, x->rorder[q], d, a);
                x->rseq[q] = 0;
            }
            x->wseq = d->seq; x->wpipe = p; x->winst = d->inst; x->worder = d->order;
            continue;
        }
        if (acc_read)
            for (int q = 0; q < PIPE_COUNT; q++)
                if (q != p && x->rseq[q] && kn[q] < x->rseq[q]) report(s, K_RAR, x->rinst[q], q, x->rorder[q], d, a);
        x->rseq[p] = d->seq;
        x->rinst[p] = d->inst;
        x->rorder[p] = d->order;
    }
}

/* GM accesses of tload / tstore: the exact rows of the window. */
static void touch_gm(SimRun *s, const SimDyn *d, const MirAccess *a, bool write) {
    int64_t n;
    SimShadow *sh = shadow_for(s, a, &n);
    const MirInst *i = d->inst;
    const MirParam *p = &s->k->params[a->param];
    const MirBuf *b = &s->k->bufs[i->op == MI_TLOAD ? i->dst : i->src0];
    int eb = dtype_bytes(p->dtype);
    int64_t cs = p->rank >= 1 && p->strides[p->rank - 1] ? p->strides[p->rank - 1] : 1;
    int64_t rs = p->rank >= 2 ? (p->strides[p->rank - 2] ? p->strides[p->rank - 2] : p->shape[p->rank - 1]) : 0;
    if (p->rank < 2 || b->valid_cols <= 0) { touch(s, d, sh, 0, n - 1, write, a); return; }
    for (int64_t r = 0; r < b->valid_rows; r++) {
        int64_t lo = ((d->off0 + r) * rs + d->off1 * cs) * eb;
        int64_t hi = lo + ((b->valid_cols - 1) * cs + 1) * eb;
        if (lo < 0 || hi > a->hi) continue;   /* out of bounds: the instruction reports it */
        touch(s, d, sh, lo / SIM_GRANULE, (hi - 1) / SIM_GRANULE, write, a);
    }
}

static void touch_access(SimRun *s, const SimDyn *d, const MirAccess *a, bool write) {
    if (a->hi <= a->lo) return;
    if (a->space == MS_DDR) { touch_gm(s, d, a, write); return; }
    int64_t n;
    SimShadow *sh = shadow_for(s, a, &n);
    int64_t g0 = a->lo / SIM_GRANULE, g1 = (a->hi - 1) / SIM_GRANULE;
    if (g0 < 0 || g1 >= n) return;   /* bounds are hard errors of the instruction itself */
    touch(s, d, sh, g0, g1, write, a);
}

void sim_race_access(SimRun *s, const SimDyn *d) {
    MirAccess rd[4], wr[4];
    int nr, nw;
    if (!mir_inst_access(s->k, d->inst, rd, &nr, wr, &nw)) return;
    for (int j = 0; j < nr; j++) touch_access(s, d, &rd[j], false);
    for (int j = 0; j < nw; j++) touch_access(s, d, &wr[j], true);
}
