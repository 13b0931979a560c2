/* main_block — reads the `if __name__ == "__main__":` block of a source file statically
 * (spec/language.md §5.3 / §5.4; header main_block.h).
 *
 * Requires: front_lex (tokens with INDENT / DEDENT; brackets join lines, so a statement ends at the
 *           first NEWLINE at bracket depth 0).
 * Produces: MainBlock (statements + the @pl.jit entries and their parameter names).
 * Does: a small recursive-descent reader of Python expressions (atoms, calls with keywords,
 *       attributes, subscripts and slices, lists / tuples, unary - +, ** * / // % @ + -) into MbExpr;
 *       every statement it cannot classify is MS_SKIP with a reason, and its indented block is
 *       skipped with it. */
#include "front/main_block.h"

#include <stdio.h>
#include <string.h>

#include "front/front_internal.h"

typedef struct R {
    Arena *a;
    Tok *t; int n, pos;
    bool bad;               /* the current statement could not be read */
    const char *bad_why;
} R;

static Tok *pk(R *r, int k) { int i = r->pos + k; return &r->t[i < r->n ? i : r->n - 1]; }
static bool is_op(R *r, int k, const char *op) { Tok *t = pk(r, k); return t->kind == TK_OP && !strcmp(t->text, op); }
static bool is_name(R *r, int k, const char *s) { Tok *t = pk(r, k); return t->kind == TK_NAME && !strcmp(t->text, s); }
static void fail(R *r, const char *why) { if (!r->bad) r->bad = true, r->bad_why = why; }

static MbExpr *node(R *r, MbExprKind k, Span sp) {
    MbExpr *e = ARENA_NEW(r->a, MbExpr);
    e->kind = k, e->span = sp;
    return e;
}

typedef VEC(MbExpr *) ExprVec;
typedef VEC(const char *) StrVec;

static void take_items(R *r, MbExpr *e, ExprVec *v, StrVec *kw) {
    e->n = v->len;
    e->items = ARENA_ARRAY(r->a, MbExpr *, v->len + 1);
    if (v->len) memcpy(e->items, v->data, sizeof(MbExpr *) * (size_t)v->len);
    if (kw) {
        e->kw = ARENA_ARRAY(r->a, const char *, v->len + 1);
        if (kw->len) memcpy(e->kw, kw->data, sizeof(char *) * (size_t)kw->len);
    }
    vec_free(v);
    if (kw) vec_free(kw);
}

static MbExpr *expr(R *r, int depth);

/* One element of a subscript: expr, or a slice a:b[:c] with parts omitted. */
static MbExpr *subscript_item(R *r, int depth) {
    Span sp = pk(r, 0)->span;
    MbExpr *lo = NULL;
    if (!is_op(r, 0, ":")) lo = expr(r, depth);
    if (!is_op(r, 0, ":")) return lo;
    MbExpr *s = node(r, MBX_SLICE, sp);
    s->a = lo;
    r->pos++;
    if (!is_op(r, 0, ",") && !is_op(r, 0, "]") && !is_op(r, 0, ":")) s->b = expr(r, depth);
    if (is_op(r, 0, ":")) {
        r->pos++;
        if (!is_op(r, 0, ",") && !is_op(r, 0, "]")) s->c = expr(r, depth);
    }
    return s;
}

/* Comma-separated items up to `close`; calls accept NAME=value keywords. */
static void items(R *r, const char *close, bool call, bool sub, ExprVec *v, StrVec *kw, bool *comma, int depth) {
    *comma = false;
    while (!r->bad && !is_op(r, 0, close)) {
        const char *k = NULL;
        if (call && pk(r, 0)->kind == TK_NAME && is_op(r, 1, "=")) k = pk(r, 0)->text, r->pos += 2;
        if (call && (is_op(r, 0, "*") || is_op(r, 0, "**"))) { fail(r, "star arguments"); return; }
        vec_push(v, sub ? subscript_item(r, depth) : expr(r, depth));
        if (kw) vec_push(kw, k);
        if (!is_op(r, 0, ",")) break;
        *comma = true;
        r->pos++;
    }
    if (!is_op(r, 0, close)) { fail(r, "an expression form outside the supported subset"); return; }
    r->pos++;
}

static MbExpr *atom(R *r, int depth) {
    Tok *t = pk(r, 0);
    if (t->kind == TK_NAME) {
        if (!strcmp(t->text, "lambda") || !strcmp(t->text, "for") || !strcmp(t->text, "if")) {
            fail(r, "lambda / comprehension / conditional expressions");
            return NULL;
        }
        r->pos++;
        MbExpr *e = node(r, MBX_NAME, t->span);
        e->name = t->text;
        return e;
    }
    if (t->kind == TK_INT || t->kind == TK_FLOAT) {
        r->pos++;
        MbExpr *e = node(r, MBX_NUM, t->span);
        e->is_int = t->kind == TK_INT;
        if (e->is_int && (t->too_big || t->uval > (uint64_t)INT64_MAX)) { fail(r, "an integer literal beyond int64"); return e; }
        e->ival = e->is_int ? (int64_t)t->uval : 0;
        e->num = e->is_int ? (double)e->ival : t->fval;
        return e;
    }
    if (t->kind == TK_STRING) {
        r->pos++;
        MbExpr *e = node(r, MBX_STR, t->span);
        e->name = t->text;
        while (pk(r, 0)->kind == TK_STRING) r->pos++;       /* implicit concatenation (messages) */
        return e;
    }
    if (t->kind == TK_OP && (!strcmp(t->text, "(") || !strcmp(t->text, "["))) {
        bool paren = t->text[0] == '(';
        r->pos++;
        ExprVec v = { 0 };
        bool comma;
        items(r, paren ? ")" : "]", false, false, &v, NULL, &comma, depth);
        if (paren && v.len == 1 && !comma) { MbExpr *e = v.data[0]; vec_free(&v); return e; }
        MbExpr *e = node(r, paren ? MBX_TUPLE : MBX_LIST, t->span);
        take_items(r, e, &v, NULL);
        return e;
    }
    fail(r, "an expression form outside the supported subset");
    return NULL;
}

static MbExpr *postfix(R *r, int depth) {
    MbExpr *e = atom(r, depth);
    while (!r->bad) {
        Span sp = pk(r, 0)->span;
        if (is_op(r, 0, ".") && pk(r, 1)->kind == TK_NAME) {
            MbExpr *x = node(r, MBX_ATTR, pk(r, 1)->span);
            x->a = e, x->name = pk(r, 1)->text;
            r->pos += 2;
            e = x;
        } else if (is_op(r, 0, "(") || is_op(r, 0, "[")) {
            bool call = is_op(r, 0, "(");
            r->pos++;
            MbExpr *x = node(r, call ? MBX_CALL : MBX_SUBSCRIPT, call ? e->span : sp);
            x->a = e;
            ExprVec v = { 0 };
            StrVec kw = { 0 };
            bool comma;
            items(r, call ? ")" : "]", call, !call, &v, call ? &kw : NULL, &comma, depth);
            take_items(r, x, &v, call ? &kw : NULL);
            e = x;
        } else break;
    }
    return e;
}

static MbExpr *unary(R *r, int depth);

static MbExpr *power(R *r, int depth) {
    MbExpr *e = postfix(r, depth);
    if (!r->bad && is_op(r, 0, "**")) {
        MbExpr *x = node(r, MBX_BIN, pk(r, 0)->span);
        r->pos++;
        x->name = "**", x->a = e, x->b = unary(r, depth);
        return x;
    }
    return e;
}

static MbExpr *unary(R *r, int depth) {
    if (is_op(r, 0, "-") || is_op(r, 0, "+") || is_op(r, 0, "~")) {
        MbExpr *x = node(r, MBX_UNARY, pk(r, 0)->span);
        x->name = pk(r, 0)->text;
        r->pos++;
        x->a = unary(r, depth);
        return x;
    }
    return power(r, depth);
}

static const char *const levels[][6] = {
    { "+", "-", NULL }, { "*", "/", "//", "%", "@", NULL },
};

static MbExpr *binary(R *r, int level, int depth) {
    if (level == 2) return unary(r, depth);
    MbExpr *e = binary(r, level + 1, depth);
    for (;;) {
        if (r->bad) return e;
        const char *op = NULL;
        for (int i = 0; levels[level][i]; i++)
            if (is_op(r, 0, levels[level][i])) op = levels[level][i];
        if (!op) return e;
        MbExpr *x = node(r, MBX_BIN, pk(r, 0)->span);
        r->pos++;
        x->name = op, x->a = e, x->b = binary(r, level + 1, depth);
        e = x;
    }
}

static MbExpr *expr(R *r, int depth) {
    if (depth > 200) { fail(r, "an expression nested too deeply"); return NULL; }
    MbExpr *e = binary(r, 0, depth + 1);
    /* comparisons and boolean operators are outside the subset (an assert of another shape) */
    Tok *t = pk(r, 0);
    if (!r->bad && ((t->kind == TK_OP && (!strcmp(t->text, "==") || !strcmp(t->text, "!=") || !strcmp(t->text, "<") ||
                                          !strcmp(t->text, ">") || !strcmp(t->text, "<=") || !strcmp(t->text, ">="))) ||
                    (t->kind == TK_NAME && (!strcmp(t->text, "and") || !strcmp(t->text, "or") || !strcmp(t->text, "if") ||
                                            !strcmp(t->text, "in") || !strcmp(t->text, "is")))))
        fail(r, "comparisons and boolean expressions");
    return e;
}

const char *front_mb_dotted(const MbExpr *e, char *buf, size_t n) {
    if (!e) return NULL;
    if (e->kind == MBX_NAME) { snprintf(buf, n, "%s", e->name); return buf; }
    if (e->kind != MBX_ATTR || !front_mb_dotted(e->a, buf, n)) return NULL;
    size_t l = strlen(buf);
    snprintf(buf + l, n > l ? n - l : 0, ".%s", e->name);
    return buf;
}

/* ---- statements ---- */

/* Skips the rest of the current statement and its indented block. */
static void skip_stmt(R *r) {
    while (pk(r, 0)->kind != TK_NEWLINE && pk(r, 0)->kind != TK_EOF && pk(r, 0)->kind != TK_DEDENT) r->pos++;
    if (pk(r, 0)->kind == TK_NEWLINE) r->pos++;
    if (pk(r, 0)->kind != TK_INDENT) return;
    int d = 0;
    do {
        if (pk(r, 0)->kind == TK_INDENT) d++;
        if (pk(r, 0)->kind == TK_DEDENT) d--;
        r->pos++;
    } while (d > 0 && pk(r, 0)->kind != TK_EOF);
}

static const MbJit *find_jit(const MainBlock *mb, const MbExpr *callee, bool *lower) {
    *lower = false;
    if (callee && callee->kind == MBX_ATTR && callee->a->kind == MBX_NAME &&
        (!strcmp(callee->name, "lower") || !strcmp(callee->name, "compile"))) {
        *lower = true;
        callee = callee->a;
    }
    return callee && callee->kind == MBX_NAME ? front_main_find_jit(mb, callee->name) : NULL;
}

/* ---- argparse defaults and dispatch dicts: `_MODES[args.mode](a, b)` ---- */

static const char *option_default(const MainBlock *mb, const char *dest) {
    for (int i = mb->options.len - 1; i >= 0; i--)
        if (!strcmp(mb->options.data[i].dest, dest)) return mb->options.data[i].value;
    return NULL;
}

/* `parser.add_argument("-p", "--platform", default="a2a3sim")`: dest from dest= or the first long
 * option ("--max-len" -> max_len), the default from default= (a string or a number). */
static void read_option(R *r, MainBlock *mb, const MbExpr *e) {
    const char *dest = NULL, *value = NULL;
    for (int i = 0; i < e->n; i++) {
        const MbExpr *x = e->items[i];
        if (e->kw[i] && !strcmp(e->kw[i], "dest") && x->kind == MBX_STR) dest = x->name;
        else if (e->kw[i] && !strcmp(e->kw[i], "default"))
            value = x->kind == MBX_STR ? x->name : x->kind == MBX_NUM && x->is_int ? arena_printf(r->a, "%lld", (long long)x->ival) : NULL;
        else if (!e->kw[i] && x->kind == MBX_STR && !dest && !strncmp(x->name, "--", 2)) {
            char *d = arena_strdup(r->a, x->name + 2);
            for (char *c = d; *c; c++) if (*c == '-') *c = '_';
            dest = d;
        }
    }
    if (dest && value) vec_push(&mb->options, ((MbOption){ dest, value }));
}

/* The argparse statements of a main block; true when s is one (skipped silently, its effect kept). */
static bool read_argparse(R *r, MainBlock *mb, MbStmt *s, const MbExpr *e, const char *d) {
    size_t pl = mb->parser ? strlen(mb->parser) : 0;
    bool on_parser = mb->parser && !strncmp(d, mb->parser, pl) && d[pl] == '.';
    if (s->target && !strcmp(d, "argparse.ArgumentParser")) mb->parser = s->target;
    else if (on_parser && !strcmp(d + pl + 1, "add_argument")) read_option(r, mb, e);
    else if (on_parser && s->target && !strcmp(d + pl + 1, "parse_args") && !e->n) mb->args = s->target;
    else return false;
    s->kind = MS_SKIP, s->why = NULL;
    return true;
}

/* The kernel a dispatch-dict call selects: `D["key"](...)` or `D[args.opt](...)`, else NULL. */
static const MbJit *dispatched_jit(const MainBlock *mb, const MbExpr *callee) {
    if (!callee || callee->kind != MBX_SUBSCRIPT || callee->a->kind != MBX_NAME || callee->n != 1) return NULL;
    const MbExpr *k = callee->items[0];
    const char *key = k->kind == MBX_STR ? k->name
                    : k->kind == MBX_ATTR && k->a->kind == MBX_NAME && mb->args && !strcmp(k->a->name, mb->args)
                    ? option_default(mb, k->name) : NULL;
    for (int i = 0; key && i < mb->ndicts; i++) {
        const MbDispatch *t = &mb->dicts[i];
        if (strcmp(t->name, callee->a->name)) continue;
        for (int j = 0; j < t->n; j++)
            if (!strcmp(t->keys[j], key)) return front_main_find_jit(mb, t->kernels[j]);
    }
    return NULL;
}

/* Module-level `NAME = {"key": kernel, ...}` whose values are all @pl.jit functions. */
static void scan_dicts(R *r, MainBlock *mb) {
    VEC(MbDispatch) ds = { 0 };
    int depth = 0;
    bool line_start = true;
    for (int i = 0; i + 3 < r->n; i++) {
        Tok *t = &r->t[i];
        if (t->kind == TK_INDENT) depth++;
        if (t->kind == TK_DEDENT) depth--;
        if (t->kind == TK_NEWLINE || t->kind == TK_INDENT || t->kind == TK_DEDENT) { line_start = true; continue; }
        bool at = line_start;
        line_start = false;
        if (!at || depth || t->kind != TK_NAME || strcmp(r->t[i + 1].text, "=") || strcmp(r->t[i + 2].text, "{")) continue;
        StrVec keys = { 0 }, vals = { 0 };
        int q = i + 3;
        bool ok = true;
        while (ok && q + 2 < r->n && strcmp(r->t[q].text, "}")) {
            ok = r->t[q].kind == TK_STRING && !strcmp(r->t[q + 1].text, ":") && r->t[q + 2].kind == TK_NAME &&
                 front_main_find_jit(mb, r->t[q + 2].text);
            if (ok) vec_push(&keys, r->t[q].text), vec_push(&vals, r->t[q + 2].text);
            q += 3;
            if (q < r->n && !strcmp(r->t[q].text, ",")) q++;
        }
        if (ok && keys.len) {
            MbDispatch d = { t->text, ARENA_ARRAY(r->a, const char *, keys.len), ARENA_ARRAY(r->a, const char *, keys.len), keys.len };
            memcpy(d.keys, keys.data, sizeof(char *) * (size_t)keys.len);
            memcpy(d.kernels, vals.data, sizeof(char *) * (size_t)keys.len);
            vec_push(&ds, d);
        }
        vec_free(&keys);
        vec_free(&vals);
    }
    mb->ndicts = ds.len;
    mb->dicts = ARENA_ARRAY(r->a, MbDispatch, ds.len + 1);
    if (ds.len) memcpy(mb->dicts, ds.data, sizeof(MbDispatch) * (size_t)ds.len);
    vec_free(&ds);
}

/* A call statement (or the right-hand side of an assignment) that is not a plain expression. */
static bool classify_call(R *r, MainBlock *mb, MbStmt *s, MbExpr *e) {
    char buf[128];
    if (!e || e->kind != MBX_CALL) return false;
    const char *d = front_mb_dotted(e->a, buf, sizeof buf);
    bool lower;
    const MbJit *j = find_jit(mb, e->a, &lower);
    if (!j) j = dispatched_jit(mb, e->a);
    if (d && read_argparse(r, mb, s, e, d)) return true;
    if (j) {
        s->kind = MS_CALL, s->kernel = j->name, s->lower_only = lower, s->e = e;
        return true;
    }
    if (!d) return false;
    if (!strcmp(d, "RunConfig")) {
        s->kind = MS_CONFIG;
        for (int i = 0; i < e->n; i++)
            if (e->kw[i] && !strcmp(e->kw[i], "platform") && e->items[i]->kind == MBX_STR) s->platform = e->items[i]->name;
        s->e = e;
        return true;
    }
    if (!strcmp(d, "torch.manual_seed")) {
        if (e->n == 1 && e->items[0]->kind == MBX_NUM && e->items[0]->is_int) {
            s->kind = MS_SEED, s->seed = e->items[0]->ival;
        } else s->kind = MS_SKIP, s->why = "torch.manual_seed with a non-literal seed";
        return true;
    }
    if (!strcmp(d, "torch.testing.assert_close")) {
        s->kind = MS_CHECK, s->check = "assert_close", s->e = e;
        return true;
    }
    return false;
}

static void read_assert(R *r, MbStmt *s) {
    char buf[128];
    r->pos++;
    s->kind = MS_CHECK;
    MbExpr *e = expr(r, 0);
    const char *d = !r->bad && e && e->kind == MBX_CALL ? front_mb_dotted(e->a, buf, sizeof buf) : NULL;
    if (d && (!strcmp(d, "torch.allclose") || !strcmp(d, "torch.equal"))) {
        s->check = !strcmp(d, "torch.equal") ? "equal" : "allclose", s->e = e;     /* a `, message` after it is ignored (skip_stmt) */
        return;
    }
    s->why = r->bad ? arena_printf(r->a, "an assert using %s", r->bad_why)
                    : "an assert other than torch.allclose / torch.equal / torch.testing.assert_close";
    r->bad = false;
}

static const char *const skipped_keywords[] = {
    "for", "while", "if", "def", "class", "try", "with", "import", "from", "return", "raise", "del", "global",
    "async", "elif", "else", "except", "finally", "nonlocal", "yield", NULL,
};

static void read_stmt(R *r, MainBlock *mb, MbStmt *s) {
    char buf[128];
    Tok *t = pk(r, 0);
    s->span = t->span;
    r->bad = false;
    for (int i = 0; t->kind == TK_NAME && skipped_keywords[i]; i++)
        if (!strcmp(t->text, skipped_keywords[i])) {
            s->kind = MS_SKIP, s->why = arena_printf(r->a, "'%s' statement", t->text);
            return;
        }
    if (is_name(r, 0, "assert")) { read_assert(r, s); return; }
    if (is_name(r, 0, "pass")) { s->kind = MS_SKIP, s->why = NULL; return; }
    const char *target = NULL;
    if (t->kind == TK_NAME && is_op(r, 1, "=")) target = t->text, r->pos += 2;
    MbExpr *e = expr(r, 0);
    if (!r->bad && pk(r, 0)->kind != TK_NEWLINE && pk(r, 0)->kind != TK_EOF)
        fail(r, is_op(r, 0, "=") || is_op(r, 0, ",") ? "tuple or chained assignment"
                : (pk(r, 0)->kind == TK_OP && strchr(pk(r, 0)->text, '=')) ? "augmented assignment"
                : "a statement form outside the supported subset");
    if (r->bad) { s->kind = MS_SKIP, s->why = r->bad_why; return; }
    s->target = target;
    if (classify_call(r, mb, s, e)) {
        if (s->kind == MS_CHECK && target) s->kind = MS_SKIP, s->why = "an assignment of a check's result";
        return;
    }
    if (target) { s->kind = MS_ASSIGN, s->e = e; return; }
    const char *d = e && e->kind == MBX_CALL ? front_mb_dotted(e->a, buf, sizeof buf) : NULL;
    if (d && !strcmp(d, "print")) { s->kind = MS_SKIP, s->why = NULL; return; }
    s->kind = MS_SKIP;
    if (d && !strchr(d, '.')) s->why = arena_printf(r->a, "call of module function '%s'", d);
    else if (d) s->why = arena_printf(r->a, "call of '%s'", d);
    else s->why = "an expression statement";
}

/* @pl.jit entries and their parameter names. */
static void scan_jits(R *r, MainBlock *mb) {
    VEC(MbJit) js = { 0 };
    int depth = 0;
    bool line_start = true;
    for (int i = 0; i < r->n; i++) {
        Tok *t = &r->t[i];
        if (t->kind == TK_INDENT) depth++;
        if (t->kind == TK_DEDENT) depth--;
        if (t->kind == TK_NEWLINE || t->kind == TK_INDENT || t->kind == TK_DEDENT) { line_start = true; continue; }
        bool at = line_start;
        line_start = false;
        if (!at || depth != 0 || t->kind != TK_OP || strcmp(t->text, "@") || i + 3 >= r->n) continue;
        if (strcmp(r->t[i + 1].text, "pl") || strcmp(r->t[i + 2].text, ".") || strcmp(r->t[i + 3].text, "jit")) continue;
        if (r->t[i + 4].kind == TK_OP && !strcmp(r->t[i + 4].text, ".")) continue;   /* jit.inline / incore helpers */
        int k = i + 4;
        while (k < r->n && r->t[k].kind != TK_NEWLINE) k++;
        while (k < r->n && r->t[k].kind == TK_NEWLINE) k++;
        if (k + 2 >= r->n || strcmp(r->t[k].text, "def") || r->t[k + 1].kind != TK_NAME) continue;
        MbJit j = { r->t[k + 1].text, NULL, 0, r->t[k + 1].span, false };
        StrVec ps = { 0 };
        int b = 0;
        for (int q = k + 2; q < r->n; q++) {
            Tok *u = &r->t[q];
            if (u->kind == TK_OP && strchr("([{", u->text[0]) && !u->text[1]) b++;
            if (u->kind == TK_OP && strchr(")]}", u->text[0]) && !u->text[1] && --b == 0) break;
            Tok *prev = &r->t[q - 1];
            if (b == 1 && u->kind == TK_NAME && prev->kind == TK_OP && (!strcmp(prev->text, "(") || !strcmp(prev->text, ",")))
                vec_push(&ps, u->text);
            Tok *next = &r->t[q + 1 < r->n ? q + 1 : q];
            if (u->kind == TK_NAME && !strcmp(u->text, "Tensor") && !strcmp(prev->text, ".") && next->kind == TK_OP &&
                (!strcmp(next->text, ",") || !strcmp(next->text, ")") || !strcmp(next->text, "]")))
                j.unshaped = true;
        }
        j.nparams = ps.len;
        j.params = ARENA_ARRAY(r->a, const char *, ps.len + 1);
        if (ps.len) memcpy(j.params, ps.data, sizeof(char *) * (size_t)ps.len);
        vec_free(&ps);
        vec_push(&js, j);
    }
    mb->njits = js.len;
    mb->jits = ARENA_ARRAY(r->a, MbJit, js.len + 1);
    if (js.len) memcpy(mb->jits, js.data, sizeof(MbJit) * (size_t)js.len);
    vec_free(&js);
}

/* Position of the first token inside the main block's INDENT, or -1. */
static int find_main(R *r, MainBlock *mb) {
    int depth = 0;
    bool line_start = true;
    for (int i = 0; i + 6 < r->n; i++) {
        Tok *t = &r->t[i];
        if (t->kind == TK_INDENT) depth++;
        if (t->kind == TK_DEDENT) depth--;
        if (t->kind == TK_NEWLINE || t->kind == TK_INDENT || t->kind == TK_DEDENT) { line_start = true; continue; }
        bool at = line_start;
        line_start = false;
        if (!at || depth || t->kind != TK_NAME || strcmp(t->text, "if")) continue;
        Tok *a = &r->t[i + 1], *eq = &r->t[i + 2], *b = &r->t[i + 3];
        if (a->kind != TK_NAME || strcmp(a->text, "__name__") || strcmp(eq->text, "==") || b->kind != TK_STRING ||
            strcmp(b->text, "__main__") || strcmp(r->t[i + 4].text, ":") || r->t[i + 5].kind != TK_NEWLINE ||
            r->t[i + 6].kind != TK_INDENT)
            continue;
        mb->found = true, mb->span = t->span;
        return i + 7;
    }
    return -1;
}

bool front_main_block(IrCtx *c, const SrcFile *src, MainBlock *out) {
    *out = (MainBlock){ 0 };
    out->arena = arena_new();
    const TokVec *toks = front_lex_cached(c, src);      /* front_module_consts reads the same tokens */
    if (!toks) return false;
    R r = { out->arena, toks->data, toks->len, 0, false, NULL };
    scan_jits(&r, out);
    scan_dicts(&r, out);
    int start = find_main(&r, out);
    VEC(MbStmt) ss = { 0 };
    if (start >= 0) {
        r.pos = start;
        while (pk(&r, 0)->kind != TK_DEDENT && pk(&r, 0)->kind != TK_EOF) {
            if (pk(&r, 0)->kind == TK_NEWLINE) { r.pos++; continue; }
            MbStmt s = { 0 };
            read_stmt(&r, out, &s);
            skip_stmt(&r);
            vec_push(&ss, s);
        }
    }
    out->n = ss.len;
    out->stmts = ARENA_ARRAY(out->arena, MbStmt, ss.len + 1);
    if (ss.len) memcpy(out->stmts, ss.data, sizeof(MbStmt) * (size_t)ss.len);
    vec_free(&ss);
    return true;
}

void front_main_block_free(MainBlock *mb) {
    vec_free(&mb->options);
    if (mb->arena) arena_free(mb->arena);
    *mb = (MainBlock){ 0 };
}

const MbJit *front_main_find_jit(const MainBlock *mb, const char *name) {
    for (int i = 0; i < mb->njits; i++)
        if (!strcmp(mb->jits[i].name, name)) return &mb->jits[i];
    return NULL;
}
