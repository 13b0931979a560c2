/* interp_expr — expression evaluation: variables, constants, scalar arithmetic with Python
 * semantics (ir/scalar.c, shared with the runtime and constant folding: floor division and modulo,
 * true division to float, non-short-circuit and/or, int64 overflow is an error), tuples,
 * tuple-get, enums, and dispatch of calls (ops to interp_ops.c, functions to interp.c).
 *
 * Requires: interp_internal.h. Produces: interp_eval and the typed helpers (int, bool, int lists).
 * Does: reports user errors (overflow, division by zero, wrong operand kinds) through the context's
 * diag, at the expression. */
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

static ScalarVal to_scalar(InterpValue v) {
    return v.kind == IV_FLOAT ? ir_scalar_float(v.f) : v.kind == IV_BOOL ? ir_scalar_bool(v.i != 0) : ir_scalar_int(v.i);
}

static InterpValue from_scalar(ScalarVal v) {
    return v.kind == SV_FLOAT ? interp_float(v.f) : v.kind == SV_BOOL ? interp_bool(v.i != 0) : interp_int(v.i);
}

/* Scalar operators are evaluated by ir/scalar.c, the implementation the runtime and constant
 * folding use too. */
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
    ScalarVal a = to_scalar(l), b = to_scalar(r), v;
    ScalarErr err = ir_scalar_binary_typed(e->bin.op, e->type ? e->type->dtype : DT_NONE, a, b, &v);
    if (err) {
        StrBuf msg = {0};
        ir_scalar_binary_error(err, e->bin.op, a, b, &msg);
        interp_fail(c, e->span, "%s", sb_cstr(&msg));
        sb_free(&msg);
        return false;
    }
    *out = from_scalar(v);
    return true;
}

static bool eval_unary(InterpCtx *c, InterpFrame *f, const Expr *e, InterpValue *out) {
    InterpValue x;
    if (!interp_eval(c, f, e->un.operand, &x)) return false;
    if (!is_num(x)) {
        interp_release(x);
        return interp_fail(c, e->span, "unary operator needs a scalar operand");
    }
    DType dt = e->type ? e->type->dtype : DT_NONE;
    ScalarVal a = to_scalar(x), v;
    ScalarErr err = ir_scalar_unary(e->un.op, dt, a, &v);
    if (err) {
        StrBuf msg = {0};
        ir_scalar_unary_error(err, e->un.op, dt, a, &msg);
        interp_fail(c, e->span, "%s", sb_cstr(&msg));
        sb_free(&msg);
        return false;
    }
    *out = from_scalar(v);
    return true;
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
    if (ok) *out = ir_scalar_truthy(to_scalar(v));
    interp_release(v);
    return ok || interp_fail(c, e->span, "expected a boolean condition");
}
