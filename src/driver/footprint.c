/* footprint — which GM elements a kernel block may touch, found without running it: the runtime's
 * parallel simulation (rt_parallel.c) starts a task early, or runs an SPMD task's blocks at once,
 * only when these ranges show that nothing else can touch the same bytes meanwhile.
 * Requires: a compiled kernel (mir) and the task's scalar arguments (call->params).
 * Produces: per parameter, a conservative box of the kernel's row-major matrix of it (leading
 *   dims folded into rows, `cols` columns): rows [r0, r1) x columns [c0, c1) (r0 == r1: untouched);
 *   what cannot be bounded is the whole parameter.
 * Does: interval arithmetic over the kernel's scalar expressions: scalar parameters, block_num and
 *   the lane are exact, block_idx is the call's block (or every block when block_idx < 0), a loop
 *   variable spans its bounds, a value read from memory is unknown. A tload / tstore of an ND
 *   parameter at (row, col) touches rows [row, row + valid rows) x columns [col, col + valid cols);
 *   anything else (NZ parameters, element reads and writes, unknown offsets) the whole parameter.
 *   Both branches of an if count; the boxes of one parameter are joined into one. */
#include "driver/driver_int.h"

#include <string.h>

typedef struct { bool top; int64_t lo, hi; } Ival;    /* inclusive; top = unknown */

static const Ival TOP = { true, 0, 0 };
static Ival exact(int64_t v) { return (Ival){ false, v, v }; }

static Ival span4(int64_t a, int64_t b, int64_t c, int64_t d) {
    int64_t lo = a, hi = a;
    int64_t v[3] = { b, c, d };
    for (int i = 0; i < 3; i++) { if (v[i] < lo) lo = v[i]; if (v[i] > hi) hi = v[i]; }
    return (Ival){ false, lo, hi };
}

static int64_t floordiv(int64_t a, int64_t b) { int64_t q = a / b; return (a % b != 0 && (a < 0) != (b < 0)) ? q - 1 : q; }

static Ival bin(MirBinOp op, Ival a, Ival b) {
    if (op >= MB_EQ && op <= MB_OR) return (Ival){ false, 0, 1 };
    if (a.top || b.top) return TOP;
    int64_t x[4];
    switch (op) {
    case MB_ADD:
        if (__builtin_add_overflow(a.lo, b.lo, &x[0]) || __builtin_add_overflow(a.hi, b.hi, &x[1])) return TOP;
        return (Ival){ false, x[0], x[1] };
    case MB_SUB:
        if (__builtin_sub_overflow(a.lo, b.hi, &x[0]) || __builtin_sub_overflow(a.hi, b.lo, &x[1])) return TOP;
        return (Ival){ false, x[0], x[1] };
    case MB_MUL:
        if (__builtin_mul_overflow(a.lo, b.lo, &x[0]) || __builtin_mul_overflow(a.lo, b.hi, &x[1]) ||
            __builtin_mul_overflow(a.hi, b.lo, &x[2]) || __builtin_mul_overflow(a.hi, b.hi, &x[3])) return TOP;
        return span4(x[0], x[1], x[2], x[3]);
    case MB_FLOORDIV:
        if (b.lo <= 0) return TOP;
        return span4(floordiv(a.lo, b.lo), floordiv(a.lo, b.hi), floordiv(a.hi, b.lo), floordiv(a.hi, b.hi));
    case MB_FLOORMOD:
        if (b.lo <= 0) return TOP;
        if (b.lo == b.hi && floordiv(a.lo, b.lo) == floordiv(a.hi, b.lo))   /* one period: a shift */
            return (Ival){ false, a.lo - floordiv(a.lo, b.lo) * b.lo, a.hi - floordiv(a.lo, b.lo) * b.lo };
        return (Ival){ false, 0, b.hi - 1 };
    case MB_MIN: return (Ival){ false, a.lo < b.lo ? a.lo : b.lo, a.hi < b.hi ? a.hi : b.hi };
    case MB_MAX: return (Ival){ false, a.lo > b.lo ? a.lo : b.lo, a.hi > b.hi ? a.hi : b.hi };
    default: return TOP;
    }
}

static Ival eval(const MirExpr *e, const Ival *vars) {
    if (!e || e->fp) return TOP;
    switch (e->kind) {
    case MX_CONST: return exact(e->value);
    case MX_VAR: return vars[e->var];
    case MX_BIN: return bin(e->op, eval(e->a, vars), eval(e->b, vars));
    case MX_NOT: return (Ival){ false, 0, 1 };
    case MX_NEG: {
        Ival a = eval(e->a, vars);
        return a.top || a.lo == INT64_MIN ? TOP : (Ival){ false, -a.hi, -a.lo };
    }
    default: return TOP;                              /* abs, casts: not needed for offsets */
    }
}

typedef struct { const Kernel *k; Ival *vars; int64_t (*box)[5]; } Walk;

static void touch(Walk *w, int p, int64_t r0, int64_t r1, int64_t c0, int64_t c1) {
    if (r0 >= r1 || c0 >= c1) return;
    int64_t *b = w->box[p], rows;
    if (b[0] == b[1]) { b[0] = r0, b[1] = r1, b[2] = c0, b[3] = c1; mir_param_matrix(&w->k->params[p], &rows, &b[4]); return; }
    if (r0 < b[0]) b[0] = r0;
    if (r1 > b[1]) b[1] = r1;
    if (c0 < b[2]) b[2] = c0;
    if (c1 > b[3]) b[3] = c1;
}

static void touch_all(Walk *w, int p) {
    int64_t rows, cols;
    mir_param_matrix(&w->k->params[p], &rows, &cols);
    touch(w, p, 0, rows, 0, cols);
}

static bool packed(const MirParam *q) {
    int64_t s = 1;
    for (int d = q->rank - 1; d >= 0; d--) {
        if (q->shape[d] != 1 && q->strides[d] != s) return false;
        s *= q->shape[d];
    }
    return true;
}

/* A tload / tstore: the window's rows and columns, or the whole parameter. */
static void touch_window(Walk *w, const MirInst *i) {
    const Kernel *k = w->k;
    const MirParam *q = &k->params[i->param];
    int64_t rows, cols;
    int buf = i->op == MI_TLOAD ? i->dst : i->src0;
    Ival r = eval(i->off[0], w->vars), c = eval(i->off[1], w->vars);
    mir_param_matrix(q, &rows, &cols);
    if (q->layout == MIR_LAYOUT_NZ || !packed(q) || r.top || c.top || buf < 0 || buf >= k->nbufs) {
        touch_all(w, i->param);
        return;
    }
    int64_t r1 = r.hi + k->bufs[buf].valid_rows, c1 = c.hi + k->bufs[buf].valid_cols;
    touch(w, i->param, r.lo < 0 ? 0 : r.lo, r1 > rows ? rows : r1, c.lo < 0 ? 0 : c.lo, c1 > cols ? cols : c1);
}

static void walk(Walk *w, const MirBlock *b) {
    for (int n = 0; n < b->len; n++) {
        const MirInst *i = b->items[n];
        switch (i->op) {
        case MI_TLOAD: case MI_TSTORE:
            if (i->param >= 0 && i->param < w->k->nparams) touch_window(w, i);
            break;
        case MI_GGETVAL: case MI_GSETVAL:
            if (i->param >= 0 && i->param < w->k->nparams) touch_all(w, i->param);
            if (i->op == MI_GGETVAL && i->var >= 0) w->vars[i->var] = TOP;
            break;
        case MI_TGETVAL:
            if (i->var >= 0) w->vars[i->var] = TOP;
            break;
        case MI_FOR: {
            Ival a = eval(i->start, w->vars), z = eval(i->stop, w->vars), s = eval(i->step, w->vars);
            w->vars[i->var] = a.top || z.top || s.top || s.lo <= 0 ? TOP : (Ival){ false, a.lo, z.hi - 1 };
            walk(w, &i->body);
            break;
        }
        case MI_IF:
            walk(w, &i->then_body);
            walk(w, &i->else_body);
            break;
        default: break;
        }
    }
}

/* Joins kernel k's footprint for `call` into box (k's parameters in call order). */
static void kernel_footprint(const Kernel *k, const RtKernelCall *call, int64_t (*box)[5]) {
    Ival *vars = calloc((size_t)k->nvars + 1, sizeof(Ival));
    PTOC_ASSERT(vars, "out of memory");
    for (int v = 0; v < k->nvars; v++) {
        vars[v] = TOP;
        if (!strcmp(k->vars[v], "block_idx"))
            vars[v] = call->block_idx >= 0 ? exact(call->block_idx) : (Ival){ false, 0, call->block_num - 1 };
        if (!strcmp(k->vars[v], "block_num")) vars[v] = exact(call->block_num);
        if (!strcmp(k->vars[v], "subblock_idx")) vars[v] = exact(k->lane);
    }
    for (int p = 0; p < k->nparams && p < call->nparams; p++) {
        const MirParam *q = &k->params[p];
        if (q->is_tensor || q->var <= 0 || q->var > k->nvars || dtype_is_float(q->dtype) || !call->params[p]) continue;
        int64_t v;
        memcpy(&v, call->params[p], sizeof v);
        vars[q->var - 1] = exact(v);
    }
    Walk w = { k, vars, box };
    walk(&w, &k->body);
    free(vars);
}

bool drv_block_footprint(void *ud, const RtKernelCall *call, int64_t (*box)[5]) {
    DrvSession *s = ud;
    for (int p = 0; p < call->nparams; p++) box[p][0] = box[p][1] = box[p][2] = box[p][3] = box[p][4] = 0;
    const Function *f = call->kernel;
    DrvKernel *dk[DRV_MAX_MEMBERS];
    int n = 0;
    if (f && f->type == FT_GROUP) n = drv_group_members(s, f, dk);
    else if ((dk[0] = drv_kernel_of(s, f))) n = 1;
    for (int j = 0; j < n; j++) {
        if (dk[j]->k->nparams != call->nparams) return false;
        kernel_footprint(dk[j]->k, call, box);
    }
    return n > 0;
}
