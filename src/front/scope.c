/* scope — the free names of a @pl.program class nested in a builder function or a test method
 * (spec/language.md §1.3 (a)-(c), §8 decision 4).
 *
 * Requires: consteval.c, Parser.consts holding the module constants.
 * Produces: front_builder_scope: ConstSym entries (scope = the builder's dotted path) pushed after
 *           the module constants, so they shadow them while the class is parsed.
 * Does: for every enclosing def, outermost first: its parameters, each bound by a -D define, else by
 *       the literal argument of the def's first call site in the file (`build(64, N=128)` in the main
 *       block or in a get_program method; arguments may be module constants), else by its default,
 *       else left unbound (an error only when the class reads it); then its straight-line local
 *       assignments before the nested def / class. A name assigned inside an if / for / while / with
 *       body of the builder is unknown: its value depends on control flow. A method's self / cls is
 *       not a free name. */
#include "front/front_internal.h"

#include <string.h>

static bool op_at(const Parser *p, int i, const char *op) {
    return i < p->ntoks && p->toks[i].kind == TK_OP && strcmp(p->toks[i].text, op) == 0;
}

/* The index after the bracketed group opened at toks[i] (or after the item ending at a depth-0 ',' / ')'). */
static int item_end(const Parser *p, int i) {
    int depth = 0;
    for (; i < p->ntoks && p->toks[i].kind != TK_EOF; i++) {
        const Tok *t = &p->toks[i];
        if (t->kind != TK_OP) continue;
        if (!strcmp(t->text, "(") || !strcmp(t->text, "[") || !strcmp(t->text, "{")) depth++;
        else if (!strcmp(t->text, ")") || !strcmp(t->text, "]") || !strcmp(t->text, "}")) {
            if (depth == 0) return i;
            depth--;
        } else if (!strcmp(t->text, ",") && depth == 0) return i;
    }
    return i;
}

typedef struct Param { const Tok *name; int dflt; /* token of the default, -1 */ } Param;

/* The parameters of the def at pos ('def' NAME '(' ...). */
static int read_params(const Parser *p, int pos, Param *out, int max) {
    int i = pos + 2, n = 0;
    if (!op_at(p, i, "(")) return 0;
    i++;
    while (i < p->ntoks && !op_at(p, i, ")") && p->toks[i].kind != TK_EOF) {
        int end = item_end(p, i);
        if (p->toks[i].kind == TK_NAME && n < max) {          /* '*', '**' and '/' entries are not names */
            out[n] = (Param){ &p->toks[i], -1 };
            for (int k = i + 1; k < end; k++)
                if (op_at(p, k, "=")) { out[n].dflt = k + 1; break; }
            n++;
        }
        i = op_at(p, end, ",") ? end + 1 : end;
    }
    return n;
}

/* A constant argument: the expression must fill the whole argument. */
static bool eval_item(Parser *p, int i, const ConstVec *env, CVal *v, const char **why) {
    int q = i;
    if (!front_ceval(p->c, p->toks, p->ntoks, &q, env, v, why)) return false;
    if (q != item_end(p, i)) { *why = "not a constant expression"; return false; }
    return true;
}

/* Calls `name(` of the file that are not its definition nor a method call (x.name). */
static int find_calls(const Parser *p, const char *name, int *out, int max) {
    int n = 0;
    for (int i = 1; i + 1 < p->ntoks; i++) {
        const Tok *t = &p->toks[i];
        if (t->kind != TK_NAME || strcmp(t->text, name) != 0 || !op_at(p, i + 1, "(")) continue;
        const Tok *prev = &p->toks[i - 1];
        if ((prev->kind == TK_NAME && !strcmp(prev->text, "def")) || op_at(p, i - 1, ".")) continue;
        if (n < max) out[n++] = i;
    }
    return n;
}

static bool same_args(const Parser *p, int a, int b) {
    int ea = item_end(p, a + 2), eb = item_end(p, b + 2);
    while (op_at(p, ea, ",")) ea = item_end(p, ea + 1);
    while (op_at(p, eb, ",")) eb = item_end(p, eb + 1);
    if (ea - a != eb - b) return false;
    for (int k = 0; k < ea - a; k++)
        if (p->toks[a + k].kind != p->toks[b + k].kind || strcmp(p->toks[a + k].text, p->toks[b + k].text) != 0) return false;
    return true;
}

/* The literal argument for parameter index pi / name of the call at toks[call] ("name" "(" ...). */
static bool call_arg(Parser *p, int call, int pi, const char *pname, const ConstVec *env, CVal *v) {
    int i = call + 2, k = 0;
    const char *why;
    while (i < p->ntoks && !op_at(p, i, ")") && p->toks[i].kind != TK_EOF) {
        int end = item_end(p, i);
        bool kw = p->toks[i].kind == TK_NAME && op_at(p, i + 1, "=");
        if (kw && !strcmp(p->toks[i].text, pname)) return eval_item(p, i + 2, env, v, &why);
        if (!kw && !op_at(p, i, "*") && !op_at(p, i, "**") && k++ == pi) return eval_item(p, i, env, v, &why);
        i = op_at(p, end, ",") ? end + 1 : end;
    }
    return false;
}

static void bind_params(Parser *p, const FrontFrame *f, bool method, const char *scope, int nmodule) {
    Param ps[32];
    int np = read_params(p, f->pos, ps, 32);
    int calls[64];
    int ncalls = method ? 0 : find_calls(p, f->name, calls, 64);
    ConstVec module = { p->consts.data, nmodule, nmodule };   /* call sites see the module constants */
    for (int k = 1; k < ncalls; k++)
        if (!same_args(p, calls[0], calls[k])) {
            diag_add(p->c->diag, DIAG_NOTE, p->toks[calls[0]].span, NULL,
                     "'%s' is called %d times in this file with different arguments; the program uses this call's "
                     "(bind a parameter with -D NAME=VALUE)", f->name, ncalls);
            break;
        }
    for (int i = method ? 1 : 0; i < np; i++) {
        const Tok *nm = ps[i].name;
        ConstSym s = { nm->text, CK_UNBOUND, 0, 0, nm->span, NULL, scope };
        CVal v;
        const char *why = NULL;
        const FrontArg *d = front_define_find(p->binding, nm->text);
        if (d) {
            s = front_const_from_define(d, nm->text, nm->span);
            s.scope = scope;
        } else if ((ncalls && call_arg(p, calls[0], i - (method ? 1 : 0), nm->text, &module, &v)) ||
                   (ps[i].dflt >= 0 && eval_item(p, ps[i].dflt, &p->consts, &v, &why))) {
            s.kind = v.is_float ? CK_FLOAT : CK_INT;
            s.ival = v.i;
            s.fval = v.f;
        }   /* a default ptoc cannot evaluate (None, a call) leaves the parameter unbound */
        vec_push(&p->consts, s);
    }
}

/* Straight-line assignments of the def body at f->pos, up to stop_pos. */
static void bind_locals(Parser *p, const FrontFrame *f, const char *scope, int stop_pos) {
    int i = f->pos;
    while (i < p->ntoks && p->toks[i].kind != TK_NEWLINE && p->toks[i].kind != TK_EOF) i++;
    if (i + 1 >= p->ntoks || p->toks[i + 1].kind != TK_INDENT) return;
    int depth = 0;
    bool line_start = true;
    for (i += 2; i < stop_pos && i < p->ntoks; i++) {
        const Tok *t = &p->toks[i];
        if (t->kind == TK_INDENT) depth++;
        if (t->kind == TK_DEDENT && --depth < 0) return;
        if (t->kind == TK_NEWLINE || t->kind == TK_INDENT || t->kind == TK_DEDENT) { line_start = true; continue; }
        if (!line_start) continue;
        line_start = false;
        if (t->kind != TK_NAME) continue;
        if (depth == 0) {
            int end = front_ceval_assign(p->c, p->toks, p->ntoks, i, &p->consts, scope, p->binding);
            if (end > i) i = end - 1;
            continue;
        }
        /* NAME [, NAME]* = ... inside a block: not a constant */
        int k = i;
        while (p->toks[k].kind == TK_NAME && op_at(p, k + 1, ",")) k += 2;
        if (p->toks[k].kind != TK_NAME || !op_at(p, k + 1, "=")) continue;
        for (int j = i; j <= k; j += 2) {
            ConstSym s = { p->toks[j].text, CK_UNKNOWN, 0, 0, p->toks[j].span,
                           "it is assigned inside an if / for / while / with block of the builder", scope };
            if (front_define_find(p->binding, s.name)) s = front_const_from_define(front_define_find(p->binding, s.name), s.name, s.span);
            s.scope = scope;
            vec_push(&p->consts, s);
        }
    }
}

void front_builder_scope(Parser *p, const FrontFrame *chain, int nchain, int stop_pos) {
    int nmodule = p->consts.len;
    StrBuf path = { 0 };
    for (int i = 0; i < nchain; i++) {
        sb_printf(&path, "%s%s", i ? "." : "", chain[i].name);
        if (!chain[i].is_def) continue;
        const char *scope = arena_printf(p->c->arena, "%s", sb_cstr(&path));
        bool method = i > 0 && !chain[i - 1].is_def;
        bind_params(p, &chain[i], method, scope, nmodule);
        bind_locals(p, &chain[i], scope, i + 1 < nchain ? chain[i + 1].pos : stop_pos);
    }
    sb_free(&path);
    /* what can be bound, for the message of an unbound name */
    StrBuf names = { 0 };
    for (int i = nmodule; i < p->consts.len; i++) {
        bool dup = false;
        for (int k = nmodule; k < i; k++) dup |= strcmp(p->consts.data[k].name, p->consts.data[i].name) == 0;
        if (!dup) sb_printf(&names, "%s%s", names.len ? ", " : "", p->consts.data[i].name);
    }
    const char *list = arena_printf(p->c->arena, "%s", sb_cstr(&names));
    for (int i = nmodule; i < p->consts.len; i++)
        if (p->consts.data[i].kind == CK_UNBOUND) p->consts.data[i].why = list;
    sb_free(&names);
}
