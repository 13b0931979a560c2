/* spmd — the SPMD forms of the DSL (spec/language.md §4.1, ir_and_passes.md "SpmdScopeStmt").
 *
 * Requires: parse_stmt.c (front_parse_block), parse_expr.c (expressions, attribute values).
 * Produces: one SC_SPMD scope (core_num, kwargs sync_start) whose body launches exactly one kernel:
 *   - `for i in pl.spmd(N[, name_hint=...]):` body  ->  SPMD(InCore( i = tile.get_block_idx(); body ))
 *   - `with pl.spmd(N):` with an inline body (it reads a block query) -> SPMD(InCore(body))
 *   - `with pl.spmd(N):` with a dispatch body: a sole `with pl.at(...)` region, or one kernel call
 *     (optionally followed by the unpacking of its results) -> kept as it is.
 * Does: a body that neither reads a block query nor launches one kernel is kept as it is, and
 *   ir_check_program reports it (after the rules on where a pl.spmd may be). The
 *   name_hint, deps and `as tid` of the pl.spmd move onto the kernel's region (or its call), where
 *   OutlineIncoreScopes and the runtime read them; the SPMD scope keeps core_num and sync_start, so the
 *   printed form (`with pl.spmd(N): with pl.at(...)`) parses back to the same IR. */
#include "front/front_internal.h"

#include <string.h>

typedef struct SpmdOpts {
    const char *name_hint;
    const AttrVal *deps;
    Span sp;                  /* the pl.spmd(...) call */
} SpmdOpts;

static bool spmd_core_num(Parser *p, Stmt *s, Span sp) {
    Expr *n = s->scope.core_num;
    if (!n->type || n->type->kind != TY_SCALAR || !dtype_is_int(n->type->dtype)) {
        front_error(p, n->span.line ? n->span : sp, "pl.spmd: core_num must be an integer (a literal, a constant or an "
                    "integer scalar expression), got %s", n->type && n->type->kind == TY_SCALAR ? dtype_name(n->type->dtype) : "a non-scalar");
        return false;
    }
    int64_t v;
    if (ir_is_const_int(n, &v) && (v < 1 || v > 32767)) {    /* launch_spec.set_block_num takes an int16 */
        front_error(p, n->span.line ? n->span : sp, "pl.spmd: core_num %lld is outside [1, 32767] (the number of blocks to launch)", (long long)v);
        return false;
    }
    return true;
}

static bool spmd_option(Parser *p, Stmt *s, Tok *key, SpmdOpts *o) {
    Span vsp = front_peek(p, 0)->span;
    if (strcmp(key->text, "core_num") == 0) {
        if (s->scope.core_num) { front_error(p, key->span, "pl.spmd: core_num given twice"); return false; }
        return (s->scope.core_num = front_parse_expr(p)) != NULL;
    }
    AttrVal v;
    if (!front_parse_attr_value(p, &v)) return false;
    if (strcmp(key->text, "name_hint") == 0) {
        if (v.kind != AV_STR) { front_error(p, vsp, "name_hint must be a string"); return false; }
        if (*v.s && !front_is_identifier(v.s)) {
            front_error(p, vsp, "name_hint \"%s\" names the kernel function, so it must be a Python identifier (letters, digits, '_'; not a keyword)", v.s);
            return false;
        }
        o->name_hint = *v.s ? v.s : NULL;
    } else if (strcmp(key->text, "sync_start") == 0) {
        if (v.kind != AV_BOOL) { front_error(p, vsp, "pl.spmd: sync_start must be True or False"); return false; }
        if (v.i) ir_attr_set(p->c, &s->scope.kwargs, "sync_start", v);
    } else if (strcmp(key->text, "deps") == 0) {
        AttrVal *d = ARENA_NEW(p->c->arena, AttrVal);
        *d = v;
        o->deps = d;
    } else {
        front_error(p, key->span, "pl.spmd has no option '%s' that ptoc supports (options: core_num, name_hint, sync_start, deps)", key->text);
        return false;
    }
    return true;
}

/* At '(' of pl.spmd(...): core_num (positional or core_num=) and the options. */
static bool spmd_args(Parser *p, Stmt *s, SpmdOpts *o) {
    if (!front_expect_op(p, "(", "after pl.spmd")) return false;
    if (!front_is_op(p, ")") && !(front_peek(p, 0)->kind == TK_NAME && front_is_op_at(p, 1, "="))) {
        if (!(s->scope.core_num = front_parse_expr(p))) return false;
        if (!front_accept_op(p, ",") && !front_is_op(p, ")")) return front_expect_op(p, ")", "to close pl.spmd(...)");
    }
    while (!p->failed && !front_is_op(p, ")")) {
        Tok *key = front_peek(p, 0);
        if (key->kind != TK_NAME || !front_is_op_at(p, 1, "=")) {
            front_error(p, key->span, "pl.spmd: expected a keyword option such as name_hint=\"rows\" after core_num");
            return false;
        }
        front_next(p);
        front_next(p);
        if (!spmd_option(p, s, key, o)) return false;
        if (!front_accept_op(p, ",")) break;
    }
    if (!front_expect_op(p, ")", "to close pl.spmd(...)")) return false;
    if (!s->scope.core_num) { front_error(p, o->sp, "pl.spmd needs the number of blocks, e.g. pl.spmd(4)"); return false; }
    return spmd_core_num(p, s, o->sp);
}

/* The kernel region gets the pl.spmd's name_hint (unless it has its own) and deps. */
static void give_region(Parser *p, Stmt *region, const SpmdOpts *o) {
    if (!region->scope.name_hint) region->scope.name_hint = o->name_hint;
    if (o->deps) ir_attr_set(p->c, &region->scope.kwargs, "deps", *o->deps);
}

static Stmt *new_region(Parser *p, Span sp) {
    Stmt *r = ir_scope(p->c, SC_INCORE);
    r->span = sp;
    return r;
}

bool front_parse_spmd_for(Parser *p, StmtList *body, Span sp, const char *name, Span nsp, Span ksp) {
    Stmt *s = ir_scope(p->c, SC_SPMD);
    s->span = sp;
    ir_list_push(p->c, body, s);
    SpmdOpts o = { .sp = ksp };
    if (!spmd_args(p, s, &o)) return false;
    if (!front_expect_op(p, ":", "after the for header")) return false;
    Stmt *r = new_region(p, sp);
    give_region(p, r, &o);
    ir_list_push(p->c, &s->scope.body, r);
    /* the loop variable is the block index, read at the top of the kernel */
    Var *iv = front_bind(p, name, ir_scalar_type(p->c, DT_INDEX), nsp);
    if (iv->type->kind != TY_SCALAR || iv->type->dtype != DT_INDEX) {
        iv = ir_var_new(p->c, name, ir_scalar_type(p->c, DT_INDEX));
        iv->span = nsp;
        front_rebind(p, name, iv);
    }
    Expr *q = ir_call(p->c, OP_TILE_GET_BLOCK_IDX, NULL, 0);
    q->span = ksp;
    if (!ir_deduce_call(p->c, q)) { p->failed = true; return false; }
    Stmt *a = ir_assign(p->c, iv, q);
    a->span = nsp;
    ir_list_push(p->c, &r->scope.body, a);
    p->loop_depth++;                 /* names assigned in the body vary per block, like a loop body's */
    bool ok = front_parse_block(p, &r->scope.body, NULL);
    p->loop_depth--;
    return ok;
}

/* ---- the with form: classify the body */
static bool is_query(const Expr *e) {
    return e->kind == EX_CALL && (e->call.op == OP_TILE_GET_BLOCK_IDX || e->call.op == OP_TILE_GET_BLOCK_NUM ||
                                  e->call.op == OP_TILE_GET_SUBBLOCK_IDX);
}
static void find_query(Expr *e, void *ud) { if (is_query(e)) *(bool *)ud = true; }

static Expr *stmt_call(const Stmt *s) {
    Expr *e = s->kind == ST_ASSIGN ? s->assign.value : s->kind == ST_EVAL ? s->eval.expr : NULL;
    return e && e->kind == EX_CALL && e->call.op == OP_NONE ? e : NULL;
}

/* One kernel call, then only the unpacking of its results (`ret = k(...)`, `x = ret[0]`, ...). */
static Stmt *sole_call(const StmtList *l) {
    if (!l->len || !stmt_call(l->items[0])) return NULL;
    for (int i = 1; i < l->len; i++)
        if (l->items[i]->kind != ST_ASSIGN || l->items[i]->assign.value->kind != EX_TUPLE_GET) return NULL;
    return l->items[0];
}

static bool bind_task(Parser *p, Stmt *s, Stmt *launch, Tok *as_name, Stmt *region) {
    if (!as_name) return true;
    if (region) {                   /* OutlineIncoreScopes names the task through the region's call */
        Var *tv = ir_var_new(p->c, as_name->text, ir_scalar_type(p->c, DT_TASK_ID));
        tv->span = as_name->span;
        front_rebind(p, as_name->text, tv);
        region->scope.task_var = tv;
        return true;
    }
    if (launch->kind != ST_ASSIGN) {
        front_error(p, as_name->span, "'with pl.spmd(...) as %s' around a kernel call that returns nothing: the task id is "
                    "the call's result, so assign it (out = kernel(...))", as_name->text);
        return false;
    }
    front_rebind(p, as_name->text, launch->assign.var);   /* deps=[tid] name a task through its call's value */
    return true;
}

static bool classify(Parser *p, Stmt *s, const SpmdOpts *o, Tok *as_name) {
    StmtList *b = &s->scope.body;
    for (int i = 0; i < b->len; i++)                  /* a nested pl.spmd: ir_check_program names it */
        if (b->items[i]->kind == ST_SCOPE && b->items[i]->scope.kind == SC_SPMD) return true;
    if (b->len == 1 && b->items[0]->kind == ST_SCOPE && b->items[0]->scope.kind == SC_INCORE) {   /* a sole pl.at */
        give_region(p, b->items[0], o);
        return bind_task(p, s, b->items[0], as_name, b->items[0]);
    }
    bool reads = false;
    ir_visit_exprs(b, find_query, &reads);
    Stmt *call = reads ? NULL : sole_call(b);
    if (call) {
        if (o->deps) ir_attr_set(p->c, &stmt_call(call)->call.attrs, "deps", *o->deps);
        return bind_task(p, s, call, as_name, NULL);
    }
    if (!reads) return true;                     /* neither: ir_check_program reports it (knowing where it is) */
    Stmt *r = new_region(p, s->span);           /* inline: the body is the kernel */
    r->scope.body = *b;
    *b = (StmtList){ 0 };
    ir_list_push(p->c, b, r);
    give_region(p, r, o);
    return bind_task(p, s, r, as_name, r);
}

/* At '(' after `with pl.spmd`. */
bool front_parse_spmd_with(Parser *p, StmtList *body, Span sp, Span ksp) {
    Stmt *s = ir_scope(p->c, SC_SPMD);
    s->span = sp;
    ir_list_push(p->c, body, s);
    SpmdOpts o = { .sp = ksp };
    if (!spmd_args(p, s, &o)) return false;
    Tok *as_name = NULL;
    if (front_is_name(p, "as")) {                    /* the task id of the launch, for deps=[tid] */
        front_next(p);
        as_name = front_peek(p, 0);
        if (as_name->kind != TK_NAME) { front_error(p, as_name->span, "expected a name after 'as'"); return false; }
        front_next(p);
    }
    if (!front_expect_op(p, ":", "after the with header")) return false;
    if (!front_parse_block(p, &s->scope.body, NULL)) return false;
    return classify(p, s, &o, as_name);
}

/* pl.system.available_cluster_count() / available_aiv_count(): constants of the target compiled for
 * (the binding's counts; a2a3's without one). NULL without an error when d is neither. */
Expr *front_system_count(Parser *p, const char *d, Span sp) {
    bool clusters = strcmp(d, "pl.system.available_cluster_count") == 0;
    if (!clusters && strcmp(d, "pl.system.available_aiv_count") != 0) return NULL;
    if (!front_expect_op(p, "(", "after the name") || !front_expect_op(p, ")", "(it takes no arguments)")) return NULL;
    const FrontBinding *b = p->binding;
    int64_t n = clusters ? (b && b->cluster_count ? b->cluster_count : 24) : (b && b->aiv_count ? b->aiv_count : 48);
    Expr *e = ir_const_int(p->c, n, DT_INDEX);
    e->span = sp;
    return e;
}
