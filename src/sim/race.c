/* sim/race — the happens-before race detector (vector clocks over pipes, shadow memory).
 *
 * Requires: SimRun.known[P][c·PIPE_COUNT + Q] maintained by the pipe engine: the highest sequence
 * number of pipe Q of group core c known to have completed before P's next instruction starts
 * (set_flag snapshots, wait_flag joins, pipe_barrier(P) orders P after itself, PIPE_ALL orders
 * everything before it; across cores a pop joins its push's knowledge and a push the knowledge of the
 * tfree that released its slot, xcore.c).
 * Produces: one message per (static instruction pair, kind) in SimResult.races (capped).
 * Does: each 32-byte granule of each space (GM: per parameter, exact row windows for tload/tstore)
 * keeps its last writer and its last reader per pipe, in an interval map (race_map.c: a tile access
 * costs per run of equal states it covers, not per granule; a run's maps are its own, made on first
 * access and freed at its end). An access conflicts with an earlier one that
 * is not ordered before it: RAW, WAR, WAW, and two reads of Acc from different pipes. Cross-pipe
 * conflicts are data races; same-pipe ones are hazards without a pipe_barrier. A group's cores share
 * one GM shadow keyed by data pointer; ring buffer accesses cover the instruction's slot only. */
#include "sim/sim_int.h"

#include <stdlib.h>
#include <string.h>

enum { K_RAW, K_WAR, K_WAW, K_RAR };
static const char *kind_names[] = { "RAW", "WAR", "WAW", "RAR" };

/* A vector instruction is named by its op ("tadd"), every other by its MirOp. */
static const char *op_name(const MirInst *i) { return i->op == MI_VOP ? mir_vop_pto(i->vop) : mir_op_name(i->op); }

static const int8_t slot_of[PIPE_COUNT] = {
    [PIPE_S] = 0, [PIPE_V] = 1, [PIPE_M] = 2, [PIPE_MTE1] = 3, [PIPE_MTE2] = 4, [PIPE_MTE3] = 5, [PIPE_FIX] = 6,
    [PIPE_ALL] = 7, [PIPE_MTE4] = 7, [PIPE_MTE5] = 7, [PIPE_V2] = 7,
};

void sim_gm_shadow_release(SimGmShadow *g) { sim_rmap_free(g); }

/* A run's shadow maps come from its core's spares (the previous run's, reset: no allocation, no
 * clearing of what that run did not touch) and go back to them. */
static SimRaceMap *map_take(SimRaceMap **spare, int64_t granules, bool whole) {
    SimRaceMap *m = spare ? *spare : NULL;          /* spare NULL: a run without a core (unit tests) */
    if (spare) *spare = NULL;
    return m ? sim_rmap_reset(m, granules, whole) : sim_rmap_new(granules, whole);
}

static void map_park(SimRaceMap **spare, SimRaceMap *m) {
    if (!m) return;
    if (!spare || *spare) sim_rmap_free(m);
    else *spare = m;
}

/* GM shadow of a single run: every tensor parameter's granules, concatenated. On-chip shadows are
 * made on their first access (shadow_for). gm_written[p]: some instruction of the kernel writes GM
 * parameter p (Kernel.param_written, made once per kernel by the driver; a kernel without it, a unit
 * test's, is walked here). In a run of its own, reads of a parameter nothing writes cannot conflict
 * (only writes and Acc reads are checked against readers), so they skip the shadow: the operand reads
 * of a large matmul are most of its GM traffic, each row a cache miss in the shadow. */
void sim_race_init(SimRun *s) {
    s->gm_base = ARENA_ARRAY(s->arena, int64_t, s->k->nparams + 1);
    s->gm_len = ARENA_ARRAY(s->arena, int64_t, s->k->nparams + 1);
    if (s->g->n > 1) return;                     /* the group's shared shadow: sim_race_group_init */
    int64_t total = 0;
    for (int p = 0; p < s->k->nparams; p++) {
        const MirParam *q = &s->k->params[p];
        int64_t elems = 1;
        for (int d = 0; d < q->rank; d++) elems *= q->shape[d];
        s->gm_base[p] = total;
        s->gm_len[p] = q->is_tensor ? elems * dtype_bytes(q->dtype) / SIM_GRANULE + 1 : 0;
        total += s->gm_len[p];
    }
    s->gm_own = map_take(s->c ? &s->c->gm_rmap_spare : NULL, total, false);
    s->gm_map = s->gm_own;
    if (s->k->param_written) {
        s->gm_written = s->k->param_written;
        return;
    }
    bool *w = ARENA_ARRAY(s->arena, bool, s->k->nparams + 1);
    mir_param_writes(s->k, w);
    s->gm_written = w;
}

/* A group's GM shadow is one array for all its kernels, one region per distinct data pointer (the
 * AIC's and the AIV's parameters aliasing one tensor share it), sized by the largest parameter on it;
 * a parameter without data gets a region of its own. */
void sim_race_group_init(SimGroup *g) {
    const void *ptrs[SIM_GROUP_MAX * 256];
    int64_t base[SIM_GROUP_MAX * 256], len[SIM_GROUP_MAX * 256];
    int nreg = 0;
    int64_t total = 0;
    for (int pass = 0; pass < 2; pass++) {       /* pass 0: region sizes; pass 1: bases and the params' views */
        for (int j = 0; j < g->n; j++) {
            SimRun *s = g->runs[j];
            for (int p = 0; p < s->k->nparams; p++) {
                const MirParam *q = &s->k->params[p];
                int64_t elems = 1;
                for (int d = 0; d < q->rank; d++) elems *= q->shape[d];
                int64_t n = q->is_tensor ? elems * dtype_bytes(q->dtype) / SIM_GRANULE + 1 : 0;
                const void *ptr = s->gm && q->is_tensor ? s->gm[p] : NULL;
                int r = -1;
                for (int x = 0; x < nreg && ptr && r < 0; x++) r = ptrs[x] == ptr ? x : -1;
                if (pass == 0) {
                    if (!ptr) continue;
                    if (r < 0 && nreg < (int)(sizeof ptrs / sizeof ptrs[0])) { r = nreg++; ptrs[r] = ptr; len[r] = 0; }
                    if (r >= 0 && n > len[r]) len[r] = n;
                    continue;
                }
                if (!ptr) {                      /* no data: a region of its own at the end */
                    s->gm_base[p] = total; s->gm_len[p] = n; total += n;
                    continue;
                }
                PTOC_ASSERT(r >= 0, "GM shadow: too many distinct parameters in a group");
                s->gm_base[p] = base[r];
                s->gm_len[p] = n;
            }
        }
        if (pass == 0)
            for (int x = 0; x < nreg; x++) { base[x] = total; total += len[x]; }
    }
    g->gm_shadow = sim_rmap_new(total, false);
    for (int j = 0; j < g->n; j++) g->runs[j]->gm_map = g->gm_shadow;
}

void sim_race_free(SimRun *s) {
    vec_free(&s->reported);
    sim_gm_rec_free(s);
    for (int m = 0; m < MS_COUNT; m++) {
        map_park(s->c ? &s->c->rmap_spare[m] : NULL, s->chip[m]);
        s->chip[m] = NULL;
    }
    map_park(s->c ? &s->c->gm_rmap_spare : NULL, s->gm_own);
    s->gm_own = NULL;
}

/* Shadow map of an access's space; *base gets the first granule of its parameter (GM) or 0. */
static SimRaceMap *shadow_for(SimRun *s, const MirAccess *a, int64_t *base) {
    if (a->space == MS_DDR) {
        *base = s->gm_base[a->param];
        return s->gm_map;
    }
    *base = 0;
    if (!s->chip[a->space]) s->chip[a->space] = map_take(&s->c->rmap_spare[a->space], s->c->size[a->space] / SIM_GRANULE + 1, true);
    return s->chip[a->space];
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

/* A shadow id's run and dynamic instruction. */
static SimRun *run_of(const SimRun *s, int32_t id) { return s->g->runs[id >> SIM_ID_BITS]; }
static const SimDyn *dyn_of(const SimRun *s, int32_t id) {
    return &run_of(s, id)->dyn.data[(id & ((1 << SIM_ID_BITS) - 1)) - 1];
}

/* The note a race involving a tfree gets: the slot is the producer's again. */
static void tfree_note(const SimDyn *x, const SimDyn *y, StrBuf *sb) {
    const SimDyn *f = x->inst->op == MI_TFREE ? x : y->inst->op == MI_TFREE ? y : NULL;
    if (f) sb_printf(sb, "; the ring slot was released by tfree at line %d: use after free, the producer may overwrite it",
                     f->inst->loc.line);
}

/* Reports a conflict between d (of run s) and an earlier-executed access e (of run er). The message
 * reads in program order: when e was issued after d on the same core (it ran early because nothing
 * held it back), the roles are swapped, so removing a RAW flag reports RAW either way. A conflict
 * between two cores names both kernels. */
static void report(SimRun *s, int kind, SimRun *er, const SimDyn *e, const SimDyn *d, const MirAccess *a) {
    if (s->race_dry) { s->race_dry_hit = true; return; }
    const SimDyn *late = d, *early = e;
    const Kernel *lk = s->k, *ek = er->k;
    if (er == s && e->order > d->order) {
        late = e; early = d;
        kind = kind == K_RAW ? K_WAR : kind == K_WAR ? K_RAW : kind;
    }
    for (int j = 0; j < s->reported.len; j++) {
        const SimRace *x = &s->reported.data[j];
        if (x->a == early->inst && x->b == late->inst && x->kind == kind) return;
    }
    vec_push(&s->reported, ((SimRace){ early->inst, late->inst, kind }));
    static const char *verbs[] = { "reads what", "overwrites what", "overwrites what", "reads Acc concurrently with what" };
    static const char *tails[] = { "wrote", "reads", "wrote", "reads" };
    const char *where = a->space == MS_DDR ? "GM" : memspace_name(a->space);
    StrBuf lt = {0}, et = {0}, note = {0};
    if (er != s) { sb_printf(&lt, ", kernel %s", lk->name); sb_printf(&et, ", kernel %s", ek->name); }
    tfree_note(late, early, &note);
    /* a GM access names its parameter in its own kernel (the two kernels' parameters may alias) */
    const char *ln = operand_name(late == d ? lk : ek, late->inst, a), *en = a->space == MS_DDR && er != s
        ? ek->params[early->inst->param >= 0 ? early->inst->param : a->param].name : operand_name(early == e ? ek : lk, early->inst, a);
    sim_add_msg(s, true, "race: %s on %s [%lld, %lld): %s (%s, line %d%s) %s %s (%s, line %d%s) %s, %s (buffers %s / %s)%s",
                kind_names[kind], where, (long long)a->lo, (long long)a->hi, op_name(late->inst),
                mir_pipe_name((Pipe)late->pipe), late->inst->loc.line, sb_cstr(&lt), verbs[kind], op_name(early->inst),
                mir_pipe_name((Pipe)early->pipe), early->inst->loc.line, sb_cstr(&et), tails[kind],
                er != s ? "not ordered through a cross-core channel"
                : late->pipe == early->pipe ? "same-pipe hazard without pipe_barrier" : "not ordered by a flag chain",
                ln, en, sb_cstr(&note));
    sb_free(&lt); sb_free(&et); sb_free(&note);
}

/* e (of run er) happened before d: by the flags, barriers and channel transfers seen so far, or
 * because the hardware orders their pipe by itself (a5 orders the V pipe: targets.md, no
 * pipe_barrier(PIPE_V) there). */
static bool ordered(const SimRun *s, const SimRun *er, const SimDyn *e, const SimDyn *d) {
    if (s->known[d->pipe][er->ci * PIPE_COUNT + e->pipe] >= e->seq) return true;
    return er == s && e->pipe == d->pipe && d->pipe == PIPE_V && s->t->id == TGT_A5;
}

/* Does e's GM access (of run er, on the same data) touch a byte of [lo, hi)? Granules are 32 bytes:
 * two cores writing neighbouring parts of a row (a left / right split) share one without a conflict.
 * Exact for ND windows and single elements; anything else counts as overlapping. */
static bool gm_exact_overlap(const SimRun *er, const SimDyn *e, int64_t lo, int64_t hi) {
    const MirInst *i = e->inst;
    if (i->param < 0) return true;
    const MirParam *p = &er->k->params[i->param];
    int64_t eb = dtype_bytes(p->dtype);
    if (i->op == MI_GGETVAL || i->op == MI_GSETVAL) return e->off0 * eb < hi && lo < (e->off0 + 1) * eb;
    if ((i->op != MI_TLOAD && i->op != MI_TSTORE) || p->rank < 2 || eb <= 0) return true;
    SimGm g;
    sim_gm_geometry(p, &g);
    if (g.nz || g.cs != 1 || g.rs <= 0) return true;
    const MirBuf *b = &er->k->bufs[i->op == MI_TLOAD ? i->dst : i->src0];
    int64_t xlo = lo / eb, xhi = (hi + eb - 1) / eb;            /* elements [xlo, xhi) */
    int64_t r0 = xlo / g.rs, r1 = (xhi - 1) / g.rs;
    if (r0 < e->off0) r0 = e->off0;
    if (r1 > e->off0 + b->valid_rows - 1) r1 = e->off0 + b->valid_rows - 1;
    for (int64_t r = r0; r <= r1; r++) {
        int64_t a0 = r * g.rs + e->off1, a1 = a0 + b->valid_cols;
        if (a0 < xhi && xlo < a1) return true;
    }
    return false;
}

/* A conflict with an access of another core on GM that the granule shows but the bytes do not. */
static bool false_sharing(const SimRun *s, const SimRun *er, const SimDyn *e, const MirAccess *a) {
    return er != s && a->space == MS_DDR && !gm_exact_overlap(er, e, s->gm_lo, s->gm_hi);
}

/* The checks of one access against one granule's state. */
static void check(SimRun *s, const SimDyn *d, int32_t self, const SimShadow *x, bool write, bool acc_read,
                  const MirAccess *a) {
    if (x->w && x->w != self) {
        SimRun *er = run_of(s, x->w);
        const SimDyn *e = dyn_of(s, x->w);
        if (!ordered(s, er, e, d) && !false_sharing(s, er, e, a)) report(s, write ? K_WAW : K_RAW, er, e, d, a);
    }
    if (!write && !acc_read) return;
    for (int q = 0; q < SIM_SLOTS; q++) {
        if (!x->r[q] || x->r[q] == self) continue;
        SimRun *er = run_of(s, x->r[q]);
        const SimDyn *e = dyn_of(s, x->r[q]);
        if (ordered(s, er, e, d) || false_sharing(s, er, e, a)) continue;
        if (write) report(s, K_WAR, er, e, d, a);
        else if (e->pipe != d->pipe || er != s) report(s, K_RAR, er, e, d, a);
    }
}

/* The checks of one access, against each state its granules held before it. */
typedef struct { SimRun *s; const SimDyn *d; int32_t self; bool write, acc_read; const MirAccess *a; } Touch;

static void visit(void *ud, const SimShadow *x) {
    Touch *t = ud;
    check(t->s, t->d, t->self, x, t->write, t->acc_read, t->a);
}

/* Check and record one access of d to granules [g0, g1] of m. */
static void touch(SimRun *s, const SimDyn *d, SimRaceMap *m, int64_t g0, int64_t g1, bool write, const MirAccess *a) {
    Touch t = { s, d, ((int32_t)s->ci << SIM_ID_BITS) | ((int32_t)(d - s->dyn.data) + 1), write,
                !write && a->space == MS_ACC, a };
    sim_rmap_access(m, g0, g1, write, t.self, slot_of[d->pipe], visit, &t);
}

/* A window of whole rows (ND, rows back to back: the row pitch is the window's width) is one byte
 * range: touched once instead of row by row when a probe of the range finds nothing to report. The
 * states recorded are the same (the granules of the rows are those of the range), and so is the
 * verdict: a race the rows would report is one the range reports (false sharing is decided on the
 * exact bytes, and the range's bytes are the rows'); when the probe finds one, the rows are touched
 * one by one as before, so the report is theirs. */
static bool touch_gm_rows_whole(SimRun *s, const SimDyn *d, SimRaceMap *m, int64_t base, const SimGm *g, const MirBuf *b,
                                int eb, bool write, const MirAccess *a) {
    if (g->nz || g->cs != 1 || g->rs != b->valid_cols || b->valid_rows < 2) return false;
    int64_t lo = sim_gm_offset(g, d->off0, d->off1) * eb;
    int64_t hi = lo + b->valid_rows * b->valid_cols * eb;
    if (lo < 0 || hi > a->hi || lo < a->lo) return false;
    int64_t g0 = base + lo / SIM_GRANULE, g1 = base + (hi - 1) / SIM_GRANULE;
    s->gm_lo = lo; s->gm_hi = hi;
    Touch t = { s, d, ((int32_t)s->ci << SIM_ID_BITS) | ((int32_t)(d - s->dyn.data) + 1), write, false, a };
    s->race_dry = true;
    s->race_dry_hit = false;
    sim_rmap_visit(m, g0, g1, visit, &t);
    s->race_dry = false;
    if (s->race_dry_hit) return false;
    touch(s, d, m, g0, g1, write, a);
    return true;
}

/* GM accesses of tload / tstore: the exact rows of the window (NZ: each row's run in every column
 * strip it crosses); of a scalar access: its element. */
static void touch_gm(SimRun *s, const SimDyn *d, const MirAccess *a, bool write) {
    if (!write && s->gm_written && !s->gm_written[a->param]) return;   /* a run of its own reading what nothing writes */
    int64_t base;
    SimRaceMap *m = shadow_for(s, a, &base);
    int64_t n = s->gm_len[a->param];
    const MirInst *i = d->inst;
    const MirParam *p = &s->k->params[a->param];
    int eb = dtype_bytes(p->dtype);
    if (i->op == MI_GGETVAL || i->op == MI_GSETVAL) {          /* one element, at element offset off0 */
        int64_t g = d->off0 * eb / SIM_GRANULE;
        s->gm_lo = d->off0 * eb; s->gm_hi = s->gm_lo + eb;
        if (g >= 0 && g < n) touch(s, d, m, base + g, base + g, write, a);
        return;
    }
    const MirBuf *b = &s->k->bufs[i->op == MI_TLOAD ? i->dst : i->src0];
    SimGm g;
    sim_gm_geometry(p, &g);
    s->gm_lo = a->lo; s->gm_hi = a->hi;
    if (p->rank < 2 || b->valid_cols <= 0) { if (n > 0) touch(s, d, m, base, base + n - 1, write, a); return; }
    if (touch_gm_rows_whole(s, d, m, base, &g, b, eb, write, a)) return;
    int64_t step = g.nz ? g.c0 - (d->off1 % g.c0) : b->valid_cols;   /* columns per contiguous run */
    for (int64_t c = 0; c < b->valid_cols; c += step, step = g.nz ? g.c0 : step) {
        int64_t run = b->valid_cols - c < step ? b->valid_cols - c : step;
        for (int64_t r = 0; r < b->valid_rows; r++) {
            int64_t lo = sim_gm_offset(&g, d->off0 + r, d->off1 + c) * eb;
            int64_t hi = lo + ((run - 1) * (g.nz ? 1 : g.cs) + 1) * eb;
            if (lo < 0 || hi > a->hi) continue;   /* out of bounds: the instruction reports it */
            s->gm_lo = lo; s->gm_hi = hi;
            touch(s, d, m, base + lo / SIM_GRANULE, base + (hi - 1) / SIM_GRANULE, write, a);
        }
    }
}

static void touch_access(SimRun *s, const SimDyn *d, const MirAccess *a, bool write) {
    if (a->hi <= a->lo) return;
    if (a->space == MS_DDR) { touch_gm(s, d, a, write); return; }
    int64_t base;
    SimRaceMap *m = shadow_for(s, a, &base);
    int64_t g0 = a->lo / SIM_GRANULE, g1 = (a->hi - 1) / SIM_GRANULE;
    if (g0 < 0 || g1 >= sim_rmap_size(m)) return;   /* bounds are hard errors of the instruction itself */
    touch(s, d, m, g0, g1, write, a);
}

void sim_race_touch(SimRun *s, const SimDyn *d, const MirAccess *a, bool write) { touch_access(s, d, a, write); }

/* mir_inst_access gives a ring buffer operand every slot; the instruction touches only its own. */
static void ring_interval(const SimRun *s, const SimDyn *d, MirAccess *a) {
    const MirInst *i = d->inst;
    int ids[4] = { i->dst, i->src0, i->src1, i->src2 };
    for (int j = 0; j < 4; j++) {
        if (ids[j] < 0 || a->space == MS_DDR) continue;
        const MirBuf *b = &s->k->bufs[ids[j]];
        if (b->ring_slots < 2 || b->space != a->space || a->lo != b->addr || a->hi != b->addr + b->bytes * b->ring_slots) continue;
        a->lo = b->addr + d->slot[j] * b->bytes;
        a->hi = a->lo + b->bytes;
        return;
    }
}

void sim_race_access(SimRun *s, const SimDyn *d) {
    MirAccess rd[4], wr[4];
    int nr, nw;
    if (!mir_inst_access(s->k, d->inst, rd, &nr, wr, &nw)) return;
    for (int j = 0; j < nr; j++) ring_interval(s, d, &rd[j]);
    for (int j = 0; j < nw; j++) ring_interval(s, d, &wr[j]);
    for (int j = 0; j < nr; j++) touch_access(s, d, &rd[j], false);
    for (int j = 0; j < nw; j++) touch_access(s, d, &wr[j], true);
}
