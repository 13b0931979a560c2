/* scalar — the one implementation of scalar arithmetic on int64 / double / bool values with Python
 * semantics, shared by constant folding (ir_fold), the reference interpreter and the runtime's
 * orchestration interpreter, so the three can never disagree.
 *
 * Requires: base (checked arithmetic, fp16/bf16 rounding). Produces: ir_scalar_binary,
 * ir_scalar_unary, ir_scalar_error. Does: Python's rules — bool acts as the int 0/1, int op float
 * converts the int, `/` is true division, `//` and `%` floor (the remainder takes the divisor's
 * sign), `**` of ints by squaring (a negative exponent gives a float), `<<` / `>>` with unbounded
 * counts, comparisons of an int with a float are exact. Python ints are unbounded; ours are int64,
 * so a result outside int64 is an error (SCALAR_OVERFLOW) instead of a silently wrapped value.
 * Errors come back as codes; each caller reports them its own way at the expression. */
#include "ir/ir.h"

#include <math.h>
#include <string.h>

ScalarVal ir_scalar_int(int64_t v) { return (ScalarVal){ .kind = SV_INT, .i = v }; }
ScalarVal ir_scalar_float(double v) { return (ScalarVal){ .kind = SV_FLOAT, .f = v }; }
ScalarVal ir_scalar_bool(bool v) { return (ScalarVal){ .kind = SV_BOOL, .i = v ? 1 : 0 }; }

bool ir_scalar_truthy(ScalarVal v) { return v.kind == SV_FLOAT ? v.f != 0 : v.i != 0; }

static double as_double(ScalarVal v) { return v.kind == SV_FLOAT ? v.f : (double)v.i; }

/* -1, 0, 1 for a < b, a == b, a > b of an int and a (non-NaN) double, exactly. */
static int cmp_int_double(int64_t a, double b) {
    if (b >= 9223372036854775808.0) return -1;
    if (b < -9223372036854775808.0) return 1;
    double t = trunc(b);                 /* exact, and within int64 now */
    int64_t bi = (int64_t)t;
    if (a != bi) return a < bi ? -1 : 1;
    return t == b ? 0 : (b > t ? -1 : 1);
}

static ScalarErr compare(BinOp op, ScalarVal a, ScalarVal b, ScalarVal *out) {
    int c;
    if (a.kind != SV_FLOAT && b.kind != SV_FLOAT) c = a.i < b.i ? -1 : a.i > b.i;
    else if (isnan(as_double(a)) || isnan(as_double(b))) {
        *out = ir_scalar_bool(op == BIN_NE);         /* NaN compares unequal to everything */
        return SCALAR_OK;
    } else if (a.kind == SV_FLOAT && b.kind == SV_FLOAT) c = a.f < b.f ? -1 : a.f > b.f;
    else if (a.kind == SV_FLOAT) c = -cmp_int_double(b.i, a.f);
    else c = cmp_int_double(a.i, b.f);
    bool r;
    switch (op) {
    case BIN_EQ: r = c == 0; break;
    case BIN_NE: r = c != 0; break;
    case BIN_LT: r = c < 0; break;
    case BIN_LE: r = c <= 0; break;
    case BIN_GT: r = c > 0; break;
    case BIN_GE: r = c >= 0; break;
    default: return SCALAR_BAD_OPERATOR;
    }
    *out = ir_scalar_bool(r);
    return SCALAR_OK;
}

/* a ** b for b >= 0 by squaring: at most 63 rounds, however large b is. Once the running power
 * overflows while exponent bits remain, the result (a multiple of it in magnitude) overflows too. */
static ScalarErr int_pow(int64_t a, int64_t b, int64_t *out) {
    int64_t r = 1, base = a;
    while (b > 0) {
        if ((b & 1) && !checked_mul(r, base, &r)) return SCALAR_OVERFLOW;
        b >>= 1;
        if (b > 0 && !checked_mul(base, base, &base)) return SCALAR_OVERFLOW;
    }
    *out = r;
    return SCALAR_OK;
}

static ScalarErr int_shift(BinOp op, int64_t a, int64_t b, int64_t *out) {
    if (b < 0) return SCALAR_NEGATIVE_SHIFT;
    if (op == BIN_SHR) {
        *out = b >= 63 ? (a < 0 ? -1 : 0) : a >> b;  /* arithmetic shift: Python floors */
        return SCALAR_OK;
    }
    if (a == 0) { *out = 0; return SCALAR_OK; }
    if (b > 63) return SCALAR_OVERFLOW;
    int64_t r = (int64_t)((uint64_t)a << b);
    if ((r >> b) != a) return SCALAR_OVERFLOW;
    *out = r;
    return SCALAR_OK;
}

static ScalarErr int_binary(BinOp op, ScalarVal a, ScalarVal b, ScalarVal *out) {
    int64_t x = a.i, y = b.i, r;
    bool both_bool = a.kind == SV_BOOL && b.kind == SV_BOOL;
    switch (op) {
    case BIN_ADD: if (!checked_add(x, y, &r)) return SCALAR_OVERFLOW; break;
    case BIN_SUB: if (!checked_sub(x, y, &r)) return SCALAR_OVERFLOW; break;
    case BIN_MUL: if (!checked_mul(x, y, &r)) return SCALAR_OVERFLOW; break;
    case BIN_FLOORDIV:
        if (y == 0) return SCALAR_DIVISION_BY_ZERO;
        if (x == INT64_MIN && y == -1) return SCALAR_OVERFLOW;
        r = floordiv_i64(x, y);
        break;
    case BIN_FLOORMOD:
        if (y == 0) return SCALAR_DIVISION_BY_ZERO;
        r = y == -1 ? 0 : floormod_i64(x, y);
        break;
    case BIN_DIV:
        if (y == 0) return SCALAR_DIVISION_BY_ZERO;
        *out = ir_scalar_float((double)x / (double)y);
        return SCALAR_OK;
    case BIN_MIN: *out = y < x ? b : a; return SCALAR_OK;
    case BIN_MAX: *out = y > x ? b : a; return SCALAR_OK;
    case BIN_POW:
        if (y < 0) {
            if (x == 0) return SCALAR_DIVISION_BY_ZERO;      /* 0 ** -1: ZeroDivisionError */
            *out = ir_scalar_float(pow((double)x, (double)y));
            return SCALAR_OK;
        }
        { ScalarErr e = int_pow(x, y, &r); if (e) return e; }
        break;
    case BIN_BITAND: r = x & y; if (both_bool) { *out = ir_scalar_bool(r); return SCALAR_OK; } break;
    case BIN_BITOR: r = x | y; if (both_bool) { *out = ir_scalar_bool(r); return SCALAR_OK; } break;
    case BIN_BITXOR: r = x ^ y; if (both_bool) { *out = ir_scalar_bool(r); return SCALAR_OK; } break;
    case BIN_SHL: case BIN_SHR: { ScalarErr e = int_shift(op, x, y, &r); if (e) return e; break; }
    default: return SCALAR_BAD_OPERATOR;
    }
    *out = ir_scalar_int(r);
    return SCALAR_OK;
}

/* Python's float floor division and modulo (Objects/floatobject.c, float_divmod). */
static void float_divmod(double a, double b, double *div_out, double *mod_out) {
    double mod = fmod(a, b);
    double div = (a - mod) / b;
    if (mod != 0) {
        if ((b < 0) != (mod < 0)) { mod += b; div -= 1.0; }
    } else mod = copysign(0.0, b);
    double floordiv;
    if (div != 0) {
        floordiv = floor(div);
        if (div - floordiv > 0.5) floordiv += 1.0;
    } else floordiv = copysign(0.0, a / b);
    *div_out = floordiv;
    *mod_out = mod;
}

static ScalarErr float_pow(double a, double b, double *out) {
    if (a == 0 && b < 0) return SCALAR_DIVISION_BY_ZERO;
    if (a < 0 && isfinite(a) && isfinite(b) && b != trunc(b)) return SCALAR_COMPLEX;
    double r = pow(a, b);
    if (isinf(r) && isfinite(a) && isfinite(b)) return SCALAR_OVERFLOW;
    *out = r;
    return SCALAR_OK;
}

static ScalarErr float_binary(BinOp op, ScalarVal av, ScalarVal bv, ScalarVal *out) {
    double a = as_double(av), b = as_double(bv), d, m;
    switch (op) {
    case BIN_ADD: *out = ir_scalar_float(a + b); return SCALAR_OK;
    case BIN_SUB: *out = ir_scalar_float(a - b); return SCALAR_OK;
    case BIN_MUL: *out = ir_scalar_float(a * b); return SCALAR_OK;
    case BIN_DIV:
        if (b == 0) return SCALAR_DIVISION_BY_ZERO;
        *out = ir_scalar_float(a / b);
        return SCALAR_OK;
    case BIN_FLOORDIV: case BIN_FLOORMOD:
        if (b == 0) return SCALAR_DIVISION_BY_ZERO;
        float_divmod(a, b, &d, &m);
        *out = ir_scalar_float(op == BIN_FLOORDIV ? d : m);
        return SCALAR_OK;
    case BIN_POW: {
        ScalarErr e = float_pow(a, b, &d);
        if (!e) *out = ir_scalar_float(d);
        return e;
    }
    case BIN_MIN: case BIN_MAX: {
        ScalarVal lt;
        compare(op == BIN_MIN ? BIN_LT : BIN_GT, bv, av, &lt);
        *out = lt.i ? bv : av;                          /* Python: the first operand on ties */
        return SCALAR_OK;
    }
    case BIN_BITAND: case BIN_BITOR: case BIN_BITXOR: case BIN_SHL: case BIN_SHR: return SCALAR_FLOAT_OPERAND;
    default: return SCALAR_BAD_OPERATOR;
    }
}

ScalarErr ir_scalar_binary(BinOp op, ScalarVal a, ScalarVal b, ScalarVal *out) {
    switch (op) {
    case BIN_EQ: case BIN_NE: case BIN_LT: case BIN_LE: case BIN_GT: case BIN_GE: return compare(op, a, b, out);
    /* the DSL's and/or/xor evaluate both sides and give a bool */
    case BIN_AND: *out = ir_scalar_bool(ir_scalar_truthy(a) && ir_scalar_truthy(b)); return SCALAR_OK;
    case BIN_OR: *out = ir_scalar_bool(ir_scalar_truthy(a) || ir_scalar_truthy(b)); return SCALAR_OK;
    case BIN_XOR: *out = ir_scalar_bool(ir_scalar_truthy(a) != ir_scalar_truthy(b)); return SCALAR_OK;
    default: break;
    }
    if (a.kind == SV_FLOAT || b.kind == SV_FLOAT) return float_binary(op, a, b, out);
    return int_binary(op, a, b, out);
}

/* A value converted to dtype dt as a scalar of that type stores it: integers wrap to the width
 * (two's complement, as the hardware's conversion), floats round to nearest even at the width. */
static ScalarErr cast_to(DType dt, ScalarVal v, ScalarVal *out) {
    if (dt == DT_BOOL) { *out = ir_scalar_bool(ir_scalar_truthy(v)); return SCALAR_OK; }
    if (dtype_is_float(dt)) { *out = ir_scalar_float(dtype_round_float(dt, as_double(v))); return SCALAR_OK; }
    if (!dtype_is_int(dt)) return SCALAR_BAD_CAST;
    int64_t i = v.i;
    if (v.kind == SV_FLOAT) {
        if (isnan(v.f)) return SCALAR_NAN_TO_INT;
        double t = trunc(v.f);
        if (!(t >= -9223372036854775808.0 && t < 9223372036854775808.0)) return SCALAR_OVERFLOW;
        i = (int64_t)t;
    }
    int bits = dtype_bits(dt);
    if (bits < 64) {
        uint64_t mask = (UINT64_C(1) << bits) - 1, u = (uint64_t)i & mask;
        bool is_signed = dtype_is_signed(dt);
        i = is_signed && (u >> (bits - 1)) ? (int64_t)(u | ~mask) : (int64_t)u;
    }
    *out = ir_scalar_int(i);
    return SCALAR_OK;
}

ScalarErr ir_scalar_unary(UnOp op, DType cast_dtype, ScalarVal v, ScalarVal *out) {
    switch (op) {
    case UN_NEG:
        if (v.kind == SV_FLOAT) { *out = ir_scalar_float(-v.f); return SCALAR_OK; }
        if (v.i == INT64_MIN) return SCALAR_OVERFLOW;
        *out = ir_scalar_int(-v.i);
        return SCALAR_OK;
    case UN_ABS:
        if (v.kind == SV_FLOAT) { *out = ir_scalar_float(fabs(v.f)); return SCALAR_OK; }
        if (v.i == INT64_MIN) return SCALAR_OVERFLOW;
        *out = ir_scalar_int(v.i < 0 ? -v.i : v.i);
        return SCALAR_OK;
    case UN_NOT: *out = ir_scalar_bool(!ir_scalar_truthy(v)); return SCALAR_OK;
    case UN_BITNOT:
        if (v.kind == SV_FLOAT) return SCALAR_FLOAT_OPERAND;
        *out = ir_scalar_int(~v.i);
        return SCALAR_OK;
    case UN_CAST: return cast_to(cast_dtype, v, out);
    }
    return SCALAR_BAD_OPERATOR;
}

ScalarErr ir_scalar_binary_typed(BinOp op, DType result_dtype, ScalarVal a, ScalarVal b, ScalarVal *out) {
    ScalarErr e = ir_scalar_binary(op, a, b, out);
    /* an expression the IR types as float stays a float whatever its operands held */
    if (!e && out->kind != SV_FLOAT && dtype_is_float(result_dtype)) *out = ir_scalar_float((double)out->i);
    return e;
}

static void put_value(StrBuf *sb, ScalarVal v) {
    if (v.kind == SV_FLOAT) sb_printf(sb, "%.17g", v.f);
    else if (v.kind == SV_BOOL) sb_puts(sb, v.i ? "True" : "False");
    else sb_printf(sb, "%lld", (long long)v.i);
}

static const char *op_text(BinOp op) {
    const char *t = ir_binop_token(op);
    return t ? t : op == BIN_POW ? "**" : op == BIN_MIN ? "min" : op == BIN_MAX ? "max" : "?";
}

static void put_error(ScalarErr e, const char *ex, StrBuf *out) {
    switch (e) {
    case SCALAR_OK: sb_printf(out, "%s is fine", ex); break;
    case SCALAR_OVERFLOW:
        sb_printf(out, "integer overflow: %s does not fit in a 64-bit integer (-9223372036854775808 .. 9223372036854775807)", ex);
        break;
    case SCALAR_DIVISION_BY_ZERO: sb_printf(out, "division by zero in %s", ex); break;
    case SCALAR_NEGATIVE_SHIFT: sb_printf(out, "negative shift count in %s", ex); break;
    case SCALAR_FLOAT_OPERAND: sb_printf(out, "%s: bitwise operators need integer operands, not floats", ex); break;
    case SCALAR_COMPLEX: sb_printf(out, "%s: a negative number to a fractional power has no real value", ex); break;
    case SCALAR_NAN_TO_INT: sb_printf(out, "%s: NaN has no integer value", ex); break;
    case SCALAR_BAD_CAST: sb_printf(out, "%s: scalars cast only to integer, float or bool dtypes", ex); break;
    case SCALAR_BAD_OPERATOR: sb_printf(out, "%s: operator not defined on scalars", ex); break;
    }
}

void ir_scalar_binary_error(ScalarErr e, BinOp op, ScalarVal a, ScalarVal b, StrBuf *out) {
    StrBuf ex = {0};
    const char *t = op_text(op);
    if (op == BIN_MIN || op == BIN_MAX) {
        sb_printf(&ex, "%s(", t);
        put_value(&ex, a);
        sb_puts(&ex, ", ");
        put_value(&ex, b);
        sb_putc(&ex, ')');
    } else {
        put_value(&ex, a);
        sb_printf(&ex, " %s ", t);
        put_value(&ex, b);
    }
    put_error(e, sb_cstr(&ex), out);
    sb_free(&ex);
}

void ir_scalar_unary_error(ScalarErr e, UnOp op, DType cast_dtype, ScalarVal v, StrBuf *out) {
    StrBuf ex = {0};
    if (op == UN_CAST) sb_puts(&ex, "pl.cast(");
    else sb_puts(&ex, op == UN_NEG ? "-(" : op == UN_BITNOT ? "~(" : op == UN_NOT ? "not (" : "abs(");
    put_value(&ex, v);
    if (op == UN_CAST) sb_printf(&ex, ", pl.%s", cast_dtype == DT_NONE ? "?" : dtype_name(cast_dtype));
    sb_putc(&ex, ')');
    put_error(e, sb_cstr(&ex), out);
    sb_free(&ex);
}
