/* AutoTileMatmulL0 — the existing-pipeline L0C double buffer (spec ir_and_passes.md §8.6 item 7,
 * reference/l0c_double_buffer_pr.md).
 * Requires: one InCore function after the per-call tiling of the driver; the user's pl.pipeline loops
 *           collected before that tiling (at_dbc_collect), so loops AutoTile itself built are never
 *           inspected; the PYPTO memory planner and no --no-pipeline-dbc (else at_dbc_collect gives NULL).
 * Produces: on every accepted loop the attrs pipeline_double_buffer_c = true and
 *           pipeline_overlap_stores = false. LowerPipelineLoops then tags the cloned accumulators with
 *           their stage and CanonicalizeIOOrder orders each depth-two chunk matmul, matmul, drain,
 *           drain and rotates the Acc memberships modulo 2, so MemoryReuse gives two co-live Acc
 *           buffers: the FIXPIPE drain of tile i overlaps the MAD of tile i + 1.
 * Does: a structural recogniser of the canonical form — a static pl.pipeline(stage=F >= 2) whose trip
 *       count F divides; a flat body with one plain tile.matmul of static Left and Right tiles, one of
 *       them produced in the body by a Mat -> L0 tile.extract / tile.move, the other defined outside
 *       the loop; one drain yielded back through its iter-arg (tile.store(acc, offs, it) to GM or
 *       tile.assemble(it, acc, offs) into Mat) and nothing else touching Acc or writing. Profitability
 *       gates: >= 4 trips (direct store); >= 8 trips and an aligned Acc of >= ceil(L0C / 4) (Mat
 *       scratch, whose cheaper drain gains less). Capacity: every static Acc value of the function
 *       (cube results once — the cube serialises them; twice in a loop already double-buffered —,
 *       other Acc producers times their enclosing stage depths) plus one aligned slot per accepted loop must fit L0C, else no loop is marked.
 *       Every decline of a loop holding a Left/Right matmul is perf hint PH-AT-020 naming the rule. */
#include "pass/auto_tile.h"

#define DBC_HINT "PH-AT-020"

/* One user loop: its statement and the product of the stage depths of the pipelines around it. */
typedef struct { Stmt *loop; int64_t outer; } DbcLoop;
struct AtDbcLoops { DbcLoop *items; int len; };

static int64_t stages_of(const Stmt *s) {
    const AttrVal *st = s->for_.kind == FK_PIPELINE ? ir_attr_get(&s->for_.attrs, "pipeline_stages") : NULL;
    return st && st->kind == AV_INT && st->i > 1 ? st->i : 1;
}

/* Counts the pipeline loops of l (c == NULL) or records them. */
static int collect(AtDbcLoops *c, StmtList *l, int64_t outer) {
    int n = 0;
    for (int i = 0; i < l->len; i++) {
        Stmt *s = l->items[i];
        if (s->kind == ST_FOR) {
            if (s->for_.kind == FK_PIPELINE && ++n && c) c->items[c->len++] = (DbcLoop){ s, outer };
            n += collect(c, &s->for_.body, outer * stages_of(s));
        } else if (s->kind == ST_IF) {
            n += collect(c, &s->if_.then_body, outer) + collect(c, &s->if_.else_body, outer);
        }
    }
    return n;
}

AtDbcLoops *at_dbc_collect(PassCtx *ctx, Function *f) {
    if (ctx->planner != PLANNER_PYPTO || ctx->no_pipeline_dbc) return NULL;
    AtDbcLoops *c = ARENA_NEW(ctx->ir->arena, AtDbcLoops);
    int n = collect(NULL, &f->body, 1);
    c->items = ARENA_ARRAY(ctx->ir->arena, DbcLoop, n ? n : 1);
    c->len = 0;
    collect(c, &f->body, 1);
    return c;
}

/* ---- the Acc inventory ---- */

static int64_t acc_bytes(PassCtx *ctx, const Type *t) {
    return ir_tile_physical_bytes(t, pass_l0c_align(ctx, t->dtype));
}

static bool is_acc_tile(const Type *t) {
    int64_t d[8];
    return t && t->kind == TY_TILE && t->space == MS_ACC && t->rank <= 8 && ir_type_static_dims(t, d);
}

/* Bytes of every static Acc value produced in l: a cube result once (twice in a loop already marked
 * pipeline_double_buffer_c, e.g. a chooser-built grid under --dbc), any other producer (a seed
 * tile.create, an extract into Acc) once per clone its enclosing pipelines will make. */
static int64_t inventory(PassCtx *ctx, StmtList *l, int64_t reps, int64_t cube_slots) {
    int64_t sum = 0;
    for (int i = 0; i < l->len; i++) {
        Stmt *s = l->items[i];
        if (s->kind == ST_FOR) {
            const AttrVal *d = ir_attr_get(&s->for_.attrs, "pipeline_double_buffer_c");
            sum += inventory(ctx, &s->for_.body, reps * stages_of(s), d && d->i ? 2 : cube_slots);
        } else if (s->kind == ST_IF) {
            sum += inventory(ctx, &s->if_.then_body, reps, cube_slots) + inventory(ctx, &s->if_.else_body, reps, cube_slots);
        }
        Expr *c = s->kind == ST_ASSIGN ? pass_stmt_call(s) : NULL;
        if (!c || c->call.op == OP_NONE || !is_acc_tile(s->assign.var->type)) continue;
        unsigned fl = ir_op_info(c->call.op)->flags;
        if (fl & OPF_VIEW) continue;                              /* no storage of its own */
        sum += acc_bytes(ctx, s->assign.var->type) * ((fl & OPF_CUBE) ? cube_slots : reps);
    }
    return sum;
}

/* ---- the structural recogniser ---- */

/* Whether the loop holds a matmul of Left / Right tiles anywhere (the loops worth a hint). */
static bool has_l0_matmul(StmtList *l) {
    for (int i = 0; i < l->len; i++) {
        Stmt *s = l->items[i];
        if (s->kind == ST_FOR && has_l0_matmul(&s->for_.body)) return true;
        if (s->kind == ST_IF && (has_l0_matmul(&s->if_.then_body) || has_l0_matmul(&s->if_.else_body))) return true;
        Expr *c = pass_stmt_call(s);
        if (!c || c->call.op == OP_NONE || !(ir_op_info(c->call.op)->flags & OPF_CUBE)) continue;
        for (int a = 0; a < c->call.nargs; a++)
            if (c->call.args[a]->type && c->call.args[a]->type->kind == TY_TILE &&
                (c->call.args[a]->type->space == MS_LEFT || c->call.args[a]->type->space == MS_RIGHT))
                return true;
    }
    return false;
}

typedef struct {
    int64_t trips, F;
    Stmt *mm, *drain;
    bool assemble;          /* Mat-scratch drain */
    int64_t slot;           /* aligned bytes of the accumulator */
} Shape;

static Stmt *def_in(StmtList *l, const Var *v) {
    for (int i = 0; i < l->len; i++)
        if (l->items[i]->kind == ST_ASSIGN && l->items[i]->assign.var == v) return l->items[i];
    return NULL;
}

static bool static_l0(const Expr *x, MemSpace sp) {
    int64_t d[2];
    return x->kind == EX_VAR && x->type && x->type->kind == TY_TILE && x->type->space == sp && x->type->rank == 2 &&
           ir_type_static_dims(x->type, d);
}

/* Bounds, trip count and the absence of an explicit policy; NULL or the rule that failed. */
static const char *check_loop(PassCtx *ctx, Stmt *s, Shape *sh) {
    int64_t a, b, d;
    sh->F = stages_of(s);
    if (sh->F < 2) return "the loop is not a pl.pipeline with stage >= 2";
    if (ir_attr_get(&s->for_.attrs, "pipeline_double_buffer_c") || ir_attr_get(&s->for_.attrs, "pipeline_overlap_stores"))
        return "the loop already carries an explicit pipeline_double_buffer_c / pipeline_overlap_stores policy";
    if (!ir_is_const_int(s->for_.start, &a) || !ir_is_const_int(s->for_.stop, &b) || !ir_is_const_int(s->for_.step, &d) || d <= 0)
        return "its bounds are not static (static start, stop and a positive static step are needed)";
    sh->trips = b > a ? (b - a + d - 1) / d : 0;
    if (sh->trips == 0 || sh->trips % sh->F)
        return arena_printf(ctx->ir->arena, "its trip count %lld is not a multiple of stage=%lld (a peeled tail would need "
                            "another Acc slot)", (long long)sh->trips, (long long)sh->F);
    return NULL;
}

/* The flat body: one plain L0 matmul, its moving and stationary operands. */
static const char *check_matmul(PassCtx *ctx, Stmt *s, Shape *sh) {
    StmtList *l = &s->for_.body;
    int nmm = 0;
    for (int i = 0; i < l->len; i++) {
        Stmt *x = l->items[i];
        if (x->kind != ST_ASSIGN && x->kind != ST_YIELD && x->kind != ST_EVAL)
            return "its body is not flat (a nested loop, if or scope)";
        Expr *c = pass_stmt_call(x);
        if (c && c->call.op != OP_NONE && (ir_op_info(c->call.op)->flags & OPF_CUBE)) nmm++, sh->mm = x;
    }
    if (nmm != 1) return arena_printf(ctx->ir->arena, "its body holds %d matmuls, not exactly one", nmm);
    if (sh->mm->kind != ST_ASSIGN || !pass_is_op(sh->mm->assign.value, OP_TILE_MATMUL))
        return "its matmul is not a plain tile.matmul (matmul_acc / matmul_bias accumulate into a carried Acc)";
    Expr *mm = sh->mm->assign.value, *lhs = mm->call.args[0], *rhs = mm->call.args[1];
    if (!static_l0(lhs, MS_LEFT) || !static_l0(rhs, MS_RIGHT))
        return "its matmul operands are not static 2-D Left and Right tiles";
    Stmt *dl = def_in(l, lhs->var), *dr = def_in(l, rhs->var);
    if ((dl != NULL) == (dr != NULL))
        return dl ? "both matmul operands are produced in the loop (one must be loop-invariant)"
                  : "no matmul operand is produced in the loop (one must move per iteration)";
    Stmt *dm = dl ? dl : dr;
    Var *stat = dl ? rhs->var : lhs->var;
    Expr *pc = pass_stmt_call(dm);
    if (!(pass_is_op(pc, OP_TILE_EXTRACT) || pass_is_op(pc, OP_TILE_MOVE)) || pc->call.args[0]->type->kind != TY_TILE ||
        pc->call.args[0]->type->space != MS_MAT)
        return arena_printf(ctx->ir->arena, "the moving operand '%s' is not a Mat -> L0 tile.extract / tile.move",
                            dm->assign.var->name);
    for (int k = 0; k < s->for_.iter_args.len; k++)
        if (s->for_.iter_args.items[k] == stat) return "the stationary operand is loop-carried";
    return NULL;
}

static bool writes(const Expr *c) {
    if (!c) return false;
    if (c->call.op == OP_NONE) return true;                      /* a kernel call may write anything */
    const OpInfo *oi = ir_op_info(c->call.op);
    return (oi->flags & OPF_STORE) || oi->reuses_input >= 0;
}

/* The one drain of the accumulator, yielded back through its own iter-arg. */
static const char *check_drain(PassCtx *ctx, Stmt *s, Shape *sh) {
    StmtList *l = &s->for_.body;
    Var *acc = sh->mm->assign.var;
    Stmt *y = l->len && l->items[l->len - 1]->kind == ST_YIELD ? l->items[l->len - 1] : NULL;
    sh->drain = NULL;
    for (int i = 0; i < l->len; i++) {
        Stmt *x = l->items[i];
        if (x == sh->mm || x == y) continue;
        StmtList one = { &l->items[i], 1, 1 };
        if (ir_stmts_use_var(&one, acc)) {
            if (sh->drain) return arena_printf(ctx->ir->arena, "the accumulator '%s' has more than one use", acc->name);
            sh->drain = x;
        } else if (x->kind == ST_ASSIGN && x->assign.var->type && x->assign.var->type->kind == TY_TILE &&
                   x->assign.var->type->space == MS_ACC) {
            return arena_printf(ctx->ir->arena, "'%s' is another Acc value in the loop", x->assign.var->name);
        }
    }
    if (!sh->drain) return arena_printf(ctx->ir->arena, "the accumulator '%s' is never drained", acc->name);
    if (y) {
        StmtList one = { &y, 1, 1 };
        if (ir_stmts_use_var(&one, acc)) return arena_printf(ctx->ir->arena, "the accumulator '%s' is yielded directly", acc->name);
    }
    Expr *d = sh->drain->kind == ST_ASSIGN ? sh->drain->assign.value : NULL;
    sh->assemble = pass_is_op(d, OP_TILE_ASSEMBLE);
    int ai = sh->assemble ? 1 : 0, ci = sh->assemble ? 0 : 2;
    if (!(pass_is_op(d, OP_TILE_STORE) || sh->assemble) || d->call.args[ai]->kind != EX_VAR || d->call.args[ai]->var != acc ||
        d->call.args[ci]->kind != EX_VAR)
        return arena_printf(ctx->ir->arena, "the accumulator '%s' is not drained by tile.store(acc, offsets, carried) or "
                            "tile.assemble(carried, acc, offsets)", acc->name);
    Var *carried = d->call.args[ci]->var;
    int k = 0;
    while (k < s->for_.iter_args.len && s->for_.iter_args.items[k] != carried) k++;
    if (k == s->for_.iter_args.len || !y || k >= y->yield.n || y->yield.values[k]->kind != EX_VAR ||
        y->yield.values[k]->var != sh->drain->assign.var)
        return "the drain's result is not yielded back through the iter-arg it updates";
    if (sh->assemble && (carried->type->kind != TY_TILE || carried->type->space != MS_MAT))
        return "the assembled accumulator does not go to a Mat tile";
    for (int i = 0; i < l->len; i++) {
        Stmt *x = l->items[i];
        if (x == sh->drain || x == sh->mm || x == y) continue;
        if (x->kind == ST_EVAL || writes(pass_stmt_call(x)))
            return arena_printf(ctx->ir->arena, "'%s' is another store or write in the loop",
                                x->kind == ST_ASSIGN ? x->assign.var->name : "an effect statement");
    }
    sh->slot = acc_bytes(ctx, acc->type);
    return NULL;
}

/* The path-specific profitability gates. */
static const char *check_gain(PassCtx *ctx, Shape *sh) {
    int64_t cap = ctx->target->capacity[MS_ACC], quarter = (cap + 3) / 4;
    if (!sh->assemble && sh->trips < 4)
        return arena_printf(ctx->ir->arena, "a direct store needs at least 4 trips to gain, the loop has %lld", (long long)sh->trips);
    if (sh->assemble && sh->trips < 8)
        return arena_printf(ctx->ir->arena, "a Mat-scratch drain (tile.assemble) needs at least 8 trips to gain, the loop has %lld",
                            (long long)sh->trips);
    if (sh->assemble && sh->slot < quarter)
        return arena_printf(ctx->ir->arena, "a Mat-scratch drain needs an aligned accumulator of at least %lld bytes (L0C / 4) "
                            "to gain, '%s' has %lld", (long long)quarter, sh->mm->assign.var->name, (long long)sh->slot);
    return NULL;
}

static void decline(PassCtx *ctx, Stmt *s, const char *why) {
    if (ir_attr_get(&s->for_.attrs, "rotated_mixed")) return;   /* the compiler's own loop (RotateMixedLoops), not the user's */
    pass_hint(ctx, s->span, DBC_HINT, "pl.pipeline loop over '%s': L0C double buffering not applied: %s",
              s->for_.loop_var->name, why);
}

void at_pipeline_dbc(PassCtx *ctx, Function *f, AtDbcLoops *c) {
    if (!c) return;
    Stmt **ok = ARENA_ARRAY(ctx->ir->arena, Stmt *, c->len ? c->len : 1);
    int n = 0;
    int64_t extra = 0;
    for (int i = 0; i < c->len; i++) {
        Stmt *s = c->items[i].loop;
        if (!has_l0_matmul(&s->for_.body)) continue;           /* vector pipelines: nothing to say */
        Shape sh = {0};
        const char *why = check_loop(ctx, s, &sh);
        if (!why) why = check_matmul(ctx, s, &sh);
        if (!why) why = check_drain(ctx, s, &sh);
        if (!why) why = check_gain(ctx, &sh);
        if (why) { decline(ctx, s, why); continue; }
        ok[n++] = s;
        extra += sh.slot * c->items[i].outer;
    }
    if (!n) return;
    int64_t inv = inventory(ctx, &f->body, 1, 1), cap = ctx->target->capacity[MS_ACC];
    if (inv + extra > cap) {
        const char *why = arena_printf(ctx->ir->arena, "the function's Acc values need %lld bytes and the second accumulator "
                                       "slot(s) %lld more, over the %lld bytes of L0C", (long long)inv, (long long)extra, (long long)cap);
        for (int i = 0; i < n; i++) decline(ctx, ok[i], why);
        return;
    }
    for (int i = 0; i < n; i++) {
        ir_attr_set(ctx->ir, &ok[i]->for_.attrs, "pipeline_double_buffer_c", ir_av_bool(true));
        ir_attr_set(ctx->ir, &ok[i]->for_.attrs, "pipeline_overlap_stores", ir_av_bool(false));
    }
}
