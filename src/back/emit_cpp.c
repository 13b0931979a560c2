/* emit_cpp — a MIR kernel as PTO-ISA C++ (spec/isa_and_sync.md §10, ir_and_passes.md §10).
 *
 * Requires: a Kernel at level 3 (every buffer has its address), after back_insert_sync.
 * Produces: one self-contained C++ translation unit: `#include <pto/pto-inst.hpp>`, a
 *           `static AICORE void <kernel>_impl(__gm__ T* …, scalars…, block ids)` holding one `Tile<…>`
 *           per buffer with the planned type, layouts, fractal, valid shape and pad, `TASSIGN` at the
 *           planned byte address, the body (GlobalTensor views of the parameters, TLOAD / TEXTRACT /
 *           TMATMUL / … / TSTORE, vector instructions, set_flag / wait_flag / pipe_barrier, C for / if
 *           with the scalar expressions), and the `kernel_entry(int64_t* args)` wrapper decoding the
 *           runtime's argument layout (spec/runtime.md §11).
 * Does:     a one-to-one translation like the .pto printer (pto.c), no analysis. A form with no
 *           PTO-ISA spelling is reported through `why` (back_print_cpp returns false) and the text
 *           carries an #error at that point, so nothing silently builds a different kernel.
 */
#include "back/emit_cpp_int.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- names ---- */
static char *cname(const char *prefix, const char *s, int id) {
    size_t n = strlen(s ? s : "");
    char *o = malloc(n + strlen(prefix) + 24);
    PTOC_ASSERT(o, "out of memory");
    size_t j = (size_t)sprintf(o, "%s", prefix);
    for (size_t i = 0; i < n; i++) o[j++] = (isalnum((unsigned char)s[i]) || s[i] == '_') ? s[i] : '_';
    sprintf(o + j, "_%d", id);
    return o;
}

static void make_names(Cpp *c) {
    const Kernel *k = c->k;
    c->bn = calloc((size_t)k->nbufs + 1, sizeof(char *));
    c->vn = calloc((size_t)k->nvars + 1, sizeof(char *));
    c->pn = calloc((size_t)k->nparams + 1, sizeof(char *));
    PTOC_ASSERT(c->bn && c->vn && c->pn, "out of memory");
    for (int j = 0; j < k->nbufs; j++) c->bn[j] = cname("t_", k->bufs[j].name, j);
    for (int j = 0; j < k->nvars; j++) c->vn[j] = cname("s_", k->vars[j], j);
    for (int j = 0; j < k->nparams; j++) c->pn[j] = cname("p_", k->params[j].name, j);
}

static void free_names(Cpp *c) {
    for (int j = 0; j < c->k->nbufs; j++) free(c->bn[j]);
    for (int j = 0; j < c->k->nvars; j++) free(c->vn[j]);
    for (int j = 0; j < c->k->nparams; j++) free(c->pn[j]);
    free(c->bn);
    free(c->vn);
    free(c->pn);
}

void cpp_line(Cpp *c, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    sb_indent(c->o, c->ind);
    sb_vprintf(c->o, fmt, ap);
    sb_putc(c->o, '\n');
    va_end(ap);
}

void cpp_unsupported(Cpp *c, const MirInst *i, const char *fmt, ...) {
    StrBuf m = { 0 };
    va_list ap;
    va_start(ap, fmt);
    sb_vprintf(&m, fmt, ap);
    va_end(ap);
    if (!c->why.len) {
        if (i && i->loc.file && i->loc.file->path) sb_printf(&c->why, "%s:%d:%d: ", i->loc.file->path, i->loc.line, i->loc.col);
        sb_printf(&c->why, "kernel %s: %s", c->k->name, sb_cstr(&m));
    }
    cpp_line(c, "#error \"ptoc: %s has no PTO-ISA C++ form in this emitter\"", sb_cstr(&m));
    sb_free(&m);
}

const char *cpp_ctype(DType t) {
    switch (t) {
    case DT_FP16: return "half";
    case DT_BF16: return "bfloat16_t";
    case DT_FP32: return "float";
    case DT_INT8: return "int8_t";
    case DT_INT16: return "int16_t";
    case DT_INT32: return "int32_t";
    case DT_INT64: case DT_INDEX: return "int64_t";
    case DT_UINT8: case DT_BOOL: return "uint8_t";
    case DT_UINT16: return "uint16_t";
    case DT_UINT32: return "uint32_t";
    case DT_UINT64: return "uint64_t";
    default: return NULL;
    }
}

/* ---- scalar expressions: Python semantics through the helpers of the prelude ---- */
static void fexpr(Cpp *c, const MirExpr *e, StrBuf *o) {   /* e as a double */
    if (e->fp) { cpp_expr(c, e, o); return; }
    sb_puts(o, "(double)(");
    cpp_expr(c, e, o);
    sb_putc(o, ')');
}

static void bin(Cpp *c, const MirExpr *e, StrBuf *o) {
    static const char *ops[] = { "+", "-", "*", "", "", "", "", "==", "!=", "<", "<=", ">", ">=", "&&", "||", "/" };
    bool fp = e->op == MB_DIV || e->a->fp || e->b->fp;
    void (*sub)(Cpp *, const MirExpr *, StrBuf *) = fp ? fexpr : cpp_expr;
    const char *fn = NULL;
    switch (e->op) {
    case MB_FLOORDIV: fn = fp ? "ptoc_ffloordiv" : "ptoc_floordiv"; break;
    case MB_FLOORMOD: fn = fp ? "ptoc_ffloormod" : "ptoc_floormod"; break;
    case MB_MIN: fn = fp ? "ptoc_fmin" : "ptoc_min"; break;
    case MB_MAX: fn = fp ? "ptoc_fmax" : "ptoc_max"; break;
    default: break;
    }
    if (fn) {
        sb_printf(o, "%s(", fn);
        sub(c, e->a, o);
        sb_puts(o, ", ");
        sub(c, e->b, o);
        sb_putc(o, ')');
        return;
    }
    bool cmp = e->op >= MB_EQ && e->op <= MB_OR;
    sb_puts(o, cmp ? "(int64_t)(" : "(");
    sub(c, e->a, o);
    sb_printf(o, " %s ", ops[e->op]);
    sub(c, e->b, o);
    sb_putc(o, ')');
}

void cpp_expr(Cpp *c, const MirExpr *e, StrBuf *o) {
    switch (e->kind) {
    case MX_CONST:
        if (e->fp) sb_printf(o, "%a", e->fvalue);
        else if (e->value == INT64_MIN) sb_puts(o, "INT64_MIN");
        else sb_printf(o, "INT64_C(%lld)", (long long)e->value);
        return;
    case MX_VAR: sb_puts(o, c->vn[e->var]); return;
    case MX_BIN: bin(c, e, o); return;
    case MX_NOT: sb_puts(o, "(int64_t)!("); cpp_expr(c, e->a, o); sb_putc(o, ')'); return;
    case MX_NEG: sb_puts(o, "(-("); cpp_expr(c, e->a, o); sb_puts(o, "))"); return;
    case MX_ABS: sb_puts(o, e->a->fp ? "fabs(" : "ptoc_abs("); cpp_expr(c, e->a, o); sb_putc(o, ')'); return;
    case MX_CAST:
        if (e->cast_to == DT_NONE) {
            fexpr(c, e->a, o);
        } else if (dtype_is_float(e->cast_to)) {
            sb_printf(o, "ptoc_round_%s(", e->cast_to == DT_FP32 ? "f32" : e->cast_to == DT_FP16 ? "f16" : "bf16");
            fexpr(c, e->a, o);
            sb_putc(o, ')');
        } else {
            const char *t = cpp_ctype(e->cast_to);
            sb_printf(o, "(int64_t)(%s)%s(", t ? t : "int64_t", e->a->fp ? "ptoc_trunc_i64" : "");
            cpp_expr(c, e->a, o);
            sb_putc(o, ')');
        }
        return;
    }
    PTOC_UNREACHABLE("bad expr kind %d", e->kind);
}

/* ---- types ---- */
static const char *tile_kind(MemSpace m) {
    switch (m) {
    case MS_VEC: return "Vec";
    case MS_MAT: return "Mat";
    case MS_LEFT: return "Left";
    case MS_RIGHT: return "Right";
    case MS_ACC: return "Acc";
    case MS_BIAS: return "Bias";
    default: return NULL;
    }
}

void cpp_tile_type(Cpp *c, int b, bool whole, StrBuf *o) {
    static const char *bl[] = { "RowMajor", "RowMajor", "ColMajor" };
    static const char *sl[] = { "NoneBox", "RowMajor", "ColMajor" };
    static const char *pads[] = { "Null", "Zero", "Max", "Min" };
    const MirBuf *x = &c->k->bufs[b];
    sb_printf(o, "Tile<TileType::%s, %s, %lld, %lld, BLayout::%s, %lld, %lld, SLayout::%s, %lld, PadValue::%s%s>",
              tile_kind(x->space), cpp_ctype(x->dtype), (long long)x->rows, (long long)x->cols, bl[x->blayout % 3],
              (long long)(whole ? x->rows : x->valid_rows), (long long)(whole ? x->cols : x->valid_cols), sl[x->slayout % 3],
              (long long)(x->slayout == ML_NONE_BOX ? 512 : x->fractal), pads[x->pad >= 0 && x->pad < 4 ? x->pad : 0],
              x->compact ? ", CompactMode::Normal" : "");
}

/* ---- GM views: a GlobalTensor over the tile-sized window the instruction moves ---- */
static int64_t row_stride(const MirParam *p) {
    if (p->rank < 2) return 1;
    return p->strides[p->rank - 2] ? p->strides[p->rank - 2] : p->shape[p->rank - 1];
}

/* declares `gt_N` for instruction i's window of parameter i->param sized like buffer b; returns N */
static int gm_view(Cpp *c, const MirInst *i, int b) {
    const MirParam *p = &c->k->params[i->param];
    const MirBuf *x = &c->k->bufs[b];
    const char *t = cpp_ctype(p->dtype);
    int n = c->ntmp++;
    StrBuf off = { 0 };
    if (p->layout == MIR_LAYOUT_NZ && p->rank == 5) {
        int64_t c0 = p->shape[4], r0 = p->shape[3];
        for (int d = 0; d < 5; d++) {
            if (!i->off[d]) continue;
            sb_printf(&off, " + (");
            cpp_expr(c, i->off[d], &off);
            sb_printf(&off, ") * INT64_C(%lld)", (long long)p->strides[d]);
        }
        cpp_line(c, "using GT%d = GlobalTensor<%s, Shape<1, %lld, %lld, %lld, %lld>, Stride<%lld, %lld, %lld, %lld, %lld>, "
                    "Layout::NZ>;", n, t, (long long)(x->valid_cols / c0), (long long)(x->valid_rows / r0), (long long)r0,
                 (long long)c0, (long long)p->strides[0], (long long)p->strides[1], (long long)p->strides[2],
                 (long long)p->strides[3], (long long)p->strides[4]);
    } else {
        int64_t rs = row_stride(p);
        if (i->off[0]) { sb_puts(&off, " + ("); cpp_expr(c, i->off[0], &off); sb_printf(&off, ") * INT64_C(%lld)", (long long)rs); }
        if (i->off[1]) { sb_puts(&off, " + ("); cpp_expr(c, i->off[1], &off); sb_putc(&off, ')'); }
        int64_t vr = x->valid_rows, vc = x->valid_cols;
        if (p->layout == MIR_LAYOUT_DN) {
            cpp_unsupported(c, i, "a DN (column-major) GM parameter");
            sb_free(&off);
            return n;
        }
        cpp_line(c, "using GT%d = GlobalTensor<%s, Shape<1, 1, 1, %lld, %lld>, Stride<%lld, %lld, %lld, %lld, 1>, Layout::ND>;",
                 n, t, (long long)vr, (long long)vc, (long long)(vr * rs), (long long)(vr * rs), (long long)(vr * rs),
                 (long long)rs);
    }
    cpp_line(c, "GT%d gt_%d(%s%s);", n, n, c->pn[i->param], sb_cstr(&off));
    sb_free(&off);
    return n;
}

static void load_store(Cpp *c, const MirInst *i) {
    bool load = i->op == MI_TLOAD;
    int b = load ? i->dst : i->src0;
    cpp_line(c, "{");
    c->ind += 2;
    int n = gm_view(c, i, b);
    if (load) cpp_line(c, "TLOAD(%s, gt_%d);", c->bn[b], n);
    else if (i->atomic_add) {
        StrBuf ty = { 0 };
        cpp_tile_type(c, b, false, &ty);
        cpp_line(c, "TSTORE<%s, GT%d, AtomicType::AtomicAdd>(gt_%d, %s);", sb_cstr(&ty), n, n, c->bn[b]);
        sb_free(&ty);
    } else cpp_line(c, "TSTORE(gt_%d, %s);", n, c->bn[b]);
    c->ind -= 2;
    cpp_line(c, "}");
}

/* ---- sync ---- */
static void sync_inst(Cpp *c, const MirInst *i) {
    if (i->op == MI_BARRIER) { cpp_line(c, "pipe_barrier(PIPE_%s);", mir_pipe_name(i->pipe)); return; }
    const char *f = i->op == MI_SET_FLAG ? "set_flag" : "wait_flag";
    if (i->event_alt < 0) {
        cpp_line(c, "%s(PIPE_%s, PIPE_%s, EVENT_ID%d);", f, mir_pipe_name(i->src_pipe), mir_pipe_name(i->dst_pipe), i->event);
        return;
    }
    StrBuf step = { 0 };
    for (int l = c->nloops - 1; l >= 0 && !step.len; l--)
        if (c->loops[l].var == i->event_var) cpp_expr(c, c->loops[l].step, &step);
    if (!step.len) sb_puts(&step, "1");
    cpp_line(c, "%s(PIPE_%s, PIPE_%s, ((%s / (%s)) %% 2) ? EVENT_ID%d : EVENT_ID%d);", f, mir_pipe_name(i->src_pipe),
             mir_pipe_name(i->dst_pipe), c->vn[i->event_var], sb_cstr(&step), i->event_alt, i->event);
    sb_free(&step);
}

/* ---- control ---- */
static void block(Cpp *c, const MirBlock *b);

static void control(Cpp *c, const MirInst *i) {
    StrBuf a = { 0 }, b = { 0 }, s = { 0 };
    if (i->op == MI_FOR) {
        int64_t st = 1;
        cpp_expr(c, i->start, &a);
        cpp_expr(c, i->stop, &b);
        cpp_expr(c, i->step, &s);
        bool down = mir_is_const(i->step, &st) && st < 0;
        const char *v = c->vn[i->var];
        cpp_line(c, "for (%s = %s; %s %s %s; %s += %s) {", v, sb_cstr(&a), v, down ? ">" : "<", sb_cstr(&b), v, sb_cstr(&s));
        PTOC_ASSERT(c->nloops < 64, "loop nest too deep for the C++ emitter");
        c->loops[c->nloops++] = (CppLoop){ i->var, i->step };
        c->ind += 2;
        block(c, &i->body);
        c->ind -= 2;
        c->nloops--;
    } else {
        cpp_expr(c, i->cond, &a);
        cpp_line(c, "if (%s) {", sb_cstr(&a));
        c->ind += 2;
        block(c, &i->then_body);
        c->ind -= 2;
        if (i->else_body.len) {
            cpp_line(c, "} else {");
            c->ind += 2;
            block(c, &i->else_body);
            c->ind -= 2;
        }
    }
    cpp_line(c, "}");
    sb_free(&a);
    sb_free(&b);
    sb_free(&s);
}

static void inst(Cpp *c, const MirInst *i) {
    switch (i->op) {
    case MI_TLOAD: case MI_TSTORE: load_store(c, i); return;
    case MI_VOP: cpp_vec_inst(c, i); return;
    case MI_TGETVAL: case MI_TSETVAL: case MI_GGETVAL: case MI_GSETVAL: cpp_scalar_access(c, i); return;
    case MI_SET_FLAG: case MI_WAIT_FLAG: case MI_BARRIER: sync_inst(c, i); return;
    case MI_TPUSH: case MI_TPOP: case MI_TFREE: cpp_xcore_inst(c, i); return;
    case MI_FOR: case MI_IF: control(c, i); return;
    default:
        if (cpp_cube_inst(c, i)) return;
    }
    PTOC_UNREACHABLE("bad mir op %d", i->op);
}

static void block(Cpp *c, const MirBlock *b) {
    for (int j = 0; j < b->len; j++) inst(c, b->items[j]);
}

/* ---- the file ---- */
static const char *const PRELUDE =
    "#include <pto/pto-inst.hpp>\n"
    "#include <cmath>\n"
    "#include <cstdint>\n"
    "#include <cstring>\n"
    "\n"
    "using namespace pto;\n"
    "\n"
    "#ifndef PTOC_KERNEL_PRELUDE\n"
    "#define PTOC_KERNEL_PRELUDE\n"
    "/* Python scalar semantics of ptoc's scalar expressions (mir.h). */\n"
    "static inline int64_t ptoc_floordiv(int64_t a, int64_t b) { int64_t q = a / b; return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q; }\n"
    "static inline int64_t ptoc_floormod(int64_t a, int64_t b) { int64_t m = a % b; return (m != 0 && ((m < 0) != (b < 0))) ? m + b : m; }\n"
    "static inline double ptoc_ffloordiv(double a, double b) { return std::floor(a / b); }\n"
    "static inline double ptoc_ffloormod(double a, double b) { double m = std::fmod(a, b); return (m != 0 && ((m < 0) != (b < 0))) ? m + b : m; }\n"
    "static inline int64_t ptoc_min(int64_t a, int64_t b) { return a < b ? a : b; }\n"
    "static inline int64_t ptoc_max(int64_t a, int64_t b) { return a > b ? a : b; }\n"
    "static inline double ptoc_fmin(double a, double b) { return a < b ? a : b; }\n"
    "static inline double ptoc_fmax(double a, double b) { return a > b ? a : b; }\n"
    "static inline int64_t ptoc_abs(int64_t a) { return a < 0 ? -a : a; }\n"
    "static inline int64_t ptoc_trunc_i64(double a) { return a != a ? 0 : a >= 9.2233720368547758e18 ? INT64_MAX : a <= -9.2233720368547758e18 ? INT64_MIN : (int64_t)a; }\n"
    "static inline double ptoc_round_f32(double a) { return (double)(float)a; }\n"
    "static inline double ptoc_round_f16(double a) { return (double)(_Float16)a; }\n"
    "static inline double ptoc_round_bf16(double a) {   /* nearest even at 8 significant bits, via round-to-odd float */\n"
    "    float f = (float)a; uint32_t u; std::memcpy(&u, &f, 4);\n"
    "    if ((double)f != a && !(u & 1)) u |= 1;\n"
    "    if ((u & 0x7f800000u) != 0x7f800000u) u = (u + 0x7fffu + ((u >> 16) & 1u)) & 0xffff0000u;\n"
    "    std::memcpy(&f, &u, 4); return (double)f;\n"
    "}\n"
    "static inline double ptoc_f64(int64_t bits) { double d; std::memcpy(&d, &bits, 8); return d; }\n"
    "#ifdef __CPU_SIM\n"
    "/* The runtime's kernel ABI (spec/runtime.md §11) as the host harness provides it: args[i] of a\n"
    " * tensor points to its descriptor (buffer.addr at byte 0, start_offset in elements at byte 24),\n"
    " * scalars follow the tensors, args[48] / args[49] point to the local / global context. */\n"
    "struct PtocTensorDesc { uint64_t addr, size, owner, start_offset; };\n"
    "struct PtocLocalCtx { int64_t block_idx, block_num; };\n"
    "struct PtocGlobalCtx { int64_t sub_block_id; };\n"
    "static inline int64_t get_block_idx(int64_t* args) { return ((PtocLocalCtx*)args[48])->block_idx; }\n"
    "static inline int64_t get_block_num(int64_t* args) { return ((PtocLocalCtx*)args[48])->block_num; }\n"
    "static inline int64_t get_sub_block_id(int64_t* args) { return ((PtocGlobalCtx*)args[49])->sub_block_id; }\n"
    "/* a2a3's cross-core GM ring (targets.md: the __gm_pipe_buffer workspace): the harness's per cluster */\n"
    "extern \"C\" void* ptoc_cpu_gm_pipe_buffer(int dir);\n"
    "#define PTOC_GM_PIPE_BUFFER(dir) ptoc_cpu_gm_pipe_buffer(dir)\n"
    "template <typename T> static inline __gm__ T* ptoc_tensor(int64_t* args, int i) {\n"
    "    const PtocTensorDesc* d = (const PtocTensorDesc*)args[i];\n"
    "    return (__gm__ T*)(uintptr_t)(d->addr + d->start_offset * sizeof(T));\n"
    "}\n"
    "#endif\n"
    "#endif\n\n";

static bool spmd_var(const Kernel *k, int v, const char **which) {
    static const char *names[] = { "block_idx", "block_num", "subblock_idx" };
    static const char *calls[] = { "get_block_idx(args)", "get_block_num(args)", "get_sub_block_id(args)" };
    for (int j = 0; j < k->nparams; j++)
        if (!k->params[j].is_tensor && k->params[j].var == v + 1) return false;
    for (int w = 0; w < 3; w++)
        if (!strcmp(k->vars[v], names[w])) { *which = calls[w]; return true; }
    return false;
}

static void signature(Cpp *c, StrBuf *o) {
    const Kernel *k = c->k;
    sb_printf(o, "static AICORE void %s_impl(", c->k->name);
    int n = 0;
    for (int j = 0; j < k->nparams; j++, n++) {
        const MirParam *p = &k->params[j];
        if (n) sb_puts(o, ", ");
        if (p->is_tensor) sb_printf(o, "__gm__ %s* %s", cpp_ctype(p->dtype), c->pn[j]);
        else sb_printf(o, "int64_t %s", c->pn[j]);
    }
    for (int v = 0; v < k->nvars; v++) {
        const char *w;
        if (spmd_var(k, v, &w)) sb_printf(o, "%sint64_t %s_in", n++ ? ", " : "", c->vn[v]);
    }
    sb_putc(o, ')');
}

/* pto-isa's Tile static_asserts (pto_tile.hpp): a boxed layout holds whole fractals (inner box 16 x 32 B,
 * 16 x 16 for the 1024-byte Acc fractal; Vec tiles and single rows are exempt from the row rule), a
 * none-box layout has 32-byte rows (row-major) or columns (col-major). A buffer ptoc planned outside
 * these cannot be declared: reported (a planning defect, not an emitter limit) instead of emitted. */
static bool tile_ok(const MirBuf *x, char *why, size_t n) {
    int64_t eb = dtype_bytes(x->dtype);
    if (eb <= 0) return true;
    if (x->slayout != ML_NONE_BOX) {
        bool c1024 = x->fractal == 1024, inner_row = x->slayout == ML_ROW_MAJOR;
        int64_t ir = c1024 || inner_row ? 16 : 32 / eb, ic = c1024 || !inner_row ? 16 : 32 / eb;
        if ((x->space == MS_VEC || x->rows == 1 || x->rows % ir == 0) && x->cols % ic == 0) return true;
        snprintf(why, n, "a %lld x %lld tile is not a whole number of %lld x %lld fractals", (long long)x->rows,
                 (long long)x->cols, (long long)ir, (long long)ic);
        return false;
    }
    int64_t bytes = (x->blayout == ML_COL_MAJOR ? x->rows : x->cols) * eb;
    if (bytes % 32 == 0) return true;
    snprintf(why, n, "a %s tile's %s are %lld bytes, not a multiple of 32", x->blayout == ML_COL_MAJOR ? "column-major" : "row-major",
             x->blayout == ML_COL_MAJOR ? "columns" : "rows", (long long)bytes);
    return false;
}

/* locals: every scalar variable, then the tiles at their planned addresses */
static void decls(Cpp *c) {
    const Kernel *k = c->k;
    for (int v = 0; v < k->nvars; v++) {
        const char *w;
        bool fp = k->var_fp && k->var_fp[v];
        int bound = 0;
        for (int j = 0; j < k->nparams; j++)
            if (!k->params[j].is_tensor && k->params[j].var == v + 1) bound = j + 1;
        if (spmd_var(k, v, &w)) cpp_line(c, "int64_t %s = %s_in;", c->vn[v], c->vn[v]);
        else if (bound) {
            const MirParam *p = &k->params[bound - 1];
            if (p->dtype == DT_FP32) cpp_line(c, "double %s; { float f; std::memcpy(&f, &%s, 4); %s = f; }", c->vn[v], c->pn[bound - 1], c->vn[v]);
            else if (dtype_is_float(p->dtype))
                cpp_line(c, "double %s = ptoc_round_%s(ptoc_f64(%s));", c->vn[v], p->dtype == DT_FP16 ? "f16" : "bf16", c->pn[bound - 1]);
            else cpp_line(c, "int64_t %s = %s;", c->vn[v], c->pn[bound - 1]);
        } else cpp_line(c, "%s %s = 0;", fp ? "double" : "int64_t", c->vn[v]);
        cpp_line(c, "(void)%s;", c->vn[v]);
    }
    for (int j = 0; j < k->nbufs; j++) {
        const MirBuf *x = &k->bufs[j];
        if (!tile_kind(x->space) || !cpp_ctype(x->dtype)) {
            cpp_unsupported(c, NULL, "buffer %s in space %s of dtype %s", x->name, memspace_name(x->space), dtype_name(x->dtype));
            continue;
        }
        char why[160];
        if (!tile_ok(x, why, sizeof why)) {
            c->defect = true;
            cpp_unsupported(c, NULL, "buffer %s (%s %s, capacity %lld x %lld, valid %lld x %lld): %s, which pto-isa's Tile rejects",
                            x->name, memspace_name(x->space), dtype_name(x->dtype), (long long)x->rows, (long long)x->cols,
                            (long long)x->valid_rows, (long long)x->valid_cols, why);
            continue;
        }
        StrBuf ty = { 0 };
        cpp_tile_type(c, j, false, &ty);
        cpp_line(c, "%s %s;", sb_cstr(&ty), c->bn[j]);
        cpp_line(c, "TASSIGN(%s, 0x%llxu);", c->bn[j], (unsigned long long)x->addr);
        sb_free(&ty);
    }
    cpp_xcore_decls(c);
}

static void entry(Cpp *c, StrBuf *o) {
    const Kernel *k = c->k;
    int nt = 0, ns = 0;
    for (int j = 0; j < k->nparams; j++) nt += k->params[j].is_tensor;
    sb_puts(o, "extern \"C\" AICORE void kernel_entry(__gm__ int64_t* args) {\n");
    sb_printf(o, "    %s_impl(", k->name);
    int n = 0;
    for (int j = 0; j < k->nparams; j++, n++) {
        const MirParam *p = &k->params[j];
        if (n) sb_puts(o, ", ");
        if (p->is_tensor) sb_printf(o, "ptoc_tensor<%s>(args, %d)", cpp_ctype(p->dtype), n - ns);
        else sb_printf(o, "args[%d]", nt + ns++);
    }
    for (int v = 0; v < k->nvars; v++) {
        const char *w;
        if (spmd_var(k, v, &w)) sb_printf(o, "%s%s", n++ ? ", " : "", w);
    }
    sb_puts(o, ");\n}\n");
}

bool back_print_cpp(const Kernel *k, const Target *t, StrBuf *out, StrBuf *why) {
    Cpp c;
    memset(&c, 0, sizeof c);
    c.k = k;
    c.t = t;
    make_names(&c);
    StrBuf body = { 0 };
    c.o = &body;
    c.ind = 4;
    decls(&c);
    block(&c, &k->body);

    sb_printf(out, "// %s — %s kernel, PTO-ISA C++ generated by ptoc from the same MIR as ptoas/%s.pto (target %s).\n",
              k->name, k->core == CORE_AIC ? "AIC (cube)" : "AIV (vector)", k->name, t->name);
    sb_puts(out, PRELUDE);
    signature(&c, out);
    sb_puts(out, " {\n");
    sb_puts(out, sb_cstr(&body));
    sb_puts(out, "}\n\n");
    entry(&c, out);
    sb_free(&body);
    if (why && c.why.len) sb_printf(why, "%s%s", c.defect ? "ptoc defect: " : "", sb_cstr(&c.why));
    bool ok = c.why.len == 0;
    sb_free(&c.why);
    free_names(&c);
    return ok;
}
