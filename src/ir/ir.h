/* ir — the program representation every pass reads and writes (spec/ir_and_passes.md §2).
 *
 * Nodes live in the compilation's arena (IrCtx). A Var is identified by its address, never by its
 * name; name_hint is cosmetic. Statement bodies are StmtLists (arena-backed growable arrays), so a
 * "SeqStmts" is simply a body and is flat by construction. Types are immutable once attached:
 * a pass that retypes a variable assigns a new Type pointer.
 *
 * Conventions:
 *   - every Expr has a type (Scalar for scalars, Tensor/Tile for shaped values, Tuple for lists);
 *   - integer literals written bare in the DSL are ConstInt of dtype INDEX; pl.const(v, pl.INT64)
 *     is ConstInt of dtype INT64;
 *   - offsets and shapes are EX_TUPLE of scalar expressions, printed as [a, b];
 *   - a Call has either an op (OpId) or a callee (Function *, printed self.<name>(...)).
 */
#ifndef PTOC_IR_H
#define PTOC_IR_H

#include "base/base.h"
#include "base/dtype.h"

typedef struct Type Type;
typedef struct Expr Expr;
typedef struct Stmt Stmt;
typedef struct Var Var;
typedef struct Function Function;
typedef struct Program Program;

/* ---------------------------------------------------------------- op table */
enum {
    OPF_TENSOR = 1 << 0,          /* tensor-level op (orchestration-visible, before tile lowering) */
    OPF_TILE = 1 << 1,            /* tile-level op */
    OPF_VIEW = 1 << 2,            /* zero-copy view of its first input */
    OPF_LOAD = 1 << 3,            /* CanonicalizeIOOrder "Load" tier */
    OPF_STORE = 1 << 4,           /* CanonicalizeIOOrder "Store" tier */
    OPF_CUBE = 1 << 5,            /* matmul family: output in Acc, runs on the cube */
    OPF_NOT_INPLACE_SAFE = 1 << 6,/* output may not share an input's buffer */
    OPF_ALLOC_ONLY = 1 << 7,      /* allocation only, no instruction */
    OPF_VEC = 1 << 8,             /* vector-unit op (spec/ops.md): tile form on the V pipe, Vec tiles */
    OPF_ACCESS = 1 << 9,          /* scalar element access (read / write) on the scalar pipe */
};

typedef enum {
#define OP(id, name, mn, mx, kw, reuse, flags) OP_##id,
#include "ir/ops.def"
#undef OP
    OP_COUNT,
    OP_NONE = -1
} OpId;

typedef struct OpInfo {
    const char *name;             /* "tile.matmul" */
    int min_args, max_args;
    const char *kwargs;           /* "target_memory,clamp" */
    int reuses_input;             /* -1 or input index */
    unsigned flags;
} OpInfo;

const OpInfo *ir_op_info(OpId op);

/* Vector ops (OPF_VEC) by operand convention (the comment above their rows in ops.def). */
typedef enum {
    VK_NONE, VK_BINARY, VK_SCALAR, VK_UNARY, VK_CAST, VK_FULL, VK_EXPANDS, VK_FILLPAD,
    VK_ROW_REDUCE, VK_COL_REDUCE, VK_ROW_EXPAND, VK_COL_EXPAND, VK_RESHAPE, VK_CMP, VK_CMPS, VK_SEL,
    VK_TRANSPOSE, VK_TRANSPOSE_VIEW, VK_CONCAT, VK_SELS,
    VK_ROW_ARG, VK_COL_ARG, VK_FILLPAD_EXPAND, VK_SLICE,   /* row/col_argmax/argmin, fillpad_expand, tile slice */
    VK_COMPOSITE                                           /* sin, cos: expanded by LowerCompositeOps */
} VecKind;
VecKind ir_vec_kind(OpId op);                   /* VK_NONE for other ops */
OpId ir_vec_tile_op(OpId tensor_op);            /* tensor.X -> tile.X */
const char *ir_vec_short_name(OpId op);         /* "row_expand_sub" */
int ir_vec_round_mode(const char *s);           /* "rint" -> DT_ROUND_RINT; -1 when unknown */
int ir_vec_cast_mode(const Expr *call);         /* a cast's mode= option (default round) */
typedef struct AttrVal AttrVal;
int ir_vec_pad_value(const AttrVal *v);         /* pad_value= option -> PAD_*; PAD_ZERO when absent; -1 invalid */
int ir_vec_cmp_type(const Expr *call);          /* cmp_type= option 0..5 (default 0 = eq); -1 invalid */
OpId ir_op_lookup(const char *name);            /* "tile.matmul" -> OP_TILE_MATMUL, else OP_NONE */
bool ir_op_accepts_kwarg(OpId op, const char *key);

/* ---------------------------------------------------------------- enums */
typedef enum { FT_OPAQUE = 0, FT_ORCHESTRATION, FT_INCORE, FT_AIC, FT_AIV, FT_GROUP, FT_SPMD, FT_INLINE, FT_GRAPH } FuncType;
typedef enum { LV_AIV = 0, LV_AIC, LV_CORE_GROUP, LV_CHIP_DIE, LV_CHIP, LV_HOST, LV_CLUSTER_0, LV_CLUSTER_1, LV_CLUSTER_2, LV_GLOBAL, LV_NONE = -1 } Level;
typedef enum { ROLE_ORCHESTRATOR = 0, ROLE_SUBWORKER, ROLE_NONE = -1 } Role;
typedef enum { PD_IN = 0, PD_OUT, PD_INOUT } ParamDir;
typedef enum { AD_INPUT = 0, AD_OUTPUT, AD_INOUT, AD_OUTPUT_EXISTING, AD_NO_DEP, AD_SCALAR } ArgDir;
typedef enum { FK_SEQUENTIAL = 0, FK_PARALLEL, FK_UNROLL, FK_PIPELINE } ForKind;
typedef enum { TL_NONE_BOX = 0, TL_ROW_MAJOR, TL_COL_MAJOR } TileLayout;
typedef enum { PAD_NULL = 0, PAD_ZERO, PAD_MAX, PAD_MIN } PadValue;
typedef enum { TLAYOUT_ND = 0, TLAYOUT_DN, TLAYOUT_NZ } TensorLayout;

const char *ir_functype_name(FuncType t);       /* "InCore" (pl.FunctionType.InCore) */
const char *ir_level_name(Level l);             /* "CORE_GROUP" */
const char *ir_role_name(Role r);               /* "SubWorker" */
const char *ir_argdir_name(ArgDir d);           /* "output_existing" (pl.adir.output_existing) */
const char *ir_tilelayout_name(TileLayout l);   /* "row_major" */
const char *ir_pad_name(PadValue p);            /* "zero" */
Level ir_functype_level(FuncType t);            /* derived level, LV_NONE for Opaque/Inline */
Role ir_functype_role(FuncType t);
bool ir_functype_is_incore(FuncType t);         /* InCore, AIC, AIV */

/* ---------------------------------------------------------------- attribute values */
/* Call kwargs (user-level options such as target_memory=pl.Mem.Left), call attrs (compiler
 * metadata such as arg_directions), loop attrs and function attrs all hold AttrVals. */
typedef enum { AV_INT, AV_FLOAT, AV_BOOL, AV_STR, AV_DTYPE, AV_MEM, AV_ENUM, AV_LIST, AV_EXPR } AttrKind;
typedef struct AttrVal AttrVal;
struct AttrVal {
    AttrKind kind;
    int64_t i;                    /* AV_INT, AV_BOOL */
    double f;                     /* AV_FLOAT */
    const char *s;                /* AV_STR (unquoted text); AV_ENUM: qualified name e.g. "pl.adir.input" */
    DType dtype;                  /* AV_DTYPE */
    MemSpace mem;                 /* AV_MEM */
    AttrVal *items; int nitems;   /* AV_LIST */
    Expr *expr;                   /* AV_EXPR */
};
typedef struct Attr { const char *key; AttrVal val; } Attr;
typedef struct AttrList { Attr *items; int len, cap; } AttrList;

/* ---------------------------------------------------------------- types */
typedef struct TileView {
    Expr **valid_shape; int nvalid;   /* empty = equal to shape */
    Expr **stride; int nstride;
    Expr *start_offset;               /* NULL = none */
    TileLayout blayout, slayout;
    int64_t fractal;                  /* bytes */
    PadValue pad;
    bool compact;                     /* compact = normal */
} TileView;

typedef struct MemRef {
    Var *base;                        /* Ptr-typed variable (defined by tile.alloc, or a DDR name) */
    int64_t offset;                   /* byte offset; absolute address after AllocateMemoryAddr */
    int64_t size;                     /* bytes */
} MemRef;

typedef enum { TY_SCALAR, TY_TENSOR, TY_TILE, TY_TUPLE, TY_PTR, TY_UNKNOWN } TypeKind;
struct Type {
    TypeKind kind;
    DType dtype;                      /* scalar, tensor, tile */
    Expr **shape; int rank;           /* tensor, tile: ConstInt (or Var for dynamic dims) */
    MemRef *memref;                   /* tensor, tile: optional */
    MemSpace space;                   /* tile: MS_NONE until known; tensor: MS_DDR */
    TileView *view;                   /* tile: explicit view, NULL = implicit view of (shape, space) */
    TensorLayout layout;              /* tensor: ND / DN / NZ */
    Type **elems; int nelems;         /* tuple */
};

/* ---------------------------------------------------------------- expressions */
typedef enum {
    EX_VAR, EX_CONST_INT, EX_CONST_FLOAT, EX_CONST_BOOL, EX_BINARY, EX_UNARY, EX_CALL,
    EX_TUPLE, EX_TUPLE_GET, EX_ENUM
} ExprKind;

typedef enum {
    BIN_ADD, BIN_SUB, BIN_MUL, BIN_FLOORDIV, BIN_FLOORMOD, BIN_DIV, BIN_MIN, BIN_MAX, BIN_POW,
    BIN_EQ, BIN_NE, BIN_LT, BIN_LE, BIN_GT, BIN_GE, BIN_AND, BIN_OR, BIN_XOR,
    BIN_BITAND, BIN_BITOR, BIN_BITXOR, BIN_SHL, BIN_SHR
} BinOp;
typedef enum { UN_NEG, UN_NOT, UN_ABS, UN_BITNOT, UN_CAST } UnOp;

const char *ir_binop_token(BinOp op);   /* "+", "==", "and", "//" ; NULL for min/max/pow (printed as calls) */

typedef enum { VAR_PLAIN, VAR_ITER_ARG } VarKind;
struct Var {
    const char *name;                 /* name_hint */
    Type *type;
    int id;                           /* unique per IrCtx; identity is the pointer */
    VarKind kind;
    Expr *init;                       /* VAR_ITER_ARG: the init value */
    Expr *ref;                        /* the EX_VAR expression referring to this var (cached) */
    Span span;
};

struct Expr {
    ExprKind kind;
    Type *type;
    Span span;
    union {
        Var *var;                                           /* EX_VAR */
        struct { int64_t value; } ci;                       /* EX_CONST_INT  (type->dtype: INDEX, INT64, ...) */
        struct { double value; } cf;                        /* EX_CONST_FLOAT */
        struct { bool value; } cb;                          /* EX_CONST_BOOL */
        struct { BinOp op; Expr *lhs, *rhs; } bin;          /* EX_BINARY */
        struct { UnOp op; Expr *operand; } un;              /* EX_UNARY (UN_CAST: type->dtype is the target) */
        struct {
            OpId op;                                        /* OP_NONE for a function call */
            Function *callee;                               /* function call target */
            const char *callee_name;                        /* as written, resolved after parsing */
            Expr **args; int nargs;
            AttrList kwargs;                                /* user options, printed k=v */
            AttrList attrs;                                 /* compiler metadata, printed attrs={...} */
        } call;
        struct { Expr **items; int n; } tuple;              /* EX_TUPLE */
        struct { Expr *tuple; int index; } tget;            /* EX_TUPLE_GET */
        AttrVal enm;                                        /* EX_ENUM: AV_MEM / AV_DTYPE / AV_ENUM positional */
    };
};

/* ---------------------------------------------------------------- statements */
typedef struct StmtList { Stmt **items; int len, cap; } StmtList;
typedef struct VarList { Var **items; int len, cap; } VarList;

typedef enum { ST_ASSIGN, ST_EVAL, ST_IF, ST_FOR, ST_WHILE, ST_YIELD, ST_RETURN, ST_SCOPE } StmtKind;
typedef enum { SC_INCORE, SC_RUNTIME, SC_SPMD, SC_CLUSTER, SC_HIERARCHY } ScopeKind;

struct Stmt {
    StmtKind kind;
    Span span;
    union {
        struct { Var *var; Expr *value; } assign;                       /* var: definition */
        struct { Expr *expr; } eval;
        struct { Expr *cond; StmtList then_body, else_body; bool has_else; VarList return_vars; } if_;
        struct {
            Var *loop_var;                                              /* definition, Scalar INDEX */
            Expr *start, *stop, *step;
            VarList iter_args;                                          /* VAR_ITER_ARG, init set */
            StmtList body;
            VarList return_vars;
            ForKind kind;
            AttrList attrs;                                             /* pipeline_stages, ... */
        } for_;
        struct { Expr *cond; VarList iter_args; StmtList body; VarList return_vars; } while_;
        struct { Expr **values; int n; } yield;
        struct { Expr **values; int n; } ret;
        struct {
            ScopeKind kind;
            Level level;                                                /* SC_INCORE / SC_HIERARCHY */
            const char *name_hint;                                      /* NULL = none */
            bool manual;                                                /* SC_RUNTIME */
            Expr *core_num;                                             /* SC_SPMD */
            Var *task_var;                                              /* `with pl.at(...) as tid`: defined after the body, Scalar TASK_ID */
            AttrList kwargs;                                            /* other printed options (deps=[...]) */
            StmtList body;
        } scope;
    };
};

/* ---------------------------------------------------------------- functions and programs */
struct Function {
    const char *name;
    VarList params;
    ParamDir *param_dirs;                 /* params.len entries */
    Type **return_types; int nreturns;
    StmtList body;
    FuncType type;
    Level level;                          /* derived from type unless Opaque */
    Role role;
    AttrList attrs;                       /* auto_scope, ... (printed in the decorator) */
    Span span;
};

struct Program {
    const char *name;
    Function **funcs; int nfuncs, capfuncs;   /* kept sorted by name */
};

/* ---------------------------------------------------------------- context */
typedef struct IrCtx {
    Arena *arena;
    Interner *strs;
    int next_var_id;
    DiagSink *diag;                       /* user-facing diagnostics */
    void *front_cache;                    /* the front end's last lexed file (front/lex.c), or NULL */
    void (*free_front_cache)(void *);     /* called by ir_ctx_free */
} IrCtx;

IrCtx *ir_ctx_new(DiagSink *diag);        /* owns a fresh arena */
void ir_ctx_free(IrCtx *c);

/* ---------------------------------------------------------------- builders (ir/build.c) */
Type *ir_scalar_type(IrCtx *c, DType dt);
Type *ir_tensor_type(IrCtx *c, DType dt, int rank, const int64_t *dims);
Type *ir_tile_type(IrCtx *c, DType dt, int rank, const int64_t *dims, MemSpace space);
Type *ir_tuple_type(IrCtx *c, Type **elems, int n);
Type *ir_ptr_type(IrCtx *c);
Type *ir_type_copy(IrCtx *c, const Type *t);          /* shallow copy: new node, shared sub-exprs */
bool ir_type_static_dims(const Type *t, int64_t *dims);  /* false if any dim is dynamic */
int64_t ir_type_dim(const Type *t, int i);            /* static dim i (asserts) */
/* Kind, dtype, rank and static dims agree (MemRef, space, view and layout aside): the value-level
 * type equality an annotation, a yield or a branch merge must keep. */
bool ir_type_same_shape(const Type *a, const Type *b);
int64_t ir_type_numel(const Type *t);                 /* static element count (asserts); INT64_MAX when it overflows */
/* Bytes of a packed array of `rank` dims of dtype dt; false when the count overflows int64. */
bool ir_shape_bytes(DType dt, const int64_t *dims, int rank, int64_t *bytes);

Var *ir_var_new(IrCtx *c, const char *name, Type *t);
Var *ir_iter_arg_new(IrCtx *c, const char *name, Type *t, Expr *init);
Expr *ir_ref(Var *v);                                  /* the EX_VAR expression of v */
Expr *ir_const_int(IrCtx *c, int64_t v, DType dt);     /* dt usually DT_INDEX */
Expr *ir_const_float(IrCtx *c, double v, DType dt);
Expr *ir_const_bool(IrCtx *c, bool v);
Expr *ir_binary(IrCtx *c, BinOp op, Expr *lhs, Expr *rhs);    /* result dtype: BOOL for compare/logic, else lhs's */
Expr *ir_unary(IrCtx *c, UnOp op, Expr *operand, DType dt);
Expr *ir_tuple(IrCtx *c, Expr **items, int n);
Expr *ir_int_tuple(IrCtx *c, const int64_t *vals, int n);     /* [v0, v1, ...] of INDEX constants */
Expr *ir_enum_mem(IrCtx *c, MemSpace m);
Expr *ir_call(IrCtx *c, OpId op, Expr **args, int nargs);     /* type left NULL: call ir_deduce_call */
Expr *ir_call_fn(IrCtx *c, Function *f, Expr **args, int nargs);
void ir_attr_set(IrCtx *c, AttrList *l, const char *key, AttrVal v);  /* replaces an existing key */
const AttrVal *ir_attr_get(const AttrList *l, const char *key);       /* NULL if absent */
void ir_attr_remove(AttrList *l, const char *key);
AttrVal ir_av_int(int64_t i);
AttrVal ir_av_bool(bool b);
AttrVal ir_av_str(const char *s);
AttrVal ir_av_dtype(DType d);
AttrVal ir_av_mem(MemSpace m);
AttrVal ir_av_enum(const char *qualified);

Stmt *ir_assign(IrCtx *c, Var *v, Expr *value);
Stmt *ir_eval(IrCtx *c, Expr *e);
Stmt *ir_yield(IrCtx *c, Expr **values, int n);
Stmt *ir_return(IrCtx *c, Expr **values, int n);
Stmt *ir_for(IrCtx *c, Var *loop_var, Expr *start, Expr *stop, Expr *step, ForKind kind);
Stmt *ir_if(IrCtx *c, Expr *cond);
Stmt *ir_scope(IrCtx *c, ScopeKind kind);
void ir_list_push(IrCtx *c, StmtList *l, Stmt *s);
void ir_list_insert(IrCtx *c, StmtList *l, int at, Stmt *s);
void ir_varlist_push(IrCtx *c, VarList *l, Var *v);

Function *ir_func_new(IrCtx *c, const char *name, FuncType t);
void ir_func_add_param(IrCtx *c, Function *f, Var *v, ParamDir d);
void ir_func_set_type(Function *f, FuncType t);       /* also sets derived level and role */
Program *ir_program_new(IrCtx *c, const char *name);
void ir_program_add(IrCtx *c, Program *p, Function *f);   /* keeps sorted by name */
Function *ir_program_find(const Program *p, const char *name);

/* ---------------------------------------------------------------- type deduction (ir/deduce.c) */
/* Sets call->type from the op table rules; on a user error reports through c->diag at the call's
 * span (naming operand, shape, dtype) and returns false. */
bool ir_deduce_call(IrCtx *c, Expr *call);
/* The implicit tile view for (shape, space) (spec §2.4 table). */
TileView ir_implicit_view(const Type *tile);
/* The effective view: the explicit one if present, else the implicit one. */
TileView ir_effective_view(const Type *tile);
bool ir_view_equal(const TileView *a, const TileView *b);
/* Physical bytes of a tile type: rows rounded to the box (and L0C rows to l0c_align_m), cols to the
 * box, times element size. l0c_align_m is the target's accumulator row alignment. */
int64_t ir_tile_physical_bytes(const Type *tile, int64_t l0c_align_m);

/* ---------------------------------------------------------------- walking and rewriting (ir/util.c) */
/* substitution Var -> Expr, in insertion order; slot is a hash index (1 + entry, 0 empty) so that
 * put / get are O(1) — passes build maps as large as a function */
typedef struct VarMap { Var **from; Expr **to; int len, cap; int *slot; int nslot; } VarMap;
void ir_varmap_put(VarMap *m, Var *from, Expr *to);
Expr *ir_varmap_get(const VarMap *m, const Var *from);
void ir_varmap_free(VarMap *m);
/* Deep copy with substitution; every definition inside gets a fresh Var (recorded in m). */
Expr *ir_clone_expr(IrCtx *c, Expr *e, VarMap *m);
Stmt *ir_clone_stmt(IrCtx *c, Stmt *s, VarMap *m);
/* In-place substitution of variable uses (definitions untouched). */
Expr *ir_subst_expr(IrCtx *c, Expr *e, const VarMap *m);
void ir_subst_stmts(IrCtx *c, StmtList *l, const VarMap *m);
/* Visits every expression reachable from a statement list (pre-order, nested bodies included). */
typedef void (*ExprVisitor)(Expr *e, void *ud);
void ir_visit_exprs(StmtList *l, ExprVisitor fn, void *ud);
void ir_visit_expr(Expr *e, ExprVisitor fn, void *ud);
void ir_visit_attrs(const AttrList *l, ExprVisitor fn, void *ud);   /* AV_EXPR values, lists included */
void ir_subst_attrs(IrCtx *c, AttrList *l, const VarMap *m);
bool ir_expr_uses_var(Expr *e, const Var *v);
bool ir_stmts_use_var(StmtList *l, const Var *v);
bool ir_is_const_int(const Expr *e, int64_t *out);
/* Constant folding of scalar integer/boolean expressions; returns e when not foldable. */
Expr *ir_fold(IrCtx *c, Expr *e);

/* ---------------------------------------------------------------- scalar arithmetic (ir/scalar.c) */
/* The one evaluator of scalar operators, with Python semantics on int64 / double / bool, used by
 * constant folding, the interpreter and the runtime. Python ints are unbounded: a result outside
 * int64 is SCALAR_OVERFLOW, never a wrapped value. */
typedef enum { SV_INT, SV_FLOAT, SV_BOOL } ScalarKind;
typedef struct ScalarVal { ScalarKind kind; int64_t i; double f; } ScalarVal;   /* i: SV_INT, SV_BOOL (0/1) */
typedef enum {
    SCALAR_OK = 0, SCALAR_OVERFLOW, SCALAR_DIVISION_BY_ZERO, SCALAR_NEGATIVE_SHIFT, SCALAR_FLOAT_OPERAND,
    SCALAR_COMPLEX, SCALAR_NAN_TO_INT, SCALAR_BAD_CAST, SCALAR_BAD_OPERATOR
} ScalarErr;
ScalarVal ir_scalar_int(int64_t v);
ScalarVal ir_scalar_float(double v);
ScalarVal ir_scalar_bool(bool v);
bool ir_scalar_truthy(ScalarVal v);
ScalarErr ir_scalar_binary(BinOp op, ScalarVal a, ScalarVal b, ScalarVal *out);
/* The same, then an int result becomes a float when the expression's dtype is a float type. */
ScalarErr ir_scalar_binary_typed(BinOp op, DType result_dtype, ScalarVal a, ScalarVal b, ScalarVal *out);
/* cast_dtype: the target of UN_CAST (ints wrap to the width, floats round to it), else ignored. */
ScalarErr ir_scalar_unary(UnOp op, DType cast_dtype, ScalarVal v, ScalarVal *out);
/* One-line explanations naming the operation and its operands, e.g. "integer overflow: 2 ** 64
 * does not fit in a 64-bit integer (...)". */
void ir_scalar_binary_error(ScalarErr e, BinOp op, ScalarVal a, ScalarVal b, StrBuf *out);
void ir_scalar_unary_error(ScalarErr e, UnOp op, DType cast_dtype, ScalarVal v, StrBuf *out);

/* ---------------------------------------------------------------- printing (ir/print.c) */
typedef struct PrintOpts { bool concise; /* drop assignment annotations */ } PrintOpts;
void ir_print_program(const Program *p, StrBuf *out, PrintOpts o);
void ir_print_function(const Function *f, StrBuf *out, PrintOpts o);
void ir_print_expr(const Expr *e, StrBuf *out);
void ir_print_type(const Type *t, StrBuf *out);
void ir_print_stmt(const Stmt *s, StrBuf *out, int indent, PrintOpts o);

/* ---------------------------------------------------------------- equality (ir/equal.c) */
/* Structural equality modulo variable renaming (definitions are auto-mapped; spans and name hints
 * ignored). On mismatch writes a one-line reason to why (may be NULL). */
bool ir_program_equal(const Program *a, const Program *b, StrBuf *why);
bool ir_function_equal(const Function *a, const Function *b, StrBuf *why);

/* ---------------------------------------------------------------- verification (ir/verify.c) */
typedef enum {
    IRP_SSA = 1 << 0,                 /* every Var defined once; uses dominated by definitions */
    IRP_SPLIT_INCORE_ORCH = 1 << 1,   /* no InCore scopes remain inside functions */
    IRP_INCORE_TILE_OPS = 1 << 2,     /* InCore functions use tile ops only */
    IRP_TILE_MEMORY = 1 << 3,         /* every tile has a memory space */
    IRP_HAS_MEMREFS = 1 << 4,         /* every tile/tensor var of InCore functions has a MemRef */
    IRP_ALLOCATED = 1 << 5,           /* every MemRef has an address inside capacity */
} IrProp;
/* Checks the structural invariants always, plus the requested properties. Violations are reported
 * to diag as errors (internal: a pass broke an invariant). Returns true when clean. */
bool ir_verify(const Program *p, unsigned props, DiagSink *diag);

/* ---------------------------------------------------------------- user rules (ir/check.c) */
/* The rules a parsed program must keep that no single statement shows: where scopes may appear
 * (pl.at regions only in Opaque / Orchestration functions, not nested, without 'return'; pl.spmd not
 * inside kernels; pl.cluster and pl.at at other levels not supported) and no discarded load / move
 * / extract / matmul / slice. Located user errors; run before the pass pipeline. */
bool ir_check_program(const Program *p, DiagSink *diag);

#endif
