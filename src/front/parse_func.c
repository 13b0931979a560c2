/* parse_func — function headers and bodies: @pl.program classes with @pl.function methods (the
 * printed form) and @pl.jit functions (the user form).
 *
 * Requires: parse.c (tokens, symbols, skipping), parse_type.c, parse_stmt.c.
 * Produces: p->prog. A class is parsed in two passes (all signatures, then all bodies) so that a
 * method may call one defined later in the class. The symbol table of each function (its params and
 * the MemRef bases named in its signature) is saved after the header and restored for the body.
 * A @pl.jit function (and a jit helper, parsed at its first call) takes its unshaped parameters'
 * shapes from p->binding (bind.c). */
#include "front/front_internal.h"

#include <string.h>

typedef struct Method { Function *f; int body_pos; Sym *syms; int nsyms; } Method;
typedef VEC(Method) MethodVec;

static bool enum_suffix(const AttrVal *v, const char *prefix, const char **suffix) {
    size_t n = strlen(prefix);
    if (v->kind != AV_ENUM || !v->s || strncmp(v->s, prefix, n) != 0) return false;
    *suffix = v->s + n;
    return true;
}

static bool lookup_functype(const char *s, FuncType *out) {
    for (int i = FT_OPAQUE; i <= FT_GRAPH; i++)
        if (strcmp(ir_functype_name((FuncType)i), s) == 0) { *out = (FuncType)i; return true; }
    return false;
}

static bool lookup_level(const char *s, Level *out) {
    for (int i = LV_AIV; i <= LV_GLOBAL; i++)
        if (strcmp(ir_level_name((Level)i), s) == 0) { *out = (Level)i; return true; }
    return false;
}

bool front_parse_level(Parser *p, const AttrVal *v, Span sp, Level *out) {
    const char *suf;
    if (enum_suffix(v, "pl.Level.", &suf) && lookup_level(suf, out)) return true;
    front_error(p, sp, "expected a level such as pl.Level.CORE_GROUP (levels: AIV, AIC, CORE_GROUP, CHIP_DIE, CHIP, HOST, CLUSTER_0..2, GLOBAL)");
    return false;
}

/* One decorator option; level/role are checked against the type afterwards. */
static bool decorator_option(Parser *p, Function *f, const char *key, Span ksp, Level *lv, Role *role) {
    AttrVal v;
    Span vsp = front_peek(p, 0)->span;
    if (!front_parse_attr_value(p, &v)) return false;
    const char *suf;
    if (strcmp(key, "type") == 0) {
        FuncType t;
        if (!enum_suffix(&v, "pl.FunctionType.", &suf) || !lookup_functype(suf, &t)) {
            front_error(p, vsp, "expected a function type such as pl.FunctionType.InCore (types: Opaque, Orchestration, InCore, AIC, AIV, Group, Spmd, Inline, Graph)");
            return false;
        }
        ir_func_set_type(f, t);
    } else if (strcmp(key, "level") == 0) {
        return front_parse_level(p, &v, vsp, lv);
    } else if (strcmp(key, "role") == 0) {
        if (enum_suffix(&v, "pl.Role.", &suf) && strcmp(suf, "Orchestrator") == 0) *role = ROLE_ORCHESTRATOR;
        else if (enum_suffix(&v, "pl.Role.", &suf) && strcmp(suf, "SubWorker") == 0) *role = ROLE_SUBWORKER;
        else { front_error(p, vsp, "expected pl.Role.Orchestrator or pl.Role.SubWorker"); return false; }
    } else if (strcmp(key, "auto_scope") == 0) {
        if (v.kind != AV_BOOL) { front_error(p, vsp, "auto_scope must be True or False"); return false; }
        ir_attr_set(p->c, &f->attrs, "auto_scope", v);
    } else {
        (void)ksp;
        ir_attr_set(p->c, &f->attrs, key, v);
    }
    return true;
}

static bool parse_decorator_args(Parser *p, Function *f, int args_pos, Span fsp) {
    if (args_pos < 0) return true;
    int saved = p->pos;
    p->pos = args_pos;
    front_next(p);                                       /* '(' */
    Level lv = LV_NONE;
    Role role = ROLE_NONE;
    Span lsp = fsp;
    while (!p->failed && !front_is_op(p, ")")) {
        Span ksp;
        const char *key = front_expect_name(p, "a decorator option such as type=", &ksp);
        if (!key || !front_expect_op(p, "=", "after the decorator option name")) break;
        Span vsp = front_peek(p, 0)->span;
        if (!decorator_option(p, f, key, ksp, &lv, &role)) break;
        if (strcmp(key, "level") == 0 || strcmp(key, "role") == 0) lsp = front_span_join(vsp, front_prev_span(p));
        if (!front_accept_op(p, ",")) break;
    }
    front_expect_op(p, ")", "to close the decorator options");
    p->pos = saved;
    if (p->failed) return false;
    Level dl = ir_functype_level(f->type);
    Role dr = ir_functype_role(f->type);
    if (lv != LV_NONE && dl != LV_NONE && lv != dl) {
        front_error(p, lsp, "level=pl.Level.%s contradicts type=pl.FunctionType.%s (which runs at pl.Level.%s); drop the level",
                    ir_level_name(lv), ir_functype_name(f->type), ir_level_name(dl));
        return false;
    }
    if (role != ROLE_NONE && dr != ROLE_NONE && role != dr) {
        front_error(p, lsp, "role=pl.Role.%s contradicts type=pl.FunctionType.%s (role %s); drop the role",
                    ir_role_name(role), ir_functype_name(f->type), ir_role_name(dr));
        return false;
    }
    if (lv != LV_NONE) f->level = lv;
    if (role != ROLE_NONE) f->role = role;
    return true;
}

static bool parse_params(Parser *p, Function *f, bool method) {
    if (!front_expect_op(p, "(", "after the function name")) return false;
    if (method) {
        Tok *t = front_peek(p, 0);
        if (t->kind != TK_NAME || strcmp(t->text, "self") != 0) {
            front_error(p, t->span, "the first parameter of a @pl.function method must be 'self'");
            return false;
        }
        front_next(p);
        if (!front_accept_op(p, ",") && !front_is_op(p, ")")) return front_expect_op(p, ")", "after the parameters");
    }
    while (!p->failed && !front_is_op(p, ")")) {
        Span sp;
        const char *name = front_expect_name(p, "a parameter name", &sp);
        if (!name) return false;
        if (front_sym_find(p, name)) { front_error(p, sp, "duplicate parameter '%s'", name); return false; }
        if (!front_is_op(p, ":")) {
            front_error(p, sp, "parameter '%s' needs a type annotation, e.g. %s: pl.Tensor[[128, 512], pl.FP16]", name, name);
            return false;
        }
        front_next(p);
        ParamDir d = PD_IN;
        if (p->user_form) front_bind_dynamic_dims(p, name);
        Type *t = front_parse_param_type(p, &d);
        if (t && p->user_form) t = front_bind_param(p, name, sp, t, d);    /* @pl.jit: the specialisation */
        if (!t) return false;
        Var *v = ir_var_new(p->c, name, t);
        v->span = sp;
        front_rebind(p, name, v);
        ir_func_add_param(p->c, f, v, d);
        if (!front_accept_op(p, ",")) break;
    }
    return front_expect_op(p, ")", "to close the parameter list");
}

/* At 'def'. Parses the signature, leaves p->pos at the NEWLINE of the body. */
static Function *parse_header(Parser *p, int deco_args, bool method, FuncType deflt) {
    front_next(p);                                       /* def */
    Span nsp;
    const char *name = front_expect_name(p, "a function name", &nsp);
    if (!name) return NULL;
    Function *f = ir_func_new(p->c, name, deflt);
    f->span = nsp;
    vec_clear(&p->syms);
    p->fn = f;
    if (!parse_decorator_args(p, f, deco_args, nsp) || !parse_params(p, f, method)) return NULL;
    if (front_accept_op(p, "->")) {
        int n = 0;
        Type **ts = NULL;
        if (!front_parse_return_type(p, &n, &ts)) return NULL;
        f->nreturns = n;
        f->return_types = ts;
    }
    if (!front_expect_op(p, ":", "after the function signature")) return NULL;
    Tok *t = front_peek(p, 0);
    if (t->kind != TK_NEWLINE) {
        front_error(p, t->span, "expected a new line and an indented body after ':' (one-line bodies are not supported)");
        return NULL;
    }
    return f;
}

static bool parse_body(Parser *p, Function *f) {
    p->fn = f;
    return front_parse_block(p, &f->body, NULL);
}

static bool parse_method(Parser *p, MethodVec *ms, int deco_args, bool method, FuncType deflt) {
    Function *f = parse_header(p, deco_args, method, deflt);
    if (!f) return false;
    if (ir_program_find(p->prog, f->name)) {
        front_error(p, f->span, "duplicate function '%s' in the program", f->name);
        return false;
    }
    ir_program_add(p->c, p->prog, f);
    Method m = { f, p->pos, ARENA_ARRAY(p->c->arena, Sym, p->syms.len + 1), p->syms.len };
    if (p->syms.len) memcpy(m.syms, p->syms.data, sizeof(Sym) * (size_t)p->syms.len);
    vec_push(ms, m);
    front_skip_statement(p);                             /* the body, parsed in the second pass */
    return true;
}

static bool parse_class_members(Parser *p, MethodVec *ms) {
    while (!p->failed && front_peek(p, 0)->kind != TK_DEDENT && front_peek(p, 0)->kind != TK_EOF) {
        if (front_peek(p, 0)->kind == TK_NEWLINE) { front_next(p); continue; }
        bool is_fn = false;
        int args = -1;
        while (front_is_op(p, "@")) {
            int a;
            const char *d = front_read_decorator(p, &a);
            if (d && strcmp(d, "pl.function") == 0) { is_fn = true; args = a; }
        }
        if (is_fn && front_is_name(p, "def")) {
            if (!parse_method(p, ms, args, true, FT_OPAQUE)) return false;
        } else front_skip_statement(p);
    }
    return !p->failed;
}

bool front_parse_program_class(Parser *p) {
    front_next(p);                                       /* class */
    Span sp;
    const char *name = front_expect_name(p, "a class name", &sp);
    if (!name) return false;
    for (int i = 0; p->binding && i < p->binding->nargs; i++)
        if (p->binding->args[i].kind != FA_TENSOR) {     /* nothing would substitute it */
            front_error(p, sp, "'%s' is bound to a value, but scalar values bind parameters of a @pl.jit function; "
                        "@pl.program class '%s' takes its scalars at run time", p->binding->args[i].name, name);
            return false;
        }
    if (front_accept_op(p, "(")) {
        while (!p->failed && !front_is_op(p, ")") && front_peek(p, 0)->kind != TK_EOF) front_next(p);
        front_expect_op(p, ")", "to close the base list");
    }
    if (!front_expect_op(p, ":", "after the class name")) return false;
    if (front_peek(p, 0)->kind != TK_NEWLINE || front_peek(p, 1)->kind != TK_INDENT) {
        front_error(p, front_peek(p, 0)->span, "expected an indented class body after 'class %s:'", name);
        return false;
    }
    front_next(p);
    front_next(p);
    p->prog = ir_program_new(p->c, name);
    MethodVec ms = { 0 };
    bool ok = parse_class_members(p, &ms);
    for (int i = 0; ok && i < p->nexterns; i++) {          /* module-level kernels it calls (parse.c) */
        p->pos = p->externs[i].pos;
        ok = parse_method(p, &ms, p->externs[i].deco_args, false, p->externs[i].inline_ ? FT_INLINE : FT_OPAQUE);
    }
    for (int i = 0; ok && i < ms.len; i++) {
        Method *m = &ms.data[i];
        vec_clear(&p->syms);
        for (int k = 0; k < m->nsyms; k++) vec_push(&p->syms, m->syms[k]);
        p->pos = m->body_pos;
        ok = parse_body(p, m->f);
    }
    vec_free(&ms);
    return ok && !p->failed;
}

/* ---- which names of a @pl.jit body may be compile-time constants ----
 * `K = 512` folds K into every later use. That is only right when the assignment is the name's
 * only one and runs unconditionally: a second assignment, or one inside an if / for / while body,
 * makes the value depend on control flow (the loop's next iteration, the branch taken), so such
 * names stay variables. The body's tokens are scanned once before it is parsed. */
typedef struct NameUse { const char *name; int count; bool in_control; } NameUse;
typedef VEC(NameUse) NameUses;

static void note_assigned(NameUses *uses, const char *name, bool in_control) {
    for (int i = 0; i < uses->len; i++)
        if (uses->data[i].name == name) {
            uses->data[i].count++;
            uses->data[i].in_control |= in_control;
            return;
        }
    NameUse u = { name, 1, in_control };
    vec_push(uses, u);
}

/* Targets of the logical line at tokens[i]: NAME [, NAME]* then '=', an annotation or an augmented op. */
static void line_targets(Parser *p, int i, NameUses *uses, bool in_control) {
    static const char *const aug[] = { "+=", "-=", "*=", "/=", "//=", "%=", "**=", "<<=", ">>=", "&=", "|=", "^=", NULL };
    int j = i;
    while (p->toks[j].kind == TK_NAME && p->toks[j + 1].kind == TK_OP && strcmp(p->toks[j + 1].text, ",") == 0) j += 2;
    if (p->toks[j].kind != TK_NAME || p->toks[j + 1].kind != TK_OP) return;
    const char *op = p->toks[j + 1].text;
    bool assign = strcmp(op, "=") == 0 || (strcmp(op, ":") == 0 && j == i);
    for (int k = 0; aug[k] && !assign; k++) assign = strcmp(op, aug[k]) == 0 && j == i;
    if (!assign) return;
    for (int k = i; k <= j; k += 2) note_assigned(uses, p->toks[k].text, in_control);
}

static void scan_variables(Parser *p, int body_pos) {
    NameUses uses = { 0 };
    bool control[128] = { false };        /* per indentation level: inside an if / for / while body */
    int depth = 0, i = body_pos;
    bool line_start = true, opens_control = false;
    for (; i < p->ntoks - 1; i++) {
        Tok *t = &p->toks[i];
        if (t->kind == TK_INDENT) {
            if (depth < 127) { control[depth + 1] = control[depth] || opens_control; depth++; }
            line_start = true;
            continue;
        }
        if (t->kind == TK_DEDENT) { if (--depth <= 0) break; line_start = true; continue; }
        if (t->kind == TK_NEWLINE) { line_start = true; continue; }
        if (t->kind == TK_EOF) break;
        if (!line_start) continue;
        line_start = false;
        opens_control = false;
        if (t->kind != TK_NAME) continue;
        if (!strcmp(t->text, "if") || !strcmp(t->text, "elif") || !strcmp(t->text, "else") || !strcmp(t->text, "while")) {
            opens_control = true;
        } else if (!strcmp(t->text, "for")) {
            opens_control = true;
            line_targets(p, i + 1, &uses, true);        /* for i in ...: i belongs to the loop */
        } else if (strcmp(t->text, "with") != 0)
            line_targets(p, i, &uses, control[depth]);
    }
    for (int k = 0; k < uses.len; k++)
        if (uses.data[k].count > 1 || uses.data[k].in_control) vec_push(&p->variables, uses.data[k].name);
    vec_free(&uses);
}

bool front_is_variable_name(Parser *p, const char *name) {
    for (int i = 0; i < p->variables.len; i++)
        if (strcmp(p->variables.data[i], name) == 0) return true;
    return false;
}

Function *front_parse_jit_function(Parser *p, int def_pos, int deco_args, FuncType type) {
    p->pos = def_pos;
    p->user_form = true;
    p->return_line = 0;
    Function *f = parse_header(p, deco_args, false, type);
    if (!f || !front_bind_scalars(p, f)) return NULL;
    if (type == FT_ORCHESTRATION || type == FT_INCORE) {
        if (ir_program_find(p->prog, f->name)) { front_error(p, f->span, "duplicate function '%s' in the program", f->name); return NULL; }
        ir_program_add(p->c, p->prog, f);
    }
    vec_clear(&p->variables);
    scan_variables(p, p->pos);
    if (!parse_body(p, f) || p->failed || !front_splice_inlines(p, f)) return NULL;
    return f;
}

bool front_parse_jit(Parser *p, int def_pos) {
    p->prog = ir_program_new(p->c, p->toks[def_pos + 1].text);
    return front_parse_jit_function(p, def_pos, -1, FT_ORCHESTRATION) != NULL && !p->failed;
}
