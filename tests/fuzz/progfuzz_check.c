/* progfuzz_check — the validity rules of generated programs, and the sizing of their parameters.
 *
 * Requires: a PfProgram from the generator or a reducer candidate.
 * Produces: pf_finalize: true with every parameter sized to fit its accesses (plus slack), or false
 *           with the first broken rule; pf_count_mm.
 * Does:     walks the program in order with the loop variables' ranges. A program's meaning must
 *           not depend on task order, undefined memory or tolerance luck:
 *             - operands are In/InOut parameters or locals fully written earlier at top level;
 *               Out parameters are never read (their contents before the first write are undefined);
 *             - a pl.parallel body writes each tensor through one matmul whose destination block
 *               moves with the loop variable by at least its extent (or only atomically), and never
 *               reads what it writes;
 *             - a manual scope's regions touch tensors no other region touches, unless the later
 *               region lists the earlier one in deps= (MANUAL_DEPS);
 *             - every access is in bounds for every value of the loop variables;
 *             - the matmuls of a region fit the on-chip budgets of src/target/target.c;
 *             - no feedback through a loop; WAR / WAW across regions only with their features. */
#include <stdio.h>
#include <string.h>

#include "progfuzz.h"

static DType acc_dtype(DType in) { return in == DT_INT8 ? DT_INT32 : DT_FP32; }

static int64_t var_last(const PfVar *v) { return v->start + (v->stop - 1 - v->start) / v->step * v->step; }

/* ---- validation and sizing ---- */

typedef struct Access { int tensor; bool write, atomic; } Access;

typedef struct PfWrite { int tensor, region; int64_t r0, r1, c0, c1; } PfWrite;

typedef struct Check {
    PfProgram *p;
    char *why;
    size_t whylen;
    bool ok;
    int64_t vmin[PF_MAX_VARS], vmax[PF_MAX_VARS];
    bool vis[PF_MAX_VARS];
    bool produced[PF_MAX_TENSORS];        /* locals fully written at top level */
    bool ever_read[PF_MAX_TENSORS], ever_written[PF_MAX_TENSORS];
    int region_of_write[PF_MAX_TENSORS];  /* -1 none, region stmt index; -2 several */
    PfWrite writes[PF_MAX_STMTS];         /* bounding boxes of the writes so far */
    int64_t untiled[3];                   /* L0A/L0B/L0C bytes of the region's matmuls (see check_mm) */
    int region_writes[PF_MAX_STMTS], nregion_writes;
    int device_loops;                     /* loops inside the current region */
    bool nz_misaligned[PF_MAX_TENSORS];   /* an access of an NZ tensor is not in whole fractals */
    int64_t stages;                       /* product of the enclosing pl.pipeline stages */
    int64_t vbytes;                       /* Vec bytes of the region's vector blocks (times stages) */
    bool pipe_var[PF_MAX_VARS];           /* the variable of a pl.pipeline loop */
    int nwrites;
    bool conditional;
    int manual;                           /* manual scope stmt, -1 none */
    int region;                           /* enclosing AT stmt, -1 none */
    int64_t need_r[PF_MAX_TENSORS], need_c[PF_MAX_TENSORS];
} Check;

static void fail(Check *c, const char *fmt, const char *a, int64_t x) {
    if (!c->ok) return;
    c->ok = false;
    char m[200];
    snprintf(m, sizeof m, fmt, a, (long long)x);
    snprintf(c->why, c->whylen, "%s", m);
}

static bool off_range(Check *c, PfOff o, int64_t *lo, int64_t *hi) {
    if (o.var < 0) { *lo = *hi = o.konst; return true; }
    if (o.var >= c->p->nvars || !c->vis[o.var]) { fail(c, "%s variable i%lld not in scope", "", o.var); return false; }
    int64_t a = o.konst + o.coef * c->vmin[o.var], b = o.konst + o.coef * c->vmax[o.var];
    *lo = a < b ? a : b;
    *hi = a < b ? b : a;
    return true;
}

static void access(Check *c, int ti, PfOff r, PfOff col, int64_t er, int64_t ec, bool write) {
    int64_t rl, rh, cl, ch;
    if (!off_range(c, r, &rl, &rh) || !off_range(c, col, &cl, &ch)) return;
    if (write && !c->p->features.on[PF_F_WAW]) {
        for (int i = 0; i < c->nwrites; i++)
            if (c->writes[i].tensor == ti && c->writes[i].region != c->region && rl < c->writes[i].r1 &&
                c->writes[i].r0 < rh + er && cl < c->writes[i].c1 && c->writes[i].c0 < ch + ec)
                fail(c, "%sregion overwrites tensor %lld written by an earlier region", "", ti);
        if (c->nwrites < PF_MAX_STMTS)
            c->writes[c->nwrites++] = (PfWrite){ ti, c->region, rl, rh + er, cl, ch + ec };
    }
    if (rl < 0 || cl < 0) { fail(c, "%snegative offset on tensor %lld", "", ti); return; }
    const PfTensor *t = &c->p->t[ti];
    if (t->nz) {
        /* NZ tensors are stored and loaded in whole fractals: 16 rows x c0 = 32 bytes of columns */
        int64_t c0 = 32 / dtype_bytes(t->dt);
        bool rows_ok = er % 16 == 0 && r.konst % 16 == 0 && (r.var < 0 || r.coef % 16 == 0);
        bool cols_ok = ec % c0 == 0 && col.konst % c0 == 0 && (col.var < 0 || col.coef % c0 == 0);
        if (!rows_ok || !cols_ok) c->nz_misaligned[ti] = true;
    }
    if (rh + er > c->need_r[ti]) c->need_r[ti] = rh + er;
    if (ch + ec > c->need_c[ti]) c->need_c[ti] = ch + ec;
    if (t->fixed && (rh + er > t->rows || ch + ec > t->cols)) fail(c, "%sout of bounds on local %lld", "", ti);
}

/* Tensors read and written by the statements under si (recursively). */
typedef struct Uses { bool rd[PF_MAX_TENSORS], wr[PF_MAX_TENSORS]; int nplain[PF_MAX_TENSORS], natomic[PF_MAX_TENSORS]; } Uses;

static void collect(const PfProgram *p, int si, Uses *u) {
    const PfStmt *s = &p->st[si];
    if (s->kind == PF_S_MIX) {
        const PfMix *m = &s->mix;
        u->rd[m->a] = u->rd[m->b] = true;
        if (m->bias >= 0) u->rd[m->bias] = true;
        if (m->w2 >= 0) u->rd[m->w2] = true;
        u->wr[m->out] = true;
        u->nplain[m->out]++;
        return;
    }
    if (s->kind == PF_S_VEC) {
        const PfVec *v = &p->vec[s->vec];
        for (int k = 0; k < v->nn; k++)
            if (v->n[k].op == PF_V_LOAD && v->n[k].tensor >= 0) u->rd[(int)v->n[k].tensor] = true;
        for (int i = 0; i < v->ns; i++) {
            u->wr[(int)v->s[i].tensor] = true;
            u->nplain[(int)v->s[i].tensor]++;
        }
        return;
    }
    if (s->kind == PF_S_MM) {
        u->rd[s->mm.a] = u->rd[s->mm.b] = true;
        int64_t er, ec;
        if (pf_mm_extra(&s->mm, &er, &ec) >= 0) u->rd[s->mm.bias] = true;
        u->wr[s->mm.dst] = true;
        if (s->mm.atomic) u->natomic[s->mm.dst]++;
        else u->nplain[s->mm.dst]++;
        return;
    }
    for (int i = 0; i < s->nbody; i++) collect(p, s->body[i], u);
    for (int i = 0; i < s->nelse; i++) collect(p, s->orelse[i], u);
}

static bool moves_by_extent(PfOff o, int var, int64_t step, int64_t extent) {
    return o.var == var && (o.coef < 0 ? -o.coef : o.coef) * step >= extent;
}

/* Every plain write under a parallel loop moves with its variable by at least its extent. */
static void check_parallel_writes(Check *c, int si, int var) {
    const PfProgram *p = c->p;
    const PfStmt *s = &p->st[si];
    if (s->kind == PF_S_VEC) {
        const PfVec *v = &p->vec[s->vec];
        int64_t step = p->v[var].step;
        for (int i = 0; i < v->ns; i++) {
            const PfVStore *st = &v->s[i];
            int shape = v->n[(int)st->node].shape;
            if (!moves_by_extent(st->r, var, step, pf_vshape_rows(v, shape)) && !moves_by_extent(st->c, var, step, pf_vshape_cols(v, shape)))
                fail(c, "%sparallel loop i%lld writes one block in several iterations", "", var);
        }
        return;
    }
    if (s->kind == PF_S_MM) {
        const PfMM *m = &s->mm;
        int64_t step = p->v[var].step;
        if (!m->atomic && !moves_by_extent(m->dr, var, step, m->M) && !moves_by_extent(m->dc, var, step, m->N))
            fail(c, "%sparallel loop i%lld writes one block in several iterations", "", var);
        return;
    }
    for (int i = 0; i < s->nbody; i++) check_parallel_writes(c, s->body[i], var);
    for (int i = 0; i < s->nelse; i++) check_parallel_writes(c, s->orelse[i], var);
}

static void check_stmt(Check *c, int si);

static void region_kinds(const PfProgram *p, int si, bool *vec, bool *mm) {
    const PfStmt *s = &p->st[si];
    if (s->kind == PF_S_VEC) *vec = true;
    if (s->kind == PF_S_MM) *mm = true;
    for (int i = 0; i < s->nbody; i++) region_kinds(p, s->body[i], vec, mm);
    for (int i = 0; i < s->nelse; i++) region_kinds(p, s->orelse[i], vec, mm);
}

static void check_block(Check *c, const int *ids, int n) {
    for (int i = 0; i < n && c->ok; i++) check_stmt(c, ids[i]);
}

static void check_mm(Check *c, const PfMM *m) {
    PfProgram *p = c->p;
    const PfTensor *ta = &p->t[m->a], *tb = &p->t[m->b], *td = &p->t[m->dst];
    if (c->region < 0) { fail(c, "%smatmul outside pl.at (%lld)", "", 0); return; }
    if (ta->dt != m->in_dt || tb->dt != m->in_dt || td->dt != acc_dtype(m->in_dt)) fail(c, "%sdtype mismatch %lld", "", 0);
    if (ta->dir == PF_OUT || tb->dir == PF_OUT) fail(c, "%sreads an Out parameter %lld", "", 0);
    if (td->dir == PF_IN) fail(c, "%swrites an In parameter %lld", "", 0);
    if (m->atomic && td->dir == PF_OUT) fail(c, "%satomic add into an Out parameter %lld", "", 0);
    for (int k = 0; k < 2; k++) {
        int ti = k ? m->b : m->a;
        if (p->t[ti].dir == PF_LOCAL && !c->produced[ti]) fail(c, "%sreads local %lld before it is written", "", ti);
        c->ever_read[ti] = true;
    }
    if (td->dir == PF_LOCAL && !c->produced[m->dst]) {
        bool full = m->dr.var < 0 && m->dc.var < 0 && m->dr.konst == 0 && m->dc.konst == 0 && m->M == td->rows &&
                    m->N == td->cols;
        if (!full || m->atomic || c->conditional || c->manual >= 0) fail(c, "%slocal %lld first written partially", "", m->dst);
        c->produced[m->dst] = true;
    }
    c->ever_written[m->dst] = true;
    if (c->region_of_write[m->dst] == -1) c->region_of_write[m->dst] = c->region;
    else if (c->region_of_write[m->dst] != c->region) c->region_of_write[m->dst] = -2;
    access(c, m->a, m->ar, m->ak, m->M, m->K, false);
    access(c, m->b, m->bk, m->bc, m->K, m->style == PF_MM_TILE && m->tform == PF_TF_CHAIN ? m->n1 : m->N, false);
    access(c, m->dst, m->dr, m->dc, m->M, m->N, true);
    int64_t er = 0, ec = 0;
    int bias = pf_mm_extra(m, &er, &ec);
    if (m->style == PF_MM_TILE && (m->tform == PF_TF_BIAS || m->tform == PF_TF_CHAIN) && bias < 0)
        fail(c, "%sa biased or chained matmul without its extra tensor %lld", "", 0);
    if (bias >= 0 && m->tform == PF_TF_CHAIN) {
        if (p->t[bias].dt != DT_FP16 || p->t[bias].dir == PF_OUT || m->in_dt == DT_INT8) fail(c, "%sbad chained operand %lld", "", bias);
        if (p->t[bias].dir == PF_LOCAL && !c->produced[bias]) fail(c, "%sreads local %lld before it is written", "", bias);
        c->ever_read[bias] = true;
        if (p->t[bias].nz && m->n1 % 16) c->nz_misaligned[bias] = true;
        access(c, bias, (PfOff){ -1, 0, 0 }, (PfOff){ -1, 0, 0 }, er, ec, false);
        if (m->n1 % 16 || m->K % 16 || m->M % 16) fail(c, "%sa chained matmul needs whole fractals (n1 %lld)", "", m->n1);
    } else if (bias >= 0) {
        if (p->t[bias].dt != acc_dtype(m->in_dt) || p->t[bias].dir == PF_OUT || p->t[bias].nz) fail(c, "%sbad bias tensor %lld", "", bias);
        if (p->t[bias].dir == PF_LOCAL && !c->produced[bias]) fail(c, "%sreads local %lld before it is written", "", bias);
        c->ever_read[bias] = true;
        c->nz_misaligned[bias] = true;
        access(c, bias, (PfOff){ -1, 0, 0 }, (PfOff){ -1, 0, 0 }, 1, m->N, false);
        int64_t nal = m->in_dt == DT_INT8 ? 32 : 16;
        if (m->M % 16 || m->N % nal || m->K % nal || m->N * 4 > 1024) fail(c, "%sbias window of N %lld not legal", "", m->N);
    }
    if (m->style == PF_MM_TILE && m->tform == PF_TF_PIPE &&
        (m->nb < 16 || m->nb % 16 || m->N % m->nb || m->stages < 2 || m->M % 16 || m->K % 16))
        fail(c, "%sbad user pipeline over N %lld", "", m->N);
    if (m->style == PF_MM_TILE && m->tform == PF_TF_SPLITK && (m->kchunks < 2 || m->M % 16 || m->N % 16))
        fail(c, "%sbad split-K chain %lld", "", m->K);
    /* a chain over L0C is M/N-tiled only when its operands are plain GM -> Mat panel loads (ND) */
    if (m->style == PF_MM_TILE && m->tform == PF_TF_SPLITK && m->M * m->N * 4 > 32768 && (p->t[m->a].nz || p->t[m->b].nz))
        fail(c, "%sa split-K chain over L0C with an NZ operand %lld", "", m->K);
    /* nor when it reads its own destination (tiling it would read results already stored) */
    if (m->style == PF_MM_TILE && m->tform == PF_TF_SPLITK && m->M * m->N * 4 > 32768 && (m->a == m->dst || m->b == m->dst))
        fail(c, "%sa split-K chain over L0C reading its destination %lld", "", m->dst);
    if (m->style == PF_MM_TILE && m->tform == PF_TF_CHAIN &&
        (m->M * m->n1 * 4 > 65536 || (m->M * m->K + m->K * m->n1) * dtype_bytes(m->in_dt) > 65536))
        fail(c, "%sa chained intermediate over half of L0C %lld", "", m->n1);
    if (m->style == PF_MM_TILE) {       /* the loads are K chunks: whole fractals per chunk too */
        int64_t kc = m->K / (m->kchunks > 0 ? m->kchunks : 1), c0 = 32 / dtype_bytes(m->in_dt);
        if (p->t[m->a].nz && kc % c0) c->nz_misaligned[m->a] = true;
        if (p->t[m->b].nz && kc % 16) c->nz_misaligned[m->b] = true;
    }
    if (m->kchunks < 1 || m->K % m->kchunks) fail(c, "%sbad K split %lld", "", m->K);
    if (m->style != PF_MM_TILE || m->tform != PF_TF_MANUAL) {
        /* L0 per region: AutoTileMatmulL0 sizes each matmul's L0 tiles for the whole of L0A / L0B /
         * L0C, and leaves a matmul untiled when K is not a multiple of 16 or M/N < 16 (its whole
         * operands then sit in L0); buffers of several matmuls of one kernel, and every stage of a
         * pl.pipeline, add up (a ptoc limitation, docs/fuzzing.md). Each matmul counts its operand
         * bytes capped at the capacity. */
        static const int64_t cap[3] = { 65536, 65536, 131072 };
        int64_t esz = dtype_bytes(m->in_dt), kal = m->in_dt == DT_INT8 ? 32 : 16;
        int64_t M16 = (m->M + 15) / 16 * 16, N16 = (m->N + 15) / 16 * 16, Kp = (m->K + kal - 1) / kal * kal;
        int64_t need[3] = { M16 * Kp * esz, Kp * N16 * esz, M16 * N16 * 4 };
        bool untiled = m->K % 16 || m->M < 16 || m->N < 16;
        if (m->style == PF_MM_TILE && m->tform == PF_TF_PIPE) {   /* the user's own L0 tiles: Left once, Right per stage, two Acc */
            need[0] = M16 * Kp * esz;
            need[1] = Kp * m->nb * esz * m->stages;
            need[2] = M16 * m->nb * 4 * 2;
            untiled = true;
        }
        if (m->style == PF_MM_TILE && m->tform == PF_TF_CHAIN) {   /* the second matmul's FP16 operands too */
            int64_t n1 = (m->n1 + 15) / 16 * 16;
            if (M16 * n1 * 2 > need[0]) need[0] = M16 * n1 * 2;
            if (n1 * N16 * 2 > need[1]) need[1] = n1 * N16 * 2;
        }
        for (int i = 0; i < 3; i++) {
            if (untiled && need[i] * c->stages > cap[i] * 3 / 4) fail(c, "%suntiled matmul (K %lld) does not fit L0", "", m->K);
            c->untiled[i] += (need[i] < cap[i] ? need[i] : cap[i]) * c->stages;
            if (c->untiled[i] > cap[i]) fail(c, "%sthe matmuls of a region (K %lld) overfill L0", "", m->K);
        }
    }
    if (c->region >= 0) {
        /* no matmul reads what its region writes: an FP32 chain through GM inside one kernel drifts
         * beyond the FP32 tolerance by accumulation order alone (docs/fuzzing.md) */
        for (int i = 0; i < c->nregion_writes; i++)
            if (c->region_writes[i] == m->a || c->region_writes[i] == m->b || (bias >= 0 && c->region_writes[i] == bias))
                fail(c, "%sa region reads tensor %lld it writes", "", c->region_writes[i]);
        if (c->device_loops && (m->a == m->dst || m->b == m->dst))
            fail(c, "%sa matmul in a loop reads tensor %lld it writes", "", m->dst);
        if (c->nregion_writes < PF_MAX_STMTS) c->region_writes[c->nregion_writes++] = m->dst;
    }
}

/* A vector block: its loads read what earlier statements produced, its stores write in bounds, a
 * local's first store covers it whole, the region's blocks fit Vec (times the pl.pipeline stages). */
static void check_vec(Check *c, int si) {
    PfProgram *p = c->p;
    const PfVec *v = &p->vec[p->st[si].vec];
    if (c->region < 0) { fail(c, "%svector block outside pl.at (%lld)", "", 0); return; }
    if (p->form == PF_FORM_PROGRAM && v->tensor_level) { fail(c, "%sprinted form with a tensor-level vector block %lld", "", si); return; }
    if (v->nn < 1 || v->nn > PF_MAX_VNODES || v->ns < 1 || v->ns > PF_MAX_VSTORES || v->R < 1 || v->C < 1) {
        fail(c, "%sbad vector block %lld", "", si);
        return;
    }
    for (int k = 0; k < v->nn && c->ok; k++) {
        const PfVNode *n = &v->n[k];
        if (n->kvar >= 0 && (n->kvar >= p->nvars || !c->vis[(int)n->kvar])) fail(c, "%sscalar variable i%lld not in scope", "", n->kvar);
        if (n->kread > 0 && !p->features.on[PF_F_VEC_READ]) fail(c, "%san element read as a scalar operand (vec_read) at node %lld", "", k);
        if (n->kvar >= 0 && c->pipe_var[(int)n->kvar] && !p->features.on[PF_F_VEC_SCALAR_PIPE])
            fail(c, "%sa pl.pipeline variable i%lld as a scalar operand (vec_scalar_pipe)", "", n->kvar);
        if (n->op != PF_V_LOAD) continue;
        int t = n->tensor;
        if (t < 0 || t >= p->ntensors) { fail(c, "%sbad load tensor %lld", "", t); return; }
        if (p->t[t].dir == PF_OUT) fail(c, "%sreads an Out parameter %lld", "", t);
        if (p->t[t].dir == PF_LOCAL && !c->produced[t]) fail(c, "%sreads local %lld before it is written", "", t);
        for (int i = 0; i < c->nregion_writes; i++)
            if (c->region_writes[i] == t) fail(c, "%sa region reads tensor %lld it writes", "", t);
        c->ever_read[t] = true;
        c->nz_misaligned[t] = true;                      /* vector loads are ND */
        access(c, t, n->r, n->c, pf_vshape_rows(v, n->shape), pf_vshape_cols(v, n->shape), false);
    }
    for (int i = 0; i < v->ns && c->ok; i++) {
        const PfVStore *st = &v->s[i];
        int t = st->tensor, k = st->node;
        if (t < 0 || t >= p->ntensors || k < 0 || k >= v->nn) { fail(c, "%sbad store %lld", "", i); return; }
        const PfVNode *n = &v->n[k];
        /* y[..] = x[..] inside pl.at: "a tensor slice inside pl.at must feed a matmul operand or a vector op" */
        if (n->op == PF_V_LOAD && v->tensor_level) fail(c, "%sa tensor-level block stores a slice as it is %lld", "", k);
        if (p->t[t].dir == PF_IN) fail(c, "%swrites an In parameter %lld", "", t);
        if (p->t[t].dt != n->dt) fail(c, "%sstore dtype differs from tensor %lld", "", t);
        int64_t rows = pf_vshape_rows(v, n->shape), cols = pf_vshape_cols(v, n->shape);
        if (p->t[t].dir == PF_LOCAL && !c->produced[t]) {
            PfTensor *tt = &p->t[t];
            bool full = st->r.var < 0 && st->c.var < 0 && st->r.konst == 0 && st->c.konst == 0 && rows == tt->rows && cols == tt->cols;
            if (!full || c->conditional || c->manual >= 0) fail(c, "%slocal %lld first written partially", "", t);
            c->produced[t] = true;
        }
        c->ever_written[t] = true;
        if (c->region_of_write[t] == -1) c->region_of_write[t] = c->region;
        else if (c->region_of_write[t] != c->region) c->region_of_write[t] = -2;
        access(c, t, st->r, st->c, rows, cols, true);
        if (c->nregion_writes < PF_MAX_STMTS) c->region_writes[c->nregion_writes++] = t;
    }
    c->vbytes += pf_vec_bytes(v) * c->stages;
    if (c->vbytes > pf_vec_capacity(p)) fail(c, "%sthe vector blocks of a region overfill Vec (%lld bytes)", "", c->vbytes);
}

/* A mixed region (progfuzz_mix.c): top level, its own rules, its accesses sized like a region's. */
static void check_mix(Check *c, int si) {
    PfProgram *p = c->p;
    PfMix *m = &p->st[si].mix;
    const char *why = NULL;
    if (c->region >= 0 || c->conditional || c->manual >= 0 || p->form != PF_FORM_JIT) {
        fail(c, "%sa mixed region not at the top level of the user form %lld", "", si);
        return;
    }
    if (!pf_mix_check(p, m, &why)) { fail(c, "%s (%lld)", why, si); return; }
    int64_t trips = m->trips ? m->trips : 1;
    PfOff k0 = { -1, 0, 0 };
    c->region = si;
    int64_t rows = m->blocks && !m->atomic_k ? m->blocks : 1, kb = m->atomic_k ? m->blocks : 1;   /* SPMD blocks */
    access(c, m->a, (PfOff){ -1, 0, m->ar }, k0, m->M * rows, m->K * kb, false);
    access(c, m->b, k0, (PfOff){ -1, 0, m->bc }, m->K * kb, m->N * trips, false);
    if (m->bias >= 0) access(c, m->bias, k0, k0, m->M, m->N, false);
    if (m->w2 >= 0) access(c, m->w2, k0, k0, m->N * trips, m->N2, false);
    access(c, m->out, (PfOff){ -1, 0, m->orow }, (PfOff){ -1, 0, m->ocol }, m->M * rows, pf_mix_out_cols(m), true);
    c->region = -1;
    int ts[] = { m->a, m->b, m->bias, m->w2 };
    for (int i = 0; i < 4; i++) if (ts[i] >= 0) c->ever_read[ts[i]] = true;
    c->ever_written[m->out] = true;
}

static void check_stmt(Check *c, int si) {
    PfProgram *p = c->p;
    PfStmt *s = &p->st[si];
    bool save_cond = c->conditional;
    switch (s->kind) {
    case PF_S_MM: check_mm(c, &s->mm); break;
    case PF_S_VEC: check_vec(c, si); break;
    case PF_S_MIX: check_mix(c, si); break;
    case PF_S_FOR: {
        PfVar *v = &p->v[s->var];
        if (v->step < 1 || v->stop <= v->start) { fail(c, "%sempty loop i%lld", "", s->var); break; }
        c->vmin[s->var] = v->start;
        c->vmax[s->var] = var_last(v);
        c->vis[s->var] = true;
        c->conditional = true;
        int64_t save_stages = c->stages;
        if (s->loop == PF_LOOP_PIPELINE) c->stages *= 2;
        c->pipe_var[s->var] = s->loop == PF_LOOP_PIPELINE;
        if (c->region >= 0) c->device_loops++;
        if (s->loop == PF_LOOP_PARALLEL) {
            Uses u = { 0 };
            collect(p, si, &u);
            for (int t = 0; t < p->ntensors; t++) {
                if (u.wr[t] && u.rd[t]) fail(c, "%sparallel loop reads tensor %lld it writes", "", t);
                if (u.nplain[t] > 1) fail(c, "%sparallel loop writes tensor %lld twice", "", t);
                if (u.nplain[t] && u.natomic[t]) fail(c, "%sparallel loop mixes plain and atomic writes of %lld", "", t);
            }
            check_parallel_writes(c, si, s->var);
        }
        check_block(c, s->body, s->nbody);
        c->vis[s->var] = false;
        c->stages = save_stages;
        if (c->region >= 0) c->device_loops--;
        break;
    }
    case PF_S_IF:
        if (s->cond_var < 0 || !c->vis[s->cond_var]) { fail(c, "%sif on a variable not in scope %lld", "", s->cond_var); break; }
        c->conditional = true;
        check_block(c, s->body, s->nbody);
        check_block(c, s->orelse, s->nelse);
        break;
    case PF_S_AT: {
        if (c->region >= 0) { fail(c, "%snested pl.at %lld", "", si); break; }
        c->region = si;
        c->untiled[0] = c->untiled[1] = c->untiled[2] = 0;
        c->nregion_writes = 0;
        c->vbytes = 0;
        check_block(c, s->body, s->nbody);
        c->region = -1;
        {
            /* a vector region never reads a tensor it writes (in a loop the next iteration would) */
            Uses u = { 0 };
            collect(p, si, &u);
            bool has_vec = false, has_mm = false;
            region_kinds(p, si, &has_vec, &has_mm);
            if (has_vec && has_mm) fail(c, "%sa region mixes matmuls and vector blocks %lld", "", si);
            for (int t = 0; has_vec && t < p->ntensors; t++)
                if (u.rd[t] && u.wr[t]) fail(c, "%sa vector region reads and writes tensor %lld", "", t);
        }
        if (p->form == PF_FORM_PROGRAM) {
            Uses u = { 0 };
            int nw = 0;
            collect(p, si, &u);
            for (int t = 0; t < p->ntensors; t++) nw += u.wr[t];
            if (nw != 1) fail(c, "%sa printed-form kernel writes %lld tensors", "", nw);
            for (int i = 0; i < s->nbody; i++)
                if (p->st[s->body[i]].kind == PF_S_MM && p->st[s->body[i]].mm.style != PF_MM_TILE)
                    fail(c, "%sprinted form with a tensor-level matmul %lld", "", 0);
        }
        break;
    }
    case PF_S_MANUAL:
        if (c->conditional || c->manual >= 0) { fail(c, "%smanual scope inside a loop or if %lld", "", si); break; }
        c->manual = si;
        check_block(c, s->body, s->nbody);
        c->manual = -1;
        break;
    }
    c->conditional = save_cond;
}

/* Manual scopes: a region's tensors are private to it, except reads of never-written tensors and
 * dependencies declared with deps=. */
static void check_manual(Check *c, int si) {
    PfProgram *p = c->p;
    const PfStmt *s = &p->st[si];
    for (int i = 0; i < s->nbody; i++) {
        const PfStmt *ri = &p->st[s->body[i]];
        if (ri->kind != PF_S_AT) { fail(c, "%snon-region in a manual scope %lld", "", 0); return; }
        Uses u = { 0 };
        collect(p, s->body[i], &u);
        for (int t = 0; t < p->ntensors; t++) {
            if (!u.wr[t]) continue;
            if (c->region_of_write[t] != s->body[i]) { fail(c, "%smanual-scope tensor %lld written elsewhere", "", t); return; }
            /* who else reads it? only later regions of this scope that depend on this one */
            for (int j = 0; j < s->nbody; j++) {
                if (j == i) continue;
                Uses u2 = { 0 };
                collect(p, s->body[j], &u2);
                if (!u2.rd[t] && !u2.wr[t]) continue;
                const PfStmt *rj = &p->st[s->body[j]];
                bool dep = false;
                for (int d = 0; d < rj->ndeps; d++) dep |= rj->deps[d] == s->body[i];
                if (j < i || !dep) { fail(c, "%smanual-scope regions share tensor %lld without deps", "", t); return; }
            }
        }
        for (int d = 0; d < ri->ndeps; d++) {
            int dj = -1;
            for (int j = 0; j < i; j++) if (s->body[j] == ri->deps[d]) dj = j;
            if (dj < 0 || p->st[ri->deps[d]].tid < 0) { fail(c, "%sdeps on a region %lld not earlier in the scope", "", 0); return; }
        }
    }
}

/* Tensors touched by a manual scope are not touched outside it (except never-written reads) — nor
 * by another manual scope: a scope is not a barrier (spec runtime.md §6), and tasks of a manual
 * scope record no tensors for later tasks to find. */
static void check_manual_isolation(Check *c) {
    PfProgram *p = c->p;
    for (int m = 0; m < p->ntop; m++) {
        if (p->st[p->top[m]].kind != PF_S_MANUAL) continue;
        Uses in = { 0 }, out = { 0 };
        for (int i = 0; i < p->ntop; i++) collect(p, p->top[i], i == m ? &in : &out);
        for (int t = 0; t < p->ntensors; t++) {
            if (in.wr[t] && (out.rd[t] || out.wr[t])) fail(c, "%smanual-scope output %lld used outside", "", t);
            if (in.rd[t] && out.wr[t]) fail(c, "%smanual-scope input %lld written outside", "", t);
        }
    }
}

/* Write after read across regions (feature WAR): region B writes what region A != B read, with A
 * before B in program order or both in one loop (a later iteration of B follows A). */
typedef struct RegionAt { int stmt, order, nloops, loops[PF_MAX_VARS]; } RegionAt;

static void find_regions(const PfProgram *p, int si, int *loops, int nloops, RegionAt *out, int *n) {
    const PfStmt *s = &p->st[si];
    if (s->kind == PF_S_AT || s->kind == PF_S_MIX) {
        RegionAt r = { si, *n, nloops, { 0 } };
        memcpy(r.loops, loops, sizeof(int) * (size_t)nloops);
        out[(*n)++] = r;
        return;
    }
    if (s->kind == PF_S_FOR && nloops < PF_MAX_VARS) loops[nloops++] = si;
    for (int i = 0; i < s->nbody; i++) find_regions(p, s->body[i], loops, nloops, out, n);
    for (int i = 0; i < s->nelse; i++) find_regions(p, s->orelse[i], loops, nloops, out, n);
}

static bool share_loop(const RegionAt *a, const RegionAt *b) {
    return a->nloops > 0 && b->nloops > 0 && a->loops[0] == b->loops[0];
}

static void check_war(Check *c) {
    const PfProgram *p = c->p;
    RegionAt rs[PF_MAX_STMTS];
    int n = 0, loops[PF_MAX_VARS];
    for (int i = 0; i < p->ntop; i++) find_regions(p, p->top[i], loops, 0, rs, &n);
    for (int a = 0; a < n; a++) {
        Uses ua = { 0 };
        collect(p, rs[a].stmt, &ua);
        for (int b = 0; b < n; b++) {
            if (a == b || !(rs[a].order < rs[b].order || share_loop(&rs[a], &rs[b]))) continue;
            Uses ub = { 0 };
            collect(p, rs[b].stmt, &ub);
            for (int t = 0; t < p->ntensors; t++)
                if (ua.rd[t] && ub.wr[t]) fail(c, "%sa region writes tensor %lld that an earlier region read", "", t);
        }
    }
}

/* No feedback through a loop: inside one outermost loop, no tensor's new value may depend on its
 * old one (an MM reading r and writing w is an edge w <- r; a cycle is feedback). Values then grow
 * geometrically and FP32 accumulation-order differences outgrow the FP32 tolerance (1e-4). */
static void loop_edges(const PfProgram *p, int si, bool dep[PF_MAX_TENSORS][PF_MAX_TENSORS]) {
    const PfStmt *s = &p->st[si];
    if (s->kind == PF_S_MIX) {
        const PfMix *m = &s->mix;
        int ts[] = { m->a, m->b, m->bias, m->w2 };
        for (int i = 0; i < 4; i++) if (ts[i] >= 0) dep[m->out][ts[i]] = true;
        return;
    }
    if (s->kind == PF_S_VEC) {
        const PfVec *v = &p->vec[s->vec];
        for (int i = 0; i < v->ns; i++)
            for (int k = 0; k < v->nn; k++)
                if (v->n[k].op == PF_V_LOAD) dep[(int)v->s[i].tensor][(int)v->n[k].tensor] = true;
        return;
    }
    if (s->kind == PF_S_MM) {
        dep[s->mm.dst][s->mm.a] = dep[s->mm.dst][s->mm.b] = true;
        int64_t er, ec;
        if (pf_mm_extra(&s->mm, &er, &ec) >= 0) dep[s->mm.dst][s->mm.bias] = true;
        return;
    }
    for (int i = 0; i < s->nbody; i++) loop_edges(p, s->body[i], dep);
    for (int i = 0; i < s->nelse; i++) loop_edges(p, s->orelse[i], dep);
}

static void check_feedback(Check *c, int si) {
    const PfProgram *p = c->p;
    const PfStmt *s = &p->st[si];
    if (s->kind == PF_S_MM || s->kind == PF_S_VEC || s->kind == PF_S_MIX) return;
    if (s->kind != PF_S_FOR) {
        for (int i = 0; i < s->nbody; i++) check_feedback(c, s->body[i]);
        for (int i = 0; i < s->nelse; i++) check_feedback(c, s->orelse[i]);
        return;
    }
    bool dep[PF_MAX_TENSORS][PF_MAX_TENSORS];
    memset(dep, 0, sizeof dep);
    loop_edges(p, si, dep);
    int n = p->ntensors;
    for (int k = 0; k < n; k++)
        for (int i = 0; i < n; i++)
            for (int j = 0; j < n; j++)
                if (dep[i][k] && dep[k][j]) dep[i][j] = true;
    for (int t = 0; t < n; t++) if (dep[t][t]) fail(c, "%sfeedback through tensor %lld in a loop", "", t);
}

/* Value ranges (progfuzz_vec.c): what each tensor holds is its initial contents plus everything
 * written to it anywhere (flow-insensitive, iterated to a fixpoint: without WAR every write of a
 * tensor precedes its reads, so this is what the generator saw). Every vector node must stay in its
 * op's domain and in its dtype's limits; a matmul operand written by a vector block stays within
 * PF_MM_OPERAND_MAX. */
typedef struct RangeWalk {
    const PfProgram *p;
    PfRange tr[PF_MAX_TENSORS], next[PF_MAX_TENSORS];
    bool vec_written[PF_MAX_TENSORS];
    int64_t vmin[PF_MAX_VARS], vmax[PF_MAX_VARS];
    const char *why;
} RangeWalk;

static void range_stmt(RangeWalk *w, int si) {
    const PfProgram *p = w->p;
    const PfStmt *s = &p->st[si];
    if (s->kind == PF_S_MM) {
        const PfMM *m = &s->mm;
        for (int k = 0; k < 2; k++) {
            int t = k ? m->b : m->a;
            PfRange r = w->tr[t];
            if (w->vec_written[t] && m->in_dt != DT_INT8 && (r.lo < -PF_MM_OPERAND_MAX || r.hi > PF_MM_OPERAND_MAX) && !w->why)
                w->why = "a matmul operand written by a vector block is too large";
        }
        pf_range_union(&w->next[m->dst], pf_mm_range(m, w->tr[m->a], w->tr[m->b]));
        return;
    }
    if (s->kind == PF_S_MIX) {
        pf_range_union(&w->next[s->mix.out], (PfRange){ s->mix.lo, s->mix.hi, true });
        return;
    }
    if (s->kind == PF_S_VEC) {
        const PfVec *v = &p->vec[s->vec];
        PfRange nodes[PF_MAX_VNODES];
        const char *why = NULL;
        for (int k = 0; k < v->nn; k++)
            if (!pf_vnode_range(p, v, k, nodes, w->tr, w->vmin, w->vmax, &nodes[k], &why)) {
                if (!w->why) w->why = why;
                return;
            }
        for (int i = 0; i < v->ns; i++) {
            pf_range_union(&w->next[(int)v->s[i].tensor], nodes[(int)v->s[i].node]);
            w->vec_written[(int)v->s[i].tensor] = true;
        }
        return;
    }
    if (s->kind == PF_S_FOR) {
        const PfVar *v = &p->v[s->var];
        w->vmin[s->var] = v->start;
        w->vmax[s->var] = var_last(v);
    }
    for (int i = 0; i < s->nbody; i++) range_stmt(w, s->body[i]);
    for (int i = 0; i < s->nelse; i++) range_stmt(w, s->orelse[i]);
}

static void check_ranges(Check *c) {
    const PfProgram *p = c->p;
    RangeWalk w = { .p = p };
    for (int t = 0; t < p->ntensors; t++) w.tr[t] = pf_initial_range(p->t[t].dt, p->t[t].dir);
    for (int iter = 0; iter < 8; iter++) {
        memcpy(w.next, w.tr, sizeof w.next);
        w.why = NULL;
        for (int i = 0; i < p->ntop; i++) range_stmt(&w, p->top[i]);
        bool same = true;
        for (int t = 0; t < p->ntensors; t++)
            same &= w.next[t].lo == w.tr[t].lo && w.next[t].hi == w.tr[t].hi && w.next[t].approx == w.tr[t].approx;
        if (same) {
            if (w.why) fail(c, "%s (%lld)", w.why, 0);
            return;
        }
        memcpy(w.tr, w.next, sizeof w.tr);
    }
    fail(c, "%svalue ranges do not converge %lld", "", 0);
}

bool pf_finalize(PfProgram *p, char *why, size_t whylen) {
    Check c = { .p = p, .why = why, .whylen = whylen, .ok = true, .manual = -1, .region = -1, .stages = 1 };
    for (int t = 0; t < PF_MAX_TENSORS; t++) c.region_of_write[t] = -1;
    snprintf(why, whylen, "ok");
    check_block(&c, p->top, p->ntop);
    for (int i = 0; c.ok && i < p->ntop; i++)
        if (p->st[p->top[i]].kind == PF_S_MANUAL) check_manual(&c, p->top[i]);
    if (c.ok) check_manual_isolation(&c);
    if (c.ok && !p->features.on[PF_F_WAR]) check_war(&c);
    if (c.ok && p->nvec) check_ranges(&c);
    for (int i = 0; c.ok && i < p->ntop; i++) check_feedback(&c, p->top[i]);
    if (!c.ok) return false;
    bool any_out = false;
    for (int t = 0; t < p->ntensors; t++) {
        PfTensor *tt = &p->t[t];
        tt->accessed = c.need_r[t] > 0;
        if (!tt->fixed) {
            tt->rows = c.need_r[t] ? c.need_r[t] + tt->pad_r : 0;
            tt->cols = c.need_c[t] ? c.need_c[t] + tt->pad_c : 0;
        }
        if (c.nz_misaligned[t]) tt->nz = false;         /* an ND input then */
        if (tt->nz) {                                   /* whole fractals */
            int64_t c0 = 32 / dtype_bytes(tt->dt);
            tt->rows = (tt->rows + 15) / 16 * 16;
            tt->cols = (tt->cols + c0 - 1) / c0 * c0;
        }
        if (tt->rows > 2048 || tt->cols > 2048) {
            snprintf(why, whylen, "tensor %d too large (%lld x %lld)", t, (long long)tt->rows, (long long)tt->cols);
            return false;
        }
        if ((tt->dir == PF_OUT || tt->dir == PF_INOUT) && c.ever_written[t]) any_out = true;
        if (tt->dir == PF_INOUT && !c.ever_written[t] && c.ever_read[t]) tt->dir = PF_IN;   /* an input after all */
    }
    if (!any_out) { snprintf(why, whylen, "no output is written"); return false; }
    for (int i = 0; i < p->nst; i++)
        if (p->st[i].kind == PF_S_MIX) pf_mix_round_out(p, &p->st[i].mix);
    return true;
}

static int count_mm(const PfProgram *p, int si) {
    const PfStmt *s = &p->st[si];
    int n = s->kind == PF_S_MM || s->kind == PF_S_VEC || s->kind == PF_S_MIX;
    for (int i = 0; i < s->nbody; i++) n += count_mm(p, s->body[i]);
    for (int i = 0; i < s->nelse; i++) n += count_mm(p, s->orelse[i]);
    return n;
}

int pf_count_mm(const PfProgram *p) {
    int n = 0;
    for (int i = 0; i < p->ntop; i++) n += count_mm(p, p->top[i]);
    return n;
}
