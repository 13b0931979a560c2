/* progfuzz_reduce — the minimiser: shrinks a failing PfProgram while the failure persists.
 *
 * Requires: a program that fails, and a predicate that re-runs a candidate and says whether it
 *           still fails the same way (progfuzz.c runs it in a child process).
 * Produces: the smallest program found (in place) and the number of accepted steps.
 * Does:     greedy passes over a fixed list of mutations until none is accepted: drop a statement,
 *           inline a loop (its variable fixed to the first value), an if, a manual scope; fewer
 *           trips; smaller M/N/K; constant offsets; no atomic / padding / NZ; FP32 instead of
 *           FP16/BF16; default compile options; the user form instead of the printed form; in
 *           vector blocks: remove a node (its uses take its operand), drop a store, constant
 *           offsets, halve R / C, the tile level, no partial loads, plain spellings. A
 *           candidate must pass pf_finalize (still a valid program) before it is run. */
#include <stdlib.h>
#include <string.h>

#include "progfuzz.h"

typedef struct ListRef { int *items, *n, cap; } ListRef;

/* Every statement list reachable from the top, parents before children. */
static void walk_lists(PfProgram *p, int *items, int *n, int cap, ListRef *out, int *nout) {
    out[(*nout)++] = (ListRef){ items, n, cap };
    for (int i = 0; i < *n; i++) {
        PfStmt *s = &p->st[items[i]];
        if (s->kind == PF_S_MM || s->kind == PF_S_VEC || s->kind == PF_S_MIX) continue;
        walk_lists(p, s->body, &s->nbody, PF_MAX_BODY, out, nout);
        if (s->kind == PF_S_IF) walk_lists(p, s->orelse, &s->nelse, PF_MAX_BODY, out, nout);
    }
}

static int all_lists(PfProgram *p, ListRef *out) {
    int n = 0;
    walk_lists(p, p->top, &p->ntop, (int)(sizeof p->top / sizeof p->top[0]), out, &n);
    return n;
}

/* Replaces item j of l by the items of `with` (n of them). */
static bool splice(ListRef l, int j, const int *with, int n) {
    if (*l.n - 1 + n > l.cap) return false;
    int tmp[64];
    memcpy(tmp, with, sizeof(int) * (size_t)n);
    memmove(&l.items[j + n], &l.items[j + 1], sizeof(int) * (size_t)(*l.n - j - 1));
    memcpy(&l.items[j], tmp, sizeof(int) * (size_t)n);
    *l.n += n - 1;
    return true;
}

static void subst_off(PfOff *o, int v, int64_t val) {
    if (o->var != v) return;
    o->konst += o->coef * val;
    o->var = -1;
    o->coef = 0;
}

/* Variable v becomes the constant val: offsets fold, ifs on v are decided. */
static bool subst_var(PfProgram *p, int v, int64_t val) {
    for (int i = 0; i < p->nst; i++) {
        PfMM *m = &p->st[i].mm;
        if (p->st[i].kind != PF_S_MM) continue;
        PfOff *o[] = { &m->ar, &m->ak, &m->bk, &m->bc, &m->dr, &m->dc };
        for (int k = 0; k < 6; k++) subst_off(o[k], v, val);
    }
    for (int b = 0; b < p->nvec; b++) {
        PfVec *vb = &p->vec[b];
        for (int k = 0; k < vb->nn; k++) {
            PfVNode *n = &vb->n[k];
            subst_off(&n->r, v, val);
            subst_off(&n->c, v, val);
            if (n->kvar == v) n->k += (double)val, n->kvar = -1;
        }
        for (int i = 0; i < vb->ns; i++) subst_off(&vb->s[i].r, v, val), subst_off(&vb->s[i].c, v, val);
    }
    for (bool again = true; again;) {
        again = false;
        ListRef ls[PF_MAX_STMTS * 2 + 1];
        int nl = all_lists(p, ls);
        for (int li = 0; li < nl && !again; li++)
            for (int j = 0; j < *ls[li].n && !again; j++) {
                PfStmt *s = &p->st[ls[li].items[j]];
                if (s->kind != PF_S_IF || s->cond_var != v) continue;
                bool t = s->cmp == PF_CMP_EQ ? val == s->cond_val : s->cmp == PF_CMP_LT ? val < s->cond_val : val >= s->cond_val;
                if (!splice(ls[li], j, t ? s->body : s->orelse, t ? s->nbody : s->nelse)) return false;
                again = true;
            }
    }
    return true;
}

/* Halves a dimension, staying on multiples of 16 down to 16. */
static int64_t halve(int64_t x) {
    if (x > 16) return x / 2 / 16 * 16 < 16 ? 16 : x / 2 / 16 * 16;
    return x > 1 ? x / 2 : 1;
}

enum { M_DROP, M_INLINE, M_TRIPS, M_MM, M_VEC, M_MIX, M_TENSOR, M_GLOBAL, M_KINDS };

/* Drop statement idx (in list order), or inline it: a loop with its variable fixed to the first
 * value, an if by its then branch, a manual scope by its regions; a region loses its deps. */
static bool mutate_stmt(PfProgram *p, int kind, int idx) {
    ListRef ls[PF_MAX_STMTS * 2 + 1];
    int nl = all_lists(p, ls);
    for (int li = 0; li < nl; li++) {
        if (idx >= *ls[li].n) { idx -= *ls[li].n; continue; }
        PfStmt *s = &p->st[ls[li].items[idx]];
        if (kind == M_DROP) return splice(ls[li], idx, NULL, 0);
        if (s->kind == PF_S_MM || s->kind == PF_S_VEC || s->kind == PF_S_MIX) return false;
        if (s->kind == PF_S_FOR) {
            int v = s->var;
            if (!subst_var(p, v, p->v[v].start)) return false;
            int body[PF_MAX_BODY], n = s->nbody;
            memcpy(body, s->body, sizeof body);
            nl = all_lists(p, ls);        /* the lists moved if an if was folded */
            for (int l2 = 0; l2 < nl; l2++)
                for (int j = 0; j < *ls[l2].n; j++)
                    if (&p->st[ls[l2].items[j]] == s) return splice(ls[l2], j, body, n);
            return false;
        }
        if (s->kind == PF_S_AT && idx >= 0) {
            /* a region is kept; its deps are dropped instead */
            if (!s->ndeps && s->tid < 0) return false;
            s->ndeps = 0;
            s->tid = -1;
            return true;
        }
        return splice(ls[li], idx, s->body, s->nbody);   /* if (then branch), manual scope */
    }
    return false;
}

static bool mutate_trips(PfProgram *p, int idx) {
    int v = idx / 3;
    if (v >= p->nvars) return false;
    PfVar *pv = &p->v[v];
    switch (idx % 3) {
    case 0: if (pv->stop - pv->start <= pv->step) return false; pv->stop -= pv->step; return true;
    case 1: if (pv->step == 1) return false; pv->stop = pv->start + (pv->stop - pv->start + pv->step - 1) / pv->step; pv->step = 1; return true;
    default: if (pv->start == 0) return false; pv->stop -= pv->start; pv->start = 0; return true;
    }
}

static bool mutate_mm(PfProgram *p, int idx) {
    int si = idx / 12;
    if (si >= p->nst) return false;
    if (p->st[si].kind != PF_S_MM) return false;
    PfMM *m = &p->st[si].mm;
    PfOff *o[] = { &m->ar, &m->ak, &m->bk, &m->bc, &m->dr, &m->dc };
    int64_t kc = m->K / m->kchunks;
    switch (idx % 12) {
    case 0: if (m->M <= 1) return false; m->M = halve(m->M); return true;
    case 1: if (m->N <= 1) return false; m->N = halve(m->N); return true;
    case 2:
        if (m->kchunks > 1) { m->K -= kc; m->kchunks--; m->kloop = m->kloop && m->kchunks > 1; return true; }
        if (m->K <= 16) return false;
        m->K = m->K / 2 / 16 * 16 < 16 ? 16 : m->K / 2 / 16 * 16;
        return true;
    case 3: if (!m->atomic) return false; m->atomic = false; return true;
    case 4: if (!m->kloop) return false; m->kloop = false; return true;
    case 5: if (m->style == PF_MM_SUGAR || m->style == PF_MM_TILE || p->form != PF_FORM_JIT) return false; m->style = PF_MM_SUGAR; return true;
    default: {
        PfOff *x = o[idx % 12 - 6];
        if (x->var < 0 && x->konst == 0) return false;
        *x = (PfOff){ -1, 0, 0 };
        return true;
    }
    }
}

/* Node k of a vector block removed: its uses (and stores) take its first operand instead, when that
 * has the same shape and dtype; later nodes renumbered. */
static bool vec_remove_node(PfVec *v, int k) {
    const PfVNode *n = &v->n[k];
    int repl = n->a;
    bool used = false;
    for (int i = k + 1; i < v->nn; i++) used |= v->n[i].a == k || v->n[i].b == k;
    for (int i = 0; i < v->ns; i++) used |= v->s[i].node == k;
    if (used && (repl < 0 || v->n[repl].shape != n->shape || v->n[repl].dt != n->dt)) return false;
    for (int i = k + 1; i < v->nn; i++) {
        if (v->n[i].a == k) v->n[i].a = (int8_t)repl;
        if (v->n[i].b == k) v->n[i].b = (int8_t)repl;
    }
    for (int i = 0; i < v->ns; i++) if (v->s[i].node == k) v->s[i].node = (int8_t)repl;
    memmove(&v->n[k], &v->n[k + 1], sizeof v->n[0] * (size_t)(v->nn - k - 1));
    v->nn--;
    for (int i = k; i < v->nn; i++) {
        if (v->n[i].a > k) v->n[i].a--;
        if (v->n[i].b > k) v->n[i].b--;
    }
    for (int i = 0; i < v->ns; i++) if (v->s[i].node > k) v->s[i].node--;
    return true;
}

/* Shrinking a vector block: remove a node, drop a store, constant offsets, halve R / C, the tile
 * level, no partial loads, constant scalars, plain spellings, default cast modes. */
static bool mutate_vec(PfProgram *p, int idx) {
    int b = idx / 40, sub = idx % 40;
    if (b >= p->nvec) return false;
    PfVec *v = &p->vec[b];
    bool changed = false;
    if (sub < PF_MAX_VNODES) return sub < v->nn && vec_remove_node(v, sub);
    sub -= PF_MAX_VNODES;
    switch (sub) {
    case 0: case 1: case 2:
        if (sub >= v->ns || v->ns < 2) return false;
        memmove(&v->s[sub], &v->s[sub + 1], sizeof v->s[0] * (size_t)(v->ns - sub - 1));
        v->ns--;
        return true;
    case 3: case 4: case 5: {
        if (sub - 3 >= v->ns) return false;
        PfVStore *st = &v->s[sub - 3];
        if (st->r.var < 0 && st->c.var < 0 && !st->r.konst && !st->c.konst) return false;
        st->r = st->c = (PfOff){ -1, 0, 0 };
        return true;
    }
    case 6: if (v->R <= 1) return false; v->R = v->R > 16 ? v->R / 2 / 8 * 8 : v->R / 2; return true;
    case 7: if (v->C < 64 || v->C % 64) return false; v->C /= 2; return true;
    case 8: if (!v->tensor_level) return false; v->tensor_level = false; return true;
    case 9: case 10: case 11: case 12: case 13:
        for (int k = 0; k < v->nn; k++) {
            PfVNode *n = &v->n[k];
            if (sub == 9 && (n->vr || n->vc)) n->vr = n->vc = 0, changed = true;
            if (sub == 10 && n->kvar >= 0) n->kvar = -1, changed = true;
            if (sub == 10 && n->kread > 0) n->kread = 0, n->k = 1, changed = true;
            if (sub == 11 && n->form) n->form = 0, changed = true;
            if (sub == 12 && n->op == PF_V_CAST && n->mode >= 0) n->mode = -1, changed = true;
            if (sub == 13 && n->op == PF_V_LOAD && (n->r.var >= 0 || n->c.var >= 0 || n->r.konst || n->c.konst))
                n->r = n->c = (PfOff){ -1, 0, 0 }, changed = true;
        }
        return changed;
    default: return false;
    }
}

static bool mutate_tensor(PfProgram *p, int idx) {
    int t = idx / 3;
    if (t >= p->ntensors) return false;
    PfTensor *tt = &p->t[t];
    switch (idx % 3) {
    case 0: if (!tt->pad_r && !tt->pad_c) return false; tt->pad_r = tt->pad_c = 0; return true;
    case 1: if (!tt->nz) return false; tt->nz = false; return true;
    default: if (tt->dir != PF_INOUT) return false; tt->dir = PF_OUT; return true;
    }
}

static bool mutate_global(PfProgram *p, int idx) {
    switch (idx) {
    case 0: if (!p->a5) return false; p->a5 = false; return true;
    case 1: if (!p->planner) return false; p->planner = 0; return true;
    case 2: if (!p->dbc) return false; p->dbc = false; return true;
    case 3: if (p->run_seed == 1) return false; p->run_seed = 1; return true;
    case 4: if (p->form == PF_FORM_JIT) return false; p->form = PF_FORM_JIT; return true;
    case 5: case 6: {                    /* every float operand FP32, or FP16 */
        DType to = idx == 5 ? DT_FP32 : DT_FP16;
        bool changed = false;
        for (int t = 0; t < p->ntensors; t++)
            if (p->t[t].dt == DT_FP16 || p->t[t].dt == DT_BF16 || (to == DT_FP16 && p->t[t].dt == DT_FP32 && p->t[t].dir == PF_IN)) {
                changed |= p->t[t].dt != to;
                p->t[t].dt = to;
            }
        for (int i = 0; i < p->nst; i++)
            if (p->st[i].kind == PF_S_MM && p->st[i].mm.in_dt != DT_INT8) p->st[i].mm.in_dt = p->t[p->st[i].mm.a].dt;
        return changed;
    }
    case 7: if (p->features.on[PF_F_SCALAR_ARGS] == false) return false; p->features.on[PF_F_SCALAR_ARGS] = false; return true;
    default: return false;
    }
}

/* Mutation `idx` of kind `kind`; false when there is no such mutation. */
static bool mutate(PfProgram *p, int kind, int idx) {
    switch (kind) {
    case M_DROP: case M_INLINE: return mutate_stmt(p, kind, idx);
    case M_TRIPS: return mutate_trips(p, idx);
    case M_MM: return mutate_mm(p, idx);
    case M_VEC: return mutate_vec(p, idx);
    case M_MIX: {                       /* mixed regions: PF_MIX_MAXSTEPS + 8 steps each */
        int per = PF_MIX_MAXSTEPS + 8;
        for (int i = 0; i < p->nst; i++) {
            if (p->st[i].kind != PF_S_MIX) continue;
            if (idx < per) return pf_mix_mutate(&p->st[i].mix, idx);
            idx -= per;
        }
        return false;
    }
    case M_TENSOR: return mutate_tensor(p, idx);
    default: return mutate_global(p, idx);
    }
}

int pf_reduce(PfProgram *p, PfStillFails still_fails, void *ctx, int max_tries) {
    int accepted = 0, tries = 0;
    char why[200];
    for (bool progress = true; progress && tries < max_tries;) {
        progress = false;
        for (int kind = 0; kind < M_KINDS && tries < max_tries; kind++) {
            for (int idx = 0; idx < PF_MAX_STMTS * 12 && tries < max_tries; idx++) {
                PfProgram *cand = malloc(sizeof *cand);
                memcpy(cand, p, sizeof *cand);
                bool ok = mutate(cand, kind, idx) && pf_count_mm(cand) > 0 && pf_finalize(cand, why, sizeof why);
                if (ok) {
                    tries++;
                    if (still_fails(cand, ctx)) {
                        memcpy(p, cand, sizeof *p);
                        accepted++;
                        progress = true;
                        idx--;                  /* the same position may shrink again */
                    }
                }
                free(cand);
            }
        }
    }
    return accepted;
}
