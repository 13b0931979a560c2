/* BlockNzTensorViews
 * Requires: SSAForm, SplitIncoreOrch, IncoreTileOps — ConvertTensorToTileOps has turned every matmul
 *   operand into a tile.load into Mat of the operand tensor (or of the tensor a slice windows).
 * Produces: every pl.NZ parameter of an InCore function typed by its blocked rank-5 shape
 *   [1, C/c0, R/16, 16, c0] (c0 = 32 B / element size): the row-major order of that shape is the NZ
 *   byte order the caller promised (spec/isa_and_sync.md §3 "NZ in GM"). Every load of it into Mat
 *   is retargeted NZ -> NZ: its offsets become blocked coordinates [0, col // c0, row // 16, 0, 0];
 *   its shapes stay the tile's [rows, cols] (whole fractals). E.g. b: [512, 128] FP16 becomes
 *   [1, 8, 32, 16, 16] and the window b[k0:k0 + 256, :] a load at [0, 0, k0 // 16, 0, 0]; the .pto
 *   view says nz with that shape and strides (R·C, R·c0, 16·c0, c0, 1). Orchestration functions
 *   keep the logical [R, C] type: the bytes are the same, only the kernel's view of them changes.
 * Does: keeps the promise checkable. User errors, each at the parameter or load it concerns: NZ on a
 *   dtype without a 32-byte fractal row, on a shape whose rows are not a multiple of 16 or columns
 *   not a multiple of c0, on an Out/InOut parameter or a local variable (writing NZ is not
 *   supported); an NZ tensor used other than through a load into Mat (the spec's message), sliced or
 *   assembled outside pl.at, passed to a parameter of another layout; a load window that is not
 *   whole fractals. A window offset that depends on a run-time value and cannot be proven a
 *   multiple of 16 (rows) / c0 (columns) keeps its remainders as offsets 3 and 4
 *   ([0, col // c0, row // 16, row % 16, col % c0]); the interpreter and the simulator stop with a
 *   located error when they are not 0.
 *   Idempotent: an InCore parameter that is already blocked (a re-parsed dump) is left as it is. */
#include "pass/pass.h"

#include <stdlib.h>
#include <string.h>

#define NZ_ROWS 16          /* fractal rows */
#define NZ_ROW_BYTES 32     /* fractal row bytes: c0 = 32 / element size */

typedef struct {
    PassCtx *ctx;
    Function *f;
    const Stmt *loops[256]; int nloops;       /* For statements of f (loop variable -> start / step) */
    const Stmt *assigns[1024]; int nassigns;  /* scalar assignments of f */
} Nz;

static void shape_text(const Type *t, char *buf, size_t n) {
    size_t k = (size_t)snprintf(buf, n, "[");
    for (int i = 0; i < t->rank && k < n; i++) {
        int64_t v;
        if (ir_is_const_int(t->shape[i], &v)) k += (size_t)snprintf(buf + k, n - k, "%s%lld", i ? ", " : "", (long long)v);
        else k += (size_t)snprintf(buf + k, n - k, "%s?", i ? ", " : "");
    }
    if (k < n) snprintf(buf + k, n - k, "] %s", dtype_name(t->dtype));
}

static bool is_nz(const Type *t) { return t && t->kind == TY_TENSOR && t->layout == TLAYOUT_NZ; }

static int64_t c0_of(DType dt) { int eb = dtype_bytes(dt); return eb > 0 ? NZ_ROW_BYTES / eb : 0; }

/* The logical [R, C] of an NZ tensor type: rank 2 as written, or rank 5 already blocked. */
static bool logical_dims(const Type *t, int64_t rc[2]) {
    int64_t d[5];
    if (t->rank == 2) return ir_type_static_dims(t, rc);
    if (t->rank != 5 || !ir_type_static_dims(t, d) || d[0] != 1 || d[3] != NZ_ROWS || d[4] != c0_of(t->dtype)) return false;
    rc[0] = d[2] * d[3];
    rc[1] = d[1] * d[4];
    return true;
}

/* ---------------------------------------------------------------- the promise itself */
static bool check_nz_type(PassCtx *ctx, const Var *v, ParamDir dir, bool param, const char *fn) {
    const Type *t = v->type;
    char sh[160];
    shape_text(t, sh, sizeof sh);
    int eb = dtype_bytes(t->dtype);
    if (!param) {
        diag_error(ctx->diag, v->span,
                   "'%s' (%s) is annotated pl.NZ in '%s', but pl.NZ is accepted only on a parameter: it promises the "
                   "caller's bytes are already in NZ fractal order; drop pl.NZ here and annotate the parameter the "
                   "data comes from", v->name, sh, fn);
        return false;
    }
    if (eb != 1 && eb != 2 && eb != 4) {
        diag_error(ctx->diag, v->span,
                   "parameter '%s' (%s) is pl.NZ, but %s has no NZ fractal (NZ rows are 32 bytes: 1-, 2- and 4-byte "
                   "dtypes only); drop pl.NZ", v->name, sh, dtype_name(t->dtype));
        return false;
    }
    int64_t c0 = NZ_ROW_BYTES / eb, rc[2];
    if (!logical_dims(t, rc)) {
        diag_error(ctx->diag, v->span,
                   "parameter '%s' (%s) is pl.NZ: an NZ tensor must be a static 2-D matrix [R, C] (or its blocked "
                   "form [1, C/%lld, R/16, 16, %lld]); drop pl.NZ or reshape it", v->name, sh, (long long)c0, (long long)c0);
        return false;
    }
    if (rc[0] % NZ_ROWS || rc[1] % c0) {
        int64_t R = (rc[0] + NZ_ROWS - 1) / NZ_ROWS * NZ_ROWS, C = (rc[1] + c0 - 1) / c0 * c0;
        diag_error(ctx->diag, v->span,
                   "parameter '%s' (%s, %lld bytes) is pl.NZ, but NZ stores whole fractals of 16 rows x c0 = %lld "
                   "columns (32 bytes of %s): its %s %lld is not a multiple of %lld; pad it to [%lld, %lld] or drop "
                   "pl.NZ", v->name, sh, (long long)(rc[0] * rc[1] * eb), (long long)c0, dtype_name(t->dtype),
                   rc[0] % NZ_ROWS ? "row count" : "column count", (long long)(rc[0] % NZ_ROWS ? rc[0] : rc[1]),
                   (long long)(rc[0] % NZ_ROWS ? NZ_ROWS : c0), (long long)R, (long long)C);
        return false;
    }
    if (dir != PD_IN) {
        diag_error(ctx->diag, v->span,
                   "parameter '%s' (%s) is pl.NZ and %s in '%s': writing to an NZ tensor is not supported by ptoc "
                   "yet (pl.NZ promises input weights already in fractal order); make it a row-major pl.Out and "
                   "reorder on the host", v->name, sh, dir == PD_OUT ? "pl.Out" : "pl.InOut", fn);
        return false;
    }
    return true;
}

static bool check_locals(PassCtx *ctx, const Function *f, const StmtList *l);
static bool check_local_stmt(PassCtx *ctx, const Function *f, const Stmt *s) {
    if (s->kind == ST_ASSIGN && is_nz(s->assign.var->type) &&
        !(s->assign.value->kind == EX_VAR && is_nz(s->assign.value->type)))
        return check_nz_type(ctx, s->assign.var, PD_IN, false, f->name);
    switch (s->kind) {
    case ST_FOR: return check_locals(ctx, f, &s->for_.body);
    case ST_WHILE: return check_locals(ctx, f, &s->while_.body);
    case ST_IF: return check_locals(ctx, f, &s->if_.then_body) && check_locals(ctx, f, &s->if_.else_body);
    case ST_SCOPE: return check_locals(ctx, f, &s->scope.body);
    default: return true;
    }
}
static bool check_locals(PassCtx *ctx, const Function *f, const StmtList *l) {
    for (int i = 0; i < l->len; i++)
        if (!check_local_stmt(ctx, f, l->items[i])) return false;
    return true;
}

/* ---------------------------------------------------------------- uses */
/* Every use of an NZ tensor in f must be a function-call argument whose parameter has the same layout
 * (Orchestration) or the tensor of a tile.load (InCore; checked when the load is retargeted). */
typedef struct { PassCtx *ctx; const Function *f; bool ok; } UseCheck;

static const char *op_or_fn(const Expr *call) {
    return call->call.op == OP_NONE ? (call->call.callee ? call->call.callee->name : "?") : ir_op_info(call->call.op)->name;
}

static void check_call_use(Expr *e, void *ud) {
    UseCheck *u = ud;
    if (!u->ok || e->kind != EX_CALL) return;
    for (int i = 0; i < e->call.nargs && u->ok; i++) {
        Expr *a = e->call.args[i];
        const Function *k = e->call.op == OP_NONE ? e->call.callee : NULL;
        const Type *pt = k && i < k->params.len ? k->params.items[i]->type : NULL;
        if (!is_nz(a->type) && !is_nz(pt)) continue;
        const char *name = a->kind == EX_VAR ? a->var->name : "?";
        char sh[160];
        shape_text(a->type, sh, sizeof sh);
        if (e->call.op == OP_NONE) {
            int64_t ar[2], pr[2];
            if (pt && is_nz(pt) && is_nz(a->type) && logical_dims(a->type, ar) && logical_dims(pt, pr) &&
                ar[0] == pr[0] && ar[1] == pr[1] && pt->dtype == a->type->dtype)
                continue;
            char ps[160] = "?";
            if (pt) shape_text(pt, ps, sizeof ps);
            diag_error(u->ctx->diag, a->span,
                       "argument '%s' (%s%s) is passed to parameter %d of '%s', which is %s%s: the kernel would read "
                       "the bytes in another order; give both the same shape and layout", name, sh,
                       is_nz(a->type) ? " pl.NZ" : ", row-major", i, op_or_fn(e), ps,
                       is_nz(pt) ? " pl.NZ" : ", row-major");
            u->ok = false;
            return;
        }
        bool incore = ir_functype_is_incore(u->f->type);
        if (incore && (e->call.op == OP_TILE_LOAD || e->call.op == OP_TENSOR_SLICE) && i == 0) continue;   /* see block_incore */
        if (e->call.op == OP_TENSOR_SLICE || e->call.op == OP_TENSOR_ASSEMBLE) {
            diag_error(u->ctx->diag, e->span,
                       "%s of NZ tensor '%s' (%s) outside pl.at: the runtime addresses tensors row-major, so a window "
                       "of NZ bytes %s; %s", e->call.op == OP_TENSOR_SLICE ? "slice" : "assemble", name, sh,
                       e->call.op == OP_TENSOR_SLICE ? "is not the logical window" : "cannot be written",
                       e->call.op == OP_TENSOR_SLICE ? "pass the whole tensor to the pl.at region and slice it there"
                                                     : "writing to an NZ tensor is not supported by ptoc yet");
            u->ok = false;
            return;
        }
        diag_error(u->ctx->diag, e->span,
                   "'%s' (%s) is pl.NZ: NZ layout currently supports only matmul operand loads "
                   "(target_memory=pl.Mem.Mat), got %s.", name, sh, op_or_fn(e));
        u->ok = false;
        return;
    }
}

/* ---------------------------------------------------------------- alignment of window offsets */
static int64_t gcd64(int64_t a, int64_t b) {
    a = a < 0 ? (a == INT64_MIN ? 1 : -a) : a;
    b = b < 0 ? (b == INT64_MIN ? 1 : -b) : b;
    while (b) { int64_t t = a % b; a = b; b = t; }
    return a;
}

static void collect_defs(Nz *z, const StmtList *l) {
    for (int i = 0; i < l->len; i++) {
        const Stmt *s = l->items[i];
        if (s->kind == ST_ASSIGN && s->assign.var->type && s->assign.var->type->kind == TY_SCALAR &&
            z->nassigns < (int)(sizeof z->assigns / sizeof z->assigns[0]))
            z->assigns[z->nassigns++] = s;
        if (s->kind == ST_FOR) {
            if (z->nloops < (int)(sizeof z->loops / sizeof z->loops[0])) z->loops[z->nloops++] = s;
            collect_defs(z, &s->for_.body);
        }
        if (s->kind == ST_WHILE) collect_defs(z, &s->while_.body);
        if (s->kind == ST_IF) { collect_defs(z, &s->if_.then_body); collect_defs(z, &s->if_.else_body); }
        if (s->kind == ST_SCOPE) collect_defs(z, &s->scope.body);
    }
}

/* A g such that e is a multiple of g on every execution (0: e is always 0; 1: nothing known). */
static int64_t known_multiple(const Nz *z, const Expr *e, int depth) {
    int64_t v;
    if (depth > 32) return 1;
    if (ir_is_const_int(e, &v)) return v == INT64_MIN ? 1 : v < 0 ? -v : v;
    if (e->kind == EX_VAR) {
        for (int i = 0; i < z->nloops; i++)
            if (z->loops[i]->for_.loop_var == e->var)
                return gcd64(known_multiple(z, z->loops[i]->for_.start, depth + 1),
                             known_multiple(z, z->loops[i]->for_.step, depth + 1));
        for (int i = 0; i < z->nassigns; i++)
            if (z->assigns[i]->assign.var == e->var) return known_multiple(z, z->assigns[i]->assign.value, depth + 1);
        return 1;
    }
    if (e->kind != EX_BINARY) return 1;
    int64_t a = known_multiple(z, e->bin.lhs, depth + 1), b = known_multiple(z, e->bin.rhs, depth + 1), p;
    switch (e->bin.op) {
    case BIN_ADD: case BIN_SUB: return gcd64(a, b);
    case BIN_MUL:
        if (!a || !b) return 0;
        return __builtin_mul_overflow(a, b, &p) ? (a > b ? a : b) : p;
    default: return 1;
    }
}

/* ---------------------------------------------------------------- retargeting the loads */
static Expr *idx(PassCtx *ctx, int64_t v) { return ir_const_int(ctx->ir, v, DT_INDEX); }

/* One window offset (rows: unit 16, columns: unit c0) -> its block index and remainder exprs. */
static bool split_offset(Nz *z, Expr *off, int64_t unit, const char *what, const Var *t, const Expr *load,
                         Expr **block, Expr **rem) {
    PassCtx *ctx = z->ctx;
    int64_t v, m = known_multiple(z, off, 0);
    if (ir_is_const_int(off, &v) && v % unit) {
        char sh[160];
        shape_text(t->type, sh, sizeof sh);
        diag_error(ctx->diag, load->span,
                   "this window of NZ tensor '%s' (%s) starts at %s %lld, not a multiple of %lld: an NZ tensor is "
                   "loaded in whole fractals of 16 rows x %lld columns; align the slice to the fractal grid or drop "
                   "pl.NZ", t->name, sh, what, (long long)v, (long long)unit, (long long)c0_of(t->type->dtype));
        return false;
    }
    if (m % unit == 0) {
        *block = ir_fold(ctx->ir, ir_binary(ctx->ir, BIN_FLOORDIV, off, idx(ctx, unit)));
        *rem = idx(ctx, 0);
    } else {   /* run-time value: the interpreter and the simulator check the remainder */
        *block = ir_binary(ctx->ir, BIN_FLOORDIV, off, idx(ctx, unit));
        *rem = ir_binary(ctx->ir, BIN_FLOORMOD, off, idx(ctx, unit));
    }
    return true;
}

static bool retarget_load(Nz *z, Expr *load, const Var *t, const Type *logical) {
    PassCtx *ctx = z->ctx;
    char sh[160];
    shape_text(logical, sh, sizeof sh);
    const AttrVal *tm = ir_attr_get(&load->call.kwargs, "target_memory");
    if (!tm || tm->kind != AV_MEM || tm->mem != MS_MAT) {
        diag_error(ctx->diag, load->span,
                   "'%s' (%s) is pl.NZ: NZ layout currently supports only matmul operand loads "
                   "(target_memory=pl.Mem.Mat), got %s.", t->name, sh,
                   tm && tm->kind == AV_MEM ? memspace_name(tm->mem) : "no target_memory");
        return false;
    }
    Expr *offs = load->call.args[1];
    int64_t shape[8], valid[8], rc[2], c0 = c0_of(t->type->dtype);
    Expr *vs = load->call.args[3];
    bool stat = offs->kind == EX_TUPLE && offs->tuple.n == 2 && load->type && load->type->rank == 2 &&
                ir_type_static_dims(load->type, shape) && vs->kind == EX_TUPLE && vs->tuple.n == 2 &&
                ir_is_const_int(vs->tuple.items[0], &valid[0]) && ir_is_const_int(vs->tuple.items[1], &valid[1]);
    if (!stat || !logical_dims(logical, rc)) {
        diag_error(ctx->diag, load->span,
                   "a load of NZ tensor '%s' (%s) must take a static 2-D window (offsets [row, col], shapes [rows, "
                   "cols])", t->name, sh);
        return false;
    }
    for (int d = 0; d < 2; d++) {
        int64_t unit = d ? c0 : NZ_ROWS;
        if (shape[d] % unit || valid[d] % unit) {
            diag_error(ctx->diag, load->span,
                       "this window of NZ tensor '%s' (%s) is %lld x %lld (valid %lld x %lld): an NZ tensor is loaded "
                       "in whole fractals of 16 rows x %lld columns; make the window's %s a multiple of %lld or drop "
                       "pl.NZ", t->name, sh, (long long)shape[0], (long long)shape[1], (long long)valid[0],
                       (long long)valid[1], (long long)c0, d ? "columns" : "rows", (long long)unit);
            return false;
        }
        int64_t o;
        if (ir_is_const_int(offs->tuple.items[d], &o) && (o < 0 || o + valid[d] > rc[d])) {
            diag_error(ctx->diag, load->span,
                       "this window of NZ tensor '%s' (%s) leaves the tensor: %s %lld + %lld > %lld (an NZ load "
                       "cannot zero-fill outside the tensor)", t->name, sh, d ? "column" : "row", (long long)o,
                       (long long)valid[d], (long long)rc[d]);
            return false;
        }
    }
    Expr *rb, *rr, *cb, *cr;
    if (!split_offset(z, offs->tuple.items[0], NZ_ROWS, "row", t, load, &rb, &rr) ||
        !split_offset(z, offs->tuple.items[1], c0, "column", t, load, &cb, &cr))
        return false;
    Expr *items[5] = { idx(ctx, 0), cb, rb, rr, cr };
    load->call.args[1] = ir_tuple(ctx->ir, items, 5);
    return true;
}

/* Retargets the loads of NZ parameter p in l. A bridge load carries the span of the slice variable it
 * replaced, which may be empty: the statement's span (the matmul) locates it then. */
static bool retarget_list(Nz *z, StmtList *l, Var *p, const Type *logical) {
    for (int i = 0; i < l->len; i++) {
        Stmt *s = l->items[i];
        bool ok = true;
        switch (s->kind) {
        case ST_FOR: ok = retarget_list(z, &s->for_.body, p, logical); break;
        case ST_WHILE: ok = retarget_list(z, &s->while_.body, p, logical); break;
        case ST_IF: ok = retarget_list(z, &s->if_.then_body, p, logical) && retarget_list(z, &s->if_.else_body, p, logical); break;
        case ST_SCOPE: ok = retarget_list(z, &s->scope.body, p, logical); break;
        default: break;
        }
        if (!ok) return false;
        Expr *c = pass_stmt_call(s);
        if (!c || !pass_is_op(c, OP_TILE_LOAD) || c->call.args[0]->kind != EX_VAR || c->call.args[0]->var != p) continue;
        if (c->call.args[1]->kind == EX_TUPLE && c->call.args[1]->tuple.n == 5) continue;   /* already blocked */
        if (!c->span.file) c->span = s->span;
        if (!retarget_load(z, c, p, logical)) return false;
    }
    return true;
}

/* [R, C] -> [1, C/c0, R/16, 16, c0], same dtype, layout NZ. */
static Type *blocked_type(PassCtx *ctx, const Type *t) {
    int64_t rc[2], c0 = c0_of(t->dtype);
    ir_type_static_dims(t, rc);
    int64_t dims[5] = { 1, rc[1] / c0, rc[0] / NZ_ROWS, NZ_ROWS, c0 };
    Type *b = ir_tensor_type(ctx->ir, t->dtype, 5, dims);
    b->layout = TLAYOUT_NZ;
    return b;
}

/* Slices of an NZ parameter left in an InCore body were consumed by ConvertTensorToTileOps' bridge
 * loads (which read the window from the parameter itself); a dead one is removed, since it would
 * slice the blocked tensor with logical coordinates. A live one is a use this pass cannot keep. */
static bool drop_nz_slices(PassCtx *ctx, Function *f, StmtList *l, const Var *p) {
    for (int i = 0; i < l->len; i++) {
        Stmt *s = l->items[i];
        bool ok = true;
        switch (s->kind) {
        case ST_FOR: ok = drop_nz_slices(ctx, f, &s->for_.body, p); break;
        case ST_WHILE: ok = drop_nz_slices(ctx, f, &s->while_.body, p); break;
        case ST_IF: ok = drop_nz_slices(ctx, f, &s->if_.then_body, p) && drop_nz_slices(ctx, f, &s->if_.else_body, p); break;
        case ST_SCOPE: ok = drop_nz_slices(ctx, f, &s->scope.body, p); break;
        default: break;
        }
        if (!ok) return false;
        Expr *c = pass_stmt_call(s);
        if (!c || !pass_is_op(c, OP_TENSOR_SLICE) || c->call.args[0]->kind != EX_VAR || c->call.args[0]->var != p) continue;
        if (s->kind == ST_ASSIGN && ir_stmts_use_var(&f->body, s->assign.var)) {
            char sh[160];
            shape_text(p->type, sh, sizeof sh);
            diag_error(ctx->diag, c->span,
                       "'%s' (%s) is pl.NZ: NZ layout currently supports only matmul operand loads "
                       "(target_memory=pl.Mem.Mat), got a tensor.slice used as a tensor.", p->name, sh);
            return false;
        }
        memmove(l->items + i, l->items + i + 1, sizeof(Stmt *) * (size_t)(l->len - i - 1));
        l->len--;
        i--;
    }
    return true;
}

static bool block_incore(PassCtx *ctx, Function *f) {
    Nz z = { .ctx = ctx, .f = f };
    collect_defs(&z, &f->body);
    for (int i = 0; i < f->params.len; i++) {
        Var *p = f->params.items[i];
        if (!is_nz(p->type)) continue;
        const Type *logical = p->type;
        if (!drop_nz_slices(ctx, f, &f->body, p)) return false;
        if (!retarget_list(&z, &f->body, p, logical)) return false;
        if (p->type->rank == 2) pass_var_set_type(p, blocked_type(ctx, p->type));
    }
    return true;
}

bool pass_block_nz_tensor_views(Program *p, PassCtx *ctx) {
    for (int i = 0; i < p->nfuncs; i++) {
        Function *f = p->funcs[i];
        for (int j = 0; j < f->params.len; j++)
            if (is_nz(f->params.items[j]->type) &&
                !check_nz_type(ctx, f->params.items[j], f->param_dirs[j], true, f->name))
                return false;
        if (!check_locals(ctx, f, &f->body)) return false;
        UseCheck u = { ctx, f, true };
        ir_visit_exprs(&f->body, check_call_use, &u);
        if (!u.ok) return false;
    }
    for (int i = 0; i < p->nfuncs; i++)
        if (ir_functype_is_incore(p->funcs[i]->type) && !block_incore(ctx, p->funcs[i])) return false;
    return true;
}
