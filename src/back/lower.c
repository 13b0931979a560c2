/* lower: one AIC/AIV function (after AllocateMemoryAddr) -> one machine kernel.
 * Requires: AllocatedMemoryAddr — every tile variable has a MemRef with its absolute address.
 * Produces: a Kernel whose buffers are the distinct (space, address, shape, layout) tiles of the
 *   function and whose body is the tile ops as PTO-dialect instructions inside structured for/if,
 *   each tagged with its pipe and source location. Loop-carried tiles and if-phis are aliased
 *   buffers, so they produce no instruction; a predicated matmul_acc becomes
 *   if (cond) tmatmul else tmatmul.acc on the same buffer; a literal predicate picks one. */
#include "back/lower_internal.h"

#include <string.h>

#define fail lower_fail
#define lower_expr lower_scalar
#define buf_of lower_buf
#define inst lower_inst

void lower_fail(Lower *l, Span sp, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    if (l->ok) diag_vadd(l->diag, DIAG_ERROR, sp, NULL, fmt, ap);
    va_end(ap);
    l->ok = false;
}

static void bind_scalar(Lower *l, const Var *v, MirExpr *e) {
    PTOC_ASSERT(l->nsc < 512, "too many scalars in kernel %s", l->f->name);
    l->svars[l->nsc] = v;
    l->sexprs[l->nsc++] = e;
}

/* A scalar expression of the kernel (ir/scalar.c semantics, mirrored by mir_eval_num): integers, and
 * floats from literals, float scalar parameters and element reads. An expression the IR types as
 * float stays a float whatever its operands hold. */
MirExpr *lower_scalar(Lower *l, const Expr *e) {
    Kernel *k = l->k;
    MirExpr *r = NULL;
    switch (e->kind) {
    case EX_CONST_INT: return mir_const(k, e->ci.value);
    case EX_CONST_BOOL: return mir_const(k, e->cb.value);
    case EX_CONST_FLOAT: return mir_fconst(k, e->cf.value);
    case EX_VAR:
        for (int i = l->nsc - 1; i >= 0; i--)
            if (l->svars[i] == e->var) return l->sexprs[i];
        fail(l, e->span, "kernel '%s': scalar '%s' has no value the backend can compute", l->f->name, e->var->name);
        return mir_const(k, 0);
    case EX_UNARY:
        if (e->un.op == UN_NOT) return mir_unary(k, MX_NOT, lower_expr(l, e->un.operand));
        if (e->un.op == UN_NEG) r = mir_unary(k, MX_NEG, lower_expr(l, e->un.operand));
        else if (e->un.op == UN_ABS) r = mir_unary(k, MX_ABS, lower_expr(l, e->un.operand));
        else if (e->un.op == UN_CAST && e->type) return mir_cast(k, lower_expr(l, e->un.operand), e->type->dtype);
        break;
    case EX_BINARY: {
        static const int map[] = {
            [BIN_ADD] = MB_ADD, [BIN_SUB] = MB_SUB, [BIN_MUL] = MB_MUL, [BIN_FLOORDIV] = MB_FLOORDIV, [BIN_DIV] = MB_DIV,
            [BIN_FLOORMOD] = MB_FLOORMOD, [BIN_MIN] = MB_MIN, [BIN_MAX] = MB_MAX, [BIN_EQ] = MB_EQ, [BIN_NE] = MB_NE,
            [BIN_LT] = MB_LT, [BIN_LE] = MB_LE, [BIN_GT] = MB_GT, [BIN_GE] = MB_GE, [BIN_AND] = MB_AND, [BIN_OR] = MB_OR,
        };
        BinOp op = e->bin.op;
        if (op == BIN_POW || op >= BIN_XOR) break;
        r = mir_bin(k, (MirBinOp)map[op], lower_expr(l, e->bin.lhs), lower_expr(l, e->bin.rhs));
        break;
    }
    default: break;
    }
    if (r) {
        if (!r->fp && e->type && e->type->kind == TY_SCALAR && dtype_is_float(e->type->dtype)) r = mir_cast(k, r, DT_NONE);
        return r;
    }
    fail(l, e->span, "kernel '%s': this scalar expression is not supported by the backend", l->f->name);
    return mir_const(k, 0);
}

static int static_or(const Expr *e, int64_t dflt) { int64_t v; return ir_is_const_int(e, &v) ? (int)v : (int)dflt; }

/* A tile's capacity is whole storage units (isa_and_sync.md §3: capacity R x C in boxes r0 x c0; the
 * valid shape is the logical extent): a boxed layout holds whole fractals (16 x 32 B, 16 x 16 for the
 * 1024-byte Acc fractal) and a none-box layout has 32-byte rows (row-major) or columns (col-major).
 * pto-isa's Tile rejects anything else, so the type's shape is padded here — the same rounding as
 * ir_tile_physical_bytes, which already sized the allocation (budgets are unchanged). A boxed Vec tile
 * or a single boxed row is exempt from the row rule (pto-isa allows it; the simulator's layout rounds
 * partial boxes itself, so its offsets do not change). Slice windows keep their parent's pitch. */
static void pad_capacity(MirBuf *b) {
    int64_t eb = dtype_bytes(b->dtype), r0 = 1, c0 = 1;
    if (eb <= 0 || eb > 32) return;
    if (b->slayout != ML_NONE_BOX) {
        bool c1024 = b->fractal == 1024, inner_row = b->slayout == ML_ROW_MAJOR;
        r0 = c1024 || inner_row ? 16 : 32 / eb;
        c0 = c1024 || !inner_row ? 16 : 32 / eb;
        if (b->space == MS_VEC || b->rows == 1) r0 = 1;
    } else if (b->blayout == ML_COL_MAJOR) r0 = 32 / eb;
    else c0 = 32 / eb;
    int64_t r, c;
    if (checked_round_up(b->rows, r0, &r) && checked_round_up(b->cols, c0, &c)) { b->rows = r; b->cols = c; }
}

int lower_buf(Lower *l, const Expr *e, Span sp) {
    const Type *t = e->type;
    if (!t || t->kind != TY_TILE || !t->memref || t->rank != 2) {
        fail(l, sp, "kernel '%s': '%s' is not an allocated 2-D tile", l->f->name, e->kind == EX_VAR ? e->var->name : "?");
        return -1;
    }
    TileView v = ir_effective_view(t);
    MirBuf b = {0};
    b.name = e->kind == EX_VAR ? e->var->name : "tile";
    b.space = t->space;
    b.addr = t->memref->offset;
    b.bytes = ir_tile_physical_bytes(t, target_l0c_align_m(l->t, t->dtype));
    b.dtype = t->dtype;
    b.rows = ir_type_dim(t, 0);
    b.cols = ir_type_dim(t, 1);
    b.valid_rows = v.nvalid == 2 ? static_or(v.valid_shape[0], b.rows) : b.rows;
    b.valid_cols = v.nvalid == 2 ? static_or(v.valid_shape[1], b.cols) : b.cols;
    b.blayout = (MirLayout)v.blayout;
    b.slayout = (MirLayout)v.slayout;
    b.fractal = v.fractal;
    b.pad = v.pad;
    b.compact = v.compact;
    if (v.nstride == 2 || v.start_offset) lower_view_window(&b, &v);   /* a tile.slice view */
    else pad_capacity(&b);
    if (l->ring_base && t->memref->base == l->ring_base) { b.ring_slots = l->ring_slots; b.bytes = l->ring_slot_bytes; }
    for (int i = 0; i < l->k->nbufs; i++) {
        MirBuf *o = &l->k->bufs[i];
        if (o->space == b.space && o->addr == b.addr && o->rows == b.rows && o->cols == b.cols && o->dtype == b.dtype &&
            o->blayout == b.blayout && o->slayout == b.slayout && o->valid_rows == b.valid_rows && o->valid_cols == b.valid_cols)
            return i;
    }
    return mir_add_buf(l->k, b);
}

/* The kernel parameter a GM tensor value lives in (through its DDR MemRef). */
static int param_of(Lower *l, const Expr *e, Span sp) {
    for (int i = 0; i < l->f->params.len; i++) {
        const Var *p = l->f->params.items[i];
        if (e->kind == EX_VAR && e->var == p) return i;
        if (e->type && e->type->memref && p->type->memref && e->type->memref->base == p->type->memref->base) return i;
    }
    fail(l, sp, "kernel '%s': the GM tensor is not a kernel parameter", l->f->name);
    return -1;
}

/* The window origin of a tload / tstore (or of textract / tinsert: param < 0): two offsets, or the
 * five blocked ones of a load from an NZ parameter (BlockNzTensorViews). */
static void offsets(Lower *l, MirInst *i, const Expr *tuple, Span sp) {
    int n = i->param >= 0 && l->k->params[i->param].layout == MIR_LAYOUT_NZ ? 5 : 2;
    if (tuple->kind != EX_TUPLE || tuple->tuple.n != n) {
        fail(l, sp, "kernel '%s': expected %d-D offsets%s", l->f->name, n, n == 5 ? " (a blocked NZ window)" : "");
        return;
    }
    for (int d = 0; d < n; d++) i->off[d] = lower_expr(l, tuple->tuple.items[d]);
}

MirInst *lower_inst(Lower *l, MirBlock *b, MirOp op, int dst, int src0, Span sp) {
    MirInst *i = mir_inst_new(l->k, op, mir_pipe_for(l->k, op, dst, src0));
    i->dst = dst;
    i->src0 = src0;
    i->loc = sp;
    mir_block_push(l->k, b, i);
    return i;
}

static void lower_matmul_acc(Lower *l, MirBlock *b, Var *v, Expr *c, Span sp) {
    int dst = buf_of(l, ir_ref(v), sp), acc = buf_of(l, c->call.args[0], sp);
    int sa = buf_of(l, c->call.args[1], sp), sb = buf_of(l, c->call.args[2], sp);
    Expr *pred = c->call.nargs == 4 ? c->call.args[3] : NULL;
    int64_t pv = 0;
    bool lit = !pred || pred->kind == EX_CONST_BOOL || ir_is_const_int(pred, &pv);
    if (pred && pred->kind == EX_CONST_BOOL) pv = pred->cb.value;
    MirBlock *tb = b, *eb = b;
    if (!lit) {
        MirInst *iff = mir_inst_new(l->k, MI_IF, PIPE_NONE);
        iff->cond = lower_expr(l, pred);
        iff->loc = sp;
        mir_block_push(l->k, b, iff);
        tb = &iff->then_body;
        eb = &iff->else_body;
    }
    if (!lit || pv) { MirInst *m = inst(l, tb, MI_TMATMUL, dst, sa, sp); m->src1 = sb; }
    if (!lit || !pv) { MirInst *m = inst(l, eb, MI_TMATMUL_ACC, dst, sa, sp); m->src1 = sb; m->src2 = acc; }
}

/* tile.read / tile.write (S, on a Vec tile) and tensor.read / tensor.write (S, one GM element of a
 * parameter); a read binds its result variable to a fresh kernel variable the instruction fills. */
static void lower_access(Lower *l, MirBlock *b, Var *v, Expr *c, Span sp) {
    Expr **a = c->call.args;
    bool tile = c->call.op == OP_TILE_READ || c->call.op == OP_TILE_WRITE;
    bool read = c->call.op == OP_TILE_READ || c->call.op == OP_TENSOR_READ;
    MirOp op = tile ? (read ? MI_TGETVAL : MI_TSETVAL) : (read ? MI_GGETVAL : MI_GSETVAL);
    MirInst *i = mir_inst_new(l->k, op, PIPE_S);
    i->loc = sp;
    int n = a[1]->kind == EX_TUPLE ? a[1]->tuple.n : 1;
    if (tile) {
        int buf = buf_of(l, a[0], sp);
        if (buf >= 0 && l->k->bufs[buf].space != MS_VEC)
            fail(l, sp, "kernel '%s': %s of a tile in %s: the scalar unit reads and writes Vec tiles only (move it to Vec first)",
                 l->f->name, ir_op_info(c->call.op)->name, memspace_name(l->k->bufs[buf].space));
        if (read) i->src0 = buf;
        else i->dst = buf;
        if (n != 2) fail(l, sp, "kernel '%s': %s needs 2 indices", l->f->name, ir_op_info(c->call.op)->name);
    } else {
        i->param = param_of(l, a[0], sp);
        if (i->param >= 0 && (l->k->params[i->param].layout == MIR_LAYOUT_NZ || l->k->params[i->param].rank != n))
            fail(l, sp, "kernel '%s': %s of '%s': one index per dimension of a row-major (ND or DN) tensor is supported",
                 l->f->name, ir_op_info(c->call.op)->name, l->k->params[i->param].name);
    }
    if (!l->ok) return;
    for (int d = 0; d < n && d < MIR_MAX_RANK; d++) i->off[d] = lower_expr(l, a[1]->kind == EX_TUPLE ? a[1]->tuple.items[d] : a[1]);
    if (read) {
        if (!v) { fail(l, sp, "kernel '%s': the value read is unused", l->f->name); return; }
        i->var = mir_add_var(l->k, v->name);
        if (dtype_is_float(v->type->dtype)) mir_set_var_fp(l->k, i->var);
        bind_scalar(l, v, mir_var(l->k, i->var));
    } else i->scalar = lower_expr(l, a[2]);
    mir_block_push(l->k, b, i);
}

static void lower_call(Lower *l, MirBlock *b, Var *v, Expr *c, Span sp) {
    Expr **a = c->call.args;
    MirInst *i;
    switch (c->call.op) {
    case OP_TILE_ALLOC: case OP_TILE_CREATE: case OP_TILE_SET_VALIDSHAPE: case OP_TILE_RESHAPE: case OP_TILE_TRANSPOSE_VIEW:
        return;   /* views: the same buffer seen with another shape / layout */
    case OP_TILE_LOAD:
        i = inst(l, b, MI_TLOAD, buf_of(l, ir_ref(v), sp), -1, sp);
        i->param = param_of(l, a[0], sp);
        if (i->param >= 0) offsets(l, i, a[1], sp);
        return;
    case OP_TILE_STORE: {
        i = inst(l, b, MI_TSTORE, -1, buf_of(l, a[0], sp), sp);
        i->param = param_of(l, a[2], sp);
        if (i->param >= 0) offsets(l, i, a[1], sp);
        const AttrVal *at = ir_attr_get(&c->call.kwargs, "atomic");
        i->atomic_add = at && ((at->kind == AV_ENUM && strstr(at->s, "Add")) || (at->kind == AV_INT && at->i == 1));
        return;
    }
    case OP_TILE_EXTRACT:
        i = inst(l, b, MI_TEXTRACT, buf_of(l, ir_ref(v), sp), buf_of(l, a[0], sp), sp);
        i->off[0] = lower_expr(l, a[1]);
        i->off[1] = lower_expr(l, a[2]);
        return;
    case OP_TILE_MOVE: inst(l, b, MI_TMOV, buf_of(l, ir_ref(v), sp), buf_of(l, a[0], sp), sp); return;
    case OP_TILE_MATMUL:
        i = inst(l, b, MI_TMATMUL, buf_of(l, ir_ref(v), sp), buf_of(l, a[0], sp), sp);
        i->src1 = buf_of(l, a[1], sp);
        return;
    case OP_TILE_MATMUL_BIAS:
        i = inst(l, b, MI_TMATMUL_BIAS, buf_of(l, ir_ref(v), sp), buf_of(l, a[0], sp), sp);
        i->src1 = buf_of(l, a[1], sp);
        i->src2 = buf_of(l, a[2], sp);
        return;
    case OP_TILE_MATMUL_ACC: lower_matmul_acc(l, b, v, c, sp); return;
    case OP_TILE_ASSEMBLE:
        i = inst(l, b, MI_TINSERT, buf_of(l, ir_ref(v), sp), buf_of(l, a[1], sp), sp);
        offsets(l, i, a[2], sp);
        return;
    case OP_TILE_READ: case OP_TILE_WRITE: case OP_TENSOR_READ: case OP_TENSOR_WRITE: lower_access(l, b, v, c, sp); return;
    case OP_TILE_TPUSH_TO_AIV: case OP_TILE_TPUSH_TO_AIC: case OP_TILE_TPOP_FROM_AIC: case OP_TILE_TPOP_FROM_AIV:
    case OP_TILE_TFREE_TO_AIC: case OP_TILE_TFREE_TO_AIV:
        lower_xcore(l, b, v, c, sp);
        return;
    case OP_TILE_GET_BLOCK_IDX: case OP_TILE_GET_BLOCK_NUM: case OP_TILE_GET_SUBBLOCK_IDX: {
        /* SPMD queries read a kernel variable the simulator fills per block ("block_idx", "block_num"
         * from SimOptions, "subblock_idx" from the kernel's AIV lane); nothing writes it */
        if (!v) return;
        const char *name = c->call.op == OP_TILE_GET_BLOCK_IDX ? "block_idx"
                         : c->call.op == OP_TILE_GET_BLOCK_NUM ? "block_num" : "subblock_idx";
        int var = -1;
        for (int j = 0; j < l->k->nvars && var < 0; j++)     /* one variable per query: the .pto defines it once */
            if (strcmp(l->k->vars[j], name) == 0) var = j;
        bind_scalar(l, v, mir_var(l->k, var >= 0 ? var : mir_add_var(l->k, name)));
        return;
    }
    default:
        if (c->call.op != OP_NONE && (ir_op_info(c->call.op)->flags & OPF_VEC) && (ir_op_info(c->call.op)->flags & OPF_TILE)) {
            lower_vec(l, b, v, c, sp);
            return;
        }
        fail(l, sp, "kernel '%s': %s cannot be lowered to a machine instruction", l->f->name,
             c->call.op == OP_NONE ? "a function call" : ir_op_info(c->call.op)->name);
    }
}

/* Loop-carried tiles produce no instruction: the init, the iter_arg, the yielded value and the
 * result must be one buffer (MaterializeSemanticAliases). A carry split over two buffers would read
 * a stale value on the next iteration: an internal error, never a silent wrong answer. */
static void check_carries(Lower *l, const Stmt *s) {
    const StmtList *body = &s->for_.body;
    const Stmt *y = body->len ? body->items[body->len - 1] : NULL;
    for (int k = 0; k < s->for_.iter_args.len; k++) {
        const Var *it = s->for_.iter_args.items[k];
        if (!it->type || it->type->kind != TY_TILE || !it->type->memref) continue;
        const Expr *vals[3] = { it->init, y && y->kind == ST_YIELD && k < y->yield.n ? y->yield.values[k] : NULL,
                                k < s->for_.return_vars.len ? ir_ref(s->for_.return_vars.items[k]) : NULL };
        for (int j = 0; j < 3; j++) {
            const Type *t = vals[j] ? vals[j]->type : NULL;
            if (!t || t->kind != TY_TILE || !t->memref) continue;
            if (t->space != it->type->space || t->memref->offset != it->type->memref->offset)
                fail(l, s->span, "internal: kernel '%s': loop-carried tile '%s' is at %s address %lld but its %s is at %lld; the "
                     "loop would read a stale value", l->f->name, it->name, memspace_name(it->type->space),
                     (long long)it->type->memref->offset, j == 0 ? "initial value" : j == 1 ? "new value" : "result",
                     (long long)t->memref->offset);
        }
    }
}

static void lower_list(Lower *l, const StmtList *list, MirBlock *b) {
    for (int j = 0; j < list->len && l->ok; j++) {
        Stmt *s = list->items[j];
        switch (s->kind) {
        case ST_ASSIGN: {
            Expr *v = s->assign.value;
            if (v->kind == EX_CALL) { lower_call(l, b, s->assign.var, v, s->span); break; }
            if (s->assign.var->type->kind == TY_SCALAR) bind_scalar(l, s->assign.var, lower_expr(l, v));
            break;                                          /* tile / tensor aliases share buffers */
        }
        case ST_EVAL:
            if (s->eval.expr->kind == EX_CALL) lower_call(l, b, NULL, s->eval.expr, s->span);
            break;
        case ST_FOR: {
            for (int a = 0; a < s->for_.iter_args.len; a++)
                if (s->for_.iter_args.items[a]->type->kind == TY_SCALAR)
                    fail(l, s->span, "kernel '%s': scalar loop-carried values are not supported by the backend yet", l->f->name);
            MirInst *fo = mir_inst_new(l->k, MI_FOR, PIPE_NONE);
            fo->var = mir_add_var(l->k, s->for_.loop_var->name);
            fo->start = lower_expr(l, s->for_.start);
            fo->stop = lower_expr(l, s->for_.stop);
            fo->step = lower_expr(l, s->for_.step);
            fo->loc = s->span;
            bind_scalar(l, s->for_.loop_var, mir_var(l->k, fo->var));
            mir_block_push(l->k, b, fo);
            lower_list(l, &s->for_.body, &fo->body);
            check_carries(l, s);
            break;
        }
        case ST_IF: {
            MirInst *iff = mir_inst_new(l->k, MI_IF, PIPE_NONE);
            iff->cond = lower_expr(l, s->if_.cond);
            iff->loc = s->span;
            mir_block_push(l->k, b, iff);
            lower_list(l, &s->if_.then_body, &iff->then_body);
            lower_list(l, &s->if_.else_body, &iff->else_body);
            break;
        }
        case ST_SCOPE: lower_list(l, &s->scope.body, b); break;
        case ST_WHILE: fail(l, s->span, "kernel '%s': while loops are not supported by the backend yet", l->f->name); break;
        default: break;
        }
    }
}

static void lower_params(Lower *l) {
    const Function *f = l->f;
    l->k->params = ARENA_ARRAY(l->k->arena, MirParam, f->params.len ? f->params.len : 1);
    l->k->nparams = f->params.len;
    for (int i = 0; i < f->params.len; i++) {
        const Var *v = f->params.items[i];
        MirParam *p = &l->k->params[i];
        p->name = v->name;
        p->dtype = v->type->dtype;
        p->is_tensor = v->type->kind == TY_TENSOR;
        if (!p->is_tensor) {
            int var = mir_add_var(l->k, v->name);
            if (dtype_is_float(p->dtype)) mir_set_var_fp(l->k, var);
            p->var = var + 1;
            bind_scalar(l, v, mir_var(l->k, var));
            continue;
        }
        if (v->type->rank > MIR_MAX_RANK || !ir_type_static_dims(v->type, NULL)) {
            fail(l, f->span, "kernel '%s': parameter '%s' must be a static tensor of rank <= %d", f->name, v->name,
                 MIR_MAX_RANK);
            continue;
        }
        p->rank = v->type->rank;
        p->layout = v->type->layout;
        if (p->layout == MIR_LAYOUT_NZ && p->rank != 5) {   /* BlockNzTensorViews blocks every NZ kernel parameter */
            fail(l, f->span, "internal: kernel '%s': NZ parameter '%s' is not blocked to rank 5", f->name, v->name);
            continue;
        }
        int64_t stride = 1;
        for (int d = p->rank - 1; d >= 0; d--) {
            p->shape[d] = ir_type_dim(v->type, d);
            p->strides[d] = stride;
            stride *= p->shape[d];
        }
    }
}

Kernel *back_lower_function(const Function *f, const Target *t, Arena *arena, DiagSink *diag) {
    if (f->type != FT_AIC && f->type != FT_AIV) {
        diag_error(diag, f->span, "internal: '%s' is not an AIC/AIV kernel", f->name);
        return NULL;
    }
    Lower l = { f, t, mir_kernel_new(arena, f->name, f->type == FT_AIC ? CORE_AIC : CORE_AIV), diag, {0}, {0}, 0, true,
                NULL, 0, 0 };
    const AttrVal *lane = ir_attr_get(&f->attrs, "lane");
    if (lane && lane->kind == AV_INT) l.k->lane = (int)lane->i;
    lower_find_ring(&l);
    lower_params(&l);
    lower_list(&l, &f->body, &l.k->body);
    return l.ok ? l.k : NULL;
}
