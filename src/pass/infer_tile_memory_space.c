/* InferTileMemorySpace
 * Requires: SSAForm, IncoreTileOps.
 * Produces: TileMemoryInferred — every tile variable has a memory space, and every constrained op
 *           input lies in a space the op accepts.
 * Does: Phase 0/1: a tile.load / tile.create without target_memory takes the first demanded
 *   space of its consumers when that is Vec or Mat, else Vec (a GM load never lands in L0).
 *   Phase 2/3: an input in a space its op does not accept gets one tile.move into the first
 *   accepted space per (producer, space) per statement list, inserted before the consumer and named
 *   <orig>_<Space>; e.g. an untiled matmul's Mat operands are moved to Left / Right. A
 *   tile.transpose_view stays in its source's space (Vec, or Mat for a transposed matmul operand).
 * Not yet: the spec's Phase 4 (hoisting loop-invariant bridge loads out of sequential loops) — the
 *   programs ptoc accepts load their operands outside loops. */
#include "pass/pass.h"

#include <string.h>

/* Accepted spaces of input i of op (first = canonical); 0 entries = unconstrained. */
static int accepted(OpId op, int i, MemSpace out[3]) {
    switch (op) {
    case OP_TILE_MATMUL: out[0] = i == 0 ? MS_LEFT : MS_RIGHT; return i < 2;
    case OP_TILE_MATMUL_ACC:
        if (i == 0) { out[0] = MS_ACC; return 1; }
        if (i == 1) { out[0] = MS_LEFT; return 1; }
        if (i == 2) { out[0] = MS_RIGHT; return 1; }
        return 0;
    case OP_TILE_MATMUL_BIAS: out[0] = i == 0 ? MS_LEFT : i == 1 ? MS_RIGHT : MS_BIAS; return i < 3;
    case OP_TILE_EXTRACT: if (i) return 0; out[0] = MS_MAT; out[1] = MS_ACC; out[2] = MS_VEC; return 3;
    case OP_TILE_STORE: if (i) return 0; out[0] = MS_ACC; out[1] = MS_VEC; out[2] = MS_MAT; return 3;
    /* a zero-copy view stays where its source is: a Mat one is a transposed matmul operand */
    case OP_TILE_TRANSPOSE_VIEW: if (i) return 0; out[0] = MS_VEC; out[1] = MS_MAT; return 2;
    default:
        if (op != OP_NONE && (ir_op_info(op)->flags & OPF_VEC)) { out[0] = MS_VEC; return 1; }   /* the vector unit reads UB */
        return 0;
    }
}

typedef struct { Var *v; MemSpace sp; Var *moved; } Moved;
typedef struct { PassCtx *ctx; Function *f; Moved cache[64]; int ncache; } Infer;

/* First demanded space of v's consumers (Phase 0), or MS_NONE. */
typedef struct { const Var *v; MemSpace want; } Demand;
static void find_demand(Expr *e, void *ud) {
    Demand *d = ud;
    if (e->kind != EX_CALL || e->call.op == OP_NONE || d->want != MS_NONE) return;
    for (int i = 0; i < e->call.nargs; i++) {
        MemSpace acc[3];
        if (e->call.args[i]->kind == EX_VAR && e->call.args[i]->var == d->v && accepted(e->call.op, i, acc)) {
            d->want = acc[0];
            return;
        }
    }
}

static void resolve_unknown(Infer *in, Stmt *s) {
    Expr *c = s->assign.value;
    if (!(pass_is_op(c, OP_TILE_LOAD) || pass_is_op(c, OP_TILE_CREATE)) || c->type->space != MS_NONE) return;
    Demand d = { s->assign.var, MS_NONE };
    ir_visit_exprs(&in->f->body, find_demand, &d);
    MemSpace sp = (d.want == MS_MAT || d.want == MS_VEC) ? d.want : MS_VEC;
    if (pass_is_op(c, OP_TILE_CREATE) && d.want != MS_NONE) sp = d.want;
    ir_attr_set(in->ctx->ir, &c->call.kwargs, "target_memory", ir_av_mem(sp));
    ir_deduce_call(in->ctx->ir, c);
    pass_var_set_type(s->assign.var, c->type);
}

static Expr *move_to(Infer *in, StmtList *l, int *at, Expr *arg, MemSpace sp, Span span) {
    IrCtx *c = in->ctx->ir;
    for (int i = 0; i < in->ncache; i++)
        if (in->cache[i].v == arg->var && in->cache[i].sp == sp) return ir_ref(in->cache[i].moved);
    Expr *mv = ir_call(c, OP_TILE_MOVE, &arg, 1);
    mv->span = span;
    ir_attr_set(c, &mv->call.kwargs, "target_memory", ir_av_mem(sp));
    ir_deduce_call(c, mv);
    Var *v = ir_var_new(c, arena_printf(c->arena, "%s_%s", arg->var->name, memspace_name(sp)), mv->type);
    Stmt *s = ir_assign(c, v, mv);
    s->span = span;
    ir_list_insert(c, l, *at, s);
    (*at)++;
    if (in->ncache < 64) in->cache[in->ncache++] = (Moved){ arg->var, sp, v };
    return ir_ref(v);
}

static bool spaceless_tile(const Type *t) { return t && t->kind == TY_TILE && t->space == MS_NONE; }

/* A loop carrying a tile whose space Phase 0/1 only now decided (a tile.load without target_memory
 * before the loop): its iter args take the init's type before the body is visited, its return vars
 * the iter args' after. */
static void carry_spaces_in(VarList *iter_args) {
    for (int a = 0; a < iter_args->len; a++) {
        Var *v = iter_args->items[a];
        if (spaceless_tile(v->type) && v->init && v->init->type && v->init->type->kind == TY_TILE &&
            v->init->type->space != MS_NONE)
            pass_var_set_type(v, v->init->type);
    }
}

static void carry_spaces_out(const VarList *iter_args, VarList *return_vars) {
    for (int a = 0; a < return_vars->len && a < iter_args->len; a++)
        if (spaceless_tile(return_vars->items[a]->type) && !spaceless_tile(iter_args->items[a]->type))
            pass_var_set_type(return_vars->items[a], iter_args->items[a]->type);
}

static void infer_list(Infer *in, StmtList *l) {
    int saved = in->ncache;
    for (int i = 0; i < l->len; i++) {
        Stmt *s = l->items[i];
        if (s->kind == ST_FOR) {
            carry_spaces_in(&s->for_.iter_args);
            infer_list(in, &s->for_.body);
            carry_spaces_out(&s->for_.iter_args, &s->for_.return_vars);
            continue;
        }
        if (s->kind == ST_WHILE) {
            carry_spaces_in(&s->while_.iter_args);
            infer_list(in, &s->while_.body);
            carry_spaces_out(&s->while_.iter_args, &s->while_.return_vars);
            continue;
        }
        if (s->kind == ST_IF) { infer_list(in, &s->if_.then_body); infer_list(in, &s->if_.else_body); continue; }
        Expr *c = pass_stmt_call(s);
        if (!c || c->call.op == OP_NONE) continue;
        if (s->kind == ST_ASSIGN) resolve_unknown(in, s);
        for (int a = 0; a < c->call.nargs; a++) {
            MemSpace acc[3];
            int n = accepted(c->call.op, a, acc);
            Expr *arg = c->call.args[a];
            if (!n || arg->kind != EX_VAR || arg->type->kind != TY_TILE) continue;
            bool ok = false;
            for (int j = 0; j < n; j++) ok |= arg->type->space == acc[j];
            if (!ok) c->call.args[a] = move_to(in, l, &i, arg, acc[0], s->span);
        }
    }
    in->ncache = saved;
}

bool pass_infer_tile_memory_space(Program *p, PassCtx *ctx) {
    for (int i = 0; i < p->nfuncs; i++) {
        Function *f = p->funcs[i];
        if (!ir_functype_is_incore(f->type)) continue;
        Infer in = { ctx, f, {{0}}, 0 };
        infer_list(&in, &f->body);
    }
    return true;
}
