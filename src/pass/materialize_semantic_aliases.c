/* MaterializeSemanticAliases
 * Requires: HasMemRefs.
 * Produces: must-alias values on one MemRef:
 *   - loops: the iter_arg's MemRef is pushed down the yielded value and its producer chain (through
 *     in-place ops, views, plain copies, nested loops and ifs) and onto the return var, so a loop
 *     accumulator is updated in place;
 *   - ifs: each phi (If return var) and the values its branches yield share one MemRef, so whichever
 *     branch runs leaves the value where the code after the if reads it.
 * Does: a chain ends at a fresh producer (retargeted to write into the shared buffer) or at a value
 *   defined outside the construct (its "anchor", whose buffer is kept). For an if, the shared buffer
 *   is a branch's anchor when that anchor may be overwritten there — it is the iter_arg of the loop
 *   whose body ends by yielding this phi, and nothing reads it after the if or in the other branch
 *   (the peeled split-K `if k == 0: acc = matmul(..) else: acc = matmul_acc(acc, ..)`) — else the
 *   phi's own buffer, and a branch whose anchor cannot be overwritten yields a copy (tile.move within
 *   the space). An accumulator (Acc) has no copy: that case is a located user error. A loop whose
 *   yielded chain cannot be realised in place keeps its own buffer. */
#include "pass/pass.h"

#include <string.h>

/* Where each variable is defined: an assignment, or result k of a For / If. */
typedef struct { Stmt **stmt; int *index; int n; } Defs;

static void defs_put(Defs *d, const Var *v, Stmt *s, int k) {
    if (v->id >= 0 && v->id < d->n) { d->stmt[v->id] = s; d->index[v->id] = k; }
}

static void defs_list(Defs *d, StmtList *l) {
    for (int i = 0; i < l->len; i++) {
        Stmt *s = l->items[i];
        if (s->kind == ST_ASSIGN) defs_put(d, s->assign.var, s, 0);
        if (s->kind == ST_FOR) {
            for (int k = 0; k < s->for_.return_vars.len; k++) defs_put(d, s->for_.return_vars.items[k], s, k);
            defs_list(d, &s->for_.body);
        }
        if (s->kind == ST_IF) {
            for (int k = 0; k < s->if_.return_vars.len; k++) defs_put(d, s->if_.return_vars.items[k], s, k);
            defs_list(d, &s->if_.then_body);
            defs_list(d, &s->if_.else_body);
        }
        if (s->kind == ST_SCOPE) defs_list(d, &s->scope.body);
    }
}

typedef struct { PassCtx *ctx; Function *f; Defs defs; bool ok; } Alias;

static bool same_buffer(const MemRef *a, const MemRef *b) {
    return a && b && a->base == b->base && a->offset == b->offset;
}

static void retarget(IrCtx *c, Var *v, const MemRef *m) {
    if (!v->type || !v->type->memref || same_buffer(v->type->memref, m)) return;
    Type *t = ir_type_copy(c, v->type);
    t->memref = ARENA_NEW(c->arena, MemRef);
    *t->memref = *m;
    t->memref->size = v->type->memref->size > m->size ? v->type->memref->size : m->size;
    pass_var_set_type(v, t);
}

static Expr *last_yield(StmtList *body, int k) {
    Stmt *y = body->len ? body->items[body->len - 1] : NULL;
    return y && y->kind == ST_YIELD && k < y->yield.n ? y->yield.values[k] : NULL;
}

static bool contains(const StmtList *l, const Stmt *target) {
    for (int i = 0; i < l->len; i++) {
        const Stmt *s = l->items[i];
        if (s == target) return true;
        if (s->kind == ST_FOR && contains(&s->for_.body, target)) return true;
        if (s->kind == ST_IF && (contains(&s->if_.then_body, target) || contains(&s->if_.else_body, target))) return true;
        if (s->kind == ST_SCOPE && contains(&s->scope.body, target)) return true;
    }
    return false;
}

/* The statement defining v inside `scope`, or NULL (v comes from outside: the chain's anchor). */
static Stmt *def_inside(Alias *a, const StmtList *scope, const Var *v) {
    if (v->id < 0 || v->id >= a->defs.n || !a->defs.stmt[v->id]) return NULL;
    Stmt *d = a->defs.stmt[v->id];
    return contains(scope, d) ? d : NULL;
}

/* The input whose buffer the assignment's result is (in-place op, view, plain copy), or NULL for a
 * fresh producer. */
static Expr *alias_source(Stmt *d) {
    Expr *v = d->assign.value;
    if (v->kind == EX_VAR) return v;
    Expr *call = pass_stmt_call(d);
    if (!call || call->call.op == OP_NONE) return NULL;
    const OpInfo *info = ir_op_info(call->call.op);
    int src = info->reuses_input >= 0 ? info->reuses_input : (info->flags & OPF_VIEW) ? 0 : -1;
    return src >= 0 && src < call->call.nargs ? call->call.args[src] : NULL;
}

/* The anchor of value y's chain within scope (the first value defined outside it), or NULL when the
 * chain ends at a fresh producer inside. */
static Var *anchor_of(Alias *a, const StmtList *scope, Expr *y) {
    for (int guard = 0; y && y->kind == EX_VAR && guard < 1000; guard++) {
        Stmt *d = def_inside(a, scope, y->var);
        if (!d) return y->var;
        if (d->kind == ST_FOR) y = d->for_.iter_args.items[a->defs.index[y->var->id]]->init;
        else if (d->kind == ST_IF) return NULL;          /* merged inside: its branches are unified first */
        else y = alias_source(d);
    }
    return NULL;
}

/* Puts value y and its producer chain inside scope on buffer m (stopping at `stop` and at values
 * from outside scope). */
static void push(Alias *a, const StmtList *scope, Expr *y, const Var *stop, const MemRef *m) {
    IrCtx *c = a->ctx->ir;
    for (int guard = 0; y && y->kind == EX_VAR && y->var != stop && guard < 1000; guard++) {
        Var *v = y->var;
        Stmt *d = def_inside(a, scope, v);
        if (!d) return;
        if (d->kind == ST_ASSIGN && !alias_source(d) && v->type->kind != TY_TILE) return;   /* a fresh tensor keeps its storage */
        retarget(c, v, m);
        int k = a->defs.index[v->id];
        if (d->kind == ST_FOR) {
            Var *it = d->for_.iter_args.items[k];
            retarget(c, it, m);
            push(a, &d->for_.body, last_yield(&d->for_.body, k), it, m);
            y = it->init;
        } else if (d->kind == ST_IF) {
            push(a, &d->if_.then_body, last_yield(&d->if_.then_body, k), NULL, m);
            push(a, &d->if_.else_body, last_yield(&d->if_.else_body, k), NULL, m);
            return;
        } else {
            y = alias_source(d);
        }
    }
}

static bool used_in(StmtList *l, const Var *v) { return v && ir_stmts_use_var(l, v); }

/* Whether a branch may overwrite the if's anchor (the other branch's value from before the if): the
 * anchor is an iter_arg of the loop whose body `list` is, or is defined in `list` before the if; the
 * fresh branch does not read it; and neither it nor anything whose buffer it shares in place is read
 * after the if in `list`. */
static bool anchor_writable(Alias *a, StmtList *list, int at, Stmt *loop, Var *anchor, StmtList *fresh) {
    if (used_in(fresh, anchor)) return false;
    StmtList after = { list->items + at + 1, list->len - at - 1, list->len - at - 1 };
    bool is_iter = false;
    for (int j = 0; loop && j < loop->for_.iter_args.len; j++) is_iter |= loop->for_.iter_args.items[j] == anchor;
    Expr *y = ir_ref(anchor);
    for (int guard = 0; y && y->kind == EX_VAR && guard < 1000; guard++) {
        Var *v = y->var;
        if (used_in(&after, v)) return false;
        if (is_iter && v == anchor) return true;
        StmtList before = { list->items, at, at };
        Stmt *d = def_inside(a, &before, v);
        if (!d) return is_iter;
        if (d->kind != ST_ASSIGN) return d->kind == ST_FOR || d->kind == ST_IF;   /* a merged or carried value of this list */
        y = alias_source(d);
        if (!y) return true;
    }
    return false;
}

/* Replaces branch's yield value k by a copy of it on buffer m (tile.move within its space). */
static bool copy_into(Alias *a, Stmt *ifs, StmtList *branch, int k, const MemRef *m) {
    IrCtx *c = a->ctx->ir;
    Stmt *y = branch->items[branch->len - 1];
    Expr *v = y->yield.values[k];
    Var *rv = ifs->if_.return_vars.items[k];
    if (v->type->space == MS_ACC) {
        diag_error(a->ctx->diag, ifs->span,
                   "the branches of this if give '%.*s' two different accumulator (Acc) buffers, and an accumulator cannot be "
                   "copied; compute the value in both branches with a fresh matmul, or accumulate into one accumulator",
                   pass_user_name_len(rv->name), rv->name);
        return false;
    }
    Expr *call = ir_call(c, OP_TILE_MOVE, &v, 1);
    ir_attr_set(c, &call->call.kwargs, "target_memory", ir_av_mem(v->type->space));
    bool ok = ir_deduce_call(c, call);
    PTOC_ASSERT(ok, "MaterializeSemanticAliases: a copy of %s does not type", rv->name);
    Var *cp = ir_var_new(c, pass_name(a->ctx, rv->name, "copy"), call->type);
    Type *t = ir_type_copy(c, call->type);
    t->memref = ARENA_NEW(c->arena, MemRef);
    *t->memref = *m;
    pass_var_set_type(cp, t);
    Stmt *as = ir_assign(c, cp, call);
    as->span = y->span;
    ir_list_insert(c, branch, branch->len - 1, as);
    y->yield.values[k] = ir_ref(cp);
    return true;
}

/* The top-level statement of body that produces yielded value y's storage afresh (the end of its
 * in-place chain), or -1 when the chain reaches the iter_arg or leaves through a nested construct. */
static int fresh_producer_at(Alias *a, StmtList *body, Expr *y, const Var *it) {
    for (int guard = 0; y && y->kind == EX_VAR && y->var != it && guard < 1000; guard++) {
        Stmt *d = def_inside(a, body, y->var);
        if (!d) return -1;
        int at = -1;
        for (int i = 0; i < body->len; i++)
            if (body->items[i] == d) at = i;
        if (at < 0) return -1;
        if (d->kind == ST_FOR) {        /* a nested loop's result (a K loop): its chain continues at its init */
            y = d->for_.iter_args.items[a->defs.index[y->var->id]]->init;
            continue;
        }
        if (d->kind != ST_ASSIGN) return -1;
        Expr *src = alias_source(d);
        if (!src) return at;
        y = src;
    }
    return -1;
}

/* Whether the loop's yielded chain may be put on the iter_arg's buffer: either it reaches the
 * iter_arg through in-place ops (an accumulator updated in place), or its fresh producer neither
 * reads the iter_arg nor is followed by a statement that does (it would overwrite the carried value
 * while it is still needed). */
static bool carry_in_place_ok(Alias *a, StmtList *body, Expr *y, Var *it) {
    if (anchor_of(a, body, y) == it) return true;
    int at = fresh_producer_at(a, body, y, it);
    if (at < 0) return false;
    StmtList rest = { body->items + at, body->len - at, body->len - at };
    return !ir_stmts_use_var(&rest, it);
}

/* Appends `cp = tile.move(yielded value k)` on buffer m before the body's yield and yields cp. */
static Var *copy_before_yield(Alias *a, StmtList *body, int k, const MemRef *m, Span sp) {
    IrCtx *c = a->ctx->ir;
    Stmt *y = body->items[body->len - 1];
    Expr *v = y->yield.values[k];
    Expr *call = ir_call(c, OP_TILE_MOVE, &v, 1);
    ir_attr_set(c, &call->call.kwargs, "target_memory", ir_av_mem(v->type->space));
    bool ok = ir_deduce_call(c, call);
    PTOC_ASSERT(ok, "MaterializeSemanticAliases: a copy of a carried %s does not type", v->kind == EX_VAR ? v->var->name : "value");
    Var *cp = ir_var_new(c, pass_name(a->ctx, v->kind == EX_VAR ? v->var->name : "carry", "copy"), call->type);
    Type *t = ir_type_copy(c, call->type);
    t->memref = ARENA_NEW(c->arena, MemRef);
    *t->memref = *m;
    pass_var_set_type(cp, t);
    Stmt *as = ir_assign(c, cp, call);
    as->span = sp;
    ir_list_insert(c, body, body->len - 1, as);
    y->yield.values[k] = ir_ref(cp);
    return cp;
}

static void unify_if(Alias *a, StmtList *list, int at, Stmt *loop) {
    Stmt *ifs = list->items[at];
    StmtList *br[2] = { &ifs->if_.then_body, &ifs->if_.else_body };
    for (int k = 0; k < ifs->if_.return_vars.len && a->ok; k++) {
        Var *rv = ifs->if_.return_vars.items[k];
        if (!rv->type || !rv->type->memref || rv->type->kind != TY_TILE) continue;
        Var *anc[2];
        for (int b = 0; b < 2; b++) anc[b] = br[b]->len ? anchor_of(a, br[b], last_yield(br[b], k)) : NULL;
        const MemRef *m = rv->type->memref;
        int keep = -1;                 /* the branch whose anchor's buffer becomes the phi's */
        for (int b = 0; b < 2 && keep < 0; b++)
            if (anc[b] && (anc[!b] == NULL || same_buffer(anc[b]->type->memref, anc[!b]->type->memref)) &&
                (anc[!b] != NULL || anchor_writable(a, list, at, loop, anc[b], br[!b])))
                keep = b;
        if (keep >= 0) m = anc[keep]->type->memref;
        for (int b = 0; b < 2 && a->ok; b++)
            if (anc[b] && !same_buffer(anc[b]->type->memref, m)) {
                if (!copy_into(a, ifs, br[b], k, m)) a->ok = false;
            }
        if (!a->ok) return;
        retarget(a->ctx->ir, rv, m);
        for (int b = 0; b < 2; b++) push(a, br[b], last_yield(br[b], k), NULL, m);
    }
}

static void alias_list(Alias *a, StmtList *l, Stmt *loop) {
    for (int i = 0; i < l->len && a->ok; i++) {
        Stmt *s = l->items[i];
        if (s->kind == ST_SCOPE) { alias_list(a, &s->scope.body, NULL); continue; }
        if (s->kind == ST_IF) {
            alias_list(a, &s->if_.then_body, NULL);
            alias_list(a, &s->if_.else_body, NULL);
            unify_if(a, l, i, loop);
            continue;
        }
        if (s->kind != ST_FOR) continue;
        alias_list(a, &s->for_.body, s);
        StmtList *b = &s->for_.body;
        for (int k = 0; k < s->for_.iter_args.len && a->ok; k++) {
            Var *it = s->for_.iter_args.items[k];
            const MemRef *m = it->type->memref;
            Expr *yv = last_yield(b, k);
            if (!m || !yv) continue;
            if (it->type->kind == TY_TILE && !carry_in_place_ok(a, b, yv, it)) {
                /* no Acc -> Acc copy exists (targets.md §7.2): kept apart here; when the chain still ends on
                 * another buffer, the backend's carry check reports it (lower.c) */
                if (it->type->space == MS_ACC) continue;
                StmtList *yl = b;
                Var *cp = copy_before_yield(a, yl, k, m, s->span);
                yv = ir_ref(cp);
            }
            push(a, b, yv, it, m);
            if (k < s->for_.return_vars.len && yv->type && same_buffer(yv->type->memref, m))
                retarget(a->ctx->ir, s->for_.return_vars.items[k], m);
        }
    }
}

bool pass_materialize_semantic_aliases(Program *p, PassCtx *ctx) {
    for (int i = 0; i < p->nfuncs; i++) {
        Function *f = p->funcs[i];
        if (!ir_functype_is_incore(f->type)) continue;
        int n = ctx->ir->next_var_id + 1;
        Alias a = { ctx, f, { calloc((size_t)n, sizeof(Stmt *)), calloc((size_t)n, sizeof(int)), n }, true };
        PTOC_ASSERT(a.defs.stmt && a.defs.index, "out of memory");
        defs_list(&a.defs, &f->body);
        alias_list(&a, &f->body, NULL);
        free(a.defs.stmt);
        free(a.defs.index);
        if (!a.ok) return false;
    }
    return true;
}
