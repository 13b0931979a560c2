/* lex — Python tokenizer for the pl DSL and the ordinary Python around it.
 *
 * Requires: a SrcFile (text need not be NUL-terminated; len bounds it).
 * Produces: a TokVec ending in TK_EOF, with INDENT/DEDENT/NEWLINE tokens following Python's rules
 * (no NEWLINE/INDENT inside brackets, '\' joins lines, blank and comment-only lines are ignored).
 * Strings (any prefix of r/b/f/u, single/double, triple-quoted) become TK_STRING with their
 * contents; numbers accept hex/octal/binary, '_' separators, floats and exponents. Characters that
 * are not Python tokens become TK_ERROR tokens (harmless inside skipped code). Only unterminated
 * strings and inconsistent dedents are lexical errors. */
#include "front/front_internal.h"

#include <ctype.h>
#include <string.h>

typedef struct Lexer {
    const SrcFile *src;
    const char *s;
    size_t n, i;
    int line, col;
    int depth;                    /* bracket nesting */
    Span open[64];                /* positions of the open brackets */
    size_t open_at[64];
    int indents[128]; int nind;
    Interner *strs;
    DiagSink *diag;
    TokVec *out;
    bool ok;
} Lexer;

const char *front_tok_kind_name(TokKind k) {
    static const char *names[] = { "end of file", "end of line", "indent", "dedent", "name", "integer",
                                   "number", "string", "operator", "character" };
    return names[k];
}

static int ch(Lexer *L, size_t ahead) { return L->i + ahead < L->n ? (unsigned char)L->s[L->i + ahead] : 0; }

static void adv(Lexer *L) {
    if (L->i >= L->n) return;
    if (L->s[L->i] == '\n') { L->line++; L->col = 1; }
    else if (L->s[L->i] == '\t') L->col = ((L->col - 1) / 8 + 1) * 8 + 1;
    else L->col++;
    L->i++;
}

static Span span_at(Lexer *L, int line, int col, int len) { return (Span){ L->src, line, col, len > 0 ? len : 1 }; }

static Tok *emit(Lexer *L, TokKind k, const char *text, int line, int col, int len) {
    Tok t = { .kind = k, .text = text, .span = span_at(L, line, col, len) };
    vec_push(L->out, t);
    return &vec_last(L->out);
}

static void lex_error(Lexer *L, int line, int col, int len, const char *msg) {
    if (L->ok) diag_error(L->diag, span_at(L, line, col, len), "%s", msg);
    L->ok = false;
}

static bool is_id_start(int c) { return isalpha(c) || c == '_' || c >= 0x80; }
static bool is_id_char(int c) { return isalnum(c) || c == '_' || c >= 0x80; }

/* Handles indentation at the start of a logical line; returns false for blank/comment lines. */
static bool lex_indent(Lexer *L) {
    int width = 0;
    while (ch(L, 0) == ' ' || ch(L, 0) == '\t' || ch(L, 0) == '\f') {
        width = ch(L, 0) == '\t' ? (width / 8 + 1) * 8 : width + 1;
        adv(L);
    }
    int c = ch(L, 0);
    if (c == '\n' || c == '#' || (c == '\r' && ch(L, 1) == '\n') || L->i >= L->n) return false;
    int top = L->indents[L->nind - 1];
    if (width > top) {
        if (L->nind < 128) L->indents[L->nind++] = width;
        emit(L, TK_INDENT, "<indent>", L->line, L->col, 1);
    } else {
        while (width < L->indents[L->nind - 1]) {
            L->nind--;
            emit(L, TK_DEDENT, "<dedent>", L->line, L->col, 1);
        }
        if (width != L->indents[L->nind - 1]) {
            lex_error(L, L->line, 1, L->col, "unindent does not match any outer indentation level");
            L->indents[L->nind++] = width;
        }
    }
    return true;
}

static void lex_string(Lexer *L, int line, int col, bool raw) {
    int q = ch(L, 0);
    bool triple = ch(L, 1) == q && ch(L, 2) == q;
    size_t start_i = L->i;
    for (int k = 0; k < (triple ? 3 : 1); k++) adv(L);
    StrBuf sb = {0};
    for (;;) {
        if (L->i >= L->n || (!triple && ch(L, 0) == '\n')) {
            lex_error(L, line, col, 1, triple ? "unterminated triple-quoted string" : "unterminated string literal (add the closing quote)");
            break;
        }
        int c = ch(L, 0);
        if (c == q && (!triple || (ch(L, 1) == q && ch(L, 2) == q))) {
            for (int k = 0; k < (triple ? 3 : 1); k++) adv(L);
            break;
        }
        if (c == '\\' && L->i + 1 < L->n) {
            int e = ch(L, 1);
            adv(L);
            adv(L);
            if (raw) { sb_putc(&sb, '\\'); sb_putc(&sb, (char)e); continue; }
            switch (e) {
            case 'n': sb_putc(&sb, '\n'); break;
            case 't': sb_putc(&sb, '\t'); break;
            case '\n': break;
            default: sb_putc(&sb, (char)e); break;
            }
            continue;
        }
        sb_putc(&sb, (char)c);
        adv(L);
    }
    const char *text = intern(L->strs, sb_cstr(&sb), sb.len);
    sb_free(&sb);
    int len = L->line == line ? (int)(L->i - start_i) : 1;
    emit(L, TK_STRING, text, line, col, len);
}

static void lex_number(Lexer *L, int line, int col) {
    char buf[128];
    int n = 0;
    bool is_float = false;
    size_t start = L->i;
    if (ch(L, 0) == '0' && strchr("xXoObB", ch(L, 1)) && ch(L, 1)) {
        int base = (ch(L, 1) == 'x' || ch(L, 1) == 'X') ? 16 : (ch(L, 1) == 'o' || ch(L, 1) == 'O') ? 8 : 2;
        adv(L);
        adv(L);
        uint64_t v = 0;
        while (isxdigit(ch(L, 0)) || ch(L, 0) == '_') {
            if (ch(L, 0) != '_') {
                int d = isdigit(ch(L, 0)) ? ch(L, 0) - '0' : (tolower(ch(L, 0)) - 'a' + 10);
                v = v * (uint64_t)base + (uint64_t)d;
            }
            adv(L);
        }
        Tok *t = emit(L, TK_INT, NULL, line, col, (int)(L->i - start));
        t->ival = (int64_t)v;
        t->text = intern(L->strs, L->s + start, L->i - start);
        return;
    }
    for (;;) {
        int c = ch(L, 0);
        if (isdigit(c)) { if (n < 126) buf[n++] = (char)c; }
        else if (c == '_') {}
        else if (c == '.' && !is_float) { is_float = true; if (n < 126) buf[n++] = '.'; }
        else if ((c == 'e' || c == 'E') && (isdigit(ch(L, 1)) || ((ch(L, 1) == '+' || ch(L, 1) == '-') && isdigit(ch(L, 2))))) {
            is_float = true;
            if (n < 125) { buf[n++] = 'e'; buf[n++] = (char)ch(L, 1); }
            adv(L);
        } else break;
        adv(L);
    }
    if (ch(L, 0) == 'j' || ch(L, 0) == 'J') { is_float = true; adv(L); }
    buf[n] = 0;
    Tok *t = emit(L, is_float ? TK_FLOAT : TK_INT, NULL, line, col, (int)(L->i - start));
    t->text = intern(L->strs, L->s + start, L->i - start);
    if (is_float) t->fval = strtod(buf, NULL);
    else {
        unsigned long long v = strtoull(buf, NULL, 10);
        t->ival = v > (unsigned long long)INT64_MAX ? INT64_MAX : (int64_t)v;
    }
}

static const char *const ops3[] = { "**=", "//=", ">>=", "<<=", "...", NULL };
static const char *const ops2[] = { "->", ":=", "**", "//", "<<", ">>", "<=", ">=", "==", "!=", "+=", "-=", "*=",
                                    "/=", "%=", "&=", "|=", "^=", "@=", NULL };

static void lex_op(Lexer *L, int line, int col) {
    for (int k = 0; ops3[k]; k++)
        if (L->i + 3 <= L->n && strncmp(L->s + L->i, ops3[k], 3) == 0) {
            emit(L, TK_OP, intern_cstr(L->strs, ops3[k]), line, col, 3);
            adv(L); adv(L); adv(L);
            return;
        }
    for (int k = 0; ops2[k]; k++)
        if (L->i + 2 <= L->n && strncmp(L->s + L->i, ops2[k], 2) == 0) {
            emit(L, TK_OP, intern_cstr(L->strs, ops2[k]), line, col, 2);
            adv(L); adv(L);
            return;
        }
    int c = ch(L, 0);
    if (strchr("([{", c)) {
        if (L->depth < 64) { L->open[L->depth] = span_at(L, line, col, 1); L->open_at[L->depth] = L->i; }
        L->depth++;
    }
    if (strchr(")]}", c) && L->depth > 0) L->depth--;
    TokKind k = strchr("+-*/%@&|^~<>()[]{},:.;=", c) ? TK_OP : TK_ERROR;
    emit(L, k, intern(L->strs, L->s + L->i, 1), line, col, 1);
    adv(L);
}

/* One token (or skip of whitespace/comment/continuation). Returns false at end of input. */
static void lex_one(Lexer *L, bool *at_line_start) {
    int c = ch(L, 0);
    int line = L->line, col = L->col;
    if (c == ' ' || c == '\t' || c == '\f' || c == '\r') { adv(L); return; }
    if (c == '#') { while (L->i < L->n && ch(L, 0) != '\n') adv(L); return; }
    if (c == '\\' && (ch(L, 1) == '\n' || (ch(L, 1) == '\r' && ch(L, 2) == '\n'))) {
        adv(L);
        if (ch(L, 0) == '\r') adv(L);
        adv(L);
        return;
    }
    if (c == '\n') {
        if (L->depth == 0) { emit(L, TK_NEWLINE, "<newline>", line, col, 1); *at_line_start = true; }
        adv(L);
        return;
    }
    if (is_id_start(c)) {
        size_t st = L->i;
        while (is_id_char(ch(L, 0))) adv(L);
        size_t len = L->i - st;
        int q = ch(L, 0);
        if ((q == '\'' || q == '"') && len <= 2) {
            bool prefix = true, raw = false;
            for (size_t k = st; k < L->i; k++) {
                int pc = tolower((unsigned char)L->s[k]);
                if (!strchr("rbfu", pc)) prefix = false;
                if (pc == 'r') raw = true;
            }
            if (prefix) { lex_string(L, line, col, raw); return; }
        }
        emit(L, TK_NAME, intern(L->strs, L->s + st, len), line, col, (int)len);
        return;
    }
    if (isdigit(c) || (c == '.' && isdigit(ch(L, 1)))) { lex_number(L, line, col); return; }
    if (c == '\'' || c == '"') { lex_string(L, line, col, false); return; }
    lex_op(L, line, col);
}

bool front_lex(const SrcFile *src, Interner *strs, DiagSink *diag, TokVec *out) {
    Lexer L = { .src = src, .s = src->text, .n = src->len, .line = 1, .col = 1, .strs = strs, .diag = diag,
                .out = out, .ok = true, .nind = 1 };
    bool at_line_start = true;
    while (L.i < L.n) {
        if (at_line_start && L.depth == 0) {
            if (!lex_indent(&L)) {                       /* blank or comment-only line */
                while (L.i < L.n && ch(&L, 0) != '\n') adv(&L);
                if (L.i < L.n) adv(&L);
                continue;
            }
            at_line_start = false;
        }
        lex_one(&L, &at_line_start);
    }
    if (L.depth > 0) {
        int k = L.depth <= 64 ? L.depth - 1 : 63;
        Span o = L.open[k];
        char msg[64];
        snprintf(msg, sizeof msg, "'%c' was never closed", L.s[L.open_at[k]]);
        lex_error(&L, o.line, o.col, 1, msg);
    }
    if (out->len && vec_last(out).kind != TK_NEWLINE && vec_last(out).kind != TK_DEDENT && vec_last(out).kind != TK_INDENT)
        emit(&L, TK_NEWLINE, "<newline>", L.line, L.col, 1);
    while (L.nind > 1) { L.nind--; emit(&L, TK_DEDENT, "<dedent>", L.line, L.col, 1); }
    emit(&L, TK_EOF, "<eof>", L.line, L.col, 1);
    return L.ok;
}
