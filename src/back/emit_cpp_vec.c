/* emit_cpp_vec — vector instructions (MI_VOP, mir.h MIR_VOPS) and scalar element access of a kernel as
 * PTO-ISA C++.
 * Requires: emit_cpp_int.h state. Produces: lines into the kernel body.
 * Does:     one call per instruction, named as the .pto op upper-cased (tadd -> TADD), operands by
 *           kind (MirVecKind): binary / part (dst, src0, src1), scalar (dst, src0, scalar), unary
 *           (dst, src0), cast (dst, src0, RoundMode), fill (dst, scalar), reductions and arg-reductions
 *           (dst, src0[, tmp]), expands (dst[, src0], src1), compares with CmpMode, select with its mask.
 *           The scalar operand is converted to the ISA's parameter type (the tile's element type) as
 *           ptoc's simulator converts it. An instruction whose ISA form needs a scratch tile ptoc did
 *           not plan is reported unsupported (cpp_unsupported), not emitted with a guessed scratch. */
#include "back/emit_cpp_int.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

static void upper(const char *s, char *o, size_t n) {
    size_t j = 0;
    for (; s[j] && j + 1 < n; j++) o[j] = (char)toupper((unsigned char)s[j]);
    o[j] = 0;
}

/* The scalar operand of i as a value of type dt */
static void scalar(Cpp *c, const MirInst *i, DType dt, StrBuf *o) {
    const char *t = cpp_ctype(dt);
    if (i->scalar) {
        sb_printf(o, "(%s)(", t);
        cpp_expr(c, i->scalar, o);
        sb_putc(o, ')');
    } else if (dtype_is_float(dt)) sb_printf(o, "(%s)%a", t, i->imm);
    else sb_printf(o, "(%s)INT64_C(%lld)", t, (long long)i->imm);
}

/* the instructions whose ISA form takes a scratch tile after the operands */
static bool needs_tmp(MirVecOp v) {
    return v == VOP_REM || v == VOP_REMS || v == VOP_XOR || v == VOP_XORS || v == VOP_PRELU || v == VOP_TRANS ||
           v == VOP_SEL || v == VOP_SELS || mir_vop_kind(v) == MVK_ROW_REDUCE || mir_vop_kind(v) == MVK_ROW_ARG ||
           mir_vop_kind(v) == MVK_COL_ARG;
}

static void cpp_vec_call(Cpp *c, const MirInst *i, const char *d, const char *s0, const char *s1);

/* the scratch tile: the last source the operands do not use */
static int tmp_of(const MirInst *i, int used) {
    int s[3] = { i->src0, i->src1, i->src2 };
    return used < 3 && s[used] >= 0 ? s[used] : -1;
}

/* Element-wise instructions on column-major (DN) tiles, such as the [R, 1] results of row reductions:
 * pto-isa's CPU simulation static_asserts row-major operands for the scalar forms, so the operands are
 * renamed to row-major views of the transposed shape at the same addresses. An element-wise op maps
 * element k of every operand to element k, so the view computes the same bytes. */
static bool elementwise(MirVecKind vk) { return vk == MVK_BINARY || vk == MVK_SCALAR || vk == MVK_UNARY || vk == MVK_CAST || vk == MVK_FILL; }

static bool all_dn(const Cpp *c, const MirInst *i) {
    int ops[3] = { i->dst, i->src0, i->src1 };
    for (int j = 0; j < 3; j++) {
        if (ops[j] < 0) continue;
        const MirBuf *b = &c->k->bufs[ops[j]];
        if (b->blayout != ML_COL_MAJOR || b->slayout != ML_NONE_BOX || b->ring_slots) return false;
    }
    return true;
}

static const char *dn_view(Cpp *c, int b, int which, char *name, size_t n) {
    static const char *pads[] = { "Null", "Zero", "Max", "Min" };
    const MirBuf *x = &c->k->bufs[b];
    snprintf(name, n, "v%d_%s", which, c->bn[b]);
    cpp_line(c, "Tile<TileType::Vec, %s, %lld, %lld, BLayout::RowMajor, %lld, %lld, SLayout::NoneBox, 512, PadValue::%s> %s;",
             cpp_ctype(x->dtype), (long long)x->cols, (long long)x->rows, (long long)x->valid_cols, (long long)x->valid_rows,
             pads[x->pad >= 0 && x->pad < 4 ? x->pad : 0], name);
    cpp_line(c, "TASSIGN(%s, 0x%llxu);", name, (unsigned long long)x->addr);
    return name;
}

/* TROWSUM into a column-major [R, 1] result whose capacity was padded to a 32-byte column (an FP16
 * sum of 8 rows is a [16, 1] tile valid [8, 1]): pto-isa's CPU TROWSUM static_asserts src Rows == dst
 * Rows, stricter than the devices' TRowReduceCheck (valid rows equal) and than its own TROWMAX /
 * TROWMIN. The source is renamed to a view at the same address whose capacity has dst's rows; a
 * row-major none-box tile's element offset r * Cols + c does not depend on Rows and the instruction
 * reads the valid rows only, so the view reads the same bytes. Returns false when no view is needed. */
static bool rowsum_view(Cpp *c, const MirInst *i) {
    static const char *pads[] = { "Null", "Zero", "Max", "Min" };
    const MirBuf *d = &c->k->bufs[i->dst], *s = &c->k->bufs[i->src0];
    if (i->vop != VOP_ROWSUM || d->rows == s->rows || s->blayout != ML_ROW_MAJOR || s->slayout != ML_NONE_BOX ||
        s->ring_slots || s->valid_rows > d->rows)
        return false;
    int64_t end = (int64_t)s->addr + d->rows * s->cols * dtype_bytes(s->dtype);
    if (c->t && c->t->physical[MS_VEC] && end > c->t->physical[MS_VEC]) {
        cpp_unsupported(c, i, "trowsum: the [%lld, %lld] source view pto-isa needs runs past the vector buffer",
                        (long long)d->rows, (long long)s->cols);
        return true;
    }
    char name[160];
    snprintf(name, sizeof name, "v1_%s", c->bn[i->src0]);
    cpp_line(c, "{   /* source view with dst's rows (pto-isa's CPU TROWSUM asserts src Rows == dst Rows) */");
    c->ind += 2;
    cpp_line(c, "Tile<TileType::Vec, %s, %lld, %lld, BLayout::RowMajor, %lld, %lld, SLayout::NoneBox, 512, PadValue::%s> %s;",
             cpp_ctype(s->dtype), (long long)d->rows, (long long)s->cols, (long long)s->valid_rows,
             (long long)s->valid_cols, pads[s->pad >= 0 && s->pad < 4 ? s->pad : 0], name);
    cpp_line(c, "TASSIGN(%s, 0x%llxu);", name, (unsigned long long)s->addr);
    cpp_vec_call(c, i, c->bn[i->dst], name, NULL);
    c->ind -= 2;
    cpp_line(c, "}");
    return true;
}

void cpp_vec_inst(Cpp *c, const MirInst *i) {
    MirVecKind vk = mir_vop_kind(i->vop);
    if (vk == MVK_ROW_REDUCE && rowsum_view(c, i)) return;
    if (elementwise(vk) && all_dn(c, i) && (c->k->bufs[i->dst].rows > 1 && c->k->bufs[i->dst].cols == 1)) {
        char nd[160], n0[160], n1[160];
        cpp_line(c, "{   /* row-major views of the [R, 1] column-major operands */");
        c->ind += 2;
        const char *d = dn_view(c, i->dst, 0, nd, sizeof nd);
        const char *s0 = i->src0 >= 0 ? dn_view(c, i->src0, 1, n0, sizeof n0) : NULL;
        const char *s1 = i->src1 >= 0 ? dn_view(c, i->src1, 2, n1, sizeof n1) : NULL;
        cpp_vec_call(c, i, d, s0, s1);
        c->ind -= 2;
        cpp_line(c, "}");
        return;
    }
    cpp_vec_call(c, i, c->bn[i->dst], i->src0 >= 0 ? c->bn[i->src0] : NULL, i->src1 >= 0 ? c->bn[i->src1] : NULL);
}

static void cpp_vec_call(Cpp *c, const MirInst *i, const char *d, const char *s0, const char *s1) {
    char name[40];
    upper(mir_vop_pto(i->vop), name, sizeof name);
    MirVecKind vk = mir_vop_kind(i->vop);
    StrBuf sc = { 0 }, args = { 0 };
    int used = 0;   /* sources consumed as operands (the scratch is the next one) */
    static const char *const cmp[] = { "EQ", "NE", "LT", "LE", "GT", "GE" };
    static const char *const rnd[] = { "NONE", "RINT", "ROUND", "FLOOR", "CEIL", "TRUNC", "ODD" };
    switch (vk) {
    case MVK_BINARY: case MVK_PART: case MVK_CONCAT: sb_printf(&args, "%s, %s, %s", d, s0, s1), used = 2; break;
    case MVK_SCALAR:
        scalar(c, i, c->k->bufs[i->src0].dtype, &sc);
        sb_printf(&args, "%s, %s, %s", d, s0, sb_cstr(&sc)), used = 1;
        break;
    case MVK_UNARY: case MVK_COL_REDUCE: case MVK_FILLPAD: sb_printf(&args, "%s, %s", d, s0), used = 1; break;
    case MVK_TRANS: case MVK_ROW_REDUCE: case MVK_ROW_ARG: case MVK_COL_ARG: sb_printf(&args, "%s, %s", d, s0), used = 1; break;
    case MVK_CAST:
        sb_printf(&args, "%s, %s, RoundMode::CAST_%s", d, s0, i->mode >= 0 && i->mode <= 6 ? rnd[i->mode] : "NONE");
        break;
    case MVK_FILL: scalar(c, i, c->k->bufs[i->dst].dtype, &sc), sb_printf(&args, "%s, %s", d, sb_cstr(&sc)); break;
    case MVK_ROW_EXPAND: case MVK_COL_EXPAND:
        if (i->src0 < 0) sb_printf(&args, "%s, %s", d, s1);
        else sb_printf(&args, "%s, %s, %s", d, s0, s1);
        used = 2;
        break;
    case MVK_CMP: sb_printf(&args, "%s, %s, %s, CmpMode::%s", d, s0, s1, cmp[i->mode % 6]), used = 2; break;
    case MVK_CMPS:
        scalar(c, i, c->k->bufs[i->src0].dtype, &sc);
        sb_printf(&args, "%s, %s, %s, CmpMode::%s", d, s0, sb_cstr(&sc), cmp[i->mode % 6]), used = 1;
        break;
    case MVK_SEL: sb_printf(&args, "%s, %s, %s, %s", d, s0, s1, c->bn[i->src2]), used = 3; break;
    case MVK_SELS: sb_printf(&args, "%s, %s, %s", d, s0, s1), used = 2; break;
    }
    if (vk == MVK_FILLPAD && i->vop == VOP_FILLPADEXPAND) strcpy(name, "TFILLPAD_EXPAND");
    if (needs_tmp(i->vop)) {
        int t = tmp_of(i, used);
        if (t < 0) {
            cpp_unsupported(c, i, "%s without a planned scratch tile (its PTO-ISA form takes one)", mir_vop_pto(i->vop));
            sb_free(&sc), sb_free(&args);
            return;
        }
        sb_printf(&args, ", %s", c->bn[t]);
    }
    if (vk == MVK_SELS) {   /* TSELS(dst, mask, src, tmp, scalar) */
        scalar(c, i, c->k->bufs[i->dst].dtype, &sc);
        sb_printf(&args, ", %s", sb_cstr(&sc));
    }
    cpp_line(c, "%s(%s);", name, sb_cstr(&args));
    sb_free(&sc), sb_free(&args);
}

/* tgetval / tsetval: GetValue / SetValue at the row-major offset over the tile's physical shape (as
 * the .pto printer flattens it); ggetval / gsetval: the parameter element at its flat index. */
void cpp_scalar_access(Cpp *c, const MirInst *i) {
    bool tile = i->op == MI_TGETVAL || i->op == MI_TSETVAL, get = i->op == MI_TGETVAL || i->op == MI_GGETVAL;
    int b = i->op == MI_TGETVAL ? i->src0 : i->dst;
    DType dt = tile ? c->k->bufs[b].dtype : c->k->params[i->param].dtype;
    StrBuf idx = { 0 }, val = { 0 };
    if (tile) {
        if (c->k->bufs[b].blayout != ML_ROW_MAJOR || c->k->bufs[b].slayout != ML_NONE_BOX) {
            cpp_unsupported(c, i, "%s on a tile that is not row-major", mir_op_name(i->op));
            return;
        }
        sb_puts(&idx, "(");
        cpp_expr(c, i->off[0], &idx);
        sb_printf(&idx, ") * %lld + (", (long long)c->k->bufs[b].cols);
        cpp_expr(c, i->off[1], &idx);
        sb_putc(&idx, ')');
    } else {
        const MirParam *p = &c->k->params[i->param];
        sb_puts(&idx, "0");
        for (int d = 0, n = mir_gm_noff(c->k, i); d < n; d++) {
            int64_t st = p->strides[d];
            if (!st) { st = 1; for (int e = d + 1; e < p->rank; e++) st *= p->shape[e]; }
            sb_puts(&idx, " + (");
            cpp_expr(c, i->off[d], &idx);
            sb_printf(&idx, ") * INT64_C(%lld)", (long long)st);
        }
    }
    if (!get) { sb_printf(&val, "(%s)(", cpp_ctype(dt)); cpp_expr(c, i->scalar, &val); sb_putc(&val, ')'); }
    const char *v = get ? c->vn[i->var] : NULL;
    bool vfp = get && c->k->var_fp && c->k->var_fp[i->var];
    const char *conv = vfp ? "(double)" : "(int64_t)";
    if (tile && get) cpp_line(c, "%s = %s%s.GetValue((uint32_t)(%s));", v, conv, c->bn[b], sb_cstr(&idx));
    else if (tile) cpp_line(c, "%s.SetValue((uint32_t)(%s), %s);", c->bn[b], sb_cstr(&idx), sb_cstr(&val));
    else if (get) cpp_line(c, "%s = %s%s[%s];", v, conv, c->pn[i->param], sb_cstr(&idx));
    else cpp_line(c, "%s[%s] = %s;", c->pn[i->param], sb_cstr(&idx), sb_cstr(&val));
    sb_free(&idx), sb_free(&val);
}
