/* progfuzz_mix — mixed cube + vector regions (features mix, mix_split, mix_chain, mix_loop).
 *
 * Requires: the generator state (progfuzz_gen.h), a PfMix (progfuzz.h).
 * Produces: pf_gen_mix (a PF_S_MIX statement with fresh tensors), pf_mix_check (the rules that keep
 *           a mixed region inside what ExpandMixedKernel supports, and the value range of what it
 *           stores), pf_print_mix (the user-form text), pf_mix_mutate (the reducer's steps).
 * Does:     one `with pl.at(level=pl.Level.CORE_GROUP, optimizations=[pl.split(..),
 *           pl.cross_core_slot(..)])` region: acc = pl.matmul(a, b) -> vector steps on acc ->
 *           optionally g = pl.matmul(pl.cast(v, dt), w2) -> steps on g -> a store; optionally inside a
 *           flash-attention-style pl.range(T, init_values=(o0,)) loop accumulating into o. The rules
 *           (docs/fuzzing.md, "Mixed regions"): no row reductions under LEFT_RIGHT; the crossing tiles
 *           (matmul results used by vector ops, the vector left operand of the second matmul) share
 *           their extent along the split axis; the vector working set and the cross-core ring fit UB;
 *           values stay where the comparison with the interpreter is honest (exp of values <= 2, a
 *           matmul operand within +-4, magnitudes below the dtype limits). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "base/base.h"
#include "progfuzz_gen.h"

/* ---- value ranges ---- */

static double mag(double lo, double hi) { return fmax(fabs(lo), fabs(hi)); }

/* The range of a step's result from its operand's range [*lo, *hi]; false (with *why) when the step
 * leaves its domain. */
static bool step_range(const PfMixStep *s, double *lo, double *hi, const char **why) {
    double a = *lo, b = *hi;
    switch ((PfMixOp)s->op) {
    case PF_MX_MULS: *lo = fmin(a * s->k, b * s->k); *hi = fmax(a * s->k, b * s->k); break;
    case PF_MX_ADDS: *lo = a + s->k; *hi = b + s->k; break;
    case PF_MX_BIAS: *lo = a - 1; *hi = b + 1; break;
    case PF_MX_RELU: *lo = fmax(a, 0); *hi = fmax(b, 0); break;
    case PF_MX_EXP:
        if (b > 2.0) { *why = "exp of a value above 2 in a mixed region"; return false; }
        *lo = exp(a);
        *hi = exp(b);
        break;
    case PF_MX_MAXS: *lo = fmax(a, s->k); *hi = fmax(b, s->k); break;
    case PF_MX_MINS: *lo = fmin(a, s->k); *hi = fmin(b, s->k); break;
    case PF_MX_ROWNORM: *lo = a - b; *hi = 0; break;
    case PF_MX_SOFTMAX: *lo = 0; *hi = 1; break;
    default: *why = "unknown mixed step"; return false;
    }
    if (mag(*lo, *hi) > 1e6) { *why = "a mixed-region value beyond 1e6"; return false; }
    return true;
}

static bool steps_range(const PfMixStep *s, int n, double *lo, double *hi, const char **why) {
    for (int i = 0; i < n; i++)
        if (!step_range(&s[i], lo, hi, why)) return false;
    return true;
}

int64_t pf_mix_out_cols(const PfMix *m) { return m->mm2 ? m->N2 : m->N; }

static bool is_row_step(int op) { return op == PF_MX_ROWNORM || op == PF_MX_SOFTMAX; }

/* Vec bytes one AIV lane needs: the ring (slot_num crossing tiles, halved per lane under a split)
 * from address 0, plus every value of the chain its own buffer (memory reuse only lowers it). */
static int64_t mix_ub_bytes(const PfMix *m) {
    int64_t lanes = m->split == PF_SPLIT_UP_DOWN || m->split == PF_SPLIT_LEFT_RIGHT ? 2 : 1;
    int64_t t1 = m->M * m->N * 4 / lanes, t2 = m->mm2 ? m->M * m->N2 * 4 / lanes : 0;
    int64_t tile = t1 > t2 ? t1 : t2;
    int64_t slots = m->slots ? m->slots : 2;
    int64_t vals = m->n1 + m->n2 + 3 + (m->trips ? 3 : 0) + (m->mm2 ? 2 : 0);
    for (int i = 0; i < m->n1; i++) vals += is_row_step(m->s1[i].op) ? 2 : 0;
    for (int i = 0; i < m->n2; i++) vals += is_row_step(m->s2[i].op) ? 2 : 0;
    return slots * (t1 + t2) + vals * tile;
}

static bool is_int(const PfMix *m) { return (DType)m->in_dt == DT_INT8; }
static DType acc_dt(const PfMix *m) { return is_int(m) ? DT_INT32 : DT_FP32; }
static DType out_dtype(const PfMix *m) { return m->out_half ? DT_FP16 : acc_dt(m); }

static bool mix_values(PfMix *m, const char **why);

bool pf_mix_check(const PfProgram *p, PfMix *m, const char **why) {
    const PfTensor *t = p->t;
    DType in = (DType)m->in_dt;
    *why = NULL;
    if (in != DT_FP16 && in != DT_BF16 && in != DT_FP32 && in != DT_INT8) { *why = "mixed-region operand dtype"; return false; }
    if (t[m->a].dt != in || t[m->b].dt != in || (m->mm2 && (m->w2 < 0 || t[m->w2].dt != in)) ||
        (m->bias >= 0 && t[m->bias].dt != acc_dt(m)) || t[m->out].dt != out_dtype(m)) {
        *why = "mixed-region tensor dtype";
        return false;
    }
    if (is_int(m) && (m->mm2 || m->out_half || m->K % 32 || m->N % 32)) {
        /* INT8 operands: an INT32 accumulator, integer steps, whole 16 x 32 INT8 boxes */
        *why = "an INT8 mixed region with a narrowing cast or partial INT8 boxes";
        return false;
    }
    if (t[m->a].dir != PF_IN || t[m->b].dir != PF_IN || (m->bias >= 0 && t[m->bias].dir != PF_IN) ||
        (m->mm2 && t[m->w2].dir != PF_IN) || t[m->out].dir != PF_OUT) {
        *why = "mixed-region tensors are fresh inputs and one Out";
        return false;
    }
    if (m->n1 < 0 || m->n1 > PF_MIX_MAXSTEPS || m->n2 < 0 || m->n2 > PF_MIX_MAXSTEPS || (!m->mm2 && m->n2) || m->trips < 0 || m->trips > 8 || m->acc_form < 0 || m->acc_form > 2 || (m->acc_form == 2 && is_int(m)) || m->slots < 0 || m->slots > 4) {
        *why = "mixed-region step counts";
        return false;
    }
    bool has_bias = false;
    for (int i = 0; i < m->n1 + m->n2; i++) {
        const PfMixStep *st = i < m->n1 ? &m->s1[i] : &m->s2[i - m->n1];
        int op = st->op;
        if (is_int(m) && (op == PF_MX_EXP || op == PF_MX_SOFTMAX || st->k != (double)(int64_t)st->k)) {
            *why = "a float step on an INT32 accumulator";
            return false;
        }
        if (is_row_step(op) && m->split == PF_SPLIT_LEFT_RIGHT) { *why = "a row reduction under LEFT_RIGHT"; return false; }
        if (op == PF_MX_BIAS) {
            if (i >= m->n1 && m->N2 != m->N) { *why = "the bias window is [M, N]"; return false; }
            has_bias = true;
        }
    }
    if (m->n1 == 0 && !m->mm2 && !m->atomic_k) { *why = "a mixed region without vector work"; return false; }
    if (has_bias != (m->bias >= 0)) { *why = "bias tensor without a bias step (or the other way round)"; return false; }
    /* the crossing tiles share their extent along the split axis (rows always M) */
    if (m->split == PF_SPLIT_LEFT_RIGHT && m->mm2 && m->N2 != m->N) { *why = "LEFT_RIGHT with crossing tiles of different widths"; return false; }
    if (m->M % 8 == 0 ? false : m->M % 2 == 0) { *why = "mixed-region rows: multiples of 8 or odd"; return false; }
    if (m->N % 8 || m->K % 16 || (m->mm2 && (m->N % 16 || m->N2 % 16)) || m->M > 64 || m->N > 128 || m->N2 > 128 ||
        m->K > 256) {
        *why = "mixed-region shape";
        return false;
    }
    if (m->split == PF_SPLIT_LEFT_RIGHT && !p->features.on[PF_F_MIX_GRANULE]) {
        /* each lane stores its column half: keep the halves' row pieces in whole 32-byte GM granules
         * (the row stride is rounded up by pf_finalize, pf_mix_round_out) */
        int64_t esz = m->out_half ? 2 : 4;
        if (pf_mix_out_cols(m) / 2 * esz % 32 || m->ocol * esz % 32) { *why = "LEFT_RIGHT lane stores sharing a GM granule"; return false; }
    }
    if (m->mm2) {
        /* AutoTileMatmulL0 sizes each matmul's L0 tiles for all of L0 (docs/fuzzing.md): the two
         * matmuls of the region must fit L0A / L0B / L0C together */
        int64_t esz = dtype_bytes(in), M16 = (m->M + 15) / 16 * 16;
        if (M16 * (m->K + m->N) * esz > 65536 || (m->K * m->N + m->N * m->N2) * esz > 65536 ||
            M16 * (m->N + m->N2) * 4 > 131072) {
            *why = "the two matmuls of a mixed region overfill L0";
            return false;
        }
    }
    if (m->blocks && (m->blocks < 2 || m->blocks > 8 || !p->features.on[PF_F_SPMD])) { *why = "SPMD block count"; return false; }
    if (m->atomic_k && (!m->blocks || m->mm2 || m->trips || m->out_half || !m->spmd_with)) {
        *why = "split-K across SPMD blocks is one matmul (and steps) per block, with form";
        return false;
    }
    if (m->blocks && !m->spmd_with && (m->split != PF_SPLIT_ABSENT || m->slots)) { *why = "the SPMD loop form takes no optimizations"; return false; }
    if (mix_ub_bytes(m) > 160 * 1024) { *why = "a mixed region's vector working set and ring overfill UB"; return false; }
    return mix_values(m, why);
}

/* The value range of the stored result (m->lo / m->hi); false when a step leaves its domain. */
static bool mix_values(PfMix *m, const char **why) {
    /* values: acc of K products of [-1, 1) inputs ([-8, 7] for INT8) */
    double lo = -(double)m->K * (is_int(m) ? 64 : 1), hi = -lo;
    if (!steps_range(m->s1, m->n1, &lo, &hi, why)) return false;
    if (m->mm2) {
        if (mag(lo, hi) > PF_MM_OPERAND_MAX) { *why = "the vector left operand of a matmul beyond +-4"; return false; }
        double g = (double)m->N * mag(lo, hi);
        lo = -g;
        hi = g;
        if (!steps_range(m->s2, m->n2, &lo, &hi, why)) return false;
    }
    int64_t sum = m->trips ? m->trips : m->atomic_k ? m->blocks : 0;
    if (m->trips && m->acc_form == 2 && sum > 2) sum = 2;       /* o * 0.5 + r stays within 2 |r| */
    if (sum) {                         /* o (or the atomic destination) accumulates from zero */
        lo = fmin(0, lo * (double)sum);
        hi = fmax(0, hi * (double)sum);
    }
    if (mag(lo, hi) > (m->out_half ? 2e4 : is_int(m) ? 1e7 : 1e6)) { *why = "a mixed-region result beyond its dtype's limit"; return false; }
    m->lo = lo;
    m->hi = hi;
    return true;
}

/* ---- generation ---- */

static void add_step(PfMixStep *s, int8_t *n, int op, double k) {
    if (*n >= PF_MIX_MAXSTEPS) return;
    s[*n].op = (int8_t)op;
    s[*n].k = k;
    (*n)++;
}

/* A power-of-two scale that brings [lo, hi] within +-bound (exact in every float dtype). */
static void scale_within(PfMixStep *s, int8_t *n, double *lo, double *hi, double bound) {
    double k = 1;
    while (mag(*lo, *hi) * k > bound) k /= 2;
    if (k == 1) return;
    add_step(s, n, PF_MX_MULS, k);
    const char *why;
    step_range(&s[*n - 1], lo, hi, &why);
}

/* `count` steps after a value of range [*lo, *hi], drawn among the legal ones. */
static void gen_steps(Gen *g, PfMix *m, PfMixStep *s, int8_t *n, int count, double *lo, double *hi, bool bias_ok) {
    for (int i = 0; i < count && *n < PF_MIX_MAXSTEPS; i++) {
        int op = (int)pf_rint(g, PF_MX_NOPS);
        if (is_row_step(op) && m->split == PF_SPLIT_LEFT_RIGHT) op = PF_MX_RELU;
        if (is_int(m) && (op == PF_MX_EXP || op == PF_MX_SOFTMAX)) op = PF_MX_MAXS;
        if (op == PF_MX_BIAS && !bias_ok) op = PF_MX_ADDS;
        double k = 0;
        switch (op) {
        case PF_MX_MULS: k = PICK(g, ((double[]){ 0.5, 0.25, 0.125, -1.0, 2.0, 0.0625 })); break;
        case PF_MX_ADDS: k = PICK(g, ((double[]){ 1.0, -0.5, 0.25, 2.0 })); break;
        case PF_MX_MAXS: k = PICK(g, ((double[]){ 0.0, -1.0, 0.5 })); break;
        case PF_MX_MINS: k = PICK(g, ((double[]){ 0.0, 1.0, 2.0 })); break;
        case PF_MX_EXP: scale_within(s, n, lo, hi, 2.0); break;
        default: break;
        }
        if (*n >= PF_MIX_MAXSTEPS) break;
        if (op == PF_MX_MULS && mag(*lo, *hi) * fabs(k) > 1e4) k = 0.5;
        if (is_int(m) && k != (double)(int64_t)k) k = op == PF_MX_MULS ? PICK(g, ((double[]){ 2.0, -1.0, 3.0 })) : (double)(int64_t)(k * 4);
        if (op == PF_MX_BIAS) m->bias = 0;              /* marks it wanted; the tensor comes later */
        PfMixStep st = { (int8_t)op, k };
        double l = *lo, h = *hi;
        const char *why;
        if (!step_range(&st, &l, &h, &why)) continue;
        s[(*n)++] = st;
        *lo = l;
        *hi = h;
    }
}

static DType pick_in_dt(Gen *g) {
    DType opts[5] = { DT_FP16, DT_FP16 };
    int n = 2;
    if (on(g, PF_F_BF16)) opts[n++] = DT_BF16;
    if (on(g, PF_F_FP32)) opts[n++] = DT_FP32;
    if (on(g, PF_F_INT8)) opts[n++] = DT_INT8;
    return opts[pf_rint(g, n)];
}

int pf_gen_mix(Gen *g) {
    PfProgram *p = g->p;
    if (g->mm_left <= 0 || p->ntensors + 5 > PF_MAX_TENSORS) return -1;
    int si = pf_new_stmt(g, PF_S_MIX);
    if (si < 0) return -1;
    g->mm_left--;
    PfMix *m = &p->st[si].mix;
    memset(m, 0, sizeof *m);
    m->split = PF_SPLIT_ABSENT;
    if (on(g, PF_F_MIX_SPLIT)) {
        m->split = (int8_t)PICK(g, ((int[]){ PF_SPLIT_ABSENT, PF_SPLIT_NONE, PF_SPLIT_UP_DOWN, PF_SPLIT_UP_DOWN, PF_SPLIT_LEFT_RIGHT }));
        if (pf_chance(g, 40)) m->slots = (int8_t)(1 + pf_rint(g, 4));
    }
    m->in_dt = (int8_t)pick_in_dt(g);
    m->M = PICK(g, ((int64_t[]){ 16, 32, 48, 64, 64, 33, 40, 24, 17 }));          /* ragged lane halves too */
    m->N = PICK(g, ((int64_t[]){ 16, 32, 64, 128, 64, 72, 80, 48, 40 }));
    m->K = PICK(g, ((int64_t[]){ 16, 32, 64, 128, 256 }));
    if ((DType)m->in_dt == DT_INT8) {                 /* whole INT8 boxes */
        m->K = m->K < 32 ? 32 : m->K;
        m->N = (m->N + 31) / 32 * 32;
    }
    m->mm2 = !is_int(m) && on(g, PF_F_MIX_CHAIN) && pf_chance(g, 40);
    if (m->mm2 && m->N % 16) m->N = (m->N + 15) / 16 * 16;                       /* the second matmul's K */
    m->N2 = m->mm2 ? (m->split == PF_SPLIT_LEFT_RIGHT ? m->N : PICK(g, ((int64_t[]){ 16, 32, 64, 128 }))) : 0;
    m->trips = on(g, PF_F_MIX_LOOP) && pf_chance(g, 30) ? (int8_t)(1 + pf_rint(g, 4)) : 0;
    if (m->trips && on(g, PF_F_MIX_ROTATE)) {          /* >= 3 trips are rotated */
        m->trips = (int8_t)(1 + pf_rint(g, 6));
        m->acc_form = (int8_t)pf_rint(g, is_int(m) ? 2 : 3);
    }
    if (on(g, PF_F_SPMD) && pf_chance(g, 40)) {
        m->blocks = (int8_t)(2 + pf_rint(g, 4));
        if (pf_chance(g, 35)) m->split = PF_SPLIT_ABSENT, m->slots = 0;         /* the loop form more often */
        m->spmd_with = m->split != PF_SPLIT_ABSENT || m->slots || pf_chance(g, 40);
        m->atomic_k = m->spmd_with && pf_chance(g, 35);
        if (m->atomic_k) m->mm2 = false, m->N2 = 0, m->trips = 0;
    }
    m->out_half = !is_int(m) && !m->atomic_k && pf_chance(g, 15);   /* FP32 inputs too: an FP16 output is compared at FP16's tolerance */
    m->assemble = pf_chance(g, 30);
    m->bias = -1;
    m->w2 = -1;
    double lo = -(double)m->K * (is_int(m) ? 64 : 1), hi = -lo;
    gen_steps(g, m, m->s1, &m->n1, m->mm2 || m->atomic_k ? (int)pf_rint(g, 4) : 1 + (int)pf_rint(g, 4), &lo, &hi, true);
    if (m->mm2) {
        scale_within(m->s1, &m->n1, &lo, &hi, PF_MM_OPERAND_MAX);
        double gm = (double)m->N * mag(lo, hi);
        lo = -gm;
        hi = gm;
        gen_steps(g, m, m->s2, &m->n2, (int)pf_rint(g, 3), &lo, &hi, m->N2 == m->N);
    }
    if (m->n1 == 0 && !m->mm2 && !m->atomic_k) add_step(m->s1, &m->n1, PF_MX_RELU, 0);
    m->ar = PICK(g, ((int64_t[]){ 0, 0, 16, 32 }));
    m->bc = PICK(g, ((int64_t[]){ 0, 0, 16, 64 }));
    m->orow = PICK(g, ((int64_t[]){ 0, 0, 16, 64 }));
    m->ocol = PICK(g, ((int64_t[]){ 0, 0, 32, 16 }));
    DType in = (DType)m->in_dt;
    m->a = pf_new_tensor(g, in, PF_IN);
    m->b = pf_new_tensor(g, in, PF_IN);
    if (m->bias >= 0) m->bias = pf_new_tensor(g, acc_dt(m), PF_IN);
    if (m->mm2) m->w2 = pf_new_tensor(g, in, PF_IN);
    m->out = pf_new_tensor(g, out_dtype(m), PF_OUT);
    int ts[] = { m->a, m->b, m->bias, m->w2 };
    for (int i = 0; i < 4; i++) if (ts[i] >= 0) p->t[ts[i]].nz = false;   /* ND inputs: the tensor-level matmul reads slices */
    const char *why;
    pf_mix_check(p, m, &why);                          /* when it fails, pf_finalize fails too: the draw is redone */
    g->tr[m->out] = (PfRange){ m->lo, m->hi, true };
    return si;
}

/* ---- printing (the @pl.jit user form) ---- */

static void print_region_body(StrBuf *sb, const PfProgram *p, int si, const PfMix *m, int ind);

static void lit(StrBuf *sb, double k, bool integer) {
    char buf[64];
    if (integer) { sb_printf(sb, "%lld", (long long)k); return; }
    snprintf(buf, sizeof buf, "%.17g", k);
    sb_puts(sb, buf);
    if (!strpbrk(buf, ".eEn")) sb_puts(sb, ".0");
}

/* dst = step(src); the names are v<si>_<n>. */
static void print_step(StrBuf *sb, const PfProgram *p, int si, const PfMix *m, const PfMixStep *s, int ind, int src,
                       int dst, const char *srcname) {
    char a[32], nb[16];
    if (srcname) snprintf(a, sizeof a, "%s", srcname);
    else snprintf(a, sizeof a, "v%d_%d", si, src);
    sb_indent(sb, ind);
    switch ((PfMixOp)s->op) {
    case PF_MX_MULS: sb_printf(sb, "v%d_%d = pl.muls(%s, ", si, dst, a); lit(sb, s->k, is_int(m)); sb_puts(sb, ")\n"); return;
    case PF_MX_ADDS: sb_printf(sb, "v%d_%d = pl.add(%s, ", si, dst, a); lit(sb, s->k, is_int(m)); sb_puts(sb, ")\n"); return;
    case PF_MX_MAXS: sb_printf(sb, "v%d_%d = pl.maximum(%s, ", si, dst, a); lit(sb, s->k, is_int(m)); sb_puts(sb, ")\n"); return;
    case PF_MX_MINS: sb_printf(sb, "v%d_%d = pl.minimum(%s, ", si, dst, a); lit(sb, s->k, is_int(m)); sb_puts(sb, ")\n"); return;
    case PF_MX_BIAS:
        sb_printf(sb, "v%d_%d = pl.add(%s, %s[0:%lld, 0:%lld])\n", si, dst, a, pf_tname(p, m->bias, nb), (long long)m->M,
                  (long long)m->N);
        return;
    case PF_MX_RELU: sb_printf(sb, "v%d_%d = pl.relu(%s)\n", si, dst, a); return;
    case PF_MX_EXP: sb_printf(sb, "v%d_%d = pl.exp(%s)\n", si, dst, a); return;
    case PF_MX_ROWNORM:
        sb_printf(sb, "m%d_%d = pl.row_max(%s)\n", si, dst, a);
        sb_indent(sb, ind);
        sb_printf(sb, "v%d_%d = pl.row_expand_sub(%s, m%d_%d)\n", si, dst, a, si, dst);
        return;
    case PF_MX_SOFTMAX:
        sb_printf(sb, "m%d_%d = pl.row_max(%s)\n", si, dst, a);
        sb_indent(sb, ind);
        sb_printf(sb, "e%d_%d = pl.exp(pl.row_expand_sub(%s, m%d_%d))\n", si, dst, a, si, dst);
        sb_indent(sb, ind);
        sb_printf(sb, "s%d_%d = pl.row_sum(e%d_%d)\n", si, dst, si, dst);
        sb_indent(sb, ind);
        sb_printf(sb, "v%d_%d = pl.row_expand_div(e%d_%d, s%d_%d)\n", si, dst, si, dst, si, dst);
        return;
    default: return;
    }
}

/* "lo:hi" of a window starting at konst (+ j * step when the loop variable moves it). */
static void span(StrBuf *sb, int si, int64_t konst, int64_t step, int64_t extent, bool moves) {
    if (!moves) { sb_printf(sb, "%lld:%lld", (long long)konst, (long long)(konst + extent)); return; }
    for (int side = 0; side < 2; side++) {              /* the front end wants lo:lo + SIZE */
        sb_printf(sb, "%sj%d * %lld", side ? ":" : "", si, (long long)step);
        if (konst) sb_printf(sb, " + %lld", (long long)konst);
    }
    sb_printf(sb, " + %lld", (long long)extent);
}

/* "lo:lo + extent" of a window starting at base + konst (base: a block's row / K offset name, or NULL). */
static void win(StrBuf *sb, const char *base, int64_t konst, int64_t extent) {
    if (!base) { sb_printf(sb, "%lld:%lld", (long long)konst, (long long)(konst + extent)); return; }
    for (int side = 0; side < 2; side++) {
        sb_printf(sb, "%s%s", side ? ":" : "", base);
        if (konst) sb_printf(sb, " + %lld", (long long)konst);
    }
    sb_printf(sb, " + %lld", (long long)extent);
}

/* The name of the SPMD block's offset (rows i * M, or the K chunk ks * K), NULL without SPMD. */
static const char *block_base(const PfMix *m, int si, char *buf) {
    if (!m->blocks) return NULL;
    sprintf(buf, "b%c%d", m->atomic_k ? 'k' : 'r', si);
    return buf;
}

/* The body: the matmuls and the steps; the name of the result in res. */
static void print_chain(StrBuf *sb, const PfProgram *p, int si, const PfMix *m, int ind, char *res, size_t reslen) {
    char nb[16];
    bool loop = m->trips > 0;
    static const char *dts[] = { [DT_FP16] = "FP16", [DT_BF16] = "BF16", [DT_FP32] = "FP32" };
    char bb[16];
    const char *base = block_base(m, si, bb);
    sb_indent(sb, ind);
    sb_printf(sb, "acc%d = pl.matmul(%s[", si, pf_tname(p, m->a, nb));
    win(sb, m->atomic_k ? NULL : base, m->ar, m->M);
    sb_puts(sb, ", ");
    win(sb, m->atomic_k ? base : NULL, 0, m->K);
    sb_printf(sb, "], %s[", pf_tname(p, m->b, nb));
    win(sb, m->atomic_k ? base : NULL, 0, m->K);
    sb_puts(sb, ", ");
    span(sb, si, m->bc, m->N, m->N, loop);
    sb_printf(sb, "], out_dtype=pl.%s)\n", is_int(m) ? "INT32" : "FP32");
    char cur[32];
    snprintf(cur, sizeof cur, "acc%d", si);
    int k = 0;
    for (int i = 0; i < m->n1; i++, k++) {
        print_step(sb, p, si, m, &m->s1[i], ind, k - 1, k, i == 0 ? cur : NULL);
        snprintf(cur, sizeof cur, "v%d_%d", si, k);
    }
    if (m->mm2) {
        sb_indent(sb, ind);
        sb_printf(sb, "g%d = pl.matmul(", si);
        if ((DType)m->in_dt == DT_FP32) sb_puts(sb, cur);
        else sb_printf(sb, "pl.cast(%s, pl.%s)", cur, dts[m->in_dt]);
        sb_printf(sb, ", %s[", pf_tname(p, m->w2, nb));
        span(sb, si, 0, m->N, m->N, loop);
        sb_printf(sb, ", 0:%lld], out_dtype=pl.FP32)\n", (long long)m->N2);
        snprintf(cur, sizeof cur, "g%d", si);
        for (int i = 0; i < m->n2; i++, k++) {
            print_step(sb, p, si, m, &m->s2[i], ind, k - 1, k, i == 0 ? cur : NULL);
            snprintf(cur, sizeof cur, "v%d_%d", si, k);
        }
    }
    snprintf(res, reslen, "%s", cur);
}

static void print_store(StrBuf *sb, const PfProgram *p, const PfMix *m, int si, int ind, const char *val) {
    char nb[16], v[64], bb[16];
    snprintf(v, sizeof v, m->out_half ? "pl.cast(%s, pl.FP16)" : "%s", val);
    const char *o = pf_tname(p, m->out, nb), *base = m->atomic_k ? NULL : block_base(m, si, bb);
    sb_indent(sb, ind);
    if (m->assemble || m->atomic_k) {
        sb_printf(sb, "%s = pl.assemble(%s, %s, [", o, o, v);
        if (base) sb_printf(sb, "%s + ", base);
        sb_printf(sb, "%lld, %lld]%s)\n", (long long)m->orow, (long long)m->ocol, m->atomic_k ? ", atomic=pl.AtomicType.Add" : "");
        return;
    }
    sb_printf(sb, "%s[", o);
    win(sb, base, m->orow, m->M);
    sb_printf(sb, ", %lld:%lld] = %s\n", (long long)m->ocol, (long long)(m->ocol + pf_mix_out_cols(m)), v);
}

/* SPMD: the zero-initialising region of split-K, the launch, the block's offset; returns the indent of
 * the pl.at line (-1: the loop form, no pl.at). */
static int print_spmd_head(StrBuf *sb, const PfProgram *p, int si, const PfMix *m, int ind) {
    char nb[16];
    if (m->atomic_k) {
        sb_indent(sb, ind);
        sb_printf(sb, "with pl.at(level=pl.Level.CORE_GROUP, name_hint=\"zero%d\"):\n", si);
        sb_indent(sb, ind + 4);
        sb_printf(sb, "%s[%lld:%lld, %lld:%lld] = pl.full([%lld, %lld], dtype=pl.%s, value=%s)\n", pf_tname(p, m->out, nb),
                  (long long)m->orow, (long long)(m->orow + m->M), (long long)m->ocol, (long long)(m->ocol + m->N),
                  (long long)m->M, (long long)m->N, is_int(m) ? "INT32" : "FP32", is_int(m) ? "0" : "0.0");
    }
    sb_indent(sb, ind);
    if (!m->spmd_with) {
        sb_printf(sb, "for bi%d in pl.spmd(%d, name_hint=\"mix%d\"):\n", si, m->blocks, si);
        sb_indent(sb, ind + 4);
        sb_printf(sb, "br%d = bi%d * %lld\n", si, si, (long long)m->M);
        return -1;
    }
    sb_printf(sb, "with pl.spmd(%d):\n", m->blocks);
    return ind + 4;
}

void pf_print_mix(StrBuf *sb, const PfProgram *p, int si, int ind) {
    const PfMix *m = &p->st[si].mix;
    static const char *modes[] = { "NONE", "UP_DOWN", "LEFT_RIGHT" };
    if (m->blocks) {
        int at = print_spmd_head(sb, p, si, m, ind);
        if (at < 0) { print_region_body(sb, p, si, m, ind + 4); return; }
        ind = at;
    }
    sb_indent(sb, ind);
    sb_puts(sb, "with pl.at(level=pl.Level.CORE_GROUP");
    if (m->split != PF_SPLIT_ABSENT || m->slots) {
        sb_puts(sb, ", optimizations=[");
        if (m->split != PF_SPLIT_ABSENT) sb_printf(sb, "pl.split(pl.SplitMode.%s)", modes[m->split]);
        if (m->slots) sb_printf(sb, "%spl.cross_core_slot(slot_num=%d)", m->split != PF_SPLIT_ABSENT ? ", " : "", m->slots);
        sb_putc(sb, ']');
    }
    sb_printf(sb, ", name_hint=\"mix%d\"):\n", si);
    if (m->blocks) {
        sb_indent(sb, ind + 4);
        sb_printf(sb, "bi%d = pl.tile.get_block_idx()\n", si);
        sb_indent(sb, ind + 4);
        sb_printf(sb, "b%c%d = bi%d * %lld\n", m->atomic_k ? 'k' : 'r', si, si, (long long)(m->atomic_k ? m->K : m->M));
    }
    print_region_body(sb, p, si, m, ind + 4);
}

/* The region's statements at indent ind: the chain (in the flash loop) and the store. */
static void print_region_body(StrBuf *sb, const PfProgram *p, int si, const PfMix *m, int ind) {
    char res[32];
    ind -= 4;
    if (!m->trips) {
        print_chain(sb, p, si, m, ind + 4, res, sizeof res);
        print_store(sb, p, m, si, ind + 4, res);
        return;
    }
    sb_indent(sb, ind + 4);
    sb_printf(sb, "o%d_0 = pl.full([%lld, %lld], dtype=pl.%s, value=%s)\n", si, (long long)m->M, (long long)pf_mix_out_cols(m),
              is_int(m) ? "INT32" : "FP32", is_int(m) ? "0" : "0.0");
    sb_indent(sb, ind + 4);
    sb_printf(sb, "for j%d, (o%d,) in pl.range(%d, init_values=(o%d_0,)):\n", si, si, m->trips, si);
    print_chain(sb, p, si, m, ind + 8, res, sizeof res);
    sb_indent(sb, ind + 8);
    if (m->acc_form == 1) sb_printf(sb, "o%d_1 = pl.add(%s, o%d)\n", si, res, si);
    else if (m->acc_form == 2) sb_printf(sb, "o%d_1 = pl.add(pl.muls(o%d, 0.5), %s)\n", si, si, res);
    else sb_printf(sb, "o%d_1 = pl.add(o%d, %s)\n", si, si, res);
    sb_indent(sb, ind + 8);
    sb_printf(sb, "o%d_2 = pl.yield_(o%d_1)\n", si, si);
    snprintf(res, sizeof res, "o%d_2", si);
    print_store(sb, p, m, si, ind + 4, res);
}

/* Under a split (feature mix_granule off) the output's rows are whole 32-byte granules, so the lanes'
 * row halves (UP_DOWN) or column halves (LEFT_RIGHT) never share one: called by pf_finalize after
 * sizing. */
void pf_mix_round_out(PfProgram *p, const PfMix *m) {
    if ((m->split != PF_SPLIT_LEFT_RIGHT && m->split != PF_SPLIT_UP_DOWN) || p->features.on[PF_F_MIX_GRANULE]) return;
    PfTensor *t = &p->t[m->out];
    int64_t per = 32 / dtype_bytes(t->dt);
    t->cols = (t->cols + per - 1) / per * per;
}

/* ---- shrinking ---- */

bool pf_mix_mutate(PfMix *m, int idx) {
    switch (idx) {
    case 0: if (m->trips <= 0) return false; m->trips = m->trips > 1 ? 1 : 0; return true;
    case 1: if (m->split == PF_SPLIT_ABSENT) return false; m->split = PF_SPLIT_ABSENT; return true;
    case 2: if (!m->slots) return false; m->slots = 0; return true;
    case 3: if (!m->assemble) return false; m->assemble = false; return true;
    case 4: if (!m->orow && !m->ocol && !m->ar && !m->bc) return false; m->orow = m->ocol = m->ar = m->bc = 0; return true;
    case 5: if (m->M <= 16 || m->M % 32) return false; m->M /= 2; return true;
    case 6: if (m->K <= 16) return false; m->K /= 2; return true;
    case 7: if (!m->mm2 || m->n2 == 0) return false; m->n2--; return true;
    default: {
        int i = idx - 8;                           /* drop step i of the first chain */
        if (i >= m->n1) return false;
        memmove(&m->s1[i], &m->s1[i + 1], sizeof m->s1[0] * (size_t)(m->n1 - i - 1));
        m->n1--;
        return true;
    }
    }
}
