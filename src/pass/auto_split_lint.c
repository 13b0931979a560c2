/* auto_split_lint — the split-K lint of AutoSplitCores (issue 11 point 2; walkthrough rung 2,
 * runtime.md §9.5).
 *
 * Requires: SSA orchestration functions, regions inline (before OutlineIncoreScopes).
 * Produces: perf hint PH-SC-003 on a loop (pl.range / pl.parallel / ...) whose body holds a region
 *   with a matmul that accumulates into one tensor T living across the iterations (an iter-arg of the
 *   loop or a tensor defined before it): `pl.assemble(T, p, offs, atomic=pl.AtomicType.Add)`,
 *   `T = T + p` (tensor.add of T or a window of T, stored back into T) or `pl.matmul_acc(T, ...)`.
 * Does: only reports. Every such task reads and writes T, so the runtime chains the iterations
 *   (N tasks, N - 1 edges, one core at a time); the hint shows form B (examples/splitk_spmd.py): a
 *   zero-init region, then `for ks in pl.spmd(N)` with an atomic-add assemble — one task of N blocks
 *   running at once. A pl.spmd loop (form B itself) is not a loop here and gets no hint. */
#include "pass/auto_split.h"

#include <string.h>

static bool defined_in(const StmtList *body, const Var *v) {
    for (int i = 0; i < body->len; i++)
        if (body->items[i]->kind == ST_ASSIGN && body->items[i]->assign.var == v) return true;
    return false;
}

/* The outside tensor e reads: itself, or the base of a region slice of it. */
static Var *outside_base(const StmtList *body, Expr *e) {
    if (e->kind != EX_VAR) return NULL;
    if (!defined_in(body, e->var)) return e->var;
    for (int i = 0; i < body->len; i++) {
        Stmt *s = body->items[i];
        if (s->kind == ST_ASSIGN && s->assign.var == e->var && pass_is_op(s->assign.value, OP_TENSOR_SLICE))
            return outside_base(body, s->assign.value->call.args[0]);
    }
    return NULL;
}

static Stmt *def_of(const StmtList *body, const Var *v) {
    for (int i = 0; i < body->len; i++)
        if (body->items[i]->kind == ST_ASSIGN && body->items[i]->assign.var == v) return body->items[i];
    return NULL;
}

/* e depends on the loop variable iv: directly, or through a region scalar computed from it. */
static bool loop_dependent(const StmtList *body, Expr *e, const Var *iv, int depth) {
    if (ir_expr_uses_var(e, iv)) return true;
    for (int i = 0; depth < 8 && i < body->len; i++) {
        Stmt *s = body->items[i];
        if (s->kind == ST_ASSIGN && s->assign.var->type->kind == TY_SCALAR && ir_expr_uses_var(e, s->assign.var) &&
            loop_dependent(body, s->assign.value, iv, depth + 1)) return true;
    }
    return false;
}

/* The tensor a matmul region accumulates into, and how (static text), or NULL. Every iteration must
 * write the same window (store offsets independent of the loop variable iv): a loop whose regions
 * write disjoint blocks is not a reduction. */
static Var *accumulated(const StmtList *body, const Var *iv, const char **how) {
    bool has_mm = false;
    for (int i = 0; i < body->len; i++) {
        Expr *v = pass_stmt_call(body->items[i]);
        has_mm |= pass_is_op(v, OP_TENSOR_MATMUL) || pass_is_op(v, OP_TENSOR_MATMUL_ACC);
    }
    if (!has_mm) return NULL;
    for (int i = 0; i < body->len; i++) {
        Expr *v = pass_stmt_call(body->items[i]);
        if (pass_is_op(v, OP_TENSOR_MATMUL_ACC) && !loop_dependent(body, v->call.args[0], iv, 0)) {
            Var *t = outside_base(body, v->call.args[0]);
            if (t) return *how = "pl.matmul_acc into it", t;
        }
        if (!pass_is_op(v, OP_TENSOR_ASSEMBLE) || v->call.args[0]->kind != EX_VAR) continue;
        if (loop_dependent(body, v->call.args[2], iv, 0)) continue;
        Var *t = v->call.args[0]->var;
        if (defined_in(body, t)) continue;
        const AttrVal *at = ir_attr_get(&v->call.kwargs, "atomic");
        if (at && at->kind == AV_ENUM && strstr(at->s, "Add")) return *how = "an atomic-add assemble", t;
        Stmt *d = v->call.args[1]->kind == EX_VAR ? def_of(body, v->call.args[1]->var) : NULL;
        if (d && pass_is_op(d->assign.value, OP_TENSOR_ADD))
            for (int k = 0; k < 2; k++)
                if (outside_base(body, d->assign.value->call.args[k]) == t) return *how = "a read-add-write (c = c + p)", t;
    }
    return NULL;
}

/* T lives across the iterations: an iter-arg of the loop, or not defined in its body. */
static bool loop_carried(const Stmt *loop, const Var *t) {
    for (int i = 0; i < loop->for_.iter_args.len; i++)
        if (loop->for_.iter_args.items[i] == t) return true;
    return !defined_in(&loop->for_.body, t);
}

static void lint_loop(PassCtx *ctx, Stmt *loop) {
    StmtList *body = &loop->for_.body;
    for (int i = 0; i < body->len; i++) {
        Stmt *s = body->items[i];
        if (s->kind != ST_SCOPE || s->scope.kind != SC_INCORE) continue;
        const char *how = NULL;
        Var *t = accumulated(&s->scope.body, loop->for_.loop_var, &how);
        if (!t || !loop_carried(loop, t)) continue;
        int64_t lo, hi, st, n = -1;
        if (ir_is_const_int(loop->for_.start, &lo) && ir_is_const_int(loop->for_.stop, &hi) &&
            ir_is_const_int(loop->for_.step, &st) && st > 0)
            n = hi > lo ? (hi - lo + st - 1) / st : 0;
        char trips[64];
        if (n >= 0) snprintf(trips, sizeof trips, "%lld tasks, %lld edge%s", (long long)n, (long long)(n > 0 ? n - 1 : 0), n == 2 ? "" : "s");
        else snprintf(trips, sizeof trips, "N tasks, N - 1 edges");
        int tl = pass_user_name_len(t->name), vl = pass_user_name_len(loop->for_.loop_var->name);
        pass_hint(ctx, loop->span, "PH-SC-003",
                  "each iteration of this loop runs region '%s', which accumulates into '%.*s' through %s; every such task reads "
                  "and writes all of '%.*s', so the runtime chains them one after another (%s, one core at a time). To run them "
                  "concurrently, zero '%.*s' in one region, then launch the iterations as the blocks of ONE SPMD task: "
                  "`for %.*s in pl.spmd(%s):` ... `%.*s = pl.assemble(%.*s, p, [0, 0], atomic=pl.AtomicType.Add)` "
                  "(examples/splitk_spmd.py)",
                  s->scope.name_hint ? s->scope.name_hint : "(unnamed)", tl, t->name, how, tl, t->name, trips, tl, t->name,
                  vl, loop->for_.loop_var->name, n >= 0 ? arena_printf(ctx->ir->arena, "%lld", (long long)n) : "N",
                  tl, t->name, tl, t->name);
        return;
    }
}

static void walk(PassCtx *ctx, StmtList *l) {
    for (int i = 0; i < l->len; i++) {
        Stmt *s = l->items[i];
        if (s->kind == ST_FOR) {
            lint_loop(ctx, s);
            walk(ctx, &s->for_.body);
        } else if (s->kind == ST_WHILE) walk(ctx, &s->while_.body);
        else if (s->kind == ST_IF) { walk(ctx, &s->if_.then_body); walk(ctx, &s->if_.else_body); }
        else if (s->kind == ST_SCOPE && (s->scope.kind == SC_RUNTIME || s->scope.kind == SC_HIERARCHY)) walk(ctx, &s->scope.body);
    }
}

void split_lint_function(PassCtx *ctx, Function *f) { walk(ctx, &f->body); }
