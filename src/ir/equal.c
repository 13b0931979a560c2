/* equal — structural equality of programs and functions modulo variable renaming (spec §2.1).
 *
 * Requires: two IR trees (possibly from different IrCtx).
 * Produces: true/false, and on mismatch a one-line reason ("function 'f': statement #3: ...").
 * Rules: definitions (params, assign vars, loop vars, iter args, return vars) and MemRef bases are
 * mapped on first sight, bijectively; uses must follow the mapping; spans and name hints are ignored;
 * types compare structurally (dtype, shape, space, layout, MemRef base/offset/size, effective views);
 * kwargs compare in order; call attrs and function attrs compare as key sets. */
#include "ir/ir.h"

#include <string.h>

typedef struct Eq {
    VEC(const Var *) a;
    VEC(const Var *) b;
    StrBuf *why;
    const char *fn;
    int stmt;                     /* pre-order statement counter, for the reason */
    bool failed;
} Eq;

static bool fail(Eq *q, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static bool fail(Eq *q, const char *fmt, ...) {
    if (q->failed || !q->why) { q->failed = true; return false; }
    q->failed = true;
    if (q->fn) sb_printf(q->why, "function '%s': ", q->fn);
    if (q->stmt > 0) sb_printf(q->why, "statement #%d: ", q->stmt);
    va_list ap;
    va_start(ap, fmt);
    sb_vprintf(q->why, fmt, ap);
    va_end(ap);
    return false;
}

static bool eq_type(Eq *q, const Type *x, const Type *y);

static bool map_var(Eq *q, const Var *x, const Var *y) {
    if (!x || !y) return x == y;
    for (int i = 0; i < q->a.len; i++) {
        if (q->a.data[i] == x) return q->b.data[i] == y;
        if (q->b.data[i] == y) return false;
    }
    vec_push(&q->a, x);
    vec_push(&q->b, y);
    return true;
}

static bool def_var(Eq *q, const Var *x, const Var *y, const char *what) {
    if (!map_var(q, x, y)) return fail(q, "%s '%s' vs '%s' bind inconsistently", what, x->name, y->name);
    if (x->kind != y->kind) return fail(q, "%s '%s' vs '%s': iter-arg kind differs", what, x->name, y->name);
    if (!eq_type(q, x->type, y->type)) {
        if (q->failed) return false;
        return fail(q, "%s '%s' vs '%s': types differ", what, x->name, y->name);
    }
    return true;
}

static bool eq_expr(Eq *q, const Expr *x, const Expr *y);

static bool eq_exprs(Eq *q, Expr *const *x, int nx, Expr *const *y, int ny) {
    if (nx != ny) return false;
    for (int i = 0; i < nx; i++)
        if (!eq_expr(q, x[i], y[i])) return false;
    return true;
}

static bool valid_is_shape(const Type *t, const TileView *v) {
    if (v->nvalid != t->rank) return false;
    for (int i = 0; i < t->rank; i++) {
        int64_t a, b;
        if (!ir_is_const_int(v->valid_shape[i], &a) || !ir_is_const_int(t->shape[i], &b) || a != b) return false;
    }
    return true;
}

static bool eq_view(Eq *q, const Type *x, const Type *y) {
    TileView a = ir_effective_view(x), b = ir_effective_view(y);
    if (a.nvalid && valid_is_shape(x, &a)) a.nvalid = 0;
    if (b.nvalid && valid_is_shape(y, &b)) b.nvalid = 0;
    if (a.blayout != b.blayout || a.slayout != b.slayout || a.fractal != b.fractal || a.pad != b.pad || a.compact != b.compact)
        return false;
    if (!eq_exprs(q, a.valid_shape, a.nvalid, b.valid_shape, b.nvalid)) return false;
    if (!eq_exprs(q, a.stride, a.nstride, b.stride, b.nstride)) return false;
    if (!a.start_offset != !b.start_offset) return false;
    return !a.start_offset || eq_expr(q, a.start_offset, b.start_offset);
}

static bool eq_type(Eq *q, const Type *x, const Type *y) {
    if (!x || !y) return x == y;
    if (x->kind != y->kind) return false;
    switch (x->kind) {
    case TY_SCALAR: return x->dtype == y->dtype;
    case TY_PTR: case TY_UNKNOWN: return true;
    case TY_TUPLE:
        if (x->nelems != y->nelems) return false;
        for (int i = 0; i < x->nelems; i++)
            if (!eq_type(q, x->elems[i], y->elems[i])) return false;
        return true;
    case TY_TENSOR: case TY_TILE:
        if (x->dtype != y->dtype || x->space != y->space || !eq_exprs(q, x->shape, x->rank, y->shape, y->rank)) return false;
        if (x->kind == TY_TENSOR && x->layout != y->layout) return false;
        if (!x->memref != !y->memref) return false;
        if (x->memref && (x->memref->offset != y->memref->offset || x->memref->size != y->memref->size ||
                          !map_var(q, x->memref->base, y->memref->base)))
            return false;
        return x->kind == TY_TENSOR || eq_view(q, x, y);
    }
    return false;
}

/* An AV_EXPR holding a literal prints like the literal attr and reads back as one: compare them equal. */
static AttrVal attr_norm(const AttrVal *v) {
    if (v->kind != AV_EXPR || !v->expr) return *v;
    const Expr *e = v->expr;
    DType dt = e->type ? e->type->dtype : DT_NONE;
    if (e->kind == EX_CONST_INT && dt == DT_INDEX) return ir_av_int(e->ci.value);
    if (e->kind == EX_CONST_FLOAT && dt == DT_FP32) return (AttrVal){ .kind = AV_FLOAT, .f = e->cf.value };
    if (e->kind == EX_CONST_BOOL) return ir_av_bool(e->cb.value);
    if (e->kind == EX_ENUM) return e->enm;
    return *v;
}

static bool eq_attrval(Eq *q, const AttrVal *xa, const AttrVal *ya) {
    AttrVal xn = attr_norm(xa), yn = attr_norm(ya);
    const AttrVal *x = &xn, *y = &yn;
    if (x->kind != y->kind) return false;
    switch (x->kind) {
    case AV_INT: case AV_BOOL: return x->i == y->i;
    case AV_FLOAT: return x->f == y->f || (x->f != x->f && y->f != y->f);
    case AV_STR: case AV_ENUM: return x->s && y->s ? strcmp(x->s, y->s) == 0 : x->s == y->s;
    case AV_DTYPE: return x->dtype == y->dtype;
    case AV_MEM: return x->mem == y->mem;
    case AV_LIST:
        if (x->nitems != y->nitems) return false;
        for (int i = 0; i < x->nitems; i++)
            if (!eq_attrval(q, &x->items[i], &y->items[i])) return false;
        return true;
    case AV_EXPR: return eq_expr(q, x->expr, y->expr);
    }
    return false;
}

static bool eq_attrs_ordered(Eq *q, const AttrList *x, const AttrList *y) {
    if (x->len != y->len) return false;
    for (int i = 0; i < x->len; i++)
        if (strcmp(x->items[i].key, y->items[i].key) != 0 || !eq_attrval(q, &x->items[i].val, &y->items[i].val)) return false;
    return true;
}

static bool eq_attrs_set(Eq *q, const AttrList *x, const AttrList *y) {
    if (x->len != y->len) return false;
    for (int i = 0; i < x->len; i++) {
        const AttrVal *v = ir_attr_get(y, x->items[i].key);
        if (!v || !eq_attrval(q, &x->items[i].val, v)) return false;
    }
    return true;
}

static bool eq_call(Eq *q, const Expr *x, const Expr *y) {
    if (x->call.op != y->call.op) return false;
    if (x->call.op == OP_NONE) {
        const char *a = x->call.callee ? x->call.callee->name : x->call.callee_name;
        const char *b = y->call.callee ? y->call.callee->name : y->call.callee_name;
        if (!a || !b || strcmp(a, b) != 0) return false;
    }
    return eq_exprs(q, x->call.args, x->call.nargs, y->call.args, y->call.nargs) &&
           eq_attrs_ordered(q, &x->call.kwargs, &y->call.kwargs) && eq_attrs_set(q, &x->call.attrs, &y->call.attrs);
}

static DType dt_of(const Expr *e) { return e->type ? e->type->dtype : DT_NONE; }

static bool eq_expr(Eq *q, const Expr *x, const Expr *y) {
    if (!x || !y) return x == y;
    if (x->kind != y->kind) return false;
    switch (x->kind) {
    case EX_VAR: return map_var(q, x->var, y->var);
    case EX_CONST_INT: return x->ci.value == y->ci.value && dt_of(x) == dt_of(y);
    case EX_CONST_FLOAT: return (x->cf.value == y->cf.value || (x->cf.value != x->cf.value && y->cf.value != y->cf.value)) && dt_of(x) == dt_of(y);
    case EX_CONST_BOOL: return x->cb.value == y->cb.value;
    case EX_BINARY: return x->bin.op == y->bin.op && eq_expr(q, x->bin.lhs, y->bin.lhs) && eq_expr(q, x->bin.rhs, y->bin.rhs);
    case EX_UNARY:
        return x->un.op == y->un.op && (x->un.op != UN_CAST || dt_of(x) == dt_of(y)) && eq_expr(q, x->un.operand, y->un.operand);
    case EX_CALL: return eq_call(q, x, y);
    case EX_TUPLE: return eq_exprs(q, x->tuple.items, x->tuple.n, y->tuple.items, y->tuple.n);
    case EX_TUPLE_GET: return x->tget.index == y->tget.index && eq_expr(q, x->tget.tuple, y->tget.tuple);
    case EX_ENUM: return eq_attrval(q, &x->enm, &y->enm);
    }
    return false;
}

static bool eq_expr_r(Eq *q, const Expr *x, const Expr *y, const char *what) {
    if (eq_expr(q, x, y)) return true;
    if (q->failed) return false;
    StrBuf a = { 0 }, b = { 0 };
    ir_print_expr(x, &a);
    ir_print_expr(y, &b);
    fail(q, "%s differs: %s vs %s", what, sb_cstr(&a), sb_cstr(&b));
    sb_free(&a);
    sb_free(&b);
    return false;
}

static bool eq_defs(Eq *q, const VarList *x, const VarList *y, const char *what) {
    if (x->len != y->len) return fail(q, "%s count differs: %d vs %d", what, x->len, y->len);
    for (int i = 0; i < x->len; i++)
        if (!def_var(q, x->items[i], y->items[i], what)) return false;
    return true;
}

static bool eq_body(Eq *q, const StmtList *x, const StmtList *y);

static bool eq_values(Eq *q, Expr *const *x, int nx, Expr *const *y, int ny, const char *what) {
    if (nx != ny) return fail(q, "%s value count differs: %d vs %d", what, nx, ny);
    for (int i = 0; i < nx; i++)
        if (!eq_expr_r(q, x[i], y[i], what)) return false;
    return true;
}

static bool eq_for(Eq *q, const Stmt *x, const Stmt *y) {
    if (x->for_.kind != y->for_.kind) return fail(q, "loop kind differs");
    if (!eq_expr_r(q, x->for_.start, y->for_.start, "loop start") || !eq_expr_r(q, x->for_.stop, y->for_.stop, "loop stop") ||
        !eq_expr_r(q, x->for_.step, y->for_.step, "loop step"))
        return false;
    if (x->for_.iter_args.len != y->for_.iter_args.len) return fail(q, "iter_arg count differs");
    for (int i = 0; i < x->for_.iter_args.len; i++)
        if (!eq_expr_r(q, x->for_.iter_args.items[i]->init, y->for_.iter_args.items[i]->init, "init value")) return false;
    if (!eq_attrs_set(q, &x->for_.attrs, &y->for_.attrs)) return fail(q, "loop attrs differ");
    if (!def_var(q, x->for_.loop_var, y->for_.loop_var, "loop variable") ||
        !eq_defs(q, &x->for_.iter_args, &y->for_.iter_args, "iter_arg") || !eq_body(q, &x->for_.body, &y->for_.body))
        return false;
    return eq_defs(q, &x->for_.return_vars, &y->for_.return_vars, "return var");
}

static bool eq_scope(Eq *q, const Stmt *x, const Stmt *y) {
    if (x->scope.kind != y->scope.kind || x->scope.level != y->scope.level || x->scope.manual != y->scope.manual)
        return fail(q, "scope kind/level/mode differs");
    if (!x->scope.name_hint != !y->scope.name_hint || (x->scope.name_hint && strcmp(x->scope.name_hint, y->scope.name_hint)))
        return fail(q, "scope name_hint differs");
    if (!eq_expr_r(q, x->scope.core_num, y->scope.core_num, "core_num")) return false;
    if (!eq_attrs_ordered(q, &x->scope.kwargs, &y->scope.kwargs)) return fail(q, "scope options differ");
    if (!x->scope.task_var != !y->scope.task_var) return fail(q, "'as' task id of the scope differs");
    if (!eq_body(q, &x->scope.body, &y->scope.body)) return false;
    return !x->scope.task_var || def_var(q, x->scope.task_var, y->scope.task_var, "scope task id");
}

static bool eq_stmt(Eq *q, const Stmt *x, const Stmt *y) {
    q->stmt++;
    if (x->kind != y->kind) return fail(q, "statement kinds differ");
    switch (x->kind) {
    case ST_ASSIGN:
        return eq_expr_r(q, x->assign.value, y->assign.value, "assigned value") &&
               def_var(q, x->assign.var, y->assign.var, "assigned variable");
    case ST_EVAL: return eq_expr_r(q, x->eval.expr, y->eval.expr, "evaluated expression");
    case ST_YIELD: return eq_values(q, x->yield.values, x->yield.n, y->yield.values, y->yield.n, "yield");
    case ST_RETURN: return eq_values(q, x->ret.values, x->ret.n, y->ret.values, y->ret.n, "return");
    case ST_IF:
        if (!eq_expr_r(q, x->if_.cond, y->if_.cond, "if condition")) return false;
        if (!eq_body(q, &x->if_.then_body, &y->if_.then_body)) return false;
        if ((x->if_.has_else || x->if_.else_body.len) != (y->if_.has_else || y->if_.else_body.len)) return fail(q, "else branch presence differs");
        return eq_body(q, &x->if_.else_body, &y->if_.else_body) && eq_defs(q, &x->if_.return_vars, &y->if_.return_vars, "return var");
    case ST_FOR: return eq_for(q, x, y);
    case ST_WHILE:
        if (x->while_.iter_args.len != y->while_.iter_args.len) return fail(q, "iter_arg count differs");
        for (int i = 0; i < x->while_.iter_args.len; i++)
            if (!eq_expr_r(q, x->while_.iter_args.items[i]->init, y->while_.iter_args.items[i]->init, "init value")) return false;
        return eq_defs(q, &x->while_.iter_args, &y->while_.iter_args, "iter_arg") &&
               eq_expr_r(q, x->while_.cond, y->while_.cond, "while condition") && eq_body(q, &x->while_.body, &y->while_.body) &&
               eq_defs(q, &x->while_.return_vars, &y->while_.return_vars, "return var");
    case ST_SCOPE: return eq_scope(q, x, y);
    }
    return false;
}

static bool eq_body(Eq *q, const StmtList *x, const StmtList *y) {
    int n = x->len < y->len ? x->len : y->len;
    for (int i = 0; i < n; i++)
        if (!eq_stmt(q, x->items[i], y->items[i])) return false;
    if (x->len != y->len) return fail(q, "body lengths differ: %d vs %d statements", x->len, y->len);
    return true;
}

static bool eq_function(Eq *q, const Function *a, const Function *b) {
    q->fn = a->name;
    if (strcmp(a->name, b->name) != 0) return fail(q, "names differ ('%s' vs '%s')", a->name, b->name);
    if (a->type != b->type || a->level != b->level || a->role != b->role) return fail(q, "function type/level/role differs");
    if (a->params.len != b->params.len) return fail(q, "parameter count differs: %d vs %d", a->params.len, b->params.len);
    for (int i = 0; i < a->params.len; i++) {
        ParamDir da = a->param_dirs ? a->param_dirs[i] : PD_IN, db = b->param_dirs ? b->param_dirs[i] : PD_IN;
        if (da != db) return fail(q, "direction of parameter %d differs", i);
        if (!def_var(q, a->params.items[i], b->params.items[i], "parameter")) return false;
    }
    if (a->nreturns != b->nreturns) return fail(q, "return count differs: %d vs %d", a->nreturns, b->nreturns);
    for (int i = 0; i < a->nreturns; i++)
        if (!eq_type(q, a->return_types[i], b->return_types[i])) return fail(q, "return type %d differs", i);
    if (!eq_attrs_set(q, &a->attrs, &b->attrs)) return fail(q, "function attrs differ");
    return eq_body(q, &a->body, &b->body);
}

bool ir_function_equal(const Function *a, const Function *b, StrBuf *why) {
    Eq q = { .why = why };
    bool ok = eq_function(&q, a, b);
    vec_free(&q.a);
    vec_free(&q.b);
    return ok;
}

bool ir_program_equal(const Program *a, const Program *b, StrBuf *why) {
    if (a->nfuncs != b->nfuncs) {
        if (why) sb_printf(why, "function counts differ: %d vs %d", a->nfuncs, b->nfuncs);
        return false;
    }
    for (int i = 0; i < a->nfuncs; i++) {
        const Function *fb = ir_program_find(b, a->funcs[i]->name);
        if (!fb) {
            if (why) sb_printf(why, "function '%s' is missing from the second program", a->funcs[i]->name);
            return false;
        }
        if (!ir_function_equal(a->funcs[i], fb, why)) return false;
    }
    return true;
}
