/* call_sig — the user-visible parameter lists of the operations (language.md §2) and the one step
 * that binds a call's arguments to them: every argument by position or by its parameter name,
 * omitted trailing parameters taking their defaults, as Python binds a call.
 *
 * Requires: a parsed call (positional Exprs in call.args, keyword AttrVals in call.kwargs) whose
 * op is chosen; parse.c tokens (to locate a keyword in the source for diagnostics).
 * Produces: the call in IR form: the op's positional operands (ops.def arity) in order and its
 * options as kwargs. Ops without an entry are left as parsed (their IR form is their user form).
 * Why one table: the user form and the IR differ for most data-movement ops (dtype is positional
 * upstream but an option in the IR; target_memory may be given by position), and a per-call-site
 * special case misses the next spelling. The printed form binds to the same lists unchanged, so
 * dumps still parse back equal.
 *
 * Signature strings: parameters separated by spaces, in positional order.
 *   name         a required IR operand          name=@other   an IR operand defaulting to other's value
 *   name=D       an optional IR operand (omitted when absent or None; D is shown in messages)
 *   ~name[=D]    an IR option (kwarg), may still be given by position
 *   !name=D      accepted only at its default D (None / False / an enum name), then dropped
 *   *            the parameters after it are keyword-only */
#include "front/front_internal.h"

#include <pthread.h>
#include <string.h>

static const struct { const char *ops, *sig; } sigs[] = {
    { "tile.load", "tensor offsets shapes valid_shape=@shapes ~target_memory=pl.Mem.Vec ~clamp=False" },
    { "tile.store", "tile offsets output_tensor shapes=None * ~atomic=pl.AtomicType.None_" },
    { "tensor.slice", "input shape offset valid_shape=None !drop_dims=None !pad_value=None !clamp=False" },
    { "tile.slice", "tile shape offset valid_shape=None !drop_dims=None ~pad_value=None" },
    { "tile.extract", "src index_row index_col shape * ~target_memory" },
    { "tile.move", "tile ~target_memory ~blayout=None ~slayout=None" },
    { "tile.create", "shape ~dtype ~target_memory=pl.Mem.Vec ~transpose=None * ~flat_layout=None" },
    { "tensor.create", "shape ~dtype !layout=pl.TensorLayout.ND !manual_dep=False !init_value=None" },
    { "tensor.full tile.full", "shape dtype value" },
    { "tensor.assemble", "target source offset * ~atomic=pl.AtomicType.None_" },
    { "tile.assemble", "target source offset" },
    { "tile.set_validshape", "input valid_rows valid_cols" },
    { "tensor.fillpad tile.fillpad tile.fillpad_inplace", "input ~pad_value=pl.PadValue.zero" },
    { "tensor.fillpad_expand tile.fillpad_expand", "input shape ~pad_value=pl.PadValue.zero" },
    { "tensor.read tile.read", "src indices" },
    { "tensor.write tile.write", "dst indices value" },
    { "tensor.matmul", "lhs rhs ~out_dtype=None ~a_trans=False ~b_trans=False ~c_matrix_nz=False" },
    { "tile.matmul", "lhs rhs" },
    { "tensor.matmul_acc", "acc lhs rhs ~a_trans=False ~b_trans=False ~init_cond=None" },
    { "tile.matmul_acc", "acc lhs rhs init_cond=None" },
    { "tensor.cast tile.cast", "input target_type ~mode=\"round\"" },
    { "tensor.expands tile.expands", "target scalar" },
    { "tile.row_sum tile.row_max tile.row_min tile.row_prod tile.col_sum tile.col_max tile.col_min tile.col_prod "
      "tile.row_argmax tile.row_argmin tile.col_argmax tile.col_argmin", "tile tmp_tile=None" },
    { "tensor.row_sum tensor.row_max tensor.row_min tensor.row_prod tensor.col_sum tensor.col_max tensor.col_min "
      "tensor.col_prod tensor.row_argmax tensor.row_argmin tensor.col_argmax tensor.col_argmin", "tile" },
};

#define MAX_PARAMS 12

typedef struct Param {
    char name[24];
    char dflt[32];             /* "" = required */
    char kind;                 /* 'p' IR operand, 'k' IR option, 'u' accepted at its default only */
    bool kwonly;
} Param;

typedef struct Bound {         /* one parameter's argument */
    bool given, none;          /* given: by position or keyword; none: its value is None */
    Expr *expr;                /* by position */
    const AttrVal *attr;       /* by keyword */
} Bound;

static bool has_token(const char *list, const char *name) {
    size_t n = strlen(name);
    for (const char *s = list; (s = strstr(s, name)) != NULL; s += n)
        if ((s == list || s[-1] == ' ') && (s[n] == ' ' || s[n] == 0)) return true;
    return false;
}

static const char *find_signature(const char *op_name) {
    for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++)
        if (has_token(sigs[i].ops, op_name)) return sigs[i].sig;
    return NULL;
}

/* Every op's signature, found once: the parser asks twice per call it reads, and the strstr walk
 * of the table showed in parsing a long kernel. */
static const char *sig_of_op[OP_COUNT];
static pthread_once_t sig_once = PTHREAD_ONCE_INIT;
static void sig_build(void) {
    for (int i = 0; i < OP_COUNT; i++) sig_of_op[i] = find_signature(ir_op_info((OpId)i)->name);
}

const char *front_call_signature(const char *op_name) {
    OpId op = ir_op_lookup(op_name);
    if (op == OP_NONE) return find_signature(op_name);
    pthread_once(&sig_once, sig_build);
    return sig_of_op[op];
}

static int parse_sig(const char *sig, Param *out) {
    int n = 0;
    bool kwonly = false;
    for (const char *s = sig; *s;) {
        while (*s == ' ') s++;
        if (!*s) break;
        const char *e = s;
        while (*e && *e != ' ') e++;
        if (*s == '*' && e == s + 1) { kwonly = true; s = e; continue; }
        PTOC_ASSERT(n < MAX_PARAMS, "call signature too long: %s", sig);
        Param *q = &out[n++];
        memset(q, 0, sizeof *q);
        q->kind = *s == '~' ? 'k' : *s == '!' ? 'u' : 'p';
        if (q->kind != 'p') s++;
        const char *eq = memchr(s, '=', (size_t)(e - s));
        const char *ne = eq ? eq : e;
        PTOC_ASSERT((size_t)(ne - s) < sizeof q->name && (!eq || (size_t)(e - eq - 1) < sizeof q->dflt), "call signature item too long");
        memcpy(q->name, s, (size_t)(ne - s));
        if (eq) memcpy(q->dflt, eq + 1, (size_t)(e - eq - 1));
        q->kwonly = kwonly;
        s = e;
    }
    return n;
}

/* "tensor, offsets, shapes, valid_shape=None, ..." for messages */
static const char *param_list(Parser *p, const Param *ps, int n) {
    StrBuf sb = { 0 };
    for (int i = 0; i < n; i++) {
        if (i && ps[i].kwonly && !ps[i - 1].kwonly) sb_puts(&sb, ", *");
        sb_printf(&sb, "%s%s%s%s", i ? ", " : "", ps[i].name, ps[i].dflt[0] ? "=" : "",
                  ps[i].dflt[0] == '@' ? ps[i].dflt + 1 : ps[i].dflt);
    }
    const char *r = front_intern(p, sb_cstr(&sb));
    sb_free(&sb);
    return r;
}

/* The span of keyword `key` among the arguments of the call whose ')' was just read; `fallback`
 * when the call was not parsed from source just now (a rewritten call). */
static Span kw_span(Parser *p, const char *key, Span fallback) {
    int i = p->pos - 1;
    if (i < 1 || i >= p->ntoks || strcmp(p->toks[i].text ? p->toks[i].text : "", ")") != 0) return fallback;
    int depth = 0;
    for (; i >= 0; i--) {
        Tok *t = &p->toks[i];
        if (t->kind == TK_OP && (strcmp(t->text, ")") == 0 || strcmp(t->text, "]") == 0 || strcmp(t->text, "}") == 0)) depth++;
        else if (t->kind == TK_OP && (strcmp(t->text, "(") == 0 || strcmp(t->text, "[") == 0 || strcmp(t->text, "{") == 0)) {
            if (--depth == 0) break;
        } else if (depth == 1 && t->kind == TK_NAME && strcmp(t->text, key) == 0 && i + 1 < p->ntoks &&
                   p->toks[i + 1].kind == TK_OP && strcmp(p->toks[i + 1].text, "=") == 0)
            return t->span;
    }
    return fallback;
}

static bool is_none_expr(const Expr *e) { return e->kind == EX_ENUM && e->enm.kind == AV_ENUM && e->enm.s && strcmp(e->enm.s, "None") == 0; }
static bool is_none_attr(const AttrVal *v) { return v->kind == AV_ENUM && v->s && strcmp(v->s, "None") == 0; }

Expr *front_attr_to_expr(Parser *p, const AttrVal *v) {
    switch (v->kind) {
    case AV_INT: return ir_const_int(p->c, v->i, DT_INDEX);
    case AV_FLOAT: return ir_const_float(p->c, v->f, DT_FP32);
    case AV_BOOL: return ir_const_bool(p->c, v->i != 0);
    case AV_EXPR: return v->expr;
    case AV_LIST: {                                    /* offsets=[r, 0], valid_shape=[5, n] */
        Expr **items = ARENA_ARRAY(p->c->arena, Expr *, v->nitems ? v->nitems : 1);
        for (int k = 0; k < v->nitems; k++)
            if (!(items[k] = front_attr_to_expr(p, &v->items[k]))) return NULL;
        return ir_tuple(p->c, items, v->nitems);
    }
    default: {                                         /* dtypes, memory spaces, enums, strings */
        Expr *e = ARENA_NEW(p->c->arena, Expr);
        e->kind = EX_ENUM;
        e->enm = *v;
        return e;
    }
    }
}

/* An unsupported parameter's value equals its default: None, False, or the enum named D. */
static bool at_default(const Param *q, const Bound *b) {
    if (b->none) return true;
    AttrVal v = b->attr ? *b->attr : front_expr_to_attr(b->expr);
    if (strcmp(q->dflt, "False") == 0) return v.kind == AV_BOOL && !v.i;
    if (v.kind == AV_ENUM && v.s && strcmp(v.s, q->dflt) == 0) return true;
    return false;
}

/* Binds the arguments (positional, then keyword) to the parameters; reports Python's errors. */
static bool bind(Parser *p, Expr *call, const char *what, const Param *ps, int n, Bound *b, AttrList *pass) {
    int npos = 0;
    for (int i = 0; i < n; i++) npos += !ps[i].kwonly;
    if (call->call.nargs > npos) {
        front_error(p, call->call.args[npos]->span.line ? call->call.args[npos]->span : call->span,
                    "%s takes at most %d positional argument%s, got %d (parameters: %s)", what, npos, npos == 1 ? "" : "s",
                    call->call.nargs, param_list(p, ps, n));
        return false;
    }
    for (int i = 0; i < call->call.nargs; i++)
        b[i] = (Bound){ .given = true, .none = is_none_expr(call->call.args[i]), .expr = call->call.args[i] };
    for (int k = 0; k < call->call.kwargs.len; k++) {
        const Attr *a = &call->call.kwargs.items[k];
        int i = 0;
        while (i < n && strcmp(ps[i].name, a->key) != 0) i++;
        if (i == n) {
            if (call->call.op != OP_NONE && ir_op_accepts_kwarg(call->call.op, a->key)) {   /* an IR-only option: compact= */
                ir_attr_set(p->c, pass, a->key, a->val);
                continue;
            }
            front_error(p, kw_span(p, a->key, call->span), "%s has no parameter '%s' (parameters: %s)", what, a->key,
                        param_list(p, ps, n));
            return false;
        }
        if (b[i].given) {
            front_error(p, kw_span(p, a->key, call->span), "%s: argument '%s' is given both by position and by keyword", what,
                        a->key);
            return false;
        }
        b[i] = (Bound){ .given = true, .none = is_none_attr(&a->val), .attr = &a->val };
    }
    return true;
}

bool front_bind_signature(Parser *p, Expr *call, const char *what, const char *sig) {
    Param ps[MAX_PARAMS];
    Bound b[MAX_PARAMS] = { 0 };
    int n = parse_sig(sig, ps);
    AttrList pass = { 0 }, kw = { 0 };
    if (!bind(p, call, what, ps, n, b, &pass)) return false;
    Expr *args[MAX_PARAMS];
    int nargs = 0;
    const char *omitted = NULL;
    for (int i = 0; i < n; i++) {
        const Param *q = &ps[i];
        if (q->kind == 'u') {
            if (b[i].given && !at_default(q, &b[i])) {
                front_error(p, b[i].attr ? kw_span(p, q->name, call->span) : b[i].expr->span.line ? b[i].expr->span : call->span,
                            "%s: parameter '%s' is not supported by ptoc (only its default %s)", what, q->name, q->dflt);
                return false;
            }
            continue;
        }
        Bound v = b[i];
        if ((!v.given || v.none) && q->dflt[0] == '@') {          /* valid_shape defaults to shapes */
            int j = 0;
            while (j < n && strcmp(ps[j].name, q->dflt + 1) != 0) j++;
            PTOC_ASSERT(j < i, "call signature default names a later parameter");
            v = b[j];
        }
        if (!v.given || v.none) {
            if (!q->dflt[0]) {
                front_error(p, call->span, "%s: missing argument '%s' (parameters: %s)", what, q->name, param_list(p, ps, n));
                return false;
            }
            if (q->kind == 'p' && !omitted) omitted = q->name;
            continue;
        }
        if (q->kind == 'k') {
            ir_attr_set(p->c, &kw, q->name, v.attr ? *v.attr : front_expr_to_attr(v.expr));
            continue;
        }
        if (omitted) {
            front_error(p, call->span, "%s: '%s' is given but '%s' before it is not (ptoc needs both)", what, q->name, omitted);
            return false;
        }
        if (!(args[nargs++] = v.expr ? v.expr : front_attr_to_expr(p, v.attr))) {
            front_error(p, kw_span(p, q->name, call->span), "%s: unexpected value for '%s'", what, q->name);
            return false;
        }
    }
    /* options in the order written (a dump parses back equal), positional ones after */
    AttrList out = { 0 };
    for (int k = 0; k < call->call.kwargs.len; k++) {
        const char *key = call->call.kwargs.items[k].key;
        const AttrVal *v = ir_attr_get(&kw, key);
        if (!v) v = ir_attr_get(&pass, key);
        if (v) ir_attr_set(p->c, &out, key, *v);
    }
    for (int k = 0; k < kw.len; k++)
        if (!ir_attr_get(&out, kw.items[k].key)) ir_attr_set(p->c, &out, kw.items[k].key, kw.items[k].val);
    call->call.args = ARENA_ARRAY(p->c->arena, Expr *, nargs ? nargs : 1);
    if (nargs) memcpy(call->call.args, args, sizeof(Expr *) * (size_t)nargs);
    call->call.nargs = nargs;
    call->call.kwargs = out;
    return true;
}

static bool same_const_tuple(const Expr *a, const Expr *b) {
    if (a->kind != EX_TUPLE || b->kind != EX_TUPLE || a->tuple.n != b->tuple.n) return false;
    for (int i = 0; i < a->tuple.n; i++) {
        int64_t x, y;
        if (!ir_is_const_int(a->tuple.items[i], &x) || !ir_is_const_int(b->tuple.items[i], &y) || x != y) return false;
    }
    return true;
}

/* A tensor slice's valid_shape: the passes lower a tensor slice to a fully valid window, so only a
 * valid_shape equal to the shape is accepted (and dropped); a partial one would be silently
 * computed over the whole window. */
static bool tensor_slice_valid_shape(Parser *p, Expr *call) {
    if (call->call.op != OP_TENSOR_SLICE || call->call.nargs < 4) return true;
    if (same_const_tuple(call->call.args[3], call->call.args[1])) { call->call.nargs = 3; return true; }
    front_error(p, call->call.args[3]->span.line ? call->call.args[3]->span : call->span,
                "tensor.slice: a valid_shape smaller than the slice is not supported by ptoc yet; load the window at the tile "
                "level with pl.load(t, offsets, shapes, valid_shape=[...]) instead");
    return false;
}

bool front_bind_call(Parser *p, Expr *call) {
    if (call->call.op == OP_NONE) return true;
    const char *sig = front_call_signature(ir_op_info(call->call.op)->name);
    return (!sig || front_bind_signature(p, call, ir_op_info(call->call.op)->name, sig)) && tensor_slice_valid_shape(p, call);
}
