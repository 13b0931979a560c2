/* progfuzz_gen — the generator of random valid programs.
 *
 * Requires: a seed and the enabled features (progfuzz.h).
 * Produces: a PfProgram that passed pf_finalize (progfuzz_check.c: the validity rules, parameter
 *           sizing).
 * Does:     grows the program top-down (loops, ifs, manual scopes, pl.at regions, matmuls) with
 *           choices biased towards what is valid, then checks the rules and retries with a derived
 *           seed when a draw breaks one. Also the feature table (--features). */
#include <stdio.h>
#include <string.h>

#include "progfuzz_gen.h"
#include "target/target.h"

/* ---- features ---- */

static const struct { const char *name, *help; bool on; } feature_info[PF_F_COUNT] = {
#define PF_INFO(id, name, on, help) [PF_F_##id] = { name, help, on },
    PF_FEATURES(PF_INFO)
#undef PF_INFO
};

const char *pf_feature_name(PfFeature id) { return feature_info[id].name; }
const char *pf_feature_help(PfFeature id) { return feature_info[id].help; }

void pf_features_default(PfFeatures *f) {
    for (int i = 0; i < PF_F_COUNT; i++) f->on[i] = feature_info[i].on;
}

bool pf_features_parse(PfFeatures *f, const char *spec, char *err, size_t errlen) {
    char buf[512];
    snprintf(buf, sizeof buf, "%s", spec);
    for (char *tok = strtok(buf, ","); tok; tok = strtok(NULL, ",")) {
        bool on = true;
        if (*tok == '+' || *tok == '-') on = *tok++ == '+';
        if (!strcmp(tok, "all") || !strcmp(tok, "none")) {
            for (int i = 0; i < PF_F_COUNT; i++) f->on[i] = !strcmp(tok, "all");
            continue;
        }
        if (!strcmp(tok, "default")) { pf_features_default(f); continue; }
        int i = 0;
        while (i < PF_F_COUNT && strcmp(feature_info[i].name, tok)) i++;
        if (i == PF_F_COUNT) {
            snprintf(err, errlen, "unknown feature '%s' (see progfuzz --list-features)", tok);
            return false;
        }
        f->on[i] = on;
    }
    return true;
}

/* ---- random numbers (splitmix64) ---- */

uint64_t pf_rnd(Gen *g) {
    uint64_t z = (g->rng += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}
int64_t pf_rint(Gen *g, int64_t n) { return n <= 1 ? 0 : (int64_t)(pf_rnd(g) % (uint64_t)n); }
bool pf_chance(Gen *g, int percent) { return pf_rint(g, 100) < percent; }

/* ---- building blocks ---- */

int pf_new_stmt(Gen *g, PfStmtKind kind) {
    PfProgram *p = g->p;
    if (p->nst >= PF_MAX_STMTS) return -1;
    PfStmt *s = &p->st[p->nst];
    memset(s, 0, sizeof *s);
    s->kind = kind;
    s->tid = -1;
    s->var = s->cond_var = -1;
    return p->nst++;
}

int pf_new_tensor(Gen *g, DType dt, PfDir dir) {
    PfProgram *p = g->p;
    if (p->ntensors >= PF_MAX_TENSORS) return -1;
    PfTensor *t = &p->t[p->ntensors];
    memset(t, 0, sizeof *t);
    t->dt = dt;
    t->dir = dir;
    g->tr[p->ntensors] = pf_initial_range(dt, dir);
    g->vec_written[p->ntensors] = false;
    if (dir == PF_IN && on(g, PF_F_NZ) && pf_chance(g, 15)) t->nz = true;
    if (pf_chance(g, 30)) t->pad_r = PICK(g, ((int64_t[]){ 1, 16, 32, 5 }));
    if (pf_chance(g, 30)) t->pad_c = PICK(g, ((int64_t[]){ 1, 16, 32, 7 }));
    return p->ntensors++;
}

static DType acc_dtype(DType in) { return in == DT_INT8 ? DT_INT32 : DT_FP32; }

static int64_t var_last(const PfVar *v) { return v->start + (v->stop - 1 - v->start) / v->step * v->step; }

/* An index for a window of `extent` along a dimension: constant or moving with a loop variable. */
PfOff pf_gen_off(Gen *g, int64_t extent, int prefer_var) {
    PfOff o = { -1, 0, 0 };
    if (g->nscope > 0 && pf_chance(g, 50)) {
        o.var = prefer_var >= 0 && pf_chance(g, 70) ? prefer_var : g->scope[pf_rint(g, g->nscope)];
        int64_t opts[] = { extent, extent, 16, 2 * extent, on(g, PF_F_ODD) ? 3 : 16 };
        o.coef = PICK(g, opts);
        if (pf_chance(g, 30)) o.konst = PICK(g, ((int64_t[]){ 16, 32, extent }));
        return o;
    }
    if (pf_chance(g, 60)) return o;
    int64_t opts[] = { 16, 32, extent, 64, on(g, PF_F_ODD) ? 5 : 48 };
    o.konst = PICK(g, opts);
    return o;
}

static int64_t pick_dim(Gen *g, bool small) {
    static const int64_t even[] = { 16, 32, 48, 64, 96, 128, 16, 32, 64, 256 };
    static const int64_t odd[] = { 1, 7, 20, 33, 100, 130, 24, 40, 72 };
    int64_t d = on(g, PF_F_ODD) && pf_chance(g, 25) ? PICK(g, odd) : PICK(g, even);
    if (small && d > 64) d = 64;
    return d;
}

static DType pick_dtype(Gen *g) {
    DType opts[8];
    int n = 0;
    opts[n++] = DT_FP16;
    opts[n++] = DT_FP16;
    if (on(g, PF_F_BF16)) opts[n++] = DT_BF16;
    if (on(g, PF_F_FP32)) opts[n++] = DT_FP32, opts[n++] = DT_FP32;
    if (on(g, PF_F_INT8)) opts[n++] = DT_INT8;
    return opts[pf_rint(g, n)];
}

/* An operand tensor: reuse a readable one of the dtype (sometimes) or make a new In parameter. */
static int pick_operand(Gen *g, DType dt, int64_t rows, int64_t cols, PfOff *r, PfOff *c) {
    PfProgram *p = g->p;
    int cands[PF_MAX_TENSORS], n = 0;
    for (int i = 0; i < p->ntensors; i++) {
        const PfTensor *t = &p->t[i];
        if (t->dt != dt || t->dir == PF_OUT) continue;
        if (t->dir == PF_LOCAL && (t->rows < rows || t->cols < cols)) continue;
        if (t->dir == PF_INOUT && !on(g, PF_F_INOUT)) continue;
        if (g->vec_written[i] && dtype_is_float(dt) && (g->tr[i].lo < -PF_MM_OPERAND_MAX || g->tr[i].hi > PF_MM_OPERAND_MAX)) continue;
        cands[n++] = i;
    }
    int ti = n > 0 && pf_chance(g, 40) ? cands[pf_rint(g, n)] : pf_new_tensor(g, dt, PF_IN);
    if (ti < 0) return -1;
    if (p->t[ti].fixed) {                     /* locals: a window inside the fixed dims */
        r->var = c->var = -1;
        r->konst = pf_rint(g, p->t[ti].rows - rows + 1) & ~(int64_t)15;
        c->konst = pf_rint(g, p->t[ti].cols - cols + 1) & ~(int64_t)15;
    }
    return ti;
}

/* The shape of a TILE matmul in an automatic spelling (AUTO, BIAS, SPLITK, PIPE): whole Mat
 * operands that AutoTileMatmulL0 tiles, within Mat; a bias within the Bias table; a user pipeline
 * whose L0 buffers (Left once, Right per stage, two accumulators) fit L0. */
static void gen_tile_form(Gen *g, PfMM *mm) {
    int esz = dtype_bytes(mm->in_dt);
    PfTileForm forms[5];
    int nf = 0;
    if (on(g, PF_F_MM_AUTO)) forms[nf++] = PF_TF_AUTO;
    if (on(g, PF_F_MM_BIAS)) forms[nf++] = PF_TF_BIAS;
    if (on(g, PF_F_SPLITK)) forms[nf++] = PF_TF_SPLITK;
    if (on(g, PF_F_USER_PIPE)) forms[nf++] = PF_TF_PIPE;
    if (on(g, PF_F_MM_CHAIN) && mm->in_dt != DT_INT8) forms[nf++] = PF_TF_CHAIN;
    if (nf == 0 || pf_chance(g, 40)) return;            /* MANUAL */
    mm->tform = (int8_t)forms[pf_rint(g, nf)];
    int64_t kal = mm->in_dt == DT_INT8 ? 32 : 16;
    switch ((PfTileForm)mm->tform) {
    case PF_TF_MANUAL: break;
    case PF_TF_AUTO:
        mm->M = pick_dim(g, false);
        mm->N = pick_dim(g, false);
        mm->K = PICK(g, ((int64_t[]){ 64, 128, 256, 384, 512, 2064, 96 }));
        if (mm->in_dt == DT_INT8) mm->K = (mm->K + 31) / 32 * 32;
        while ((mm->M + mm->N) * mm->K * esz > 196608 && mm->K > kal) mm->K = mm->K / 2 / kal * kal;
        mm->kchunks = 1;
        mm->kloop = false;
        break;
    case PF_TF_BIAS:
        mm->M = PICK(g, ((int64_t[]){ 16, 32, 64, 128, 256, 272 }));
        mm->N = PICK(g, ((int64_t[]){ 16, 32, 64, 96, 128, 160, 256 }));
        mm->K = PICK(g, ((int64_t[]){ 32, 64, 128, 256, 384, 512 }));
        if (mm->in_dt == DT_INT8 && mm->N % 32) mm->N += 16;       /* whole INT8 Right boxes (16 x 32) */
        while ((mm->M + mm->N) * mm->K * esz > 196608 && mm->K > kal) mm->K = mm->K / 2 / kal * kal;
        mm->kchunks = 1;
        mm->kloop = false;
        break;
    case PF_TF_CHAIN:
        mm->M = PICK(g, ((int64_t[]){ 16, 32, 64, 128, 256, 48 }));
        mm->n1 = PICK(g, ((int64_t[]){ 16, 32, 64, 128, 256, 80 }));
        mm->N = PICK(g, ((int64_t[]){ 16, 32, 64, 128, 96 }));
        mm->K = PICK(g, ((int64_t[]){ 32, 64, 128, 256 }));
        /* the intermediate within half of L0C: the consumer's own accumulators must fit beside its
         * buffer (ptoc's bump allocator never subdivides a freed region, docs/fuzzing.md) */
        while (mm->M * mm->n1 * 4 > 65536 && mm->n1 > 16) mm->n1 /= 2;
        /* the producer's operands within half of L0A / L0B for the same reason */
        while ((mm->M * mm->K * esz > 32768 || mm->K * mm->n1 * esz > 32768) && mm->K > 32) mm->K /= 2;
        while (mm->M * mm->K * esz + mm->K * mm->n1 * esz + mm->n1 * mm->N * 2 + mm->M * mm->n1 * 2 > 196608 && mm->K > 32) mm->K /= 2;
        mm->kchunks = 1;
        mm->kloop = false;
        break;
    case PF_TF_SPLITK: {
        int64_t kc = PICK(g, ((int64_t[]){ 32, 64, 128 }));
        mm->M = PICK(g, ((int64_t[]){ 16, 32, 64, 128, 256, 192 }));
        mm->N = PICK(g, ((int64_t[]){ 16, 32, 64, 96, 128, 256, 208 }));
        while ((mm->M + mm->N) * kc * esz * 2 > 196608 && kc > 32) kc /= 2;
        mm->kchunks = 2 + (int)pf_rint(g, 3);
        mm->K = kc * mm->kchunks;
        mm->kloop = false;
        mm->peeled = pf_chance(g, 50);
        break;
    }
    case PF_TF_PIPE: {
        mm->stages = (int8_t)(2 + pf_rint(g, 3));
        mm->M = PICK(g, ((int64_t[]){ 16, 32, 64, 128 }));
        mm->K = PICK(g, ((int64_t[]){ 32, 64, 128 }));
        mm->nb = PICK(g, ((int64_t[]){ 16, 32, 64, 128 }));
        while (mm->M * mm->K * esz > 32768 && mm->K > kal) mm->K /= 2;
        while ((mm->K * mm->nb * esz * mm->stages > 32768 || mm->M * mm->nb * 4 > 32768) && mm->nb > 16) mm->nb /= 2;
        /* eligible: a multiple of the stage count with >= 4 trips; else too few or a remainder */
        int64_t blocks = pf_chance(g, 60) ? mm->stages * (1 + pf_rint(g, 3)) : 1 + pf_rint(g, 6);
        if (blocks * mm->nb > 1024) blocks = 1024 / mm->nb;
        mm->N = blocks * mm->nb;
        mm->kchunks = 1;
        mm->kloop = false;
        break;
    }
    }
}

/* Style, dtype and M / N / K of a matmul, within the on-chip budgets of its style. */
static PfMM gen_mm_shape(Gen *g) {
    PfProgram *p = g->p;
    PfMM mm = { 0 };
    mm.bias = -1;
    mm.in_dt = pick_dtype(g);
    if (g->force_local && mm.in_dt == DT_INT8) mm.in_dt = DT_FP16;            /* an FP32 local */
    if (g->prefer_tensor >= 0) {                                                 /* vec_mix: read the local */
        DType d = p->t[g->prefer_tensor].dt;
        if (d == DT_FP16 || d == DT_BF16 || d == DT_FP32 || d == DT_INT8) mm.in_dt = d;
    }
    if (g->region_dst >= 0) {          /* printed form: one written tensor per region */
        DType want = p->t[g->region_dst].dt;
        if (want == DT_INT32) mm.in_dt = DT_INT8;
        else if (mm.in_dt == DT_INT8) mm.in_dt = DT_FP16;
    }
    int esz = dtype_bytes(mm.in_dt);
    PfMMStyle styles[3];
    int ns = 0;
    if (p->form == PF_FORM_JIT && on(g, PF_F_SUGAR)) styles[ns++] = PF_MM_SUGAR;
    if (p->form == PF_FORM_JIT && on(g, PF_F_ASSEMBLE)) styles[ns++] = PF_MM_ASSEMBLE;
    if (on(g, PF_F_TILE) || ns == 0) styles[ns++] = PF_MM_TILE;
    mm.style = styles[pf_rint(g, ns)];
    if (g->prefer_tensor >= 0 && mm.style == PF_MM_TILE && ns > 1) mm.style = styles[0];
    mm.M = pick_dim(g, false);
    mm.N = pick_dim(g, false);
    mm.kchunks = 1;
    if (mm.style == PF_MM_TILE) {
        /* L0A/L0B hold a whole chunk; keep each tile <= 16 KiB (64 KiB L0A/L0B, 128 KiB L0C). */
        int64_t kc = PICK(g, ((int64_t[]){ 16, 32, 64, 128 }));
        if (on(g, PF_F_ODD) && pf_chance(g, 10)) kc = PICK(g, ((int64_t[]){ 24, 40 }));
        while (mm.M * kc * esz > 16384 && mm.M > 16) mm.M /= 2;
        while (kc * mm.N * esz > 16384 && mm.N > 16) mm.N /= 2;
        while (mm.M * mm.N * 4 > 32768 && mm.N > 16) mm.N /= 2;
        while (mm.M * kc * esz > 16384 && kc > 16) kc /= 2;
        while (kc * mm.N * esz > 16384 && kc > 16) kc /= 2;
        mm.kchunks = 1 + (int)pf_rint(g, 3);
        mm.kloop = mm.kchunks > 1 && on(g, PF_F_ACC_LOOP) && pf_chance(g, 50);
        mm.K = kc * mm.kchunks;
        if (g->prefer_tensor < 0) gen_tile_form(g, &mm);
    } else {
        mm.K = pick_dim(g, false) * (pf_chance(g, 30) ? 2 : 1);
        while ((mm.M + mm.N) * mm.K * esz > 196608 && mm.K > 16) mm.K /= 2;
    }
    return mm;
}

/* The destination: the region's tensor (printed form), a new local, a written tensor, or a new
 * Out / InOut parameter. -1 when the tensor table is full. */
static int gen_mm_dst(Gen *g, const PfMM *mm) {
    PfProgram *p = g->p;
    DType acc = acc_dtype(mm->in_dt);
    int dst = -1;
    if (g->region_dst >= 0) {
        dst = g->region_dst;
    } else {
        int cands[PF_MAX_TENSORS], n = 0;
        for (int i = 0; i < p->ntensors; i++) {
            const PfTensor *t = &p->t[i];
            if (t->dt == acc && t->dir != PF_IN && !t->fixed) cands[n++] = i;
        }
        bool want_local = on(g, PF_F_LOCAL) && acc == DT_FP32 && !g->conditional && !g->in_manual &&
                          g->nscope == 0 && (g->force_local || pf_chance(g, 25));
        if (want_local) {
            dst = pf_new_tensor(g, DT_FP32, PF_LOCAL);
            if (dst >= 0) {
                p->t[dst].fixed = true;
                p->t[dst].rows = mm->M;
                p->t[dst].cols = mm->N;
                if (g->force_local) g->last_local = dst;
            }
        } else if (n > 0 && pf_chance(g, 45)) {
            dst = cands[pf_rint(g, n)];
        } else {
            dst = pf_new_tensor(g, acc, on(g, PF_F_INOUT) && pf_chance(g, 20) ? PF_INOUT : PF_OUT);
        }
    }
    return dst;
}

static int gen_mm(Gen *g, int block_var) {
    PfProgram *p = g->p;
    if (g->mm_left <= 0) return -1;
    int si = pf_new_stmt(g, PF_S_MM);
    if (si < 0) return -1;
    g->mm_left--;
    PfMM mm = gen_mm_shape(g);
    int dst = gen_mm_dst(g, &mm);
    if (dst < 0) return -1;
    mm.dst = dst;
    if (p->t[dst].fixed) {
        mm.dr = (PfOff){ -1, 0, 0 };
        mm.dc = (PfOff){ -1, 0, 0 };
    } else {
        mm.dr = pf_gen_off(g, mm.M, block_var);
        mm.dc = pf_gen_off(g, mm.N, -1);
        if (block_var >= 0 && pf_chance(g, 80)) {       /* a block per iteration of the parallel loop */
            if (pf_chance(g, 50)) mm.dr = (PfOff){ block_var, mm.M, mm.dr.var < 0 ? mm.dr.konst : 0 };
            else mm.dc = (PfOff){ block_var, mm.N, mm.dc.var < 0 ? mm.dc.konst : 0 };
        }
    }
    if (on(g, PF_F_ATOMIC) && p->t[dst].dir != PF_OUT && pf_chance(g, 25)) mm.atomic = true;
    if (on(g, PF_F_ATOMIC) && p->t[dst].dir == PF_OUT && on(g, PF_F_INOUT) && pf_chance(g, 10)) {
        p->t[dst].dir = PF_INOUT;
        mm.atomic = true;
    }
    mm.ar = pf_gen_off(g, mm.M, block_var);
    mm.ak = pf_gen_off(g, mm.K, -1);
    mm.bk = pf_gen_off(g, mm.K, -1);
    mm.bc = pf_gen_off(g, mm.N, -1);
    int pt = g->prefer_tensor;
    if (pt >= 0 && p->t[pt].fixed && mm.style != PF_MM_TILE && p->t[pt].dt == mm.in_dt) {
        /* vec_mix: the A operand is the vector region's local, whole columns as K */
        if (mm.M > p->t[pt].rows) mm.M = p->t[pt].rows;
        mm.K = p->t[pt].cols;
        while ((mm.M + mm.N) * mm.K * dtype_bytes(mm.in_dt) > 196608 && mm.N > 16) mm.N /= 2;
        mm.ar = mm.ak = (PfOff){ -1, 0, 0 };
        mm.a = pt;
    } else
    mm.a = pick_operand(g, mm.in_dt, mm.M, mm.K, &mm.ar, &mm.ak);
    mm.b = pick_operand(g, mm.in_dt, mm.K, mm.N, &mm.bk, &mm.bc);
    if (mm.a < 0 || mm.b < 0) return -1;
    if (mm.style == PF_MM_TILE && (mm.tform == PF_TF_BIAS || mm.tform == PF_TF_CHAIN)) {
        mm.bias = pf_new_tensor(g, mm.tform == PF_TF_BIAS ? acc_dtype(mm.in_dt) : DT_FP16, PF_IN);
        if (mm.bias < 0) return -1;
        p->t[mm.bias].nz = false;
        p->t[mm.bias].pad_r = 0;
    }
    pf_range_union(&g->tr[dst], pf_mm_range(&mm, g->tr[mm.a], g->tr[mm.b]));
    p->st[si].mm = mm;
    if (p->form == PF_FORM_PROGRAM) g->region_dst = dst;
    return si;
}

static int gen_var(Gen *g, PfLoopKind kind) {
    PfProgram *p = g->p;
    if (p->nvars >= PF_MAX_VARS) return -1;
    PfVar *v = &p->v[p->nvars];
    v->start = pf_chance(g, 70) ? 0 : 1 + pf_rint(g, 2);
    v->step = pf_chance(g, 75) ? 1 : 2;
    int64_t trips = 1 + pf_rint(g, 4);
    v->stop = v->start + (trips - 1) * v->step + 1 + (v->step > 1 && pf_chance(g, 50));
    (void)kind;
    return p->nvars++;
}

static void push_var(Gen *g, int v) { g->scope[g->nscope++] = v; }

static bool add_child(PfStmt *s, bool orelse, int child) {
    if (child < 0) return false;
    int *n = orelse ? &s->nelse : &s->nbody;
    if (*n >= PF_MAX_BODY) return false;
    (orelse ? s->orelse : s->body)[(*n)++] = child;
    return true;
}

static int gen_device(Gen *g, int depth);

/* A loop inside pl.at: a K pipeline with atomic accumulation, or a loop over output blocks. */
static int gen_device_loop(Gen *g, int depth) {
    PfProgram *p = g->p;
    int si = pf_new_stmt(g, PF_S_FOR);
    int v = gen_var(g, PF_LOOP_RANGE);
    if (si < 0 || v < 0) return -1;
    PfStmt *s = &p->st[si];
    s->var = v;
    s->loop = on(g, PF_F_PARALLEL) && pf_chance(g, 25) ? PF_LOOP_PARALLEL : PF_LOOP_RANGE;
    bool save_cond = g->conditional;
    int save_par = g->par_var;
    g->conditional = true;
    if (s->loop == PF_LOOP_PARALLEL) g->par_var = v;
    push_var(g, v);
    int64_t save_stages = g->stages;
    if (g->region_vec) {
        /* a vector region: a loop over row / column blocks, a pl.pipeline over chunks */
        if (on(g, PF_F_PIPELINE) && p->form == PF_FORM_JIT && s->loop == PF_LOOP_RANGE && pf_chance(g, 30)) {
            s->loop = PF_LOOP_PIPELINE;
            g->stages *= 2;
            g->pipe_var[v] = true;
        }
        int n = 1 + (int)pf_rint(g, 2);
        for (int i = 0; i < n; i++) add_child(&p->st[si], false, gen_device(g, depth + 1));
    } else if (on(g, PF_F_PIPELINE) && p->form == PF_FORM_JIT && pf_chance(g, 40)) {
        /* for k0 in pl.pipeline(0, K, KS, stage=2): c = pl.assemble(c, a[:, k0:k0+KS] @ .., atomic) */
        s->loop = PF_LOOP_PIPELINE;
        int mi = gen_mm(g, -1);
        if (mi >= 0) {
            PfMM *mm = &p->st[mi].mm;
            int64_t ks = mm->K, n = p->v[v].stop - p->v[v].start;
            p->v[v] = (PfVar){ 0, ks * (n < 2 ? 2 : n), ks };
            mm->style = PF_MM_ASSEMBLE;
            mm->ak = (PfOff){ v, 1, 0 };
            mm->bk = (PfOff){ v, 1, 0 };
            mm->atomic = true;
            if (p->t[mm->dst].dir == PF_OUT && on(g, PF_F_INOUT)) p->t[mm->dst].dir = PF_INOUT;
            add_child(s, false, mi);
        }
    } else {
        int n = 1 + (int)pf_rint(g, 2);
        for (int i = 0; i < n; i++) add_child(&p->st[si], false, gen_device(g, depth + 1));
    }
    g->nscope--;
    g->stages = save_stages;
    g->conditional = save_cond;
    g->par_var = save_par;
    return p->st[si].nbody ? si : -1;
}

static int gen_if(Gen *g, int depth, int (*gen_child)(Gen *, int));

/* One statement inside pl.at. */
static int gen_device(Gen *g, int depth) {
    if (depth < 2 && on(g, PF_F_LOOP_IN_AT) && pf_chance(g, 30)) return gen_device_loop(g, depth);
    if (depth < 2 && g->nscope > 0 && on(g, PF_F_IF_IN_AT) && pf_chance(g, 20)) return gen_if(g, depth, gen_device);
    if (g->region_vec) return pf_gen_vec(g, g->par_var);
    return gen_mm(g, g->par_var);
}

static int gen_if(Gen *g, int depth, int (*gen_child)(Gen *, int)) {
    PfProgram *p = g->p;
    int si = pf_new_stmt(g, PF_S_IF);
    if (si < 0) return -1;
    int v = g->scope[pf_rint(g, g->nscope)];
    PfStmt *s = &p->st[si];
    s->cond_var = v;
    s->cmp = (PfCmp)pf_rint(g, 3);
    s->cond_val = p->v[v].start + p->v[v].step * pf_rint(g, (var_last(&p->v[v]) - p->v[v].start) / p->v[v].step + 1);
    bool save = g->conditional;
    g->conditional = true;
    add_child(&p->st[si], false, gen_child(g, depth + 1));
    if (pf_chance(g, 60)) add_child(&p->st[si], true, gen_child(g, depth + 1));
    g->conditional = save;
    return p->st[si].nbody ? si : -1;
}

/* A region; kind -1 draws cube or vector, 0 cube, 1 vector (then its first block is direct). */
static int gen_region_k(Gen *g, int kind) {
    PfProgram *p = g->p;
    int si = pf_new_stmt(g, PF_S_AT);
    if (si < 0) return -1;
    g->region_dst = -1;
    g->region_vec = kind >= 0 ? kind == 1 :
                    on(g, PF_F_VEC) && (on(g, PF_F_VEC_TILE) || (on(g, PF_F_VEC_TENSOR) && p->form == PF_FORM_JIT)) &&
                    pf_chance(g, 55);
    g->region_vbytes = 0;
    g->stages = 1;
    memset(g->region_wr, 0, sizeof g->region_wr);
    int n = 1 + (pf_chance(g, 30) ? 1 : 0);
    for (int i = 0; i < n; i++)
        add_child(&p->st[si], false, kind < 0 || i > 0 ? gen_device(g, 0) : kind ? pf_gen_vec(g, -1) : gen_mm(g, -1));
    g->region_dst = -1;
    g->region_vec = false;
    return p->st[si].nbody ? si : -1;
}

static int gen_region(Gen *g) { return gen_region_k(g, -1); }

/* vec_mix: a matmul region writing a new local that a vector region reads next, or a vector region
 * writing a local (clamped to +-2, a matmul dtype) that a matmul reads next. Appends to top. */
static void gen_mix(Gen *g) {
    PfProgram *p = g->p;
    bool vec_first = pf_chance(g, 50);
    g->force_local = true;
    g->last_local = -1;
    int r1 = gen_region_k(g, vec_first);
    g->force_local = false;
    if (r1 < 0 || p->ntop + 2 > (int)(sizeof p->top / sizeof p->top[0])) return;
    p->top[p->ntop++] = r1;
    if (g->last_local < 0 || g->mm_left <= 0) return;
    g->prefer_tensor = g->last_local;
    int r2 = gen_region_k(g, !vec_first);
    g->prefer_tensor = -1;
    if (r2 >= 0) p->top[p->ntop++] = r2;
}

static int gen_orch(Gen *g, int depth);

static int gen_loop(Gen *g, int depth) {
    PfProgram *p = g->p;
    int si = pf_new_stmt(g, PF_S_FOR);
    int v = gen_var(g, PF_LOOP_RANGE);
    if (si < 0 || v < 0) return -1;
    PfStmt *s = &p->st[si];
    s->var = v;
    bool par = on(g, PF_F_PARALLEL) && (!on(g, PF_F_RANGE) || pf_chance(g, 40));
    s->loop = par ? PF_LOOP_PARALLEL : PF_LOOP_RANGE;
    bool save_cond = g->conditional;
    int save_par = g->par_var;
    g->conditional = true;
    if (par) g->par_var = v;
    push_var(g, v);
    int n = 1 + (pf_chance(g, 30) ? 1 : 0);
    for (int i = 0; i < n; i++) add_child(&p->st[si], false, gen_orch(g, depth + 1));
    g->nscope--;
    g->conditional = save_cond;
    g->par_var = save_par;
    return p->st[si].nbody ? si : -1;
}

static int gen_manual(Gen *g) {
    PfProgram *p = g->p;
    int si = pf_new_stmt(g, PF_S_MANUAL);
    if (si < 0) return -1;
    g->in_manual = true;
    int n = 2 + (int)pf_rint(g, 2), ntid = 0;
    for (int i = 0; i < n; i++) {
        int r = gen_region(g);
        if (r < 0 || !add_child(&p->st[si], false, r)) continue;
        if (on(g, PF_F_MANUAL_DEPS) && p->form == PF_FORM_JIT && pf_chance(g, 60)) {
            p->st[r].tid = ntid++;
            for (int j = 0; j < p->st[si].nbody - 1 && p->st[r].ndeps < 4; j++) {
                int prev = p->st[si].body[j];
                if (p->st[prev].tid >= 0 && pf_chance(g, 60)) p->st[r].deps[p->st[r].ndeps++] = prev;
            }
        }
    }
    g->in_manual = false;
    return p->st[si].nbody ? si : -1;
}

/* One statement of the orchestration body. */
static int gen_orch(Gen *g, int depth) {
    int r = (int)pf_rint(g, 100);
    bool loops = on(g, PF_F_RANGE) || on(g, PF_F_PARALLEL);
    if (depth < 2 && loops && r < 30) return gen_loop(g, depth);
    if (depth < 3 && g->nscope > 0 && on(g, PF_F_IF) && r < 45) return gen_if(g, depth, gen_orch);
    if (depth == 0 && on(g, PF_F_MANUAL) && r >= 90) return gen_manual(g);
    return gen_region(g);
}

static void gen_once(PfProgram *p, uint64_t seed, const PfFeatures *f) {
    memset(p, 0, sizeof *p);
    Gen g = { .p = p, .f = f, .rng = seed, .par_var = -1, .region_dst = -1, .stages = 1, .prefer_tensor = -1, .last_local = -1 };
    p->seed = seed;
    p->features = *f;
    p->form = on(&g, PF_F_PROGRAM) && pf_chance(&g, 30) ? PF_FORM_PROGRAM : PF_FORM_JIT;
    p->a5 = on(&g, PF_F_A5) && pf_chance(&g, 30);
    p->dbc = on(&g, PF_F_DBC) && pf_chance(&g, 20);
    p->planner = on(&g, PF_F_PLANNERS) && pf_chance(&g, 40) ? 1 + (int)pf_rint(&g, 2) : 0;
    p->run_seed = 1 + pf_rint(&g, 1000);
    g.mm_left = 1 + (int)pf_rint(&g, 6);
    int n = 1 + (int)pf_rint(&g, 3);
    for (int i = 0; i < n && g.mm_left > 0; i++) {
        if (on(&g, PF_F_VEC) && on(&g, PF_F_VEC_MIX) && on(&g, PF_F_LOCAL) && p->form == PF_FORM_JIT && pf_chance(&g, 30)) {
            gen_mix(&g);
            continue;
        }
        if (on(&g, PF_F_MIX) && p->form == PF_FORM_JIT && pf_chance(&g, 25)) {
            int s = pf_gen_mix(&g);
            if (s >= 0 && p->ntop < (int)(sizeof p->top / sizeof p->top[0])) p->top[p->ntop++] = s;
            continue;
        }
        int s = gen_orch(&g, 0);
        if (s >= 0 && p->ntop < (int)(sizeof p->top / sizeof p->top[0])) p->top[p->ntop++] = s;
    }
}

void pf_generate(PfProgram *p, uint64_t seed, const PfFeatures *f) {
    char why[256];
    for (uint64_t attempt = 0;; attempt++) {
        gen_once(p, seed * 1000003u + attempt, f);
        p->seed = seed;
        if (pf_count_mm(p) > 0 && pf_finalize(p, why, sizeof why)) return;
    }
}

