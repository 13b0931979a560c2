/* module — module-level constants of a source file (spec/language.md §1.4), for the parser, the
 * main-block reader and the command line.
 *
 * Requires: front_lex, consteval.c.
 * Produces: front_module_env (the parser's ConstVec) and front_module_consts (the public FrontModule):
 *           the top-level assignments in file order, each evaluated with the constants before it
 *           (a later assignment of a name replaces it); a -D define of a name replaces its assigned
 *           value where it is assigned, so later constants computed from it follow it; defines of
 *           names the module does not assign are added at the end.
 * Does: only statements at indentation 0 count (a module-level `if` / `try` body is skipped, like
 *       other Python around the DSL). `from .config import A, B as C` (and `from config import A`)
 *       takes constants of a sibling module (language.md §1.2, decision 5): the dotted path resolves
 *       against the file's directory — each leading dot past the first one level up; without a dot,
 *       the directory and then its parents — and the module is evaluated the same way (imports up to
 *       8 deep). A module that cannot be found or lexed is skipped like other Python; its names stay
 *       unknown. */
#include "front/front_internal.h"

#include <string.h>

static void module_env(IrCtx *c, const SrcFile *src, const Tok *toks, int ntoks, const FrontBinding *b, ConstVec *out, int nest);

static bool tok_is(const Tok *t, TokKind k, const char *text) { return t->kind == k && strcmp(t->text, text) == 0; }

/* The file a `from` path names: dots leading dots, dotted "kernels.rmsnorm"; NULL when none exists. */
static char *resolve_module(const char *from_path, int dots, const char *dotted) {
    const char *slash = strrchr(from_path, '/');
    char dir[4096];
    snprintf(dir, sizeof dir, "%.*s", slash ? (int)(slash - from_path) : 1, slash ? from_path : ".");
    for (int up = 0; up < (dots > 0 ? dots - 1 : 0); up++) {
        char *s = strrchr(dir, '/');
        if (s && s != dir) *s = 0;
        else if (strlen(dir) + 4 < sizeof dir) strcat(dir, "/..");
    }
    char rel[1024];
    snprintf(rel, sizeof rel, "%s", dotted);
    for (char *q = rel; *q; q++) if (*q == '.') *q = '/';
    for (int tries = 0; tries < (dots ? 1 : 8); tries++) {     /* no dot: this directory, then its parents */
        char path[6000];
        snprintf(path, sizeof path, "%s/%s.py", dir, rel);
        FILE *f = fopen(path, "r");
        if (f) { fclose(f); return strdup(path); }
        char *s = strrchr(dir, '/');
        if (!s || s == dir) break;
        *s = 0;
    }
    return NULL;
}

/* `from X import a, b as c` at t[i]: the imported module's constants a and c into out. Returns the
 * token index after the statement (or i when it is not such an import). */
static int import_consts(IrCtx *c, const SrcFile *src, const Tok *t, int n, int i, const FrontBinding *b, ConstVec *out, int nest) {
    int k = i + 1, dots = 0;
    for (; k < n && t[k].kind == TK_OP && t[k].text[0] == '.'; k++) dots += (int)strlen(t[k].text);
    char dotted[512] = "";
    while (k < n && (t[k].kind == TK_NAME || tok_is(&t[k], TK_OP, ".")) && !tok_is(&t[k], TK_NAME, "import")) {
        if (strlen(dotted) + strlen(t[k].text) + 1 < sizeof dotted) strcat(dotted, t[k].text);
        k++;
    }
    if (k >= n || !tok_is(&t[k], TK_NAME, "import") || !dotted[0] || nest >= 8 || !src || !src->path) return i;
    char *path = resolve_module(src->path, dots, dotted);
    if (!path) return i;
    size_t len;
    char *text = base_read_file_max(path, (size_t)16 << 20, &len);
    ConstVec sub = { 0 };
    if (text) {
        SrcFile *sf = ARENA_NEW(c->arena, SrcFile);       /* spans of its constants point here: it lives with c */
        char *copy = arena_alloc(c->arena, len + 1);
        memcpy(copy, text, len);
        *sf = (SrcFile){ arena_strdup(c->arena, path), copy, len };
        DiagSink quiet;                                    /* a sibling that does not lex is skipped */
        diag_init(&quiet);
        TokVec toks = { 0 };
        if (front_lex(sf, c->strs, &quiet, &toks)) module_env(c, sf, toks.data, toks.len, b, &sub, nest + 1);
        vec_free(&toks);
        diag_free(&quiet);
    }
    free(text);
    free(path);
    for (k++; k < n && t[k].kind != TK_NEWLINE; k++) {
        if (t[k].kind != TK_NAME) continue;
        const char *name = t[k].text, *as = name;
        if (k + 2 < n && tok_is(&t[k + 1], TK_NAME, "as") && t[k + 2].kind == TK_NAME) as = t[k + 2].text, k += 2;
        const ConstSym *s = front_const_find(&sub, name);
        if (!s) continue;
        ConstSym copy = *s;
        copy.name = as;
        vec_push(out, copy);
    }
    vec_free(&sub);
    return k;
}

void front_module_env(IrCtx *c, const SrcFile *src, const Tok *toks, int ntoks, const FrontBinding *b, ConstVec *out) {
    module_env(c, src, toks, ntoks, b, out, 0);
}

static void module_env(IrCtx *c, const SrcFile *src, const Tok *toks, int ntoks, const FrontBinding *b, ConstVec *out, int nest) {
    int depth = 0;
    bool line_start = true;
    for (int i = 0; i < ntoks; i++) {
        const Tok *t = &toks[i];
        if (t->kind == TK_INDENT) depth++;
        if (t->kind == TK_DEDENT) depth--;
        if (t->kind == TK_NEWLINE || t->kind == TK_INDENT || t->kind == TK_DEDENT) { line_start = true; continue; }
        bool at_start = line_start;
        line_start = false;
        if (!at_start || depth != 0 || t->kind != TK_NAME) continue;
        if (!strcmp(t->text, "from")) {
            int end = import_consts(c, src, toks, ntoks, i, b, out, nest);
            if (end > i) i = end - 1;
            continue;
        }
        int end = front_ceval_assign(c, toks, ntoks, i, out, NULL, b);
        if (end > i) i = end - 1;                        /* the NEWLINE comes next */
    }
    for (int i = 0; b && i < b->ndefines; i++) {
        const FrontArg *d = &b->defines[i];
        if (d->kind == FA_TENSOR) continue;
        const char *name = intern_cstr(c->strs, d->name);
        const ConstSym *s = front_const_find(out, name);
        if (!s || s->scope) vec_push(out, front_const_from_define(d, name, d->span));
    }
}

bool front_module_consts(IrCtx *c, const SrcFile *src, const FrontBinding *b, FrontModule *out) {
    *out = (FrontModule){ 0 };
    const TokVec *toks = front_lex_cached(c, src);      /* shared with front_main_block */
    if (!toks) return false;
    ConstVec env = { 0 };
    front_module_env(c, src, toks->data, toks->len, b, &env);
    /* one entry per name: the last assignment wins, at the position of the first */
    out->consts = env.len ? calloc((size_t)env.len, sizeof(FrontConst)) : NULL;
    PTOC_ASSERT(!env.len || out->consts, "out of memory");
    for (int i = 0; i < env.len; i++) {
        const ConstSym *s = &env.data[i];
        FrontConst fc = { s->name, s->kind == CK_INT || s->kind == CK_FLOAT, s->kind == CK_FLOAT, s->ival,
                          s->kind == CK_INT ? (double)s->ival : s->fval, s->span };
        int k = 0;
        while (k < out->n && strcmp(out->consts[k].name, s->name) != 0) k++;
        out->consts[k] = fc;
        if (k == out->n) out->n++;
    }
    vec_free(&env);
    return true;
}

void front_module_free(FrontModule *m) {
    free(m->consts);
    *m = (FrontModule){ 0 };
}

const FrontConst *front_module_find(const FrontModule *m, const char *name) {
    for (int i = 0; m && i < m->n; i++)
        if (strcmp(m->consts[i].name, name) == 0) return &m->consts[i];
    return NULL;
}
