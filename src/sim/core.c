/* sim/core — simulated cores (memories), the scalar unit's walk and the per-run set-up and report
 * (group.c drives them: sim_run, sim_run_group).
 *
 * Requires: a Kernel whose buffers fit the core's spaces; GM parameter pointers.
 * Produces: the dynamic instruction stream (loops unrolled, ifs evaluated, offsets and event IDs
 * resolved) distributed to per-pipe queues, then a SimResult from the pipe engine (pipes.c).
 * Does: the scalar unit issues one instruction per cycle in program order; it blocks only on an
 * element read (tgetval / ggetval), whose value later instructions may use: the pipe engine then runs
 * up to the read, and the issue clock resumes after it. */
#include "sim/sim_int.h"

#include <stdlib.h>
#include <string.h>

SimCore *sim_core_new(const Target *t, CoreKind kind) {
    SimCore *c = calloc(1, sizeof *c);
    PTOC_ASSERT(c != NULL, "out of memory");
    c->t = t;
    c->kind = kind;
    static const MemSpace aic[] = { MS_MAT, MS_LEFT, MS_RIGHT, MS_ACC, MS_BIAS, MS_LEFT_SCALE, MS_RIGHT_SCALE };
    static const MemSpace aiv[] = { MS_VEC };
    const MemSpace *sp = kind == CORE_AIC ? aic : aiv;
    int n = kind == CORE_AIC ? (int)(sizeof aic / sizeof aic[0]) : 1;
    /* one zeroed block for the flag table and every space (each 64-byte aligned): from 1 MiB on, a
     * huge page (base_calloc_big), one first-touch fault where 4 KiB pages cost ~250 of them — a
     * core is made per host thread and per core kind, and its faults were a visible part of a
     * small program's run */
    size_t flag_bytes = (size_t)PIPE_COUNT * PIPE_COUNT * SIM_MAX_EVENTS * sizeof(SimFlag), total = (flag_bytes + 63) & ~(size_t)63;
    for (int i = 0; i < n; i++)
        if (t->physical[sp[i]] > 0) total += ((size_t)t->physical[sp[i]] + 63) & ~(size_t)63;
#if defined(__SANITIZE_ADDRESS__)
    total = (flag_bytes + 63) & ~(size_t)63;   /* ASan builds: each space its own allocation, its bounds checked */
#else
    if (total >= (size_t)1 << 20 && total < (size_t)2 << 20) total = (size_t)2 << 20;
#endif
    c->block = base_calloc_big(total);
    PTOC_ASSERT(c->block != NULL, "out of memory (%zu bytes of simulated core)", total);
    c->flags = (SimFlag *)c->block;
    size_t at = (flag_bytes + 63) & ~(size_t)63;
    for (int i = 0; i < n; i++) {
        int64_t sz = t->physical[sp[i]];
        if (sz <= 0) continue;
#if defined(__SANITIZE_ADDRESS__)
        c->mem[sp[i]] = calloc((size_t)sz, 1);
        PTOC_ASSERT(c->mem[sp[i]] != NULL, "out of memory");
#else
        c->mem[sp[i]] = c->block + at;
        at += ((size_t)sz + 63) & ~(size_t)63;
#endif
        c->size[sp[i]] = sz;
    }
    (void)at;
    return c;
}

void sim_core_free(SimCore *c) {
    if (!c) return;
#if defined(__SANITIZE_ADDRESS__)
    for (int i = 0; i < MS_COUNT; i++) free(c->mem[i]);
#endif
    free(c->block);
    vec_free(&c->fa); vec_free(&c->fb); vec_free(&c->fc);
    vec_free(&c->ia); vec_free(&c->ib); vec_free(&c->ic);
    vec_free(&c->vrow);
    sim_gm_rec_release(c->gm_rec_spare);
    for (int i = 0; i < MS_COUNT; i++) sim_rmap_free(c->rmap_spare[i]);
    sim_rmap_free(c->gm_rmap_spare);
    free(c);
}

uint8_t *sim_core_mem(SimCore *c, MemSpace space, int64_t *size) {
    if (space < 0 || space >= MS_COUNT) { if (size) *size = 0; return NULL; }
    if (size) *size = c->size[space];
    return c->mem[space];
}

bool sim_hard_error(SimRun *s, const MirInst *i, const char *fmt, ...) {
    StrBuf sb = {0};
    va_list ap;
    va_start(ap, fmt);
    sb_vprintf(&sb, fmt, ap);
    va_end(ap);
    if (i && i->loc.line > 0) sb_printf(&sb, " (line %d)", i->loc.line);
    diag_add(s->diag, DIAG_ERROR, i ? i->loc : SPAN_NONE, NULL, "simulator: %s%s", sim_kernel_tag(s), sb_cstr(&sb));
    sb_free(&sb);
    s->failed = true;
    return false;
}

void sim_add_msg(SimRun *s, bool race, const char *fmt, ...) {
    StrBuf sb = {0};
    va_list ap;
    va_start(ap, fmt);
    sb_vprintf(&sb, fmt, ap);
    va_end(ap);
    char *m = sb_take(&sb);
    if (race) {
        if (s->r->races.len < SIM_MAX_MSGS) { vec_push(&s->r->races, m); return; }
    } else if (s->r->sync_errors.len < SIM_MAX_MSGS) {
        bool dup = false;
        for (int j = 0; j < s->r->sync_errors.len && !dup; j++) dup = strcmp(s->r->sync_errors.data[j], m) == 0;
        if (!dup) { vec_push(&s->r->sync_errors, m); return; }
    }
    free(m);
}

/* ---- timing-only: values read from data ---- */

/* The first variable of e that holds a value read from data in a timing-only run, or -1. */
static int tainted_var(const SimRun *s, const MirExpr *e) {
    if (!e) return -1;
    if (e->kind == MX_VAR) return e->var >= 0 && e->var < s->k->nvars && s->taint_by[e->var] ? e->var : -1;
    int v = tainted_var(s, e->a);
    return v >= 0 ? v : tainted_var(s, e->b);
}

/* A timing-only run cannot follow control flow or addresses computed from data it does not have:
 * `what` of instruction i (a loop bound, a condition, an offset) uses such a value. The error is at
 * i's source line and names the variable and the read it came from. */
static bool data_dependent(SimRun *s, const MirInst *i, const MirExpr *e, const char *what) {
    if (!s->ntaint) return false;
    int v = tainted_var(s, e);
    if (v < 0) return false;
    const MirInst *rd = s->taint_by[v];
    diag_add(s->diag, DIAG_ERROR, i->loc, NULL,
             "--timing-only: %s here depends on '%s', a value read from data by %s at line %d, which a timing-only run "
             "does not compute; run without --timing-only", what, s->k->vars[v], mir_op_name(rd->op), rd->loc.line);
    s->failed = true;
    return true;
}

static bool offsets_data_dependent(SimRun *s, const MirInst *i) {
    for (int k = 0; k < MIR_MAX_RANK && s->ntaint; k++)
        if (data_dependent(s, i, i->off[k], "an offset (index)")) return true;
    return false;
}

/* ---- the scalar walk ---- */

static bool walk_block(SimRun *s, const MirBlock *b);

static int resolve_event(SimRun *s, const MirInst *i) {
    if (i->event_alt < 0 || i->event_var < 0 || i->event_var >= s->k->nvars) return i->event;
    int64_t step = s->var_step[i->event_var];
    int64_t q = s->vars[i->event_var] / (step ? step : 1);
    return (q & 1) ? i->event_alt : i->event;
}

static Pipe issue_pipe(const SimRun *s, const MirInst *i) {
    switch (i->op) {
    case MI_SET_FLAG: return i->src_pipe;
    case MI_WAIT_FLAG: return i->dst_pipe;
    case MI_BARRIER: return i->pipe;
    default: return i->pipe != PIPE_NONE ? i->pipe : mir_pipe_for(s->k, i->op, i->dst, i->src0);
    }
}

/* Operand buffer ids and GM parameter of a tile instruction are present and in range. */
static bool check_operands(SimRun *s, const MirInst *i) {
    if (mir_is_sync(i) || i->op == MI_TPUSH || i->op == MI_TPOP || i->op == MI_TFREE) return true;   /* xcore.c checks these */
    if (i->op == MI_VOP) return sim_vop_check(s, i);   /* operands depend on the vector kind */
    if (mir_is_scalar_access(i)) {
        int b = i->op == MI_TGETVAL ? i->src0 : i->dst;
        bool tile = i->op == MI_TGETVAL || i->op == MI_TSETVAL, get = i->op == MI_TGETVAL || i->op == MI_GGETVAL;
        if (tile && !SIM_IS_VEC_BUF(s, b)) return sim_hard_error(s, i, "%s needs a Vec buffer (id %d)", mir_op_name(i->op), b);
        if (!tile && (i->param < 0 || i->param >= s->k->nparams || !s->k->params[i->param].is_tensor))
            return sim_hard_error(s, i, "invalid GM parameter %d", i->param);
        if (get ? i->var < 0 || i->var >= s->k->nvars : !i->scalar)
            return sim_hard_error(s, i, "%s without its %s", mir_op_name(i->op), get ? "variable" : "value");
        return true;
    }
    bool need[4] = { i->op != MI_TSTORE, i->op != MI_TLOAD,
                     i->op == MI_TMATMUL || i->op == MI_TMATMUL_ACC || i->op == MI_TMATMUL_BIAS,
                     i->op == MI_TMATMUL_BIAS };
    int ids[4] = { i->dst, i->src0, i->src1, i->src2 };
    for (int j = 0; j < 4; j++) {
        if (ids[j] >= s->k->nbufs || ids[j] < -1 || (need[j] && ids[j] < 0))
            return sim_hard_error(s, i, "missing or invalid operand buffer (id %d)", ids[j]);
    }
    if ((i->op == MI_TLOAD || i->op == MI_TSTORE) && (i->param < 0 || i->param >= s->k->nparams))
        return sim_hard_error(s, i, "invalid GM parameter %d", i->param);
    return true;
}

static bool issue(SimRun *s, const MirInst *i) {
    if (!check_operands(s, i)) return false;
    if (offsets_data_dependent(s, i)) return false;
    Pipe p = issue_pipe(s, i);
    if (p < 0 || p >= PIPE_COUNT) return sim_hard_error(s, i, "instruction on invalid pipe %d", (int)p);
    if (s->dyn.len >= SIM_MAX_DYN) return sim_hard_error(s, i, "more than %d dynamic instructions", SIM_MAX_DYN);
    SimDyn d = { .inst = i, .order = s->dyn.len, .t_issue = s->dyn.len + s->stall, .pipe = (int16_t)p, .snap = -1 };
    if (i->op == MI_TLOAD || i->op == MI_TSTORE) {
        if (!sim_gm_origin(s, i, &d.off0, &d.off1)) return false;
    } else if (i->op == MI_GGETVAL || i->op == MI_GSETVAL) {
        if (!sim_scalar_issue(s, i, &d)) return false;
    } else if ((i->off[0] && !mir_eval_checked(i->off[0], s->vars, &d.off0)) ||
               (i->off[1] && !mir_eval_checked(i->off[1], s->vars, &d.off1))) {
        return sim_hard_error(s, i, "an offset overflows or divides by zero");
    }
    /* a vector scalar operand takes the loop variables' values at issue, as the scalar unit does */
    if ((i->op == MI_VOP || i->op == MI_TSETVAL || i->op == MI_GSETVAL) && i->scalar && !mir_eval_num(i->scalar, s->vars, &d.sc))
        return sim_hard_error(s, i, "the scalar operand overflows or divides by zero");
    if (i->op == MI_SET_FLAG || i->op == MI_WAIT_FLAG) {
        int ev = resolve_event(s, i);
        if (ev < 0 || ev >= SIM_MAX_EVENTS) return sim_hard_error(s, i, "event id %d out of range", ev);
        if (i->src_pipe < 0 || i->src_pipe >= PIPE_COUNT || i->dst_pipe < 0 || i->dst_pipe >= PIPE_COUNT ||
            i->src_pipe == PIPE_ALL || i->dst_pipe == PIPE_ALL)
            return sim_hard_error(s, i, "flag with invalid pipes");
        d.event = (int16_t)ev;
    }
    if (i->op == MI_TPUSH || i->op == MI_TPOP || i->op == MI_TFREE) {
        if (!sim_xcore_issue(s, i, &d)) return false;
    } else sim_ring_slots(s, &d);
    if (p == PIPE_ALL) {
        d.snap = s->snaps.len;
        for (int q = 0; q < PIPE_COUNT; q++) vec_push(&s->snaps, s->issued[q]);
    }
    d.seq = ++s->issued[p];
    vec_push(&s->queue[p], d.order);
    vec_push(&s->dyn, d);
    if ((i->op == MI_TGETVAL || i->op == MI_GGETVAL) && s->o->timing_only) {
        s->ntaint += !s->taint_by[i->var];
        s->taint_by[i->var] = i;
    }
    if (i->op == MI_TGETVAL || i->op == MI_GGETVAL) {
        /* the scalar unit needs the value: it waits until the read has run, then issues on */
        if (!sim_run_pipes_until(s, d.order)) return false;
        int64_t done = s->eng.pipe_free[PIPE_S], next = s->dyn.len + s->stall;
        if (done > next) s->stall += done - next;
    }
    return true;
}

static bool walk_for(SimRun *s, const MirInst *i) {
    int64_t start, stop, step;
    if (data_dependent(s, i, i->start, "the loop's start") || data_dependent(s, i, i->stop, "the loop's bound") ||
        data_dependent(s, i, i->step, "the loop's step"))
        return false;
    if (!mir_eval_checked(i->start, s->vars, &start) || !mir_eval_checked(i->stop, s->vars, &stop) ||
        !mir_eval_checked(i->step, s->vars, &step))
        return sim_hard_error(s, i, "a loop bound overflows or divides by zero");
    if (step == 0) return sim_hard_error(s, i, "loop with step 0");
    if (i->var < 0 || i->var >= s->k->nvars) return sim_hard_error(s, i, "loop variable %d out of range", i->var);
    int64_t saved = s->var_step[i->var];
    s->var_step[i->var] = step;
    for (int64_t v = start; step > 0 ? v < stop : v > stop;) {
        s->vars[i->var] = v;
        if (!walk_block(s, &i->body)) return false;
        if (!checked_add(v, step, &v)) break;       /* the next value would leave int64: past stop */
    }
    s->var_step[i->var] = saved;
    return true;
}

static bool walk_block(SimRun *s, const MirBlock *b) {
    for (int j = 0; j < b->len; j++) {
        const MirInst *i = b->items[j];
        bool ok;
        if (i->op == MI_FOR) ok = walk_for(s, i);
        else if (i->op == MI_IF) {
            int64_t c;
            if (data_dependent(s, i, i->cond, "the if condition")) return false;
            if (!mir_eval_checked(i->cond, s->vars, &c)) return sim_hard_error(s, i, "a condition overflows or divides by zero");
            ok = walk_block(s, c ? &i->then_body : &i->else_body);
        }
        else ok = issue(s, i);
        if (!ok) return false;
    }
    return true;
}

/* ---- one run: set-up, walk, report ---- */

static void init_vars(SimRun *s) {
    const Kernel *k = s->k;
    s->vars = ARENA_ARRAY(s->arena, int64_t, k->nvars + 1);
    s->var_step = ARENA_ARRAY(s->arena, int64_t, k->nvars + 1);
    s->taint_by = ARENA_ARRAY(s->arena, const MirInst *, k->nvars + 1);
    for (int v = 0; v < k->nvars; v++) {
        s->var_step[v] = 1;
        if (strcmp(k->vars[v], "block_idx") == 0) s->vars[v] = s->o->block_idx;
        if (strcmp(k->vars[v], "block_num") == 0) s->vars[v] = s->o->block_num;
        if (strcmp(k->vars[v], "subblock_idx") == 0) s->vars[v] = k->lane;   /* pl.tile.get_subblock_idx() */
    }
    for (int p = 0; p < k->nparams; p++) {     /* scalar parameters bind their kernel variable */
        const MirParam *q = &k->params[p];
        if (q->is_tensor || q->var <= 0 || q->var > k->nvars) continue;
        PTOC_ASSERT(s->gm && s->gm[p], "kernel %s: no value for scalar parameter '%s'", k->name, q->name);
        if (q->dtype == DT_FP32) {           /* the runtime passes an FP32 scalar as its float bits */
            float f;
            memcpy(&f, s->gm[p], sizeof f);
            double v = f;
            memcpy(&s->vars[q->var - 1], &v, sizeof v);
        } else if (dtype_is_float(q->dtype)) {   /* a double's bits; the parameter holds a value of its dtype */
            double v;
            memcpy(&v, s->gm[p], sizeof v);
            v = dtype_round_float(q->dtype, v);
            memcpy(&s->vars[q->var - 1], &v, sizeof v);
        } else memcpy(&s->vars[q->var - 1], s->gm[p], sizeof(int64_t));
    }
}

static void report_left_tokens(SimRun *s) {
    if (!s->nflags_set) return;                     /* the usual case: no scan of the whole flag table */
    for (int a = 0; a < PIPE_COUNT; a++)
        for (int b = 0; b < PIPE_COUNT; b++)
            for (int e = 0; e < SIM_MAX_EVENTS; e++) {
                const SimFlag *f = &s->flags[a][b][e];
                if (!f->set) continue;
                sim_add_msg(s, false, "sync: %sflag (%s, %s, EVENT_ID%d) still set at the end of the kernel "
                            "(set_flag at line %d has no matching wait_flag)", sim_kernel_tag(s), mir_pipe_name((Pipe)a),
                            mir_pipe_name((Pipe)b), e, f->setter ? f->setter->loc.line : 0);
            }
}

void sim_run_cleanup(SimRun *s) {
    if (s->flags && s->nflags_set) {                 /* leave the core's table clear for its next run */
        SimFlag *f = &s->flags[0][0][0];
        for (int i = 0; i < PIPE_COUNT * PIPE_COUNT * SIM_MAX_EVENTS; i++) f[i].set = false;
        s->nflags_set = 0;
    }
    vec_free(&s->dyn);
    for (int p = 0; p < PIPE_COUNT; p++) vec_free(&s->queue[p]);
    vec_free(&s->snaps);
    for (int x = 0; x < 2; x++) vec_free(&s->pend[x]);
    sim_race_free(s);
    arena_free(s->arena);
}

/* Views, variables, ring-slot counters and the race detector's on-chip shadow of one run: before any
 * walk of its group (a scalar read may run the group's engine early). */
bool sim_run_prepare(SimRun *s) {
    const Kernel *k = s->k;
    s->arena = arena_new();
    s->flags = (SimFlag (*)[PIPE_COUNT][SIM_MAX_EVENTS])s->c->flags;
    s->views = ARENA_ARRAY(s->arena, SimView, k->nbufs + 1);
    s->ring_npop = ARENA_ARRAY(s->arena, int32_t, k->nbufs + 1);
    s->ring_cur = ARENA_ARRAY(s->arena, int16_t, k->nbufs + 1);
    for (int b = 0; b < k->nbufs; b++)
        if (!sim_build_view(s, &k->bufs[b], &s->views[b])) return false;
    init_vars(s);
    if (s->o->race_check) sim_race_init(s);
    return true;
}

bool sim_run_walk(SimRun *s) { return walk_block(s, &s->k->body); }

void sim_run_report(SimRun *s) {
    report_left_tokens(s);
    sim_gm_coalesce(s);
    s->r->cube_util = s->r->cycles > 0 ? (double)s->r->pipe_busy[PIPE_M] / (double)s->r->cycles : 0.0;
}

void sim_result_free(SimResult *r) {
    for (int j = 0; j < r->races.len; j++) free(r->races.data[j]);
    for (int j = 0; j < r->sync_errors.len; j++) free(r->sync_errors.data[j]);
    vec_free(&r->races);
    vec_free(&r->sync_errors);
    vec_free(&r->trace);
    vec_free(&r->gm);
}
