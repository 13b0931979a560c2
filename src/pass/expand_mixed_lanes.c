/* expand_mixed_lanes — the AIV lanes of a split mixed kernel (LowerAutoVectorSplit's job, done per
 * lane by ExpandMixedKernel; spec language.md §4.2).
 * Requires: an AIV side of a mixed kernel (expand_mixed_side.c) and its split (1 UP_DOWN: rows,
 *   2 LEFT_RIGHT: columns).
 * Produces: the function specialised to one lane: every Vec tile whose extent E along the split axis
 *   equals the crossing tiles' extent keeps the lane's part — lane 0 the first h = ceil(E / 2), lane 1
 *   the other E - h (ragged splits give the two lanes different static shapes) — and loads / stores
 *   of such tiles move their GM window by h on lane 1. Types are re-deduced.
 * Does: one walk in program order. A tile whose split-axis extent is neither E nor 1, a reduction
 *   across the split axis (col_* under UP_DOWN, row_* under LEFT_RIGHT), a transpose, element access
 *   or a window op on a split tile would compute something else per lane: each is a located error
 *   that tells the user to drop the split. */
#include "pass/expand_mixed.h"

#include <string.h>

typedef struct {
    PassCtx *ctx; Function *f; int axis, lane;
    int64_t extent, part, shift;   /* E, the lane's part, its offset (0 or h) */
    VEC(const Var *) halved;
    bool ok;
} Lane;

static bool is_halved(Lane *ln, const Expr *e) {
    if (!e || e->kind != EX_VAR) return false;
    for (int i = 0; i < ln->halved.len; i++)
        if (ln->halved.data[i] == e->var) return true;
    return false;
}

static void lane_error(Lane *ln, Span sp, const char *what) {
    if (!ln->ok) return;
    diag_error(ln->ctx->diag, sp, "pl.split(pl.SplitMode.%s) halves this region's vector tiles between the two AIV cores by %s, "
               "but %s; drop the split (optimizations=[...]) for this region",
               ln->axis ? "LEFT_RIGHT" : "UP_DOWN", ln->axis ? "columns" : "rows", what);
    ln->ok = false;
}

/* The crossing tiles' extent along the axis: every pop from the cube and push to it agrees. */
typedef struct { int axis; int64_t e; bool mixed; Span sp; } Extent;
static void extent_visit(Expr *e, void *ud) {
    Extent *x = ud;
    const Type *t = NULL;
    if (pass_is_op(e, OP_TILE_TPOP_FROM_AIC) && e->call.nargs) t = e->type;
    if (pass_is_op(e, OP_TILE_TPUSH_TO_AIC) && e->call.nargs) t = e->call.args[0]->type;
    if (!t || t->rank != 2) return;
    int64_t d = ir_type_dim(t, x->axis);
    if (x->e < 0) x->e = d, x->sp = e->span;
    else if (x->e != d) x->mixed = true, x->sp = e->span;
}

/* Replaces element `axis` of a static shape tuple by the lane's part when it is E. */
static bool shrink_tuple(Lane *ln, Expr *tuple) {
    if (!tuple || tuple->kind != EX_TUPLE || tuple->tuple.n != 2) return false;
    int64_t v;
    if (!ir_is_const_int(tuple->tuple.items[ln->axis], &v) || v != ln->extent) return false;
    Expr **items = ARENA_ARRAY(ln->ctx->ir->arena, Expr *, 2);
    items[0] = tuple->tuple.items[0];
    items[1] = tuple->tuple.items[1];
    items[ln->axis] = ir_const_int(ln->ctx->ir, ln->part, DT_INDEX);
    tuple->tuple.items = items;
    return true;
}

static void shift_offset(Lane *ln, Expr *offs) {
    if (!ln->shift || !offs || offs->kind != EX_TUPLE || offs->tuple.n != 2) return;
    Expr **items = ARENA_ARRAY(ln->ctx->ir->arena, Expr *, 2);
    items[0] = offs->tuple.items[0];
    items[1] = offs->tuple.items[1];
    items[ln->axis] = ir_fold(ln->ctx->ir, ir_binary(ln->ctx->ir, BIN_ADD, items[ln->axis], ir_const_int(ln->ctx->ir, ln->shift, DT_INDEX)));
    offs->tuple.items = items;
}

static bool name_has(const char *name, const char *part) { return strstr(name, part) != NULL; }

/* Ops that would compute something else on a half tile. */
static const char *unsplittable(Lane *ln, const Expr *call) {
    const char *n = ir_op_info(call->call.op)->name;
    if (name_has(n, "transpose")) return "a transpose moves the split onto the other axis";
    if (ln->axis == 0 && name_has(n, ".col_") && !name_has(n, "col_expand")) return "a column reduction needs every row";
    if (ln->axis == 1 && name_has(n, ".row_") && !name_has(n, "row_expand")) return "a row reduction needs every column";
    if (call->call.op == OP_TILE_READ || call->call.op == OP_TILE_WRITE) return "an element access names absolute indices";
    if (call->call.op == OP_TILE_EXTRACT || call->call.op == OP_TILE_ASSEMBLE || name_has(n, "slice") || name_has(n, "concat") ||
        name_has(n, "reshape"))
        return "a window or reshape of a split tile names absolute positions";
    return NULL;
}

static void lane_call(Lane *ln, Stmt *s, Expr *call) {
    if (!call || call->kind != EX_CALL || call->call.op == OP_NONE) return;
    if (call->call.op == OP_TILE_GET_SUBBLOCK_IDX) {
        lane_error(ln, call->span, "the compiler divides the work itself, so the region's code has no lane of its own "
                   "(pl.tile.get_subblock_idx() belongs in a `for lane in pl.split_aiv(2)` loop)");
        return;
    }
    bool touched = false, any_half = false;
    for (int i = 0; i < call->call.nargs; i++) any_half |= is_halved(ln, call->call.args[i]);
    switch (call->call.op) {
    case OP_TILE_LOAD:
        if (shrink_tuple(ln, call->call.args[2])) {
            shrink_tuple(ln, call->call.args[3]);
            shift_offset(ln, call->call.args[1]);
            touched = true;
        }
        break;
    case OP_TILE_STORE:
        if (any_half) shift_offset(ln, call->call.args[1]);
        break;
    case OP_TILE_CREATE: case OP_TILE_TPOP_FROM_AIC: touched = call->call.nargs && shrink_tuple(ln, call->call.args[0]); break;
    default:
        if (call->call.nargs && call->call.args[0]->kind == EX_TUPLE && name_has(ir_op_info(call->call.op)->name, "full"))
            touched = shrink_tuple(ln, call->call.args[0]);
        break;
    }
    const char *why = any_half ? unsplittable(ln, call) : NULL;
    if (why) { lane_error(ln, call->span, why); return; }
    if (!touched && !any_half) return;
    if (!ir_deduce_call(ln->ctx->ir, call)) { ln->ok = false; return; }
    if (s->kind == ST_ASSIGN) {
        pass_var_set_type(s->assign.var, call->type);
        if (call->type->kind == TY_TILE && call->type->rank == 2) {
            int64_t d = ir_type_dim(call->type, ln->axis);
            if (d == ln->part) vec_push(&ln->halved, s->assign.var);
            else if (d != 1 && touched) lane_error(ln, call->span, "this tile's extent does not match the crossing tiles'");
        }
    }
}

static void carry_types(Lane *ln, VarList *its, VarList *rets) {
    for (int k = 0; k < its->len; k++) {
        Var *it = its->items[k];
        if (!is_halved(ln, it->init)) continue;
        pass_var_set_type(it, it->init->type);
        vec_push(&ln->halved, it);
        if (k < rets->len) { pass_var_set_type(rets->items[k], it->init->type); vec_push(&ln->halved, rets->items[k]); }
    }
}

static void lane_list(Lane *ln, StmtList *l) {
    for (int i = 0; i < l->len && ln->ok; i++) {
        Stmt *s = l->items[i];
        switch (s->kind) {
        case ST_ASSIGN: lane_call(ln, s, s->assign.value); break;
        case ST_EVAL: lane_call(ln, s, s->eval.expr); break;
        case ST_FOR: carry_types(ln, &s->for_.iter_args, &s->for_.return_vars); lane_list(ln, &s->for_.body); break;
        case ST_WHILE: carry_types(ln, &s->while_.iter_args, &s->while_.return_vars); lane_list(ln, &s->while_.body); break;
        case ST_IF:
            lane_list(ln, &s->if_.then_body);
            lane_list(ln, &s->if_.else_body);
            for (int k = 0; k < s->if_.return_vars.len; k++) {
                Var *rv = s->if_.return_vars.items[k];
                const Stmt *y = s->if_.then_body.len ? s->if_.then_body.items[s->if_.then_body.len - 1] : NULL;
                if (y && y->kind == ST_YIELD && k < y->yield.n && is_halved(ln, y->yield.values[k])) {
                    pass_var_set_type(rv, y->yield.values[k]->type);
                    vec_push(&ln->halved, rv);
                }
            }
            break;
        case ST_SCOPE: lane_list(ln, &s->scope.body); break;
        default: break;
        }
    }
}

bool emk_split_lane(PassCtx *ctx, Function *f, const EmkOpts *o, int lane) {
    Lane ln = { ctx, f, o->split == 2 ? 1 : 0, lane, 0, 0, 0, {0}, true };
    Extent x = { ln.axis, -1, false, f->span };
    ir_visit_exprs(&f->body, extent_visit, &x);
    if (x.mixed) { lane_error(&ln, x.sp, "the tiles crossing between the cores differ in that extent"); return false; }
    if (x.e < 0) return true;                      /* only fences cross: nothing to divide */
    if (x.e < 2) { lane_error(&ln, x.sp, "the crossing tile has a single row / column"); return false; }
    int64_t h = (x.e + 1) / 2;
    ln.extent = x.e;
    ln.part = lane ? x.e - h : h;
    ln.shift = lane ? h : 0;
    lane_list(&ln, &f->body);
    vec_free(&ln.halved);
    return ln.ok;
}
