/* parse — the top level of the front end: token helpers, symbol tables, skipping of ordinary Python,
 * @pl.program classes (printed form) and @pl.jit functions (user form).
 *
 * Requires: front_lex; parse_type.c, parse_expr.c, parse_stmt.c, sugar.c.
 * Produces: front_parse, a Program or NULL after the first error (reported through c->diag).
 * Top-level statements that are not pl-decorated classes/functions are skipped by indentation
 * (the lexer already handles brackets, strings, comments and continuations); @pl.jit.incore /
 * inline helpers are noted for their first call (helpers.c). Module-level
 * `NAME = <int>` statements are recorded as compile-time constants for the user form. */
#include "front/front_internal.h"

#include <string.h>

/* ---------------------------------------------------------------- tokens */
Tok *front_peek(Parser *p, int ahead) {
    int i = p->pos + ahead;
    if (i >= p->ntoks) i = p->ntoks - 1;
    if (i < 0) i = 0;
    return &p->toks[i];
}

Tok *front_next(Parser *p) {
    Tok *t = front_peek(p, 0);
    if (p->pos < p->ntoks - 1) p->pos++;
    return t;
}

bool front_is_op_at(Parser *p, int ahead, const char *op) {
    Tok *t = front_peek(p, ahead);
    return t->kind == TK_OP && strcmp(t->text, op) == 0;
}

bool front_is_op(Parser *p, const char *op) { return front_is_op_at(p, 0, op); }

bool front_is_name(Parser *p, const char *name) {
    Tok *t = front_peek(p, 0);
    return t->kind == TK_NAME && strcmp(t->text, name) == 0;
}

bool front_accept_op(Parser *p, const char *op) {
    if (!front_is_op(p, op)) return false;
    front_next(p);
    return true;
}

void front_error(Parser *p, Span sp, const char *fmt, ...) {
    if (!p->failed) {
        va_list ap;
        va_start(ap, fmt);
        diag_vadd(p->c->diag, DIAG_ERROR, sp, NULL, fmt, ap);
        va_end(ap);
    }
    p->failed = true;
}

static const char *tok_desc(Parser *p, Tok *t) {
    if (t->kind == TK_NAME || t->kind == TK_OP || t->kind == TK_INT || t->kind == TK_FLOAT || t->kind == TK_ERROR)
        return arena_printf(p->c->arena, "'%s'", t->text);
    if (t->kind == TK_STRING) return "a string";
    return front_tok_kind_name(t->kind);
}

bool front_expect_op(Parser *p, const char *op, const char *what) {
    if (p->failed) return false;
    if (front_accept_op(p, op)) return true;
    Tok *t = front_peek(p, 0);
    front_error(p, t->span, "expected '%s' %s, found %s", op, what, tok_desc(p, t));
    return false;
}

const char *front_expect_name(Parser *p, const char *what, Span *sp) {
    if (p->failed) return NULL;
    Tok *t = front_peek(p, 0);
    if (t->kind != TK_NAME) {
        front_error(p, t->span, "expected %s, found %s", what, tok_desc(p, t));
        return NULL;
    }
    if (sp) *sp = t->span;
    front_next(p);
    return t->text;
}

Span front_span_join(Span a, Span b) {
    if (a.line != b.line || b.col < a.col) return a;
    a.len = b.col + b.len - a.col;
    return a;
}

Span front_prev_span(Parser *p) { return p->pos > 0 ? p->toks[p->pos - 1].span : p->toks[0].span; }

const char *front_intern(Parser *p, const char *s) { return intern_cstr(p->c->strs, s); }

/* ---------------------------------------------------------------- symbols */
Sym *front_sym_find(Parser *p, const char *name) {
    for (int i = p->syms.len - 1; i >= 0; i--)
        if (strcmp(p->syms.data[i].name, name) == 0) return &p->syms.data[i];
    return NULL;
}

void front_rebind(Parser *p, const char *name, Var *v) {
    Sym *s = front_sym_find(p, name);
    if (s) { s->var = v; return; }
    vec_push(&p->syms, ((Sym){ front_intern(p, name), v, 0, false, p->loop_depth, NULL }));
}

Var *front_bind(Parser *p, const char *name, Type *t, Span sp) {
    Sym *s = front_sym_find(p, name);
    if (s && s->var) return s->var;
    Var *v = ir_var_new(p->c, name, t);
    v->span = sp;
    front_rebind(p, name, v);
    return v;
}

bool front_const_lookup(Parser *p, const char *name, int64_t *out) {
    Sym *s = front_sym_find(p, name);
    if (s && !s->var && !s->lit) { *out = s->cval; return true; }
    if (s) return false;
    for (int i = p->consts.len - 1; i >= 0; i--)
        if (strcmp(p->consts.data[i].name, name) == 0) {
            if (p->consts.data[i].too_big) {
                front_error(p, front_prev_span(p), "module constant '%s' does not fit in a 64-bit integer", name);
                return false;
            }
            *out = p->consts.data[i].cval;
            return true;
        }
    return false;
}

bool front_int_literal(Parser *p, const Tok *t, bool negate, int64_t *out) {
    if (!t->too_big && t->uval <= (uint64_t)INT64_MAX) {
        *out = negate ? -(int64_t)t->uval : (int64_t)t->uval;
        return true;
    }
    if (!t->too_big && negate && t->uval == (uint64_t)INT64_MAX + 1) {
        *out = INT64_MIN;
        return true;
    }
    front_error(p, t->span, "integer literal %s%s does not fit in a 64-bit integer (-9223372036854775808 .. 9223372036854775807)",
                negate ? "-" : "", t->text);
    return false;
}

bool front_is_identifier(const char *s) {
    static const char *const keywords[] = {
        "False", "None", "True", "and", "as", "assert", "async", "await", "break", "class", "continue", "def", "del",
        "elif", "else", "except", "finally", "for", "from", "global", "if", "import", "in", "is", "lambda",
        "nonlocal", "not", "or", "pass", "raise", "return", "try", "while", "with", "yield", NULL };
    const unsigned char *c = (const unsigned char *)s;
    if (!*c || (*c >= '0' && *c <= '9')) return false;
    for (; *c; c++)
        if (!(*c == '_' || (*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') || (*c >= '0' && *c <= '9') || *c >= 0x80)) return false;
    for (int i = 0; keywords[i]; i++)
        if (strcmp(s, keywords[i]) == 0) return false;
    return true;
}

Expr *front_fold(Parser *p, Expr *e) {
    int before = p->c->diag->nerrors;
    Expr *f = ir_fold(p->c, e);
    if (p->c->diag->nerrors > before) p->failed = true;
    return f;
}

/* ---------------------------------------------------------------- skipping */
void front_skip_statement(Parser *p) {
    while (front_peek(p, 0)->kind != TK_NEWLINE && front_peek(p, 0)->kind != TK_EOF) front_next(p);
    if (front_peek(p, 0)->kind == TK_NEWLINE) front_next(p);
    if (front_peek(p, 0)->kind != TK_INDENT) return;
    int depth = 0;
    do {
        Tok *t = front_next(p);
        if (t->kind == TK_INDENT) depth++;
        else if (t->kind == TK_DEDENT) depth--;
        else if (t->kind == TK_EOF) return;
    } while (depth > 0);
}

/* '@' dotted [ '(' ... ')' ] NEWLINE; returns the dotted name (NULL if not a plain dotted name). */
const char *front_read_decorator(Parser *p, int *args_pos) {
    front_next(p);                                   /* '@' */
    const char *name = NULL;
    *args_pos = -1;
    if (front_peek(p, 0)->kind == TK_NAME) {
        Span sp;
        name = front_parse_dotted(p, &sp);
        if (front_is_op(p, "(")) *args_pos = p->pos;
    }
    while (front_peek(p, 0)->kind != TK_NEWLINE && front_peek(p, 0)->kind != TK_EOF) front_next(p);
    if (front_peek(p, 0)->kind == TK_NEWLINE) front_next(p);
    return name;
}

typedef struct TopItem { int pos; int deco_args; const char *name; Span span; } TopItem;

typedef struct Scan {
    VEC(TopItem) jits;
    TopItem program;
    bool has_program;
} Scan;

static void scan_const(Parser *p) {
    Tok *n = front_peek(p, 0);
    int k = 2;
    bool neg = front_is_op_at(p, 2, "-");
    if (neg) k = 3;
    Tok *v = front_peek(p, k);
    if (!front_is_op_at(p, 1, "=") || v->kind != TK_INT || front_peek(p, k + 1)->kind != TK_NEWLINE) return;
    /* ordinary Python may hold any integer; only a use of it in the DSL is an error */
    bool fits = !v->too_big && (v->uval <= (uint64_t)INT64_MAX || (neg && v->uval == (uint64_t)INT64_MAX + 1));
    int64_t val = !fits ? 0 : v->uval > (uint64_t)INT64_MAX ? INT64_MIN : neg ? -(int64_t)v->uval : (int64_t)v->uval;
    vec_push(&p->consts, ((Sym){ n->text, NULL, val, !fits, 0, NULL }));
}

static void scan_top(Parser *p, Scan *s) {
    while (front_peek(p, 0)->kind != TK_EOF) {
        Tok *t = front_peek(p, 0);
        if (t->kind == TK_NEWLINE || t->kind == TK_DEDENT) { front_next(p); continue; }
        if (t->kind == TK_INDENT) { front_skip_statement(p); continue; }
        bool is_jit = false, is_prog = false;
        int args = -1, helper = -1;
        while (front_is_op(p, "@")) {
            int a;
            const char *d = front_read_decorator(p, &a);
            if (d && front_helper_kind(d) >= 0) { helper = front_helper_kind(d); args = a; }
            if (d && strcmp(d, "pl.jit") == 0) is_jit = true;
            if (d && strcmp(d, "pl.program") == 0) is_prog = true;
            if (d && (strcmp(d, "pl.jit") == 0 || strcmp(d, "pl.program") == 0)) args = a;
        }
        Tok *kw = front_peek(p, 0), *nm = front_peek(p, 1);
        if (is_prog && kw->kind == TK_NAME && strcmp(kw->text, "class") == 0 && !s->has_program && nm->kind == TK_NAME) {
            s->program = (TopItem){ p->pos, args, nm->text, nm->span };
            s->has_program = true;
        } else if (is_jit && kw->kind == TK_NAME && strcmp(kw->text, "def") == 0 && nm->kind == TK_NAME) {
            vec_push(&s->jits, ((TopItem){ p->pos, args, nm->text, nm->span }));
        } else if (helper >= 0 && kw->kind == TK_NAME && strcmp(kw->text, "def") == 0 && nm->kind == TK_NAME) {
            front_note_helper(p, (FuncType)helper, p->pos, args, nm->text);
        } else if (kw->kind == TK_NAME)
            scan_const(p);
        front_skip_statement(p);
    }
}

static Program *select_and_parse(Parser *p, Scan *s, const char *entry) {
    bool entry_is_jit = false;
    for (int i = 0; entry && i < s->jits.len; i++) entry_is_jit |= strcmp(s->jits.data[i].name, entry) == 0;
    if (s->has_program && !entry_is_jit) {
        p->pos = s->program.pos;
        return front_parse_program_class(p) ? p->prog : NULL;
    }
    if (!s->jits.len) {
        front_error(p, SPAN_NONE, "no @pl.jit function or @pl.program class found in %s", p->src->path);
        return NULL;
    }
    int pick = 0;
    if (entry) {
        pick = -1;
        for (int i = 0; i < s->jits.len; i++)
            if (strcmp(s->jits.data[i].name, entry) == 0) pick = i;
        if (pick < 0) {
            StrBuf sb = { 0 };
            for (int i = 0; i < s->jits.len; i++) sb_printf(&sb, "%s%s", i ? ", " : "", s->jits.data[i].name);
            front_error(p, SPAN_NONE, "no @pl.jit function named '%s' in %s (found: %s)", entry, p->src->path, sb_cstr(&sb));
            sb_free(&sb);
            return NULL;
        }
    }
    p->pos = s->jits.data[pick].pos;
    return front_parse_jit(p, p->pos) ? p->prog : NULL;
}

Program *front_parse(IrCtx *c, const SrcFile *src, const char *entry) { return front_parse_bound(c, src, entry, NULL); }

Program *front_parse_bound(IrCtx *c, const SrcFile *src, const char *entry, const FrontBinding *b) {
    TokVec toks = { 0 };
    int errors_before = c->diag->nerrors;
    if (!front_lex(src, c->strs, c->diag, &toks)) { vec_free(&toks); return NULL; }
    Parser p = { .c = c, .src = src, .toks = toks.data, .ntoks = toks.len, .binding = b };
    Scan s = { 0 };
    scan_top(&p, &s);
    Program *prog = select_and_parse(&p, &s, entry);
    vec_free(&s.jits);
    vec_free(&p.syms);
    vec_free(&p.consts);
    vec_free(&p.variables);
    vec_free(&p.helpers);
    vec_free(&toks);
    if (p.failed || c->diag->nerrors > errors_before) return NULL;
    return prog;
}
