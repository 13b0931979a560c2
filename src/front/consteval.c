/* consteval — the small constant evaluator of module constants and builder locals (spec/language.md
 * §1.3, §1.4): Python integer / float arithmetic over literals and names defined earlier.
 *
 * Requires: front_lex tokens; base (checked arithmetic).
 * Produces: front_ceval (one expression -> CVal, or false with the reason), front_ceval_assign (one
 *           `NAME [, NAME]* [: annotation] = RHS` statement -> ConstSym entries, -D defines
 *           overriding the assigned value).
 * Does: literals, names, unary - and +, + - * // % ** (integers: overflow-checked; a result that
 *       does not fit in int64 is not a constant), / (float), parentheses, min / max / abs / int / float
 *       on constants, tuple-to-tuple assignment. Everything else (calls, strings, lists, attributes) is
 *       "not a constant" with a reason; the caller records the name as unknown, so a use of it in DSL
 *       code can say why. Python semantics: // and % floor, ** with a negative exponent is a float,
 *       int() truncates toward zero. */
#include "front/front_internal.h"

#include <math.h>
#include <string.h>

typedef struct CEval {
    IrCtx *c;
    const Tok *toks;
    int n, pos, depth;
    const ConstVec *env;
    const char *why;                 /* the first reason the expression is not a constant */
} CEval;

static const Tok *peek(CEval *e) { return &e->toks[e->pos < e->n ? e->pos : e->n - 1]; }
static bool is_op(CEval *e, const char *op) { return peek(e)->kind == TK_OP && strcmp(peek(e)->text, op) == 0; }
static bool fail(CEval *e, const char *why) {
    if (!e->why) e->why = why;
    return false;
}

const ConstSym *front_const_find(const ConstVec *env, const char *name) {
    for (int i = env ? env->len - 1 : -1; i >= 0; i--)
        if (strcmp(env->data[i].name, name) == 0) return &env->data[i];
    return NULL;
}

static double as_f(CVal v) { return v.is_float ? v.f : (double)v.i; }
static CVal fval(double f) { return (CVal){ true, 0, f }; }
static CVal ival(int64_t i) { return (CVal){ false, i, (double)i }; }

static bool ipow(CEval *e, int64_t b, int64_t x, CVal *out) {
    int64_t r = 1;
    for (int64_t k = 0; k < x; k++) {
        if (!checked_mul(r, b, &r)) return fail(e, "the value does not fit in a 64-bit integer");
        if (r == 0 || (r == 1 && b == 1)) break;
        if (k > 64 && (b == -1)) { r = (x % 2) ? -1 : 1; break; }
    }
    *out = ival(r);
    return true;
}

/* a op b, Python semantics. */
static bool binop(CEval *e, const char *op, CVal a, CVal b, CVal *out) {
    bool fl = a.is_float || b.is_float;
    if (!strcmp(op, "/")) {
        if (as_f(b) == 0) return fail(e, "division by zero");
        *out = fval(as_f(a) / as_f(b));
        return true;
    }
    if (!strcmp(op, "**")) {
        if (!fl && b.i >= 0) return ipow(e, a.i, b.i, out);
        *out = fval(pow(as_f(a), as_f(b)));
        return isfinite(out->f) ? true : fail(e, "the power is not a finite number");
    }
    if (fl) {
        double x = as_f(a), y = as_f(b);
        if ((!strcmp(op, "//") || !strcmp(op, "%")) && y == 0) return fail(e, "division by zero");
        double r = !strcmp(op, "+") ? x + y : !strcmp(op, "-") ? x - y : !strcmp(op, "*") ? x * y
                 : !strcmp(op, "//") ? floor(x / y) : x - y * floor(x / y);
        *out = fval(r);
        return true;
    }
    int64_t r = 0;
    bool ok = true;
    if (!strcmp(op, "+")) ok = checked_add(a.i, b.i, &r);
    else if (!strcmp(op, "-")) ok = checked_sub(a.i, b.i, &r);
    else if (!strcmp(op, "*")) ok = checked_mul(a.i, b.i, &r);
    else {
        if (b.i == 0) return fail(e, "division by zero");
        if (a.i == INT64_MIN && b.i == -1) ok = false;
        else {
            int64_t q = a.i / b.i, m = a.i % b.i;
            if (m != 0 && ((m < 0) != (b.i < 0))) { q--; m += b.i; }
            r = !strcmp(op, "//") ? q : m;
        }
    }
    if (!ok) return fail(e, "the value does not fit in a 64-bit integer");
    *out = ival(r);
    return true;
}

static bool expr(CEval *e, CVal *out);

/* min / max / abs / int / float on constants */
static bool builtin(CEval *e, const char *name, CVal *out) {
    e->pos++;                                            /* '(' */
    CVal args[16];
    int n = 0;
    while (!is_op(e, ")")) {
        if (n == 16 || !expr(e, &args[n++])) return fail(e, "too many arguments");
        if (!is_op(e, ",")) break;
        e->pos++;
    }
    if (!is_op(e, ")")) return fail(e, arena_printf(e->c->arena, "unsupported arguments of %s()", name));
    e->pos++;
    bool minmax = !strcmp(name, "min") || !strcmp(name, "max");
    if ((minmax && n < 2) || (!minmax && n != 1)) return fail(e, arena_printf(e->c->arena, "unsupported arguments of %s()", name));
    if (minmax) {
        CVal r = args[0];
        for (int i = 1; i < n; i++) {
            bool less = as_f(args[i]) < as_f(r) || (!args[i].is_float && !r.is_float && args[i].i < r.i);
            bool more = as_f(args[i]) > as_f(r) || (!args[i].is_float && !r.is_float && args[i].i > r.i);
            if (name[1] == 'i' ? less : more) r = args[i];
        }
        *out = r;
    } else if (!strcmp(name, "abs")) {
        if (!args[0].is_float && args[0].i == INT64_MIN) return fail(e, "the value does not fit in a 64-bit integer");
        *out = args[0].is_float ? fval(fabs(args[0].f)) : ival(args[0].i < 0 ? -args[0].i : args[0].i);
    } else if (!strcmp(name, "float")) {
        *out = fval(as_f(args[0]));
    } else {                                             /* int(): truncation toward zero */
        if (!args[0].is_float) *out = args[0];
        else if (!(fabs(args[0].f) < 9.2e18)) return fail(e, "the value does not fit in a 64-bit integer");
        else *out = ival((int64_t)args[0].f);
    }
    return true;
}

static bool atom(CEval *e, CVal *out) {
    const Tok *t = peek(e);
    if (t->kind == TK_INT) {
        e->pos++;
        if (t->too_big || t->uval > (uint64_t)INT64_MAX) return fail(e, "the literal does not fit in a 64-bit integer");
        *out = ival((int64_t)t->uval);
        return true;
    }
    if (t->kind == TK_FLOAT) { e->pos++; *out = fval(t->fval); return true; }
    if (t->kind == TK_OP && !strcmp(t->text, "(")) {
        e->pos++;
        if (!expr(e, out)) return false;
        if (!is_op(e, ")")) return fail(e, "a tuple or an unsupported expression in parentheses");
        e->pos++;
        return true;
    }
    if (t->kind != TK_NAME) return fail(e, "not a constant expression (ptoc evaluates integer and float arithmetic on literals and constants)");
    e->pos++;
    bool call = is_op(e, "(");
    static const char *const fns[] = { "min", "max", "abs", "int", "float", NULL };
    for (int i = 0; call && fns[i]; i++)
        if (!strcmp(t->text, fns[i]) && !front_const_find(e->env, t->text)) return builtin(e, t->text, out);
    if (call || is_op(e, ".") || is_op(e, "["))
        return fail(e, arena_printf(e->c->arena, "'%s%s' is not a constant expression (ptoc evaluates + - * / // %% ** min max abs int)",
                                    t->text, call ? "(...)" : is_op(e, ".") ? "." : "[...]"));
    const ConstSym *s = front_const_find(e->env, t->text);
    if (!s) return fail(e, arena_printf(e->c->arena, "'%s' is not a constant defined before it", t->text));
    if (s->kind == CK_INT) { *out = ival(s->ival); return true; }
    if (s->kind == CK_FLOAT) { *out = fval(s->fval); return true; }
    return fail(e, arena_printf(e->c->arena, "'%s' (line %d) has no constant value", t->text, s->span.line));
}

static bool power(CEval *e, CVal *out);
static bool unary(CEval *e, CVal *out) {
    if (is_op(e, "-") || is_op(e, "+")) {
        bool neg = is_op(e, "-");
        e->pos++;
        const Tok *t = peek(e);
        /* -9223372036854775808 is a literal, not a negated overflow */
        if (neg && t->kind == TK_INT && !t->too_big && t->uval == (uint64_t)INT64_MAX + 1 &&
            !(e->pos + 1 < e->n && e->toks[e->pos + 1].kind == TK_OP && !strcmp(e->toks[e->pos + 1].text, "**"))) {
            e->pos++;
            *out = ival(INT64_MIN);
            return true;
        }
        if (e->depth++ > 100) return fail(e, "expression nested too deeply");
        bool ok = unary(e, out);
        e->depth--;
        if (!ok || !neg) return ok;
        if (out->is_float) *out = fval(-out->f);
        else if (out->i == INT64_MIN) return fail(e, "the value does not fit in a 64-bit integer");
        else *out = ival(-out->i);
        return true;
    }
    return power(e, out);
}

static bool power(CEval *e, CVal *out) {
    if (!atom(e, out)) return false;
    if (!is_op(e, "**")) return true;
    e->pos++;
    CVal b;
    if (e->depth++ > 100) return fail(e, "expression nested too deeply");
    bool ok = unary(e, &b);                              /* right-associative, binds -x on the right */
    e->depth--;
    return ok && binop(e, "**", *out, b, out);
}

static bool term(CEval *e, CVal *out) {
    if (!unary(e, out)) return false;
    while (is_op(e, "*") || is_op(e, "/") || is_op(e, "//") || is_op(e, "%")) {
        const char *op = peek(e)->text;
        e->pos++;
        CVal b;
        if (!unary(e, &b) || !binop(e, op, *out, b, out)) return false;
    }
    return true;
}

static bool expr(CEval *e, CVal *out) {
    if (e->depth++ > 100) return fail(e, "expression nested too deeply");
    bool ok = term(e, out);
    while (ok && (is_op(e, "+") || is_op(e, "-"))) {
        const char *op = peek(e)->text;
        e->pos++;
        CVal b;
        ok = term(e, &b) && binop(e, op, *out, b, out);
    }
    e->depth--;
    return ok;
}

bool front_ceval(IrCtx *c, const Tok *toks, int ntoks, int *pos, const ConstVec *env, CVal *out, const char **why) {
    CEval e = { c, toks, ntoks, *pos, 0, env, NULL };
    bool ok = expr(&e, out);
    *pos = e.pos;
    if (why) *why = e.why ? e.why : "not a constant expression";
    return ok;
}

const FrontArg *front_define_find(const FrontBinding *b, const char *name) {
    for (int i = b ? b->ndefines - 1 : -1; i >= 0; i--)
        if (b->defines[i].kind != FA_TENSOR && strcmp(b->defines[i].name, name) == 0) return &b->defines[i];
    return NULL;
}

ConstSym front_const_from_define(const FrontArg *d, const char *name, Span sp) {
    ConstSym s = { name, d->kind == FA_FLOAT ? CK_FLOAT : CK_INT, d->ival, d->kind == FA_FLOAT ? d->fval : (double)d->ival,
                   sp, NULL, NULL };
    return s;
}

static bool tok_op(const Tok *t, const char *op) { return t->kind == TK_OP && strcmp(t->text, op) == 0; }

/* RHS `pl.dynamic(...)`: a dimension variable. */
static bool is_dynamic_call(const Tok *t, int n, int k) {
    return k + 3 < n && t[k].kind == TK_NAME && !strcmp(t[k].text, "pl") && tok_op(&t[k + 1], ".") && t[k + 2].kind == TK_NAME &&
           !strcmp(t[k + 2].text, "dynamic") && tok_op(&t[k + 3], "(");
}

int front_ceval_assign(IrCtx *c, const Tok *t, int n, int pos, ConstVec *env, const char *scope, const FrontBinding *b) {
    const Tok *names[32];
    int nn = 0, k = pos;
    while (k + 1 < n && t[k].kind == TK_NAME && nn < 32) {
        names[nn++] = &t[k];
        if (!tok_op(&t[k + 1], ",")) break;
        k += 2;
    }
    if (!nn || k + 1 >= n) return 0;
    k++;
    if (tok_op(&t[k], ":") && nn == 1) {                 /* NAME: annotation = value */
        while (k < n && t[k].kind != TK_NEWLINE && !tok_op(&t[k], "=")) k++;
    }
    if (k >= n || !tok_op(&t[k], "=")) return 0;
    k++;
    int end = k;
    while (end < n && t[end].kind != TK_NEWLINE && t[end].kind != TK_EOF) end++;
    bool paren = nn > 1 && tok_op(&t[k], "(") && tok_op(&t[end - 1], ")");
    int q = paren ? k + 1 : k;
    CVal vals[32];
    const char *why = NULL;
    bool ok = true, dynamic = nn == 1 && is_dynamic_call(t, n, k);
    int nv = 0;
    while (ok && !dynamic) {
        if (nv == nn) { ok = false; why = "the value has more items than the targets"; break; }
        ok = front_ceval(c, t, n, &q, env, &vals[nv++], &why);
        if (!ok || !tok_op(&t[q], ",")) break;
        q++;
    }
    if (ok && !dynamic && paren) ok = tok_op(&t[q], ")") && ++q;
    if (ok && !dynamic && (q != end || nv != nn)) {
        ok = false;
        why = q != end ? "not a constant expression (ptoc evaluates + - * / // % ** min max abs int)"
                       : "the number of values differs from the number of targets";
    }
    for (int i = 0; i < nn; i++) {
        Span sp = names[i]->span;
        ConstSym s = { names[i]->text, CK_UNKNOWN, 0, 0, sp, why, scope };
        if (dynamic) s.kind = CK_DYNAMIC;
        else if (ok) s = (ConstSym){ names[i]->text, vals[i].is_float ? CK_FLOAT : CK_INT, vals[i].i, vals[i].f, sp, NULL, scope };
        const FrontArg *d = front_define_find(b, names[i]->text);
        if (d) { s = front_const_from_define(d, names[i]->text, sp); s.scope = scope; }
        vec_push(env, s);
    }
    return end;
}
