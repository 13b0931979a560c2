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
 *       other Python around the DSL). */
#include "front/front_internal.h"

#include <string.h>

void front_module_env(IrCtx *c, const Tok *toks, int ntoks, const FrontBinding *b, ConstVec *out) {
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
    TokVec toks = { 0 };
    if (!front_lex(src, c->strs, c->diag, &toks)) { vec_free(&toks); return false; }
    ConstVec env = { 0 };
    front_module_env(c, toks.data, toks.len, b, &env);
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
    vec_free(&toks);
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
