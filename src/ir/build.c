/* build: constructors for types, variables, expressions, statements, functions and programs;
 * the op table; enum names. Every node is allocated in the context's arena. */
#include "ir/ir.h"

#include <pthread.h>
#include <string.h>

/* ---- op table ---- */
static const OpInfo op_table[OP_COUNT] = {
#define OP(id, name, mn, mx, kw, reuse, flags) { name, mn, mx, kw, reuse, flags },
#include "ir/ops.def"
#undef OP
};

const OpInfo *ir_op_info(OpId op) {
    PTOC_ASSERT(op >= 0 && op < OP_COUNT, "bad op id %d", op);
    return &op_table[op];
}

/* Name -> op: a hash of the table built once (the parser looks up every call it reads, and a walk
 * of the whole table with strcmp was the largest part of parsing a long kernel). First entry of a
 * name wins, as the walk did. */
enum { OP_HASH = 1024 };
static short op_hash[OP_HASH];            /* op + 1, 0 = empty */
static pthread_once_t op_hash_once = PTHREAD_ONCE_INIT;

static unsigned op_name_hash(const char *s) {
    unsigned h = 2166136261u;
    for (; *s; s++) h = (h ^ (unsigned char)*s) * 16777619u;
    return h & (OP_HASH - 1);
}

static void op_hash_build(void) {
    _Static_assert(2 * OP_COUNT <= OP_HASH, "op hash too small");
    for (int i = 0; i < OP_COUNT; i++) {
        unsigned j = op_name_hash(op_table[i].name);
        while (op_hash[j] && strcmp(op_table[op_hash[j] - 1].name, op_table[i].name) != 0) j = (j + 1) & (OP_HASH - 1);
        if (!op_hash[j]) op_hash[j] = (short)(i + 1);
    }
}

OpId ir_op_lookup(const char *name) {
    pthread_once(&op_hash_once, op_hash_build);
    for (unsigned j = op_name_hash(name); op_hash[j]; j = (j + 1) & (OP_HASH - 1))
        if (strcmp(op_table[op_hash[j] - 1].name, name) == 0) return (OpId)(op_hash[j] - 1);
    return OP_NONE;
}

bool ir_op_accepts_kwarg(OpId op, const char *key) {
    const char *p = ir_op_info(op)->kwargs;
    size_t n = strlen(key);
    while (*p) {
        const char *e = strchr(p, ',');
        size_t len = e ? (size_t)(e - p) : strlen(p);
        if (len == n && strncmp(p, key, n) == 0) return true;
        if (!e) break;
        p = e + 1;
    }
    return false;
}

/* ---- enum names ---- */
static const char *functype_names[] = { "Opaque", "Orchestration", "InCore", "AIC", "AIV", "Group", "Spmd", "Inline", "Graph" };
static const char *level_names[] = { "AIV", "AIC", "CORE_GROUP", "CHIP_DIE", "CHIP", "HOST", "CLUSTER_0", "CLUSTER_1", "CLUSTER_2", "GLOBAL" };
static const char *argdir_names[] = { "input", "output", "inout", "output_existing", "no_dep", "scalar" };
static const char *tilelayout_names[] = { "none_box", "row_major", "col_major" };
static const char *pad_names[] = { "null", "zero", "max", "min" };

const char *ir_functype_name(FuncType t) { return functype_names[t]; }
const char *ir_level_name(Level l) { return l >= 0 && l <= LV_GLOBAL ? level_names[l] : "?"; }
const char *ir_role_name(Role r) { return r == ROLE_ORCHESTRATOR ? "Orchestrator" : r == ROLE_SUBWORKER ? "SubWorker" : "?"; }
const char *ir_argdir_name(ArgDir d) { return argdir_names[d]; }
const char *ir_tilelayout_name(TileLayout l) { return tilelayout_names[l]; }
const char *ir_pad_name(PadValue p) { return pad_names[p]; }

Level ir_functype_level(FuncType t) {
    switch (t) {
    case FT_ORCHESTRATION: case FT_GRAPH: return LV_CHIP;
    case FT_INCORE: return LV_CHIP_DIE;
    case FT_AIC: return LV_AIC;
    case FT_AIV: return LV_AIV;
    case FT_GROUP: return LV_CORE_GROUP;
    default: return LV_NONE;
    }
}

Role ir_functype_role(FuncType t) {
    switch (t) {
    case FT_ORCHESTRATION: case FT_GRAPH: return ROLE_ORCHESTRATOR;
    case FT_INCORE: case FT_AIC: case FT_AIV: case FT_GROUP: return ROLE_SUBWORKER;
    default: return ROLE_NONE;
    }
}

bool ir_functype_is_incore(FuncType t) { return t == FT_INCORE || t == FT_AIC || t == FT_AIV; }

static const char *binop_tokens[] = { "+", "-", "*", "//", "%", "/", NULL, NULL, "**", "==", "!=", "<", "<=", ">", ">=",
                                      "and", "or", NULL, "&", "|", "^", "<<", ">>" };
const char *ir_binop_token(BinOp op) { return binop_tokens[op]; }

/* ---- context ---- */
IrCtx *ir_ctx_new(DiagSink *diag) {
    Arena *a = arena_new();
    IrCtx *c = ARENA_NEW(a, IrCtx);
    c->arena = a;
    c->strs = intern_new(a);
    c->diag = diag;
    return c;
}

void ir_ctx_free(IrCtx *c) {
    if (!c) return;
    if (c->free_front_cache) c->free_front_cache(c->front_cache);
    arena_free(c->arena);
}

/* ---- types ---- */
static Type *type_new(IrCtx *c, TypeKind k, DType dt) {
    Type *t = ARENA_NEW(c->arena, Type);
    t->kind = k;
    t->dtype = dt;
    t->space = MS_NONE;
    return t;
}

Type *ir_scalar_type(IrCtx *c, DType dt) { return type_new(c, TY_SCALAR, dt); }

static void set_dims(IrCtx *c, Type *t, int rank, const int64_t *dims) {
    t->rank = rank;
    t->shape = ARENA_ARRAY(c->arena, Expr *, rank ? rank : 1);
    for (int i = 0; i < rank; i++) t->shape[i] = ir_const_int(c, dims[i], DT_INDEX);
}

Type *ir_tensor_type(IrCtx *c, DType dt, int rank, const int64_t *dims) {
    Type *t = type_new(c, TY_TENSOR, dt);
    set_dims(c, t, rank, dims);
    t->space = MS_DDR;
    return t;
}

Type *ir_tile_type(IrCtx *c, DType dt, int rank, const int64_t *dims, MemSpace space) {
    Type *t = type_new(c, TY_TILE, dt);
    set_dims(c, t, rank, dims);
    t->space = space;
    return t;
}

Type *ir_tuple_type(IrCtx *c, Type **elems, int n) {
    Type *t = type_new(c, TY_TUPLE, DT_NONE);
    t->elems = ARENA_ARRAY(c->arena, Type *, n ? n : 1);
    if (n) memcpy(t->elems, elems, sizeof(Type *) * (size_t)n);
    t->nelems = n;
    return t;
}

Type *ir_ptr_type(IrCtx *c) { return type_new(c, TY_PTR, DT_NONE); }

Type *ir_type_copy(IrCtx *c, const Type *t) {
    Type *n = ARENA_NEW(c->arena, Type);
    *n = *t;
    return n;
}

bool ir_type_static_dims(const Type *t, int64_t *dims) {
    for (int i = 0; i < t->rank; i++) {
        if (t->shape[i]->kind != EX_CONST_INT) return false;
        if (dims) dims[i] = t->shape[i]->ci.value;
    }
    return true;
}

int64_t ir_type_dim(const Type *t, int i) {
    PTOC_ASSERT(i >= 0 && i < t->rank && t->shape[i]->kind == EX_CONST_INT, "dim %d is not static", i);
    return t->shape[i]->ci.value;
}

bool ir_type_same_shape(const Type *a, const Type *b) {
    if (!a || !b) return a == b;
    if (a->kind != b->kind || a->dtype != b->dtype || a->rank != b->rank) return false;
    for (int i = 0; i < a->rank; i++) {
        int64_t x, y;
        if (ir_is_const_int(a->shape[i], &x) && ir_is_const_int(b->shape[i], &y) && x != y) return false;
    }
    if (a->kind == TY_TUPLE) {
        if (a->nelems != b->nelems) return false;
        for (int i = 0; i < a->nelems; i++)
            if (!ir_type_same_shape(a->elems[i], b->elems[i])) return false;
    }
    return true;
}

int64_t ir_type_numel(const Type *t) {
    int64_t n = 1;
    for (int i = 0; i < t->rank; i++)
        if (!checked_mul(n, ir_type_dim(t, i), &n)) return INT64_MAX;
    return n;
}

bool ir_shape_bytes(DType dt, const int64_t *dims, int rank, int64_t *bytes) {
    int64_t n;
    if (!checked_product(dims, rank, &n)) return false;
    int bits = dtype_bits(dt) > 0 ? dtype_bits(dt) : 8;
    if (bits % 8 == 0) return checked_mul(n, bits / 8, bytes);
    int64_t b;                                          /* sub-byte types pack into bytes */
    if (!checked_mul(n, bits, &b) || !checked_round_up(b, 8, &b)) return false;
    *bytes = b / 8;
    return true;
}

/* ---- variables and expressions ---- */
static Expr *expr_new(IrCtx *c, ExprKind k, Type *t) {
    Expr *e = ARENA_NEW(c->arena, Expr);
    e->kind = k;
    e->type = t;
    return e;
}

Var *ir_var_new(IrCtx *c, const char *name, Type *t) {
    Var *v = ARENA_NEW(c->arena, Var);
    v->name = intern_cstr(c->strs, name);
    v->type = t;
    v->id = c->next_var_id++;
    v->kind = VAR_PLAIN;
    v->ref = expr_new(c, EX_VAR, t);
    v->ref->var = v;
    return v;
}

Var *ir_iter_arg_new(IrCtx *c, const char *name, Type *t, Expr *init) {
    Var *v = ir_var_new(c, name, t);
    v->kind = VAR_ITER_ARG;
    v->init = init;
    return v;
}

/* The cached reference expression follows the variable's current type. */
Expr *ir_ref(Var *v) { v->ref->type = v->type; return v->ref; }

Expr *ir_const_int(IrCtx *c, int64_t v, DType dt) {
    Expr *e = expr_new(c, EX_CONST_INT, ir_scalar_type(c, dt));
    e->ci.value = v;
    return e;
}

Expr *ir_const_float(IrCtx *c, double v, DType dt) {
    Expr *e = expr_new(c, EX_CONST_FLOAT, ir_scalar_type(c, dt));
    e->cf.value = v;
    return e;
}

Expr *ir_const_bool(IrCtx *c, bool v) {
    Expr *e = expr_new(c, EX_CONST_BOOL, ir_scalar_type(c, DT_BOOL));
    e->cb.value = v;
    return e;
}

static bool binop_is_bool(BinOp op) { return (op >= BIN_EQ && op <= BIN_XOR); }

Expr *ir_binary(IrCtx *c, BinOp op, Expr *lhs, Expr *rhs) {
    DType dt = binop_is_bool(op) ? DT_BOOL : (lhs->type ? lhs->type->dtype : DT_INDEX);
    if (op == BIN_DIV && !dtype_is_float(dt)) dt = DT_FP32;
    Expr *e = expr_new(c, EX_BINARY, ir_scalar_type(c, dt));
    e->bin.op = op;
    e->bin.lhs = lhs;
    e->bin.rhs = rhs;
    return e;
}

Expr *ir_unary(IrCtx *c, UnOp op, Expr *operand, DType dt) {
    Expr *e = expr_new(c, EX_UNARY, ir_scalar_type(c, dt));
    e->un.op = op;
    e->un.operand = operand;
    return e;
}

Expr *ir_tuple(IrCtx *c, Expr **items, int n) {
    Type **ts = ARENA_ARRAY(c->arena, Type *, n ? n : 1);
    for (int i = 0; i < n; i++) ts[i] = items[i]->type;
    Expr *e = expr_new(c, EX_TUPLE, ir_tuple_type(c, ts, n));
    e->tuple.items = ARENA_ARRAY(c->arena, Expr *, n ? n : 1);
    if (n) memcpy(e->tuple.items, items, sizeof(Expr *) * (size_t)n);
    e->tuple.n = n;
    return e;
}

Expr *ir_int_tuple(IrCtx *c, const int64_t *vals, int n) {
    Expr *items[8];
    PTOC_ASSERT(n <= 8, "tuple too long");
    for (int i = 0; i < n; i++) items[i] = ir_const_int(c, vals[i], DT_INDEX);
    return ir_tuple(c, items, n);
}

Expr *ir_enum_mem(IrCtx *c, MemSpace m) {
    Expr *e = expr_new(c, EX_ENUM, NULL);
    e->enm = ir_av_mem(m);
    return e;
}

Expr *ir_call(IrCtx *c, OpId op, Expr **args, int nargs) {
    Expr *e = expr_new(c, EX_CALL, NULL);
    e->call.op = op;
    e->call.args = ARENA_ARRAY(c->arena, Expr *, nargs ? nargs : 1);
    if (nargs) memcpy(e->call.args, args, sizeof(Expr *) * (size_t)nargs);
    e->call.nargs = nargs;
    return e;
}

Expr *ir_call_fn(IrCtx *c, Function *f, Expr **args, int nargs) {
    Expr *e = ir_call(c, OP_NONE, args, nargs);
    e->call.callee = f;
    e->call.callee_name = f->name;
    if (f->nreturns == 1) e->type = f->return_types[0];
    else if (f->nreturns > 1) e->type = ir_tuple_type(c, f->return_types, f->nreturns);
    return e;
}

/* ---- attributes ---- */
void ir_attr_set(IrCtx *c, AttrList *l, const char *key, AttrVal v) {
    key = intern_cstr(c->strs, key);
    for (int i = 0; i < l->len; i++)
        if (strcmp(l->items[i].key, key) == 0) { l->items[i].val = v; return; }
    if (l->len == l->cap) {
        int cap = l->cap ? l->cap * 2 : 4;
        Attr *n = ARENA_ARRAY(c->arena, Attr, cap);
        if (l->len) memcpy(n, l->items, sizeof(Attr) * (size_t)l->len);
        l->items = n;
        l->cap = cap;
    }
    l->items[l->len++] = (Attr){ key, v };
}

const AttrVal *ir_attr_get(const AttrList *l, const char *key) {
    for (int i = 0; i < l->len; i++)
        if (strcmp(l->items[i].key, key) == 0) return &l->items[i].val;
    return NULL;
}

void ir_attr_remove(AttrList *l, const char *key) {
    for (int i = 0; i < l->len; i++)
        if (strcmp(l->items[i].key, key) == 0) {
            memmove(l->items + i, l->items + i + 1, sizeof(Attr) * (size_t)(l->len - i - 1));
            l->len--;
            return;
        }
}

AttrVal ir_av_int(int64_t i) { return (AttrVal){ .kind = AV_INT, .i = i }; }
AttrVal ir_av_bool(bool b) { return (AttrVal){ .kind = AV_BOOL, .i = b }; }
AttrVal ir_av_str(const char *s) { return (AttrVal){ .kind = AV_STR, .s = s }; }
AttrVal ir_av_dtype(DType d) { return (AttrVal){ .kind = AV_DTYPE, .dtype = d }; }
AttrVal ir_av_mem(MemSpace m) { return (AttrVal){ .kind = AV_MEM, .mem = m }; }
AttrVal ir_av_enum(const char *q) { return (AttrVal){ .kind = AV_ENUM, .s = q }; }

/* ---- statements ---- */
static Stmt *stmt_new(IrCtx *c, StmtKind k) {
    Stmt *s = ARENA_NEW(c->arena, Stmt);
    s->kind = k;
    return s;
}

Stmt *ir_assign(IrCtx *c, Var *v, Expr *value) {
    Stmt *s = stmt_new(c, ST_ASSIGN);
    s->assign.var = v;
    s->assign.value = value;
    return s;
}

Stmt *ir_eval(IrCtx *c, Expr *e) {
    Stmt *s = stmt_new(c, ST_EVAL);
    s->eval.expr = e;
    return s;
}

static Expr **copy_exprs(IrCtx *c, Expr **v, int n) {
    Expr **p = ARENA_ARRAY(c->arena, Expr *, n ? n : 1);
    if (n) memcpy(p, v, sizeof(Expr *) * (size_t)n);
    return p;
}

Stmt *ir_yield(IrCtx *c, Expr **values, int n) {
    Stmt *s = stmt_new(c, ST_YIELD);
    s->yield.values = copy_exprs(c, values, n);
    s->yield.n = n;
    return s;
}

Stmt *ir_return(IrCtx *c, Expr **values, int n) {
    Stmt *s = stmt_new(c, ST_RETURN);
    s->ret.values = copy_exprs(c, values, n);
    s->ret.n = n;
    return s;
}

Stmt *ir_for(IrCtx *c, Var *loop_var, Expr *start, Expr *stop, Expr *step, ForKind kind) {
    Stmt *s = stmt_new(c, ST_FOR);
    s->for_.loop_var = loop_var;
    s->for_.start = start;
    s->for_.stop = stop;
    s->for_.step = step;
    s->for_.kind = kind;
    return s;
}

Stmt *ir_if(IrCtx *c, Expr *cond) {
    Stmt *s = stmt_new(c, ST_IF);
    s->if_.cond = cond;
    return s;
}

Stmt *ir_scope(IrCtx *c, ScopeKind kind) {
    Stmt *s = stmt_new(c, ST_SCOPE);
    s->scope.kind = kind;
    s->scope.level = kind == SC_INCORE ? LV_CORE_GROUP : LV_NONE;
    return s;
}

void ir_list_insert(IrCtx *c, StmtList *l, int at, Stmt *s) {
    PTOC_ASSERT(at >= 0 && at <= l->len, "bad insert position %d", at);
    if (l->len == l->cap) {
        int cap = l->cap ? l->cap * 2 : 8;
        Stmt **n = ARENA_ARRAY(c->arena, Stmt *, cap);
        if (l->len) memcpy(n, l->items, sizeof(Stmt *) * (size_t)l->len);
        l->items = n;
        l->cap = cap;
    }
    memmove(l->items + at + 1, l->items + at, sizeof(Stmt *) * (size_t)(l->len - at));
    l->items[at] = s;
    l->len++;
}

void ir_list_push(IrCtx *c, StmtList *l, Stmt *s) { ir_list_insert(c, l, l->len, s); }

void ir_varlist_push(IrCtx *c, VarList *l, Var *v) {
    if (l->len == l->cap) {
        int cap = l->cap ? l->cap * 2 : 4;
        Var **n = ARENA_ARRAY(c->arena, Var *, cap);
        if (l->len) memcpy(n, l->items, sizeof(Var *) * (size_t)l->len);
        l->items = n;
        l->cap = cap;
    }
    l->items[l->len++] = v;
}

/* ---- functions and programs ---- */
void ir_func_set_type(Function *f, FuncType t) {
    f->type = t;
    f->level = ir_functype_level(t);
    f->role = ir_functype_role(t);
}

Function *ir_func_new(IrCtx *c, const char *name, FuncType t) {
    Function *f = ARENA_NEW(c->arena, Function);
    f->name = intern_cstr(c->strs, name);
    ir_func_set_type(f, t);
    return f;
}

void ir_func_add_param(IrCtx *c, Function *f, Var *v, ParamDir d) {
    int n = f->params.len;
    ParamDir *dirs = ARENA_ARRAY(c->arena, ParamDir, n + 1);
    if (n) memcpy(dirs, f->param_dirs, sizeof(ParamDir) * (size_t)n);
    dirs[n] = d;
    f->param_dirs = dirs;
    ir_varlist_push(c, &f->params, v);
}

Program *ir_program_new(IrCtx *c, const char *name) {
    Program *p = ARENA_NEW(c->arena, Program);
    p->name = intern_cstr(c->strs, name);
    return p;
}

void ir_program_add(IrCtx *c, Program *p, Function *f) {
    if (p->nfuncs == p->capfuncs) {
        int cap = p->capfuncs ? p->capfuncs * 2 : 4;
        Function **n = ARENA_ARRAY(c->arena, Function *, cap);
        if (p->nfuncs) memcpy(n, p->funcs, sizeof(Function *) * (size_t)p->nfuncs);
        p->funcs = n;
        p->capfuncs = cap;
    }
    int at = p->nfuncs;
    while (at > 0 && strcmp(p->funcs[at - 1]->name, f->name) > 0) at--;
    memmove(p->funcs + at + 1, p->funcs + at, sizeof(Function *) * (size_t)(p->nfuncs - at));
    p->funcs[at] = f;
    p->nfuncs++;
}

Function *ir_program_find(const Program *p, const char *name) {
    for (int i = 0; i < p->nfuncs; i++)
        if (strcmp(p->funcs[i]->name, name) == 0) return p->funcs[i];
    return NULL;
}
