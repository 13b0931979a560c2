/* auto_split_match — which regions AutoSplitCores may split: the matcher (issue 11 point 2).
 *
 * Requires: SSA, FlattenCallExpr (one call per statement), regions still inline.
 * Produces: split_match_region (auto_split.h).
 * Does: accepts an InCore region (no options) whose body is, in order,
 *     scalar statements (no calls) and tensor.slice(base, shape, offsets) windows of outside tensors,
 *     x0 = tensor.matmul(A, B[, out_dtype, a_trans, b_trans])      exactly one, static 2-D, ND
 *     x1 = elementwise(x0, ...) ... xn                               the epilogue (may be empty)
 *     c' = tensor.assemble(c, xn, offsets)                            the only output of the region
 *   where A and B are outside tensors or such windows, the epilogue ops are vector ops of the binary,
 *   scalar, unary, cast, composite (sin/cos), row- and column-expand kinds with one chain operand
 *   (the previous x) and other tensor operands outside the region whose dims are each the full
 *   extent or 1 (broadcasts), every x used exactly once, and nothing the region defines but c' read
 *   after it. Because each output element of such a region depends only on its own row of A and
 *   column of B (and the broadcast rows / columns of the epilogue operands), one block per output
 *   window computes exactly the same values. The store target must not alias an operand (a block
 *   would read what another writes). Everything else is declined with the reason in *why. */
#include "pass/auto_split.h"

#include <string.h>

typedef struct { const Var *v; int n; } UseCount;
static void count_use(Expr *e, void *ud) {
    UseCount *u = ud;
    if (e->kind == EX_VAR && e->var == u->v) u->n++;
}
static int uses_in(StmtList *l, const Var *v) {
    UseCount u = { v, 0 };
    ir_visit_exprs(l, count_use, &u);
    return u.n;
}

static bool defined_in(StmtList *body, const Var *v) {
    for (int i = 0; i < body->len; i++)
        if (body->items[i]->kind == ST_ASSIGN && body->items[i]->assign.var == v) return true;
    return false;
}

static bool static_2d(const Type *t, int64_t d[2]) {
    return t && t->kind == TY_TENSOR && t->rank == 2 && ir_type_static_dims(t, d);
}

/* An operand of the matmul: an outside tensor, or a region slice of one (3 arguments). */
static bool match_operand(StmtList *body, Expr *e, SplitOperand *o, IrCtx *c) {
    if (e->kind != EX_VAR) return false;
    int64_t d[2];
    if (!static_2d(e->type, d) || e->type->layout != TLAYOUT_ND) return false;
    *o = (SplitOperand){ .base = e->var, .off = { ir_const_int(c, 0, DT_INDEX), ir_const_int(c, 0, DT_INDEX) } };
    if (!defined_in(body, e->var)) return true;
    for (int i = 0; i < body->len; i++) {
        Stmt *s = body->items[i];
        if (s->kind != ST_ASSIGN || s->assign.var != e->var) continue;
        Expr *v = s->assign.value;
        if (!pass_is_op(v, OP_TENSOR_SLICE) || v->call.nargs != 3 || v->call.args[0]->kind != EX_VAR) return false;
        Expr *offs = v->call.args[2];
        if (offs->kind != EX_TUPLE || offs->tuple.n != 2 || defined_in(body, v->call.args[0]->var)) return false;
        if (v->call.args[0]->type->layout != TLAYOUT_ND || uses_in(body, e->var) != 1) return false;
        o->base = v->call.args[0]->var;
        o->off[0] = offs->tuple.items[0];
        o->off[1] = offs->tuple.items[1];
        o->slice = s;
    }
    return true;
}

static bool epilogue_kind(OpId op) {
    VecKind k = ir_vec_kind(op);
    return (ir_op_info(op)->flags & OPF_TENSOR) &&
           (k == VK_BINARY || k == VK_SCALAR || k == VK_UNARY || k == VK_CAST || k == VK_COMPOSITE ||
            k == VK_ROW_EXPAND || k == VK_COL_EXPAND);
}

/* One epilogue statement on the chain value cur; the result is the new chain value. */
static const char *match_epilogue(StmtList *body, Stmt *s, Var **cur, SplitRegion *r) {
    int64_t M = r->M, N = r->N;
    Expr *v = s->assign.value;
    if (v->kind != EX_CALL || v->call.op == OP_NONE || !epilogue_kind(v->call.op))
        return "its epilogue holds an op that is not elementwise (a reduction, a reshape, a second matmul, ...)";
    int chain = 0;
    for (int i = 0; i < v->call.nargs; i++) {
        Expr *a = v->call.args[i];
        if (a->kind == EX_VAR && a->var == *cur) { chain++; continue; }
        if (!a->type || a->type->kind != TY_TENSOR) continue;         /* scalars, dtypes */
        int64_t d[2];
        if (a->kind != EX_VAR || defined_in(body, a->var) || !static_2d(a->type, d) || a->type->layout != TLAYOUT_ND)
            return "an epilogue operand is computed in the region or is not a static 2-D ND tensor";
        if ((d[0] != M && d[0] != 1) || (d[1] != N && d[1] != 1))
            return "an epilogue operand is neither the matmul's shape nor a row / column broadcast of it";
        if (d[0] == M && d[1] == N) r->full_operands++;
    }
    r->epilogue_ops++;
    int64_t d[2];
    if (chain != 1 || uses_in(body, *cur) != 1 || !static_2d(v->type, d) || d[0] != M || d[1] != N)
        return "the matmul result is used more than once or reshaped";
    *cur = s->assign.var;
    return NULL;
}

static const char *match_matmul(StmtList *body, Stmt *s, SplitRegion *r, IrCtx *c) {
    Expr *v = s->assign.value;
    for (int i = 0; i < v->call.kwargs.len; i++) {
        const Attr *a = &v->call.kwargs.items[i];
        if (!strcmp(a->key, "a_trans") && a->val.kind == AV_BOOL) r->a_trans = a->val.i;
        else if (!strcmp(a->key, "b_trans") && a->val.kind == AV_BOOL) r->b_trans = a->val.i;
        else if (strcmp(a->key, "out_dtype") != 0) return "its matmul has an option the split does not handle (c_matrix_nz)";
    }
    int64_t da[2], db[2], dc[2];
    if (!static_2d(v->call.args[0]->type, da) || !static_2d(v->call.args[1]->type, db) || !static_2d(v->type, dc))
        return "its matmul operands are not static 2-D tensors";
    r->M = dc[0];
    r->N = dc[1];
    r->K = r->a_trans ? da[0] : da[1];
    if (dtype_bytes(v->call.args[0]->type->dtype) == 0) return "its operands are a sub-byte type";
    if (!match_operand(body, v->call.args[0], &r->a, c) || !match_operand(body, v->call.args[1], &r->b, c))
        return "a matmul operand is neither an outside ND tensor nor a window of one";
    return NULL;
}

/* The statements in order: scalars / slices, the matmul, the epilogue, the store. */
static const char *match_body(Stmt *scope, SplitRegion *r, IrCtx *c) {
    StmtList *body = &scope->scope.body;
    Var *cur = NULL;
    for (int i = 0; i < body->len; i++) {
        Stmt *s = body->items[i];
        if (s->kind != ST_ASSIGN) return "it holds control flow or a statement without a result";
        Expr *v = s->assign.value;
        if (s->assign.var->type->kind == TY_SCALAR && v->kind != EX_CALL) continue;
        if (v->kind != EX_CALL || v->call.op == OP_NONE) return "it holds a kernel call or a scalar computed by an op";
        if (pass_is_op(v, OP_TENSOR_SLICE) && !r->mm) continue;      /* checked as an operand */
        if (pass_is_op(v, OP_TENSOR_MATMUL)) {
            if (r->mm) return "it holds more than one matmul";
            r->mm = s;
            const char *why = match_matmul(body, s, r, c);
            if (why) return why;
            cur = s->assign.var;
            continue;
        }
        if (!r->mm) return "it computes something other than a matmul operand before the matmul";
        if (pass_is_op(v, OP_TENSOR_ASSEMBLE) && i == body->len - 1) {
            Expr *t = v->call.args[0], *x = v->call.args[1], *o = v->call.args[2];
            int64_t d[2];
            if (t->kind != EX_VAR || defined_in(body, t->var) || !static_2d(t->type, d) || t->type->layout != TLAYOUT_ND)
                return "its result goes to a tensor that is not a static 2-D ND tensor outside the region";
            if (x->kind != EX_VAR || x->var != cur || o->kind != EX_TUPLE || o->tuple.n != 2)
                return "its store is not of the matmul (epilogue) result";
            r->store = s;
            return NULL;
        }
        if (pass_is_op(v, OP_TENSOR_ASSEMBLE)) return "it stores more than one result (the region has other outputs)";
        const char *why = match_epilogue(body, s, &cur, r);
        if (why) return why;
    }
    return r->mm ? "it does not end with the store of the matmul result into an output tensor" : "it holds no matmul";
}

/* Nothing the region defines but the store's result is read after it: a definition's reads in the
 * function (counted once, before any region was split: a region cannot read a later one's
 * definitions) are all inside the region. */
static bool single_output(Function *f, SplitReads *rd, Stmt *scope, const SplitRegion *r) {
    StmtList *body = &scope->scope.body;
    bool counted = true;
    for (int i = 0; i < body->len; i++) counted &= pass_uses_of(&rd->all, body->items[i]->assign.var) >= 0;
    bool ok = true;
    if (counted) {
        pass_uses_add(&rd->inside, body);
        for (int i = 0; ok && i < body->len; i++) {
            const Var *v = body->items[i]->assign.var;
            ok = body->items[i] == r->store || pass_uses_of(&rd->all, v) == pass_uses_of(&rd->inside, v);
        }
        pass_uses_reset(&rd->inside, body);
    } else {                                     /* a variable newer than the count: scan the function */
        StmtList saved = *body;
        *body = (StmtList){ 0 };
        for (int i = 0; ok && i < saved.len; i++)
            ok = saved.items[i] == r->store || !ir_stmts_use_var(&f->body, saved.items[i]->assign.var);
        *body = saved;
    }
    return ok;
}

/* The store target aliases a tensor the region reads (an operand or an epilogue operand): a block
 * would read what another block writes. */
static bool store_aliases_input(PassCtx *ctx, Function *f, const SplitRegion *r) {
    PassAliases al;
    pass_aliases_build(ctx, &f->body, &al);
    StmtList *body = &r->scope->scope.body;
    Var *c = pass_alias_root(&al, r->store->assign.value->call.args[0]->var);
    bool hit = pass_alias_root(&al, r->a.base) == c || pass_alias_root(&al, r->b.base) == c;
    for (int i = 0; !hit && i < body->len; i++) {
        Stmt *s = body->items[i];
        if (s == r->store || s == r->mm || s->assign.value->kind != EX_CALL) continue;
        Expr *v = s->assign.value;
        for (int j = 0; j < v->call.nargs; j++)
            if (v->call.args[j]->kind == EX_VAR && !defined_in(body, v->call.args[j]->var) &&
                v->call.args[j]->type && v->call.args[j]->type->kind == TY_TENSOR &&
                pass_alias_root(&al, v->call.args[j]->var) == c) hit = true;
    }
    pass_aliases_free(&al);
    return hit;
}

bool split_match_region(PassCtx *ctx, Function *f, SplitReads *reads, Stmt *scope, SplitRegion *r, const char **why) {
    *r = (SplitRegion){ .scope = scope };
    if ((*why = match_body(scope, r, ctx->ir))) return false;
    if (scope->scope.kwargs.len) {
        *why = "the region has options (optimizations, deps, ...) the split would have to carry to every block";
        return false;
    }
    if (!single_output(f, reads, scope, r)) {
        *why = "the region has other outputs than the stored matmul result";
        return false;
    }
    if (store_aliases_input(ctx, f, r)) {
        *why = "the region writes a tensor it also reads (blocks would read each other's results)";
        return false;
    }
    return true;
}
