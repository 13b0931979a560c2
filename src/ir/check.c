/* check — the user-level rules on where scopes may appear, checked on the parsed program before
 * any pass runs. The parser accepts every scope everywhere (the printed form of a dump must parse
 * back whatever it holds); the compiler can only honour:
 *   - pl.at(level=pl.Level.CORE_GROUP) regions in Opaque / Orchestration functions, not nested: a
 *     region becomes its own kernel, so a region inside a kernel (an InCore / AIC / AIV function,
 *     or another region) has nothing to be outlined from;
 *   - pl.spmd / pl.cluster / pl.at at another level: not inside a kernel (the orchestration launches
 *     blocks and clusters), and pl.cluster / other levels not at all;
 *   - no 'return' inside a region (it would return from the kernel, not from the function);
 *   - no load, move, extract, matmul or slice used as a statement (its result would have no home);
 *   - no pl.spmd inside a pl.spmd (one launch has one block count); its body launches exactly one
 *     kernel: a sole pl.at region (the parser wraps an inline body in one) or one kernel call
 *     followed only by the unpacking of its results; the block queries
 *     (pl.tile.get_block_idx() / get_block_num() / get_subblock_idx()) only inside a kernel: a
 *     region, a kernel function (which reads its launch's values) — not in orchestration code.
 * Requires: a parsed Program. Produces: located user errors through the sink; true when clean. */
#include "ir/ir.h"

typedef struct ScopeCheck {
    const Function *fn;
    DiagSink *diag;
    const Stmt *region;          /* the enclosing pl.at region, NULL outside */
    const Stmt *spmd;            /* the enclosing pl.spmd, NULL outside */
    bool ok;
} ScopeCheck;

static bool is_kernel_function(const Function *f) { return f->type != FT_OPAQUE && f->type != FT_ORCHESTRATION; }

static void check_list(ScopeCheck *k, const StmtList *l);

static bool launches_one_kernel(const StmtList *b) {
    for (int i = 0; i < b->len; i++)                   /* a nested pl.spmd: reported as such below */
        if (b->items[i]->kind == ST_SCOPE && b->items[i]->scope.kind == SC_SPMD) return true;
    if (b->len == 1 && b->items[0]->kind == ST_SCOPE && b->items[0]->scope.kind == SC_INCORE) return true;
    if (!b->len) return false;
    const Stmt *s = b->items[0];
    const Expr *e = s->kind == ST_ASSIGN ? s->assign.value : s->kind == ST_EVAL ? s->eval.expr : NULL;
    if (!e || e->kind != EX_CALL || e->call.op != OP_NONE) return false;
    for (int i = 1; i < b->len; i++)
        if (b->items[i]->kind != ST_ASSIGN || b->items[i]->assign.value->kind != EX_TUPLE_GET) return false;
    return true;
}

static void check_scope(ScopeCheck *k, const Stmt *s) {
    const char *fname = k->fn->name;
    switch (s->scope.kind) {
    case SC_INCORE:
        if (k->region) {
            diag_error(k->diag, s->span,
                       "nested 'with pl.at(...)': the region at line %d already becomes a kernel; remove the inner 'with' and keep its body",
                       k->region->span.line);
            k->ok = false;
            return;
        }
        if (is_kernel_function(k->fn)) {
            diag_error(k->diag, s->span,
                       "'with pl.at(...)' inside the %s function '%s': a pl.at region becomes a kernel of its own, and '%s' already "
                       "runs on a core; remove the 'with' and keep its body, or move the region into an orchestration function",
                       ir_functype_name(k->fn->type), fname, fname);
            k->ok = false;
            return;
        }
        k->region = s;
        check_list(k, &s->scope.body);
        k->region = NULL;
        return;
    case SC_HIERARCHY:
        diag_error(k->diag, s->span, "pl.at(level=pl.Level.%s) is not supported: ptoc compiles pl.at(level=pl.Level.CORE_GROUP) regions",
                   ir_level_name(s->scope.level));
        k->ok = false;
        return;
    case SC_CLUSTER:
        diag_error(k->diag, s->span, "pl.cluster() is not supported by ptoc");
        k->ok = false;
        return;
    case SC_SPMD:
        if (k->region || is_kernel_function(k->fn)) {
            diag_error(k->diag, s->span, "pl.spmd(...) inside %s: SPMD blocks are launched by the orchestration; put the pl.at region "
                       "inside the pl.spmd instead", k->region ? "a pl.at region" : "a kernel function");
            k->ok = false;
            return;
        }
        if (k->spmd) {
            diag_error(k->diag, s->span, "pl.spmd(...) inside the pl.spmd at line %d: one launch has one block count; launch the "
                       "kernel once with the total number of blocks", k->spmd->span.line);
            k->ok = false;
            return;
        }
        if (!launches_one_kernel(&s->scope.body)) {
            diag_error(k->diag, s->span, "the body of 'with pl.spmd(...)' must either read the block index (pl.tile.get_block_idx(): "
                       "an inline kernel body) or launch exactly one kernel (a sole 'with pl.at(...)' region or one kernel "
                       "call); this one does neither, so every block would do the same work");
            k->ok = false;
            return;
        }
        k->spmd = s;
        check_list(k, &s->scope.body);
        k->spmd = NULL;
        return;
    case SC_RUNTIME: break;        /* a runtime scope only groups tasks: transparent anywhere */
    }
    check_list(k, &s->scope.body);
}

typedef struct { const Expr *query; } QueryFind;
static void find_query(Expr *e, void *ud) {
    QueryFind *q = ud;
    if (!q->query && e->kind == EX_CALL && (e->call.op == OP_TILE_GET_BLOCK_IDX || e->call.op == OP_TILE_GET_BLOCK_NUM ||
                                            e->call.op == OP_TILE_GET_SUBBLOCK_IDX))
        q->query = e;
}

/* A block query of the orchestration (outside every region and kernel) has no block to ask about. */
static void check_queries(ScopeCheck *k, const Stmt *s) {
    if (k->region || is_kernel_function(k->fn) || (s->kind != ST_ASSIGN && s->kind != ST_EVAL)) return;
    QueryFind q = { NULL };
    ir_visit_expr(s->kind == ST_ASSIGN ? s->assign.value : s->eval.expr, find_query, &q);
    if (!q.query) return;
    diag_error(k->diag, s->span, "pl.%s() outside a kernel: the orchestration runs once, not per block; read it inside the "
               "kernel (the body of 'for i in pl.spmd(N)', an inline 'with pl.spmd(N)' body, a pl.at region or a kernel function)",
               ir_op_info(q.query->call.op)->name);
    k->ok = false;
}

static void check_list(ScopeCheck *k, const StmtList *l) {
    for (int i = 0; i < l->len && k->ok; i++) {
        const Stmt *s = l->items[i];
        check_queries(k, s);
        switch (s->kind) {
        case ST_SCOPE: check_scope(k, s); break;
        case ST_IF: check_list(k, &s->if_.then_body); check_list(k, &s->if_.else_body); break;
        case ST_FOR: check_list(k, &s->for_.body); break;
        case ST_WHILE: check_list(k, &s->while_.body); break;
        case ST_EVAL: {
            /* an op whose only effect is its result, used as a statement: nothing can hold it (the
             * backend had no buffer for it) */
            const Expr *e = s->eval.expr;
            OpId op = e->kind == EX_CALL ? e->call.op : OP_NONE;
            if (op == OP_TILE_LOAD || op == OP_TILE_EXTRACT || op == OP_TILE_MOVE || op == OP_TILE_MATMUL ||
                op == OP_TILE_MATMUL_ACC || op == OP_TILE_MATMUL_BIAS || op == OP_TENSOR_MATMUL || op == OP_TENSOR_SLICE) {
                diag_error(k->diag, s->span, "the result of %s is discarded: assign it to a variable (x = ...) or remove the call",
                           ir_op_info(op)->name);
                k->ok = false;
            }
            break;
        }
        case ST_RETURN:
            if (k->region) {
                diag_error(k->diag, s->span, "'return' inside a pl.at region (line %d): the region becomes a kernel that returns "
                           "to the orchestration; return after the 'with' block", k->region->span.line);
                k->ok = false;
            }
            break;
        default: break;
        }
    }
}

bool ir_check_program(const Program *p, DiagSink *diag) {
    bool ok = true;
    for (int i = 0; i < p->nfuncs; i++) {
        ScopeCheck k = { p->funcs[i], diag, NULL, NULL, true };
        check_list(&k, &p->funcs[i]->body);
        ok &= k.ok;
    }
    return ok;
}
