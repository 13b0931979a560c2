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

/* A located error for a constant position reading a name without a value. */
static void const_error(Parser *p, const ConstSym *c, Span sp) {
    const char *name = c->name;
    if (c->kind == CK_DYNAMIC)
        front_error(p, sp, "'%s' is a pl.dynamic dimension (line %d); ptoc needs a concrete extent for it: pass -D %s=VALUE",
                    name, c->span.line, name);
    else if (c->kind == CK_UNBOUND)
        front_error(p, sp, "'%s' is a parameter of '%s' (line %d) without a value: give it a default, call %s(...) with a "
                    "literal %s in this file, or pass -D %s=VALUE (names of %s that can be bound: %s)",
                    name, c->scope, c->span.line, strrchr(c->scope, '.') ? strrchr(c->scope, '.') + 1 : c->scope, name, name,
                    c->scope, c->why ? c->why : name);
    else if (c->scope)
        front_error(p, sp, "'%s' is assigned in '%s' at line %d to a value ptoc cannot evaluate (%s); pass -D %s=VALUE",
                    name, c->scope, c->span.line, c->why ? c->why : "not a constant", name);
    else
        front_error(p, sp, "module constant '%s' (line %d) has no value ptoc can evaluate (%s); pass -D %s=VALUE",
                    name, c->span.line, c->why ? c->why : "not a constant", name);
}

bool front_const_lookup(Parser *p, const char *name, int64_t *out) {
    Sym *s = front_sym_find(p, name);
    if (s && !s->var && !s->lit) { *out = s->cval; return true; }
    if (s) return false;
    const ConstSym *c = front_const_find(&p->consts, name);
    if (!c || c->kind == CK_FLOAT) return false;
    if (c->kind != CK_INT) { const_error(p, c, front_prev_span(p)); return false; }
    *out = c->ival;
    return true;
}

Expr *front_const_expr(Parser *p, const char *name, Span sp) {
    const ConstSym *c = front_const_find(&p->consts, name);
    if (!c) return NULL;
    Expr *e = NULL;
    if (c->kind == CK_INT) e = ir_const_int(p->c, c->ival, DT_INDEX);
    else if (c->kind == CK_FLOAT) e = ir_const_float(p->c, c->fval, DT_FP32);   /* like a float literal */
    else { const_error(p, c, sp); return NULL; }
    e->span = sp;
    return e;
}

Expr *front_dynamic_dim(Parser *p, Span sp) {
    /* pl.dynamic("M"): the name is the string argument */
    if (!front_expect_op(p, "(", "after pl.dynamic")) return NULL;
    Tok *t = front_peek(p, 0);
    if (t->kind != TK_STRING) { front_error(p, t->span, "pl.dynamic expects the dimension's name as a string, e.g. pl.dynamic(\"M\")"); return NULL; }
    front_next(p);
    if (!front_expect_op(p, ")", "to close pl.dynamic(...)")) return NULL;
    const FrontArg *d = front_define_find(p->binding, t->text);
    if (!d || d->kind == FA_FLOAT) {
        front_error(p, front_span_join(sp, front_prev_span(p)),
                    "pl.dynamic dimension '%s' needs a concrete extent for ptoc: pass -D %s=VALUE", t->text, t->text);
        return NULL;
    }
    Expr *e = ir_const_int(p->c, d->ival, DT_INDEX);
    e->span = sp;
    return e;
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

/* ---------------------------------------------------------------- entries (language.md §1.6) */
#define MAX_CHAIN 8
typedef struct TopItem {
    int pos; int deco_args; const char *name; Span span;
    const char *path;                          /* dotted: "P", "build.P", "TestX.get_program.P" */
    FrontFrame chain[MAX_CHAIN]; int nchain;   /* the enclosing defs / classes */
} TopItem;

typedef VEC(FrontExtern) ExternVec;
typedef struct Scan {
    VEC(TopItem) jits;
    VEC(TopItem) programs;                     /* file order, any depth */
    ExternVec externs;                         /* module-level @pl.function / @pl.inline defs */
} Scan;

typedef struct Decos { bool jit, prog, fn, inl; int args, helper; } Decos;   /* helper: a @pl.jit.<kind> FuncType, or -1 */

static Decos read_decorators(Parser *p) {
    Decos d = { false, false, false, false, -1, -1 };
    while (front_is_op(p, "@")) {
        int a;
        const char *n = front_read_decorator(p, &a);
        if (!n) continue;
        if (front_helper_kind(n) >= 0) { d.helper = front_helper_kind(n); d.args = a; }
        bool jit = !strcmp(n, "pl.jit"), prog = !strcmp(n, "pl.program"), fn = !strcmp(n, "pl.function");
        bool inl = !strcmp(n, "pl.inline");
        if (jit || prog || fn || inl) d.args = a;
        d.jit |= jit; d.prog |= prog; d.fn |= fn; d.inl |= inl;
    }
    return d;
}

static const char *item_path(Parser *p, const FrontFrame *chain, int n, const char *name) {
    StrBuf sb = { 0 };
    for (int i = 0; i < n; i++) sb_printf(&sb, "%s.", chain[i].name);
    sb_puts(&sb, name);
    const char *r = front_intern(p, sb_cstr(&sb));
    sb_free(&sb);
    return r;
}

/* The statements of one block (the module, or a def / class body): records the pl-decorated items,
 * descends into other defs and classes (builders, test classes), skips everything else. */
static void scan_block(Parser *p, Scan *s, FrontFrame *chain, int nchain) {
    while (front_peek(p, 0)->kind != TK_EOF) {
        Tok *t = front_peek(p, 0);
        if (t->kind == TK_NEWLINE) { front_next(p); continue; }
        if (t->kind == TK_DEDENT) { front_next(p); if (nchain) return; continue; }
        if (t->kind == TK_INDENT) { front_skip_statement(p); continue; }
        Decos d = read_decorators(p);
        Tok *kw = front_peek(p, 0), *nm = front_peek(p, 1);
        bool is_class = kw->kind == TK_NAME && !strcmp(kw->text, "class") && nm->kind == TK_NAME;
        bool is_def = kw->kind == TK_NAME && !strcmp(kw->text, "def") && nm->kind == TK_NAME;
        TopItem it = { p->pos, d.args, nm->text, nm->span, NULL, { { 0 } }, nchain };
        if (is_class && d.prog) {
            it.path = item_path(p, chain, nchain, nm->text);
            memcpy(it.chain, chain, sizeof(FrontFrame) * (size_t)nchain);
            vec_push(&s->programs, it);
        } else if (is_def && d.jit && nchain == 0) {
            it.path = nm->text;
            vec_push(&s->jits, it);
        } else if (is_def && d.helper >= 0 && nchain == 0) {
            front_note_helper(p, (FuncType)d.helper, p->pos, d.args, nm->text);
        } else if (is_def && (d.fn || d.inl) && nchain == 0) {
            vec_push(&s->externs, ((FrontExtern){ nm->text, p->pos, d.args, d.inl && !d.fn, nm->span }));
        } else if ((is_class || is_def) && !d.jit && !d.fn && !d.inl && d.helper < 0 && nchain < MAX_CHAIN) {
            FrontFrame f = { is_def, nm->text, p->pos };
            while (front_peek(p, 0)->kind != TK_NEWLINE && front_peek(p, 0)->kind != TK_EOF) front_next(p);
            if (front_peek(p, 0)->kind == TK_NEWLINE) front_next(p);
            if (front_peek(p, 0)->kind != TK_INDENT) continue;       /* a one-line body */
            front_next(p);
            chain[nchain] = f;
            scan_block(p, s, chain, nchain + 1);
            continue;
        }
        front_skip_statement(p);
    }
}

/* The token index after the statement (with its block) at pos. */
static int statement_end(Parser *p, int pos) {
    int save = p->pos;
    p->pos = pos;
    front_skip_statement(p);
    int end = p->pos;
    p->pos = save;
    return end;
}

/* The module-level kernels the class at it calls by bare name, and those they call in turn (two
 * definitions of one called name: an error). */
static bool class_externs(Parser *p, Scan *s, const TopItem *it, ExternVec *out) {
    for (int r = -1; r < out->len; r++) {                /* r = -1: the class itself */
        int from = r < 0 ? it->pos : out->data[r].pos;
        int end = statement_end(p, from);
        for (int i = from; i + 1 < end; i++) {
            Tok *t = &p->toks[i];
            if (t->kind != TK_NAME || !(p->toks[i + 1].kind == TK_OP && !strcmp(p->toks[i + 1].text, "("))) continue;
            if (i > 0 && ((p->toks[i - 1].kind == TK_OP && !strcmp(p->toks[i - 1].text, ".")) ||
                          (p->toks[i - 1].kind == TK_NAME && !strcmp(p->toks[i - 1].text, "def")))) continue;
            const FrontExtern *found = NULL;
            for (int k = 0; k < s->externs.len; k++) {
                const FrontExtern *e = &s->externs.data[k];
                if (strcmp(e->name, t->text) != 0) continue;
                if (found) {
                    front_error(p, e->span, "two module-level functions are named '%s' (lines %d and %d); a program calling '%s' needs one",
                                e->name, found->span.line, e->span.line, e->name);
                    return false;
                }
                found = e;
            }
            if (found && found->inline_) {    /* no InlineFunctions pass in ptoc yet: say so, do not miscompile */
                front_error(p, t->span, "'%s' is a module-level @pl.inline function (line %d): ptoc cannot expand inline functions "
                            "yet; make it @pl.function(type=pl.FunctionType.InCore) or write its body at the call site",
                            found->name, found->span.line);
                return false;
            }
            bool dup = false;
            for (int k = 0; found && k < out->len; k++) dup |= out->data[k].pos == found->pos;
            if (found && !dup) vec_push(out, *found);
        }
    }
    return true;
}

const FrontExtern *front_extern_find(Parser *p, const char *name) {
    for (int i = 0; i < p->nexterns; i++)
        if (strcmp(p->externs[i].name, name) == 0) return &p->externs[i];
    return NULL;
}

static bool parse_program_item(Parser *p, Scan *s, const TopItem *it) {
    ExternVec ext = { 0 };
    bool ok = class_externs(p, s, it, &ext);
    p->externs = ext.data;
    p->nexterns = ext.len;
    if (ok) front_builder_scope(p, it->chain, it->nchain, it->pos);
    p->pos = it->pos;
    ok = ok && front_parse_program_class(p);
    p->externs = NULL;
    p->nexterns = 0;
    vec_free(&ext);
    return ok;
}

static void list_candidates(Scan *s, StrBuf *sb) {
    for (int i = 0; i < s->jits.len; i++) sb_printf(sb, "%s%s (@pl.jit)", sb->len ? ", " : "", s->jits.data[i].path);
    for (int i = 0; i < s->programs.len; i++) sb_printf(sb, "%s%s (@pl.program)", sb->len ? ", " : "", s->programs.data[i].path);
}

/* The item entry names: a jit name, a class path, or a class name / path suffix naming one class. */
static const TopItem *find_entry(Parser *p, Scan *s, const char *entry, bool *is_jit) {
    *is_jit = false;
    for (int i = 0; i < s->jits.len; i++)
        if (!strcmp(s->jits.data[i].name, entry)) { *is_jit = true; return &s->jits.data[i]; }
    const TopItem *hit = NULL;
    int nhits = 0;
    StrBuf sb = { 0 };
    size_t n = strlen(entry);
    for (int i = 0; i < s->programs.len; i++) {
        const TopItem *it = &s->programs.data[i];
        if (!strcmp(it->path, entry)) return it;
        size_t m = strlen(it->path);
        if (m > n && it->path[m - n - 1] == '.' && !strcmp(it->path + m - n, entry)) {
            hit = it;
            sb_printf(&sb, "%s%s", nhits++ ? ", " : "", it->path);
        }
    }
    if (nhits > 1) {
        front_error(p, SPAN_NONE, "'%s' names %d @pl.program classes in %s: %s; select one by its path, e.g. %s:%s",
                    entry, nhits, p->src->path, sb_cstr(&sb), p->src->path, s->programs.data[0].path);
        hit = NULL;
    }
    sb_free(&sb);
    return hit;
}

static const TopItem *default_entry(Parser *p, Scan *s, bool note) {
    const TopItem *pick = NULL;
    if (s->jits.len) pick = &s->jits.data[0];
    for (int i = 0; !pick && i < s->programs.len; i++)
        if (s->programs.data[i].nchain == 0) pick = &s->programs.data[i];
    if (!pick && s->programs.len) pick = &s->programs.data[0];
    if (note && pick && s->jits.len + s->programs.len > 1) {
        StrBuf sb = { 0 };
        list_candidates(s, &sb);
        diag_add(p->c->diag, DIAG_NOTE, pick->span, NULL, "%s has several entries (%s); running '%s' — select one with %s:NAME",
                 p->src->path, sb_cstr(&sb), pick->path, p->src->path);
        sb_free(&sb);
    }
    return pick;
}

static Program *select_and_parse(Parser *p, Scan *s, const char *entry) {
    if (!s->jits.len && !s->programs.len) {
        front_error(p, SPAN_NONE, "no @pl.jit function or @pl.program class found in %s", p->src->path);
        return NULL;
    }
    bool is_jit = false;
    const TopItem *it = entry ? find_entry(p, s, entry, &is_jit) : default_entry(p, s, true);
    if (p->failed) return NULL;
    bool fn_entry = false;                  /* legacy: prog.py:func names a function of the default program */
    if (!it && s->programs.len && !strchr(entry, '.')) { it = default_entry(p, s, false); fn_entry = true; }
    if (!entry || fn_entry) is_jit = s->jits.len && it == &s->jits.data[0];
    if (!it) {
        StrBuf sb = { 0 };
        list_candidates(s, &sb);
        front_error(p, SPAN_NONE, "no @pl.jit function or @pl.program class named '%s' in %s (entries: %s)", entry, p->src->path, sb_cstr(&sb));
        sb_free(&sb);
        return NULL;
    }
    bool ok = is_jit ? front_parse_jit(p, it->pos) : parse_program_item(p, s, it);
    if (ok && fn_entry && !ir_program_find(p->prog, entry)) {
        StrBuf sb = { 0 };
        list_candidates(s, &sb);
        for (int i = 0; i < p->prog->nfuncs; i++) sb_printf(&sb, ", %s.%s (function)", it->path, p->prog->funcs[i]->name);
        front_error(p, SPAN_NONE, "no @pl.jit function, @pl.program class or function named '%s' in %s (entries: %s)",
                    entry, p->src->path, sb_cstr(&sb));
        sb_free(&sb);
        return NULL;
    }
    return ok ? p->prog : NULL;
}

Program *front_parse(IrCtx *c, const SrcFile *src, const char *entry) { return front_parse_bound(c, src, entry, NULL); }

Program *front_parse_bound(IrCtx *c, const SrcFile *src, const char *entry, const FrontBinding *b) {
    TokVec toks = { 0 };
    int errors_before = c->diag->nerrors;
    if (!front_lex(src, c->strs, c->diag, &toks)) { vec_free(&toks); return NULL; }
    Parser p = { .c = c, .src = src, .toks = toks.data, .ntoks = toks.len, .binding = b };
    front_module_env(c, src, toks.data, toks.len, b, &p.consts);
    Scan s = { 0 };
    FrontFrame chain[MAX_CHAIN];
    scan_block(&p, &s, chain, 0);
    Program *prog = select_and_parse(&p, &s, entry);
    vec_free(&s.jits);
    vec_free(&s.programs);
    vec_free(&s.externs);
    vec_free(&p.syms);
    vec_free(&p.consts);
    vec_free(&p.variables);
    vec_free(&p.helpers);
    vec_free(&toks);
    if (p.failed || c->diag->nerrors > errors_before) return NULL;
    return prog;
}
