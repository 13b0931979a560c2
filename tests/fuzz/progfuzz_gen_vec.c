/* progfuzz_gen_vec — the generator of vector blocks (docs/fuzzing.md "Vector blocks").
 *
 * Requires: the generator's state (progfuzz_gen.h: the region, the loop variables in scope, the
 *           tensors' value ranges) and the op table of progfuzz_vec.c.
 * Produces: a PF_S_VEC statement: loads of tensor windows, a chain / DAG of vector ops, and one to
 *           three stores, every node checked by pf_vnode_range as it is added.
 * Does:     draws ops from the table by weight (only those whose feature is on), picks operands of
 *           the right shape and dtype (making them when there are none: a new load, a fill, a cast),
 *           and keeps values meaningful: an operand outside an op's domain is first made positive
 *           (abs + a positive constant, or exp of a clamped value), a value whose magnitude grows
 *           is clamped back (maximum / minimum with constants), an integer cast's input is clamped
 *           into the target's range. The block's Vec bytes, times the stages of an enclosing
 *           pl.pipeline, stay within what the region has left of the Vec capacity. */
#include <math.h>
#include <string.h>

#include "progfuzz_gen.h"

typedef struct VGen {
    Gen *g;
    PfVec *v;
    PfRange r[PF_MAX_VNODES];
    int64_t budget;                 /* Vec bytes the block may use */
    int block_var;
    int64_t vmin[PF_MAX_VARS], vmax[PF_MAX_VARS];
    unsigned dts;                   /* element types allowed (PF_VDT_*) */
} VGen;

static const DType all_dts[] = { DT_FP32, DT_FP16, DT_BF16, DT_INT32, DT_INT16, DT_INT8 };

static int64_t var_last(const PfVar *v) { return v->start + (v->stop - 1 - v->start) / v->step * v->step; }

static DType pick_vdt(VGen *x, unsigned allowed) {
    DType c[8];
    int n = 0;
    for (int i = 0; i < 6; i++) {
        unsigned bit = pf_vdt_bit(all_dts[i]);
        if (!(allowed & x->dts & bit)) continue;
        c[n++] = all_dts[i];
        if (all_dts[i] == DT_FP32) c[n++] = DT_FP32;      /* FP32 twice as likely */
    }
    return n ? c[pf_rint(x->g, n)] : DT_NONE;
}

/* Appends node n when its range is valid and the block still fits; its index, or -1. */
static int add(VGen *x, PfVNode n) {
    PfVec *v = x->v;
    if (v->nn >= PF_MAX_VNODES) return -1;
    v->n[v->nn] = n;
    const char *why;
    PfRange r;
    if (!pf_vnode_range(x->g->p, v, v->nn, x->r, x->g->tr, x->vmin, x->vmax, &r, &why)) return -1;
    v->nn++;
    if (pf_vec_bytes(v) > x->budget) { v->nn--; return -1; }
    x->r[v->nn - 1] = r;
    return v->nn - 1;
}

static PfVNode node(int op, DType dt, int shape, int a, int b) {
    PfVNode n;
    memset(&n, 0, sizeof n);
    n.op = (int8_t)op;
    n.dt = (int8_t)dt;
    n.shape = (int8_t)shape;
    n.a = (int8_t)a;
    n.b = (int8_t)b;
    n.tensor = -1;
    n.kvar = -1;
    n.r = n.c = (PfOff){ -1, 0, 0 };
    return n;
}

static int scalar_op(VGen *x, int op, int a, double k) {
    PfVNode n = node(op, (DType)x->v->n[a].dt, x->v->n[a].shape, a, -1);
    n.k = k;
    return add(x, n);
}

/* a clamped to [-c, c] (maximum then minimum with constants, sometimes the other order) */
static int clamp(VGen *x, int a, double c) {
    bool fl = dtype_is_float((DType)x->v->n[a].dt);
    if (!fl) c = floor(c);
    bool first_max = pf_chance(x->g, 70);
    int b = scalar_op(x, first_max ? PF_V_MAXS : PF_V_MINS, a, first_max ? -c : c);
    if (b < 0) return -1;
    return scalar_op(x, first_max ? PF_V_MINS : PF_V_MAXS, b, first_max ? c : -c);
}

static double mag(PfRange r) { return fmax(fabs(r.lo), fabs(r.hi)); }
static double pick_const(VGen *x, DType dt);

static bool is_partial(const PfVec *v, int k) {
    int64_t vr, vc;
    pf_vvalid(v, k, &vr, &vc);
    return vr < pf_vshape_rows(v, v->n[k].shape) || vc < pf_vshape_cols(v, v->n[k].shape);
}

/* a made positive (>= 0.5): abs(a) + c, exp of a clamp, or relu(a) + c */
static int positive(VGen *x, int a) {
    DType dt = (DType)x->v->n[a].dt;
    if (x->r[a].lo >= 0.5) return a;
    int w = (int)pf_rint(x->g, 3), b = -1;
    double c = PICK(x->g, ((double[]){ 0.5, 1, 2, 1.5 }));
    if (!dtype_is_float(dt)) c = ceil(c);
    if (w == 0 && on(x->g, PF_F_VEC_MATH) && dtype_is_float(dt) && !x->r[a].approx) {
        b = mag(x->r[a]) > 4 ? clamp(x, a, 2) : a;
        if (b >= 0) b = add(x, node(PF_V_EXP, dt, x->v->n[a].shape, b, -1));
        if (b >= 0 && x->r[b].lo >= 0.01) return b;
    }
    if (mag(x->r[a]) > pf_vdt_limit(dt) / 4) a = clamp(x, a, 4);
    if (a < 0) return -1;
    int opu = w == 2 || !on(x->g, PF_F_VEC_MATH) ? PF_V_RELU : PF_V_ABS;
    if (!on(x->g, PF_F_VEC_MATH)) {                 /* no abs / relu: maximum with a positive constant */
        return scalar_op(x, PF_V_MAXS, a, c);
    }
    b = add(x, node(opu, dt, x->v->n[a].shape, a, -1));
    return b < 0 ? -1 : scalar_op(x, PF_V_ADDS, b, c);
}

/* ---- operands ---- */

static bool readable(Gen *g, int t) {
    const PfTensor *tt = &g->p->t[t];
    if (tt->dir == PF_OUT || g->region_wr[t]) return false;
    if (tt->dir == PF_INOUT && !on(g, PF_F_INOUT)) return false;
    if (g->tr[t].lo > g->tr[t].hi) return false;       /* nothing written yet */
    if (g->p->form == PF_FORM_PROGRAM && t == g->region_dst) return false;
    return true;
}

/* A load of a [rows, cols] window of a tensor of dtype dt (an existing readable one or a new In
 * parameter); a partial load at the tile level gets its fillpad (and the reduction that drops
 * infinite pads). */
static int gen_load(VGen *x, DType dt, int shape) {
    Gen *g = x->g;
    PfProgram *p = g->p;
    PfVec *v = x->v;
    int64_t rows = pf_vshape_rows(v, shape), cols = pf_vshape_cols(v, shape);
    int cands[PF_MAX_TENSORS], n = 0, mm_cands[PF_MAX_TENSORS], nmm = 0;
    for (int t = 0; t < p->ntensors; t++) {
        const PfTensor *tt = &p->t[t];
        if (tt->dt != dt || !readable(g, t)) continue;
        if (tt->fixed && (tt->rows < rows || tt->cols < cols)) continue;
        if (tt->nz) continue;
        cands[n++] = t;
        if (g->tr[t].approx || (!g->vec_written[t] && tt->dir == PF_LOCAL)) mm_cands[nmm++] = t;
    }
    int t, pt = g->prefer_tensor;
    if (pt >= 0 && p->t[pt].dt == dt && p->t[pt].rows >= rows && p->t[pt].cols >= cols && readable(g, pt)) t = pt;
    else if (nmm && on(g, PF_F_VEC_MIX) && pf_chance(g, 60)) t = mm_cands[pf_rint(g, nmm)];
    else if (n && pf_chance(g, 40)) t = cands[pf_rint(g, n)];
    else t = pf_new_tensor(g, dt, PF_IN);
    if (t < 0) return -1;
    if (p->t[t].dir == PF_IN) p->t[t].nz = false;         /* vector loads are ND */
    PfVNode ld = node(PF_V_LOAD, dt, shape, -1, -1);
    ld.tensor = (int8_t)t;
    if (p->t[t].fixed) {
        ld.r.konst = pf_rint(g, p->t[t].rows - rows + 1);
        ld.c.konst = pf_rint(g, p->t[t].cols - cols + 1);
        if (pf_chance(g, 70)) ld.r.konst = ld.c.konst = 0;
    } else {
        ld.r = pf_gen_off(g, rows, x->block_var);
        ld.c = pf_gen_off(g, cols, -1);
    }
    bool partial = !v->tensor_level && shape == PF_VSH_FULL && on(g, PF_F_VEC_FILL) && pf_chance(g, 15);
    if (partial) {
        if (v->R > 1 && pf_chance(g, 40)) ld.vr = (int16_t)(1 + pf_rint(g, v->R - 1));
        if (!ld.vr || pf_chance(g, 50)) ld.vc = (int16_t)(1 + pf_rint(g, v->C - 1));
    }
    int li = add(x, ld);
    if (li < 0 || !partial) return li;
    /* elementwise work on the partially valid tile first (valid extents carry through, a sink of it
     * is stored partially), then fillpad */
    int src = li;
    for (int i = 0, n_el = (int)pf_rint(g, 3); i < n_el; i++) {
        static const int els[] = { PF_V_ABS, PF_V_NEG, PF_V_ADDS, PF_V_MULS, PF_V_MAXS, PF_V_EXP, PF_V_RELU };
        int op = PICK(g, els);
        if (!on(g, pf_vop(op)->feature) || !(pf_vop(op)->dtypes & pf_vdt_bit(dt))) continue;
        if (op == PF_V_EXP && mag(x->r[src]) > 4) continue;
        PfVNode e = node(op, dt, shape, src, -1);
        e.k = pick_const(x, dt);
        int ei = add(x, e);
        if (ei >= 0 && pf_chance(g, 25)) {                        /* a partially valid sink, stored */
            PfVNode e2 = node(PF_V_ADDS, dt, shape, ei, -1);
            e2.k = dtype_is_float(dt) ? 0.5 : 1;
            add(x, e2);
        }
        if (ei >= 0) src = ei;
    }
    PfVNode fp = node(PF_V_FILLPAD, dt, shape, src, -1);
    fp.mode = (int8_t)pf_rint(g, 3);
    int fi = add(x, fp);
    if (fi < 0) { v->nn = li; return -1; }
    if (fp.mode == 0) return fi;
    /* pad max / min: the matching reduction along the padded axis drops the infinite cells */
    bool row = ld.vr == 0;
    (void)src;
    int op = row ? (fp.mode == 2 ? PF_V_ROW_MAX : PF_V_ROW_MIN) : (fp.mode == 2 ? PF_V_COL_MAX : PF_V_COL_MIN);
    int ri = -1;
    if (on(g, PF_F_VEC_REDUCE) && (row || !ld.vc)) {
        PfVNode rd = node(op, dt, row ? PF_VSH_ROW : PF_VSH_COL, fi, -1);
        if (!row && pf_chance(g, 30)) rd.form |= PF_VF_TMP;
        ri = add(x, rd);
    }
    if (ri < 0) { v->nn = li; return -1; }
    return ri;
}

static bool used(const PfVec *v, int k) {
    for (int i = k + 1; i < v->nn; i++) if (v->n[i].a == k || v->n[i].b == k || v->n[i].kread == k + 1) return true;
    return false;
}

/* An existing value of this shape (and dtype, unless DT_NONE), preferring recent and unused ones
 * (so the block is a connected computation rather than dead code); -1 none. */
static int find_value(VGen *x, int shape, DType dt, bool allow_approx) {
    PfVec *v = x->v;
    int c[PF_MAX_VNODES * 5], n = 0;
    for (int k = 0; k < v->nn; k++) {
        const PfVNode *nd = &v->n[k];
        if (nd->shape != shape || (dt != DT_NONE && nd->dt != dt)) continue;
        if (is_partial(v, k)) continue;
        if (isinf(x->r[k].lo) || isinf(x->r[k].hi)) continue;
        if (x->r[k].approx && !allow_approx) continue;
        c[n++] = k;
        if (k >= v->nn - 2) c[n++] = k, c[n++] = k;    /* the latest values three times as likely */
        if (!used(v, k)) c[n++] = k, c[n++] = k;
    }
    return n ? c[pf_rint(x->g, n)] : -1;
}

/* A value of this shape and dtype: an existing one, a cast of one, a fill, a new load, or (for an
 * [R, 1] value) a row reduction. */
static int operand(VGen *x, int shape, DType dt, bool allow_approx) {
    Gen *g = x->g;
    int k = pf_chance(g, 85) ? find_value(x, shape, dt, allow_approx) : -1;
    if (k >= 0) return k;
    if (on(g, PF_F_VEC_CAST) && pf_chance(g, 40)) {
        int o = find_value(x, shape, DT_NONE, false);
        if (o >= 0 && x->v->n[o].dt != dt) {
            if (!dtype_is_float(dt) && mag(x->r[o]) > pf_vdt_limit(dt) / 2) o = clamp(x, o, pf_vdt_limit(dt) / 2);
            if (o >= 0) {
                PfVNode c = node(PF_V_CAST, dt, shape, o, -1);
                c.mode = (int8_t)pf_rint(g, 8) - 1;
                int ci = add(x, c);
                if (ci >= 0) return ci;
            }
        }
    }
    if (on(g, PF_F_VEC_FILL) && shape != PF_VSH_ROW && pf_chance(g, 15)) {
        PfVNode f = node(PF_V_FULL, dt, shape, -1, -1);
        f.k = dtype_is_float(dt) ? PICK(g, ((double[]){ 0.5, 1.5, -2, 0.25, 3 })) : PICK(g, ((double[]){ 1, 2, -3, 5 }));
        int fi = add(x, f);
        if (fi >= 0) return fi;
    }
    if (shape == PF_VSH_ROW) {                    /* [R, 1] values come from row reductions */
        static const int rops[] = { PF_V_ROW_MAX, PF_V_ROW_SUM, PF_V_ROW_MIN, PF_V_ROW_MAX };
        int op = PICK(g, rops);
        if (!on(g, PF_F_VEC_REDUCE) || !(pf_vop(op)->dtypes & pf_vdt_bit(dt))) return -1;
        int a = operand(x, PF_VSH_FULL, dt, allow_approx);
        if (a < 0) return -1;
        if (op == PF_V_ROW_SUM && mag(x->r[a]) * (double)x->v->C > pf_vdt_limit(dt) / 2)
            a = clamp(x, a, fmax(1, floor(pf_vdt_limit(dt) / 4 / (double)x->v->C)));
        return a < 0 ? -1 : add(x, node(op, dt, PF_VSH_ROW, a, -1));
    }
    return gen_load(x, dt, shape);
}

/* A loop variable in scope for a scalar operand; -1 none (a pl.pipeline variable only with
 * vec_scalar_pipe: tests/fuzz/found/pipeline_folded_index_scalar_roundtrip.py). */
/* The scalar of node n becomes an element of an earlier exact value of n's dtype, inside its valid
 * region: a read of a tile (tgetval) or of a tensor held in one; false when there is none. */
static bool element_read(VGen *x, PfVNode *n) {
    const PfVec *v = x->v;
    int c[PF_MAX_VNODES], nc = 0;
    for (int k = 0; k < v->nn; k++)
        if (v->n[k].dt == n->dt && !x->r[k].approx && isfinite(x->r[k].lo) && isfinite(x->r[k].hi)) c[nc++] = k;
    if (!nc) return false;
    int k = c[pf_rint(x->g, nc)];
    int64_t vr, vc;
    pf_vvalid(v, k, &vr, &vc);
    if (vr < 1 || vc < 1) return false;
    n->kread = (int8_t)(k + 1);
    n->kr = (int16_t)pf_rint(x->g, (int)vr);
    n->kc = (int16_t)pf_rint(x->g, (int)vc);
    n->kvar = -1;
    n->k = 0;
    return true;
}

static int scalar_var(VGen *x) {
    Gen *g = x->g;
    int c[PF_MAX_VARS], n = 0;
    for (int i = 0; i < g->nscope; i++)
        if (!g->pipe_var[g->scope[i]] || on(g, PF_F_VEC_SCALAR_PIPE)) c[n++] = g->scope[i];
    return n ? c[pf_rint(g, n)] : -1;
}

static double pick_const(VGen *x, DType dt) {
    if (dtype_is_float(dt)) return PICK(x->g, ((double[]){ 0.5, 2, -1.5, 3, 0.25, 1, -2, 0.125, 1.5, -0.75 }));
    return PICK(x->g, ((double[]){ 1, 2, 3, -2, 5, -1 }));
}

/* ---- one op ---- */

static int gen_op(VGen *x) {
    Gen *g = x->g;
    PfVec *v = x->v;
    int total = 0, pick;
    for (int op = 0; op < PF_V_NOPS; op++)
        if (on(g, pf_vop(op)->feature)) total += pf_vop(op)->weight;
    if (!total) return -1;
    int w = (int)pf_rint(g, total);
    for (pick = 0; pick < PF_V_NOPS; pick++) {
        if (!on(g, pf_vop(pick)->feature)) continue;
        if (w < pf_vop(pick)->weight) break;
        w -= pf_vop(pick)->weight;
    }
    const PfVOpInfo *oi = pf_vop(pick);
    int shape = pf_chance(g, 75) ? PF_VSH_FULL : pf_chance(g, 50) ? PF_VSH_ROW : PF_VSH_COL;
    bool approx_ok = oi->flags & PF_VOP_APPROX_OK;
    switch (oi->kind) {
    case PF_VK_FULL: {
        DType dt = pick_vdt(x, oi->dtypes);
        PfVNode f = node(pick, dt, shape == PF_VSH_ROW ? PF_VSH_FULL : shape, -1, -1);
        f.k = pick_const(x, dt);
        return add(x, f);
    }
    case PF_VK_EXPANDS: case PF_VK_FILLPAD: case PF_VK_UNARY: {
        DType dt = pick_vdt(x, oi->dtypes);
        if (dt == DT_NONE) return -1;
        if (pick == PF_V_RELU || pick == PF_V_ABS || pick == PF_V_NEG) dt = DT_NONE;
        int a = operand(x, shape, dt == DT_NONE ? pick_vdt(x, oi->dtypes) : dt, approx_ok);
        if (a < 0) return -1;
        dt = (DType)v->n[a].dt;
        if (oi->flags & (PF_VOP_POSITIVE | PF_VOP_NONZERO) || pick == PF_V_SQRT) {
            a = positive(x, a);
            if (a < 0) return -1;
            if (pick == PF_V_RECIP && pf_chance(g, 30)) a = add(x, node(PF_V_NEG, dt, v->n[a].shape, a, -1));
            if (a < 0) return -1;
        }
        if (pick == PF_V_EXP && x->r[a].hi > (x->r[a].approx ? 2 : 8)) a = clamp(x, a, x->r[a].approx ? 2 : 4);
        if (a < 0) return -1;
        PfVNode n = node(pick, dt, v->n[a].shape, a, -1);
        if (pick == PF_V_EXPANDS) {
            n.k = pick_const(x, dt);
            if (on(g, PF_F_VEC_SCALAR) && g->nscope && pf_chance(g, 30)) n.kvar = (int8_t)scalar_var(x), n.k = 0;
            if (n.kvar < 0) n.k = pick_const(x, dt);
            if (n.kvar < 0 && on(g, PF_F_VEC_READ) && pf_chance(g, 20)) element_read(x, &n);
        }
        if (pick == PF_V_FILLPAD) n.mode = (int8_t)pf_rint(g, 3);
        return add(x, n);
    }
    case PF_VK_SCALAR: {
        DType dt = pick_vdt(x, oi->dtypes);
        int a = operand(x, shape, dt, approx_ok);
        if (a < 0) return -1;
        dt = (DType)v->n[a].dt;
        PfVNode n = node(pick, dt, v->n[a].shape, a, -1);
        n.k = pick_const(x, dt);
        if (pick == PF_V_MULS && mag(x->r[a]) > 16) n.k = PICK(g, ((double[]){ 0.125, 0.0625, -0.25 }));
        if (!dtype_is_float(dt) && pick == PF_V_MULS && mag(x->r[a]) * 5 > pf_vdt_limit(dt)) n.k = -1;
        int sv = on(g, PF_F_VEC_SCALAR) && g->nscope && pick != PF_V_DIVS && pf_chance(g, 25) ? scalar_var(x) : -1;
        if (sv >= 0) {
            n.kvar = (int8_t)sv;
            n.k = (double)pf_rint(g, 3);
        } else if (v->tensor_level && !dtype_is_float(dt) && on(g, PF_F_VEC_PROMOTE) &&
                   (pick == PF_V_ADDS || pick == PF_V_MULS) && pf_chance(g, 30)) {
            n.k = PICK(g, ((double[]){ 0.5, 2.5, -1.5 }));      /* an integer tensor with a float literal: FP32 */
            n.dt = DT_FP32;
        } else if (on(g, PF_F_VEC_READ) && pf_chance(g, 20)) {
            element_read(x, &n);
        }
        if ((oi->flags & PF_VOP_COMMUTES) && pf_chance(g, 20)) n.form |= PF_VF_SWAP;
        return add(x, n);
    }
    case PF_VK_CAST: {
        int a = operand(x, shape, pick_vdt(x, PF_VDT_ALL), false);
        if (a < 0) return -1;
        DType to = pick_vdt(x, PF_VDT_ALL & ~pf_vdt_bit((DType)v->n[a].dt));
        if (to == DT_NONE) return -1;
        if (!dtype_is_float(to) && mag(x->r[a]) > pf_vdt_limit(to) * 0.9) a = clamp(x, a, pf_vdt_limit(to) * 0.9);
        if (to == DT_FP16 && mag(x->r[a]) > pf_vdt_limit(to) * 0.9) a = clamp(x, a, 1000);
        if (a < 0) return -1;
        PfVNode n = node(pick, to, v->n[a].shape, a, -1);
        n.mode = (int8_t)pf_rint(g, 8) - 1;                    /* -1: the default mode (no mode=) */
        return add(x, n);
    }
    case PF_VK_REDUCE: {
        DType dt = pick_vdt(x, oi->dtypes);
        if (dt == DT_NONE) return -1;
        if (pf_vop_is_arg(pick)) {                        /* an INT32 index of an exact value; the tile form's tmp */
            int a = operand(x, PF_VSH_FULL, dt, false);
            if (a < 0) return -1;
            PfVNode n = node(pick, DT_INT32, oi->xname[0] == 'r' ? PF_VSH_ROW : PF_VSH_COL, a, -1);
            n.form |= PF_VF_TMP;
            return add(x, n);
        }
        int a = operand(x, PF_VSH_FULL, dt, true);
        if (a < 0) return -1;
        bool sum = pick == PF_V_ROW_SUM || pick == PF_V_COL_SUM;
        int64_t cnt = oi->xname[0] == 'r' ? v->C : v->R;
        if (sum && mag(x->r[a]) * (double)cnt > pf_vdt_limit(dt) / 2) a = clamp(x, a, fmax(1, floor(pf_vdt_limit(dt) / 4 / (double)cnt)));
        if (a < 0) return -1;
        PfVNode n = node(pick, dt, oi->xname[0] == 'r' ? PF_VSH_ROW : PF_VSH_COL, a, -1);
        if (oi->xname[0] == 'c' && pf_chance(g, 30)) n.form |= PF_VF_TMP;
        return add(x, n);
    }
    case PF_VK_EXPAND: {
        bool row = oi->xname[0] == 'r';
        DType dt = pick_vdt(x, oi->dtypes);
        if (dt == DT_NONE) return -1;
        int b = operand(x, row ? PF_VSH_ROW : PF_VSH_COL, dt, true), a = operand(x, PF_VSH_FULL, dt, true);
        if (a < 0 || b < 0) return -1;
        return add(x, node(pick, dt, PF_VSH_FULL, a, b));
    }
    case PF_VK_BINARY: {
        DType dt = pick_vdt(x, oi->dtypes);
        if (dt == DT_NONE) return -1;
        int sa = shape, sb = shape;
        if (on(g, PF_F_VEC_EXPAND) && pf_chance(g, 40)) {         /* a broadcast: [R, C] with [R, 1] / [1, C] */
            int vs = pf_chance(g, 60) ? PF_VSH_ROW : PF_VSH_COL;
            bool vec_first = (v->tensor_level || (oi->flags & PF_VOP_COMMUTES)) && pf_chance(g, 25);
            sa = vec_first ? vs : PF_VSH_FULL;
            sb = vec_first ? PF_VSH_FULL : vs;
            if (!(oi->expand_dtypes & pf_vdt_bit(dt))) dt = pick_vdt(x, oi->expand_dtypes);
            if (dt == DT_NONE) return -1;
        }
        DType dtb = dt;
        if (v->tensor_level && on(g, PF_F_VEC_PROMOTE) && pf_chance(g, 25)) {
            dtb = pick_vdt(x, oi->dtypes);
            if (sa != sb && !(oi->expand_dtypes & pf_vdt_bit(pf_vpromote(dt, dtb)))) dtb = dt;
            if (!(oi->dtypes & pf_vdt_bit(pf_vpromote(dt, dtb)))) dtb = dt;
        }
        int a = operand(x, sa, dt, approx_ok), b = operand(x, sb, dtb, approx_ok);
        if (a < 0 || b < 0) return -1;
        if ((pick == PF_V_DIV || pick == PF_V_FMOD) && !(x->r[b].lo >= 0.01 || x->r[b].hi <= -0.01)) {
            b = positive(x, b);
            if (b >= 0 && pf_chance(g, 30)) b = add(x, node(PF_V_NEG, (DType)v->n[b].dt, v->n[b].shape, b, -1));
            if (b < 0) return -1;
        }
        if (pick == PF_V_MUL && mag(x->r[a]) * mag(x->r[b]) > pf_vdt_limit(pf_vpromote(dt, dtb)) / 2) {
            a = clamp(x, a, 4);
            if (a >= 0) b = clamp(x, b, 4);
            if (a < 0 || b < 0) return -1;
        }
        PfVNode n = node(pick, v->tensor_level ? pf_vpromote((DType)v->n[a].dt, (DType)v->n[b].dt) : (DType)v->n[a].dt,
                         sa == sb ? sa : PF_VSH_FULL, a, b);
        if (sa != sb && v->n[a].dt == v->n[b].dt && (sa == PF_VSH_FULL || (oi->flags & PF_VOP_COMMUTES)) &&
            (!v->tensor_level || pf_chance(g, 30)) && pf_chance(g, v->tensor_level ? 100 : 60))
            n.form |= PF_VF_EXPLICIT;
        return add(x, n);
    }
    case PF_VK_LOAD: return -1;
    }
    return -1;
}

/* ---- stores ---- */

/* The destination of a store of node k: the region's tensor (printed form), a new local, a written
 * tensor of the dtype, or a new Out / InOut parameter. */
static int gen_store(VGen *x, int k) {
    Gen *g = x->g;
    PfProgram *p = g->p;
    PfVec *v = x->v;
    if (v->ns >= PF_MAX_VSTORES) return -1;
    const PfVNode *nd = &v->n[k];
    DType dt = (DType)nd->dt;
    int64_t rows = pf_vshape_rows(v, nd->shape), cols = pf_vshape_cols(v, nd->shape);
    int dst = -1;
    bool local = false;
    if (p->form == PF_FORM_PROGRAM && g->region_dst >= 0) {
        if (p->t[g->region_dst].dt != dt) return -1;
        dst = g->region_dst;
    } else {
        int cands[PF_MAX_TENSORS], n = 0;
        for (int t = 0; t < p->ntensors; t++) {
            const PfTensor *tt = &p->t[t];
            if (tt->dt == dt && tt->dir != PF_IN && !tt->fixed && !tt->nz) cands[n++] = t;
        }
        bool want_local = on(g, PF_F_LOCAL) && on(g, PF_F_VEC_MIX) && !g->conditional && !g->in_manual && g->nscope == 0 &&
                          p->form == PF_FORM_JIT && ((g->force_local && g->last_local < 0) || pf_chance(g, 30));
        if (want_local) {
            dst = pf_new_tensor(g, dt, PF_LOCAL);
            if (dst >= 0) {
                p->t[dst].fixed = true;
                p->t[dst].rows = rows;
                p->t[dst].cols = cols;
                local = true;
                if (g->force_local && g->last_local < 0) g->last_local = dst;
            }
        } else if (n > 0 && x->block_var < 0 && pf_chance(g, 40)) {
            dst = cands[pf_rint(g, n)];
        } else {
            dst = pf_new_tensor(g, dt, on(g, PF_F_INOUT) && pf_chance(g, 20) ? PF_INOUT : PF_OUT);
        }
    }
    if (dst < 0) return -1;
    PfVStore s = { (int8_t)k, (int8_t)dst, { -1, 0, 0 }, { -1, 0, 0 } };
    if (!local) {
        s.r = pf_gen_off(g, rows, x->block_var);
        s.c = pf_gen_off(g, cols, -1);
        if (x->block_var >= 0 && pf_chance(g, 85)) {          /* a block per iteration of the parallel loop */
            if (rows > 1 && (cols == 1 || pf_chance(g, 60))) s.r = (PfOff){ x->block_var, rows, s.r.var < 0 ? s.r.konst : 0 };
            else s.c = (PfOff){ x->block_var, cols, s.c.var < 0 ? s.c.konst : 0 };
        }
    }
    v->s[v->ns++] = s;
    pf_range_union(&g->tr[dst], x->r[k]);
    g->vec_written[dst] = true;
    g->region_wr[dst] = true;
    if (p->form == PF_FORM_PROGRAM) g->region_dst = dst;
    return dst;
}

/* ---- the block ---- */

static int64_t pick_cols(VGen *x) {
    static const int64_t cols[] = { 32, 64, 128, 64, 32, 96, 256, 160 };
    static const int64_t odd[] = { 8, 16, 24, 40, 48, 8 };
    return on(x->g, PF_F_ODD) && pf_chance(x->g, 20) ? PICK(x->g, odd) : PICK(x->g, cols);
}

static int64_t pick_rows(VGen *x) {
    static const int64_t rows[] = { 8, 16, 32, 64, 16, 32, 48, 128 };
    static const int64_t odd[] = { 1, 7, 20, 33, 24, 3 };
    return on(x->g, PF_F_ODD) && pf_chance(x->g, 20) ? PICK(x->g, odd) : PICK(x->g, rows);
}

int pf_gen_vec(Gen *g, int block_var) {
    PfProgram *p = g->p;
    if (g->mm_left <= 0 || p->nvec >= PF_MAX_VEC) return -1;
    int si = pf_new_stmt(g, PF_S_VEC);
    if (si < 0) return -1;
    g->mm_left--;
    int vi = p->nvec++;
    p->st[si].vec = vi;
    PfVec *v = &p->vec[vi];
    memset(v, 0, sizeof *v);
    VGen x = { .g = g, .v = v, .block_var = block_var };
    for (int i = 0; i < p->nvars; i++) x.vmin[i] = p->v[i].start, x.vmax[i] = var_last(&p->v[i]);
    x.dts = PF_VDT_FP32;
    if (on(g, PF_F_VEC_HALF)) x.dts |= PF_VDT_FP16 | PF_VDT_BF16;
    if (on(g, PF_F_VEC_INT)) x.dts |= PF_VDT_INT;
    bool tile = on(g, PF_F_VEC_TILE), tensor = on(g, PF_F_VEC_TENSOR);
    v->tensor_level = p->form == PF_FORM_JIT && tensor && (!tile || pf_chance(g, 50));
    v->C = pick_cols(&x);
    v->R = pick_rows(&x);
    int64_t max_elems = pf_chance(g, 20) ? 16384 : 8192;   /* big blocks make the planner reuse Vec */
    if (max_elems > 8192 && pf_chance(g, 50)) v->R = 128, v->C = PICK(g, ((int64_t[]){ 128, 96 }));
    while (v->R * v->C > max_elems && v->R > 8) v->R /= 2;
    int64_t left = pf_vec_capacity(p) - g->region_vbytes;
    x.budget = left / g->stages;
    /* the first value: a load, so every block reads something (vec_mix: the matmul's local) */
    int first = -1, pt = g->prefer_tensor;
    if (pt >= 0) {
        const PfTensor *tt = &p->t[pt];
        int64_t c0 = 32 / dtype_bytes(tt->dt);
        if (v->R > tt->rows) v->R = tt->rows;
        int64_t c = v->C < tt->cols ? v->C : tt->cols;
        v->C = c / c0 * c0;
        if (v->C >= c0) first = gen_load(&x, tt->dt, PF_VSH_FULL);
        if (v->C < c0) v->C = pick_cols(&x);
    }
    for (int tries = 0; first < 0 && tries < 4; tries++) first = gen_load(&x, pick_vdt(&x, PF_VDT_ALL), pf_chance(g, 85) ? PF_VSH_FULL : PF_VSH_COL);
    if (first < 0) return -1;
    int nops = 1 + (int)pf_rint(g, pf_chance(g, 30) ? 12 : 6);
    for (int i = 0, tries = 0; i < nops && tries < nops * 4 && v->nn < PF_MAX_VNODES - 3; tries++) {
        int k = gen_op(&x);
        if (k < 0) continue;
        i++;
        /* renormalise: a value far from 1 is clamped back now and then */
        if (mag(x.r[k]) > 64 && dtype_is_float((DType)v->n[k].dt) && pf_chance(g, 50)) clamp(&x, k, PICK(g, ((double[]){ 1, 2, 8 })));
    }
    /* stores: the values nothing uses (the sinks), latest first, up to PF_MAX_VSTORES (one in a
     * printed-form kernel inside a parallel loop: one tensor, one block per iteration) */
    int nst = p->form == PF_FORM_PROGRAM && block_var >= 0 ? 1 : PF_MAX_VSTORES;
    for (int k = v->nn - 1; k >= 0 && v->ns < nst; k--) {
        const PfVNode *nd = &v->n[k];
        if (used(v, k) || isinf(x.r[k].lo) || isinf(x.r[k].hi)) continue;
        if (nd->op == PF_V_LOAD && (nd->vr || nd->vc || v->tensor_level || k != v->nn - 1)) continue;
        if (g->force_local && g->last_local < 0 && p->form == PF_FORM_JIT && g->nscope == 0 && !g->conditional) {
            /* vec_mix: the local a matmul reads next, in a matmul dtype and within +-2 */
            int a = k;
            DType dt = (DType)nd->dt;
            if (mag(x.r[a]) > 2) a = clamp(&x, a, 2);
            if (a >= 0 && dt != DT_FP16 && dt != DT_BF16 && dt != DT_FP32 && on(g, PF_F_VEC_CAST)) {
                PfVNode c = node(PF_V_CAST, pf_chance(g, 50) ? DT_FP16 : DT_BF16, nd->shape, a, -1);
                c.mode = (int8_t)pf_rint(g, 8) - 1;
                a = add(&x, c);
            }
            if (a >= 0) {
                gen_store(&x, a);
                continue;
            }
        }
        if (p->form == PF_FORM_PROGRAM && g->region_dst >= 0 && p->t[g->region_dst].dt != nd->dt) {
            if (!on(g, PF_F_VEC_CAST) || !pf_chance(g, 70)) continue;
            DType to = p->t[g->region_dst].dt;
            int a = k;
            if (!dtype_is_float(to) && mag(x.r[a]) > pf_vdt_limit(to) * 0.9) a = clamp(&x, a, pf_vdt_limit(to) * 0.9);
            PfVNode c = node(PF_V_CAST, to, nd->shape, a, -1);
            c.mode = (int8_t)pf_rint(g, 8) - 1;
            int ci = a < 0 ? -1 : add(&x, c);
            if (ci < 0) continue;
            gen_store(&x, ci);
            continue;
        }
        gen_store(&x, k);
    }
    if (!v->ns) return -1;
    g->region_vbytes += pf_vec_bytes(v) * g->stages;
    return si;
}
