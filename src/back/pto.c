/* pto — the `.pto` printer: a kernel as a PTO-dialect MLIR module (spec/ir_and_passes.md §9).
 *
 * Requires: a Kernel (level 3: every buffer has its address), optionally after back_insert_sync.
 * Produces: text — module header with pto.target_arch, one func.func with the kernel kind, the
 *           deduplicated constants, one pto.make_tensor_view per tensor parameter, one pto.alloc_tile
 *           per buffer, then the body (pto.partition_view + pto.tload / pto.tstore, pto.textract,
 *           pto.tmov, pto.tinsert, pto.tmatmul[.acc|.bias], scf.for, scf.if, arith.* temporaries for
 *           scalar expressions, and the inserted syncs), `return` and the closing braces.
 * Does:     a strict one-to-one translation, no analysis. Sync spelling (one of the forms of
 *           isa_and_sync.md §7, see docs/sync.md): `pto.set_flag[<PIPE_M>, <PIPE_MTE1>, <EVENT_ID0>]`,
 *           `pto.wait_flag[...]`, `pto.barrier #pto.pipe<PIPE_MTE1>`.
 */
#include "back/back.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

typedef struct PtoConst { int64_t v; bool i64; } PtoConst;

typedef struct Pto {
    const Kernel *k;
    VEC(PtoConst) consts;
    char **buf_names;
    char **param_names;
    char **tile_types;             /* per buffer, printed once: a long chain names a buffer's type in every op */
    int ntmp, npv;
} Pto;

static char *tile_type_text(const MirBuf *x);

/* ---- names ---- */
static char *sanitize(const char *s) {
    size_t n = strlen(s);
    char *o = malloc(n + 2);
    PTOC_ASSERT(o, "out of memory");
    size_t j = 0;
    if (n == 0 || isdigit((unsigned char)s[0])) o[j++] = 'v';
    for (size_t i = 0; i < n; i++) o[j++] = (isalnum((unsigned char)s[i]) || s[i] == '_') ? s[i] : '_';
    o[j] = 0;
    return o;
}

static void ident(StrBuf *o, const char *s) {
    char *n = sanitize(s);
    sb_puts(o, n);
    free(n);
}

/* names the printer itself generates: %tN, %pvN, %argN, %cN_index, %cnN_i64, %<param>_view */
static bool reserved_name(const Kernel *k, const char *n) {
    static const char *pre[] = { "t", "pv", "arg", "c", "cn" };
    for (size_t j = 0; j < sizeof pre / sizeof pre[0]; j++) {
        size_t l = strlen(pre[j]);
        if (strncmp(n, pre[j], l) != 0 || !isdigit((unsigned char)n[l])) continue;
        const char *q = n + l;
        while (isdigit((unsigned char)*q)) q++;
        if (*q == 0 || (j >= 3 && *q == '_')) return true;
    }
    for (int j = 0; j < k->nparams; j++) {
        size_t l = strlen(k->params[j].name ? k->params[j].name : "");
        if (l && strncmp(n, k->params[j].name, l) == 0 && strcmp(n + l, "_view") == 0) return true;
    }
    return false;
}

static void make_names(Pto *p) {
    const Kernel *k = p->k;
    p->buf_names = calloc((size_t)k->nbufs + 1, sizeof(char *));
    p->param_names = calloc((size_t)k->nparams + 1, sizeof(char *));
    p->tile_types = calloc((size_t)k->nbufs + 1, sizeof(char *));
    PTOC_ASSERT(p->buf_names && p->param_names && p->tile_types, "out of memory");
    for (int j = 0; j < k->nbufs; j++) p->tile_types[j] = tile_type_text(&k->bufs[j]);
    for (int j = 0; j < k->nbufs; j++) {
        char *n = sanitize(k->bufs[j].name ? k->bufs[j].name : "buf");
        bool dup = reserved_name(k, n);
        for (int i = 0; i < j && !dup; i++) dup = strcmp(p->buf_names[i], n) == 0;
        for (int i = 0; i < k->nvars && !dup; i++) dup = strcmp(k->vars[i], n) == 0;
        if (dup) {
            char *m = malloc(strlen(n) + 16);
            PTOC_ASSERT(m, "out of memory");
            sprintf(m, "%s_%d", n, j);
            free(n);
            n = m;
        }
        p->buf_names[j] = n;
    }
    for (int j = 0; j < k->nparams; j++) p->param_names[j] = sanitize(k->params[j].name ? k->params[j].name : "arg");
}

static void free_names(Pto *p) {
    for (int j = 0; j < p->k->nbufs; j++) free(p->buf_names[j]), free(p->tile_types[j]);
    for (int j = 0; j < p->k->nparams; j++) free(p->param_names[j]);
    free(p->buf_names);
    free(p->param_names);
    free(p->tile_types);
}

/* %c128_index / %cn4_index / %c0_i64, registered for the constant block */
static void cname(Pto *p, int64_t v, bool i64, StrBuf *o) {
    bool seen = false;
    for (int j = 0; j < p->consts.len && !seen; j++) seen = p->consts.data[j].v == v && p->consts.data[j].i64 == i64;
    if (!seen) vec_push(&p->consts, ((PtoConst){ v, i64 }));
    if (v < 0) sb_printf(o, "%%cn%lld_%s", (long long)-v, i64 ? "i64" : "index");
    else sb_printf(o, "%%c%lld_%s", (long long)v, i64 ? "i64" : "index");
}

/* ---- types ---- */
static char *tile_type_text(const MirBuf *x) {
    static const char *lay[] = { "none_box", "row_major", "col_major" };
    StrBuf o = { 0 };
    sb_printf(&o, "!pto.tile_buf<loc=%s, dtype=%s, rows=%lld, cols=%lld, v_row=?, v_col=?, blayout=%s, slayout=%s, "
                  "fractal=%lld, pad=%d%s>",
              memspace_pto(x->space), dtype_pto(x->dtype), (long long)x->rows, (long long)x->cols, lay[x->blayout],
              lay[x->slayout], (long long)x->fractal, x->pad, x->compact ? ", compact=1" : "");
    return sb_take(&o);
}

static void tile_type(const Pto *p, int b, StrBuf *o) { sb_puts(o, p->tile_types[b]); }

static void view_type(const MirParam *prm, StrBuf *o) {
    sb_puts(o, "!pto.tensor_view<");
    for (int d = 0; d < prm->rank; d++) sb_puts(o, "?x");
    sb_printf(o, "%s>", dtype_pto(prm->dtype));
}

/* The partition sizes of a tile-sized window: [..1, rows, cols] (ND), or the blocked
 * [1, cols / c0, rows / 16, 16, c0] of an NZ parameter. */
static int part_sizes(const MirParam *prm, const MirBuf *b, int64_t *sz) {
    if (prm->layout == MIR_LAYOUT_NZ && prm->rank == 5) {
        int64_t c0 = prm->shape[4], r0 = prm->shape[3];
        int64_t nz[5] = { 1, b->valid_cols / c0, b->valid_rows / r0, r0, c0 };
        memcpy(sz, nz, sizeof nz);
        return 5;
    }
    int n = prm->rank < 1 ? 1 : prm->rank;
    for (int d = 0; d + 2 < n; d++) sz[d] = 1;
    if (n >= 2) sz[n - 2] = b->valid_rows;
    sz[n - 1] = b->valid_cols;
    return n;
}

static void part_type(const MirParam *prm, const MirBuf *b, StrBuf *o) {
    int64_t sz[MIR_MAX_RANK];
    int n = part_sizes(prm, b, sz);
    sb_puts(o, "!pto.partition_tensor_view<");
    for (int d = 0; d < n; d++) sb_printf(o, "%lldx", (long long)sz[d]);
    sb_printf(o, "%s>", dtype_pto(prm->dtype));
}

/* ---- scalar expressions: SSA temporaries emitted before the op that uses them ----
 * Integer values are `index`, predicates `i1`, floats `f32` (the scalar unit's float). */
static bool expr_is_bool(const MirExpr *e) {
    if (e->kind == MX_NOT) return true;
    return e->kind == MX_BIN && e->op >= MB_EQ && e->op <= MB_OR;
}

static void expr(Pto *p, const MirExpr *e, StrBuf *o, int ind, StrBuf *name);

static void new_tmp(Pto *p, StrBuf *name) { sb_printf(name, "%%t%d", p->ntmp++); }

/* name = the value of e as an f32 (an index value converted) */
static void expr_f32(Pto *p, const MirExpr *e, StrBuf *o, int ind, StrBuf *name) {
    if (e->fp) { expr(p, e, o, ind, name); return; }
    StrBuf v = { 0 }, w = { 0 };
    expr(p, e, o, ind, &v);
    new_tmp(p, &w);
    sb_indent(o, ind);
    sb_printf(o, "%s = arith.index_cast %s : index to i64\n", sb_cstr(&w), sb_cstr(&v));
    new_tmp(p, name);
    sb_indent(o, ind);
    sb_printf(o, "%s = arith.sitofp %s : i64 to f32\n", sb_cstr(name), sb_cstr(&w));
    sb_free(&v);
    sb_free(&w);
}

static void emit_fbin(Pto *p, const MirExpr *e, StrBuf *o, int ind, StrBuf *name) {
    static const char *arith[] = { "addf", "subf", "mulf", "divf", "remf", "minimumf", "maximumf" };
    static const char *pred[] = { "oeq", "une", "olt", "ole", "ogt", "oge" };
    StrBuf a = { 0 }, b = { 0 };
    expr_f32(p, e->a, o, ind, &a);
    expr_f32(p, e->b, o, ind, &b);
    new_tmp(p, name);
    sb_indent(o, ind);
    if (e->op >= MB_EQ && e->op <= MB_GE)
        sb_printf(o, "%s = arith.cmpf %s, %s, %s : f32\n", sb_cstr(name), pred[e->op - MB_EQ], sb_cstr(&a), sb_cstr(&b));
    else
        sb_printf(o, "%s = arith.%s %s, %s : f32\n", sb_cstr(name), arith[e->op == MB_DIV ? 3 : e->op], sb_cstr(&a), sb_cstr(&b));
    sb_free(&a);
    sb_free(&b);
}

static void emit_bin(Pto *p, const MirExpr *e, StrBuf *o, int ind, StrBuf *name) {
    static const char *arith[] = { "addi", "subi", "muli", "floordivsi", "", "minsi", "maxsi" };
    static const char *pred[] = { "eq", "ne", "slt", "sle", "sgt", "sge" };
    if (e->op == MB_DIV || e->a->fp || e->b->fp) { emit_fbin(p, e, o, ind, name); return; }
    StrBuf a = { 0 }, b = { 0 };
    expr(p, e->a, o, ind, &a);
    expr(p, e->b, o, ind, &b);
    if (e->op == MB_FLOORMOD) {   /* a - floordiv(a, b) * b */
        StrBuf q = { 0 }, m = { 0 };
        new_tmp(p, &q);
        new_tmp(p, &m);
        sb_indent(o, ind);
        sb_printf(o, "%s = arith.floordivsi %s, %s : index\n", sb_cstr(&q), sb_cstr(&a), sb_cstr(&b));
        sb_indent(o, ind);
        sb_printf(o, "%s = arith.muli %s, %s : index\n", sb_cstr(&m), sb_cstr(&q), sb_cstr(&b));
        new_tmp(p, name);
        sb_indent(o, ind);
        sb_printf(o, "%s = arith.subi %s, %s : index\n", sb_cstr(name), sb_cstr(&a), sb_cstr(&m));
        sb_free(&q);
        sb_free(&m);
    } else {
        new_tmp(p, name);
        sb_indent(o, ind);
        if (e->op >= MB_EQ && e->op <= MB_GE)
            sb_printf(o, "%s = arith.cmpi %s, %s, %s : index\n", sb_cstr(name), pred[e->op - MB_EQ], sb_cstr(&a), sb_cstr(&b));
        else if (e->op == MB_AND || e->op == MB_OR)
            sb_printf(o, "%s = arith.%s %s, %s : i1\n", sb_cstr(name), e->op == MB_AND ? "andi" : "ori", sb_cstr(&a), sb_cstr(&b));
        else
            sb_printf(o, "%s = arith.%s %s, %s : index\n", sb_cstr(name), arith[e->op], sb_cstr(&a), sb_cstr(&b));
    }
    sb_free(&a);
    sb_free(&b);
}

/* A scalar cast: to a float type an f32 (narrower types are rounded by the instruction that uses
 * it), to an integer type truncated toward zero. */
static void emit_cast(Pto *p, const MirExpr *e, StrBuf *o, int ind, StrBuf *name) {
    StrBuf a = { 0 }, w = { 0 };
    if (e->fp) { expr_f32(p, e->a, o, ind, name); return; }
    if (!e->a->fp) { expr(p, e->a, o, ind, name); return; }   /* int -> int: the width is the consumer's */
    expr(p, e->a, o, ind, &a);
    new_tmp(p, &w);
    sb_indent(o, ind);
    sb_printf(o, "%s = arith.fptosi %s : f32 to i64\n", sb_cstr(&w), sb_cstr(&a));
    new_tmp(p, name);
    sb_indent(o, ind);
    sb_printf(o, "%s = arith.index_cast %s : i64 to index\n", sb_cstr(name), sb_cstr(&w));
    sb_free(&a);
    sb_free(&w);
}

static void expr(Pto *p, const MirExpr *e, StrBuf *o, int ind, StrBuf *name) {
    StrBuf a = { 0 };
    switch (e->kind) {
    case MX_CONST:
        if (!e->fp) { cname(p, e->value, false, name); return; }
        new_tmp(p, name);
        sb_indent(o, ind);
        sb_printf(o, "%s = arith.constant %.9g : f32\n", sb_cstr(name), e->fvalue);
        return;
    case MX_VAR: sb_putc(name, '%'); ident(name, p->k->vars[e->var]); return;
    case MX_BIN: emit_bin(p, e, o, ind, name); return;
    case MX_CAST: emit_cast(p, e, o, ind, name); return;
    case MX_NEG: case MX_ABS:
        expr(p, e->a, o, ind, &a);
        new_tmp(p, name);
        sb_indent(o, ind);
        if (e->kind == MX_ABS) sb_printf(o, "%s = math.%s %s : %s\n", sb_cstr(name), e->fp ? "absf" : "absi", sb_cstr(&a),
                                        e->fp ? "f32" : "index");
        else if (e->fp) sb_printf(o, "%s = arith.negf %s : f32\n", sb_cstr(name), sb_cstr(&a));
        else {
            sb_printf(o, "%s = arith.subi ", sb_cstr(name));
            cname(p, 0, false, o);
            sb_printf(o, ", %s : index\n", sb_cstr(&a));
        }
        break;
    case MX_NOT: {
        StrBuf c = { 0 };
        expr(p, e->a, o, ind, &a);
        if (!expr_is_bool(e->a)) {   /* !x on an index: x == 0 */
            new_tmp(p, name);
            sb_indent(o, ind);
            sb_printf(o, "%s = arith.cmpi eq, %s, ", sb_cstr(name), sb_cstr(&a));
            cname(p, 0, false, o);
            sb_puts(o, " : index\n");
            break;
        }
        new_tmp(p, &c);
        sb_indent(o, ind);
        sb_printf(o, "%s = arith.constant true\n", sb_cstr(&c));
        new_tmp(p, name);
        sb_indent(o, ind);
        sb_printf(o, "%s = arith.xori %s, %s : i1\n", sb_cstr(name), sb_cstr(&a), sb_cstr(&c));
        sb_free(&c);
        break;
    }
    }
    sb_free(&a);
}

/* ---- body ---- */
static void loc(const MirInst *i, StrBuf *o) {
    if (i->loc.file && i->loc.file->path) sb_printf(o, " loc(\"%s\":%d:%d)", i->loc.file->path, i->loc.line, i->loc.col);
    sb_putc(o, '\n');
}

static void bname(const Pto *p, int b, StrBuf *o) { sb_putc(o, '%'); sb_puts(o, p->buf_names[b]); }

/* %pvN = pto.partition_view %x_view, offsets = [...], sizes = [...] : view -> partition */
static int partition(Pto *p, const MirInst *i, int b, StrBuf *o, int ind) {
    const MirParam *prm = &p->k->params[i->param];
    const MirBuf *x = &p->k->bufs[b];
    int64_t sz[MIR_MAX_RANK];
    int n = part_sizes(prm, x, sz), noff = mir_gm_noff(p->k, i);
    StrBuf off[MIR_MAX_RANK] = { { 0 } };
    for (int d = 0; d < noff; d++) {
        if (i->off[d]) expr(p, i->off[d], o, ind, &off[d]);
        else cname(p, 0, false, &off[d]);
    }
    int pv = p->npv++;
    sb_indent(o, ind);
    sb_printf(o, "%%pv%d = pto.partition_view %%%s_view, offsets = [", pv, p->param_names[i->param]);
    for (int d = 0; d < n; d++) {   /* leading dims of an ND parameter above (row, col): 0 */
        if (d) sb_puts(o, ", ");
        int k = d - (n - noff);
        if (k >= 0) sb_puts(o, sb_cstr(&off[k]));
        else cname(p, 0, false, o);
    }
    sb_puts(o, "], sizes = [");
    for (int d = 0; d < n; d++) { if (d) sb_puts(o, ", "); cname(p, sz[d], false, o); }
    sb_puts(o, "] : ");
    view_type(prm, o);
    sb_puts(o, " -> ");
    part_type(prm, x, o);
    sb_putc(o, '\n');
    for (int d = 0; d < noff; d++) sb_free(&off[d]);
    return pv;
}

static void emit_load_store(Pto *p, const MirInst *i, StrBuf *o, int ind) {
    bool load = i->op == MI_TLOAD;
    int b = load ? i->dst : i->src0;
    int pv = partition(p, i, b, o, ind);
    StrBuf pt = { 0 };
    part_type(&p->k->params[i->param], &p->k->bufs[b], &pt);
    sb_indent(o, ind);
    if (load) {
        sb_printf(o, "pto.tload ins(%%pv%d : %s) outs(", pv, sb_cstr(&pt));
        bname(p, b, o); sb_puts(o, " : "); tile_type(p, b, o); sb_putc(o, ')');
    } else {
        sb_puts(o, "pto.tstore ins("); bname(p, b, o); sb_puts(o, " : "); tile_type(p, b, o);
        sb_printf(o, ") outs(%%pv%d : %s)", pv, sb_cstr(&pt));
        if (i->atomic_add) sb_puts(o, " {atomicType = #pto<atomic_type atomic_add>}");
    }
    loc(i, o);
    sb_free(&pt);
}

/* pto.OP ins(%s0, ..., [%row, %col] : T0, ..., [index, index]) outs(%dst : T) */
static void emit_dps(Pto *p, const MirInst *i, const char *name, const int *srcs, int n, bool window, StrBuf *o, int ind) {
    StrBuf r = { 0 }, c = { 0 };
    if (window) {
        if (i->off[0]) expr(p, i->off[0], o, ind, &r); else cname(p, 0, false, &r);
        if (i->off[1]) expr(p, i->off[1], o, ind, &c); else cname(p, 0, false, &c);
    }
    sb_indent(o, ind);
    sb_printf(o, "pto.%s ins(", name);
    for (int j = 0; j < n; j++) { if (j) sb_puts(o, ", "); bname(p, srcs[j], o); }
    if (window) sb_printf(o, ", %s, %s", sb_cstr(&r), sb_cstr(&c));
    sb_puts(o, " : ");
    for (int j = 0; j < n; j++) { if (j) sb_puts(o, ", "); tile_type(p, srcs[j], o); }
    if (window) sb_puts(o, ", index, index");
    sb_puts(o, ") outs(");
    bname(p, i->dst, o);
    sb_puts(o, " : ");
    tile_type(p, i->dst, o);
    sb_putc(o, ')');
    loc(i, o);
    sb_free(&r);
    sb_free(&c);
}

/* A vector instruction: pto.<op> ins(sources[, scalar] : types) outs(dst : type) {attributes}. A
 * constant scalar is an arith.constant of the destination's element type; an integer scalar
 * expression an index value cast to it. */
static void emit_vop(Pto *p, const MirInst *i, StrBuf *o, int ind) {
    MirVecKind vk = mir_vop_kind(i->vop);
    const MirBuf *d = &p->k->bufs[i->dst];
    StrBuf sc = { 0 };
    bool has_scalar = vk == MVK_SCALAR || vk == MVK_FILL || vk == MVK_CMPS || vk == MVK_SELS;
    DType sdt = vk == MVK_CMPS ? p->k->bufs[i->src0].dtype : d->dtype;   /* cmps compares in its source's type */
    MirVecFn fn = mir_vop_fn(i->vop);
    if (vk == MVK_SCALAR && fn >= MVF_AND && fn <= MVF_SHR) sdt = DT_INT32;  /* tands .. tshrs: the scalar as i32 (spec §4.2) */
    if (has_scalar) {
        const char *et = dtype_pto(sdt);
        new_tmp(p, &sc);
        if (i->scalar) {
            StrBuf v = { 0 };
            expr(p, i->scalar, o, ind, &v);
            sb_indent(o, ind);
            if (i->scalar->fp && dtype_is_float(sdt))
                sb_printf(o, "%s = arith.%s %s : f32 to %s\n", sb_cstr(&sc), sdt == DT_FP32 ? "bitcast" : "truncf", sb_cstr(&v), et);
            else if (i->scalar->fp) sb_printf(o, "%s = arith.fptosi %s : f32 to %s\n", sb_cstr(&sc), sb_cstr(&v), et);
            else if (dtype_is_float(sdt)) sb_printf(o, "%s = arith.sitofp %s : index to %s\n", sb_cstr(&sc), sb_cstr(&v), et);
            else sb_printf(o, "%s = arith.index_cast %s : index to %s\n", sb_cstr(&sc), sb_cstr(&v), et);
            sb_free(&v);
        } else {
            sb_indent(o, ind);
            if (dtype_is_float(sdt)) sb_printf(o, "%s = arith.constant %.17g : %s\n", sb_cstr(&sc), i->imm, et);
            else sb_printf(o, "%s = arith.constant %lld : %s\n", sb_cstr(&sc), (long long)i->imm, et);
        }
    }
    int srcs[3], n = 0;
    if (i->src0 >= 0) srcs[n++] = i->src0;
    if (i->src1 >= 0) srcs[n++] = i->src1;
    if (i->src2 >= 0) srcs[n++] = i->src2;
    /* the scalar follows the sources, except that a scalar op's scratch tile comes last: trems ins(t, s, tmp) */
    int at = has_scalar ? (vk == MVK_SCALAR && n > 1 ? 1 : n) : -1;
    sb_indent(o, ind);
    sb_printf(o, "pto.%s ins(", mir_vop_pto(i->vop));
    for (int j = 0; j <= n; j++) {
        if (j == at) sb_printf(o, "%s%s", j ? ", " : "", sb_cstr(&sc));
        if (j < n) { if (j) sb_puts(o, ", "); bname(p, srcs[j], o); }
    }
    sb_puts(o, " : ");
    for (int j = 0; j <= n; j++) {
        if (j == at) sb_printf(o, "%s%s", j ? ", " : "", dtype_pto(sdt));
        if (j < n) { if (j) sb_puts(o, ", "); tile_type(p, srcs[j], o); }
    }
    sb_puts(o, ") outs(");
    bname(p, i->dst, o);
    sb_puts(o, " : ");
    tile_type(p, i->dst, o);
    sb_putc(o, ')');
    if (vk == MVK_CAST) {
        static const char *const rm[] = { "NONE", "RINT", "ROUND", "FLOOR", "CEIL", "TRUNC", "ODD" };
        sb_printf(o, " {rmode = #pto<round_mode %s>}", i->mode >= 0 && i->mode <= 6 ? rm[i->mode] : "ROUND");
    }
    if (vk == MVK_FILLPAD) sb_printf(o, " {pad = %d}", i->mode);
    if (vk == MVK_CMP || vk == MVK_CMPS) {
        static const char *const cm[] = { "eq", "ne", "lt", "le", "gt", "ge" };
        sb_printf(o, " {cmpMode = #pto<cmp %s>}", i->mode >= 0 && i->mode <= 5 ? cm[i->mode] : "eq");
    }
    loc(i, o);
    sb_free(&sc);
}

static void emit_sync(const MirInst *i, StrBuf *o, int ind) {
    sb_indent(o, ind);
    if (i->op == MI_BARRIER) {
        sb_printf(o, "pto.barrier #pto.pipe<PIPE_%s>", mir_pipe_name(i->pipe));
    } else {
        sb_printf(o, "pto.%s[<PIPE_%s>, <PIPE_%s>, <EVENT_ID%d>]", i->op == MI_SET_FLAG ? "set_flag" : "wait_flag",
                  mir_pipe_name(i->src_pipe), mir_pipe_name(i->dst_pipe), i->event);
        if (i->event_alt >= 0) sb_printf(o, " {alt_event = <EVENT_ID%d>}", i->event_alt);
    }
    loc(i, o);
}

/* Cross-core FIFO operations (mir.h, MirXDir): pto.tpush / pto.tpop / pto.tfree with the channel's
 * direction, split and slot count as attributes. */
static void emit_xcore(const Pto *p, const MirInst *i, StrBuf *o, int ind) {
    static const char *dirs[] = { "c2v", "v2c" }, *splits[] = { "none", "up_down", "left_right" };
    static const char *ops[] = { "tpush", "tpop", "tfree" };
    sb_indent(o, ind);
    sb_printf(o, "pto.%s", ops[i->op - MI_TPUSH]);
    int b = i->op == MI_TPUSH ? i->src0 : i->dst;
    if (b >= 0) { sb_puts(o, i->op == MI_TPUSH ? " ins(" : " outs("); bname(p, b, o); sb_putc(o, ')'); }
    sb_printf(o, " {dir = \"%s\", split = \"%s\", slot_num = %d%s}", dirs[i->xdir & 1], splits[i->split % 3], i->slot_num,
              i->sync_only ? ", sync_only" : "");
    loc(i, o);
}

static void emit_block(Pto *p, const MirBlock *b, StrBuf *o, int ind);

static void emit_control(Pto *p, const MirInst *i, StrBuf *o, int ind) {
    StrBuf a = { 0 }, b = { 0 }, c = { 0 };
    if (i->op == MI_FOR) {
        expr(p, i->start, o, ind, &a);
        expr(p, i->stop, o, ind, &b);
        expr(p, i->step, o, ind, &c);
        sb_indent(o, ind);
        sb_puts(o, "scf.for %");
        ident(o, p->k->vars[i->var]);
        sb_printf(o, " = %s to %s step %s {\n", sb_cstr(&a), sb_cstr(&b), sb_cstr(&c));
        emit_block(p, &i->body, o, ind + 2);
    } else {
        expr(p, i->cond, o, ind, &a);
        if (!expr_is_bool(i->cond)) {   /* an index condition: != 0 */
            new_tmp(p, &b);
            sb_indent(o, ind);
            sb_printf(o, "%s = arith.cmpi ne, %s, ", sb_cstr(&b), sb_cstr(&a));
            cname(p, 0, false, o);
            sb_puts(o, " : index\n");
            StrBuf t = a; a = b; b = t;
        }
        sb_indent(o, ind);
        sb_printf(o, "scf.if %s {\n", sb_cstr(&a));
        emit_block(p, &i->then_body, o, ind + 2);
        if (i->else_body.len) {
            sb_indent(o, ind);
            sb_puts(o, "} else {\n");
            emit_block(p, &i->else_body, o, ind + 2);
        }
    }
    sb_indent(o, ind);
    sb_puts(o, "}\n");
    sb_free(&a);
    sb_free(&b);
    sb_free(&c);
}

/* name = v (of element type dt) as the scalar expressions see it: an f32 or an index. */
static void scalar_in(const char *v, DType dt, const char *name, StrBuf *o, int ind) {
    sb_indent(o, ind);
    if (dt == DT_FP32) sb_printf(o, "%s = arith.bitcast %s : f32 to f32\n", name, v);
    else if (dtype_is_float(dt)) sb_printf(o, "%s = arith.extf %s : %s to f32\n", name, v, dtype_pto(dt));
    else sb_printf(o, "%s = arith.index_cast %s : %s to index\n", name, v, dtype_pto(dt));
}

/* v (an f32 or index expression) converted to element type dt into name. */
static void scalar_out(Pto *p, const MirExpr *e, DType dt, StrBuf *name, StrBuf *o, int ind) {
    StrBuf v = { 0 };
    expr(p, e, o, ind, &v);
    new_tmp(p, name);
    sb_indent(o, ind);
    if (e->fp && dt == DT_FP32) sb_printf(o, "%s = arith.bitcast %s : f32 to f32\n", sb_cstr(name), sb_cstr(&v));
    else if (e->fp && dtype_is_float(dt)) sb_printf(o, "%s = arith.truncf %s : f32 to %s\n", sb_cstr(name), sb_cstr(&v), dtype_pto(dt));
    else if (e->fp) sb_printf(o, "%s = arith.fptosi %s : f32 to %s\n", sb_cstr(name), sb_cstr(&v), dtype_pto(dt));
    else if (dtype_is_float(dt)) sb_printf(o, "%s = arith.sitofp %s : index to %s\n", sb_cstr(name), sb_cstr(&v), dtype_pto(dt));
    else sb_printf(o, "%s = arith.index_cast %s : index to %s\n", sb_cstr(name), sb_cstr(&v), dtype_pto(dt));
    sb_free(&v);
}

/* tgetval / tsetval: the element's offset is the row-major flattening of (row, col) over the tile's
 * physical shape, as upstream emits it; ggetval / gsetval index the tensor view. */
static void emit_scalar_access(Pto *p, const MirInst *i, StrBuf *o, int ind) {
    bool tile = i->op == MI_TGETVAL || i->op == MI_TSETVAL, get = i->op == MI_TGETVAL || i->op == MI_GGETVAL;
    int b = i->op == MI_TGETVAL ? i->src0 : i->dst;
    DType dt = tile ? p->k->bufs[b].dtype : p->k->params[i->param].dtype;
    StrBuf idx = { 0 }, val = { 0 }, res = { 0 }, var = { 0 };
    if (tile) {                       /* off = row * cols + col */
        StrBuf r = { 0 }, c = { 0 }, m = { 0 };
        expr(p, i->off[0], o, ind, &r);
        expr(p, i->off[1], o, ind, &c);
        new_tmp(p, &m);
        sb_indent(o, ind);
        sb_printf(o, "%s = arith.muli %s, ", sb_cstr(&m), sb_cstr(&r));
        cname(p, p->k->bufs[b].cols, false, o);
        sb_puts(o, " : index\n");
        new_tmp(p, &idx);
        sb_indent(o, ind);
        sb_printf(o, "%s = arith.addi %s, %s : index\n", sb_cstr(&idx), sb_cstr(&m), sb_cstr(&c));
        sb_free(&r); sb_free(&c); sb_free(&m);
    } else {
        for (int d = 0, n = mir_gm_noff(p->k, i); d < n; d++) {
            StrBuf x = { 0 };
            expr(p, i->off[d], o, ind, &x);
            sb_printf(&idx, "%s%s", d ? ", " : "", sb_cstr(&x));
            sb_free(&x);
        }
    }
    if (!get) scalar_out(p, i->scalar, dt, &val, o, ind);
    else new_tmp(p, &res);
    sb_indent(o, ind);
    if (tile && get) {
        sb_printf(o, "%s = pto.tgetval ins(", sb_cstr(&res)); bname(p, b, o); sb_printf(o, ", %s : ", sb_cstr(&idx));
        tile_type(p, b, o); sb_printf(o, ", index) : %s", dtype_pto(dt));
    } else if (tile) {
        sb_printf(o, "pto.tsetval ins(%s, %s : index, %s) outs(", sb_cstr(&idx), sb_cstr(&val), dtype_pto(dt));
        bname(p, b, o); sb_puts(o, " : "); tile_type(p, b, o); sb_putc(o, ')');
    } else {
        const char *view = p->param_names[i->param];
        if (get) sb_printf(o, "%s = pto.load_scalar %%%s_view[%s] : %s", sb_cstr(&res), view, sb_cstr(&idx), dtype_pto(dt));
        else sb_printf(o, "pto.store_scalar %s, %%%s_view[%s] : %s", sb_cstr(&val), view, sb_cstr(&idx), dtype_pto(dt));
    }
    loc(i, o);
    if (get) {
        sb_putc(&var, '%');
        ident(&var, p->k->vars[i->var]);
        scalar_in(sb_cstr(&res), dt, sb_cstr(&var), o, ind);
    }
    sb_free(&idx); sb_free(&val); sb_free(&res); sb_free(&var);
}

static void emit_inst(Pto *p, const MirInst *i, StrBuf *o, int ind) {
    switch (i->op) {
    case MI_TLOAD: case MI_TSTORE: emit_load_store(p, i, o, ind); return;
    case MI_TEXTRACT: emit_dps(p, i, "textract", &i->src0, 1, true, o, ind); return;
    case MI_TINSERT: emit_dps(p, i, "tinsert", &i->src0, 1, true, o, ind); return;
    case MI_TMOV: emit_dps(p, i, "tmov", &i->src0, 1, false, o, ind); return;
    case MI_VOP: emit_vop(p, i, o, ind); return;
    case MI_TGETVAL: case MI_TSETVAL: case MI_GGETVAL: case MI_GSETVAL: emit_scalar_access(p, i, o, ind); return;
    case MI_TMATMUL: { int s[2] = { i->src0, i->src1 }; emit_dps(p, i, "tmatmul", s, 2, false, o, ind); return; }
    case MI_TMATMUL_ACC: {
        int s[3] = { i->src2 >= 0 ? i->src2 : i->dst, i->src0, i->src1 };
        emit_dps(p, i, "tmatmul.acc", s, 3, false, o, ind);
        return;
    }
    case MI_TMATMUL_BIAS: { int s[3] = { i->src0, i->src1, i->src2 }; emit_dps(p, i, "tmatmul.bias", s, 3, false, o, ind); return; }
    case MI_SET_FLAG: case MI_WAIT_FLAG: case MI_BARRIER: emit_sync(i, o, ind); return;
    case MI_TPUSH: case MI_TPOP: case MI_TFREE: emit_xcore(p, i, o, ind); return;
    case MI_FOR: case MI_IF: emit_control(p, i, o, ind); return;
    }
    PTOC_UNREACHABLE("bad mir op %d", i->op);
}

static void emit_block(Pto *p, const MirBlock *b, StrBuf *o, int ind) {
    for (int j = 0; j < b->len; j++) emit_inst(p, b->items[j], o, ind);
}

/* The SPMD queries (lower.c) read kernel variables "block_idx" / "block_num" / "subblock_idx" that no
 * instruction defines: they come from the hidden ABI parameters (ir_and_passes.md §10 header). */
static const char *const spmd_vars[3] = { "block_idx", "block_num", "subblock_idx" };
static bool spmd_var_used(const Kernel *k, int which) {
    for (int v = 0; v < k->nvars; v++) {
        if (strcmp(k->vars[v], spmd_vars[which]) != 0) continue;
        bool param = false;
        for (int j = 0; j < k->nparams; j++) param |= !k->params[j].is_tensor && k->params[j].var == v + 1;
        if (!param) return true;
    }
    return false;
}

/* pto.make_tensor_view per tensor parameter, pto.alloc_tile per buffer */
static void emit_decls(Pto *p, StrBuf *o) {
    static const char *layouts[] = { "nd", "dn", "nz" };
    const Kernel *k = p->k;
    for (int j = 0; j < k->nparams; j++) {
        const MirParam *prm = &k->params[j];
        if (!prm->is_tensor) continue;
        sb_printf(o, "    %%%s_view = pto.make_tensor_view %%arg%d, shape = [", p->param_names[j], j);
        for (int d = 0; d < prm->rank; d++) { if (d) sb_puts(o, ", "); cname(p, prm->shape[d], false, o); }
        sb_puts(o, "], strides = [");
        for (int d = 0; d < prm->rank; d++) {
            int64_t st = prm->strides[d];
            if (st == 0) { st = 1; for (int e = d + 1; e < prm->rank; e++) st *= prm->shape[e]; }
            if (d) sb_puts(o, ", ");
            cname(p, st, false, o);
        }
        sb_printf(o, "] {layout = #pto.layout<%s>} : ", layouts[prm->layout >= 0 && prm->layout < 3 ? prm->layout : 0]);
        view_type(prm, o);
        sb_putc(o, '\n');
    }
    for (int j = 0; j < k->nbufs; j++) {
        const MirBuf *b = &k->bufs[j];
        sb_puts(o, "    ");
        bname(p, j, o);
        sb_puts(o, " = pto.alloc_tile addr = ");
        cname(p, b->addr, true, o);
        sb_puts(o, " valid_row = ");
        cname(p, b->valid_rows, false, o);
        sb_puts(o, " valid_col = ");
        cname(p, b->valid_cols, false, o);
        sb_puts(o, " : ");
        tile_type(p, j, o);
        sb_putc(o, '\n');
    }
}

/* out += head + body. The body (megabytes for a long kernel) is not copied into a second buffer: the
 * short head is moved in front of it in its own buffer, which out then takes over when empty. */
static void join(StrBuf *out, StrBuf *head, StrBuf *body) {
    size_t h = head->len, n = body->len;
    if (out->len) {
        sb_putn(out, sb_cstr(head), h);
        sb_putn(out, sb_cstr(body), n);
        return;
    }
    sb_putn(body, sb_cstr(head), h);           /* grows the body by h bytes */
    memmove(body->data + h, body->data, n);
    memcpy(body->data, head->data, h);
    sb_free(out);
    *out = *body;
    *body = (StrBuf){ 0 };
}

void back_print_pto(const Kernel *k, const Target *t, StrBuf *out) {
    Pto p;
    memset(&p, 0, sizeof p);
    p.k = k;
    make_names(&p);
    StrBuf decls = { 0 }, body = { 0 }, head = { 0 };
    emit_decls(&p, &decls);
    emit_block(&p, &k->body, &body, 4);
    sb_puts(&body, "    return\n  }\n}\n");

    sb_printf(&head, "module attributes {pto.target_arch = \"%s\"} {\n", t->name);
    sb_puts(&head, "  func.func @");
    ident(&head, k->name);
    sb_putc(&head, '(');
    for (int j = 0; j < k->nparams; j++) {
        const MirParam *prm = &k->params[j];
        if (j) sb_puts(&head, ", ");
        if (prm->is_tensor) sb_printf(&head, "%%arg%d: !pto.ptr<%s>", j, dtype_pto(prm->dtype));
        else {                               /* a scalar is named as the expressions use it */
            sb_putc(&head, '%');
            ident(&head, prm->name);
            sb_printf(&head, ": %s", dtype_is_float(prm->dtype) ? "f32" : "index");
        }
    }
    bool spmd = spmd_var_used(k, 0) || spmd_var_used(k, 1) || spmd_var_used(k, 2);
    for (int w = 0; spmd && w < 3; w++) sb_printf(&head, "%s%%__pypto_spmd_%s: i32", k->nparams || w ? ", " : "", spmd_vars[w]);
    sb_printf(&head, ") attributes {pto.kernel_kind = #pto.kernel_kind<%s>} {\n", k->core == CORE_AIC ? "cube" : "vector");
    for (int w = 0; w < 3; w++)
        if (spmd_var_used(k, w)) sb_printf(&head, "    %%%s = arith.index_cast %%__pypto_spmd_%s : i32 to index\n", spmd_vars[w], spmd_vars[w]);
    for (int j = 0; j < p.consts.len; j++) {
        const PtoConst *c = &p.consts.data[j];
        StrBuf n = { 0 };
        cname(&p, c->v, c->i64, &n);
        sb_printf(&head, "    %s = arith.constant %lld : %s\n", sb_cstr(&n), (long long)c->v, c->i64 ? "i64" : "index");
        sb_free(&n);
    }
    sb_puts(&head, sb_cstr(&decls));
    join(out, &head, &body);
    sb_free(&head);
    sb_free(&decls);
    sb_free(&body);
    vec_free(&p.consts);
    free_names(&p);
}
