/* torch_expr — the expression half of the torch-expression evaluator (header torch_eval.h):
 * evaluates a main-block MbExpr (numbers, names, torch constructors, torch functions, tensor methods,
 * arithmetic, slicing) and the checks allclose / assert_close / equal.
 *
 * Requires: torch_eval.c (array operations, the generator), front/main_block.h.
 * Produces: TVal values; TCheck verdicts.
 * Does: the constructors round to their dtype (decision 3); randn is normal(0, 1), rand uniform
 *       [0, 1), randint uniform integers, empty / zeros zero (decision 2). Everything outside the
 *       subset of spec/language.md §5.3 fails with ev->why naming the construct. */
#include "driver/torch_eval.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

void tval_free(TVal *v) {
    if (v->kind == TV_TENSOR) tarr_unref(v->t);
    *v = (TVal){ 0 };
}

static bool fail(TEval *ev, Span sp, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static bool fail(TEval *ev, Span sp, const char *fmt, ...) {
    if (ev->why[0]) return false;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(ev->why, sizeof ev->why, fmt, ap);
    va_end(ap);
    ev->where = sp;
    return false;
}

static bool put_tensor(TEval *ev, Span sp, TArr *t, char *err, TVal *out) {
    if (!t) return fail(ev, sp, "%s", err[0] ? err : "tensor too large");
    *out = (TVal){ .kind = TV_TENSOR, .t = t };
    return true;
}

static const MbExpr *arg(const MbExpr *call, int pos, const char *kw) {
    int p = 0;
    for (int i = 0; i < call->n; i++) {
        if (call->kw && call->kw[i]) {
            if (kw && !strcmp(call->kw[i], kw)) return call->items[i];
        } else if (p++ == pos) return call->items[i];
    }
    return NULL;
}

static int npositional(const MbExpr *call) {
    int p = 0;
    for (int i = 0; i < call->n; i++) p += !(call->kw && call->kw[i]);
    return p;
}

static bool eval_num(TEval *ev, const MbExpr *e, double *v, bool need_int) {
    TVal x;
    if (!teval(ev, e, &x)) return false;
    bool ok = x.kind == TV_NUM && (!need_int || x.is_int);
    if (ok) *v = x.num;
    tval_free(&x);
    return ok || fail(ev, e->span, "expected %s constant here", need_int ? "an integer" : "a number");
}

static bool eval_int(TEval *ev, const MbExpr *e, int64_t *v) {
    double d = 0;
    if (!eval_num(ev, e, &d, true)) return false;
    *v = (int64_t)d;
    return true;
}

static bool eval_tensor(TEval *ev, const MbExpr *e, TArr **t) {
    TVal x;
    if (!teval(ev, e, &x)) return false;
    if (x.kind == TV_TENSOR) { *t = x.t; return true; }
    tval_free(&x);
    return fail(ev, e->span, "expected a tensor here");
}

/* dtype= keyword (or default). */
static bool eval_dtype(TEval *ev, const MbExpr *e, DType *dt) {
    if (!e) return true;
    TVal x;
    if (!teval(ev, e, &x)) return false;
    if (x.kind == TV_DTYPE) { *dt = x.dtype; return true; }
    tval_free(&x);
    return fail(ev, e->span, "expected a torch dtype (torch.float32, torch.float16, ...)");
}

static DType torch_dtype(const char *n) {
    static const struct { const char *name; DType dt; } m[] = {
        { "float32", DT_FP32 }, { "float", DT_FP32 }, { "float16", DT_FP16 }, { "half", DT_FP16 },
        { "bfloat16", DT_BF16 }, { "int8", DT_INT8 }, { "int16", DT_INT16 }, { "int32", DT_INT32 },
        { "int", DT_INT32 }, { "int64", DT_INT64 }, { "long", DT_INT64 }, { "uint8", DT_UINT8 }, { "bool", DT_BOOL },
    };
    for (size_t i = 0; i < sizeof m / sizeof m[0]; i++)
        if (!strcmp(m[i].name, n)) return m[i].dt;
    return DT_NONE;
}

/* A shape: the positional args from `from` (ints), or one tuple / list there. */
static bool eval_shape(TEval *ev, const MbExpr *call, int from, int upto, int *rank, int64_t *dims) {
    const MbExpr *f = arg(call, from, "size");
    if (!f) return fail(ev, call->span, "a size is needed");
    const MbExpr *tmp[TARR_MAX_RANK] = { f };
    const MbExpr *const *xs = tmp;
    int n = 1;
    if (f->kind == MBX_TUPLE || f->kind == MBX_LIST) xs = (const MbExpr *const *)f->items, n = f->n;
    else if (upto < 0) {
        n = npositional(call) - from;
        if (n > TARR_MAX_RANK) return fail(ev, call->span, "more than %d dims", TARR_MAX_RANK);
        for (int i = 0; i < n; i++) tmp[i] = arg(call, from + i, NULL);
        xs = tmp;
    }
    if (n > TARR_MAX_RANK) return fail(ev, f->span, "more than %d dims", TARR_MAX_RANK);
    for (int i = 0; i < n; i++) {
        if (!eval_int(ev, xs[i], &dims[i])) return false;
        if (dims[i] < 0) return fail(ev, xs[i]->span, "negative size %lld", (long long)dims[i]);
    }
    *rank = n;
    return true;
}

static bool fill_round(TEval *ev, Span sp, TArr *t, TVal *out) {
    TArr *r = tarr_cast(t, t->dtype);
    tarr_unref(t);
    char e[8] = "";
    return put_tensor(ev, sp, r, e, out);
}

/* torch.tensor(data): nested lists of numbers. */
typedef VEC(double) DblVec;

static bool tensor_data(TEval *ev, const MbExpr *e, int level, int *rank, int64_t *dims, DblVec *vals, bool *fl) {
    if (e->kind != MBX_LIST && e->kind != MBX_TUPLE) {
        if (level != *rank && *rank >= 0) return fail(ev, e->span, "torch.tensor: ragged nested lists");
        *rank = level;
        double v;
        TVal x;
        if (!teval(ev, e, &x)) return false;
        if (x.kind != TV_NUM) { tval_free(&x); return fail(ev, e->span, "torch.tensor: a number is expected"); }
        v = x.num, *fl |= !x.is_int;
        vec_push(vals, v);
        return true;
    }
    if (level >= TARR_MAX_RANK) return fail(ev, e->span, "torch.tensor: nesting too deep");
    if (dims[level] >= 0 && dims[level] != e->n) return fail(ev, e->span, "torch.tensor: ragged nested lists");
    dims[level] = e->n;
    for (int i = 0; i < e->n; i++)
        if (!tensor_data(ev, e->items[i], level + 1, rank, dims, vals, fl)) return false;
    return true;
}

static bool constructor(TEval *ev, const MbExpr *call, const char *fn, TVal *out) {
    DType dt = DT_NONE;
    if (!eval_dtype(ev, arg(call, -1, "dtype"), &dt)) return false;
    int rank = 0;
    int64_t dims[TARR_MAX_RANK];
    size_t L = strlen(fn);
    bool like = L > 5 && !strcmp(fn + L - 5, "_like");
    if (like) {
        TArr *x;
        if (!eval_tensor(ev, arg(call, 0, "input"), &x)) return false;
        rank = x->rank, memcpy(dims, x->dims, sizeof dims);
        if (dt == DT_NONE) dt = x->dtype;
        tarr_unref(x);
    }
    char base[32];
    snprintf(base, sizeof base, "%.*s", (int)(like ? L - 5 : L), fn);
    double fillv = 0, lo = 0, hi = 0;
    int sz = like ? -2 : 0;                 /* position of the size argument */
    if (!strcmp(base, "full")) {
        if (!eval_num(ev, arg(call, like ? 1 : 1, "fill_value"), &fillv, false)) return false;
    } else if (!strcmp(base, "randint")) {
        int np = npositional(call) - (like ? 1 : 0);
        int o = like ? 1 : 0;
        if (np == 3 || (!like && np == 2 && arg(call, 1, NULL)->kind != MBX_TUPLE && arg(call, 1, NULL)->kind != MBX_LIST) ) {
            if (!eval_num(ev, arg(call, o, "low"), &lo, true) || !eval_num(ev, arg(call, o + 1, "high"), &hi, true)) return false;
            if (!like) sz = 2;
        } else {
            if (!eval_num(ev, arg(call, o, "high"), &hi, true)) return false;
            if (!like) sz = 1;
        }
        if (dt == DT_NONE) dt = DT_INT64;
    } else if (strcmp(base, "randn") && strcmp(base, "rand") && strcmp(base, "zeros") && strcmp(base, "ones") &&
               strcmp(base, "empty")) {
        return fail(ev, call->span, "'torch.%s' is not in the supported subset", fn);
    }
    bool varargs = strcmp(base, "full") && strcmp(base, "randint");    /* torch.zeros(2, 3) */
    if (!like && !eval_shape(ev, call, sz, varargs ? -1 : 0, &rank, dims)) return false;
    if (!like && sz == 0 && !strcmp(base, "full")) {
        /* torch.full(size, value): the size is the first argument, a tuple */
        const MbExpr *f = arg(call, 0, "size");
        if (f && f->kind != MBX_TUPLE && f->kind != MBX_LIST) return fail(ev, f->span, "torch.full needs a size tuple");
    }
    if (dt == DT_NONE) dt = DT_FP32;
    TArr *t = tarr_new(dt, rank, dims);
    if (!t) return fail(ev, call->span, "tensor too large");
    for (int64_t i = 0; i < t->n; i++) {
        double v = 0;
        if (!strcmp(base, "randn")) v = teval_normal(ev->rng);
        else if (!strcmp(base, "rand")) v = teval_uniform(ev->rng);
        else if (!strcmp(base, "ones")) v = 1;
        else if (!strcmp(base, "full")) v = fillv;
        else if (!strcmp(base, "randint")) v = lo + (double)(teval_next(ev->rng) % (uint64_t)(hi > lo ? hi - lo : 1));
        t->d[i] = v;
    }
    return fill_round(ev, call->span, t, out);
}

static bool arange(TEval *ev, const MbExpr *call, TVal *out) {
    int np = npositional(call);
    double a[3] = { 0, 0, 1 };
    bool all_int = true;
    for (int i = 0; i < np && i < 3; i++) {
        TVal x;
        if (!teval(ev, arg(call, i, NULL), &x)) return false;
        if (x.kind != TV_NUM) { tval_free(&x); return fail(ev, call->span, "torch.arange takes numbers"); }
        a[i] = x.num, all_int &= x.is_int;
    }
    if (np == 1) a[1] = a[0], a[0] = 0;
    if (np < 1 || np > 3 || a[2] == 0) return fail(ev, call->span, "torch.arange(end) / (start, end[, step]) expected");
    DType dt = all_int ? DT_INT64 : DT_FP32;
    if (!eval_dtype(ev, arg(call, -1, "dtype"), &dt)) return false;
    int64_t n = (int64_t)ceil((a[1] - a[0]) / a[2]);
    if (n < 0) n = 0;
    TArr *t = tarr_new(dt, 1, &n);
    if (!t) return fail(ev, call->span, "tensor too large");
    for (int64_t i = 0; i < n; i++) t->d[i] = a[0] + (double)i * a[2];
    return fill_round(ev, call->span, t, out);
}

static bool tensor_ctor(TEval *ev, const MbExpr *call, TVal *out) {
    const MbExpr *d = arg(call, 0, "data");
    if (!d) return fail(ev, call->span, "torch.tensor needs data");
    int rank = -1;
    int64_t dims[TARR_MAX_RANK];
    for (int i = 0; i < TARR_MAX_RANK; i++) dims[i] = -1;
    DblVec vals = { 0 };
    bool fl = false;
    bool ok = tensor_data(ev, d, 0, &rank, dims, &vals, &fl);
    DType dt = fl ? DT_FP32 : DT_INT64;
    ok = ok && eval_dtype(ev, arg(call, -1, "dtype"), &dt);
    TArr *t = ok ? tarr_new(dt, rank, dims) : NULL;
    if (ok && (!t || t->n != vals.len)) ok = fail(ev, d->span, "torch.tensor: ragged nested lists");
    if (ok) memcpy(t->d, vals.data, sizeof(double) * (size_t)vals.len);
    vec_free(&vals);
    if (!ok) { tarr_unref(t); return false; }
    return fill_round(ev, call->span, t, out);
}

/* ---- functions and methods on tensors ---- */

/* dim= / keepdim= of a reduction; has_dim false reduces everything. */
static bool red_args(TEval *ev, const MbExpr *call, int first, bool *has_dim, int *dim, bool *keep) {
    const MbExpr *d = arg(call, first, "dim"), *k = arg(call, first + 1, "keepdim");
    int64_t v = 0, kv = 0;
    *has_dim = d != NULL;
    if (d && !eval_int(ev, d, &v)) return false;
    if (k && !eval_int(ev, k, &kv)) return false;
    *dim = (int)v, *keep = kv != 0;
    return true;
}

static const struct { const char *name; TUnOp op; } unary_fns[] = {
    { "exp", TU_EXP }, { "sqrt", TU_SQRT }, { "rsqrt", TU_RSQRT }, { "relu", TU_RELU },
    { "sigmoid", TU_SIGMOID }, { "abs", TU_ABS }, { "neg", TU_NEG },
};

static const struct { const char *name; TRedOp op; } reduce_fns[] = {
    { "sum", TR_SUM }, { "mean", TR_MEAN }, { "amax", TR_MAX }, { "amin", TR_MIN }, { "max", TR_MAX }, { "min", TR_MIN },
};

/* Matrix and view operations of tensor_op: 1 done, 0 failed, -1 not one of them. */
static int view_op(TEval *ev, const MbExpr *call, const char *name, TArr *x, int first, TVal *out) {
    char err[160] = "";
    Span sp = call->span;
    if (!strcmp(name, "transpose") || !strcmp(name, "swapaxes")) {
        int64_t a, b;
        if (!eval_int(ev, arg(call, first, "dim0"), &a) || !eval_int(ev, arg(call, first + 1, "dim1"), &b)) return false;
        return put_tensor(ev, sp, tarr_transpose(x, (int)a, (int)b, err, sizeof err), err, out);
    }
    if (!strcmp(name, "t")) {
        if (x->rank > 2) return fail(ev, sp, ".t() of a rank-%d tensor", x->rank);
        return put_tensor(ev, sp, x->rank < 2 ? tarr_cast(x, x->dtype) : tarr_transpose(x, 0, 1, err, sizeof err), err, out);
    }
    if (!strcmp(name, "matmul") || !strcmp(name, "mm") || !strcmp(name, "bmm")) {
        TArr *b;
        if (!eval_tensor(ev, arg(call, first, "other"), &b)) return false;
        bool ok = put_tensor(ev, sp, tarr_matmul(x, b, err, sizeof err), err, out);
        tarr_unref(b);
        return ok;
    }
    if (!strcmp(name, "unsqueeze")) {
        int64_t d;
        if (!eval_int(ev, arg(call, first, "dim"), &d)) return false;
        return put_tensor(ev, sp, tarr_unsqueeze(x, (int)d, err, sizeof err), err, out);
    }
    if (!strcmp(name, "reshape") || !strcmp(name, "view")) {
        int rank = 0;
        int64_t dims[TARR_MAX_RANK];
        const MbExpr *f = arg(call, first, "shape");
        if (!f) return fail(ev, sp, "reshape needs a shape");
        if (f->kind == MBX_TUPLE || f->kind == MBX_LIST) {
            if (f->n > TARR_MAX_RANK) return fail(ev, f->span, "more than %d dims", TARR_MAX_RANK);
            for (int i = 0; i < f->n; i++)
                if (!eval_int(ev, f->items[i], &dims[i])) return false;
            rank = f->n;
        } else {
            for (const MbExpr *a; (a = arg(call, first + rank, NULL)) && rank < TARR_MAX_RANK; rank++)
                if (!eval_int(ev, a, &dims[rank])) return false;
        }
        return put_tensor(ev, sp, tarr_reshape(x, rank, dims, err, sizeof err), err, out);
    }
    return -1;
}

/* Operation `name` with the tensor x as its first operand; the remaining arguments of call start at
 * position `first` (0 for a method, 1 for torch.name(x, ...)). */
static bool tensor_op(TEval *ev, const MbExpr *call, const char *name, TArr *x, int first, TVal *out) {
    char err[160] = "";
    Span sp = call->span;
    for (size_t i = 0; i < sizeof unary_fns / sizeof unary_fns[0]; i++)
        if (!strcmp(name, unary_fns[i].name)) return put_tensor(ev, sp, tarr_unary(unary_fns[i].op, x), err, out);
    for (size_t i = 0; i < sizeof reduce_fns / sizeof reduce_fns[0]; i++)
        if (!strcmp(name, reduce_fns[i].name)) {
            bool has, keep;
            int dim;
            const MbExpr *d0 = arg(call, first, NULL);
            if (d0 && (!strcmp(name, "max") || !strcmp(name, "min"))) {
                TVal o;          /* torch.max(a, b): element-wise */
                if (!teval(ev, d0, &o)) return false;
                if (o.kind == TV_TENSOR) {
                    bool ok = put_tensor(ev, sp, tarr_binary(name[1] == 'a' ? TB_MAX : TB_MIN, x, o.t, err, sizeof err), err, out);
                    tval_free(&o);
                    return ok;
                }
                tval_free(&o);
            }
            if (!red_args(ev, call, first, &has, &dim, &keep)) return false;
            return put_tensor(ev, sp, tarr_reduce(reduce_fns[i].op, x, !has, dim, keep, err, sizeof err), err, out);
        }
    if (!strcmp(name, "maximum") || !strcmp(name, "minimum")) {
        TArr *b;
        if (!eval_tensor(ev, arg(call, first, "other"), &b)) return false;
        bool ok = put_tensor(ev, sp, tarr_binary(name[1] == 'a' ? TB_MAX : TB_MIN, x, b, err, sizeof err), err, out);
        tarr_unref(b);
        return ok;
    }
    if (!strcmp(name, "clamp") || !strcmp(name, "clip")) {
        TArr *r = tarr_ref(x);
        const char *k[2] = { "min", "max" };
        for (int i = 0; i < 2 && r; i++) {
            const MbExpr *m = arg(call, first + i, k[i]);
            if (!m) continue;
            double v;
            if (!eval_num(ev, m, &v, false)) { tarr_unref(r); return false; }
            TArr *s = tarr_new(DT_FP32, 0, NULL);
            s->d[0] = v, s->dtype = r->dtype;
            TArr *q = tarr_binary(i == 0 ? TB_MAX : TB_MIN, r, s, err, sizeof err);
            tarr_unref(s), tarr_unref(r);
            r = q;
        }
        return put_tensor(ev, sp, r, err, out);
    }
    if (!strcmp(name, "softmax")) {
        int64_t d;
        const MbExpr *de = arg(call, first, "dim");
        if (!de) return fail(ev, sp, "softmax needs dim=");
        if (!eval_int(ev, de, &d)) return false;
        return put_tensor(ev, sp, tarr_softmax(x, (int)d, err, sizeof err), err, out);
    }
    int v = view_op(ev, call, name, x, first, out);
    if (v >= 0) return v == 1;
    const char *casts[][2] = { { "float", "float32" }, { "half", "float16" }, { "bfloat16", "bfloat16" },
                               { "int", "int32" }, { "long", "int64" }, { "bool", "bool" } };
    for (size_t i = 0; i < sizeof casts / sizeof casts[0]; i++)
        if (!strcmp(name, casts[i][0])) return put_tensor(ev, sp, tarr_cast(x, torch_dtype(casts[i][1])), err, out);
    if (!strcmp(name, "to") || !strcmp(name, "type")) {
        DType dt = x->dtype;
        for (int i = 0; i < call->n; i++) {
            TVal v;
            if (!teval(ev, call->items[i], &v)) return false;
            if (v.kind == TV_DTYPE) dt = v.dtype;      /* a device string ("cpu") is ignored */
            tval_free(&v);
        }
        return put_tensor(ev, sp, tarr_cast(x, dt), err, out);
    }
    if (!strcmp(name, "clone") || !strcmp(name, "contiguous") || !strcmp(name, "detach") || !strcmp(name, "cpu"))
        return put_tensor(ev, sp, tarr_ref(x), err, out);
    return fail(ev, sp, "'%s%s' is not in the supported subset", first ? "torch." : "tensor method .", name);
}

static bool torch_call(TEval *ev, const MbExpr *call, const char *fn, TVal *out) {
    if (!strcmp(fn, "tensor")) return tensor_ctor(ev, call, out);
    if (!strcmp(fn, "arange")) return arange(ev, call, out);
    static const char *const ctors[] = { "randn", "rand", "zeros", "ones", "empty", "full", "randint", NULL };
    size_t L = strlen(fn);
    for (int i = 0; ctors[i]; i++) {
        size_t k = strlen(ctors[i]);
        if (!strncmp(fn, ctors[i], k) && (fn[k] == 0 || !strcmp(fn + k, "_like"))) return constructor(ev, call, fn, out);
    }
    (void)L;
    if (!strcmp(fn, "cat") || !strcmp(fn, "concat") || !strcmp(fn, "concatenate")) {
        const MbExpr *l = arg(call, 0, "tensors");
        if (!l || (l->kind != MBX_LIST && l->kind != MBX_TUPLE)) return fail(ev, call->span, "torch.cat needs a list of tensors");
        TArr *xs[64];
        int n = 0;
        bool ok = l->n <= 64 || fail(ev, l->span, "torch.cat of more than 64 tensors");
        for (int i = 0; ok && i < l->n; i++) ok = eval_tensor(ev, l->items[i], &xs[n]) && ++n;
        int64_t d = 0;
        const MbExpr *de = arg(call, 1, "dim");
        ok = ok && (!de || eval_int(ev, de, &d));
        char err[160] = "";
        if (ok) ok = put_tensor(ev, call->span, tarr_cat(xs, n, (int)d, err, sizeof err), err, out);
        for (int i = 0; i < n; i++) tarr_unref(xs[i]);
        return ok;
    }
    TArr *x;
    const MbExpr *first = arg(call, 0, "input");
    if (!first) return fail(ev, call->span, "'torch.%s' is not in the supported subset", fn);
    if (!eval_tensor(ev, first, &x)) return false;
    bool ok = tensor_op(ev, call, fn, x, 1, out);
    tarr_unref(x);
    return ok;
}

static bool eval_call(TEval *ev, const MbExpr *e, TVal *out) {
    char buf[128];
    const char *d = front_mb_dotted(e->a, buf, sizeof buf);
    if (d && !strncmp(d, "torch.", 6) && !strchr(d + 6, '.')) return torch_call(ev, e, d + 6, out);
    if (d && (!strcmp(d, "float") || !strcmp(d, "int")) && e->n == 1) {
        double v;
        if (!eval_num(ev, e->items[0], &v, false)) return false;
        *out = (TVal){ .kind = TV_NUM, .num = d[0] == 'i' ? trunc(v) : v, .is_int = d[0] == 'i' };
        return true;
    }
    if (e->a->kind == MBX_ATTR && !(d && !strncmp(d, "torch.", 6))) {
        TArr *x;
        if (!eval_tensor(ev, e->a->a, &x)) return false;
        bool ok = tensor_op(ev, e, e->a->name, x, 0, out);
        tarr_unref(x);
        return ok;
    }
    return fail(ev, e->span, "call of '%s' is not in the supported subset", d ? d : "an expression");
}

/* ---- arithmetic ---- */

static TArr *as_tensor(const TVal *v, DType like) {
    if (v->kind == TV_TENSOR) return tarr_ref(v->t);
    TArr *s = tarr_new(like, 0, NULL);
    s->d[0] = v->num;
    if (!v->is_int && !dtype_is_float(like)) s->dtype = DT_FP32;    /* int tensor * 0.5 -> float */
    return s;
}

static bool num_binop(TEval *ev, const MbExpr *e, const TVal *a, const TVal *b, TVal *out) {
    double x = a->num, y = b->num, r;
    bool ints = a->is_int && b->is_int;
    const char *op = e->name;
    if ((!strcmp(op, "//") || !strcmp(op, "%") || !strcmp(op, "/")) && y == 0) return fail(ev, e->span, "division by zero");
    if (!strcmp(op, "+")) r = x + y;
    else if (!strcmp(op, "-")) r = x - y;
    else if (!strcmp(op, "*")) r = x * y;
    else if (!strcmp(op, "/")) r = x / y, ints = false;
    else if (!strcmp(op, "//")) r = floor(x / y);
    else if (!strcmp(op, "%")) r = x - floor(x / y) * y;
    else if (!strcmp(op, "**")) { r = pow(x, y); ints = ints && y >= 0; }
    else return fail(ev, e->span, "'%s' on numbers", op);
    if (ints && fabs(r) > 9007199254740992.0) return fail(ev, e->span, "integer arithmetic beyond 2^53");
    *out = (TVal){ .kind = TV_NUM, .num = r, .is_int = ints };
    return true;
}

static bool eval_bin(TEval *ev, const MbExpr *e, TVal *out) {
    TVal a, b;
    if (!teval(ev, e->a, &a)) return false;
    if (!teval(ev, e->b, &b)) { tval_free(&a); return false; }
    bool ok;
    if (a.kind == TV_NUM && b.kind == TV_NUM) ok = num_binop(ev, e, &a, &b, out);
    else if ((a.kind != TV_NUM && a.kind != TV_TENSOR) || (b.kind != TV_NUM && b.kind != TV_TENSOR))
        ok = fail(ev, e->span, "'%s' on a value that is neither a number nor a tensor", e->name);
    else {
        DType like = a.kind == TV_TENSOR ? a.t->dtype : b.t->dtype;
        TArr *x = as_tensor(&a, like), *y = as_tensor(&b, like);
        char err[160] = "";
        TArr *r = NULL;
        const char *op = e->name;
        if (!strcmp(op, "@")) r = tarr_matmul(x, y, err, sizeof err);
        else if (!strcmp(op, "**") && b.kind == TV_NUM) r = tarr_binary(TB_POW, x, y, err, sizeof err);
        else {
            static const struct { const char *op; TBinOp b; } m[] = { { "+", TB_ADD }, { "-", TB_SUB }, { "*", TB_MUL }, { "/", TB_DIV } };
            bool found = false;
            for (size_t i = 0; i < 4; i++)
                if (!strcmp(m[i].op, op)) r = tarr_binary(m[i].b, x, y, err, sizeof err), found = true;
            if (!found) snprintf(err, sizeof err, "tensor operator '%s' is not in the supported subset", op);
        }
        tarr_unref(x), tarr_unref(y);
        ok = put_tensor(ev, e->span, r, err, out);
    }
    tval_free(&a), tval_free(&b);
    return ok;
}

static bool eval_subscript(TEval *ev, const MbExpr *e, TVal *out) {
    TArr *x;
    if (!eval_tensor(ev, e->a, &x)) return false;
    TSlice s[TARR_MAX_RANK];
    bool ok = e->n <= TARR_MAX_RANK || fail(ev, e->span, "too many indices");
    for (int i = 0; ok && i < e->n; i++) {
        const MbExpr *q = e->items[i];
        s[i] = (TSlice){ false, false, false, 0, 0, 1 };
        if (q->kind != MBX_SLICE) { s[i].index = true; ok = eval_int(ev, q, &s[i].start); continue; }
        if (q->a) ok = ok && eval_int(ev, q->a, &s[i].start), s[i].has_start = true;
        if (q->b) ok = ok && eval_int(ev, q->b, &s[i].stop), s[i].has_stop = true;
        if (q->c) ok = ok && eval_int(ev, q->c, &s[i].step);
        if (ok && s[i].step <= 0) ok = fail(ev, q->span, "a slice step must be positive");
    }
    char err[160] = "";
    if (ok) ok = put_tensor(ev, e->span, tarr_slice(x, s, e->n, err, sizeof err), err, out);
    tarr_unref(x);
    return ok;
}

static bool eval_attr(TEval *ev, const MbExpr *e, TVal *out) {
    char buf[128];
    const char *d = front_mb_dotted(e, buf, sizeof buf);
    if (d && !strncmp(d, "torch.", 6) && torch_dtype(d + 6) != DT_NONE) {
        *out = (TVal){ .kind = TV_DTYPE, .dtype = torch_dtype(d + 6) };
        return true;
    }
    if (!strcmp(e->name, "T") || !strcmp(e->name, "mT") || !strcmp(e->name, "values")) {
        TArr *x;
        if (!eval_tensor(ev, e->a, &x)) return false;
        char err[160] = "";
        int perm_ok = x->rank <= 2 || e->name[0] != 'T';
        TArr *r = e->name[0] == 'v' ? tarr_ref(x)
                : !perm_ok ? NULL
                : x->rank < 2 ? tarr_cast(x, x->dtype)
                : tarr_transpose(x, -2, -1, err, sizeof err);
        if (!perm_ok) snprintf(err, sizeof err, ".T of a rank-%d tensor (use .transpose)", x->rank);
        tarr_unref(x);
        return put_tensor(ev, e->span, r, err, out);
    }
    return fail(ev, e->span, "attribute '%s' is not in the supported subset", d ? d : e->name);
}

bool teval(TEval *ev, const MbExpr *e, TVal *out) {
    *out = (TVal){ 0 };
    if (!e) return fail(ev, SPAN_NONE, "missing argument");
    switch (e->kind) {
    case MBX_NUM: *out = (TVal){ .kind = TV_NUM, .num = e->num, .is_int = e->is_int }; return true;
    case MBX_STR: *out = (TVal){ .kind = TV_STR, .str = e->name }; return true;
    case MBX_NAME:
        if (!strcmp(e->name, "True") || !strcmp(e->name, "False")) {
            *out = (TVal){ .kind = TV_NUM, .num = e->name[0] == 'T', .is_int = true };
            return true;
        }
        if (!strcmp(e->name, "None")) return true;
        if (ev->lookup && ev->lookup(ev->ud, e->name, out)) return true;
        return fail(ev, e->span, "name '%s' has no value the main-block reader knows", e->name);
    case MBX_ATTR: return eval_attr(ev, e, out);
    case MBX_CALL: return eval_call(ev, e, out);
    case MBX_BIN: return eval_bin(ev, e, out);
    case MBX_SUBSCRIPT: return eval_subscript(ev, e, out);
    case MBX_UNARY: {
        if (!teval(ev, e->a, out)) return false;
        if (e->name[0] == '+') return true;
        if (e->name[0] == '-' && out->kind == TV_NUM) { out->num = -out->num; return true; }
        if (e->name[0] == '-' && out->kind == TV_TENSOR) {
            TArr *r = tarr_unary(TU_NEG, out->t);
            tarr_unref(out->t);
            out->t = r;
            return true;
        }
        tval_free(out);
        return fail(ev, e->span, "unary '%s' is not in the supported subset", e->name);
    }
    default: return fail(ev, e->span, "a tuple, list or slice is not a value here");
    }
}

/* ---- checks ---- */

static void default_tol(const char *kind, DType dt, double *rtol, double *atol) {
    if (!strcmp(kind, "allclose")) { *rtol = 1e-5, *atol = 1e-8; return; }
    if (dt == DT_FP16) *rtol = 1e-3, *atol = 1e-5;
    else if (dt == DT_BF16) *rtol = 1.6e-2, *atol = 1e-5;
    else if (dt == DT_FP32) *rtol = 1.3e-6, *atol = 1e-5;
    else *rtol = 0, *atol = 0;
}

bool tcheck(TEval *ev, const char *kind, const MbExpr *call, TCheck *out) {
    *out = (TCheck){ .worst = -1 };
    bool ac = !strcmp(kind, "assert_close"), eq = !strcmp(kind, "equal");
    TArr *a, *b;
    if (!eval_tensor(ev, arg(call, 0, ac ? "actual" : "input"), &a)) return false;
    if (!eval_tensor(ev, arg(call, 1, ac ? "expected" : "other"), &b)) { tarr_unref(a); return false; }
    default_tol(kind, a->dtype, &out->rtol, &out->atol);
    bool ok = true;
    if (eq) out->rtol = out->atol = 0;
    else {
        const MbExpr *r = arg(call, ac ? -1 : 2, "rtol"), *t = arg(call, ac ? -1 : 3, "atol");
        if (r) ok = eval_num(ev, r, &out->rtol, false);
        if (ok && t) ok = eval_num(ev, t, &out->atol, false);
    }
    bool same = a->rank == b->rank && !memcmp(a->dims, b->dims, sizeof(int64_t) * (size_t)a->rank);
    TArr *bb = NULL;
    if (ok && !same && !eq && !ac) {        /* allclose broadcasts ref against out */
        char err[160] = "";
        TArr *z = tarr_new(a->dtype, a->rank, a->dims);
        bb = z ? tarr_binary(TB_ADD, z, b, err, sizeof err) : NULL;
        tarr_unref(z);
        same = bb && bb->n == a->n && bb->rank == a->rank;
    }
    if (ok && !same) {
        snprintf(out->shape_msg, sizeof out->shape_msg, "shapes differ: rank %d vs rank %d (%lld vs %lld elements)",
                 a->rank, b->rank, (long long)a->n, (long long)b->n);
        out->passed = false;
    } else if (ok) {
        const TArr *r = bb ? bb : b;
        double worst_excess = -INFINITY;
        for (int64_t i = 0; i < a->n; i++) {
            double x = a->d[i], g = r->d[i];
            out->checked++;
            bool good;
            double err = x == g ? 0.0 : fabs(x - g);
            if (isnan(x) || isnan(g)) good = ac && isnan(x) && isnan(g), err = good ? 0 : INFINITY;
            else if (isinf(x) || isinf(g)) good = x == g, err = good ? 0 : INFINITY;
            else good = err <= out->atol + out->rtol * fabs(g);
            double excess = err - (out->atol + out->rtol * fabs(g));
            if (!good) out->mismatches++;
            if (err > out->max_abs_err) out->max_abs_err = err;
            if (!good && excess > worst_excess) worst_excess = excess, out->worst = i;
        }
        out->passed = out->mismatches == 0;
    }
    tarr_unref(a), tarr_unref(b), tarr_unref(bb);
    return ok;
}
