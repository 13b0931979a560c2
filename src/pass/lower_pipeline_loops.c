/* LowerPipelineLoops
 * Requires: SSAForm, TileMemoryInferred.
 * Produces: every pl.pipeline(stage=F > 1) loop with static bounds replicated: a main loop of step
 *           F*step whose body holds F clones (loop var -> i + j*step, fresh definitions, carried values
 *           chained clone to clone), the T % F remaining iterations peeled after it, the loop kept as
 *           Pipeline with pipeline_stages = 1. Every tile-producing call of clone j is tagged with
 *           attrs["pipeline_membership"] += "<group>:<j>" (pairs joined by ';'). Cube accumulators
 *           (matmul results in Acc) stay untagged — one L0C buffer suffices because the cube
 *           serialises — unless the loop asks for L0C double buffering (pipeline_double_buffer_c);
 *           so do the pipeline_l0_step extracts of an unrolled K loop (two L0 buffers by lifetime).
 * Does: stage = 1 loops are left intact (nested pipelines are still lowered); idempotent. */
#include "pass/pass.h"

#include <string.h>

typedef struct { PassCtx *ctx; int group; } Lower;

static bool is_cube_acc(const Expr *c) {
    return c->call.op != OP_NONE && (ir_op_info(c->call.op)->flags & OPF_CUBE) && c->type && c->type->space == MS_ACC;
}

static void tag_list(Lower *lw, StmtList *l, int group, int stage, bool tag_acc) {
    IrCtx *c = lw->ctx->ir;
    for (int i = 0; i < l->len; i++) {
        Stmt *s = l->items[i];
        if (s->kind == ST_FOR) { tag_list(lw, &s->for_.body, group, stage, tag_acc); continue; }
        if (s->kind == ST_IF) { tag_list(lw, &s->if_.then_body, group, stage, tag_acc); tag_list(lw, &s->if_.else_body, group, stage, tag_acc); continue; }
        Expr *call = s->kind == ST_ASSIGN ? pass_stmt_call(s) : NULL;
        if (!call || !call->type || call->type->kind != TY_TILE) continue;
        if (call->call.op != OP_NONE && (ir_op_info(call->call.op)->flags & OPF_VIEW)) continue;   /* no new storage */
        if (is_cube_acc(call) && !tag_acc) continue;
        if (ir_attr_get(&call->call.attrs, "pipeline_l0_step")) continue;   /* ping-pong by lifetime (auto_tile_kloop.c) */
        const AttrVal *old = ir_attr_get(&call->call.attrs, "pipeline_membership");
        const char *pair = arena_printf(c->arena, "%d:%d", group, stage);
        const char *v = old ? arena_printf(c->arena, "%s;%s", old->s, pair) : pair;
        ir_attr_set(c, &call->call.attrs, "pipeline_membership", ir_av_str(v));
    }
}

/* Appends one clone of body (without its yield) to out with loop var = iv; cur[] carries values in
 * and out. */
static void emit_clone(Lower *lw, Stmt *loop, Expr *iv, Expr **cur, StmtList *out, int group, int stage) {
    IrCtx *c = lw->ctx->ir;
    VarMap m = {0};
    ir_varmap_put(&m, loop->for_.loop_var, iv);
    for (int k = 0; k < loop->for_.iter_args.len; k++) ir_varmap_put(&m, loop->for_.iter_args.items[k], cur[k]);
    StmtList *body = &loop->for_.body;
    int n = body->len;
    Stmt *y = n && body->items[n - 1]->kind == ST_YIELD ? body->items[n - 1] : NULL;
    StmtList clone = {0};
    int first_def = m.len;
    for (int i = 0; i < (y ? n - 1 : n); i++) ir_list_push(c, &clone, ir_clone_stmt(c, body->items[i], &m));
    for (int i = first_def; stage > 0 && i < m.len; i++)          /* clone j's definitions: <name>_<j> */
        if (m.to[i]->kind == EX_VAR) m.to[i]->var->name = arena_printf(c->arena, "%s_%d", m.from[i]->name, stage);
    const AttrVal *dbc = ir_attr_get(&loop->for_.attrs, "pipeline_double_buffer_c");
    tag_list(lw, &clone, group, stage, dbc && dbc->i);
    for (int i = 0; i < clone.len; i++) ir_list_push(c, out, clone.items[i]);
    for (int k = 0; y && k < y->yield.n; k++) cur[k] = ir_clone_expr(c, y->yield.values[k], &m);
    ir_varmap_free(&m);
}

/* A peeled clone runs one iteration with a constant loop value: an op whose window that value puts
 * out of bounds (an extract at k = 508 of a 512-wide tile) is the user's error, found here by
 * deducing a copy of each call (types stay as they are). */
typedef struct { Lower *lw; const Stmt *loop; int64_t value; bool ok; } PeelCheck;

static void check_peeled_call(Expr *e, void *ud) {
    PeelCheck *pc = ud;
    if (!pc->ok || e->kind != EX_CALL || e->call.op == OP_NONE) return;
    Expr copy = *e;
    if (ir_deduce_call(pc->lw->ctx->ir, &copy)) return;
    diag_add(pc->lw->ctx->diag, DIAG_NOTE, pc->loop->span, NULL, "in the iteration %s = %lld of this loop (pl.pipeline peels the last ones)",
             pc->loop->for_.loop_var->name, (long long)pc->value);
    pc->ok = false;
}

static Expr *iv_plus(IrCtx *c, Expr *iv, int64_t off) {
    return off ? ir_binary(c, BIN_ADD, iv, ir_const_int(c, off, DT_INDEX)) : iv;
}

/* Replaces l->items[*at] (a Pipeline loop with F > 1); *at ends on the last statement emitted. */
static bool lower_loop(Lower *lw, StmtList *l, int *at) {
    IrCtx *c = lw->ctx->ir;
    Stmt *loop = l->items[*at];
    int64_t F = ir_attr_get(&loop->for_.attrs, "pipeline_stages")->i, start, stop, step;
    if (!ir_is_const_int(loop->for_.start, &start) || !ir_is_const_int(loop->for_.stop, &stop) ||
        !ir_is_const_int(loop->for_.step, &step) || step <= 0) {
        diag_error(lw->ctx->diag, loop->span, "pl.pipeline(stage=%lld) needs static bounds and a positive static step in ptoc", (long long)F);
        return false;
    }
    int64_t trips = stop > start ? (stop - start + step - 1) / step : 0, main_trips = trips / F, rest = trips % F;
    int group = lw->group++;
    int nc = loop->for_.iter_args.len;
    Expr **cur = ARENA_ARRAY(c->arena, Expr *, nc ? nc : 1);
    StmtList repl = {0};
    if (main_trips > 0) {
        Var *iv = ir_var_new(c, loop->for_.loop_var->name, loop->for_.loop_var->type);
        Stmt *nl = ir_for(c, iv, loop->for_.start, ir_const_int(c, start + main_trips * F * step, DT_INDEX),
                          ir_const_int(c, F * step, DT_INDEX), FK_PIPELINE);
        nl->span = loop->span;
        nl->for_.attrs = loop->for_.attrs;
        ir_attr_set(c, &nl->for_.attrs, "pipeline_stages", ir_av_int(1));
        for (int k = 0; k < nc; k++) {
            Var *old = loop->for_.iter_args.items[k];
            Var *it = ir_iter_arg_new(c, old->name, old->type, old->init);
            ir_varlist_push(c, &nl->for_.iter_args, it);
            cur[k] = ir_ref(it);
        }
        for (int j = 0; j < F; j++) emit_clone(lw, loop, iv_plus(c, ir_ref(iv), j * step), cur, &nl->for_.body, group, j);
        if (nc) ir_list_push(c, &nl->for_.body, ir_yield(c, cur, nc));
        for (int k = 0; k < nc; k++) {
            Var *rv = rest ? ir_var_new(c, loop->for_.return_vars.items[k]->name, cur[k]->type) : loop->for_.return_vars.items[k];
            ir_varlist_push(c, &nl->for_.return_vars, rv);
            cur[k] = ir_ref(rv);
        }
        ir_list_push(c, &repl, nl);
    } else {
        for (int k = 0; k < nc; k++) cur[k] = loop->for_.iter_args.items[k]->init;
    }
    int64_t base = start + main_trips * F * step;
    for (int j = 0; j < rest; j++) {
        int first = repl.len;
        emit_clone(lw, loop, ir_const_int(c, base + j * step, DT_INDEX), cur, &repl, group, j);
        PeelCheck pc = { lw, loop, base + j * step, true };
        StmtList clone = { repl.items + first, repl.len - first, repl.len - first };
        ir_visit_exprs(&clone, check_peeled_call, &pc);
        if (!pc.ok) return false;
    }
    if (rest || main_trips == 0)
        for (int k = 0; k < nc; k++) ir_list_push(c, &repl, ir_assign(c, loop->for_.return_vars.items[k], cur[k]));
    memmove(l->items + *at, l->items + *at + 1, sizeof(Stmt *) * (size_t)(l->len - *at - 1));
    l->len--;
    for (int i = 0; i < repl.len; i++) {
        repl.items[i]->span = repl.items[i]->span.line ? repl.items[i]->span : loop->span;
        ir_list_insert(c, l, *at + i, repl.items[i]);
    }
    *at += repl.len - 1;
    return true;
}

static bool lower_list(Lower *lw, StmtList *l) {
    for (int i = 0; i < l->len; i++) {
        Stmt *s = l->items[i];
        if (s->kind == ST_FOR) {
            const AttrVal *st = ir_attr_get(&s->for_.attrs, "pipeline_stages");
            if (s->for_.kind == FK_PIPELINE && st && st->i > 1) {
                int first = i;
                if (!lower_loop(lw, l, &i)) return false;
                i = first - 1;          /* revisit the replacement: nested pipelines in the clones */
                continue;
            }
            if (!lower_list(lw, &s->for_.body)) return false;
        }
        if (s->kind == ST_IF && (!lower_list(lw, &s->if_.then_body) || !lower_list(lw, &s->if_.else_body))) return false;
    }
    return true;
}

bool pass_lower_pipeline_loops(Program *p, PassCtx *ctx) {
    for (int i = 0; i < p->nfuncs; i++) {
        if (!ir_functype_is_incore(p->funcs[i]->type)) continue;
        Lower lw = { ctx, 0 };
        if (!lower_list(&lw, &p->funcs[i]->body)) return false;
    }
    return true;
}
