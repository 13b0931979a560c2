/* progfuzz_print — a PfProgram as pl DSL text.
 *
 * Requires: a program that passed pf_finalize (parameters sized, INOUT/IN settled).
 * Produces: the @pl.jit user form (regions inline in `with pl.at(...)`) or the @pl.program printed
 *           form (every region an InCore kernel with explicit tile ops, loop variables it uses passed
 *           as scalar arguments, sometimes computed: the call passes i * m + d and the kernel undoes
 *           it in its offsets), and the ptoc options of the program.
 * Does:     text only; choices that only vary the spelling derive from the program seed and the
 *           statement index, so a reduced program prints like its original. */
#include <stdio.h>
#include <string.h>

#include "base/base.h"
#include "driver/driver.h"
#include "progfuzz.h"

typedef struct Pr {
    StrBuf sb;
    const PfProgram *p;
    bool kernel;                          /* printing a printed-form kernel body */
    bool is_param[PF_MAX_VARS];           /* variable reaches the kernel as a scalar argument */
    int64_t mul[PF_MAX_VARS], add[PF_MAX_VARS];
} Pr;

static uint64_t mix(uint64_t x) {
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
    return x ^ (x >> 31);
}
static int64_t vary(const PfProgram *p, int salt, int64_t n) {
    return (int64_t)(mix(p->seed * 0x9E3779B97F4A7C15ull + (uint64_t)salt * 7919u + 1) % (uint64_t)n);
}

static const char *tname(const PfProgram *p, int t, char *buf) {
    static const char prefix[] = { [PF_IN] = 'x', [PF_OUT] = 'y', [PF_INOUT] = 'z', [PF_LOCAL] = 't' };
    sprintf(buf, "%c%d", prefix[p->t[t].dir], t);
    return buf;
}

const char *pf_tname(const PfProgram *p, int t, char *buf) { return tname(p, t, buf); }

static void tensor_type(StrBuf *sb, const PfTensor *t) {
    sb_printf(sb, "pl.Tensor[[%lld, %lld], pl.%s%s]", (long long)t->rows, (long long)t->cols, dtype_name(t->dt),
              t->nz ? ", pl.NZ" : "");
}

/* konst + coef * var + extra_coef * extra_name, simplified. */
static void off_expr(Pr *pr, StrBuf *sb, PfOff o, int64_t plus, const char *extra, int64_t extra_coef) {
    int64_t k = o.konst + plus;
    bool any = false;
    if (o.var >= 0 && o.coef != 0) {
        int64_t coef = o.coef;
        if (pr->kernel && pr->is_param[o.var]) {
            coef = o.coef / pr->mul[o.var];
            k -= coef * pr->add[o.var];
            sb_printf(sb, "s%d", o.var);
        } else {
            sb_printf(sb, "i%d", o.var);
        }
        if (coef != 1) sb_printf(sb, " * %lld", (long long)coef);
        any = true;
    }
    if (extra) {
        sb_printf(sb, "%s%s", any ? " + " : "", extra);
        if (extra_coef != 1) sb_printf(sb, " * %lld", (long long)extra_coef);
        any = true;
    }
    if (!any) sb_printf(sb, "%lld", (long long)k);
    else if (k > 0) sb_printf(sb, " + %lld", (long long)k);
    else if (k < 0) sb_printf(sb, " - %lld", (long long)-k);
}

static bool is_whole(const PfProgram *p, int t, PfOff r, PfOff c, int64_t er, int64_t ec) {
    return r.var < 0 && c.var < 0 && r.konst == 0 && c.konst == 0 && p->t[t].rows == er && p->t[t].cols == ec;
}

/* a[lo:lo + er, lo2:lo2 + ec], or the bare name when the window is the whole tensor. */
static void window(Pr *pr, int t, PfOff r, PfOff c, int64_t er, int64_t ec, bool full_subscript) {
    char nb[16];
    sb_puts(&pr->sb, tname(pr->p, t, nb));
    if (is_whole(pr->p, t, r, c, er, ec)) {
        if (full_subscript) sb_puts(&pr->sb, "[:]");
        return;
    }
    sb_putc(&pr->sb, '[');
    for (int d = 0; d < 2; d++) {
        PfOff o = d ? c : r;
        int64_t e = d ? ec : er;
        if (d) sb_puts(&pr->sb, ", ");
        if (o.var < 0 && o.konst == 0 && e == (d ? pr->p->t[t].cols : pr->p->t[t].rows)) { sb_putc(&pr->sb, ':'); continue; }
        /* the parser wants `lo:lo + SIZE` with the same lo when lo is not constant */
        off_expr(pr, &pr->sb, o, 0, NULL, 0);
        sb_putc(&pr->sb, ':');
        if (o.var < 0) {
            off_expr(pr, &pr->sb, o, e, NULL, 0);
        } else {
            off_expr(pr, &pr->sb, o, 0, NULL, 0);
            sb_printf(&pr->sb, " + %lld", (long long)e);
        }
    }
    sb_putc(&pr->sb, ']');
}

static void offsets(Pr *pr, PfOff r, int64_t rplus, const char *rx, int64_t rxc, PfOff c, int64_t cplus,
                    const char *cx, int64_t cxc) {
    sb_putc(&pr->sb, '[');
    off_expr(pr, &pr->sb, r, rplus, rx, rxc);
    sb_puts(&pr->sb, ", ");
    off_expr(pr, &pr->sb, c, cplus, cx, cxc);
    sb_putc(&pr->sb, ']');
}

/* pl.load of both operands of chunk `ch` (or of the loop variable kvar), moved to Left/Right. */
static void tile_chunk(Pr *pr, int si, const PfMM *m, int ind, const char *sfx, int64_t plus, const char *kvar) {
    char an[16], bn[16];
    int64_t kc = m->K / m->kchunks;
    const char *dt_note = "";
    (void)dt_note;
    sb_indent(&pr->sb, ind);
    sb_printf(&pr->sb, "ma%d%s = pl.load(%s, ", si, sfx, tname(pr->p, m->a, an));
    offsets(pr, m->ar, 0, NULL, 0, m->ak, plus, kvar, kc);
    sb_printf(&pr->sb, ", [%lld, %lld], target_memory=pl.Mem.Mat)\n", (long long)m->M, (long long)kc);
    sb_indent(&pr->sb, ind);
    sb_printf(&pr->sb, "mb%d%s = pl.load(%s, ", si, sfx, tname(pr->p, m->b, bn));
    offsets(pr, m->bk, plus, kvar, kc, m->bc, 0, NULL, 0);
    sb_printf(&pr->sb, ", [%lld, %lld], target_memory=pl.Mem.Mat)\n", (long long)kc, (long long)m->N);
    sb_indent(&pr->sb, ind);
    sb_printf(&pr->sb, "la%d%s = pl.move(ma%d%s, target_memory=pl.Mem.Left)\n", si, sfx, si, sfx);
    sb_indent(&pr->sb, ind);
    sb_printf(&pr->sb, "lb%d%s = pl.move(mb%d%s, target_memory=pl.Mem.Right)\n", si, sfx, si, sfx);
}

/* pl.load of a whole [rows, cols] operand window into Mat. */
static void mat_load(Pr *pr, const char *name, int t, PfOff r, int64_t rplus, const char *rx, int64_t rxc, PfOff c,
                     int64_t cplus, const char *cx, int64_t cxc, int64_t rows, int64_t cols, int ind) {
    char tn[16];
    sb_indent(&pr->sb, ind);
    sb_printf(&pr->sb, "%s = pl.load(%s, ", name, tname(pr->p, t, tn));
    offsets(pr, r, rplus, rx, rxc, c, cplus, cx, cxc);
    sb_printf(&pr->sb, ", [%lld, %lld], target_memory=pl.Mem.Mat)\n", (long long)rows, (long long)cols);
}

/* The store of the result tile `res` to the matmul's destination window (column offset plus
 * col_plus * cx when cx is a loop variable). */
static void mm_store(Pr *pr, const PfMM *m, const char *res, const char *cx, int64_t cxc, int ind) {
    char dn[16];
    tname(pr->p, m->dst, dn);
    sb_indent(&pr->sb, ind);
    sb_printf(&pr->sb, "%s = pl.store(%s, ", dn, res);
    offsets(pr, m->dr, 0, NULL, 0, m->dc, 0, cx, cxc);
    sb_printf(&pr->sb, ", %s%s)\n", dn, m->atomic ? ", atomic=pl.AtomicType.Add" : "");
}

/* The automatic TILE spellings (PfTileForm). */
static void print_tile_form(Pr *pr, int si, const PfMM *m, int ind) {
    char n1[32], n2[32], n3[32], res[32], kv[16];
    sprintf(n1, "ma%d", si);
    sprintf(n2, "mb%d", si);
    sprintf(res, "acc%d", si);
    PfOff none = { -1, 0, 0 };
    switch ((PfTileForm)m->tform) {
    case PF_TF_MANUAL: break;
    case PF_TF_AUTO:
    case PF_TF_BIAS:
        mat_load(pr, n1, m->a, m->ar, 0, NULL, 0, m->ak, 0, NULL, 0, m->M, m->K, ind);
        mat_load(pr, n2, m->b, m->bk, 0, NULL, 0, m->bc, 0, NULL, 0, m->K, m->N, ind);
        if (m->tform == PF_TF_AUTO) {
            sb_indent(&pr->sb, ind);
            sb_printf(&pr->sb, "%s = pl.tile.matmul(%s, %s)\n", res, n1, n2);
        } else {
            sprintf(n3, "mbias%d", si);
            mat_load(pr, n3, m->bias, none, 0, NULL, 0, none, 0, NULL, 0, 1, m->N, ind);
            sb_indent(&pr->sb, ind);
            sb_printf(&pr->sb, "%s = pl.tile.matmul_bias(%s, %s, %s)\n", res, n1, n2, n3);
        }
        break;
    case PF_TF_CHAIN:
        mat_load(pr, n1, m->a, m->ar, 0, NULL, 0, m->ak, 0, NULL, 0, m->M, m->K, ind);
        mat_load(pr, n2, m->b, m->bk, 0, NULL, 0, m->bc, 0, NULL, 0, m->K, m->n1, ind);
        sprintf(n3, "me%d", si);
        mat_load(pr, n3, m->bias, none, 0, NULL, 0, none, 0, NULL, 0, m->n1, m->N, ind);
        sb_indent(&pr->sb, ind);
        sb_printf(&pr->sb, "c%d = pl.tile.matmul(%s, %s)\n", si, n1, n2);
        sb_indent(&pr->sb, ind);
        sb_printf(&pr->sb, "cb%d = pl.tile.cast(c%d, pl.FP16, mode=\"rint\")\n", si, si);
        sb_indent(&pr->sb, ind);
        sb_printf(&pr->sb, "%s = pl.tile.matmul(cb%d, %s)\n", res, si, n3);
        break;
    case PF_TF_SPLITK: {
        int64_t kc = m->K / m->kchunks;
        sprintf(kv, "kb%d", si);
        sb_indent(&pr->sb, ind);
        sb_printf(&pr->sb, "%s = pl.tile.create([%lld, %lld], dtype=pl.%s, target_memory=pl.Mem.Acc)\n", res, (long long)m->M,
                  (long long)m->N, dtype_name(m->in_dt == DT_INT8 ? DT_INT32 : DT_FP32));
        sb_indent(&pr->sb, ind);
        sb_printf(&pr->sb, "for %s in pl.pipeline(0, %d, stage=2):\n", kv, m->kchunks);
        mat_load(pr, n1, m->a, m->ar, 0, NULL, 0, m->ak, 0, kv, kc, m->M, kc, ind + 4);
        mat_load(pr, n2, m->b, m->bk, 0, kv, kc, m->bc, 0, NULL, 0, kc, m->N, ind + 4);
        sb_indent(&pr->sb, ind + 4);
        if (!m->peeled) {
            sb_printf(&pr->sb, "%s = pl.tile.matmul_acc(%s, %s, %s, %s == 0)\n", res, res, n1, n2, kv);
        } else {
            sb_printf(&pr->sb, "if %s == 0:\n", kv);
            sb_indent(&pr->sb, ind + 8);
            sb_printf(&pr->sb, "%s = pl.tile.matmul(%s, %s)\n", res, n1, n2);
            sb_indent(&pr->sb, ind + 4);
            sb_puts(&pr->sb, "else:\n");
            sb_indent(&pr->sb, ind + 8);
            sb_printf(&pr->sb, "%s = pl.tile.matmul_acc(%s, %s, %s)\n", res, res, n1, n2);
        }
        break;
    }
    case PF_TF_PIPE: {
        sprintf(kv, "j%d", si);
        mat_load(pr, n1, m->a, m->ar, 0, NULL, 0, m->ak, 0, NULL, 0, m->M, m->K, ind);
        mat_load(pr, n2, m->b, m->bk, 0, NULL, 0, m->bc, 0, NULL, 0, m->K, m->N, ind);
        sb_indent(&pr->sb, ind);
        sb_printf(&pr->sb, "la%d = pl.tile.extract(%s, 0, 0, [%lld, %lld], target_memory=pl.Mem.Left)\n", si, n1, (long long)m->M,
                  (long long)m->K);
        sb_indent(&pr->sb, ind);
        sb_printf(&pr->sb, "for %s in pl.pipeline(0, %lld, stage=%d):\n", kv, (long long)(m->N / m->nb), m->stages);
        sb_indent(&pr->sb, ind + 4);
        sb_printf(&pr->sb, "rb%d = pl.tile.extract(%s, 0, %s * %lld, [%lld, %lld], target_memory=pl.Mem.Right)\n", si, n2, kv,
                  (long long)m->nb, (long long)m->K, (long long)m->nb);
        sb_indent(&pr->sb, ind + 4);
        sb_printf(&pr->sb, "%s = pl.tile.matmul(la%d, rb%d)\n", res, si, si);
        mm_store(pr, m, res, kv, m->nb, ind + 4);
        return;
    }
    }
    mm_store(pr, m, res, NULL, 0, ind);
}

static void print_mm(Pr *pr, int si, int ind) {
    const PfProgram *p = pr->p;
    const PfMM *m = &p->st[si].mm;
    char dn[16];
    tname(p, m->dst, dn);
    const char *out_dt = dtype_name(m->in_dt == DT_INT8 ? DT_INT32 : DT_FP32);
    if (m->style == PF_MM_TILE && m->tform != PF_TF_MANUAL) {
        print_tile_form(pr, si, m, ind);
        return;
    }
    if (m->style == PF_MM_TILE) {
        int64_t kc = m->K / m->kchunks;
        tile_chunk(pr, si, m, ind, "", 0, NULL);
        sb_indent(&pr->sb, ind);
        sb_printf(&pr->sb, "acc%d = pl.matmul(la%d, lb%d)\n", si, si, si);
        if (m->kloop) {
            char kv[16];
            sprintf(kv, "k%d", si);
            sb_indent(&pr->sb, ind);
            sb_printf(&pr->sb, "for k%d in pl.range(1, %d):\n", si, m->kchunks);
            tile_chunk(pr, si, m, ind + 4, "_k", 0, kv);
            sb_indent(&pr->sb, ind + 4);
            sb_printf(&pr->sb, "acc%d = pl.matmul_acc(acc%d, la%d_k, lb%d_k)\n", si, si, si, si);
        } else {
            for (int ch = 1; ch < m->kchunks; ch++) {
                char sfx[16];
                sprintf(sfx, "_%d", ch);
                tile_chunk(pr, si, m, ind, sfx, ch * kc, NULL);
                sb_indent(&pr->sb, ind);
                sb_printf(&pr->sb, "acc%d = pl.matmul_acc(acc%d, la%d%s, lb%d%s)\n", si, si, si, sfx, si, sfx);
            }
        }
        sb_indent(&pr->sb, ind);
        sb_printf(&pr->sb, "%s = pl.store(acc%d, ", dn, si);
        offsets(pr, m->dr, 0, NULL, 0, m->dc, 0, NULL, 0);
        sb_printf(&pr->sb, ", %s%s)\n", dn, m->atomic ? ", atomic=pl.AtomicType.Add" : "");
        return;
    }
    if (m->style == PF_MM_SUGAR && !m->atomic) {
        sb_indent(&pr->sb, ind);
        window(pr, m->dst, m->dr, m->dc, m->M, m->N, true);
        sb_puts(&pr->sb, " = pl.matmul(");
    } else {
        sb_indent(&pr->sb, ind);
        sb_printf(&pr->sb, "m%d = pl.matmul(", si);
    }
    window(pr, m->a, m->ar, m->ak, m->M, m->K, false);
    sb_puts(&pr->sb, ", ");
    window(pr, m->b, m->bk, m->bc, m->K, m->N, false);
    sb_printf(&pr->sb, ", out_dtype=pl.%s)\n", out_dt);
    if (m->style == PF_MM_SUGAR && !m->atomic) return;
    sb_indent(&pr->sb, ind);
    sb_printf(&pr->sb, "%s = pl.assemble(%s, m%d, ", dn, dn, si);
    offsets(pr, m->dr, 0, NULL, 0, m->dc, 0, NULL, 0);
    sb_printf(&pr->sb, "%s)\n", m->atomic ? ", atomic=pl.AtomicType.Add" : "");
}

static void print_block(Pr *pr, const int *ids, int n, int ind);

/* ---- vector blocks ---- */

/* A constant as a literal of the dtype: floats keep a '.', integers none. */
static void literal(StrBuf *sb, double k, DType dt) {
    char buf[64];
    if (!dtype_is_float(dt) && k == (double)(int64_t)k) { sb_printf(sb, "%lld", (long long)k); return; }
    snprintf(buf, sizeof buf, "%.17g", k);
    sb_puts(sb, buf);
    if (!strpbrk(buf, ".eEn")) sb_puts(sb, ".0");
}

static void vname(Pr *pr, int si, const PfVec *v, int k);

/* The scalar operand of a node: the constant, loop variable + constant, or tK[r, c] (an element read). */
static void vscalar(Pr *pr, int si, const PfVec *v, const PfVNode *n) {
    if (n->kread > 0) {
        vname(pr, si, v, n->kread - 1);
        sb_printf(&pr->sb, "[%d, %d]", n->kr, n->kc);
        return;
    }
    if (n->kvar < 0) { literal(&pr->sb, n->k, (DType)n->dt); return; }
    off_expr(pr, &pr->sb, (PfOff){ n->kvar, 1, (int64_t)n->k }, 0, NULL, 0);
}

static int vuses(const PfVec *v, int k) {
    int u = 0;
    for (int i = 0; i < v->nn; i++) u += (v->n[i].a == k) + (v->n[i].b == k) + (v->n[i].kread == k + 1);
    for (int i = 0; i < v->ns; i++) u += v->s[i].node == k;
    return u;
}

/* Node k printed inside its single consumer (a spelling choice, from the seed). */
static bool vinline(const Pr *pr, int si, const PfVec *v, int k) {
    const PfVNode *n = &v->n[k];
    if (n->op == PF_V_LOAD && !v->tensor_level) return false;
    if (vuses(v, k) != 1) return false;
    for (int i = 0; i < v->ns; i++) if (v->s[i].node == k) return false;
    return vary(pr->p, si * 64 + k + 5000, 3) == 0;
}

static void vexpr(Pr *pr, int si, const PfVec *v, int k);

static void vname(Pr *pr, int si, const PfVec *v, int k) {
    if (vinline(pr, si, v, k)) vexpr(pr, si, v, k);
    else sb_printf(&pr->sb, "v%d_%d", si, k);
}

static const char *vec_space(const Pr *pr, int si) { return vary(pr->p, si + 7000, 3) ? "pl.Mem.Vec" : "pl.MemorySpace.Vec"; }

static void vexpr(Pr *pr, int si, const PfVec *v, int k) {
    const PfVNode *n = &v->n[k];
    const PfVOpInfo *oi = pf_vop(n->op);
    StrBuf *sb = &pr->sb;
    DType dt = (DType)n->dt;
    int64_t rows = pf_vshape_rows(v, n->shape), cols = pf_vshape_cols(v, n->shape);
    static const char *pads[] = { "zero", "max", "min" };
    switch (oi->kind) {
    case PF_VK_LOAD:
        if (v->tensor_level) { window(pr, n->tensor, n->r, n->c, rows, cols, false); return; }
        sb_printf(sb, "%s(", n->vr || n->vc ? "pl.tile.load" : "pl.load");
        { char nb[16]; sb_puts(sb, tname(pr->p, n->tensor, nb)); }
        sb_puts(sb, ", ");
        offsets(pr, n->r, 0, NULL, 0, n->c, 0, NULL, 0);
        sb_printf(sb, ", [%lld, %lld]", (long long)rows, (long long)cols);
        if (n->vr || n->vc) sb_printf(sb, ", [%lld, %lld]", (long long)(n->vr ? n->vr : rows), (long long)(n->vc ? n->vc : cols));
        sb_printf(sb, ", target_memory=%s)", vec_space(pr, si));
        return;
    case PF_VK_FULL:
        if (v->tensor_level) sb_printf(sb, "pl.full([%lld, %lld], pl.%s, ", (long long)rows, (long long)cols, dtype_name(dt));
        else if (vary(pr->p, si * 64 + k, 2)) sb_printf(sb, "pl.tile.full([%lld, %lld], dtype=pl.%s, value=", (long long)rows, (long long)cols, dtype_name(dt));
        else sb_printf(sb, "pl.tile.full([%lld, %lld], pl.%s, ", (long long)rows, (long long)cols, dtype_name(dt));
        literal(sb, n->k, dt);
        sb_putc(sb, ')');
        return;
    case PF_VK_EXPANDS:
        sb_puts(sb, "pl.expands(");
        vname(pr, si, v, n->a);
        sb_puts(sb, ", ");
        vscalar(pr, si, v, n);
        sb_putc(sb, ')');
        return;
    case PF_VK_FILLPAD:
        sb_puts(sb, "pl.fillpad(");
        vname(pr, si, v, n->a);
        sb_printf(sb, ", pad_value=pl.PadValue.%s)", pads[n->mode]);
        return;
    case PF_VK_SCALAR:
        sb_printf(sb, "pl.%s(", oi->name);
        if (n->form & PF_VF_SWAP) {
            vscalar(pr, si, v, n);
            sb_puts(sb, ", ");
            vname(pr, si, v, n->a);
        } else {
            vname(pr, si, v, n->a);
            sb_puts(sb, ", ");
            vscalar(pr, si, v, n);
        }
        sb_putc(sb, ')');
        return;
    case PF_VK_UNARY:
        sb_printf(sb, "pl.%s(", oi->name);
        vname(pr, si, v, n->a);
        sb_putc(sb, ')');
        return;
    case PF_VK_CAST:
        sb_puts(sb, "pl.cast(");
        vname(pr, si, v, n->a);
        sb_printf(sb, ", pl.%s", dtype_name(dt));
        if (n->mode >= 0) sb_printf(sb, ", mode=\"%s\"", dtype_round_name(n->mode));
        sb_putc(sb, ')');
        return;
    case PF_VK_REDUCE:
        sb_printf(sb, "pl.%s(", oi->name);
        vname(pr, si, v, n->a);
        if (!v->tensor_level && (oi->xname[0] == 'r' || (n->form & PF_VF_TMP)))
            sb_printf(sb, ", w%d_%s", si, dtype_name((DType)v->n[(int)n->a].dt));
        sb_putc(sb, ')');
        return;
    case PF_VK_EXPAND:
        sb_printf(sb, "pl.%s(", oi->name);
        vname(pr, si, v, n->a);
        sb_puts(sb, ", ");
        vname(pr, si, v, n->b);
        sb_putc(sb, ')');
        return;
    case PF_VK_BINARY: {
        int a = n->a, b = n->b;
        const PfVNode *na = &v->n[a], *nb = &v->n[b];
        if (n->form & PF_VF_EXPLICIT) {
            if (na->shape != PF_VSH_FULL) a = n->b, b = n->a;              /* commutative: the matrix first */
            sb_printf(sb, "pl.%s_expand_%s(", (na->shape == PF_VSH_ROW || nb->shape == PF_VSH_ROW) ? "row" : "col", oi->xname);
        } else {
            sb_printf(sb, "pl.%s(", oi->name);
        }
        vname(pr, si, v, a);
        sb_puts(sb, ", ");
        vname(pr, si, v, b);
        sb_putc(sb, ')');
        return;
    }
    }
}

static void print_vec(Pr *pr, int si, int ind) {
    const PfProgram *p = pr->p;
    const PfVec *v = &p->vec[p->st[si].vec];
    StrBuf *sb = &pr->sb;
    char nb[16];
    /* scratch tiles of the tile-level reductions, one per input dtype */
    bool tmp[DT_COUNT] = { 0 };
    for (int k = 0; k < v->nn && !v->tensor_level; k++) {
        const PfVNode *n = &v->n[k];
        const PfVOpInfo *oi = pf_vop(n->op);
        if (oi->kind != PF_VK_REDUCE || !(oi->xname[0] == 'r' || (n->form & PF_VF_TMP))) continue;
        DType dt = (DType)v->n[(int)n->a].dt;
        if (tmp[dt]) continue;
        tmp[dt] = true;
        sb_indent(sb, ind);
        sb_printf(sb, "w%d_%s = pl.create_tile([%lld, %lld], dtype=pl.%s, target_memory=%s)\n", si, dtype_name(dt), (long long)v->R,
                  (long long)v->C, dtype_name(dt), vec_space(pr, si));
    }
    for (int k = 0; k < v->nn; k++) {
        if (vinline(pr, si, v, k)) continue;
        sb_indent(sb, ind);
        sb_printf(sb, "v%d_%d = ", si, k);
        const PfVNode *n = &v->n[k];
        if (n->op == PF_V_LOAD && v->tensor_level)      /* x[:] or the bare name x (tests/fuzz/found/tensor_alias_in_at_*) */
            window(pr, n->tensor, n->r, n->c, pf_vshape_rows(v, n->shape), pf_vshape_cols(v, n->shape), vary(p, si * 64 + k + 11000, 2) == 0);
        else
            vexpr(pr, si, v, k);
        sb_putc(sb, '\n');
    }
    for (int i = 0; i < v->ns; i++) {
        const PfVStore *st = &v->s[i];
        const PfVNode *n = &v->n[(int)st->node];
        int64_t rows = pf_vshape_rows(v, n->shape), cols = pf_vshape_cols(v, n->shape);
        tname(p, st->tensor, nb);
        sb_indent(sb, ind);
        if (!v->tensor_level) {
            sb_printf(sb, "%s = pl.store(", nb);
            vname(pr, si, v, st->node);
            sb_puts(sb, ", ");
            offsets(pr, st->r, 0, NULL, 0, st->c, 0, NULL, 0);
            sb_printf(sb, ", %s)\n", nb);
        } else if (vary(p, si * 8 + i + 9000, 3) == 0) {
            sb_printf(sb, "%s = pl.assemble(%s, ", nb, nb);
            vname(pr, si, v, st->node);
            sb_puts(sb, ", ");
            offsets(pr, st->r, 0, NULL, 0, st->c, 0, NULL, 0);
            sb_puts(sb, ")\n");
        } else {
            window(pr, st->tensor, st->r, st->c, rows, cols, true);
            sb_puts(sb, " = ");
            vname(pr, si, v, st->node);
            sb_putc(sb, '\n');
        }
    }
}

static void loop_header(Pr *pr, const PfStmt *s, int ind) {
    const PfVar *v = &pr->p->v[s->var];
    static const char *kinds[] = { "pl.range", "pl.parallel", "pl.pipeline" };
    sb_indent(&pr->sb, ind);
    sb_printf(&pr->sb, "for i%d in %s(", s->var, kinds[s->loop]);
    if (v->start == 0 && v->step == 1 && s->loop != PF_LOOP_PIPELINE) sb_printf(&pr->sb, "%lld", (long long)v->stop);
    else if (v->step == 1 && s->loop != PF_LOOP_PIPELINE) sb_printf(&pr->sb, "%lld, %lld", (long long)v->start, (long long)v->stop);
    else sb_printf(&pr->sb, "%lld, %lld, %lld", (long long)v->start, (long long)v->stop, (long long)v->step);
    sb_puts(&pr->sb, s->loop == PF_LOOP_PIPELINE ? ", stage=2):\n" : "):\n");
}

/* Tensors read / written by a region, and the loop variables it uses from outside. */
static void region_uses(const PfProgram *p, int si, bool *rd, bool *wr, bool *atomic, bool *vars, bool *inner) {
    const PfStmt *s = &p->st[si];
    if (s->kind == PF_S_MM) {
        const PfMM *m = &s->mm;
        rd[m->a] = rd[m->b] = wr[m->dst] = true;
        int64_t er, ec;
        if (pf_mm_extra(m, &er, &ec) >= 0) rd[m->bias] = true;
        if (m->atomic) atomic[m->dst] = true;
        const PfOff *o[] = { &m->ar, &m->ak, &m->bk, &m->bc, &m->dr, &m->dc };
        for (int i = 0; i < 6; i++) if (o[i]->var >= 0) vars[o[i]->var] = true;
    }
    if (s->kind == PF_S_VEC) {
        const PfVec *v = &p->vec[s->vec];
        for (int k = 0; k < v->nn; k++) {
            const PfVNode *n = &v->n[k];
            if (n->op == PF_V_LOAD) {
                rd[(int)n->tensor] = true;
                if (n->r.var >= 0) vars[n->r.var] = true;
                if (n->c.var >= 0) vars[n->c.var] = true;
            }
            if (n->kvar >= 0) vars[(int)n->kvar] = true;
        }
        for (int i = 0; i < v->ns; i++) {
            wr[(int)v->s[i].tensor] = true;
            if (v->s[i].r.var >= 0) vars[v->s[i].r.var] = true;
            if (v->s[i].c.var >= 0) vars[v->s[i].c.var] = true;
        }
    }
    if (s->kind == PF_S_FOR) inner[s->var] = true;
    if (s->kind == PF_S_IF) vars[s->cond_var] = true;
    for (int i = 0; i < s->nbody; i++) region_uses(p, s->body[i], rd, wr, atomic, vars, inner);
    for (int i = 0; i < s->nelse; i++) region_uses(p, s->orelse[i], rd, wr, atomic, vars, inner);
}

static bool coefs_divisible(const PfProgram *p, int si, int v, int64_t m) {
    const PfStmt *s = &p->st[si];
    if (s->kind == PF_S_MM) {
        const PfOff *o[] = { &s->mm.ar, &s->mm.ak, &s->mm.bk, &s->mm.bc, &s->mm.dr, &s->mm.dc };
        for (int i = 0; i < 6; i++) if (o[i]->var == v && o[i]->coef % m) return false;
    }
    if (s->kind == PF_S_VEC) {
        const PfVec *vb = &p->vec[s->vec];
        for (int k = 0; k < vb->nn; k++) {
            const PfVNode *n = &vb->n[k];
            if (n->kvar == v && m != 1) return false;
            if (n->op == PF_V_LOAD && ((n->r.var == v && n->r.coef % m) || (n->c.var == v && n->c.coef % m))) return false;
        }
        for (int i = 0; i < vb->ns; i++)
            if ((vb->s[i].r.var == v && vb->s[i].r.coef % m) || (vb->s[i].c.var == v && vb->s[i].c.coef % m)) return false;
    }
    if (s->kind == PF_S_IF && s->cond_var == v && m != 1) return false;
    for (int i = 0; i < s->nbody; i++) if (!coefs_divisible(p, s->body[i], v, m)) return false;
    for (int i = 0; i < s->nelse; i++) if (!coefs_divisible(p, s->orelse[i], v, m)) return false;
    return true;
}

/* A kernel's scalar argument for outer variable v is passed as v * m + a (SCALAR_ARGS). */
static void scalar_encoding(const PfProgram *p, int si, int v, int64_t *m, int64_t *a) {
    *m = 1;
    *a = 0;
    if (!p->features.on[PF_F_SCALAR_ARGS]) return;
    *m = (int64_t[]){ 1, 2, 4, 1 }[vary(p, si * 8 + v, 4)];
    while (*m > 1 && !coefs_divisible(p, si, v, *m)) *m /= 2;
    *a = (int64_t[]){ 0, 1, 16 }[vary(p, si * 8 + v + 100, 3)];
}

static void print_call(Pr *pr, int si, int ind) {
    const PfProgram *p = pr->p;
    bool rd[PF_MAX_TENSORS] = { 0 }, wr[PF_MAX_TENSORS] = { 0 }, at[PF_MAX_TENSORS] = { 0 };
    bool vars[PF_MAX_VARS] = { 0 }, inner[PF_MAX_VARS] = { 0 };
    region_uses(p, si, rd, wr, at, vars, inner);
    char nb[16];
    int w = -1;
    for (int t = 0; t < p->ntensors; t++) if (wr[t]) w = t;
    sb_indent(&pr->sb, ind);
    sb_printf(&pr->sb, "%s = self.k%d(", tname(p, w, nb), si);
    bool first = true;
    for (int t = 0; t < p->ntensors; t++) {
        if (!rd[t] && !wr[t]) continue;
        sb_printf(&pr->sb, "%s%s", first ? "" : ", ", tname(p, t, nb));
        first = false;
    }
    for (int v = 0; v < PF_MAX_VARS; v++) {
        if (!vars[v] || inner[v]) continue;
        int64_t m, a;
        scalar_encoding(p, si, v, &m, &a);
        sb_printf(&pr->sb, "%si%d", first ? "" : ", ", v);
        if (m != 1) sb_printf(&pr->sb, " * %lld", (long long)m);
        if (a) sb_printf(&pr->sb, " + %lld", (long long)a);
        first = false;
    }
    sb_puts(&pr->sb, ")\n");
}

static void print_stmt(Pr *pr, int si, int ind) {
    const PfProgram *p = pr->p;
    const PfStmt *s = &p->st[si];
    static const char *cmp[] = { "==", "<", ">=" };
    switch (s->kind) {
    case PF_S_MM: print_mm(pr, si, ind); break;
    case PF_S_VEC: print_vec(pr, si, ind); break;
    case PF_S_MIX: pf_print_mix(&pr->sb, p, si, ind); break;
    case PF_S_FOR:
        loop_header(pr, s, ind);
        print_block(pr, s->body, s->nbody, ind + 4);
        break;
    case PF_S_IF:
        sb_indent(&pr->sb, ind);
        sb_puts(&pr->sb, "if ");
        off_expr(pr, &pr->sb, (PfOff){ s->cond_var, 1, 0 }, 0, NULL, 0);
        sb_printf(&pr->sb, " %s %lld:\n", cmp[s->cmp], (long long)s->cond_val);
        print_block(pr, s->body, s->nbody, ind + 4);
        if (s->nelse) {
            sb_indent(&pr->sb, ind);
            sb_puts(&pr->sb, "else:\n");
            print_block(pr, s->orelse, s->nelse, ind + 4);
        }
        break;
    case PF_S_MANUAL:
        sb_indent(&pr->sb, ind);
        sb_puts(&pr->sb, vary(p, si, 2) ? "with pl.manual_scope():\n" : "with pl.scope(mode=pl.ScopeMode.MANUAL):\n");
        print_block(pr, s->body, s->nbody, ind + 4);
        break;
    case PF_S_AT:
        if (p->form == PF_FORM_PROGRAM) { print_call(pr, si, ind); break; }
        sb_indent(&pr->sb, ind);
        sb_puts(&pr->sb, "with pl.at(level=pl.Level.CORE_GROUP");
        if (vary(p, si, 4) == 0) sb_printf(&pr->sb, ", name_hint=\"r%d\"", si);
        if (s->ndeps) {
            sb_puts(&pr->sb, ", deps=[");
            for (int d = 0; d < s->ndeps; d++) sb_printf(&pr->sb, "%stid%d", d ? ", " : "", p->st[s->deps[d]].tid);
            sb_putc(&pr->sb, ']');
        }
        sb_putc(&pr->sb, ')');
        if (s->tid >= 0) sb_printf(&pr->sb, " as tid%d", s->tid);
        sb_puts(&pr->sb, ":\n");
        print_block(pr, s->body, s->nbody, ind + 4);
        break;
    }
}

static void print_block(Pr *pr, const int *ids, int n, int ind) {
    if (n == 0) {
        sb_indent(&pr->sb, ind);
        sb_puts(&pr->sb, "pass\n");
    }
    for (int i = 0; i < n; i++) print_stmt(pr, ids[i], ind);
}

static bool used(const PfTensor *t) { return t->accessed && t->rows > 0 && t->cols > 0; }

static void params(Pr *pr, bool self) {
    const PfProgram *p = pr->p;
    char nb[16];
    bool first = true;
    if (self) sb_puts(&pr->sb, "self"), first = false;
    for (int t = 0; t < p->ntensors; t++) {
        const PfTensor *tt = &p->t[t];
        if (!used(tt) || tt->dir == PF_LOCAL) continue;
        sb_printf(&pr->sb, "%s\n        %s: ", first ? "" : ",", tname(p, t, nb));
        first = false;
        if (tt->dir == PF_OUT) sb_puts(&pr->sb, "pl.Out[");
        if (tt->dir == PF_INOUT) sb_puts(&pr->sb, "pl.InOut[");
        tensor_type(&pr->sb, tt);
        if (tt->dir != PF_IN) sb_putc(&pr->sb, ']');
    }
    sb_putc(&pr->sb, ')');
}

static void locals_and_body(Pr *pr, int ind) {
    const PfProgram *p = pr->p;
    char nb[16];
    for (int t = 0; t < p->ntensors; t++) {
        if (p->t[t].dir != PF_LOCAL || !used(&p->t[t])) continue;
        sb_indent(&pr->sb, ind);
        sb_printf(&pr->sb, "%s = pl.create_tensor([%lld, %lld], dtype=pl.%s)\n", tname(p, t, nb),
                  (long long)p->t[t].rows, (long long)p->t[t].cols, dtype_name(p->t[t].dt));
    }
    print_block(pr, p->top, p->ntop, ind);
    sb_indent(&pr->sb, ind);
    sb_puts(&pr->sb, "return ");
    bool first = true;
    for (int t = 0; t < p->ntensors; t++) {
        if (!used(&p->t[t]) || (p->t[t].dir != PF_OUT && p->t[t].dir != PF_INOUT)) continue;
        sb_printf(&pr->sb, "%s%s", first ? "" : ", ", tname(p, t, nb));
        first = false;
    }
    sb_putc(&pr->sb, '\n');
}

static void collect_regions(const PfProgram *p, int si, int *out, int *n) {
    const PfStmt *s = &p->st[si];
    if (s->kind == PF_S_AT) { out[(*n)++] = si; return; }
    for (int i = 0; i < s->nbody; i++) collect_regions(p, s->body[i], out, n);
    for (int i = 0; i < s->nelse; i++) collect_regions(p, s->orelse[i], out, n);
}

static void print_kernel(Pr *pr, int si) {
    const PfProgram *p = pr->p;
    bool rd[PF_MAX_TENSORS] = { 0 }, wr[PF_MAX_TENSORS] = { 0 }, at[PF_MAX_TENSORS] = { 0 };
    bool vars[PF_MAX_VARS] = { 0 }, inner[PF_MAX_VARS] = { 0 };
    region_uses(p, si, rd, wr, at, vars, inner);
    char nb[16];
    int w = -1;
    sb_printf(&pr->sb, "    @pl.function(type=pl.FunctionType.InCore)\n    def k%d(self", si);
    for (int t = 0; t < p->ntensors; t++) {
        if (!rd[t] && !wr[t]) continue;
        sb_printf(&pr->sb, ",\n            %s: ", tname(p, t, nb));
        if (wr[t]) {
            w = t;
            sb_puts(&pr->sb, rd[t] || at[t] || p->t[t].dir == PF_INOUT ? "pl.InOut[" : "pl.Out[");
        }
        tensor_type(&pr->sb, &p->t[t]);
        if (wr[t]) sb_putc(&pr->sb, ']');
    }
    pr->kernel = true;
    for (int v = 0; v < PF_MAX_VARS; v++) {
        pr->is_param[v] = vars[v] && !inner[v];
        pr->mul[v] = 1;
        pr->add[v] = 0;
        if (!pr->is_param[v]) continue;
        sb_printf(&pr->sb, ",\n            s%d: pl.Scalar[pl.INDEX]", v);
        scalar_encoding(p, si, v, &pr->mul[v], &pr->add[v]);
    }
    sb_puts(&pr->sb, ") -> ");
    tensor_type(&pr->sb, &p->t[w]);
    sb_puts(&pr->sb, ":\n");
    print_block(pr, p->st[si].body, p->st[si].nbody, 8);
    sb_printf(&pr->sb, "        return %s\n\n", tname(p, w, nb));
    pr->kernel = false;
}

char *pf_print(const PfProgram *p) {
    Pr pr = { .p = p };
    char opts[200];
    pf_options_string(p, opts, sizeof opts);
    sb_printf(&pr.sb, "# progfuzz seed %llu; ptoc run <file>%s\n", (unsigned long long)p->seed, opts);
    sb_puts(&pr.sb, "import pypto.language as pl\n\n\n");
    if (p->form == PF_FORM_JIT) {
        sb_puts(&pr.sb, "@pl.jit\ndef fz(");
        params(&pr, false);
        sb_puts(&pr.sb, ":\n");
        locals_and_body(&pr, 4);
        return sb_take(&pr.sb);
    }
    sb_puts(&pr.sb, "@pl.program\nclass Fz:\n");
    int regions[PF_MAX_STMTS], nr = 0;
    for (int i = 0; i < p->ntop; i++) collect_regions(p, p->top[i], regions, &nr);
    for (int i = 0; i < nr; i++) print_kernel(&pr, regions[i]);
    sb_puts(&pr.sb, "    @pl.function(type=pl.FunctionType.Orchestration)\n    def main(");
    params(&pr, true);
    int nret = 0;
    for (int t = 0; t < p->ntensors; t++) nret += used(&p->t[t]) && (p->t[t].dir == PF_OUT || p->t[t].dir == PF_INOUT);
    sb_puts(&pr.sb, " -> ");
    if (nret > 1) sb_puts(&pr.sb, "tuple[");
    bool first = true;
    for (int t = 0; t < p->ntensors; t++) {
        if (!used(&p->t[t]) || (p->t[t].dir != PF_OUT && p->t[t].dir != PF_INOUT)) continue;
        if (!first) sb_puts(&pr.sb, ", ");
        tensor_type(&pr.sb, &p->t[t]);
        first = false;
    }
    sb_puts(&pr.sb, nret > 1 ? "]:\n" : ":\n");
    locals_and_body(&pr, 8);
    return sb_take(&pr.sb);
}

void pf_options_string(const PfProgram *p, char *buf, size_t len) {
    static const char *planners[] = { "pypto", "dsa_rp", "ptoas" };
    snprintf(buf, len, "%s%s%s%s --seed %llu", p->a5 ? " --target a5" : "", p->planner ? " --memory-planner " : "",
             p->planner ? planners[p->planner] : "", p->dbc ? " --dbc" : "", (unsigned long long)p->run_seed);
}
