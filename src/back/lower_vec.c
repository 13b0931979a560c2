/* lower_vec: a tile vector op (OPF_VEC, spec/ops.md) -> one MI_VOP instruction on the V pipe.
 * Requires: the operands are allocated Vec tiles (lower_buf). Produces: the instruction with its
 * MirVecOp, buffers, scalar operand (a constant converted to the destination dtype, or a run-time
 * scalar expression, integer or float) and mode (cast rounding, fillpad pad value). A tile.slice emits
 * nothing (its buffer is a window of the parent's bytes, see lower_buf); sin / cos never get here
 * (LowerCompositeOps). */
#include "back/lower_internal.h"

#include <string.h>

static const struct { const char *name; MirVecOp vop; } vop_of_name[] = {
    { "add", VOP_ADD }, { "sub", VOP_SUB }, { "mul", VOP_MUL }, { "div", VOP_DIV }, { "maximum", VOP_MAX }, { "minimum", VOP_MIN },
    { "adds", VOP_ADDS }, { "subs", VOP_SUBS }, { "muls", VOP_MULS }, { "divs", VOP_DIVS }, { "maximums", VOP_MAXS },
    { "minimums", VOP_MINS }, { "exp", VOP_EXP }, { "log", VOP_LOG }, { "sqrt", VOP_SQRT }, { "rsqrt", VOP_RSQRT },
    { "recip", VOP_RECIP }, { "abs", VOP_ABS }, { "neg", VOP_NEG }, { "relu", VOP_RELU }, { "cast", VOP_CVT },
    { "full", VOP_EXPANDS }, { "expands", VOP_EXPANDS }, { "fillpad", VOP_FILLPAD }, { "row_sum", VOP_ROWSUM },
    { "row_max", VOP_ROWMAX }, { "row_min", VOP_ROWMIN }, { "col_sum", VOP_COLSUM }, { "col_max", VOP_COLMAX },
    { "col_min", VOP_COLMIN }, { "row_expand", VOP_ROWEXPAND }, { "row_expand_add", VOP_ROWEXPANDADD },
    { "row_expand_sub", VOP_ROWEXPANDSUB }, { "row_expand_mul", VOP_ROWEXPANDMUL }, { "row_expand_div", VOP_ROWEXPANDDIV },
    { "row_expand_max", VOP_ROWEXPANDMAX }, { "row_expand_min", VOP_ROWEXPANDMIN }, { "col_expand", VOP_COLEXPAND },
    { "col_expand_add", VOP_COLEXPANDADD }, { "col_expand_sub", VOP_COLEXPANDSUB }, { "col_expand_mul", VOP_COLEXPANDMUL },
    { "col_expand_div", VOP_COLEXPANDDIV }, { "col_expand_max", VOP_COLEXPANDMAX }, { "col_expand_min", VOP_COLEXPANDMIN },
    { "fmod", VOP_FMOD }, { "fmods", VOP_FMODS }, { "rem", VOP_REM }, { "rems", VOP_REMS }, { "and_", VOP_AND },
    { "ands", VOP_ANDS }, { "or_", VOP_OR }, { "ors", VOP_ORS }, { "xor", VOP_XOR }, { "xors", VOP_XORS }, { "shl", VOP_SHL },
    { "shls", VOP_SHLS }, { "shr", VOP_SHR }, { "shrs", VOP_SHRS }, { "not_", VOP_NOT }, { "prelu", VOP_PRELU },
    { "lrelu", VOP_LRELU }, { "part_add", VOP_PARTADD }, { "part_mul", VOP_PARTMUL }, { "part_max", VOP_PARTMAX },
    { "part_min", VOP_PARTMIN }, { "row_expand_expdif", VOP_ROWEXPANDEXPDIF }, { "col_expand_expdif", VOP_COLEXPANDEXPDIF },
    { "cmp", VOP_CMP }, { "cmps", VOP_CMPS }, { "sel", VOP_SEL }, { "sels", VOP_SELS }, { "transpose", VOP_TRANS }, { "concat", VOP_CONCAT },
    { "row_prod", VOP_ROWPROD }, { "col_prod", VOP_COLPROD }, { "row_argmax", VOP_ROWARGMAX }, { "row_argmin", VOP_ROWARGMIN },
    { "col_argmax", VOP_COLARGMAX }, { "col_argmin", VOP_COLARGMIN }, { "fillpad_expand", VOP_FILLPADEXPAND },
    { "fillpad_inplace", VOP_FILLPAD },
};

static bool vop_for(OpId op, MirVecOp *out) {
    const char *n = ir_vec_short_name(op);
    for (size_t i = 0; i < sizeof vop_of_name / sizeof vop_of_name[0]; i++)
        if (strcmp(vop_of_name[i].name, n) == 0) { *out = vop_of_name[i].vop; return true; }
    return false;
}

/* The scalar operand: a literal becomes the destination element value (the instruction's operand is
 * of the element type: float to integer truncates as the C conversion does); a run-time scalar
 * expression stays an expression, converted the same way when the instruction issues. */
static void scalar_operand(Lower *l, MirInst *i, const Expr *s, DType dst, Span sp) {
    int64_t iv;
    if (s->kind == EX_CONST_FLOAT) {
        i->imm = dtype_convert(dst, DT_FP32, s->cf.value, dtype_is_float(dst) ? DT_ROUND_RINT : DT_ROUND_TRUNC);
        return;
    }
    if (ir_is_const_int(s, &iv)) {
        i->imm = dtype_convert(dst, DT_INT64, (double)iv, DT_ROUND_RINT);
        return;
    }
    i->scalar = lower_scalar(l, s);
}

void lower_view_window(MirBuf *b, const TileView *v) {
    int64_t pitch = b->cols, start = 0, eb = dtype_bytes(b->dtype);
    if (v->nstride == 2) ir_is_const_int(v->stride[0], &pitch);        /* constants: deduce_slice checked them */
    if (v->start_offset) ir_is_const_int(v->start_offset, &start);
    b->addr += start * eb;
    b->bytes = ((b->rows - 1) * pitch + b->cols) * eb;                 /* first to last element of the window */
    if (b->valid_cols > b->cols) b->valid_cols = b->cols;
    b->cols = pitch;
}

/* A machine buffer has a static valid box: a run-time valid shape (pl.set_validshape or a slice's
 * valid_shape with a scalar variable) cannot be lowered yet. */
static bool static_valid(Lower *l, const Expr *e, const Expr *call, Span sp) {
    const Type *t = e->type;
    if (!t || t->kind != TY_TILE) return true;
    TileView v = ir_effective_view(t);
    int64_t k;
    for (int d = 0; d < v.nvalid; d++)
        if (!ir_is_const_int(v.valid_shape[d], &k)) {
            lower_fail(l, sp, "kernel '%s': %s: the tile '%s' has a run-time valid shape; ptoc's vector instructions take "
                       "compile-time valid shapes (give pl.set_validshape / valid_shape constant extents)",
                       l->f->name, ir_op_info(call->call.op)->name, e->kind == EX_VAR ? e->var->name : "operand");
            return false;
        }
    return true;
}

void lower_vec(Lower *l, MirBlock *b, Var *v, Expr *c, Span sp) {
    MirVecOp vop;
    VecKind kind = ir_vec_kind(c->call.op);
    if (kind == VK_SLICE) return;     /* a view: its buffer is the parent's bytes (lower_buf) */
    if (kind == VK_COMPOSITE) {
        lower_fail(l, sp, "kernel '%s': internal: %s reached the backend (LowerCompositeOps expands it)", l->f->name,
                   ir_op_info(c->call.op)->name);
        return;
    }
    if (v && !static_valid(l, ir_ref(v), c, sp)) return;
    for (int j = 0; j < c->call.nargs; j++)
        if (!static_valid(l, c->call.args[j], c, sp)) return;
    if (!v || !vop_for(c->call.op, &vop)) {
        lower_fail(l, sp, "kernel '%s': %s cannot be lowered to a machine instruction", l->f->name, ir_op_info(c->call.op)->name);
        return;
    }
    Expr **a = c->call.args;
    int dst = lower_buf(l, ir_ref(v), sp);
    if (dst < 0) return;
    MirInst *i = lower_inst(l, b, MI_VOP, dst, -1, sp);
    i->vop = vop;
    DType dt = l->k->bufs[dst].dtype;
    switch (ir_vec_kind(c->call.op)) {
    case VK_BINARY:   /* xor / rem / prelu: the scratch tile, an operand of the instruction as upstream */
        i->src0 = lower_buf(l, a[0], sp);
        i->src1 = lower_buf(l, a[1], sp);
        if (c->call.nargs == 3) i->src2 = lower_buf(l, a[2], sp);
        break;
    case VK_SCALAR:   /* xors / rems: the scratch tile */
        i->src0 = lower_buf(l, a[0], sp);
        scalar_operand(l, i, a[1], dt, sp);
        if (c->call.nargs == 3) i->src2 = lower_buf(l, a[2], sp);
        break;
    case VK_UNARY: i->src0 = lower_buf(l, a[0], sp); break;
    case VK_CAST: i->src0 = lower_buf(l, a[0], sp); i->mode = ir_vec_cast_mode(c); break;
    case VK_FULL: scalar_operand(l, i, a[2], dt, sp); break;
    case VK_EXPANDS: scalar_operand(l, i, a[1], dt, sp); break;
    case VK_FILLPAD: case VK_FILLPAD_EXPAND:   /* fillpad_inplace: dst is src0's buffer with the full valid box */
        i->src0 = lower_buf(l, a[0], sp);
        i->mode = ir_vec_pad_value(ir_attr_get(&c->call.kwargs, "pad_value"));
        break;
    case VK_ROW_REDUCE: case VK_COL_REDUCE: case VK_ROW_ARG: case VK_COL_ARG:
        i->src0 = lower_buf(l, a[0], sp);
        if (c->call.nargs == 2) i->src1 = lower_buf(l, a[1], sp);
        break;
    case VK_ROW_EXPAND: case VK_COL_EXPAND:
        if (mir_vop_fn(vop) != MVF_NONE) i->src0 = lower_buf(l, a[0], sp);
        i->src1 = lower_buf(l, a[1], sp);
        break;
    case VK_CMP: i->src0 = lower_buf(l, a[0], sp); i->src1 = lower_buf(l, a[1], sp); i->mode = ir_vec_cmp_type(c); break;
    case VK_CMPS:   /* the scalar is compared in the source's element type */
        i->src0 = lower_buf(l, a[0], sp);
        if (i->src0 >= 0) scalar_operand(l, i, a[1], l->k->bufs[i->src0].dtype, sp);
        i->mode = ir_vec_cmp_type(c);
        break;
    case VK_SEL:
        i->src0 = lower_buf(l, a[0], sp); i->src1 = lower_buf(l, a[1], sp); i->src2 = lower_buf(l, a[2], sp);
        break;
    case VK_SELS:
        i->src0 = lower_buf(l, a[0], sp);
        i->src1 = lower_buf(l, a[1], sp);
        if (i->src1 >= 0) scalar_operand(l, i, a[c->call.nargs - 1], l->k->bufs[i->src1].dtype, sp);
        break;
    case VK_TRANSPOSE: i->src0 = lower_buf(l, a[0], sp); break;
    case VK_CONCAT: i->src0 = lower_buf(l, a[0], sp); i->src1 = lower_buf(l, a[1], sp); break;
    case VK_RESHAPE: case VK_TRANSPOSE_VIEW: case VK_SLICE: case VK_COMPOSITE: case VK_NONE: break;
    }
}
