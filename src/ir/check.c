/* check — the user-level rules on where scopes may appear, checked on the parsed program before
 * any pass runs. The parser accepts every scope everywhere (the printed form of a dump must parse
 * back whatever it holds); the compiler can only honour:
 *   - pl.at(level=pl.Level.CORE_GROUP) regions in Opaque / Orchestration functions, not nested: a
 *     region becomes its own kernel, so a region inside a kernel (an InCore / AIC / AIV function,
 *     or another region) has nothing to be outlined from;
 *   - pl.spmd / pl.cluster / pl.at at another level: not inside a kernel (the orchestration launches
 *     blocks and clusters), and pl.cluster / other levels not at all;
 *   - no 'return' inside a region (it would return from the kernel, not from the function);
 *   - no load, move, extract, matmul or slice used as a statement (its result would have no home).
 * Requires: a parsed Program. Produces: located user errors through the sink; true when clean. */
#include "ir/ir.h"

typedef struct ScopeCheck {
    const Function *fn;
    DiagSink *diag;
    const Stmt *region;          /* the enclosing pl.at region, NULL outside */
    bool ok;
} ScopeCheck;

static bool is_kernel_function(const Function *f) { return f->type != FT_OPAQUE && f->type != FT_ORCHESTRATION; }

static void check_list(ScopeCheck *k, const StmtList *l);

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
        break;
    case SC_RUNTIME: break;        /* a runtime scope only groups tasks: transparent anywhere */
    }
    check_list(k, &s->scope.body);
}

static void check_list(ScopeCheck *k, const StmtList *l) {
    for (int i = 0; i < l->len && k->ok; i++) {
        const Stmt *s = l->items[i];
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
        ScopeCheck k = { p->funcs[i], diag, NULL, true };
        check_list(&k, &p->funcs[i]->body);
        ok &= k.ok;
    }
    return ok;
}
