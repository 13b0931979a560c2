/* ExpandMixedKernel
 * Requires: TileMemoryInferred (every tile has its memory space; ConvertTensorToTileOps wrote a
 *           tile.move at every point where a value crosses between the cube spaces and Vec).
 * Produces: MixedKernelExpanded — no InCore function remains. A pure-cube function is retyped AIC, a
 *           pure-vector (or shared-only) one AIV. A mixed one becomes `<f>_aic` (AIC) + `<f>_aiv`
 *           (AIV; `<f>_aiv0` / `<f>_aiv1` per lane under pl.split UP_DOWN / LEFT_RIGHT) and `<f>`
 *           itself becomes the Group function calling them in that order (spec ir_and_passes.md §8.8).
 * Does: classifies statements by core affinity (expand_mixed.h); puts a synchronization-only fence
 *   before every load that reads GM the other side stored; clones the body once per side and keeps
 *   that side's statements (expand_mixed_side.c: boundary moves -> tpush / tpop + tfree); a value
 *   a loop carries to the other side is pushed right after it is made, not at the top of the next
 *   iteration, its init value before the loop, and the producer drops the carry (expand_mixed_carry.c:
 *   it holds no accumulator across the back edge, and the consumer can start on the next block's
 *   scores while the producer still waits; each ring keeps its order); pops sink to their first use;
 *   under a split, halves each lane's vector tiles (expand_mixed_lanes.c). */
#include "pass/expand_mixed.h"

#include <string.h>

bool emk_cube_space(MemSpace s) { return s == MS_MAT || s == MS_LEFT || s == MS_RIGHT || s == MS_ACC || s == MS_BIAS; }

bool emk_is_xcore(OpId op) {
    return op == OP_TILE_TPUSH_TO_AIV || op == OP_TILE_TPUSH_TO_AIC || op == OP_TILE_TPOP_FROM_AIC || op == OP_TILE_TPOP_FROM_AIV ||
           op == OP_TILE_TFREE_TO_AIC || op == OP_TILE_TFREE_TO_AIV;
}

static MemSpace tile_space(const Expr *e) { return e && e->type && e->type->kind == TY_TILE ? e->type->space : MS_NONE; }

Aff emk_type_aff(const Type *t) {
    if (!t || t->kind != TY_TILE || t->space == MS_NONE || t->space == MS_DDR) return AFF_SHARED;
    return emk_cube_space(t->space) ? AFF_CUBE : AFF_VEC;
}

static bool is_op(const Expr *e, OpId op) { return e && e->kind == EX_CALL && e->call.op == op; }

Boundary emk_boundary(const Expr *call) {
    if (is_op(call, OP_TILE_TPUSH_TO_AIV) && call->call.nargs == 0) return XB_C2V;   /* fence markers */
    if (is_op(call, OP_TILE_TPUSH_TO_AIC) && call->call.nargs == 0) return XB_V2C;
    if (!is_op(call, OP_TILE_MOVE)) return XB_NONE;
    MemSpace in = tile_space(call->call.args[0]), out = tile_space(call);
    if (in == MS_NONE || out == MS_NONE || emk_cube_space(in) == emk_cube_space(out)) return XB_NONE;
    return emk_cube_space(in) ? XB_C2V : XB_V2C;
}

/* The first tile operand's side (stores, extracts, same-side moves, views, element access). */
static Aff input_aff(const Expr *call) {
    for (int i = 0; i < call->call.nargs; i++) {
        Aff a = emk_type_aff(call->call.args[i]->type);
        if (a != AFF_SHARED) return a;
    }
    return AFF_SHARED;
}

Aff emk_call_aff(const Expr *call) {
    if (!call || call->kind != EX_CALL || call->call.op == OP_NONE) return AFF_SHARED;
    if (emk_boundary(call) != XB_NONE) return AFF_BOTH;
    switch (call->call.op) {
    case OP_TILE_ALLOC: return AFF_SHARED;
    case OP_TILE_TPUSH_TO_AIV: case OP_TILE_TPOP_FROM_AIV: case OP_TILE_TFREE_TO_AIV: return AFF_CUBE;
    case OP_TILE_TPUSH_TO_AIC: case OP_TILE_TPOP_FROM_AIC: case OP_TILE_TFREE_TO_AIC: return AFF_VEC;
    case OP_TILE_STORE: case OP_TILE_EXTRACT: case OP_TILE_MOVE: case OP_TILE_READ: case OP_TILE_WRITE:
        return input_aff(call);
    default: break;
    }
    Aff out = emk_type_aff(call->type);
    if (out != AFF_SHARED) return out;
    return (ir_op_info(call->call.op)->flags & OPF_TILE) ? input_aff(call) : AFF_SHARED;
}

static Aff list_aff(const StmtList *l) {
    Aff a = AFF_SHARED;
    for (int i = 0; i < l->len && a != AFF_BOTH; i++) a |= emk_stmt_aff(l->items[i]);
    return a;
}

static Aff vars_aff(const VarList *l) {
    Aff a = AFF_SHARED;
    for (int i = 0; i < l->len; i++) a |= emk_type_aff(l->items[i]->type);
    return a;
}

Aff emk_stmt_aff(const Stmt *s) {
    switch (s->kind) {
    case ST_ASSIGN: return emk_call_aff(s->assign.value);
    case ST_EVAL: return emk_call_aff(s->eval.expr);
    case ST_FOR: return list_aff(&s->for_.body) | vars_aff(&s->for_.iter_args);
    case ST_WHILE: return list_aff(&s->while_.body) | vars_aff(&s->while_.iter_args);
    case ST_IF: return list_aff(&s->if_.then_body) | list_aff(&s->if_.else_body) | vars_aff(&s->if_.return_vars);
    case ST_SCOPE: return list_aff(&s->scope.body);
    default: return AFF_SHARED;
    }
}

/* ---- fences: a load on one side of GM the other side stored earlier (in program order) ---- */
typedef VEC(Var *) RootSet;
typedef struct { PassCtx *ctx; PassAliases al; RootSet stored[3]; MemSpace store_space[3]; } Fences;   /* stored[side]: GM roots */

static Var *gm_root(Fences *fc, const Expr *e) {
    return e && e->kind == EX_VAR && e->type && e->type->kind == TY_TENSOR ? pass_alias_root(&fc->al, e->var) : NULL;
}

static bool take_root(RootSet *v, const Var *r) {
    for (int i = 0; i < v->len; i++)
        if (v->data[i] == r) { v->data[i] = v->data[--v->len]; return true; }
    return false;
}

static void fence_list(Fences *fc, StmtList *l) {
    IrCtx *c = fc->ctx->ir;
    for (int i = 0; i < l->len; i++) {
        Stmt *s = l->items[i];
        Expr *call = pass_stmt_call(s);
        if (s->kind == ST_FOR) fence_list(fc, &s->for_.body);
        else if (s->kind == ST_WHILE) fence_list(fc, &s->while_.body);
        else if (s->kind == ST_IF) { fence_list(fc, &s->if_.then_body); fence_list(fc, &s->if_.else_body); }
        else if (s->kind == ST_SCOPE) fence_list(fc, &s->scope.body);
        if (!call) continue;
        Aff side = emk_call_aff(call);
        if (side != AFF_CUBE && side != AFF_VEC) continue;
        if (call->call.op == OP_TILE_STORE) {
            Var *r = gm_root(fc, call->call.args[2]);
            if (r) vec_push(&fc->stored[side], r);
            if (r) fc->store_space[side] = call->call.args[0]->type->space;
        } else if (call->call.op == OP_TILE_LOAD || call->call.op == OP_TENSOR_READ) {
            Aff other = side == AFF_CUBE ? AFF_VEC : AFF_CUBE;
            Var *r = gm_root(fc, call->call.args[0]);
            if (!r || !take_root(&fc->stored[other], r)) continue;
            Expr *fence = ir_call(c, other == AFF_CUBE ? OP_TILE_TPUSH_TO_AIV : OP_TILE_TPUSH_TO_AIC, NULL, 0);
            ir_attr_set(c, &fence->call.kwargs, "after", ir_av_mem(fc->store_space[other]));
            ir_deduce_call(c, fence);
            fence->span = s->span;
            Stmt *fs = ir_eval(c, fence);
            fs->span = s->span;
            ir_list_insert(c, l, i, fs);
            i++;
        }
    }
}

/* Before either side is cut out: fences between a GM store on one side and a load of it on the other,
 * and a returned GM result named by its parameter (only one side keeps the store that produced it). */
static void prepare_split(PassCtx *ctx, Function *f) {
    Fences fc = { ctx, {0}, {{0}}, {MS_NONE, MS_NONE, MS_NONE} };
    pass_aliases_build(ctx, &f->body, &fc.al);
    fence_list(&fc, &f->body);
    for (int i = 0; i < f->body.len; i++) {
        Stmt *r = f->body.items[i];
        if (r->kind != ST_RETURN) continue;
        for (int j = 0; j < r->ret.n; j++) {
            Var *root = gm_root(&fc, r->ret.values[j]);
            for (int k = 0; root && k < f->params.len; k++)
                if (f->params.items[k] == root) r->ret.values[j] = ir_ref(root);
        }
    }
    pass_aliases_free(&fc.al);
    for (int i = 0; i < 3; i++) vec_free(&fc.stored[i]);
}

/* ---- the split ---- */
static Function *side_function(PassCtx *ctx, Program *p, Function *f, const char *suffix, FuncType type) {
    IrCtx *c = ctx->ir;
    Function *g = ir_func_new(c, arena_printf(c->arena, "%s_%s", f->name, suffix), type);
    g->span = f->span;
    VarMap m = {0};
    for (int i = 0; i < f->params.len; i++) {
        Var *q = f->params.items[i], *nq = ir_var_new(c, q->name, q->type);
        nq->span = q->span;
        ir_func_add_param(c, g, nq, f->param_dirs[i]);
        ir_varmap_put(&m, q, ir_ref(nq));
    }
    for (int i = 0; i < f->body.len; i++) ir_list_push(c, &g->body, ir_clone_stmt(c, f->body.items[i], &m));
    ir_varmap_free(&m);
    g->return_types = f->return_types;
    g->nreturns = f->nreturns;
    ir_program_add(c, p, g);
    return g;
}

/* f's body becomes: the AIC call, then the AIV call(s); it returns what the last one returns. */
static void group_body(PassCtx *ctx, Function *f, Function **members, int n) {
    IrCtx *c = ctx->ir;
    f->body.len = 0;
    Expr *last = NULL;
    for (int j = 0; j < n; j++) {
        Expr **args = ARENA_ARRAY(c->arena, Expr *, f->params.len + 1);
        for (int i = 0; i < f->params.len; i++) args[i] = ir_ref(f->params.items[i]);
        Expr *call = ir_call_fn(c, members[j], args, f->params.len);
        ir_deduce_call(c, call);
        call->span = f->span;
        if (f->nreturns == 0) { ir_list_push(c, &f->body, ir_eval(c, call)); continue; }
        Var *r = ir_var_new(c, arena_printf(c->arena, "%s_ret", members[j]->name), call->type);
        ir_list_push(c, &f->body, ir_assign(c, r, call));
        last = ir_ref(r);
    }
    Expr **rets = ARENA_ARRAY(c->arena, Expr *, f->nreturns + 1);
    for (int i = 0; i < f->nreturns; i++) {
        if (f->nreturns == 1) { rets[i] = last; break; }
        Expr *g = ARENA_NEW(c->arena, Expr);
        g->kind = EX_TUPLE_GET; g->type = f->return_types[i]; g->tget.tuple = last; g->tget.index = i;
        rets[i] = g;
    }
    ir_list_push(c, &f->body, ir_return(c, rets, f->nreturns));
    ir_func_set_type(f, FT_GROUP);
}

/* ---- pl.split_aiv: the body is one vector core's work ---- */
static bool is_split_aiv(const Stmt *s) { return s->kind == ST_FOR && ir_attr_get(&s->for_.attrs, "split_aiv"); }

typedef struct { bool found, crossing, nested, cube; Span at; } Lanes;
static void lanes_scan(Lanes *ln, StmtList *l, bool inside) {
    for (int i = 0; i < l->len; i++) {
        Stmt *s = l->items[i];
        Expr *call = pass_stmt_call(s);
        if (call && emk_boundary(call) != XB_NONE && !ln->crossing) ln->crossing = true, ln->at = s->span;
        if (inside && call && emk_call_aff(call) == AFF_CUBE && !ln->cube) ln->cube = true, ln->at = s->span;
        bool here = is_split_aiv(s);
        if (here && inside && !ln->nested) ln->nested = true, ln->at = s->span;
        if (here) ln->found = true;
        if (s->kind == ST_FOR) lanes_scan(ln, &s->for_.body, inside || here);
        if (s->kind == ST_WHILE) lanes_scan(ln, &s->while_.body, inside);
        if (s->kind == ST_IF) { lanes_scan(ln, &s->if_.then_body, inside); lanes_scan(ln, &s->if_.else_body, inside); }
        if (s->kind == ST_SCOPE) lanes_scan(ln, &s->scope.body, inside);
    }
}

/* Lane `lane`'s copy: each split_aiv loop becomes its body with the loop variable = lane; on a vector
 * core a store outside such a loop would run on both cores (an error). The AIC's copy (lane 0) keeps
 * what is left of the loop once: its fences, each reaching both vector cores. */
static bool unroll_lane(PassCtx *ctx, StmtList *l, int lane, bool vector) {
    for (int i = 0; i < l->len; i++) {
        Stmt *s = l->items[i];
        Expr *call = pass_stmt_call(s);
        if (vector && call && call->call.op == OP_TILE_STORE) {
            diag_error(ctx->diag, s->span, "this store is outside the pl.split_aiv loop of its region, so both vector cores would "
                       "run it; move it into the loop (each core stores its own part)");
            return false;
        }
        if (is_split_aiv(s)) {
            VarMap m = {0};
            ir_varmap_put(&m, s->for_.loop_var, ir_const_int(ctx->ir, lane, DT_INDEX));
            ir_subst_stmts(ctx->ir, &s->for_.body, &m);
            ir_varmap_free(&m);
            StmtList b = s->for_.body;
            l->len--;
            memmove(l->items + i, l->items + i + 1, sizeof(Stmt *) * (size_t)(l->len - i));
            for (int j = 0; j < b.len; j++) ir_list_insert(ctx->ir, l, i + j, b.items[j]);
            i += b.len - 1;
            continue;
        }
        bool ok = true;
        if (s->kind == ST_FOR) ok = unroll_lane(ctx, &s->for_.body, lane, vector);
        if (s->kind == ST_WHILE) ok = unroll_lane(ctx, &s->while_.body, lane, vector);
        if (s->kind == ST_IF) ok = unroll_lane(ctx, &s->if_.then_body, lane, vector) && unroll_lane(ctx, &s->if_.else_body, lane, vector);
        if (s->kind == ST_SCOPE) ok = unroll_lane(ctx, &s->scope.body, lane, vector);
        if (!ok) return false;
    }
    return true;
}

/* A region with pl.split_aiv loops: an AIC kernel for its cube work (if any) and one AIV kernel per
 * vector core, both under a Group (one cluster). */
static bool split_lanes(PassCtx *ctx, Program *p, Function *f, const Lanes *ln) {
    if (ln->crossing || ln->nested || ln->cube) {
        diag_error(ctx->diag, ln->at, "%s", ln->nested ? "pl.split_aiv loops may not nest"
                   : ln->cube ? "a pl.split_aiv body is vector work: cube work (matmuls, L1 / L0 tiles) belongs outside it"
                   : "a region with pl.split_aiv loops may not pass tiles between the cube and the vector cores (write "
                     "the vector part as a pl.split region instead, or hand the data over through a tensor)");
        return false;
    }
    EmkOpts o = { 1, 2 };                  /* a fence reaches both vector cores */
    prepare_split(ctx, f);
    Function *members[3];
    int n = 0;
    if (list_aff(&f->body) & AFF_CUBE) {
        members[n] = side_function(ctx, p, f, "aic", FT_AIC);
        if (!emk_keep_side(ctx, members[n], &members[n]->body, AFF_CUBE, &o)) return false;
        if (!unroll_lane(ctx, &members[n]->body, 0, false)) return false;
        n++;
    }
    for (int lane = 0; lane < 2; lane++) {
        members[n] = side_function(ctx, p, f, lane ? "aiv1" : "aiv0", FT_AIV);
        if (!emk_keep_side(ctx, members[n], &members[n]->body, AFF_VEC, &o)) return false;
        if (!unroll_lane(ctx, &members[n]->body, lane, true)) return false;
        ir_attr_set(ctx->ir, &members[n]->attrs, "lane", ir_av_int(lane));
        n++;
    }
    group_body(ctx, f, members, n);
    return true;
}

static bool split_function(PassCtx *ctx, Program *p, Function *f) {
    EmkOpts o = { 0, 2 };
    const AttrVal *sp = ir_attr_get(&f->attrs, "split"), *sn = ir_attr_get(&f->attrs, "slot_num");
    if (sp && sp->kind == AV_INT) o.split = (int)sp->i;
    if (sn && sn->kind == AV_INT) o.slot_num = (int)sn->i;
    /* a split divides the tiles that cross; with only fences crossing there is nothing to divide, and
     * two vector cores would each do the whole vector work: one vector core then */
    Lanes xl = { false, false, false, false, SPAN_NONE };
    lanes_scan(&xl, &f->body, false);
    if (!xl.crossing) o.split = 0;
    prepare_split(ctx, f);
    Function *members[3];
    int n = 0;
    members[n] = side_function(ctx, p, f, "aic", FT_AIC);
    if (!emk_keep_side(ctx, members[n], &members[n]->body, AFF_CUBE, &o)) return false;
    n++;
    int lanes = o.split ? 2 : 1;
    for (int lane = 0; lane < lanes; lane++) {
        members[n] = side_function(ctx, p, f, o.split ? (lane ? "aiv1" : "aiv0") : "aiv", FT_AIV);
        if (!emk_keep_side(ctx, members[n], &members[n]->body, AFF_VEC, &o)) return false;
        if (o.split && !emk_split_lane(ctx, members[n], &o, lane)) return false;
        ir_attr_set(ctx->ir, &members[n]->attrs, "lane", ir_av_int(lane));
        n++;
    }
    group_body(ctx, f, members, n);
    return true;
}

bool pass_expand_mixed_kernel(Program *p, PassCtx *ctx) {
    int nf = p->nfuncs;
    Function **fs = ARENA_ARRAY(ctx->ir->arena, Function *, nf + 1);
    memcpy(fs, p->funcs, sizeof(Function *) * (size_t)nf);     /* the split adds functions to p */
    for (int i = 0; i < nf; i++) {
        Function *f = fs[i];
        if (f->type != FT_INCORE) continue;
        Aff a = list_aff(&f->body);
        Lanes ln = { false, false, false, false, SPAN_NONE };
        lanes_scan(&ln, &f->body, false);
        if (ln.found) { if (!split_lanes(ctx, p, f, &ln)) return false; }
        else if (a == AFF_BOTH) { if (!split_function(ctx, p, f)) return false; }
        else ir_func_set_type(f, a == AFF_CUBE ? FT_AIC : FT_AIV);
    }
    return true;
}
