/* verify: structural invariants of a program plus the properties a pass claims to produce.
 * Violations are internal errors (a pass broke an invariant) reported to the sink with the
 * function and variable involved. */
#include "ir/ir.h"

#include <stdlib.h>
#include <string.h>

/* The variables in scope: a stack (popped back to a mark when a nested body ends) plus, per Var id
 * (dense per IrCtx), the times it is on the stack, so that "is it defined" is one array access — not a
 * walk of every earlier definition (quadratic in the statements of a function), nor a pointer hash
 * probe with a cache miss per use (a fifth of compiling a 10,000-statement kernel, verified after every
 * pass). The counts return to zero as the stack is popped, so one array serves every function. */
typedef struct { const Var *var; int count; } DefSlot;   /* the Var holding the id, times on the stack */

typedef struct {
    DiagSink *diag;
    const Function *f;
    unsigned props;
    const Var **defined; int ndefined, cap;
    DefSlot *slot; int nslot;         /* by Var id */
    bool ok;
} Verify;

static DefSlot *slot_of(Verify *v, const Var *x, bool grow) {
    PTOC_ASSERT(x->id >= 0, "verify: variable '%s' has a negative id", x->name);
    if (x->id >= v->nslot) {
        if (!grow) return NULL;
        int n = v->nslot ? v->nslot : 1024;
        while (n <= x->id) n *= 2;
        v->slot = realloc(v->slot, sizeof(DefSlot) * (size_t)n);
        PTOC_ASSERT(v->slot, "out of memory");
        memset(v->slot + v->nslot, 0, sizeof(DefSlot) * (size_t)(n - v->nslot));
        v->nslot = n;
    }
    return &v->slot[x->id];
}

/* leave a nested body: its definitions go out of scope */
static void pop_to(Verify *v, int mark) {
    while (v->ndefined > mark) {
        DefSlot *d = slot_of(v, v->defined[--v->ndefined], false);
        PTOC_ASSERT(d && d->count > 0, "verify: scope stack and counts disagree");
        d->count--;
    }
}

static void fail(Verify *v, Span sp, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void fail(Verify *v, Span sp, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    StrBuf sb = {0};
    sb_printf(&sb, "internal: IR verification failed in function '%s': ", v->f->name);
    sb_vprintf(&sb, fmt, ap);
    diag_add(v->diag, DIAG_ERROR, sp, NULL, "%s", sb_cstr(&sb));
    sb_free(&sb);
    va_end(ap);
    v->ok = false;
}

static bool is_defined(Verify *v, const Var *x) {
    const DefSlot *d = slot_of(v, x, false);
    return d && d->count > 0 && d->var == x;
}

static void define(Verify *v, const Var *x, Span sp) {
    if ((v->props & 1u) && is_defined(v, x)) fail(v, sp, "variable '%s' is defined twice (not SSA)", x->name);
    if (v->ndefined == v->cap) {
        v->cap = v->cap ? v->cap * 2 : 64;
        v->defined = realloc(v->defined, sizeof(Var *) * (size_t)v->cap);
    }
    v->defined[v->ndefined++] = x;
    DefSlot *d = slot_of(v, x, true);
    if (d->count > 0 && d->var != x)
        fail(v, sp, "variables '%s' and '%s' in scope share the id %d (ids are unique per IrCtx)", d->var->name, x->name, x->id);
    else d->var = x;
    d->count++;
    if (!x->type) fail(v, sp, "variable '%s' has no type", x->name);
    bool incore = ir_functype_is_incore(v->f->type);
    if (incore && x->type && x->type->kind == TY_TILE && (v->props & IRP_TILE_MEMORY) && x->type->space == MS_NONE)
        fail(v, sp, "tile '%s' has no memory space", x->name);
    if (incore && x->type && (x->type->kind == TY_TILE || x->type->kind == TY_TENSOR) && (v->props & IRP_HAS_MEMREFS) &&
        !x->type->memref && (v->f->type == FT_AIC || v->f->type == FT_AIV))
        fail(v, sp, "'%s' has no MemRef", x->name);
    if (x->type && x->type->memref && (v->props & IRP_ALLOCATED) && x->type->memref->offset < 0)
        fail(v, sp, "MemRef for variable '%s' has no valid address allocated", x->name);
}

typedef struct { Verify *v; Span sp; } UseCheck;
static void check_use(Expr *e, void *ud) {
    UseCheck *u = ud;
    if (e->kind == EX_VAR && !is_defined(u->v, e->var))
        fail(u->v, e->span.line ? e->span : u->sp, "'%s' is used before it is defined", e->var->name);
    if (e->kind == EX_CALL) {
        for (int i = 0; i < e->call.nargs; i++)
            if (!e->call.args[i]) fail(u->v, u->sp, "call with a missing argument");
        if (e->call.op == OP_NONE && !e->call.callee) fail(u->v, u->sp, "call of unresolved function '%s'", e->call.callee_name);
        if ((u->v->props & IRP_INCORE_TILE_OPS) && ir_functype_is_incore(u->v->f->type) && e->call.op != OP_NONE &&
            (ir_op_info(e->call.op)->flags & OPF_TENSOR) && !(ir_op_info(e->call.op)->flags & OPF_ACCESS))
            fail(u->v, u->sp, "tensor op %s remains in a kernel", ir_op_info(e->call.op)->name);
    }
}

static void uses(Verify *v, Expr *e, Span sp) {
    UseCheck u = { v, sp };
    if (e) ir_visit_expr(e, check_use, &u);
}

static void verify_list(Verify *v, const StmtList *l) {
    for (int i = 0; i < l->len; i++) {
        Stmt *s = l->items[i];
        int mark = v->ndefined;
        switch (s->kind) {
        case ST_ASSIGN: uses(v, s->assign.value, s->span); define(v, s->assign.var, s->span); continue;
        case ST_EVAL: uses(v, s->eval.expr, s->span); continue;
        case ST_RETURN: for (int j = 0; j < s->ret.n; j++) uses(v, s->ret.values[j], s->span); continue;
        case ST_YIELD: for (int j = 0; j < s->yield.n; j++) uses(v, s->yield.values[j], s->span); continue;
        case ST_IF:
            uses(v, s->if_.cond, s->span);
            verify_list(v, &s->if_.then_body);
            pop_to(v, mark);
            verify_list(v, &s->if_.else_body);
            pop_to(v, mark);
            for (int j = 0; j < s->if_.return_vars.len; j++) define(v, s->if_.return_vars.items[j], s->span);
            continue;
        case ST_FOR:
            uses(v, s->for_.start, s->span); uses(v, s->for_.stop, s->span); uses(v, s->for_.step, s->span);
            for (int j = 0; j < s->for_.iter_args.len; j++) uses(v, s->for_.iter_args.items[j]->init, s->span);
            if (s->for_.iter_args.len != s->for_.return_vars.len)
                fail(v, s->span, "loop has %d iter_args but %d return vars", s->for_.iter_args.len, s->for_.return_vars.len);
            define(v, s->for_.loop_var, s->span);
            for (int j = 0; j < s->for_.iter_args.len; j++) define(v, s->for_.iter_args.items[j], s->span);
            verify_list(v, &s->for_.body);
            pop_to(v, mark);
            for (int j = 0; j < s->for_.return_vars.len; j++) define(v, s->for_.return_vars.items[j], s->span);
            continue;
        case ST_WHILE:
            for (int j = 0; j < s->while_.iter_args.len; j++) define(v, s->while_.iter_args.items[j], s->span);
            uses(v, s->while_.cond, s->span);
            verify_list(v, &s->while_.body);
            pop_to(v, mark);
            for (int j = 0; j < s->while_.return_vars.len; j++) define(v, s->while_.return_vars.items[j], s->span);
            continue;
        case ST_SCOPE:
            if ((v->props & IRP_SPLIT_INCORE_ORCH) && s->scope.kind == SC_INCORE)
                fail(v, s->span, "a pl.at region remains after outlining");
            uses(v, s->scope.core_num, s->span);
            for (int j = 0; j < s->scope.kwargs.len; j++)
                if (s->scope.kwargs.items[j].val.kind == AV_LIST || s->scope.kwargs.items[j].val.kind == AV_EXPR) {
                    AttrList one = { &s->scope.kwargs.items[j], 1, 1 };
                    UseCheck u = { v, s->span };
                    ir_visit_attrs(&one, check_use, &u);
                }
            verify_list(v, &s->scope.body);   /* transparent: definitions stay visible */
            if (s->scope.task_var) define(v, s->scope.task_var, s->span);
            continue;
        }
    }
}

bool ir_verify(const Program *p, unsigned props, DiagSink *diag) {
    bool ok = true;
    Verify v = { diag, NULL, props, NULL, 0, 0, NULL, 0, true };   /* one slot array for every function */
    for (int i = 0; i < p->nfuncs; i++) {
        v.f = p->funcs[i];
        v.ok = true;
        for (int j = 0; j < p->funcs[i]->params.len; j++) define(&v, p->funcs[i]->params.items[j], p->funcs[i]->span);
        /* MemRef bases are defined by tile.alloc (or name DDR storage); SSA does not apply to them */
        verify_list(&v, &p->funcs[i]->body);
        pop_to(&v, 0);                /* every count back to zero for the next function */
        ok &= v.ok;
    }
    free(v.defined);
    free(v.slot);
    return ok;
}
