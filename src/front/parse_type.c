/* parse_type — type annotations: pl.Scalar, pl.Tensor (layout, MemRef), pl.Tile (MemRef, memory
 * space, TileView), pl.Tuple, pl.Ptr, pl.Out/pl.InOut wrappers and tuple[...] return annotations.
 *
 * Requires: parse.c (tokens, symbols), parse_expr.c (dims and view expressions).
 * Produces: Type nodes in canonical form: a TileView equal to the implicit view of (shape, space) is
 * dropped (NULL), and a valid_shape equal to the shape is cleared. MemRef bases name Ptr variables:
 * a bare identifier or a string; the same name maps to one Var per function. Dims must be static.
 * A bare `pl.Tensor` parameter of a @pl.jit function yields the unshaped marker (bind.c binds it). */
#include "front/front_internal.h"

#include <string.h>

bool front_parse_dtype_name(Parser *p, const char *dotted, Span sp, DType *out) {
    DType d = strncmp(dotted, "pl.", 3) == 0 ? dtype_from_name(dotted + 3) : DT_NONE;
    if (d == DT_NONE) {
        front_error(p, sp, "unknown dtype '%s' (e.g. pl.FP16, pl.BF16, pl.FP32, pl.INT8, pl.INT32, pl.INDEX)", dotted);
        return false;
    }
    *out = d;
    return true;
}

static bool parse_dtype(Parser *p, DType *out) {
    if (p->failed) return false;
    Span sp = front_peek(p, 0)->span;
    if (front_peek(p, 0)->kind != TK_NAME) {
        front_error(p, sp, "expected a dtype such as pl.FP16");
        return false;
    }
    const char *d = front_parse_dotted(p, &sp);
    return d && front_parse_dtype_name(p, d, sp, out);
}

/* '[' d0, d1, ... ']' of static integers */
static bool parse_shape(Parser *p, Expr ***dims, int *rank, const char *tyname) {
    Tok *t = front_peek(p, 0);
    if (!front_is_op(p, "[")) {
        front_error(p, t->span, "%s needs a shape list and a dtype, e.g. %s[[128, 512], pl.FP16]", tyname, tyname);
        return false;
    }
    front_next(p);
    Expr *buf[16];
    int n = 0;
    while (!p->failed && !front_is_op(p, "]")) {
        Span sp = front_peek(p, 0)->span;
        Expr *e = front_parse_expr(p);
        if (!e) return false;
        e = front_fold(p, e);
        if (p->failed) return false;
        if (e->kind != EX_CONST_INT) {
            front_error(p, sp, "dimensions must be integer constants (dynamic dimensions are not supported)");
            return false;
        }
        if (e->ci.value < 0) { front_error(p, sp, "negative dimension %lld", (long long)e->ci.value); return false; }
        if (n == 16) { front_error(p, sp, "too many dimensions (at most 16)"); return false; }
        if (e->type->dtype != DT_INDEX) e = ir_const_int(p->c, e->ci.value, DT_INDEX);
        buf[n++] = e;
        if (!front_accept_op(p, ",")) break;
    }
    if (!front_expect_op(p, "]", "to close the shape list")) return false;
    *dims = ARENA_ARRAY(p->c->arena, Expr *, n ? n : 1);
    if (n) memcpy(*dims, buf, sizeof(Expr *) * (size_t)n);
    *rank = n;
    return true;
}

static Var *memref_base(Parser *p) {
    Tok *t = front_peek(p, 0);
    if (t->kind != TK_STRING && t->kind != TK_NAME) {
        front_error(p, t->span, "expected the MemRef base: a name or a string such as \"mem_ddr_0\"");
        return NULL;
    }
    front_next(p);
    Sym *s = front_sym_find(p, t->text);
    if (s && s->var) return s->var;
    return front_bind(p, t->text, ir_ptr_type(p->c), t->span);
}

static bool parse_int_expr(Parser *p, int64_t *out, const char *what) {
    Span sp = front_peek(p, 0)->span;
    Expr *e = front_parse_expr(p);
    if (!e) return false;
    e = front_fold(p, e);
    if (p->failed) return false;
    if (e->kind != EX_CONST_INT) { front_error(p, sp, "%s must be an integer constant", what); return false; }
    *out = e->ci.value;
    return true;
}

/* at '(' after pl.MemRef */
static MemRef *parse_memref(Parser *p) {
    if (!front_expect_op(p, "(", "after pl.MemRef")) return NULL;
    MemRef *m = ARENA_NEW(p->c->arena, MemRef);
    m->base = memref_base(p);
    if (!m->base || !front_expect_op(p, ",", "after the MemRef base")) return NULL;
    Span osp = front_peek(p, 0)->span;
    if (!parse_int_expr(p, &m->offset, "the MemRef offset") || !front_expect_op(p, ",", "after the MemRef offset")) return NULL;
    if (!parse_int_expr(p, &m->size, "the MemRef size")) return NULL;
    int64_t end;
    if (m->offset < 0 || m->size < 0 || !checked_add(m->offset, m->size, &end)) {
        front_error(p, front_span_join(osp, front_prev_span(p)), "a MemRef needs a non-negative offset and size whose sum fits in int64 (got %lld, %lld)",
                    (long long)m->offset, (long long)m->size);
        return NULL;
    }
    front_accept_op(p, ",");
    return front_expect_op(p, ")", "to close pl.MemRef(...)") ? m : NULL;
}

typedef struct ViewSpec {
    bool has;
    bool set_valid, set_stride, set_start, set_bl, set_sl, set_fr, set_pad, set_compact;
    TileView v;
} ViewSpec;

static bool parse_expr_list(Parser *p, Expr ***out, int *n) {
    if (!front_expect_op(p, "[", "to start the list")) return false;
    Expr *buf[16];
    int k = 0;
    while (!p->failed && !front_is_op(p, "]")) {
        Expr *e = front_parse_expr(p);
        if (!e) return false;
        if (k == 16) { front_error(p, e->span, "list too long (at most 16 items)"); return false; }
        buf[k++] = e;
        if (!front_accept_op(p, ",")) break;
    }
    if (!front_expect_op(p, "]", "to close the list")) return false;
    *out = ARENA_ARRAY(p->c->arena, Expr *, k ? k : 1);
    if (k) memcpy(*out, buf, sizeof(Expr *) * (size_t)k);
    *n = k;
    return true;
}

static bool view_enum(Parser *p, const char *prefix, const char *const *names, int count, int *out) {
    Span sp = front_peek(p, 0)->span;
    AttrVal v;
    if (!front_parse_attr_value(p, &v)) return false;
    size_t n = strlen(prefix);
    if (v.kind == AV_ENUM && v.s && strncmp(v.s, prefix, n) == 0)
        for (int i = 0; i < count; i++)
            if (strcmp(v.s + n, names[i]) == 0) { *out = i; return true; }
    front_error(p, sp, "expected %s<value> (values: %s, %s, ...)", prefix, names[0], names[1]);
    return false;
}

static bool view_option(Parser *p, const char *key, Span ksp, ViewSpec *vs) {
    static const char *layouts[] = { "none_box", "row_major", "col_major" };
    static const char *pads[] = { "null", "zero", "max", "min" };
    TileView *v = &vs->v;
    int e;
    if (strcmp(key, "valid_shape") == 0) { vs->set_valid = true; return parse_expr_list(p, &v->valid_shape, &v->nvalid); }
    if (strcmp(key, "stride") == 0) { vs->set_stride = true; return parse_expr_list(p, &v->stride, &v->nstride); }
    if (strcmp(key, "start_offset") == 0) { vs->set_start = true; return (v->start_offset = front_parse_expr(p)) != NULL; }
    if (strcmp(key, "blayout") == 0 || strcmp(key, "slayout") == 0) {
        if (!view_enum(p, "pl.TileLayout.", layouts, 3, &e)) return false;
        if (key[0] == 'b') { vs->set_bl = true; v->blayout = (TileLayout)e; }
        else { vs->set_sl = true; v->slayout = (TileLayout)e; }
        return true;
    }
    if (strcmp(key, "pad") == 0) {
        if (!view_enum(p, "pl.PadValue.", pads, 4, &e)) return false;
        vs->set_pad = true;
        v->pad = (PadValue)e;
        return true;
    }
    if (strcmp(key, "fractal") == 0) { vs->set_fr = true; return parse_int_expr(p, &v->fractal, "fractal"); }
    if (strcmp(key, "compact") == 0) {
        AttrVal a;
        if (!front_parse_attr_value(p, &a)) return false;
        vs->set_compact = true;
        v->compact = a.kind == AV_BOOL ? a.i != 0 : a.kind == AV_ENUM && a.s && strstr(a.s, "normal");
        return true;
    }
    front_error(p, ksp, "unknown pl.TileView field '%s' (fields: valid_shape, stride, start_offset, blayout, slayout, fractal, pad, compact)", key);
    return false;
}

static bool parse_view(Parser *p, ViewSpec *vs) {
    if (!front_expect_op(p, "(", "after pl.TileView")) return false;
    vs->has = true;
    while (!p->failed && !front_is_op(p, ")")) {
        Span ksp;
        const char *key = front_expect_name(p, "a pl.TileView field", &ksp);
        if (!key || !front_expect_op(p, "=", "after the field name") || !view_option(p, key, ksp, vs)) return false;
        if (!front_accept_op(p, ",")) break;
    }
    return front_expect_op(p, ")", "to close pl.TileView(...)");
}

static void apply_view(Parser *p, Type *t, const ViewSpec *vs) {
    if (!vs->has) return;
    TileView v = ir_implicit_view(t);
    if (vs->set_valid) { v.valid_shape = vs->v.valid_shape; v.nvalid = vs->v.nvalid; }
    if (vs->set_stride) { v.stride = vs->v.stride; v.nstride = vs->v.nstride; }
    if (vs->set_start) v.start_offset = vs->v.start_offset;
    if (vs->set_bl) v.blayout = vs->v.blayout;
    if (vs->set_sl) v.slayout = vs->v.slayout;
    if (vs->set_fr) v.fractal = vs->v.fractal;
    if (vs->set_pad) v.pad = vs->v.pad;
    if (vs->set_compact) v.compact = vs->v.compact;
    if (v.nvalid == t->rank) {
        bool same = true;
        for (int i = 0; i < t->rank; i++) {
            int64_t a;
            if (!ir_is_const_int(v.valid_shape[i], &a) || a != t->shape[i]->ci.value) same = false;
        }
        if (same) v.nvalid = 0;
    }
    TileView imp = ir_implicit_view(t);
    if (ir_view_equal(&v, &imp)) return;
    t->view = ARENA_NEW(p->c->arena, TileView);
    *t->view = v;
}

/* the optional trailing items of pl.Tensor[...] / pl.Tile[...] */
static bool shaped_extras(Parser *p, Type *t, ViewSpec *vs) {
    while (!p->failed && front_accept_op(p, ",")) {
        if (front_is_op(p, "]")) break;
        Span sp;
        if (front_peek(p, 0)->kind != TK_NAME) { front_error(p, front_peek(p, 0)->span, "unexpected item in the type"); return false; }
        const char *d = front_parse_dotted(p, &sp);
        if (!d) return false;
        if (strcmp(d, "pl.MemRef") == 0) { if (!(t->memref = parse_memref(p))) return false; continue; }
        const char *lay = front_tensor_layout_name(d);
        if (t->kind == TY_TENSOR && lay && (strcmp(lay, "NZ") == 0 || strcmp(lay, "DN") == 0 || strcmp(lay, "ND") == 0)) {
            t->layout = lay[0] == 'N' && lay[1] == 'Z' ? TLAYOUT_NZ : lay[0] == 'D' ? TLAYOUT_DN : TLAYOUT_ND;
            continue;
        }
        if (t->kind == TY_TILE && front_mem_space_name(d)) {
            t->space = memspace_from_name(front_mem_space_name(d));
            if (t->space == MS_NONE) { front_error(p, sp, "unknown memory space '%s' (spaces: Vec, Mat, Left, Right, Acc, Bias)", d); return false; }
            continue;
        }
        if (t->kind == TY_TILE && strcmp(d, "pl.TileView") == 0) { if (!parse_view(p, vs)) return false; continue; }
        front_error(p, sp, "unexpected '%s' in a %s type", d, t->kind == TY_TILE ? "pl.Tile" : "pl.Tensor");
        return false;
    }
    return front_expect_op(p, "]", "to close the type");
}

static Type *parse_shaped(Parser *p, TypeKind k) {
    const char *tyname = k == TY_TENSOR ? "pl.Tensor" : "pl.Tile";
    if (!front_is_op(p, "[")) {
        front_error(p, front_prev_span(p), "%s needs a shape list and a dtype, e.g. %s[[128, 512], pl.FP16]", tyname, tyname);
        return NULL;
    }
    Span sp0 = front_peek(p, 0)->span;
    front_next(p);
    Type *t = ARENA_NEW(p->c->arena, Type);
    t->kind = k;
    t->space = k == TY_TENSOR ? MS_DDR : MS_NONE;
    if (!parse_shape(p, &t->shape, &t->rank, tyname)) return NULL;
    if (!front_is_op(p, ",")) {
        front_error(p, front_peek(p, 0)->span, "%s needs a shape list and a dtype, e.g. %s[[128, 512], pl.FP16]", tyname, tyname);
        return NULL;
    }
    front_next(p);
    Span dsp = front_peek(p, 0)->span;
    if (!parse_dtype(p, &t->dtype)) return NULL;
    if (!dtype_is_supported(t->dtype)) {
        front_error(p, front_span_join(dsp, front_prev_span(p)), "%s elements of pl.%s are not supported by ptoc (element types: %s)",
                    tyname, dtype_name(t->dtype), DTYPE_SUPPORTED_LIST);
        return NULL;
    }
    int64_t dims[16], bytes;
    ir_type_static_dims(t, dims);
    if (!ir_shape_bytes(t->dtype, dims, t->rank, &bytes)) {
        StrBuf sb = { 0 };
        ir_print_type(t, &sb);
        front_error(p, front_span_join(sp0, dsp), "%s is too large: its size in bytes does not fit in a 64-bit integer", sb_cstr(&sb));
        sb_free(&sb);
        return NULL;
    }
    ViewSpec vs = { 0 };
    if (!shaped_extras(p, t, &vs)) return NULL;
    apply_view(p, t, &vs);
    return t;
}

static Type *parse_tuple_items(Parser *p, int *n, Type ***out) {
    if (!front_expect_op(p, "[", "after the tuple type")) return NULL;
    Type *buf[32];
    int k = 0;
    while (!p->failed && !front_is_op(p, "]")) {
        Type *t = front_parse_type(p);
        if (!t) return NULL;
        if (k == 32) { front_error(p, front_prev_span(p), "tuple type too long"); return NULL; }
        buf[k++] = t;
        if (!front_accept_op(p, ",")) break;
    }
    if (!front_expect_op(p, "]", "to close the tuple type")) return NULL;
    Type *tt = ir_tuple_type(p->c, buf, k);
    *n = k;
    *out = tt->elems;
    return tt;
}

Type *front_parse_type(Parser *p) {
    if (p->failed) return NULL;
    Tok *t = front_peek(p, 0);
    if (t->kind != TK_NAME) { front_error(p, t->span, "expected a type such as pl.Tensor[[128, 512], pl.FP16]"); return NULL; }
    Span sp;
    const char *d = front_parse_dotted(p, &sp);
    if (!d) return NULL;
    if (strcmp(d, "pl.Tensor") == 0) return parse_shaped(p, TY_TENSOR);
    if (strcmp(d, "pl.Tile") == 0) return parse_shaped(p, TY_TILE);
    if (strcmp(d, "pl.Ptr") == 0) return ir_ptr_type(p->c);
    if (strcmp(d, "pl.Scalar") == 0) {
        DType dt;
        if (!front_expect_op(p, "[", "after pl.Scalar (e.g. pl.Scalar[pl.INDEX])") || !parse_dtype(p, &dt) ||
            !front_expect_op(p, "]", "to close pl.Scalar[...]"))
            return NULL;
        if (!dtype_is_supported(dt) && dt != DT_TASK_ID) {
            front_error(p, sp, "pl.Scalar[pl.%s] is not supported by ptoc (scalar types: %s, TASK_ID)", dtype_name(dt), DTYPE_SUPPORTED_LIST);
            return NULL;
        }
        return ir_scalar_type(p->c, dt);
    }
    if (strcmp(d, "pl.Tuple") == 0) {
        int n;
        Type **ts;
        return parse_tuple_items(p, &n, &ts);
    }
    if (strncmp(d, "pl.", 3) == 0 && dtype_from_name(d + 3) != DT_NONE) {
        DType dt = dtype_from_name(d + 3);
        if (!dtype_is_supported(dt) && dt != DT_TASK_ID) {
            front_error(p, sp, "a scalar of %s is not supported by ptoc (scalar types: %s, TASK_ID)", d, DTYPE_SUPPORTED_LIST);
            return NULL;
        }
        return ir_scalar_type(p->c, dt);
    }
    front_error(p, sp, "unknown type '%s' (types: pl.Tensor, pl.Tile, pl.Scalar, pl.Tuple, pl.Ptr)", d);
    return NULL;
}

/* A bare `pl.Tensor` (no '[' after it) in a @pl.jit signature: shape and dtype come from the
 * binding (language.md §1.1); the caller resolves the marker with front_bind_param. */
static bool at_unshaped_tensor(Parser *p) {
    Tok *t0 = front_peek(p, 0), *t2 = front_peek(p, 2);
    return p->user_form && t0->kind == TK_NAME && strcmp(t0->text, "pl") == 0 && front_is_op_at(p, 1, ".") &&
           t2->kind == TK_NAME && strcmp(t2->text, "Tensor") == 0 && !front_is_op_at(p, 3, "[") && !front_is_op_at(p, 3, ".");
}

static Type *param_type(Parser *p) {
    if (!at_unshaped_tensor(p)) return front_parse_type(p);
    front_next(p); front_next(p); front_next(p);
    return front_unshaped_tensor(p);
}

Type *front_parse_param_type(Parser *p, ParamDir *dir) {
    *dir = PD_IN;
    Tok *t0 = front_peek(p, 0), *t2 = front_peek(p, 2);
    if (t0->kind == TK_NAME && strcmp(t0->text, "pl") == 0 && front_is_op_at(p, 1, ".") && t2->kind == TK_NAME &&
        (strcmp(t2->text, "Out") == 0 || strcmp(t2->text, "InOut") == 0 || strcmp(t2->text, "In") == 0)) {
        *dir = strcmp(t2->text, "Out") == 0 ? PD_OUT : strcmp(t2->text, "InOut") == 0 ? PD_INOUT : PD_IN;
        front_next(p); front_next(p); front_next(p);
        if (!front_expect_op(p, "[", "after the direction wrapper")) return NULL;
        Type *t = param_type(p);
        if (!t || !front_expect_op(p, "]", "to close the direction wrapper")) return NULL;
        return t;
    }
    return param_type(p);
}

Type *front_parse_return_type(Parser *p, int *n, Type ***types) {
    if (front_is_name(p, "tuple") && front_is_op_at(p, 1, "[")) {
        front_next(p);
        return parse_tuple_items(p, n, types);
    }
    if (front_is_name(p, "None")) { front_next(p); *n = 0; *types = NULL; return ir_tuple_type(p->c, NULL, 0); }
    Type *t = front_parse_type(p);
    if (!t) return NULL;
    *n = 1;
    *types = ARENA_ARRAY(p->c->arena, Type *, 1);
    (*types)[0] = t;
    return t;
}

const char *front_mem_space_name(const char *d) {
    if (strncmp(d, "pl.Mem.", 7) == 0) return d + 7;
    if (strncmp(d, "pl.MemorySpace.", 15) == 0) return d + 15;
    return NULL;
}

const char *front_tensor_layout_name(const char *d) {
    if (strncmp(d, "pl.TensorLayout.", 16) == 0) return d + 16;
    static const char *const short_names[] = { "pl.ND", "pl.DN", "pl.NZ", "pl.MX_A_ZZ", "pl.MX_B_NN", NULL };
    for (int i = 0; short_names[i]; i++)
        if (strcmp(d, short_names[i]) == 0) return d + 3;
    return NULL;
}
