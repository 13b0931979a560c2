/* test_sync_random — soundness of back_insert_sync on random kernels.
 *
 * Requires: the mir building API and back_insert_sync.
 * Does:     builds random structured kernels (loops with 0..3 trips, ifs on the loop variable,
 *           vector and cube instructions over buffers at random overlapping addresses), inserts
 *           synchronisation, then executes the result in program order with a happens-before model
 *           of the pipes (isa_and_sync.md §6.2: in-order queues, set fires when earlier work of its
 *           pipe completed, wait blocks its pipe, pipe_barrier, binary flag tokens) and checks that
 *           every hazardous pair of instructions (RAW / WAR / WAW on overlapping intervals, or two
 *           Acc reads on different pipes) is ordered, that no flag is set twice or waited unset, that
 *           every set is ordered after the wait that consumed the previous token of its flag (flags
 *           are binary tokens), and that every flag is consumed at the end. SYNC_SEEDS / SYNC_MAXOPS
 *           scale the sweep; SYNC_RACES prints offending kernels.
 */
#include "back/back.h"
#include "test.h"

#include <stdlib.h>

#define NP PIPE_COUNT
#define MAXOPS 4096

typedef struct Rng { uint64_t s; } Rng;
static int rnd(Rng *r, int n) {
    r->s = r->s * 6364136223846793005ULL + 1442695040888963407ULL;
    return (int)((r->s >> 33) % (uint64_t)n);
}

/* ---- random kernels ---- */
typedef struct Gen { Kernel *k; Rng *r; int bufs[MS_COUNT][4]; int nb[MS_COUNT]; int depth; int nops, maxops; } Gen;

static int pick(Gen *g, MemSpace s) { return g->bufs[s][rnd(g->r, g->nb[s])]; }

static void add_tile(Gen *g, MirBlock *b) {
    Kernel *k = g->k;
    MirInst *i = NULL;
    MirExpr *z = mir_const(k, 0);
    switch (rnd(g->r, 9)) {
    case 0: i = mir_inst_new(k, MI_TLOAD, PIPE_MTE2); i->dst = pick(g, MS_VEC); i->param = 0; break;
    case 1: i = mir_inst_new(k, MI_TSTORE, PIPE_MTE3); i->src0 = pick(g, MS_VEC); i->param = 1; break;
    case 2: i = mir_inst_new(k, MI_TMOV, PIPE_V); i->dst = pick(g, MS_VEC); i->src0 = pick(g, MS_VEC); break;
    case 3: i = mir_inst_new(k, MI_TLOAD, PIPE_MTE2); i->dst = pick(g, MS_MAT); i->param = rnd(g->r, 2); break;
    case 4: i = mir_inst_new(k, MI_TEXTRACT, PIPE_MTE1); i->dst = pick(g, rnd(g->r, 2) ? MS_LEFT : MS_RIGHT);
            i->src0 = pick(g, MS_MAT); break;
    case 5: i = mir_inst_new(k, MI_TMATMUL, PIPE_M); i->dst = pick(g, MS_ACC); i->src0 = pick(g, MS_LEFT);
            i->src1 = pick(g, MS_RIGHT); break;
    case 6: i = mir_inst_new(k, MI_TMATMUL_ACC, PIPE_M); i->dst = pick(g, MS_ACC); i->src0 = pick(g, MS_LEFT);
            i->src1 = pick(g, MS_RIGHT); i->src2 = i->dst; break;
    case 7: i = mir_inst_new(k, MI_TSTORE, PIPE_FIX); i->src0 = pick(g, MS_ACC); i->param = 1; break;
    default: i = mir_inst_new(k, MI_TMOV, PIPE_FIX); i->dst = pick(g, MS_MAT); i->src0 = pick(g, MS_ACC); break;
    }
    if (i->op == MI_TLOAD || i->op == MI_TSTORE || i->op == MI_TEXTRACT) { i->off[0] = z; i->off[1] = z; }
    PTOC_ASSERT(i->pipe == mir_pipe_for(k, i->op, i->dst, i->src0), "generator pipe mismatch");
    mir_block_push(k, b, i);
    g->nops++;
}

static void gen_block(Gen *g, MirBlock *b, int loopvar) {
    int n = 1 + rnd(g->r, g->maxops > 40 ? 12 : 5);
    for (int j = 0; j < n && g->nops < g->maxops; j++) {
        int c = rnd(g->r, 10);
        if (c == 0 && g->depth < 3) {
            MirInst *f = mir_inst_new(g->k, MI_FOR, PIPE_NONE);
            f->var = mir_add_var(g->k, arena_printf(g->k->arena, "i%d", g->k->nvars));
            f->start = mir_const(g->k, 0); f->stop = mir_const(g->k, rnd(g->r, 4)); f->step = mir_const(g->k, 1);
            mir_block_push(g->k, b, f);
            g->depth++;
            gen_block(g, &f->body, f->var);
            g->depth--;
        } else if (c == 1 && g->depth < 3) {
            MirInst *br = mir_inst_new(g->k, MI_IF, PIPE_NONE);
            br->cond = loopvar >= 0 ? mir_bin(g->k, MB_EQ, mir_bin(g->k, MB_FLOORMOD, mir_var(g->k, loopvar), mir_const(g->k, 2)),
                                              mir_const(g->k, rnd(g->r, 2)))
                                    : mir_const(g->k, rnd(g->r, 2));
            mir_block_push(g->k, b, br);
            g->depth++;
            gen_block(g, &br->then_body, loopvar);
            if (rnd(g->r, 3)) gen_block(g, &br->else_body, loopvar);
            g->depth--;
        } else add_tile(g, b);
    }
}

static Kernel *random_kernel(Arena *a, Rng *r) {
    Kernel *k = mir_kernel_new(a, "rand", CORE_AIC);
    k->params = ARENA_ARRAY(a, MirParam, 2);
    k->nparams = 2;
    for (int j = 0; j < 2; j++)
        k->params[j] = (MirParam){ .name = j ? "y" : "x", .is_tensor = true, .dtype = DT_FP32, .rank = 2,
                                   .shape = { 16, 16 }, .strides = { 16, 1 } };
    Gen g = { .k = k, .r = r, .maxops = getenv("SYNC_MAXOPS") ? atoi(getenv("SYNC_MAXOPS")) : 40 };
    MemSpace sp[] = { MS_VEC, MS_MAT, MS_LEFT, MS_RIGHT, MS_ACC };
    for (int s = 0; s < 5; s++) {
        g.nb[sp[s]] = 2 + rnd(r, 3);
        for (int j = 0; j < g.nb[sp[s]]; j++) {
            MirBuf b = { .name = arena_printf(a, "%s%d", memspace_lower(sp[s]), j), .space = sp[s],
                         .addr = 512 * rnd(r, 8), .bytes = 512 * (1 + rnd(r, 3)), .dtype = DT_FP32,
                         .rows = 16, .cols = 8, .valid_rows = 16, .valid_cols = 8 };
            g.bufs[sp[s]][j] = mir_add_buf(k, b);
        }
    }
    gen_block(&g, &k->body, -1);
    return k;
}

/* ---- happens-before execution ---- */
typedef struct VC { int c[NP]; } VC;
static void vc_max(VC *a, const VC *b) { for (int p = 0; p < NP; p++) if (b->c[p] > a->c[p]) a->c[p] = b->c[p]; }

typedef struct Ex {
    const Kernel *k;
    int64_t vars[64];
    VC cur[NP];          /* guarantees every later op of the pipe starts with */
    VC done[NP];         /* what completing every op issued so far on the pipe implies */
    int count[NP];
    bool flag[NP][NP][16];
    VC flag_vc[NP][NP][16];
    int last_wait[NP][NP][16];   /* queue index + 1 of the wait that last consumed the flag, 0 none */
    int reuse_races, same_races;
    const MirInst *last_set[NP][NP][16];             /* a set that may fire before the previous wait of its flag consumed it */
    struct { const MirInst *i; int pipe, idx; VC start; } ops[MAXOPS];
    int nops;
    int errors;
    char msg[256];
} Ex;

static void ex_error(Ex *e, const char *m) {
    if (!e->errors) snprintf(e->msg, sizeof e->msg, "%s", m);
    e->errors++;
}

static void ex_block(Ex *e, const MirBlock *b);

static void ex_inst(Ex *e, const MirInst *i) {
    switch (i->op) {
    case MI_FOR:
        for (int64_t v = mir_eval(i->start, e->vars); v < mir_eval(i->stop, e->vars); v += mir_eval(i->step, e->vars)) {
            e->vars[i->var] = v;
            ex_block(e, &i->body);
        }
        return;
    case MI_IF: ex_block(e, mir_eval(i->cond, e->vars) ? &i->then_body : &i->else_body); return;
    case MI_BARRIER:
        if (i->pipe == PIPE_ALL) {
            VC all = { { 0 } };
            for (int p = 0; p < NP; p++) vc_max(&all, &e->done[p]);
            for (int p = 0; p < NP; p++) vc_max(&e->cur[p], &all);
        } else vc_max(&e->cur[i->pipe], &e->done[i->pipe]);
        return;
    case MI_SET_FLAG: {
        int s = i->src_pipe, d = i->dst_pipe;
        if (e->flag[s][d][i->event]) ex_error(e, "set_flag on a flag that is already set");
        e->flag[s][d][i->event] = true;
        e->flag_vc[s][d][i->event] = e->done[s];
        vc_max(&e->flag_vc[s][d][i->event], &e->cur[s]);
        int lw = e->last_wait[s][d][i->event];
        const MirInst *prev = e->last_set[s][d][i->event];
        e->last_set[s][d][i->event] = i;
        if (lw && e->flag_vc[s][d][i->event].c[d] < lw && (prev == i || (prev && prev->compensation))) e->same_races++;
        else if (lw && e->flag_vc[s][d][i->event].c[d] < lw) {
            if (!e->reuse_races && getenv("SYNC_RACES"))
                printf("race: set_flag(%s, %s, %d) after op #%d\n", mir_pipe_name(i->src_pipe), mir_pipe_name(i->dst_pipe),
                       i->event, e->nops);
            e->reuse_races++;
        }
        return;
    }
    case MI_WAIT_FLAG: {
        int s = i->src_pipe, d = i->dst_pipe;
        if (!e->flag[s][d][i->event]) ex_error(e, "wait_flag on a flag never set before it");
        e->flag[s][d][i->event] = false;
        vc_max(&e->cur[d], &e->flag_vc[s][d][i->event]);
        /* the wait occupies a slot of the destination queue */
        e->count[d]++;
        vc_max(&e->done[d], &e->cur[d]);
        e->done[d].c[d] = e->count[d];
        e->last_wait[s][d][i->event] = e->count[d];
        return;
    }
    default: break;
    }
    PTOC_ASSERT(e->nops < MAXOPS, "trace too long");
    int p = i->pipe;
    e->ops[e->nops].i = i;
    e->ops[e->nops].pipe = p;
    e->ops[e->nops].idx = e->count[p]++;
    e->ops[e->nops].start = e->cur[p];
    vc_max(&e->done[p], &e->cur[p]);
    e->done[p].c[p] = e->count[p];
    e->nops++;
}

static void ex_block(Ex *e, const MirBlock *b) {
    for (int j = 0; j < b->len; j++) ex_inst(e, b->items[j]);
}

static bool conflict(const Kernel *k, const MirInst *a, const MirInst *b) {
    MirAccess ra[4], wa[4], rb[4], wb[4];
    int nra, nwa, nrb, nwb;
    mir_inst_access(k, a, ra, &nra, wa, &nwa);
    mir_inst_access(k, b, rb, &nrb, wb, &nwb);
    for (int x = 0; x < nwa; x++) {
        for (int y = 0; y < nrb; y++) if (mir_access_overlap(&wa[x], &rb[y])) return true;
        for (int y = 0; y < nwb; y++) if (mir_access_overlap(&wa[x], &wb[y])) return true;
    }
    for (int x = 0; x < nra; x++)
        for (int y = 0; y < nwb; y++) if (mir_access_overlap(&ra[x], &wb[y])) return true;
    if (a->pipe != b->pipe)
        for (int x = 0; x < nra; x++)
            for (int y = 0; y < nrb; y++)
                if (ra[x].space == MS_ACC && mir_access_overlap(&ra[x], &rb[y])) return true;
    return false;
}

static void check_kernel(Ex *e) {
    for (int b = 0; b < e->nops; b++)
        for (int a = 0; a < b; a++) {
            if (e->ops[b].start.c[e->ops[a].pipe] > e->ops[a].idx) continue;   /* ordered */
            if (!conflict(e->k, e->ops[a].i, e->ops[b].i)) continue;
            char m[200];
            StrBuf ia = { 0 }, ib = { 0 };
            snprintf(m, sizeof m, "unordered hazard: op #%d (%s %s idx %d) -> op #%d (%s %s)", a,
                     mir_pipe_name(e->ops[a].pipe), e->ops[a].i->dst >= 0 ? e->k->bufs[e->ops[a].i->dst].name : "gm",
                     e->ops[a].idx, b, mir_pipe_name(e->ops[b].pipe),
                     e->ops[b].i->dst >= 0 ? e->k->bufs[e->ops[b].i->dst].name : "gm");
            sb_free(&ia); sb_free(&ib);
            ex_error(e, m);
            return;
        }
    for (int s = 0; s < NP; s++)
        for (int d = 0; d < NP; d++)
            for (int id = 0; id < 16; id++)
                if (e->flag[s][d][id]) ex_error(e, "flag still set at the end");
}

TEST(test_random_kernels) {
    int failures = 0, total_pairs = 0, nfallback = 0, maxids = 0, races = 0, same = 0;
    int nseeds = getenv("SYNC_SEEDS") ? atoi(getenv("SYNC_SEEDS")) : 400;
    for (int seed = 1; seed <= nseeds; seed++) {
        Arena *a = arena_new();
        Rng r = { (uint64_t)seed * 7919 };
        Kernel *k = random_kernel(a, &r);
        SyncStats st;
        back_insert_sync(k, target_get(TGT_A2A3), &st);
        total_pairs += st.nset;
        nfallback += st.nfallback_barriers;
        for (int x = 0; x < PIPE_COUNT; x++)
            for (int y = 0; y < PIPE_COUNT; y++) if (st.ids_used[x][y] > maxids) maxids = st.ids_used[x][y];
        Ex *e = calloc(1, sizeof(Ex));
        e->k = k;
        ex_block(e, &k->body);
        check_kernel(e);
        races += e->reuse_races > 0;
        same += e->same_races > 0;
        if (e->reuse_races && getenv("SYNC_RACES") && races <= 2) {
            StrBuf d = { 0 };
            mir_dump(k, &d);
            printf("seed %d\n%s", seed, sb_cstr(&d));
            sb_free(&d);
        }
        if (e->errors && failures++ < 3) {
            StrBuf d = { 0 };
            mir_dump(k, &d);
            printf("seed %d: %s\n%s", seed, e->msg, sb_cstr(&d));
            sb_free(&d);
        }
        CHECK_MSG(e->errors == 0, "seed %d: %s", seed, e->msg);
        CHECK_MSG(e->reuse_races + e->same_races == 0, "seed %d: a set may fire before the previous token of its flag "
                  "was consumed", seed);
        free(e);
        arena_free(a);
    }
    CHECK(total_pairs > 400);   /* the generator does exercise the pass */
    if (getenv("SYNC_SEEDS")) printf("sets %d, fallback barriers %d, max ids in a direction %d, kernels with an ID-reuse race %d, "
                                     "with a same-pair race %d\n", total_pairs, nfallback, maxids, races, same);
}

int main(void) {
    RUN(test_random_kernels);
    return test_summary();
}
