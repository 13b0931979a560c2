/* module — module-level constants of a source file (spec/language.md §1.4), for the parser, the
 * main-block reader and the command line.
 *
 * Requires: front_lex.
 * Produces: front_module_consts: the top-level `NAME = <int literal>` / `NAME = <float literal>`
 *           assignments in file order (a later assignment of a name replaces it), -D defines over
 *           them.
 * Does: a first version: literals only; other right-hand sides give known == false. */
#include "front/front_internal.h"

#include <string.h>

static void put(FrontModule *m, int *cap, FrontConst c) {
    for (int i = 0; i < m->n; i++)
        if (strcmp(m->consts[i].name, c.name) == 0) { m->consts[i] = c; return; }
    if (m->n == *cap) {
        *cap = *cap ? 2 * *cap : 16;
        m->consts = realloc(m->consts, sizeof(FrontConst) * (size_t)*cap);
        PTOC_ASSERT(m->consts, "out of memory");
    }
    m->consts[m->n++] = c;
}

bool front_module_consts(IrCtx *c, const SrcFile *src, const FrontBinding *b, FrontModule *out) {
    *out = (FrontModule){ 0 };
    TokVec toks = { 0 };
    if (!front_lex(src, c->strs, c->diag, &toks)) { vec_free(&toks); return false; }
    int cap = 0, depth = 0;
    bool line_start = true;
    for (int i = 0; i < toks.len; i++) {
        Tok *t = &toks.data[i];
        if (t->kind == TK_INDENT) depth++;
        if (t->kind == TK_DEDENT) depth--;
        if (t->kind == TK_NEWLINE || t->kind == TK_INDENT || t->kind == TK_DEDENT) { line_start = true; continue; }
        bool at_start = line_start;
        line_start = false;
        if (!at_start || depth != 0 || t->kind != TK_NAME || i + 2 >= toks.len) continue;
        Tok *eq = &toks.data[i + 1];
        if (eq->kind != TK_OP || strcmp(eq->text, "=") != 0) continue;
        int k = i + 2;
        bool neg = toks.data[k].kind == TK_OP && strcmp(toks.data[k].text, "-") == 0;
        if (neg) k++;
        Tok *v = &toks.data[k];
        bool ends = k + 1 < toks.len && toks.data[k + 1].kind == TK_NEWLINE;
        FrontConst fc = { t->text, false, false, 0, 0, t->span };
        if (ends && v->kind == TK_INT && !v->too_big && v->uval <= (uint64_t)INT64_MAX) {
            fc.known = true;
            fc.ival = neg ? -(int64_t)v->uval : (int64_t)v->uval;
            fc.fval = (double)fc.ival;
        } else if (ends && v->kind == TK_FLOAT) {
            fc.known = fc.is_float = true;
            fc.fval = neg ? -v->fval : v->fval;
        }
        put(out, &cap, fc);
    }
    for (int i = 0; b && i < b->ndefines; i++) {
        const FrontArg *d = &b->defines[i];
        if (d->kind == FA_TENSOR) continue;
        FrontConst fc = { intern_cstr(c->strs, d->name), true, d->kind == FA_FLOAT, d->ival,
                          d->kind == FA_FLOAT ? d->fval : (double)d->ival, d->span };
        put(out, &cap, fc);
    }
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
