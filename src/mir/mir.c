/* mir: building kernels, scalar expression evaluation, memory effects and a debug listing. */
#include "mir/mir.h"

#include <math.h>
#include <string.h>

static const char *pipe_names[PIPE_COUNT] = { "S", "V", "M", "MTE1", "MTE2", "MTE3", "ALL", "MTE4", "MTE5", "V2", "FIX" };
const char *mir_pipe_name(Pipe p) { return p >= 0 && p < PIPE_COUNT ? pipe_names[p] : "NONE"; }

static const struct { const char *pto; MirVecKind kind; MirVecFn fn; } vops[VOP_COUNT] = {
#define X(id, pto, kind, fn) { pto, kind, fn },
    MIR_VOPS(X)
#undef X
};
const char *mir_vop_pto(MirVecOp v) { return v >= 0 && v < VOP_COUNT ? vops[v].pto : "?"; }
MirVecKind mir_vop_kind(MirVecOp v) { PTOC_ASSERT(v >= 0 && v < VOP_COUNT, "bad vector op %d", (int)v); return vops[v].kind; }
MirVecFn mir_vop_fn(MirVecOp v) { PTOC_ASSERT(v >= 0 && v < VOP_COUNT, "bad vector op %d", (int)v); return vops[v].fn; }

Kernel *mir_kernel_new(Arena *a, const char *name, CoreKind core) {
    Kernel *k = ARENA_NEW(a, Kernel);
    k->arena = a;
    k->name = arena_strdup(a, name);
    k->core = core;
    return k;
}

static void mark_written(const Kernel *k, const MirBlock *b, bool *w) {
    for (int j = 0; j < b->len; j++) {
        const MirInst *i = b->items[j];
        if ((i->op == MI_TSTORE || i->op == MI_GSETVAL) && i->param >= 0 && i->param < k->nparams) w[i->param] = true;
        mark_written(k, &i->body, w);
        mark_written(k, &i->then_body, w);
        mark_written(k, &i->else_body, w);
    }
}

void mir_param_writes(const Kernel *k, bool *w) { mark_written(k, &k->body, w); }

void mir_mark_param_written(Kernel *k) {
    bool *w = ARENA_ARRAY(k->arena, bool, k->nparams + 1);
    mir_param_writes(k, w);
    k->param_written = w;
}

int mir_add_buf(Kernel *k, MirBuf b) {
    if (k->nbufs == k->capbufs) {
        int cap = k->capbufs ? k->capbufs * 2 : 8;
        MirBuf *nb = ARENA_ARRAY(k->arena, MirBuf, cap);
        if (k->nbufs) memcpy(nb, k->bufs, sizeof(MirBuf) * (size_t)k->nbufs);
        k->bufs = nb;
        k->capbufs = cap;
    }
    b.id = k->nbufs;
    k->bufs[k->nbufs] = b;
    return k->nbufs++;
}

int mir_add_var(Kernel *k, const char *name) {
    if (k->nvars == k->capvars) {
        int cap = k->capvars ? k->capvars * 2 : 8;
        const char **nv = ARENA_ARRAY(k->arena, const char *, cap);
        if (k->nvars) memcpy(nv, k->vars, sizeof(char *) * (size_t)k->nvars);
        k->vars = nv;
        if (k->var_fp) {
            bool *nf = ARENA_ARRAY(k->arena, bool, cap);
            memcpy(nf, k->var_fp, sizeof(bool) * (size_t)k->nvars);
            k->var_fp = nf;
        }
        k->capvars = cap;
    }
    k->vars[k->nvars] = arena_strdup(k->arena, name);
    return k->nvars++;
}

MirInst *mir_inst_new(Kernel *k, MirOp op, Pipe pipe) {
    MirInst *i = ARENA_NEW(k->arena, MirInst);
    i->op = op;
    i->pipe = pipe;
    i->dst = i->src0 = i->src1 = i->src2 = i->param = -1;
    i->event_alt = -1;
    i->event_var = -1;
    i->var = -1;
    i->src_pipe = i->dst_pipe = PIPE_NONE;
    return i;
}

void mir_block_insert(Kernel *k, MirBlock *b, int at, MirInst *i) {
    PTOC_ASSERT(at >= 0 && at <= b->len, "bad insert position %d", at);
    if (b->len == b->cap) {
        int cap = b->cap ? b->cap * 2 : 8;
        MirInst **ni = ARENA_ARRAY(k->arena, MirInst *, cap);
        if (b->len) memcpy(ni, b->items, sizeof(MirInst *) * (size_t)b->len);
        b->items = ni;
        b->cap = cap;
    }
    memmove(b->items + at + 1, b->items + at, sizeof(MirInst *) * (size_t)(b->len - at));
    b->items[at] = i;
    b->len++;
}

void mir_block_push(Kernel *k, MirBlock *b, MirInst *i) { mir_block_insert(k, b, b->len, i); }

void mir_block_remove(MirBlock *b, int at) {
    PTOC_ASSERT(at >= 0 && at < b->len, "bad remove position %d", at);
    memmove(b->items + at, b->items + at + 1, sizeof(MirInst *) * (size_t)(b->len - at - 1));
    b->len--;
}

MirExpr *mir_const(Kernel *k, int64_t v) {
    MirExpr *e = ARENA_NEW(k->arena, MirExpr);
    e->kind = MX_CONST;
    e->value = v;
    return e;
}

MirExpr *mir_var(Kernel *k, int var) {
    MirExpr *e = ARENA_NEW(k->arena, MirExpr);
    e->kind = MX_VAR;
    e->var = var;
    e->fp = k->var_fp && k->var_fp[var];
    return e;
}

MirExpr *mir_bin(Kernel *k, MirBinOp op, MirExpr *a, MirExpr *b) {
    MirExpr *e = ARENA_NEW(k->arena, MirExpr);
    e->kind = MX_BIN;
    e->op = op;
    e->a = a;
    e->b = b;
    /* comparisons and and/or give an integer; min / max give one of their operands (Python), a float
     * for sure only when both are (the lowering casts a min / max the IR types as float) */
    e->fp = op == MB_DIV || (op < MB_MIN && (a->fp || b->fp)) || ((op == MB_MIN || op == MB_MAX) && a->fp && b->fp);
    return e;
}

MirExpr *mir_not(Kernel *k, MirExpr *a) {
    MirExpr *e = ARENA_NEW(k->arena, MirExpr);
    e->kind = MX_NOT;
    e->a = a;
    return e;
}


MirExpr *mir_fconst(Kernel *k, double v) {
    MirExpr *e = ARENA_NEW(k->arena, MirExpr);
    e->kind = MX_CONST;
    e->fp = true;
    e->fvalue = v;
    return e;
}

MirExpr *mir_unary(Kernel *k, MirExprKind kind, MirExpr *a) {
    PTOC_ASSERT(kind == MX_NOT || kind == MX_NEG || kind == MX_ABS, "not a unary MirExpr kind %d", kind);
    MirExpr *e = ARENA_NEW(k->arena, MirExpr);
    e->kind = kind;
    e->a = a;
    e->fp = kind != MX_NOT && a->fp;
    return e;
}

MirExpr *mir_cast(Kernel *k, MirExpr *a, DType to) {
    MirExpr *e = ARENA_NEW(k->arena, MirExpr);
    e->kind = MX_CAST;
    e->a = a;
    e->cast_to = to;
    e->fp = to == DT_NONE || dtype_is_float(to);
    return e;
}

void mir_set_var_fp(Kernel *k, int var) {
    PTOC_ASSERT(var >= 0 && var < k->nvars, "bad variable %d", var);
    if (!k->var_fp) k->var_fp = ARENA_ARRAY(k->arena, bool, k->capvars);   /* capvars entries, as vars */
    k->var_fp[var] = true;
}

/* ---- evaluation: the scalar semantics of ir/scalar.c (Python's) on int64 and double ---- */
static MirNum num_int(int64_t v) { return (MirNum){ false, v, 0 }; }
static MirNum num_float(double v) { return (MirNum){ true, 0, v }; }
static double as_double(MirNum v) { return v.fp ? v.f : (double)v.i; }
static bool truthy(MirNum v) { return v.fp ? v.f != 0 : v.i != 0; }

/* Python's float floor division and modulo (float_divmod). */
static void float_divmod(double a, double b, double *div_out, double *mod_out) {
    double mod = fmod(a, b), div = (a - mod) / b;
    if (mod != 0) {
        if ((b < 0) != (mod < 0)) { mod += b; div -= 1.0; }
    } else mod = copysign(0.0, b);
    double fl;
    if (div != 0) {
        fl = floor(div);
        if (div - fl > 0.5) fl += 1.0;
    } else fl = copysign(0.0, a / b);
    *div_out = fl;
    *mod_out = mod;
}

static bool compare(MirBinOp op, MirNum a, MirNum b) {
    if (!a.fp && !b.fp) {
        switch (op) {
        case MB_EQ: return a.i == b.i; case MB_NE: return a.i != b.i; case MB_LT: return a.i < b.i;
        case MB_LE: return a.i <= b.i; case MB_GT: return a.i > b.i; default: return a.i >= b.i;
        }
    }
    double x = as_double(a), y = as_double(b);
    switch (op) {
    case MB_EQ: return x == y; case MB_NE: return x != y; case MB_LT: return x < y;
    case MB_LE: return x <= y; case MB_GT: return x > y; default: return x >= y;
    }
}

static bool eval_float_bin(MirBinOp op, double a, double b, MirNum *out) {
    double d, m;
    switch (op) {
    case MB_ADD: *out = num_float(a + b); return true;
    case MB_SUB: *out = num_float(a - b); return true;
    case MB_MUL: *out = num_float(a * b); return true;
    case MB_DIV: if (b == 0) return false; *out = num_float(a / b); return true;
    case MB_FLOORDIV: case MB_FLOORMOD:
        if (b == 0) return false;
        float_divmod(a, b, &d, &m);
        *out = num_float(op == MB_FLOORDIV ? d : m);
        return true;
    default: PTOC_UNREACHABLE("bad float mir binop %d", op);
    }
}

static bool eval_bin(MirBinOp op, MirNum a, MirNum b, MirNum *out) {
    int64_t r;
    switch (op) {
    case MB_EQ: case MB_NE: case MB_LT: case MB_LE: case MB_GT: case MB_GE: *out = num_int(compare(op, a, b)); return true;
    case MB_AND: *out = num_int(truthy(a) && truthy(b)); return true;
    case MB_OR: *out = num_int(truthy(a) || truthy(b)); return true;
    case MB_MIN: *out = compare(MB_LT, b, a) ? b : a; return true;      /* Python: the first operand on ties */
    case MB_MAX: *out = compare(MB_GT, b, a) ? b : a; return true;
    default: break;
    }
    if (a.fp || b.fp || op == MB_DIV) return eval_float_bin(op, as_double(a), as_double(b), out);
    switch (op) {
    case MB_ADD: if (!checked_add(a.i, b.i, &r)) return false; break;
    case MB_SUB: if (!checked_sub(a.i, b.i, &r)) return false; break;
    case MB_MUL: if (!checked_mul(a.i, b.i, &r)) return false; break;
    case MB_FLOORDIV: if (b.i == 0 || (a.i == INT64_MIN && b.i == -1)) return false; r = floordiv_i64(a.i, b.i); break;
    case MB_FLOORMOD: if (b.i == 0) return false; r = b.i == -1 ? 0 : floormod_i64(a.i, b.i); break;
    default: PTOC_UNREACHABLE("bad mir binop %d", op);
    }
    *out = num_int(r);
    return true;
}

/* A scalar cast (ir/scalar.c cast_to): floats round to nearest even at the width, integers wrap. */
static bool eval_cast(DType to, MirNum v, MirNum *out) {
    if (to == DT_NONE) { *out = num_float(as_double(v)); return true; }
    if (to == DT_BOOL) { *out = num_int(truthy(v)); return true; }
    if (dtype_is_float(to)) { *out = num_float(dtype_round_float(to, as_double(v))); return true; }
    int64_t i = v.i;
    if (v.fp) {
        double t = trunc(v.f);
        if (!(t >= -9223372036854775808.0 && t < 9223372036854775808.0)) return false;   /* NaN too */
        i = (int64_t)t;
    }
    int bits = dtype_bits(to);
    if (bits < 64) {
        uint64_t mask = (UINT64_C(1) << bits) - 1, u = (uint64_t)i & mask;
        i = dtype_is_signed(to) && (u >> (bits - 1)) ? (int64_t)(u | ~mask) : (int64_t)u;
    }
    *out = num_int(i);
    return true;
}

/* Kernel scalars hold run-time values (scalar parameters from the orchestration, element reads): an
 * overflow or a division by zero is the program's error, reported by the caller, never undefined
 * behaviour. A float variable holds the bits of its double. */
bool mir_eval_num(const MirExpr *e, const int64_t *vars, MirNum *out) {
    MirNum a, b;
    switch (e->kind) {
    case MX_CONST: *out = e->fp ? num_float(e->fvalue) : num_int(e->value); return true;
    case MX_VAR:
        if (e->fp) { double f; memcpy(&f, &vars[e->var], sizeof f); *out = num_float(f); }
        else *out = num_int(vars[e->var]);
        return true;
    case MX_NOT: if (!mir_eval_num(e->a, vars, &a)) return false; *out = num_int(!truthy(a)); return true;
    case MX_NEG: case MX_ABS:
        if (!mir_eval_num(e->a, vars, &a)) return false;
        if (a.fp) { *out = num_float(e->kind == MX_NEG ? -a.f : fabs(a.f)); return true; }
        if (a.i == INT64_MIN) return false;
        *out = num_int(e->kind == MX_NEG || a.i < 0 ? -a.i : a.i);
        return true;
    case MX_CAST: return mir_eval_num(e->a, vars, &a) && eval_cast(e->cast_to, a, out);
    case MX_BIN: break;
    }
    if (!mir_eval_num(e->a, vars, &a) || !mir_eval_num(e->b, vars, &b)) return false;
    return eval_bin(e->op, a, b, out);
}

bool mir_eval_checked(const MirExpr *e, const int64_t *vars, int64_t *out) {
    MirNum v;
    if (!mir_eval_num(e, vars, &v)) return false;
    if (!v.fp) { *out = v.i; return true; }
    double t = trunc(v.f);
    if (!(t >= -9223372036854775808.0 && t < 9223372036854775808.0)) return false;
    *out = (int64_t)t;
    return true;
}

int64_t mir_eval(const MirExpr *e, const int64_t *vars) {
    int64_t v;
    PTOC_ASSERT(mir_eval_checked(e, vars, &v), "overflow or division by zero in a kernel scalar expression");
    return v;
}

bool mir_is_const(const MirExpr *e, int64_t *out) {
    if (e->kind != MX_CONST) return false;
    if (out) *out = e->value;
    return true;
}

bool mir_is_sync(const MirInst *i) { return i->op == MI_SET_FLAG || i->op == MI_WAIT_FLAG || i->op == MI_BARRIER; }

static const char *const op_names[] = { "tload", "tstore", "textract", "tmov", "tmatmul", "tmatmul.acc", "tmatmul.bias",
                                        "tinsert", "vop", "tgetval", "tsetval", "ggetval", "gsetval", "tpush", "tpop", "tfree", "set_flag",
                                        "wait_flag", "pipe_barrier", "for", "if" };
_Static_assert(sizeof op_names / sizeof op_names[0] == MI_IF + 1, "one name per MirOp");

const char *mir_op_name(MirOp op) { return op >= 0 && op <= MI_IF ? op_names[op] : "?"; }

bool mir_is_scalar_access(const MirInst *i) {
    return i->op == MI_TGETVAL || i->op == MI_TSETVAL || i->op == MI_GGETVAL || i->op == MI_GSETVAL;
}

int mir_gm_noff(const Kernel *k, const MirInst *i) {
    if ((i->op == MI_GGETVAL || i->op == MI_GSETVAL) && i->param >= 0 && i->param < k->nparams) return k->params[i->param].rank;
    bool gm = (i->op == MI_TLOAD || i->op == MI_TSTORE) && i->param >= 0 && i->param < k->nparams;
    return gm && k->params[i->param].layout == MIR_LAYOUT_NZ ? 5 : 2;
}

void mir_param_matrix(const MirParam *p, int64_t *rows, int64_t *cols) {
    if (p->layout == MIR_LAYOUT_NZ && p->rank == 5) {
        *rows = p->shape[2] * p->shape[3];
        *cols = p->shape[1] * p->shape[4];
        return;
    }
    *rows = 1;
    *cols = p->rank >= 1 ? p->shape[p->rank - 1] : 1;
    for (int d = 0; d + 1 < p->rank; d++) *rows *= p->shape[d];
}

/* ---- memory effects ---- */
/* A ring buffer's slot is only known at run time: statically it covers every slot. */
static MirAccess buf_access(const Kernel *k, int id) {
    const MirBuf *b = &k->bufs[id];
    return (MirAccess){ b->space, -1, b->addr, b->addr + b->bytes * (b->ring_slots > 1 ? b->ring_slots : 1) };
}

static MirAccess gm_access(const Kernel *k, int param) {
    const MirParam *p = &k->params[param];
    int64_t n = 1;
    for (int d = 0; d < p->rank; d++) n *= p->shape[d];
    return (MirAccess){ MS_DDR, param, 0, n * dtype_bytes(p->dtype) };
}

bool mir_inst_access(const Kernel *k, const MirInst *i, MirAccess *reads, int *nreads,
                     MirAccess *writes, int *nwrites) {
    int nr = 0, nw = 0;
    switch (i->op) {
    case MI_TLOAD: reads[nr++] = gm_access(k, i->param); writes[nw++] = buf_access(k, i->dst); break;
    case MI_TSTORE:
        reads[nr++] = buf_access(k, i->src0);
        writes[nw++] = gm_access(k, i->param);
        if (i->atomic_add) reads[nr++] = gm_access(k, i->param);
        break;
    case MI_TEXTRACT: case MI_TMOV:
        reads[nr++] = buf_access(k, i->src0); writes[nw++] = buf_access(k, i->dst); break;
    case MI_TINSERT:
        reads[nr++] = buf_access(k, i->src0); writes[nw++] = buf_access(k, i->dst); break;
    case MI_TMATMUL:
        reads[nr++] = buf_access(k, i->src0); reads[nr++] = buf_access(k, i->src1);
        writes[nw++] = buf_access(k, i->dst); break;
    case MI_TMATMUL_ACC: case MI_TMATMUL_BIAS:
        reads[nr++] = buf_access(k, i->src0); reads[nr++] = buf_access(k, i->src1);
        if (i->src2 >= 0) reads[nr++] = buf_access(k, i->src2);
        writes[nw++] = buf_access(k, i->dst); break;
    case MI_VOP:                       /* a tmp operand (src1 of a reduction) is scratch: written */
        if (i->src0 >= 0) reads[nr++] = buf_access(k, i->src0);
        if (i->src1 >= 0) {
            MirVecKind vk = mir_vop_kind(i->vop);
            if (vk == MVK_ROW_REDUCE || vk == MVK_COL_REDUCE || vk == MVK_ROW_ARG || vk == MVK_COL_ARG)
                writes[nw++] = buf_access(k, i->src1);
            else reads[nr++] = buf_access(k, i->src1);
        }
        if (i->src2 >= 0) reads[nr++] = buf_access(k, i->src2);
        writes[nw++] = buf_access(k, i->dst); break;
    case MI_TGETVAL: reads[nr++] = buf_access(k, i->src0); break;
    case MI_TSETVAL: writes[nw++] = buf_access(k, i->dst); break;
    case MI_GGETVAL: reads[nr++] = gm_access(k, i->param); break;
    case MI_GSETVAL: writes[nw++] = gm_access(k, i->param); break;
    /* a pop fills its slot; a free hands the slot to the producer, who overwrites it: a write too */
    case MI_TPUSH: if (i->src0 >= 0) reads[nr++] = buf_access(k, i->src0); break;
    case MI_TPOP: case MI_TFREE: if (i->dst >= 0) writes[nw++] = buf_access(k, i->dst); break;
    default:
        *nreads = *nwrites = 0;
        return false;
    }
    *nreads = nr;
    *nwrites = nw;
    return true;
}

bool mir_access_overlap(const MirAccess *a, const MirAccess *b) {
    if (a->space != b->space) return false;
    if (a->space == MS_DDR && a->param != b->param) return false;
    return a->lo < b->hi && b->lo < a->hi;
}

Pipe mir_pipe_for(const Kernel *k, MirOp op, int dst, int src0) {
    MemSpace ds = dst >= 0 ? k->bufs[dst].space : MS_DDR;
    MemSpace ss = src0 >= 0 ? k->bufs[src0].space : MS_DDR;
    switch (op) {
    case MI_TLOAD: return PIPE_MTE2;
    case MI_TSTORE: return ss == MS_ACC ? PIPE_FIX : PIPE_MTE3;
    case MI_TEXTRACT: case MI_TMOV:
        if (ss == MS_MAT && (ds == MS_LEFT || ds == MS_RIGHT || ds == MS_BIAS)) return PIPE_MTE1;
        if (ss == MS_ACC || (ss == MS_VEC && ds == MS_MAT)) return PIPE_FIX;
        return PIPE_V;
    case MI_TINSERT: return PIPE_FIX;
    case MI_TMATMUL: case MI_TMATMUL_ACC: case MI_TMATMUL_BIAS: return PIPE_M;
    case MI_VOP: return PIPE_V;
    case MI_TGETVAL: case MI_TSETVAL: case MI_GGETVAL: case MI_GSETVAL: return PIPE_S;
    case MI_TPUSH: return ss == MS_ACC ? PIPE_FIX : PIPE_MTE3;
    case MI_TPOP: return PIPE_MTE2;
    case MI_TFREE: return PIPE_S;
    default: return PIPE_NONE;
    }
}

/* ---- text ---- */
static const char *binop_tok[] = { "+", "-", "*", "//", "%", "min", "max", "==", "!=", "<", "<=", ">", ">=", "&&", "||", "/" };

void mir_print_expr(const Kernel *k, const MirExpr *e, StrBuf *out) {
    switch (e->kind) {
    case MX_CONST:
        if (e->fp) sb_printf(out, "%.17g", e->fvalue);
        else sb_printf(out, "%lld", (long long)e->value);
        return;
    case MX_VAR: sb_puts(out, k->vars[e->var]); return;
    case MX_NOT: sb_puts(out, "!("); mir_print_expr(k, e->a, out); sb_putc(out, ')'); return;
    case MX_NEG: sb_puts(out, "-("); mir_print_expr(k, e->a, out); sb_putc(out, ')'); return;
    case MX_ABS: sb_puts(out, "abs("); mir_print_expr(k, e->a, out); sb_putc(out, ')'); return;
    case MX_CAST:
        sb_printf(out, "(%s)(", e->cast_to == DT_NONE ? "double" : dtype_name(e->cast_to));
        mir_print_expr(k, e->a, out);
        sb_putc(out, ')');
        return;
    case MX_BIN: break;
    }
    if (e->op == MB_MIN || e->op == MB_MAX) {
        sb_printf(out, "%s(", binop_tok[e->op]);
        mir_print_expr(k, e->a, out); sb_puts(out, ", "); mir_print_expr(k, e->b, out);
        sb_putc(out, ')');
        return;
    }
    bool pa = e->a->kind == MX_BIN, pb = e->b->kind == MX_BIN;
    if (pa) sb_putc(out, '(');
    mir_print_expr(k, e->a, out);
    if (pa) sb_putc(out, ')');
    sb_printf(out, " %s ", binop_tok[e->op]);
    if (pb) sb_putc(out, '(');
    mir_print_expr(k, e->b, out);
    if (pb) sb_putc(out, ')');
}


static void dump_block(const Kernel *k, const MirBlock *b, StrBuf *out, int ind);

static void dump_inst(const Kernel *k, const MirInst *i, StrBuf *out, int ind) {
    sb_indent(out, ind);
    switch (i->op) {
    case MI_FOR:
        sb_printf(out, "for %s = ", k->vars[i->var]);
        mir_print_expr(k, i->start, out); sb_puts(out, " to "); mir_print_expr(k, i->stop, out);
        sb_puts(out, " step "); mir_print_expr(k, i->step, out); sb_puts(out, " {\n");
        dump_block(k, &i->body, out, ind + 2);
        sb_indent(out, ind); sb_puts(out, "}\n");
        return;
    case MI_IF:
        sb_puts(out, "if "); mir_print_expr(k, i->cond, out); sb_puts(out, " {\n");
        dump_block(k, &i->then_body, out, ind + 2);
        sb_indent(out, ind); sb_puts(out, "} else {\n");
        dump_block(k, &i->else_body, out, ind + 2);
        sb_indent(out, ind); sb_puts(out, "}\n");
        return;
    case MI_SET_FLAG: case MI_WAIT_FLAG:
        sb_printf(out, "%s(%s, %s, %d", op_names[i->op], mir_pipe_name(i->src_pipe), mir_pipe_name(i->dst_pipe), i->event);
        if (i->event_alt >= 0) sb_printf(out, "|%d", i->event_alt);
        sb_printf(out, ")%s\n", i->compensation ? "  // compensation" : "");
        return;
    case MI_BARRIER: sb_printf(out, "pipe_barrier(%s)\n", mir_pipe_name(i->pipe)); return;
    default: break;
    }
    sb_printf(out, "%-12s [%s]", i->op == MI_VOP ? mir_vop_pto(i->vop) : mir_op_name(i->op), mir_pipe_name(i->pipe));
    if (i->dst >= 0) sb_printf(out, " dst=%s", k->bufs[i->dst].name);
    if (i->src0 >= 0) sb_printf(out, " src0=%s", k->bufs[i->src0].name);
    if (i->src1 >= 0) sb_printf(out, " src1=%s", k->bufs[i->src1].name);
    if (i->src2 >= 0) sb_printf(out, " src2=%s", k->bufs[i->src2].name);
    if (i->param >= 0) sb_printf(out, " gm=%s", k->params[i->param].name);
    if (i->off[0]) {
        sb_puts(out, " at=(");
        for (int d = 0, n = mir_gm_noff(k, i); d < n && i->off[d]; d++) {
            if (d) sb_puts(out, ", ");
            mir_print_expr(k, i->off[d], out);
        }
        sb_putc(out, ')');
    }
    if (i->atomic_add) sb_puts(out, " atomic_add");
    if (i->op == MI_TGETVAL || i->op == MI_GGETVAL) sb_printf(out, " -> %s", k->vars[i->var]);
    if ((i->op == MI_TSETVAL || i->op == MI_GSETVAL) && i->scalar) { sb_puts(out, " value="); mir_print_expr(k, i->scalar, out); }
    if (i->op == MI_VOP) {
        MirVecKind vk = mir_vop_kind(i->vop);
        if (vk == MVK_SCALAR || vk == MVK_FILL || vk == MVK_CMPS || vk == MVK_SELS) {
            sb_puts(out, " s=");
            if (i->scalar) mir_print_expr(k, i->scalar, out);
            else sb_printf(out, "%.17g", i->imm);
        }
        if (vk == MVK_CAST || vk == MVK_FILLPAD || vk == MVK_CMP || vk == MVK_CMPS) sb_printf(out, " mode=%d", i->mode);
    }
    sb_putc(out, '\n');
}

static void dump_block(const Kernel *k, const MirBlock *b, StrBuf *out, int ind) {
    for (int j = 0; j < b->len; j++) dump_inst(k, b->items[j], out, ind);
}

void mir_dump(const Kernel *k, StrBuf *out) {
    sb_printf(out, "kernel %s (%s)\n", k->name, k->core == CORE_AIC ? "aic" : "aiv");
    for (int j = 0; j < k->nparams; j++) {
        const MirParam *p = &k->params[j];
        sb_printf(out, "  param %s %s [", p->name, dtype_name(p->dtype));
        for (int d = 0; d < p->rank; d++) sb_printf(out, d ? ", %lld" : "%lld", (long long)p->shape[d]);
        sb_puts(out, p->layout == MIR_LAYOUT_NZ ? "] nz\n" : "]\n");
    }
    for (int j = 0; j < k->nbufs; j++) {
        const MirBuf *b = &k->bufs[j];
        sb_printf(out, "  buf %s %s @%lld +%lld %s %lldx%lld\n", b->name, memspace_name(b->space), (long long)b->addr,
                  (long long)b->bytes, dtype_name(b->dtype), (long long)b->rows, (long long)b->cols);
    }
    dump_block(k, &k->body, out, 2);
}
