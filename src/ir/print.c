/* print — the IR as pl DSL text (spec/ir_and_passes.md §3; exact rules in docs/ir-format.md).
 *
 * Requires: a well-formed IR (types on every expression that is printed with one).
 * Produces: text that front_parse reads back to a structurally equal program.
 * Naming: within a function, the first Var printed with a given name_hint keeps it; a later distinct
 * Var with the same hint gets <hint>_1, _2, ... (skipping names already taken), so distinct Vars
 * always print distinct names and the same Var always prints the same name. Names are assigned
 * lazily in printing order. */
#include "ir/ir.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Open-addressing tables (capacity a power of two, at most half full): a function of 10,000
 * statements prints in linear time. PrMap maps a pointer (Var) to a string; PrSet holds strings. */
typedef struct PrMap { const void **key; const char **val; int cap, n; } PrMap;
typedef struct PrSet { const char **key; int cap, n; } PrSet;

static unsigned pr_hash_ptr(const void *p) { uintptr_t x = (uintptr_t)p; x ^= x >> 17; return (unsigned)(x * 2654435761u); }
static unsigned pr_hash_str(const char *s) { unsigned h = 2166136261u; while (*s) h = (h ^ (unsigned char)*s++) * 16777619u; return h; }

static const char **map_slot(PrMap *m, const void *k) {   /* the value slot of k, NULL when absent */
    if (!m->cap) return NULL;
    for (unsigned i = pr_hash_ptr(k) & (unsigned)(m->cap - 1);; i = (i + 1) & (unsigned)(m->cap - 1)) {
        if (m->key[i] == k) return &m->val[i];
        if (!m->key[i]) return NULL;
    }
}

static void map_put(PrMap *m, const void *k, const char *v) {
    if (2 * (m->n + 1) > m->cap) {
        PrMap o = *m;
        m->cap = o.cap ? 2 * o.cap : 64; m->n = 0;
        m->key = calloc((size_t)m->cap, sizeof *m->key); m->val = calloc((size_t)m->cap, sizeof *m->val);
        PTOC_ASSERT(m->key && m->val, "out of memory");
        for (int i = 0; i < o.cap; i++) if (o.key[i]) map_put(m, o.key[i], o.val[i]);
        free(o.key); free(o.val);
    }
    unsigned i = pr_hash_ptr(k) & (unsigned)(m->cap - 1);
    while (m->key[i] && m->key[i] != k) i = (i + 1) & (unsigned)(m->cap - 1);
    if (!m->key[i]) m->n++;
    m->key[i] = k; m->val[i] = v;
}

static bool set_has(const PrSet *t, const char *s) {
    if (!t->cap) return false;
    for (unsigned i = pr_hash_str(s) & (unsigned)(t->cap - 1); t->key[i]; i = (i + 1) & (unsigned)(t->cap - 1))
        if (strcmp(t->key[i], s) == 0) return true;
    return false;
}

static void set_add(PrSet *t, const char *s) {
    if (2 * (t->n + 1) > t->cap) {
        PrSet o = *t;
        t->cap = o.cap ? 2 * o.cap : 64; t->n = 0;
        t->key = calloc((size_t)t->cap, sizeof *t->key);
        PTOC_ASSERT(t->key, "out of memory");
        for (int i = 0; i < o.cap; i++) if (o.key[i]) set_add(t, o.key[i]);
        free(o.key);
    }
    unsigned i = pr_hash_str(s) & (unsigned)(t->cap - 1);
    while (t->key[i]) { if (strcmp(t->key[i], s) == 0) return; i = (i + 1) & (unsigned)(t->cap - 1); }
    t->key[i] = s; t->n++;
}

typedef struct Pr {
    StrBuf *out;
    PrintOpts o;
    bool named;                       /* per-function renaming active */
    PrMap names;                      /* Var -> its printed name */
    PrSet taken;                      /* names given so far */
    PrMap assigned;                   /* vars defined by an assignment (MemRef bases print bare) */
    Arena *arena;
} Pr;

static void pr_init(Pr *pr, StrBuf *out, PrintOpts o, bool named) {
    memset(pr, 0, sizeof *pr);
    pr->out = out;
    pr->o = o;
    pr->named = named;
    if (named) pr->arena = arena_new();
}

static void pr_free(Pr *pr) {
    free(pr->names.key); free(pr->names.val);
    free(pr->taken.key);
    free(pr->assigned.key); free(pr->assigned.val);
    if (pr->arena) arena_free(pr->arena);
}

static bool name_taken(Pr *pr, const char *s) { return set_has(&pr->taken, s); }

/* Names the parser would not read back as a variable get a trailing '_'. */
static bool name_reserved(const char *s) {
    static const char *const kw[] = { "pl", "self", "True", "False", "None", "and", "or", "not", "in", "is", "if", "else",
                                      "elif", "for", "while", "with", "return", "pass", "def", "class", "import", "from",
                                      "as", "lambda", "yield", "break", "continue", "del", "global", "nonlocal", "try",
                                      "except", "finally", "raise", "assert", "async", "await", "tuple", NULL };
    for (int i = 0; kw[i]; i++)
        if (strcmp(s, kw[i]) == 0) return true;
    if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || *s == '_' || (unsigned char)*s >= 0x80)) return true;
    for (const char *c = s; *c; c++)
        if (!((*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') || (*c >= '0' && *c <= '9') || *c == '_' || (unsigned char)*c >= 0x80))
            return true;
    return false;
}

static const char *var_name(Pr *pr, const Var *v) {
    const char *hint = v->name && *v->name ? v->name : "v";
    if (!pr->named) return hint;
    const char **known = map_slot(&pr->names, v);
    if (known) return *known;
    if (name_reserved(hint)) {                 /* keywords get '_'; other characters become '_' */
        StrBuf sb = { 0 };
        if (hint[0] >= '0' && hint[0] <= '9') sb_putc(&sb, 'v');
        for (const char *c = hint; *c; c++) {
            bool ok = (*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') || (*c >= '0' && *c <= '9') || *c == '_' ||
                      (unsigned char)*c >= 0x80;
            sb_putc(&sb, ok ? *c : '_');
        }
        sb_putc(&sb, '_');
        hint = arena_strdup(pr->arena, sb_cstr(&sb));
        sb_free(&sb);
    }
    const char *name = hint;
    for (int k = 1; name_taken(pr, name); k++) name = arena_printf(pr->arena, "%s_%d", hint, k);
    map_put(&pr->names, v, name);
    set_add(&pr->taken, name);
    return name;
}

static bool is_assigned(Pr *pr, const Var *v) { return map_slot(&pr->assigned, v) != NULL; }

static void collect_assigned(Pr *pr, const StmtList *l) {
    for (int i = 0; i < l->len; i++) {
        const Stmt *s = l->items[i];
        switch (s->kind) {
        case ST_ASSIGN: map_put(&pr->assigned, s->assign.var, ""); break;
        case ST_IF: collect_assigned(pr, &s->if_.then_body); collect_assigned(pr, &s->if_.else_body); break;
        case ST_FOR: collect_assigned(pr, &s->for_.body); break;
        case ST_WHILE: collect_assigned(pr, &s->while_.body); break;
        case ST_SCOPE: collect_assigned(pr, &s->scope.body); break;
        default: break;
        }
    }
}

/* ---------------------------------------------------------------- literals and attributes */
static void put_float(StrBuf *sb, double v) {
    if (isinf(v)) { sb_puts(sb, v > 0 ? "1e999" : "-1e999"); return; }
    if (isnan(v)) { sb_puts(sb, "nan"); return; }
    char buf[64];
    for (int prec = 1; prec <= 17; prec++) {
        snprintf(buf, sizeof buf, "%.*g", prec, v);
        if (strtod(buf, NULL) == v) break;
    }
    sb_puts(sb, buf);
    if (!strpbrk(buf, ".e")) sb_puts(sb, ".0");
}

static void put_str(StrBuf *sb, const char *s) {
    sb_putc(sb, '"');
    for (; s && *s; s++) {
        if (*s == '"' || *s == '\\') { sb_putc(sb, '\\'); sb_putc(sb, *s); }
        else if (*s == '\n') sb_puts(sb, "\\n");
        else if (*s == '\t') sb_puts(sb, "\\t");
        else sb_putc(sb, *s);
    }
    sb_putc(sb, '"');
}

static void print_expr_p(Pr *pr, const Expr *e, int ctx);

static void print_attrval(Pr *pr, const AttrVal *v) {
    StrBuf *sb = pr->out;
    switch (v->kind) {
    case AV_INT: sb_printf(sb, "%lld", (long long)v->i); break;
    case AV_FLOAT: put_float(sb, v->f); break;
    case AV_BOOL: sb_puts(sb, v->i ? "True" : "False"); break;
    case AV_STR: put_str(sb, v->s); break;
    case AV_DTYPE: sb_printf(sb, "pl.%s", dtype_name(v->dtype)); break;
    case AV_MEM: sb_printf(sb, "pl.Mem.%s", memspace_name(v->mem)); break;
    case AV_ENUM: sb_puts(sb, v->s ? v->s : "None"); break;
    case AV_LIST:
        sb_putc(sb, '[');
        for (int i = 0; i < v->nitems; i++) {
            if (i) sb_puts(sb, ", ");
            print_attrval(pr, &v->items[i]);
        }
        sb_putc(sb, ']');
        break;
    case AV_EXPR: print_expr_p(pr, v->expr, 0); break;
    }
}

static void print_attr_dict(Pr *pr, const AttrList *l) {
    sb_putc(pr->out, '{');
    for (int i = 0; i < l->len; i++) {
        if (i) sb_puts(pr->out, ", ");
        put_str(pr->out, l->items[i].key);
        sb_puts(pr->out, ": ");
        print_attrval(pr, &l->items[i].val);
    }
    sb_putc(pr->out, '}');
}

/* ", k=v" for each kwarg */
/* A pl.at region's split / slot_num print as its optimizations list (front/parse_optim.c). */
static bool is_optimization(const char *key) { return strcmp(key, "split") == 0 || strcmp(key, "slot_num") == 0; }

static void print_optimizations(Pr *pr, const AttrList *l, bool *first) {
    static const char *modes[] = { "NONE", "UP_DOWN", "LEFT_RIGHT" };
    const AttrVal *sp = ir_attr_get(l, "split"), *sn = ir_attr_get(l, "slot_num");
    if (!sp && !sn) return;
    sb_puts(pr->out, *first ? "optimizations=[" : ", optimizations=[");
    *first = false;
    if (sp) sb_printf(pr->out, "pl.split(pl.SplitMode.%s)", modes[sp->i >= 0 && sp->i < 3 ? sp->i : 0]);
    if (sn) sb_printf(pr->out, "%spl.cross_core_slot(slot_num=%lld)", sp ? ", " : "", (long long)sn->i);
    sb_putc(pr->out, ']');
}

static void print_kwargs_but(Pr *pr, const AttrList *l, bool *first, bool (*skip)(const char *)) {
    for (int i = 0; i < l->len; i++) {
        if (skip && skip(l->items[i].key)) continue;
        if (!*first) sb_puts(pr->out, ", ");
        *first = false;
        sb_printf(pr->out, "%s=", l->items[i].key);
        print_attrval(pr, &l->items[i].val);
    }
}

static void print_kwargs(Pr *pr, const AttrList *l, bool *first) { print_kwargs_but(pr, l, first, NULL); }

/* ---------------------------------------------------------------- types */
static void print_type_p(Pr *pr, const Type *t);

static void print_exprs(Pr *pr, Expr *const *v, int n) {
    sb_putc(pr->out, '[');
    for (int i = 0; i < n; i++) {
        if (i) sb_puts(pr->out, ", ");
        print_expr_p(pr, v[i], 0);
    }
    sb_putc(pr->out, ']');
}

static void print_memref(Pr *pr, const MemRef *m) {
    sb_puts(pr->out, ", pl.MemRef(");
    if (!m->base) sb_puts(pr->out, "\"?\"");
    else if (pr->named && is_assigned(pr, m->base)) sb_puts(pr->out, var_name(pr, m->base));
    else put_str(pr->out, var_name(pr, m->base));
    sb_printf(pr->out, ", pl.const(%lld, pl.INT64), %lld)", (long long)m->offset, (long long)m->size);
}

static bool valid_is_shape(const Type *t, const TileView *v) {
    if (v->nvalid != t->rank) return false;
    for (int i = 0; i < t->rank; i++) {
        int64_t a, b;
        if (v->valid_shape[i] == t->shape[i]) continue;
        if (!ir_is_const_int(v->valid_shape[i], &a) || !ir_is_const_int(t->shape[i], &b) || a != b) return false;
    }
    return true;
}

static void print_view(Pr *pr, const Type *t) {
    TileView v = *t->view, imp = ir_implicit_view(t);
    StrBuf *sb = pr->out;
    bool first = true;
#define SEP() (first ? (void)(first = false) : sb_puts(sb, ", "))
    sb_puts(sb, ", pl.TileView(");
    if (v.nvalid && !valid_is_shape(t, &v)) { SEP(); sb_puts(sb, "valid_shape="); print_exprs(pr, v.valid_shape, v.nvalid); }
    if (v.nstride) { SEP(); sb_puts(sb, "stride="); print_exprs(pr, v.stride, v.nstride); }
    if (v.start_offset) { SEP(); sb_puts(sb, "start_offset="); print_expr_p(pr, v.start_offset, 0); }
    if (v.blayout != imp.blayout) { SEP(); sb_printf(sb, "blayout=pl.TileLayout.%s", ir_tilelayout_name(v.blayout)); }
    if (v.slayout != imp.slayout) { SEP(); sb_printf(sb, "slayout=pl.TileLayout.%s", ir_tilelayout_name(v.slayout)); }
    if (v.fractal != imp.fractal) { SEP(); sb_printf(sb, "fractal=%lld", (long long)v.fractal); }
    if (v.pad != imp.pad) { SEP(); sb_printf(sb, "pad=pl.PadValue.%s", ir_pad_name(v.pad)); }
    if (v.compact != imp.compact) { SEP(); sb_puts(sb, v.compact ? "compact=True" : "compact=False"); }
#undef SEP
    sb_putc(sb, ')');
}

static bool view_is_implicit(const Type *t) {
    if (!t->view) return true;
    TileView v = *t->view, imp = ir_implicit_view(t);
    if (v.nvalid && valid_is_shape(t, &v)) v.nvalid = 0;
    return ir_view_equal(&v, &imp);
}

static void print_type_p(Pr *pr, const Type *t) {
    StrBuf *sb = pr->out;
    if (!t) { sb_puts(sb, "pl.Unknown"); return; }
    switch (t->kind) {
    case TY_SCALAR: sb_printf(sb, "pl.Scalar[pl.%s]", dtype_name(t->dtype)); break;
    case TY_TENSOR:
        sb_puts(sb, "pl.Tensor[");
        print_exprs(pr, t->shape, t->rank);
        sb_printf(sb, ", pl.%s", dtype_name(t->dtype));
        if (t->layout == TLAYOUT_NZ) sb_puts(sb, ", pl.NZ");
        if (t->layout == TLAYOUT_DN) sb_puts(sb, ", pl.DN");
        if (t->memref) print_memref(pr, t->memref);
        sb_putc(sb, ']');
        break;
    case TY_TILE:
        sb_puts(sb, "pl.Tile[");
        print_exprs(pr, t->shape, t->rank);
        sb_printf(sb, ", pl.%s", dtype_name(t->dtype));
        if (t->memref) print_memref(pr, t->memref);
        if (t->space != MS_NONE) sb_printf(sb, ", pl.Mem.%s", memspace_name(t->space));
        if (!view_is_implicit(t)) print_view(pr, t);
        sb_putc(sb, ']');
        break;
    case TY_TUPLE:
        sb_puts(sb, "pl.Tuple[");
        for (int i = 0; i < t->nelems; i++) {
            if (i) sb_puts(sb, ", ");
            print_type_p(pr, t->elems[i]);
        }
        sb_putc(sb, ']');
        break;
    case TY_PTR: sb_puts(sb, "pl.Ptr"); break;
    case TY_UNKNOWN: sb_puts(sb, "pl.Unknown"); break;
    }
}

/* ---------------------------------------------------------------- expressions */
/* Python precedence: 1 or, 2 and, 3 not, 4 comparisons, 5 |, 6 ^, 7 &, 8 shifts, 9 + -,
 * 10 * / // %, 11 unary, 12 **, 13 atoms. */
static int binop_prec(BinOp op) {
    switch (op) {
    case BIN_OR: return 1;
    case BIN_AND: return 2;
    case BIN_EQ: case BIN_NE: case BIN_LT: case BIN_LE: case BIN_GT: case BIN_GE: return 4;
    case BIN_BITOR: return 5;
    case BIN_BITXOR: return 6;
    case BIN_BITAND: return 7;
    case BIN_SHL: case BIN_SHR: return 8;
    case BIN_ADD: case BIN_SUB: return 9;
    case BIN_MUL: case BIN_DIV: case BIN_FLOORDIV: case BIN_FLOORMOD: return 10;
    case BIN_POW: return 12;
    default: return 13;                /* min, max, xor: printed as calls */
    }
}

static int expr_prec(const Expr *e) {
    switch (e->kind) {
    case EX_BINARY: return binop_prec(e->bin.op);
    case EX_UNARY: return e->un.op == UN_NOT ? 3 : (e->un.op == UN_NEG || e->un.op == UN_BITNOT) ? 11 : 13;
    case EX_CONST_INT: return e->ci.value < 0 && e->type && e->type->dtype == DT_INDEX ? 11 : 13;
    case EX_CONST_FLOAT: return e->cf.value < 0 && e->type && e->type->dtype == DT_FP32 ? 11 : 13;
    default: return 13;
    }
}

static void print_call(Pr *pr, const Expr *e) {
    StrBuf *sb = pr->out;
    if (e->call.op != OP_NONE) sb_printf(sb, "pl.%s(", ir_op_info(e->call.op)->name);
    else sb_printf(sb, "self.%s(", e->call.callee ? e->call.callee->name : e->call.callee_name);
    bool first = true;
    for (int i = 0; i < e->call.nargs; i++) {
        if (!first) sb_puts(sb, ", ");
        first = false;
        print_expr_p(pr, e->call.args[i], 0);
    }
    print_kwargs(pr, &e->call.kwargs, &first);
    if (e->call.attrs.len) {
        if (!first) sb_puts(sb, ", ");
        sb_puts(sb, "attrs=");
        print_attr_dict(pr, &e->call.attrs);
    }
    sb_putc(sb, ')');
}

static void print_binary(Pr *pr, const Expr *e) {
    const char *tok = ir_binop_token(e->bin.op);
    if (!tok || e->bin.op == BIN_XOR) {
        sb_printf(pr->out, "pl.%s(", e->bin.op == BIN_MIN ? "min" : e->bin.op == BIN_MAX ? "max" : "xor");
        print_expr_p(pr, e->bin.lhs, 0);
        sb_puts(pr->out, ", ");
        print_expr_p(pr, e->bin.rhs, 0);
        sb_putc(pr->out, ')');
        return;
    }
    int p = binop_prec(e->bin.op);
    int lctx = p == 4 || p == 12 ? p + 1 : p, rctx = p == 12 ? 11 : p + 1;
    print_expr_p(pr, e->bin.lhs, lctx);
    sb_printf(pr->out, " %s ", tok);
    print_expr_p(pr, e->bin.rhs, rctx);
}

static void print_unary(Pr *pr, const Expr *e) {
    StrBuf *sb = pr->out;
    const Expr *x = e->un.operand;
    switch (e->un.op) {
    case UN_NEG: case UN_BITNOT:
        sb_putc(sb, e->un.op == UN_NEG ? '-' : '~');
        /* a literal operand is parenthesised so that it does not read back as a negative constant */
        if (x->kind == EX_CONST_INT || x->kind == EX_CONST_FLOAT) { sb_putc(sb, '('); print_expr_p(pr, x, 0); sb_putc(sb, ')'); }
        else print_expr_p(pr, x, 11);
        break;
    case UN_NOT: sb_puts(sb, "not "); print_expr_p(pr, x, 3); break;
    case UN_ABS: sb_puts(sb, "pl.abs("); print_expr_p(pr, x, 0); sb_putc(sb, ')'); break;
    case UN_CAST:
        sb_puts(sb, "pl.cast(");
        print_expr_p(pr, x, 0);
        sb_printf(sb, ", pl.%s)", dtype_name(e->type ? e->type->dtype : DT_FP32));
        break;
    }
}

static void print_expr_p(Pr *pr, const Expr *e, int ctx) {
    StrBuf *sb = pr->out;
    if (!e) { sb_puts(sb, "None"); return; }
    bool paren = expr_prec(e) < ctx;
    if (paren) sb_putc(sb, '(');
    DType dt = e->type ? e->type->dtype : DT_INDEX;
    switch (e->kind) {
    case EX_VAR: sb_puts(sb, var_name(pr, e->var)); break;
    case EX_CONST_INT:
        if (dt == DT_INDEX) sb_printf(sb, "%lld", (long long)e->ci.value);
        else sb_printf(sb, "pl.const(%lld, pl.%s)", (long long)e->ci.value, dtype_name(dt));
        break;
    case EX_CONST_FLOAT:
        if (dt == DT_FP32) put_float(sb, e->cf.value);
        else { sb_puts(sb, "pl.const("); put_float(sb, e->cf.value); sb_printf(sb, ", pl.%s)", dtype_name(dt)); }
        break;
    case EX_CONST_BOOL: sb_puts(sb, e->cb.value ? "True" : "False"); break;
    case EX_BINARY: print_binary(pr, e); break;
    case EX_UNARY: print_unary(pr, e); break;
    case EX_CALL: print_call(pr, e); break;
    case EX_TUPLE: print_exprs(pr, e->tuple.items, e->tuple.n); break;
    case EX_TUPLE_GET:
        print_expr_p(pr, e->tget.tuple, 13);
        sb_printf(sb, "[%d]", e->tget.index);
        break;
    case EX_ENUM: print_attrval(pr, &e->enm); break;
    }
    if (paren) sb_putc(sb, ')');
}

/* ---------------------------------------------------------------- statements */
static void print_body(Pr *pr, const StmtList *l, int indent, const VarList *rv);

static void print_stmt_p(Pr *pr, const Stmt *s, int indent, const VarList *rv);

static void print_target(Pr *pr, const Var *v) {
    sb_puts(pr->out, var_name(pr, v));
    if (!pr->o.concise) { sb_puts(pr->out, ": "); print_type_p(pr, v->type); }
}

/* Before ConvertToSSA one Var per name holds its first type; a later assignment of another kind,
 * dtype or shape (Python rebinding) is annotated with its value's type, which the parser checks. */
static void print_assign_target(Pr *pr, const Var *v, const Expr *value) {
    if (pr->o.concise || !value->type || ir_type_same_shape(v->type, value->type)) { print_target(pr, v); return; }
    sb_printf(pr->out, "%s: ", var_name(pr, v));
    print_type_p(pr, value->type);
}

static void print_yield(Pr *pr, const Stmt *s, const VarList *rv) {
    StrBuf *sb = pr->out;
    if (rv && rv->len == 1) { print_target(pr, rv->items[0]); sb_puts(sb, " = "); }
    else if (rv && rv->len > 1) {
        for (int i = 0; i < rv->len; i++) sb_printf(sb, "%s%s", i ? ", " : "", var_name(pr, rv->items[i]));
        sb_puts(sb, " = ");
    }
    sb_puts(sb, "pl.yield_(");
    for (int i = 0; i < s->yield.n; i++) {
        if (i) sb_puts(sb, ", ");
        print_expr_p(pr, s->yield.values[i], 0);
    }
    sb_putc(sb, ')');
}

static void print_carries(Pr *pr, const VarList *ia) {
    StrBuf *sb = pr->out;
    sb_putc(sb, '(');
    for (int i = 0; i < ia->len; i++) sb_printf(sb, "%s%s", i ? ", " : "", var_name(pr, ia->items[i]));
    if (ia->len == 1) sb_putc(sb, ',');
    sb_putc(sb, ')');
}

static void print_inits(Pr *pr, const VarList *ia) {
    StrBuf *sb = pr->out;
    sb_puts(sb, "init_values=(");
    for (int i = 0; i < ia->len; i++) {
        if (i) sb_puts(sb, ", ");
        print_expr_p(pr, ia->items[i]->init, 0);
    }
    if (ia->len == 1) sb_putc(sb, ',');
    sb_putc(sb, ')');
}

static void print_for(Pr *pr, const Stmt *s, int indent) {
    StrBuf *sb = pr->out;
    static const char *kinds[] = { "range", "parallel", "unroll", "pipeline" };
    sb_printf(sb, "for %s", var_name(pr, s->for_.loop_var));
    if (s->for_.iter_args.len) { sb_puts(sb, ", "); print_carries(pr, &s->for_.iter_args); }
    sb_printf(sb, " in pl.%s(", kinds[s->for_.kind]);
    int64_t st, sp;
    bool start0 = ir_is_const_int(s->for_.start, &st) && st == 0 && s->for_.start->type->dtype == DT_INDEX;
    bool step1 = ir_is_const_int(s->for_.step, &sp) && sp == 1 && s->for_.step->type->dtype == DT_INDEX;
    if (!(start0 && step1)) { print_expr_p(pr, s->for_.start, 0); sb_puts(sb, ", "); }
    print_expr_p(pr, s->for_.stop, 0);
    if (!step1) { sb_puts(sb, ", "); print_expr_p(pr, s->for_.step, 0); }
    if (s->for_.iter_args.len) { sb_puts(sb, ", "); print_inits(pr, &s->for_.iter_args); }
    const AttrVal *stages = ir_attr_get(&s->for_.attrs, "pipeline_stages");
    AttrList rest = { 0 };
    Attr buf[32];
    rest.items = buf;
    for (int i = 0; i < s->for_.attrs.len && rest.len < 32; i++) {
        bool is_stage = s->for_.kind == FK_PIPELINE && stages && strcmp(s->for_.attrs.items[i].key, "pipeline_stages") == 0 &&
                        stages->kind == AV_INT;
        if (!is_stage) rest.items[rest.len++] = s->for_.attrs.items[i];
    }
    if (s->for_.kind == FK_PIPELINE && stages && stages->kind == AV_INT) sb_printf(sb, ", stage=%lld", (long long)stages->i);
    if (rest.len) { sb_puts(sb, ", attrs="); print_attr_dict(pr, &rest); }
    sb_puts(sb, "):\n");
    print_body(pr, &s->for_.body, indent + 4, &s->for_.return_vars);
}

static void print_while(Pr *pr, const Stmt *s, int indent) {
    StrBuf *sb = pr->out;
    if (!s->while_.iter_args.len) {
        sb_puts(sb, "while ");
        print_expr_p(pr, s->while_.cond, 0);
        sb_puts(sb, ":\n");
        print_body(pr, &s->while_.body, indent + 4, &s->while_.return_vars);
        return;
    }
    sb_puts(sb, "for ");
    print_carries(pr, &s->while_.iter_args);
    sb_puts(sb, " in pl.while_(");
    print_inits(pr, &s->while_.iter_args);
    sb_puts(sb, "):\n");
    sb_indent(sb, indent + 4);
    sb_puts(sb, "pl.cond(");
    print_expr_p(pr, s->while_.cond, 0);
    sb_puts(sb, ")\n");
    print_body(pr, &s->while_.body, indent + 4, &s->while_.return_vars);
}

static void print_scope(Pr *pr, const Stmt *s, int indent) {
    StrBuf *sb = pr->out;
    bool first = false;
    switch (s->scope.kind) {
    case SC_INCORE: case SC_HIERARCHY:
        sb_printf(sb, "with pl.at(level=pl.Level.%s", ir_level_name(s->scope.level));
        if (s->scope.name_hint) { sb_puts(sb, ", name_hint="); put_str(sb, s->scope.name_hint); }
        print_optimizations(pr, &s->scope.kwargs, &first);
        break;
    case SC_RUNTIME:
        sb_puts(sb, "with pl.scope(");
        first = true;
        if (s->scope.manual) { sb_puts(sb, "mode=pl.ScopeMode.MANUAL"); first = false; }
        break;
    case SC_SPMD:
        sb_puts(sb, "with pl.spmd(");
        print_expr_p(pr, s->scope.core_num, 0);
        break;
    case SC_CLUSTER: sb_puts(sb, "with pl.cluster("); first = true; break;
    }
    print_kwargs_but(pr, &s->scope.kwargs, &first, s->scope.kind == SC_INCORE ? is_optimization : NULL);
    sb_puts(sb, ")");
    if (s->scope.task_var) sb_printf(sb, " as %s", var_name(pr, s->scope.task_var));
    sb_puts(sb, ":\n");
    print_body(pr, &s->scope.body, indent + 4, NULL);
}

static void print_stmt_p(Pr *pr, const Stmt *s, int indent, const VarList *rv) {
    StrBuf *sb = pr->out;
    sb_indent(sb, indent);
    switch (s->kind) {
    case ST_ASSIGN:
        print_assign_target(pr, s->assign.var, s->assign.value);
        sb_puts(sb, " = ");
        print_expr_p(pr, s->assign.value, 0);
        break;
    case ST_EVAL: print_expr_p(pr, s->eval.expr, 0); break;
    case ST_YIELD: print_yield(pr, s, rv); break;
    case ST_RETURN:
        sb_puts(sb, "return");
        for (int i = 0; i < s->ret.n; i++) {
            sb_puts(sb, i ? ", " : " ");
            print_expr_p(pr, s->ret.values[i], 0);
        }
        break;
    case ST_IF:
        sb_puts(sb, "if ");
        print_expr_p(pr, s->if_.cond, 0);
        sb_puts(sb, ":\n");
        print_body(pr, &s->if_.then_body, indent + 4, &s->if_.return_vars);
        if (s->if_.has_else || s->if_.else_body.len) {
            sb_indent(sb, indent);
            sb_puts(sb, "else:\n");
            print_body(pr, &s->if_.else_body, indent + 4, &s->if_.return_vars);
        }
        return;
    case ST_FOR: print_for(pr, s, indent); return;
    case ST_WHILE: print_while(pr, s, indent); return;
    case ST_SCOPE: print_scope(pr, s, indent); return;
    }
    sb_putc(sb, '\n');
}

static void print_body(Pr *pr, const StmtList *l, int indent, const VarList *rv) {
    if (!l->len) { sb_indent(pr->out, indent); sb_puts(pr->out, "pass\n"); return; }
    for (int i = 0; i < l->len; i++) print_stmt_p(pr, l->items[i], indent, rv);
}

/* ---------------------------------------------------------------- functions and programs */
static void print_decorator(Pr *pr, const Function *f, int indent) {
    StrBuf *sb = pr->out;
    sb_indent(sb, indent);
    sb_printf(sb, "@pl.function(type=pl.FunctionType.%s", ir_functype_name(f->type));
    if (f->level != LV_NONE) sb_printf(sb, ", level=pl.Level.%s", ir_level_name(f->level));
    if (f->role != ROLE_NONE) sb_printf(sb, ", role=pl.Role.%s", ir_role_name(f->role));
    const AttrVal *as = ir_attr_get(&f->attrs, "auto_scope");
    if (as && as->kind == AV_BOOL) sb_printf(sb, ", auto_scope=%s", as->i ? "True" : "False");
    sb_puts(sb, ")\n");
}

static void print_function_p(Pr *pr, const Function *f, int indent) {
    StrBuf *sb = pr->out;
    collect_assigned(pr, &f->body);
    print_decorator(pr, f, indent);
    sb_indent(sb, indent);
    sb_printf(sb, "def %s(self", f->name);
    for (int i = 0; i < f->params.len; i++) {
        const Var *v = f->params.items[i];
        ParamDir d = f->param_dirs ? f->param_dirs[i] : PD_IN;
        sb_printf(sb, ", %s: ", var_name(pr, v));
        if (d != PD_IN) sb_puts(sb, d == PD_OUT ? "pl.Out[" : "pl.InOut[");
        print_type_p(pr, v->type);
        if (d != PD_IN) sb_putc(sb, ']');
    }
    sb_putc(sb, ')');
    if (f->nreturns == 1) { sb_puts(sb, " -> "); print_type_p(pr, f->return_types[0]); }
    else if (f->nreturns > 1) {
        sb_puts(sb, " -> tuple[");
        for (int i = 0; i < f->nreturns; i++) {
            if (i) sb_puts(sb, ", ");
            print_type_p(pr, f->return_types[i]);
        }
        sb_putc(sb, ']');
    }
    sb_puts(sb, ":\n");
    AttrList rest = { 0 };
    Attr buf[32];
    rest.items = buf;
    for (int i = 0; i < f->attrs.len && rest.len < 32; i++)
        if (strcmp(f->attrs.items[i].key, "auto_scope") != 0 || f->attrs.items[i].val.kind != AV_BOOL)
            rest.items[rest.len++] = f->attrs.items[i];
    if (rest.len) {
        sb_indent(sb, indent + 4);
        sb_puts(sb, "pl.func_attr(");
        print_attr_dict(pr, &rest);
        sb_puts(sb, ")\n");
        if (!f->body.len) return;
    }
    print_body(pr, &f->body, indent + 4, NULL);
}

typedef struct CalleeQ { const Program *p; const Function **out; int n, cap; } CalleeQ;

static void find_callees(Expr *e, void *ud) {
    CalleeQ *q = ud;
    if (e->kind != EX_CALL || e->call.op != OP_NONE) return;
    const Function *f = e->call.callee ? e->call.callee : ir_program_find(q->p, e->call.callee_name ? e->call.callee_name : "");
    if (f && q->n < q->cap) q->out[q->n++] = f;
}

static bool calls_pending(const Program *p, const Function *f, const bool *done) {
    const Function *buf[256];
    CalleeQ q = { p, buf, 0, 256 };
    ir_visit_exprs((StmtList *)&f->body, find_callees, &q);
    for (int i = 0; i < q.n; i++)
        for (int j = 0; j < p->nfuncs; j++)
            if (p->funcs[j] == q.out[i] && !done[j] && q.out[i] != f) return true;
    return false;
}

void ir_print_program(const Program *p, StrBuf *out, PrintOpts o) {
    sb_printf(out, "# pypto.program: %s\nimport pypto.language as pl\n\n\n@pl.program\nclass %s:\n", p->name, p->name);
    bool *done = calloc((size_t)(p->nfuncs ? p->nfuncs : 1), sizeof(bool));
    PTOC_ASSERT(done, "out of memory");
    for (int emitted = 0; emitted < p->nfuncs; emitted++) {
        int pick = -1;
        for (int j = 0; j < p->nfuncs && pick < 0; j++)      /* funcs are sorted by name: smallest ready first */
            if (!done[j] && !calls_pending(p, p->funcs[j], done)) pick = j;
        for (int j = 0; j < p->nfuncs && pick < 0; j++)      /* a call cycle: smallest remaining */
            if (!done[j]) pick = j;
        done[pick] = true;
        if (emitted) sb_putc(out, '\n');
        Pr pr;
        pr_init(&pr, out, o, true);
        print_function_p(&pr, p->funcs[pick], 4);
        pr_free(&pr);
    }
    if (!p->nfuncs) sb_puts(out, "    pass\n");
    free(done);
}

void ir_print_function(const Function *f, StrBuf *out, PrintOpts o) {
    Pr pr;
    pr_init(&pr, out, o, true);
    print_function_p(&pr, f, 0);
    pr_free(&pr);
}

void ir_print_expr(const Expr *e, StrBuf *out) {
    Pr pr;
    pr_init(&pr, out, (PrintOpts){ 0 }, false);
    print_expr_p(&pr, e, 0);
}

void ir_print_type(const Type *t, StrBuf *out) {
    Pr pr;
    pr_init(&pr, out, (PrintOpts){ 0 }, false);
    print_type_p(&pr, t);
}

void ir_print_stmt(const Stmt *s, StrBuf *out, int indent, PrintOpts o) {
    Pr pr;
    pr_init(&pr, out, o, false);
    print_stmt_p(&pr, s, indent, NULL);
}
