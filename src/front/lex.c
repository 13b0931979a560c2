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
#include <stdlib.h>
#include <string.h>

typedef struct Lexer {
    const SrcFile *src;
    const char *s;
    size_t n, i;
    int line, col;
    int depth;                    /* bracket nesting */
    Span open[64];                /* positions of the open brackets */
    size_t open_at[64];
    int indents[100]; int nind;
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
    else L->col++;                /* columns count bytes, as the diagnostics' caret does */
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
        if (L->nind == 100) {                /* Python's limit too */
            lex_error(L, L->line, L->col, 1, "too many levels of indentation (at most 99)");
            return true;
        }
        L->indents[L->nind++] = width;
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

/* Accumulates digit d into v in base `base`; false once the value exceeds uint64. */
static bool acc_digit(uint64_t *v, unsigned base, unsigned d) {
    if (*v > (UINT64_MAX - d) / base) return false;
    *v = *v * base + d;
    return true;
}

static int digit_value(int c) { return isdigit(c) ? c - '0' : isxdigit(c) ? tolower(c) - 'a' + 10 : 99; }

static void int_token(Lexer *L, int line, int col, size_t start, uint64_t v, bool fits) {
    Tok *t = emit(L, TK_INT, NULL, line, col, (int)(L->i - start));
    t->text = intern(L->strs, L->s + start, L->i - start);
    t->uval = v;
    t->too_big = !fits;
    t->ival = fits && v <= (uint64_t)INT64_MAX ? (int64_t)v : INT64_MAX;
}

static void lex_number(Lexer *L, int line, int col) {
    size_t start = L->i;
    if (ch(L, 0) == '0' && ch(L, 1) && strchr("xXoObB", ch(L, 1))) {
        unsigned base = (ch(L, 1) == 'x' || ch(L, 1) == 'X') ? 16 : (ch(L, 1) == 'o' || ch(L, 1) == 'O') ? 8 : 2;
        adv(L);
        adv(L);
        uint64_t v = 0;
        bool fits = true;
        while (isxdigit(ch(L, 0)) || ch(L, 0) == '_') {
            int d = digit_value(ch(L, 0));
            if (ch(L, 0) != '_') {
                if ((unsigned)d >= base) break;            /* 0b12: the '2' starts the next token */
                fits = fits && acc_digit(&v, base, (unsigned)d);
            }
            adv(L);
        }
        int_token(L, line, col, start, v, fits);
        return;
    }
    StrBuf digits = {0};          /* the literal without '_' separators, for strtod */
    bool is_float = false, fits = true;
    uint64_t v = 0;
    for (;;) {
        int c = ch(L, 0);
        if (isdigit(c)) {
            sb_putc(&digits, (char)c);
            if (!is_float) fits = fits && acc_digit(&v, 10, (unsigned)(c - '0'));
        } else if (c == '_') {
        } else if (c == '.' && !is_float) {
            is_float = true;
            sb_putc(&digits, '.');
        } else if ((c == 'e' || c == 'E') && (isdigit(ch(L, 1)) || ((ch(L, 1) == '+' || ch(L, 1) == '-') && isdigit(ch(L, 2))))) {
            is_float = true;
            sb_putc(&digits, 'e');
            sb_putc(&digits, (char)ch(L, 1));
            adv(L);
        } else break;
        adv(L);
    }
    if (ch(L, 0) == 'j' || ch(L, 0) == 'J') { is_float = true; adv(L); }
    if (is_float) {
        Tok *t = emit(L, TK_FLOAT, NULL, line, col, (int)(L->i - start));
        t->text = intern(L->strs, L->s + start, L->i - start);
        t->fval = strtod(sb_cstr(&digits), NULL);
    } else int_token(L, line, col, start, v, fits);
    sb_free(&digits);
}

static const char *const ops3[] = { "**=", "//=", ">>=", "<<=", "...", NULL };
static const char *const ops2[] = { "->", ":=", "**", "//", "<<", ">>", "<=", ">=", "==", "!=", "+=", "-=", "*=",
                                    "/=", "%=", "&=", "|=", "^=", "@=", NULL };

/* (the first character is compared before strncmp: most operators are one character, and calling
 * strncmp for every entry of both tables was a large part of lexing) */
static void lex_op(Lexer *L, int line, int col) {
    char c0 = L->s[L->i];
    for (int k = 0; ops3[k]; k++)
        if (ops3[k][0] == c0 && L->i + 3 <= L->n && strncmp(L->s + L->i, ops3[k], 3) == 0) {
            emit(L, TK_OP, intern_cstr(L->strs, ops3[k]), line, col, 3);
            adv(L); adv(L); adv(L);
            return;
        }
    for (int k = 0; ops2[k]; k++)
        if (ops2[k][0] == c0 && L->i + 2 <= L->n && strncmp(L->s + L->i, ops2[k], 2) == 0) {
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

/* Python refuses a source with a NUL byte or bytes that are not UTF-8 (with no coding
 * declaration); so do we, pointing at the first offending byte rather than reading past it. */
static bool check_encoding(Lexer *L) {
    int line = 1, col = 1;
    for (size_t i = 0; i < L->n;) {
        const unsigned char *p = (const unsigned char *)L->s + i;
        if (*p == 0) {
            lex_error(L, line, col, 1, "the source contains a NUL byte (Python source text cannot hold one); remove it");
            return false;
        }
        int n = utf8_sequence_length(p, L->n - i);
        if (n == 0) {
            char msg[160];
            snprintf(msg, sizeof msg, "byte 0x%02x is not UTF-8: Python source files must be UTF-8 (re-save the file as UTF-8)", *p);
            lex_error(L, line, col, 1, msg);
            return false;
        }
        if (*p == '\n') { line++; col = 1; }
        else col += n;
        i += (size_t)n;
    }
    return true;
}

bool front_lex(const SrcFile *src, Interner *strs, DiagSink *diag, TokVec *out) {
    Lexer L = { .src = src, .s = src->text, .n = src->len, .line = 1, .col = 1, .strs = strs, .diag = diag,
                .out = out, .ok = true, .nind = 1 };
    if (!check_encoding(&L)) {
        emit(&L, TK_EOF, "<eof>", 1, 1, 1);
        return false;
    }
    if (L.n >= 3 && memcmp(L.s, "\xef\xbb\xbf", 3) == 0) L.i = 3;     /* a UTF-8 byte order mark */
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

/* One entry: the SrcFile, a copy of its text (a new text in the same buffer is lexed afresh) and its
 * tokens. The main block reader and the module constants each read the whole file, one after the
 * other in one context; lexing a long program (72 bytes of token per source byte, written to fresh
 * memory) costs as much as parsing it, so the second reader reuses the first one's tokens. */
typedef struct TokCache { const SrcFile *src; const char *path; char *text; size_t len; TokVec toks; } TokCache;

static void tok_cache_free(void *p) {
    TokCache *k = p;
    if (!k) return;
    free(k->text);
    vec_free(&k->toks);
    free(k);
}

const TokVec *front_lex_cached(IrCtx *c, const SrcFile *src) {
    TokCache *k = c->front_cache;
    if (k && k->src == src && k->path == src->path && k->len == src->len && memcmp(k->text, src->text, src->len) == 0)
        return &k->toks;
    TokVec toks = { 0 };
    if (!front_lex(src, c->strs, c->diag, &toks)) { vec_free(&toks); return NULL; }
    if (!k) {
        PTOC_ASSERT(!c->front_cache && !c->free_front_cache, "lex: the context holds another front cache");
        k = calloc(1, sizeof *k);
        PTOC_ASSERT(k, "out of memory");
        c->front_cache = k;
        c->free_front_cache = tok_cache_free;
    }
    free(k->text);
    vec_free(&k->toks);
    k->text = malloc(src->len + 1);
    PTOC_ASSERT(k->text, "out of memory");
    memcpy(k->text, src->text, src->len);
    k->src = src, k->path = src->path, k->len = src->len, k->toks = toks;
    return &k->toks;
}
