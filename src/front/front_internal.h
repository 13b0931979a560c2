/* front_internal — private interface of the front end (lexer, parser pieces, user-form sugar).
 *
 * Requires: base (arena, VEC, diagnostics), ir (builders, deduction).
 * Produces: the token stream of a Python source and the Parser state shared by parse*.c / sugar.c.
 * Error policy: the first error is reported through c->diag and sets p->failed; every parse
 * function then returns NULL/false quickly, so the parser never loops and never crashes. */
#ifndef PTOC_FRONT_INTERNAL_H
#define PTOC_FRONT_INTERNAL_H

#include "front/front.h"

/* ---------------------------------------------------------------- tokens */
typedef enum {
    TK_EOF, TK_NEWLINE, TK_INDENT, TK_DEDENT, TK_NAME, TK_INT, TK_FLOAT, TK_STRING, TK_OP, TK_ERROR
} TokKind;

typedef struct Tok {
    TokKind kind;
    const char *text;     /* interned: the name, the operator, the string contents (unquoted) */
    int64_t ival;         /* TK_INT: the value when it fits in int64 (see front_int_literal) */
    uint64_t uval;        /* TK_INT: the value when it fits in uint64 (2^63 is -INT64_MIN) */
    bool too_big;         /* TK_INT: the literal exceeds uint64 */
    double fval;          /* TK_FLOAT */
    Span span;
} Tok;

typedef VEC(Tok) TokVec;

/* Tokenises the whole file (Python rules: INDENT/DEDENT, implicit joining in brackets, '\'
 * continuations, comments, strings with prefixes, numbers with '_' separators). Lexical errors are
 * reported to diag; returns false then. Token texts are interned in strs. */
bool front_lex(const SrcFile *src, Interner *strs, DiagSink *diag, TokVec *out);
const char *front_tok_kind_name(TokKind k);
/* The tokens of src lexed in c, kept with c (until it is freed or another file is lexed this way):
 * readers that scan the same file one after another share one lex. NULL after a lexical error
 * (reported to c->diag). The tokens are the context's: do not free them. */
const TokVec *front_lex_cached(IrCtx *c, const SrcFile *src);

/* ---------------------------------------------------------------- compile-time constants
 * (consteval.c, module.c, scope.c): module constants (language.md §1.4) and the free names of a
 * program class nested in a builder (§1.3), evaluated before the class is parsed. */
typedef enum {
    CK_INT, CK_FLOAT,
    CK_UNKNOWN,                        /* assigned a value ptoc cannot evaluate (why) */
    CK_UNBOUND,                        /* a builder parameter without a value (why: what can be bound) */
    CK_DYNAMIC                         /* NAME = pl.dynamic("NAME") without a -D value */
} ConstKind;
typedef struct ConstSym {
    const char *name;                  /* interned */
    ConstKind kind;
    int64_t ival;
    double fval;
    Span span;                         /* the assignment or the parameter */
    const char *why;
    const char *scope;                 /* NULL at module level, else the builder ("build", "TestX.get_program") */
} ConstSym;
typedef VEC(ConstSym) ConstVec;
typedef struct CVal { bool is_float; int64_t i; double f; } CVal;

/* The constant expression at toks[*pos]; *pos ends after it. false with *why when not a constant. */
bool front_ceval(IrCtx *c, const Tok *toks, int ntoks, int *pos, const ConstVec *env, CVal *out, const char **why);
/* At the first token of a logical line `NAME [, NAME]* [: T] = RHS`: pushes one ConstSym per target
 * (a -D define of the name overrides the value) and returns the index of the line's NEWLINE; 0 when
 * the line is not such an assignment. */
int front_ceval_assign(IrCtx *c, const Tok *toks, int ntoks, int pos, ConstVec *env, const char *scope, const FrontBinding *b);
const ConstSym *front_const_find(const ConstVec *env, const char *name);          /* the last entry */
const FrontArg *front_define_find(const FrontBinding *b, const char *name);       /* a scalar -D define */
ConstSym front_const_from_define(const FrontArg *d, const char *name, Span sp);
/* One enclosing def / class of a nested @pl.program class (outermost first). */
typedef struct FrontFrame { bool is_def; const char *name; int pos; /* at 'def' / 'class' */ } FrontFrame;
/* Pushes the free names of a class nested in chain (parameters with their defaults, the literal
 * arguments of the builder's first call site in the file, -D defines; straight-line locals before
 * stop_pos) onto p->consts (scope.c). */
struct Parser;
void front_builder_scope(struct Parser *p, const FrontFrame *chain, int nchain, int stop_pos);
/* The module-level constants of a token stream, in file order (module.c). */
/* src: the file the tokens come from (its directory resolves `from .config import N`); NULL: no imports. */
void front_module_env(IrCtx *c, const SrcFile *src, const Tok *toks, int ntoks, const FrontBinding *b, ConstVec *out);

/* ---------------------------------------------------------------- parser state */
typedef struct Sym {
    const char *name;     /* interned */
    Var *var;             /* NULL for a compile-time constant */
    int64_t cval;
    bool too_big;         /* a module constant whose literal does not fit in int64 */
    int loop_depth;       /* Parser.loop_depth where var was created */
    Expr *lit;            /* var == NULL: a bound float / bool scalar parameter, substituted where read */
} Sym;

/* A @pl.jit.incore / @pl.jit.inline helper of the file (language.md §1.2), parsed at its first call. */
typedef struct JitHelper {
    const char *name;
    FuncType type;        /* FT_INCORE, FT_INLINE, FT_OPAQUE (@pl.jit.opaque: recognised, not supported) */
    int pos, deco_args;   /* the 'def' token; the decorator's '(' or -1 */
    Function *fn;         /* once parsed */
    bool parsing;         /* a call inside its own body (recursion) */
    int spliced;          /* inline: call sites spliced so far (names the copies' variables) */
} JitHelper;

typedef struct YieldCtx {  /* the enclosing For/If of a block: where a trailing pl.yield_ goes */
    bool seen;
    Stmt *yield;
    const char **names; Span *spans; Type **annots; int n;   /* left-hand targets */
    bool has_targets;
} YieldCtx;

typedef struct Parser {
    IrCtx *c;
    const SrcFile *src;
    Tok *toks; int ntoks;
    int pos;
    bool failed;
    bool user_form;                    /* @pl.jit body: constant folding */
    int depth;                         /* expression nesting guard */
    int loop_depth;                    /* for / while bodies around the statement being parsed */
    int64_t pipeline_clones;           /* product of the pl.pipeline stages around it (0 = 1) */
    int return_line;                   /* user form: the line of the first return, which fixes the
                                          function's return types (0 = none yet) */
    Program *prog;
    Function *fn;                      /* function being parsed */
    VEC(Sym) syms;                     /* function scope: one Var per name */
    ConstVec consts;                   /* module constants, then the builder scope of a nested class */
    const struct FrontExtern *externs; /* module-level @pl.function / @pl.inline defs the class calls */
    int nexterns;
    VEC(const char *) variables;       /* user form: names assigned twice, or inside if/for/while: never
                                          compile-time constants (their value depends on control flow) */
    const FrontBinding *binding;       /* the specialisation being parsed (NULL = none) */
    VEC(JitHelper) helpers;            /* @pl.jit.incore / inline helpers of the file (bind.c) */
    Span call_site;                    /* a helper being parsed: its first call (binds its parameters) */
} Parser;

/* token helpers (parse.c) */
Tok *front_peek(Parser *p, int ahead);
Tok *front_next(Parser *p);
bool front_is_op(Parser *p, const char *op);
bool front_is_op_at(Parser *p, int ahead, const char *op);
bool front_is_name(Parser *p, const char *name);
bool front_accept_op(Parser *p, const char *op);
bool front_expect_op(Parser *p, const char *op, const char *what);
const char *front_expect_name(Parser *p, const char *what, Span *sp);
void front_error(Parser *p, Span sp, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
Span front_span_join(Span a, Span b);
Span front_prev_span(Parser *p);
const char *front_intern(Parser *p, const char *s);

/* symbols (parse.c) */
Sym *front_sym_find(Parser *p, const char *name);
Var *front_bind(Parser *p, const char *name, Type *t, Span sp);          /* lookup-or-create */
void front_rebind(Parser *p, const char *name, Var *v);
bool front_const_lookup(Parser *p, const char *name, int64_t *out);
/* A name read in DSL code that is a module constant or a builder free name: its value as a literal
 * (an int, or a float constant as a float literal); a located error for a constant without a value;
 * NULL without an error when the name is no constant. */
Expr *front_const_expr(Parser *p, const char *name, Span sp);
/* Module-level @pl.function kernels (language.md §1.3): one the class being parsed calls by bare name. */
typedef struct FrontExtern { const char *name; int pos; int deco_args; bool inline_; Span span; } FrontExtern;
const FrontExtern *front_extern_find(Parser *p, const char *name);
/* `pl.dynamic("M")` in DSL code: the -D value of M as a literal, else a located error. */
Expr *front_dynamic_dim(Parser *p, Span sp);
/* The value of integer literal t, negated when negate (so -9223372036854775808 is accepted); a
 * located error when it does not fit in int64. */
bool front_int_literal(Parser *p, const Tok *t, bool negate, int64_t *out);
/* A Python identifier that is not a keyword (bytes >= 0x80 count as letters, as in the lexer). */
bool front_is_identifier(const char *s);
/* ir_fold, failing the parse when folding reported an error (overflow, division by zero). */
Expr *front_fold(Parser *p, Expr *e);

/* SPMD (spmd.c): `for i in pl.spmd(...)` after the dotted name (name / nsp: the loop variable, ksp:
 * pl.spmd); `with pl.spmd(...)` after the dotted name; pl.system.available_*_count() after the dotted
 * name d (NULL without an error when d is neither). */
bool front_parse_spmd_for(Parser *p, StmtList *body, Span sp, const char *name, Span nsp, Span ksp);
bool front_parse_spmd_with(Parser *p, StmtList *body, Span sp, Span ksp);
Expr *front_system_count(Parser *p, const char *d, Span sp);

/* expressions and attribute values (parse_expr.c) */
Expr *front_parse_expr(Parser *p);
bool front_parse_attr_value(Parser *p, AttrVal *out);
/* parse_optim.c: `optimizations=[pl.split(...), pl.cross_core_slot(...)]` of a pl.at scope s */
bool front_parse_optimizations(Parser *p, Stmt *s);
/* parse_optim.c: `for lane in pl.split_aiv(2[, mode=pl.SplitMode.X]):` -> a 2-trip loop with attr split_aiv */
bool front_parse_split_aiv_for(Parser *p, StmtList *body, Span sp, const char *lane, Span lane_span, Span ksp);
bool front_parse_attr_dict(Parser *p, AttrList *out);                      /* at '{' */
/* Parses a dotted name starting at 'pl' (or any name): "pl.tile.load"; span covers it. */
const char *front_parse_dotted(Parser *p, Span *sp);
/* Parses '(' args [, kw=v]* [, attrs={...}] ')' into call (args, kwargs, attrs). */
bool front_parse_call_args(Parser *p, Expr *call);
bool front_finish_call(Parser *p, Expr *call);                            /* validation + deduction */
AttrVal front_expr_to_attr(Expr *e);

/* types (parse_type.c) */
/* "pl.Mem.Vec" / "pl.MemorySpace.Vec" (the long name, language.md) -> "Vec"; NULL otherwise */
const char *front_mem_space_name(const char *dotted);
/* "pl.ND" / "pl.TensorLayout.ND" (language.md §1.5) -> "ND" (also DN, NZ, MX_A_ZZ, MX_B_NN); NULL otherwise */
const char *front_tensor_layout_name(const char *dotted);
Type *front_parse_type(Parser *p);
Type *front_parse_param_type(Parser *p, ParamDir *dir);
Type *front_parse_return_type(Parser *p, int *n, Type ***types);
bool front_parse_dtype_name(Parser *p, const char *dotted, Span sp, DType *out);

/* statements (parse_stmt.c) */
bool front_parse_block(Parser *p, StmtList *body, YieldCtx *y);

/* user-form sugar (sugar.c) */
Expr *front_sugar_call(Parser *p, const char *dotted, Span sp);          /* pl.<op>(...) dispatch */
Expr *front_sugar_subscript(Parser *p, Expr *base);                      /* at '[' on a tensor */
bool front_sugar_store(Parser *p, StmtList *body, Var *target, Span sp); /* c[...] = x */
const char *front_suggest_op(const char *name);                           /* closest op name or NULL */
/* A PyPTO op ptoc does not implement yet: reports it with the supported list and returns true. */
bool front_not_yet_supported(Parser *p, const char *dotted, Span sp);
/* vector-op user forms (sugar_vec.c): scalar forms, literal typing, promotion casts, broadcasts */
bool front_vec_rewrite(Parser *p, Expr *call);

/* operation parameter lists (call_sig.c, language.md §2): binds a call's positional and keyword
 * arguments to the op's user parameters and rewrites it into the IR form (operands + options);
 * ops without a list are left as parsed. front_bind_signature does it for an explicit list
 * (see call_sig.c for the notation); `what` names the operation in messages. */
const char *front_call_signature(const char *op_name);
bool front_bind_call(Parser *p, Expr *call);
bool front_bind_signature(Parser *p, Expr *call, const char *what, const char *sig);
Expr *front_attr_to_expr(Parser *p, const AttrVal *v);                    /* a keyword value as an operand */

/* top level (parse.c, parse_func.c) */
void front_skip_statement(Parser *p);                 /* one statement, with its indented block */
const char *front_read_decorator(Parser *p, int *args_pos);   /* at '@'; args_pos: '(' or -1 */
bool front_parse_program_class(Parser *p);
bool front_parse_jit(Parser *p, int def_pos);
bool front_parse_level(Parser *p, const AttrVal *v, Span sp, Level *out);   /* pl.Level.X */
bool front_is_variable_name(Parser *p, const char *name);   /* in p->variables */
/* Parses the @pl.jit-style function at def_pos (header with p->binding, body) as type; inline
 * helper calls in its body are spliced. */
Function *front_parse_jit_function(Parser *p, int def_pos, int deco_args, FuncType type);

/* specialisation (bind.c, language.md §1.1, §1.2) */
/* The marker type front_parse_param_type returns for a bare `pl.Tensor` in a @pl.jit signature. */
bool front_type_is_unshaped(const Type *t);
Type *front_unshaped_tensor(Parser *p);
/* The type of parameter `name` of p->fn (annotated t, a bare pl.Tensor when unshaped) under
 * p->binding: the bound shape and dtype, or t checked against the binding; NULL after an error. */
Type *front_bind_param(Parser *p, const char *name, Span sp, Type *t, ParamDir dir);
/* Before the annotation of parameter `name` is parsed: each pl.dynamic name that is a whole
 * dimension of its shape list takes the extent the binding gives that dimension (language.md §1.4,
 * decision 7: the main block, --arg or --in give a dynamic dim its value). */
void front_bind_dynamic_dims(Parser *p, const char *name);
/* After the header: bound scalar parameters become literals in the body's symbol table. */
bool front_bind_scalars(Parser *p, Function *f);
/* After a name bound to v: `.shape`, `.shape[i]`, `.dtype`; NULL (not failed) when no attribute follows. */
Expr *front_var_attr(Parser *p, Var *v, Span sp);
/* `A, B = <tuple>` (e.g. x.shape) with the targets read; p at the value. */
bool front_assign_unpack(Parser *p, StmtList *body, const char **names, Span *spans, int n, Span sp);
/* scan_top: a decorator naming a jit helper ("pl.jit.incore", ...) -> its type, else -1. */
int front_helper_kind(const char *decorator);
void front_note_helper(Parser *p, FuncType type, int def_pos, int deco_args, const char *name);
/* At '(' after a bare name: a call of a jit helper (parsed at its first call); NULL and not failed
 * when name is not a helper. */
Expr *front_helper_call(Parser *p, const char *name, Span sp);
/* Replaces the calls of inline helpers in f's body by copies of their bodies. */
bool front_splice_inlines(Parser *p, Function *f);

#endif
