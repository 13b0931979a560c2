/* RotateMixedLoops — software-pipelines a loop of cube and vector work across the two units, the
 * rotation hand-written flash-attention kernels use (issue 10), so the cube computes the next
 * block's scores and the last block's product while the vector cores do this block's softmax.
 *
 * Requires: SSA; outlined InCore functions at tensor level (runs after AutoTileL1, before
 *   ConvertTensorToTileOps).
 * Produces: for each candidate loop `for j in pl.range(a, b, s, init_values=...)` (static bounds,
 *   >= 3 trips, a body of plain assignments holding a tensor.matmul and vector ops, directly in an
 *   InCore function or a plain loop of one):
 *     prefetch — the matmuls computable from the loop index and loop invariants alone (with the
 *       slices and scalar index arithmetic feeding them: the set P) run one iteration ahead: their
 *       results become carried values, computed for j = a before the loop and for j + s inside it;
 *     deferred add — a carried b whose next value is `bn = tensor.add(x, pv)` (either operand order),
 *       pv a matmul of this iteration used only there and bn only yielded, carries x and pv instead;
 *       the add runs where the next iteration first reads b (`b = add(x_prev, pv_prev)`, the same
 *       operands in the same order, so the value is bit-identical), and after the last iteration.
 *   The first iteration is peeled before the loop (no add: b is the init), the last after it (the
 *   add runs in place). The remaining loop is a pl.pipeline(stage=PassCtx.rotate_stage) loop: at
 *   stage 2 LowerPipelineLoops double-buffers it, at stage 1 CanonicalizeIOOrder still issues its
 *   loads first, at 0 it is a pl.range loop. The driver tries 2, then 1, then 0, then no rotation,
 *   and keeps the first that compiles (the loads hoisted by a pipeline, or the carried values, can
 *   overflow a buffer). PH-RM-001 names the loop, what was rotated and the schedule kept.
 * Does: nothing for pl.pipeline / pl.parallel / pl.unroll loops (the user's schedule), loops with
 *   nested control flow or tile-level ops, loops whose prefetched matmul is only yielded (the user
 *   rotated it already) or read by anything but tensor-level vector ops (a value carried in L0C is
 *   not supported: it must cross to the vector cores), deferred adds whose x is not a vector result
 *   or b itself, loops that write (assemble into) a tensor the prefetched slices read, or under
 *   --no-rotate (PassCtx.no_rotate). As the last fallback the driver compiles the program as written
 *   (PH-RM-002 quotes the error), so the pass never turns a program that compiles into one that does
 *   not. */
#include "pass/pass.h"

#include <string.h>

#define MAX_DEFERRED 16

typedef struct {
    PassCtx *ctx;
    Stmt *loop;
    int n;                              /* body statements before the yield */
    Stmt *yield;
    bool *in_p;                         /* body index -> in P (prefetched matmuls, slices, index scalars) */
    bool *p_tensor;                     /* body index -> a tensor statement of P (not run in the current iteration) */
    bool *rest_live;                    /* body index -> emitted for the current iteration */
    int ndef;                           /* deferred adds */
    int def_arg[MAX_DEFERRED];          /* iter_arg index */
    int def_stmt[MAX_DEFERRED];         /* body index of bn = add(...) */
    int def_x[MAX_DEFERRED];            /* operand index of x in the add (pv is 1 - that) */
    int nprefetched;                    /* P matmuls whose results the current iteration reads */
    Var **carried_p;                    /* those results (original vars) */
    VarMap *results;                    /* the loop's return vars -> the peeled last iteration's values */
} Rot;

static int body_index_of(const Rot *r, const Var *v) {
    for (int i = 0; i < r->n; i++)
        if (r->loop->for_.body.items[i]->assign.var == v) return i;
    return -1;
}

static bool is_iter_arg(const Rot *r, const Var *v) {
    for (int i = 0; i < r->loop->for_.iter_args.len; i++)
        if (r->loop->for_.iter_args.items[i] == v) return true;
    return false;
}

typedef struct { const Rot *r; bool ok; } PQuery;

/* An operand of a P candidate: the loop index, a loop invariant, or a P statement's result. */
static void p_operand(Expr *e, void *ud) {
    PQuery *q = ud;
    if (e->kind != EX_VAR || !q->ok) return;
    const Var *v = e->var;
    if (v == q->r->loop->for_.loop_var) return;
    if (is_iter_arg(q->r, v)) { q->ok = false; return; }
    int d = body_index_of(q->r, v);
    if (d >= 0 && !q->r->in_p[d]) q->ok = false;
}

static bool p_kind(Stmt *s) {
    Expr *v = s->assign.value;
    if (v->kind != EX_CALL) return s->assign.var->type->kind == TY_SCALAR;
    return v->call.op == OP_TENSOR_MATMUL || v->call.op == OP_TENSOR_SLICE;
}

typedef struct { const Var *v; int count; } UseCount;
static void count_use(Expr *e, void *ud) {
    UseCount *u = ud;
    if (e->kind == EX_VAR && e->var == u->v) u->count++;
}
static int uses_in(StmtList *l, const Var *v) {
    UseCount u = { v, 0 };
    ir_visit_exprs(l, count_use, &u);
    return u.count;
}

/* The buffer a tensor variable names: through plain copies, views and in-place writes. */
static const Var *tensor_root(const VarMap *defs, const Var *v) {
    for (int guard = 0; guard < 1000; guard++) {
        Expr *d = ir_varmap_get(defs, v);
        if (!d) return v;
        if (d->kind == EX_VAR) { v = d->var; continue; }
        if (d->kind != EX_CALL || d->call.op == OP_NONE || !d->call.nargs) return v;
        int slot = pass_inplace_slot(d);
        if (slot < 0 && (ir_op_info(d->call.op)->flags & OPF_VIEW)) slot = 0;
        if (slot < 0 || d->call.args[slot]->kind != EX_VAR) return v;
        v = d->call.args[slot]->var;
    }
    return v;
}

static void collect_defs(StmtList *l, VarMap *defs) {
    for (int i = 0; i < l->len; i++) {
        Stmt *s = l->items[i];
        if (s->kind == ST_ASSIGN) ir_varmap_put(defs, s->assign.var, s->assign.value);
        if (s->kind == ST_FOR) collect_defs(&s->for_.body, defs);
        if (s->kind == ST_IF) collect_defs(&s->if_.then_body, defs), collect_defs(&s->if_.else_body, defs);
    }
}

/* A prefetched slice must not read a tensor the loop writes: its value one iteration early would
 * differ. */
static bool p_reads_unwritten(const Rot *r, const VarMap *defs) {
    StmtList *b = &r->loop->for_.body;
    for (int i = 0; i < r->n; i++) {
        if (!r->p_tensor[i] || !pass_is_op(b->items[i]->assign.value, OP_TENSOR_SLICE)) continue;
        Expr *src = b->items[i]->assign.value->call.args[0];
        if (src->kind != EX_VAR) return false;
        const Var *root = tensor_root(defs, src->var);
        for (int w = 0; w < r->n; w++) {
            Expr *v = b->items[w]->assign.value;
            int slot = pass_inplace_slot(v);
            if (slot >= 0 && v->call.args[slot]->kind == EX_VAR && tensor_root(defs, v->call.args[slot]->var) == root) return false;
        }
    }
    return true;
}

static void drop_prefetch(Rot *r) {
    memset(r->in_p, 0, sizeof(bool) * (size_t)r->n);
    memset(r->p_tensor, 0, sizeof(bool) * (size_t)r->n);
}

/* P: the matmuls of index-only operands and what feeds them; slices of P feed only P. */
static void find_prefetch(Rot *r, const VarMap *defs) {
    StmtList *b = &r->loop->for_.body;
    for (int i = 0; i < r->n; i++) {
        Stmt *s = b->items[i];
        if (!p_kind(s)) continue;
        PQuery q = { r, true };
        ir_visit_expr(s->assign.value, p_operand, &q);
        r->in_p[i] = q.ok;
    }
    /* keep only what a P matmul needs: walk back from the matmuls */
    bool *need = calloc((size_t)r->n + 1, sizeof *need);
    PTOC_ASSERT(need, "out of memory");
    for (int i = r->n - 1; i >= 0; i--) {
        Stmt *s = b->items[i];
        bool mm = r->in_p[i] && pass_is_op(s->assign.value, OP_TENSOR_MATMUL);
        bool read_here = false;                  /* only yielded: the user carries it already */
        for (int j = i + 1; mm && j < r->n && !read_here; j++)
            read_here = !r->in_p[j] && ir_expr_uses_var(b->items[j]->assign.value, s->assign.var);
        mm = mm && read_here;
        if (!mm && !need[i]) continue;
        need[i] = true;
        for (int j = 0; j < i; j++)
            if (r->in_p[j] && ir_expr_uses_var(s->assign.value, b->items[j]->assign.var)) need[j] = true;
    }
    for (int i = 0; i < r->n; i++) {
        r->in_p[i] = need[i];
        r->p_tensor[i] = need[i] && b->items[i]->assign.var->type->kind != TY_SCALAR;
    }
    free(need);
    /* a slice of P read by the current iteration's work would have to be carried too: drop its matmul */
    for (int i = 0; i < r->n; i++) {
        if (!r->p_tensor[i] || !pass_is_op(b->items[i]->assign.value, OP_TENSOR_SLICE)) continue;
        const Var *v = b->items[i]->assign.var;
        bool outside = false;
        for (int k = 0; k < r->yield->yield.n && !outside; k++) outside = ir_expr_uses_var(r->yield->yield.values[k], v);
        for (int j = 0; j < r->n && !outside; j++)
            if (!r->p_tensor[j] && ir_expr_uses_var(b->items[j]->assign.value, v)) outside = true;
        if (outside) { drop_prefetch(r); return; }
    }
    if (!p_reads_unwritten(r, defs)) drop_prefetch(r);
}

static bool is_tensor_vec(const Expr *v) {
    return v->kind == EX_CALL && v->call.op != OP_NONE && (ir_op_info(v->call.op)->flags & (OPF_TENSOR | OPF_VEC)) == (OPF_TENSOR | OPF_VEC);
}

/* Deferred adds: yield k is bn = add(x, pv), pv a (non-P) matmul used only there, bn used only by the yield. */
static void find_deferred(Rot *r) {
    StmtList *b = &r->loop->for_.body;
    for (int k = 0; k < r->yield->yield.n && r->ndef < MAX_DEFERRED; k++) {
        Expr *y = r->yield->yield.values[k];
        if (y->kind != EX_VAR) continue;
        int d = body_index_of(r, y->var);
        if (d < 0 || !pass_is_op(b->items[d]->assign.value, OP_TENSOR_ADD)) continue;
        Expr *add = b->items[d]->assign.value;
        if (uses_in(b, y->var) != 1) continue;                              /* only the yield */
        for (int xi = 0; xi < 2; xi++) {
            Expr *pv = add->call.args[1 - xi], *x = add->call.args[xi];
            if (pv->kind != EX_VAR || x->kind != EX_VAR || pv->var == x->var) continue;
            int pd = body_index_of(r, pv->var);
            if (pd < 0 || r->p_tensor[pd] || !pass_is_op(b->items[pd]->assign.value, OP_TENSOR_MATMUL)) continue;
            if (uses_in(b, pv->var) != 1) continue;
            int xd = body_index_of(r, x->var);          /* x is carried on the vector side: a vector result or b */
            if (xd >= 0 ? !is_tensor_vec(b->items[xd]->assign.value) : !is_iter_arg(r, x->var)) continue;
            if (!ir_type_same_shape(x->type, y->type) || x->type->dtype != y->type->dtype) continue;
            r->def_arg[r->ndef] = k, r->def_stmt[r->ndef] = d, r->def_x[r->ndef] = xi;
            r->ndef++;
            break;
        }
    }
}

/* Tensor-level vector work, and no tile-level op (a body that manages its own tiles is the user's
 * schedule). */
static bool plain_mixed_body(const Rot *r) {
    bool vec = false;
    for (int i = 0; i < r->n; i++) {
        Expr *v = r->loop->for_.body.items[i]->assign.value;
        if (v->kind == EX_CALL && v->call.op != OP_NONE && (ir_op_info(v->call.op)->flags & OPF_TILE)) return false;
        vec = vec || is_tensor_vec(v);
    }
    return vec;
}

/* Every statement of this iteration reading v is a vector op: a carried matmul result then crosses
 * to the vector cores, where it is carried (a value kept in L0C across iterations is not supported). */
static bool read_by_vector_only(const Rot *r, const Var *v) {
    bool any = false;
    for (int j = 0; j < r->n; j++) {
        if (r->p_tensor[j]) continue;
        Expr *e = r->loop->for_.body.items[j]->assign.value;
        if (!ir_expr_uses_var(e, v)) continue;
        if (!is_tensor_vec(e)) return false;
        any = true;
    }
    return any;
}

/* The statements the current iteration runs: every non-P-tensor statement whose value is needed (P's
 * index scalars run for the next iteration; they run for this one only when this one reads them). */
static void find_rest(Rot *r) {
    StmtList *b = &r->loop->for_.body;
    for (int i = r->n - 1; i >= 0; i--) {
        if (r->p_tensor[i]) continue;
        Stmt *s = b->items[i];
        if (!r->in_p[i]) { r->rest_live[i] = true; continue; }
        bool used = false;
        for (int k = 0; k < r->yield->yield.n && !used; k++) used = ir_expr_uses_var(r->yield->yield.values[k], s->assign.var);
        for (int j = i + 1; j < r->n && !used; j++)
            if (r->rest_live[j] && ir_expr_uses_var(b->items[j]->assign.value, s->assign.var)) used = true;
        r->rest_live[i] = used;
    }
}

static Stmt *clone_renamed(PassCtx *ctx, Stmt *s, VarMap *m, const char *suffix) {
    int first = m->len;
    Stmt *c = ir_clone_stmt(ctx->ir, s, m);
    for (int i = first; suffix && i < m->len; i++)
        if (m->to[i]->kind == EX_VAR) m->to[i]->var->name = pass_name(ctx, m->from[i]->name, suffix);
    return c;
}

/* b = add(x_prev, pv_prev), in the add's operand order. */
static Stmt *deferred_add(Rot *r, int d, Expr *x, Expr *pv, VarMap *cur) {
    IrCtx *c = r->ctx->ir;
    Stmt *orig = r->loop->for_.body.items[r->def_stmt[d]];
    Var *b = r->loop->for_.iter_args.items[r->def_arg[d]];
    Expr *args[2];
    args[r->def_x[d]] = x;
    args[1 - r->def_x[d]] = pv;
    Expr *call = ir_call(c, OP_TENSOR_ADD, args, 2);
    call->span = orig->assign.value->span;
    PTOC_ASSERT(ir_deduce_call(c, call), "RotateMixedLoops: the deferred add of '%s' does not type", b->name);
    Var *v = ir_var_new(c, pass_name(r->ctx, b->name, "rot"), call->type);
    ir_varmap_put(cur, b, ir_ref(v));
    Stmt *s = ir_assign(c, v, call);
    s->span = orig->span;
    return s;
}

typedef struct {
    VarMap *cur, *next;                 /* next == NULL: no prefetch (the last iteration) */
    bool run_adds;                      /* the last iteration: the deferred adds run in place */
    Expr **dx, **dpv;                   /* per deferred add: the previous x, pv (NULL: b is mapped already) */
    const char *suffix;                 /* renaming of this iteration's definitions (NULL: keep) */
} Iter;

static int deferred_of_arg(const Rot *r, int k) {
    for (int d = 0; d < r->ndef; d++)
        if (r->def_arg[d] == k) return d;
    return -1;
}

static bool is_deferred_stmt(const Rot *r, int i) {
    for (int d = 0; d < r->ndef; d++)
        if (r->def_stmt[d] == i) return true;
    return false;
}

/* One iteration's statements in body order: P for the next index at P's places, the rest for this one. */
static void emit_iteration(Rot *r, Iter *it, StmtList *out) {
    IrCtx *c = r->ctx->ir;
    StmtList *b = &r->loop->for_.body;
    bool *added = calloc((size_t)r->ndef + 1, sizeof *added);
    PTOC_ASSERT(added, "out of memory");
    for (int i = 0; i < r->n; i++) {
        Stmt *s = b->items[i];
        if (r->in_p[i] && it->next) ir_list_push(c, out, clone_renamed(r->ctx, s, it->next, "nx"));
        if (!r->rest_live[i] || (is_deferred_stmt(r, i) && !it->run_adds)) continue;
        for (int d = 0; d < r->ndef; d++) {
            if (added[d] || !it->dx[d] || !ir_expr_uses_var(s->assign.value, r->loop->for_.iter_args.items[r->def_arg[d]])) continue;
            ir_list_push(c, out, deferred_add(r, d, it->dx[d], it->dpv[d], it->cur));
            added[d] = true;
        }
        ir_list_push(c, out, clone_renamed(r->ctx, s, it->cur, it->suffix));
    }
    /* b read only by what is carried on (x = b itself: a plain sum; or b yielded as it is) */
    for (int d = 0; d < r->ndef; d++) {
        if (added[d] || !it->dx[d]) continue;
        Var *bv = r->loop->for_.iter_args.items[r->def_arg[d]];
        bool used = false;
        for (int k = 0; k < r->yield->yield.n && !used; k++) {
            int dk = deferred_of_arg(r, k);
            Expr *e = dk >= 0 && !it->run_adds ? b->items[r->def_stmt[dk]]->assign.value->call.args[r->def_x[dk]] : r->yield->yield.values[k];
            used = ir_expr_uses_var(e, bv);
        }
        if (used) ir_list_push(c, out, deferred_add(r, d, it->dx[d], it->dpv[d], it->cur));
    }
    free(added);
}

static Expr *mapped(IrCtx *c, Expr *e, VarMap *m) { return ir_clone_expr(c, e, m); }

static Expr *idx(IrCtx *c, int64_t v) { return ir_const_int(c, v, DT_INDEX); }

/* Rewrites l->items[*at]; *at ends on the last statement emitted. */
/* The values an iteration carries on under maps cur / next: the iter args' next values (a deferred
 * one as its x), then the deferred adds' p @ v, then P's results for the next index. */
static void carried_values(Rot *r, VarMap *cur, VarMap *next, Expr **out) {
    IrCtx *c = r->ctx->ir;
    int na = r->loop->for_.iter_args.len;
    StmtList *b = &r->loop->for_.body;
    for (int k = 0; k < na; k++) {
        int d = deferred_of_arg(r, k);
        Expr *add = d >= 0 ? b->items[r->def_stmt[d]]->assign.value : NULL;
        out[k] = mapped(c, d >= 0 ? add->call.args[r->def_x[d]] : r->yield->yield.values[k], cur);
        if (d >= 0) out[na + d] = mapped(c, add->call.args[1 - r->def_x[d]], cur);
    }
    for (int i = 0; i < r->nprefetched; i++) out[na + r->ndef + i] = ir_varmap_get(next, r->carried_p[i]);
}

/* The names of the carried values, in carried_values' order. */
static const char **carried_names(Rot *r) {
    int na = r->loop->for_.iter_args.len;
    const char **names = ARENA_ARRAY(r->ctx->ir->arena, const char *, na + r->ndef + r->nprefetched + 1);
    for (int k = 0; k < na; k++) names[k] = r->loop->for_.iter_args.items[k]->name;
    for (int d = 0; d < r->ndef; d++)
        names[na + d] = r->loop->for_.body.items[r->def_stmt[d]]->assign.value->call.args[1 - r->def_x[d]]->var->name;
    for (int i = 0; i < r->nprefetched; i++) names[na + r->ndef + i] = r->carried_p[i]->name;
    return names;
}

/* The peeled first iteration (P for the first index before it, for the second at P's places, no
 * deferred add: b is the init) into out; init gets what it carries into the loop. */
static void emit_first(Rot *r, int64_t start, int64_t step, StmtList *out, Expr **dx, Expr **dpv, Expr **init) {
    IrCtx *c = r->ctx->ir;
    Stmt *loop = r->loop;
    VarMap p0 = {0}, cur = {0}, next = {0};
    ir_varmap_put(&p0, loop->for_.loop_var, idx(c, start));
    for (int i = 0; i < r->n; i++)
        if (r->in_p[i]) ir_list_push(c, out, clone_renamed(r->ctx, loop->for_.body.items[i], &p0, "pro"));
    ir_varmap_put(&cur, loop->for_.loop_var, idx(c, start));
    ir_varmap_put(&next, loop->for_.loop_var, idx(c, start + step));
    for (int k = 0; k < loop->for_.iter_args.len; k++) ir_varmap_put(&cur, loop->for_.iter_args.items[k], loop->for_.iter_args.items[k]->init);
    for (int i = 0; i < r->nprefetched; i++) ir_varmap_put(&cur, r->carried_p[i], ir_varmap_get(&p0, r->carried_p[i]));
    for (int d = 0; d < r->ndef; d++) dx[d] = dpv[d] = NULL;
    Iter first = { &cur, &next, false, dx, dpv, "pro" };
    emit_iteration(r, &first, out);
    carried_values(r, &cur, &next, init);
    ir_varmap_free(&p0);
    ir_varmap_free(&cur);
    ir_varmap_free(&next);
}

/* Maps the original loop's iter args, deferred parts and P results to the carried values v. */
static void map_carried(Rot *r, VarMap *m, Expr **v, Expr **dx, Expr **dpv) {
    int na = r->loop->for_.iter_args.len;
    for (int k = 0; k < na; k++) ir_varmap_put(m, r->loop->for_.iter_args.items[k], v[k]);
    for (int d = 0; d < r->ndef; d++) dx[d] = v[r->def_arg[d]], dpv[d] = v[na + d];
    for (int i = 0; i < r->nprefetched; i++) ir_varmap_put(m, r->carried_p[i], v[na + r->ndef + i]);
}

/* The loop over iterations 2 .. trips - 1 (a pl.pipeline of PassCtx.rotate_stage, or a pl.range);
 * rets gets its results. */
static Stmt *build_loop(Rot *r, int64_t from, int64_t to, int64_t step, Expr **init, Expr **dx, Expr **dpv, Expr **rets) {
    IrCtx *c = r->ctx->ir;
    Stmt *loop = r->loop;
    int ncar = loop->for_.iter_args.len + r->ndef + r->nprefetched, stage = r->ctx->rotate_stage;
    const char **names = carried_names(r);
    Var *iv = ir_var_new(c, loop->for_.loop_var->name, loop->for_.loop_var->type);
    Stmt *nl = ir_for(c, iv, idx(c, from), idx(c, to), idx(c, step), stage ? FK_PIPELINE : FK_SEQUENTIAL);
    nl->span = loop->span;
    nl->for_.attrs = loop->for_.attrs;
    if (stage) ir_attr_set(c, &nl->for_.attrs, "pipeline_stages", ir_av_int(stage));
    ir_attr_set(c, &nl->for_.attrs, "rotated_mixed", ir_av_bool(true));
    Expr **args = ARENA_ARRAY(c->arena, Expr *, ncar);
    for (int k = 0; k < ncar; k++) {
        Var *a = ir_iter_arg_new(c, pass_name(r->ctx, names[k], "rot"), init[k]->type, init[k]);
        ir_varlist_push(c, &nl->for_.iter_args, a);
        args[k] = ir_ref(a);
    }
    VarMap mc = {0}, mn = {0};
    ir_varmap_put(&mc, loop->for_.loop_var, ir_ref(iv));
    ir_varmap_put(&mn, loop->for_.loop_var, ir_binary(c, BIN_ADD, ir_ref(iv), idx(c, step)));
    map_carried(r, &mc, args, dx, dpv);
    Iter mid = { &mc, &mn, false, dx, dpv, NULL };
    emit_iteration(r, &mid, &nl->for_.body);
    Expr **yv = ARENA_ARRAY(c->arena, Expr *, ncar);
    carried_values(r, &mc, &mn, yv);
    ir_list_push(c, &nl->for_.body, ir_yield(c, yv, ncar));
    for (int k = 0; k < ncar; k++) {
        Var *rv = ir_var_new(c, pass_name(r->ctx, names[k], "last"), args[k]->type);
        ir_varlist_push(c, &nl->for_.return_vars, rv);
        rets[k] = ir_ref(rv);
    }
    ir_varmap_free(&mc);
    ir_varmap_free(&mn);
    return nl;
}

/* Rewrites l->items[*at]; *at ends on the last statement emitted. */
static void rotate(Rot *r, StmtList *l, int *at, int64_t start, int64_t step, int64_t trips) {
    IrCtx *c = r->ctx->ir;
    Stmt *loop = r->loop;
    int ncar = loop->for_.iter_args.len + r->ndef + r->nprefetched;
    StmtList out = {0};
    Expr **dx = ARENA_ARRAY(c->arena, Expr *, r->ndef + 1), **dpv = ARENA_ARRAY(c->arena, Expr *, r->ndef + 1);
    Expr **init = ARENA_ARRAY(c->arena, Expr *, ncar + 1), **rets = ARENA_ARRAY(c->arena, Expr *, ncar + 1);
    int64_t last = start + (trips - 1) * step;
    emit_first(r, start, step, &out, dx, dpv, init);
    ir_list_push(c, &out, build_loop(r, start + step, last, step, init, dx, dpv, rets));
    /* the peeled last iteration: no prefetch, the adds in place */
    VarMap ml = {0};
    ir_varmap_put(&ml, loop->for_.loop_var, idx(c, last));
    map_carried(r, &ml, rets, dx, dpv);
    Iter fin = { &ml, NULL, true, dx, dpv, "epi" };
    emit_iteration(r, &fin, &out);
    /* the loop's results are the last iteration's values: substituted, not copied (a copy of a vector
     * value would be an instruction on both sides of the mixed kernel) */
    for (int k = 0; k < loop->for_.iter_args.len; k++)
        ir_varmap_put(r->results, loop->for_.return_vars.items[k], mapped(c, r->yield->yield.values[k], &ml));
    ir_varmap_free(&ml);
    memmove(l->items + *at, l->items + *at + 1, sizeof(Stmt *) * (size_t)(l->len - *at - 1));
    l->len--;
    for (int i = 0; i < out.len; i++) {
        if (!out.items[i]->span.line) out.items[i]->span = loop->span;
        ir_list_insert(c, l, *at + i, out.items[i]);
    }
    *at += out.len - 1;
}

static bool candidate_shape(Stmt *loop, int64_t *start, int64_t *step, int64_t *trips) {
    int64_t stop;
    if (loop->for_.kind != FK_SEQUENTIAL || ir_attr_get(&loop->for_.attrs, "pipeline_stages")) return false;
    if (!ir_is_const_int(loop->for_.start, start) || !ir_is_const_int(loop->for_.stop, &stop) ||
        !ir_is_const_int(loop->for_.step, step) || *step <= 0 || stop <= *start)
        return false;
    *trips = (stop - *start + *step - 1) / *step;
    StmtList *b = &loop->for_.body;
    if (*trips < 3 || b->len < 2 || b->items[b->len - 1]->kind != ST_YIELD) return false;
    for (int i = 0; i < b->len - 1; i++)
        if (b->items[i]->kind != ST_ASSIGN) return false;
    return true;
}

static bool try_loop(PassCtx *ctx, const VarMap *defs, VarMap *results, StmtList *l, int *at) {
    Stmt *loop = l->items[*at];
    int64_t start, step, trips;
    if (!candidate_shape(loop, &start, &step, &trips)) return false;
    Rot r;
    memset(&r, 0, sizeof r);
    r.ctx = ctx;
    r.loop = loop;
    r.n = loop->for_.body.len - 1;
    r.yield = loop->for_.body.items[r.n];
    r.results = results;
    if (r.yield->yield.n != loop->for_.iter_args.len || !plain_mixed_body(&r)) return false;
    bool *flags = calloc((size_t)(3 * r.n + 3), sizeof *flags);
    PTOC_ASSERT(flags, "out of memory");
    r.in_p = flags, r.p_tensor = flags + r.n + 1, r.rest_live = flags + 2 * r.n + 2;
    find_prefetch(&r, defs);
    find_deferred(&r);
    StmtList *b = &loop->for_.body;
    r.carried_p = ARENA_ARRAY(ctx->ir->arena, Var *, r.n + 1);
    for (int i = 0; i < r.n; i++) {
        if (!r.p_tensor[i] || !pass_is_op(b->items[i]->assign.value, OP_TENSOR_MATMUL)) continue;
        Var *v = b->items[i]->assign.var;
        bool yielded = false;
        for (int k = 0; k < r.yield->yield.n && !yielded; k++) yielded = ir_expr_uses_var(r.yield->yield.values[k], v);
        if (yielded || !read_by_vector_only(&r, v)) { r.nprefetched = 0; r.ndef = 0; break; }   /* keep the loop as it is */
        r.carried_p[r.nprefetched++] = v;
    }
    bool any = r.nprefetched > 0 || r.ndef > 0;
    if (any) {
        find_rest(&r);
        StrBuf what = {0};
        for (int i = 0; i < r.nprefetched; i++) sb_printf(&what, "%s'%.*s'", i ? ", " : "", pass_user_name_len(r.carried_p[i]->name), r.carried_p[i]->name);
        if (r.nprefetched) sb_printf(&what, " computed one iteration ahead");
        for (int d = 0; d < r.ndef; d++) {
            const Var *bv = loop->for_.iter_args.items[r.def_arg[d]];
            sb_printf(&what, "%s'%.*s' += matmul deferred to the next iteration", d || r.nprefetched ? "; " : "", pass_user_name_len(bv->name), bv->name);
        }
        char sched[48];
        if (ctx->rotate_stage) snprintf(sched, sizeof sched, "pl.pipeline(stage=%d)", ctx->rotate_stage);
        else snprintf(sched, sizeof sched, "pl.range");
        pass_hint(ctx, loop->span, "PH-RM-001",
                  "loop over '%s' (%lld iterations) software-pipelined across cube and vector: %s; first and last "
                  "iterations peeled, the rest a %s loop (--no-rotate turns this off)",
                  loop->for_.loop_var->name, (long long)trips, sb_cstr(&what), sched);
        sb_free(&what);
        if (!ctx->rotated++) ctx->rotated_span = loop->span, ctx->rotated_loop = loop->for_.loop_var->name;
        rotate(&r, l, at, start, step, trips);
    }
    free(flags);
    return any;
}

static void walk(PassCtx *ctx, const VarMap *defs, VarMap *results, StmtList *l) {
    for (int i = 0; i < l->len; i++) {
        Stmt *s = l->items[i];
        if (s->kind != ST_FOR) continue;
        if (!try_loop(ctx, defs, results, l, &i) && s->for_.kind == FK_SEQUENTIAL && !ir_attr_get(&s->for_.attrs, "pipeline_stages"))
            walk(ctx, defs, results, &s->for_.body);
    }
}

static bool has_matmul(StmtList *l) {
    for (int i = 0; i < l->len; i++) {
        Stmt *s = l->items[i];
        if (s->kind == ST_FOR && has_matmul(&s->for_.body)) return true;
        if (s->kind == ST_IF && (has_matmul(&s->if_.then_body) || has_matmul(&s->if_.else_body))) return true;
        if (s->kind == ST_ASSIGN && pass_is_op(s->assign.value, OP_TENSOR_MATMUL)) return true;
    }
    return false;
}

bool pass_rotate_mixed_loops(Program *p, PassCtx *ctx) {
    if (ctx->no_rotate) return true;
    for (int i = 0; i < p->nfuncs; i++) {
        Function *f = p->funcs[i];
        if (f->type != FT_INCORE || !has_matmul(&f->body)) continue;
        VarMap defs = {0}, results = {0};
        collect_defs(&f->body, &defs);
        walk(ctx, &defs, &results, &f->body);
        if (results.len) ir_subst_stmts(ctx->ir, &f->body, &results);
        ir_varmap_free(&defs);
        ir_varmap_free(&results);
    }
    return true;
}
