/* mir: building kernels, scalar expression evaluation, memory effects and a debug listing. */
#include "mir/mir.h"

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
    return e;
}

MirExpr *mir_bin(Kernel *k, MirBinOp op, MirExpr *a, MirExpr *b) {
    MirExpr *e = ARENA_NEW(k->arena, MirExpr);
    e->kind = MX_BIN;
    e->op = op;
    e->a = a;
    e->b = b;
    return e;
}

MirExpr *mir_not(Kernel *k, MirExpr *a) {
    MirExpr *e = ARENA_NEW(k->arena, MirExpr);
    e->kind = MX_NOT;
    e->a = a;
    return e;
}


/* Kernel scalars hold run-time values (scalar parameters from the orchestration): an overflow or a
 * division by zero is the program's error, reported by the caller, never undefined behaviour. */
bool mir_eval_checked(const MirExpr *e, const int64_t *vars, int64_t *out) {
    int64_t a, b;
    switch (e->kind) {
    case MX_CONST: *out = e->value; return true;
    case MX_VAR: *out = vars[e->var]; return true;
    case MX_NOT: if (!mir_eval_checked(e->a, vars, &a)) return false; *out = !a; return true;
    case MX_NEG: return mir_eval_checked(e->a, vars, &a) && checked_sub(0, a, out);
    case MX_BIN: break;
    }
    if (!mir_eval_checked(e->a, vars, &a) || !mir_eval_checked(e->b, vars, &b)) return false;
    switch (e->op) {
    case MB_ADD: return checked_add(a, b, out);
    case MB_SUB: return checked_sub(a, b, out);
    case MB_MUL: return checked_mul(a, b, out);
    case MB_FLOORDIV: if (b == 0 || (a == INT64_MIN && b == -1)) return false; *out = floordiv_i64(a, b); return true;
    case MB_FLOORMOD: if (b == 0) return false; *out = b == -1 ? 0 : floormod_i64(a, b); return true;
    case MB_MIN: *out = a < b ? a : b; return true;
    case MB_MAX: *out = a > b ? a : b; return true;
    case MB_EQ: *out = a == b; return true;
    case MB_NE: *out = a != b; return true;
    case MB_LT: *out = a < b; return true;
    case MB_LE: *out = a <= b; return true;
    case MB_GT: *out = a > b; return true;
    case MB_GE: *out = a >= b; return true;
    case MB_AND: *out = a && b; return true;
    case MB_OR: *out = a || b; return true;
    }
    PTOC_UNREACHABLE("bad mir binop %d", e->op);
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

int mir_gm_noff(const Kernel *k, const MirInst *i) {
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
static MirAccess buf_access(const Kernel *k, int id) {
    const MirBuf *b = &k->bufs[id];
    return (MirAccess){ b->space, -1, b->addr, b->addr + b->bytes };
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
    default: return PIPE_NONE;
    }
}

/* ---- text ---- */
static const char *binop_tok[] = { "+", "-", "*", "/", "%", "min", "max", "==", "!=", "<", "<=", ">", ">=", "&&", "||" };

void mir_print_expr(const Kernel *k, const MirExpr *e, StrBuf *out) {
    switch (e->kind) {
    case MX_CONST: sb_printf(out, "%lld", (long long)e->value); return;
    case MX_VAR: sb_puts(out, k->vars[e->var]); return;
    case MX_NOT: sb_puts(out, "!("); mir_print_expr(k, e->a, out); sb_putc(out, ')'); return;
    case MX_NEG: sb_puts(out, "-("); mir_print_expr(k, e->a, out); sb_putc(out, ')'); return;
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

static const char *op_names[] = { "tload", "tstore", "textract", "tmov", "tmatmul", "tmatmul.acc", "tmatmul.bias",
                                  "tinsert", "vop", "set_flag", "wait_flag", "pipe_barrier", "for", "if" };

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
    sb_printf(out, "%-12s [%s]", i->op == MI_VOP ? mir_vop_pto(i->vop) : op_names[i->op], mir_pipe_name(i->pipe));
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
