/* interp_expr — expression evaluation: variables, constants, scalar arithmetic with Python
 * semantics (floor division and modulo, true division to float, non-short-circuit and/or),
 * tuples, tuple-get, enums, and dispatch of calls (ops to interp_ops.c, functions to interp.c).
 *
 * Requires: interp_internal.h. Produces: interp_eval and the typed helpers (int, bool, int lists).
 * Does: reports user errors (division by zero, wrong operand kinds) through the context's diag. */
#include "interp/interp_internal.h"

#include <math.h>
#include <string.h>

bool interp_fail(InterpCtx *c, Span sp, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    if (c->diag) diag_vadd(c->diag, DIAG_ERROR, sp, NULL, fmt, ap);
    va_end(ap);
    return false;
}

static bool is_num(InterpValue v) { return v.kind == IV_INT || v.kind == IV_BOOL || v.kind == IV_FLOAT; }
static double as_f(InterpValue v) { return v.kind == IV_FLOAT ? v.f : (double)v.i; }
static bool truthy(InterpValue v) { return v.kind == IV_FLOAT ? v.f != 0 : v.i != 0; }

static int64_t wrap_add(int64_t a, int64_t b) { return (int64_t)((uint64_t)a + (uint64_t)b); }
static int64_t wrap_sub(int64_t a, int64_t b) { return (int64_t)((uint64_t)a - (uint64_t)b); }
static int64_t wrap_mul(int64_t a, int64_t b) { return (int64_t)((uint64_t)a * (uint64_t)b); }

static bool compare(BinOp op, double a, double b, InterpValue *out) {
    bool r;
    switch (op) {
    case BIN_EQ: r = a == b; break;
    case BIN_NE: r = a != b; break;
    case BIN_LT: r = a < b; break;
    case BIN_LE: r = a <= b; break;
    case BIN_GT: r = a > b; break;
    case BIN_GE: r = a >= b; break;
    default: return false;
    }
    *out = interp_bool(r);
    return true;
}

static bool int_binary(InterpCtx *c, const Expr *e, int64_t a, int64_t b, InterpValue *out) {
    BinOp op = e->bin.op;
    if ((op == BIN_FLOORDIV || op == BIN_FLOORMOD || op == BIN_DIV) && b == 0)
        return interp_fail(c, e->span, "division by zero in '%s'", ir_binop_token(op));
    switch (op) {
    case BIN_ADD: *out = interp_int(wrap_add(a, b)); return true;
    case BIN_SUB: *out = interp_int(wrap_sub(a, b)); return true;
    case BIN_MUL: *out = interp_int(wrap_mul(a, b)); return true;
    case BIN_FLOORDIV: *out = interp_int(floordiv_i64(a, b)); return true;
    case BIN_FLOORMOD: *out = interp_int(floormod_i64(a, b)); return true;
    case BIN_DIV: *out = interp_float((double)a / (double)b); return true;
    case BIN_MIN: *out = interp_int(a < b ? a : b); return true;
    case BIN_MAX: *out = interp_int(a > b ? a : b); return true;
    case BIN_POW: {
        if (b < 0) { *out = interp_float(pow((double)a, (double)b)); return true; }
        int64_t r = 1;
        for (int64_t i = 0; i < b && i < 64; i++) r = wrap_mul(r, a);
        if (b >= 64 && a != 0 && a != 1 && a != -1) r = 0;
        if (b >= 64 && a == -1) r = (b & 1) ? -1 : 1;
        *out = interp_int(r);
        return true;
    }
    case BIN_AND: *out = interp_bool(a && b); return true;
    case BIN_OR: *out = interp_bool(a || b); return true;
    case BIN_XOR: *out = interp_bool((a != 0) != (b != 0)); return true;
    case BIN_BITAND: *out = interp_int(a & b); return true;
    case BIN_BITOR: *out = interp_int(a | b); return true;
    case BIN_BITXOR: *out = interp_int(a ^ b); return true;
    case BIN_SHL: case BIN_SHR:
        if (b < 0 || b > 63) return interp_fail(c, e->span, "shift count %lld out of range", (long long)b);
        *out = interp_int(op == BIN_SHL ? (int64_t)((uint64_t)a << b) : a >> b);
        return true;
    default: return compare(op, (double)a, (double)b, out) || interp_fail(c, e->span, "bad integer operator");
    }
}

static bool float_binary(InterpCtx *c, const Expr *e, double a, double b, InterpValue *out) {
    BinOp op = e->bin.op;
    if ((op == BIN_FLOORDIV || op == BIN_FLOORMOD || op == BIN_DIV) && b == 0)
        return interp_fail(c, e->span, "float division by zero");
    switch (op) {
    case BIN_ADD: *out = interp_float(a + b); return true;
    case BIN_SUB: *out = interp_float(a - b); return true;
    case BIN_MUL: *out = interp_float(a * b); return true;
    case BIN_DIV: *out = interp_float(a / b); return true;
    case BIN_FLOORDIV: *out = interp_float(floor(a / b)); return true;
    case BIN_FLOORMOD: {
        double r = fmod(a, b);
        if (r != 0 && ((r < 0) != (b < 0))) r += b;
        *out = interp_float(r);
        return true;
    }
    case BIN_MIN: *out = interp_float(a < b ? a : b); return true;
    case BIN_MAX: *out = interp_float(a > b ? a : b); return true;
    case BIN_POW: *out = interp_float(pow(a, b)); return true;
    case BIN_AND: *out = interp_bool(a != 0 && b != 0); return true;
    case BIN_OR: *out = interp_bool(a != 0 || b != 0); return true;
    case BIN_XOR: *out = interp_bool((a != 0) != (b != 0)); return true;
    default:
        if (compare(op, a, b, out)) return true;
        return interp_fail(c, e->span, "bitwise operator on a float operand");
    }
}

static bool eval_binary(InterpCtx *c, InterpFrame *f, const Expr *e, InterpValue *out) {
    InterpValue l, r;
    if (!interp_eval(c, f, e->bin.lhs, &l)) return false;
    if (!interp_eval(c, f, e->bin.rhs, &r)) { interp_release(l); return false; }
    if (!is_num(l) || !is_num(r)) {
        interp_release(l);
        interp_release(r);
        return interp_fail(c, e->span, "operator '%s' needs scalar operands",
                           ir_binop_token(e->bin.op) ? ir_binop_token(e->bin.op) : "min/max/pow");
    }
    if (l.kind == IV_FLOAT || r.kind == IV_FLOAT) return float_binary(c, e, as_f(l), as_f(r), out);
    return int_binary(c, e, l.i, r.i, out);
}

static bool eval_cast(InterpCtx *c, const Expr *e, InterpValue v, InterpValue *out) {
    DType dt = e->type ? e->type->dtype : DT_INDEX;
    if (dt == DT_BOOL) *out = interp_bool(truthy(v));
    else if (dtype_is_float(dt)) *out = interp_float(interp_round(dt, as_f(v)));
    else if (dtype_is_int(dt)) *out = interp_int((int64_t)interp_round(dt, as_f(v)));
    else return interp_fail(c, e->span, "cast to %s is not supported", dt == DT_NONE ? "?" : dtype_name(dt));
    return true;
}

static bool eval_unary(InterpCtx *c, InterpFrame *f, const Expr *e, InterpValue *out) {
    InterpValue v;
    if (!interp_eval(c, f, e->un.operand, &v)) return false;
    if (!is_num(v)) {
        interp_release(v);
        return interp_fail(c, e->span, "unary operator needs a scalar operand");
    }
    switch (e->un.op) {
    case UN_NEG: *out = v.kind == IV_FLOAT ? interp_float(-v.f) : interp_int(wrap_sub(0, v.i)); return true;
    case UN_NOT: *out = interp_bool(!truthy(v)); return true;
    case UN_ABS: *out = v.kind == IV_FLOAT ? interp_float(fabs(v.f)) : interp_int(v.i < 0 ? wrap_sub(0, v.i) : v.i); return true;
    case UN_BITNOT:
        if (v.kind == IV_FLOAT) return interp_fail(c, e->span, "'~' on a float operand");
        *out = interp_int(~v.i);
        return true;
    case UN_CAST: return eval_cast(c, e, v, out);
    }
    return interp_fail(c, e->span, "unknown unary operator");
}

static bool eval_tuple(InterpCtx *c, InterpFrame *f, const Expr *e, InterpValue *out) {
    InterpTuple *t = interp_tuple_new(e->tuple.n);
    for (int i = 0; i < e->tuple.n; i++)
        if (!interp_eval(c, f, e->tuple.items[i], &t->items[i])) {
            interp_release((InterpValue){ .kind = IV_TUPLE, .tup = t });
            return false;
        }
    *out = (InterpValue){ .kind = IV_TUPLE, .tup = t };
    return true;
}

static bool eval_tuple_get(InterpCtx *c, InterpFrame *f, const Expr *e, InterpValue *out) {
    InterpValue t;
    if (!interp_eval(c, f, e->tget.tuple, &t)) return false;
    if (t.kind != IV_TUPLE || e->tget.index < 0 || e->tget.index >= t.tup->n) {
        interp_release(t);
        return interp_fail(c, e->span, "tuple index %d out of range", e->tget.index);
    }
    *out = interp_retain(t.tup->items[e->tget.index]);
    interp_release(t);
    return true;
}

bool interp_eval(InterpCtx *c, InterpFrame *f, const Expr *e, InterpValue *out) {
    *out = (InterpValue){ 0 };
    if (!e) return interp_fail(c, SPAN_NONE, "internal: missing expression");
    switch (e->kind) {
    case EX_VAR: {
        const InterpValue *v = interp_env_get(&f->env, e->var);
        if (!v) return interp_fail(c, e->span, "variable '%s' is used before it is defined", e->var->name);
        *out = interp_retain(*v);
        return true;
    }
    case EX_CONST_INT: *out = interp_int(e->ci.value); return true;
    case EX_CONST_FLOAT: *out = interp_float(e->cf.value); return true;
    case EX_CONST_BOOL: *out = interp_bool(e->cb.value); return true;
    case EX_BINARY: return eval_binary(c, f, e, out);
    case EX_UNARY: return eval_unary(c, f, e, out);
    case EX_TUPLE: return eval_tuple(c, f, e, out);
    case EX_TUPLE_GET: return eval_tuple_get(c, f, e, out);
    case EX_ENUM: *out = (InterpValue){ .kind = IV_NONE }; return true;
    case EX_CALL:
        if (e->call.op == OP_NONE) return interp_call_function(c, f, e, out);
        return interp_eval_op(c, f, e, out);
    }
    return interp_fail(c, e->span, "internal: unknown expression kind %d", (int)e->kind);
}

bool interp_eval_int(InterpCtx *c, InterpFrame *f, const Expr *e, int64_t *out) {
    InterpValue v;
    if (!interp_eval(c, f, e, &v)) return false;
    bool ok = v.kind == IV_INT || v.kind == IV_BOOL;
    if (ok) *out = v.i;
    else if (v.kind == IV_FLOAT && v.f == trunc(v.f) && fabs(v.f) < 9e18) { *out = (int64_t)v.f; ok = true; }
    interp_release(v);
    return ok || interp_fail(c, e->span, "expected an integer value");
}

bool interp_eval_bool(InterpCtx *c, InterpFrame *f, const Expr *e, bool *out) {
    InterpValue v;
    if (!interp_eval(c, f, e, &v)) return false;
    bool ok = is_num(v);
    if (ok) *out = truthy(v);
    interp_release(v);
    return ok || interp_fail(c, e->span, "expected a boolean condition");
}
