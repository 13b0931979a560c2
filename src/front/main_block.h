/* main_block — a static reader of a file's `if __name__ == "__main__":` block (spec/language.md §5.3,
 * §5.4), for `ptoc run file.py` without an entry name.
 *
 * Requires: front_lex.
 * Produces: MainBlock: the @pl.jit entry functions of the file with their parameter names (a token
 *           scan of the `def NAME(` line), and the main block's statements in order, each either
 *           understood (an assignment, a kernel call, a check, the seed, a RunConfig) or skipped with
 *           the reason (loops, if, def, try, calls of module helpers, ...). An argparse parser is
 *           read for its options' defaults, and a call through a module-level dispatch dict of
 *           kernels (`_MODES[args.mode](...)`) resolves to the kernel the defaults select. Expressions are
 *           kept as a small generic Python AST (MbExpr); what is evaluable is decided by the torch
 *           evaluator (driver/torch_eval.h), not here, so a check the evaluator cannot do is reported
 *           "not evaluated" at run time.
 * Does: never runs Python and never fails the file: an unreadable statement becomes MS_SKIP. */
#ifndef PTOC_FRONT_MAIN_BLOCK_H
#define PTOC_FRONT_MAIN_BLOCK_H

#include "front/front.h"

typedef enum {
    MBX_NUM, MBX_STR, MBX_NAME, MBX_ATTR, MBX_CALL, MBX_BIN, MBX_UNARY, MBX_SUBSCRIPT, MBX_LIST, MBX_TUPLE, MBX_SLICE
} MbExprKind;

typedef struct MbExpr MbExpr;
struct MbExpr {
    MbExprKind kind;
    Span span;
    const char *name;       /* NAME; ATTR attribute; BIN / UNARY operator; STR contents */
    double num;             /* NUM */
    bool is_int;            /* NUM: an int literal (ival) */
    int64_t ival;
    MbExpr *a, *b, *c;      /* ATTR a.name; BIN a op b; UNARY op a; SUBSCRIPT a[items]; CALL a(items);
                               SLICE a:b:c (NULL = omitted) */
    MbExpr **items;         /* CALL arguments, LIST / TUPLE elements, SUBSCRIPT indices */
    const char **kw;        /* CALL: keyword of items[i], NULL for a positional argument */
    int n;
};

typedef enum {
    MS_ASSIGN,      /* target = e */
    MS_CALL,        /* kernel(args) (e is the call); lower_only for kernel.lower / kernel.compile */
    MS_CHECK,       /* assert torch.allclose / torch.equal, torch.testing.assert_close; e the call or
                       NULL when the assert has another shape (why says which) */
    MS_SEED,        /* torch.manual_seed(seed) */
    MS_CONFIG,      /* target = RunConfig(...): platform (or NULL) */
    MS_SKIP,        /* not understood: why */
} MbStmtKind;

typedef struct MbStmt {
    MbStmtKind kind;
    Span span;              /* the statement's first token */
    const char *target;
    MbExpr *e;
    const char *kernel;     /* MS_CALL */
    bool lower_only;
    const char *check;      /* MS_CHECK: "allclose", "assert_close", "equal" */
    int64_t seed;
    const char *platform;   /* MS_CONFIG */
    const char *why;        /* MS_SKIP / MS_CHECK without e: the reason */
} MbStmt;

typedef struct MbJit {
    const char *name;
    const char **params;
    int nparams;
    Span span;
    bool unshaped;                  /* a parameter annotated with a bare pl.Tensor (its shape comes from a call) */
} MbJit;

/* A module-level `NAME = {"key": kernel, ...}` table of @pl.jit functions (a dispatch dict). */
typedef struct MbDispatch { const char *name; const char **keys, **kernels; int n; } MbDispatch;
/* An argparse option's default (`parser.add_argument("--mode", default="mixed")`): ptoc runs a file
 * without command-line arguments, so `args.mode` is "mixed". */
typedef struct MbOption { const char *dest; const char *value; } MbOption;

typedef struct MainBlock {
    Arena *arena;           /* every node and string */
    bool found;             /* the file has a main block */
    Span span;              /* its `if` */
    MbStmt *stmts; int n;
    MbJit *jits; int njits;
    MbDispatch *dicts; int ndicts;
    VEC(MbOption) options;  /* argparse defaults read so far */
    const char *parser, *args;   /* the ArgumentParser variable, the parse_args() namespace variable */
} MainBlock;

/* Reads src. false only on a lexical error (reported to c->diag). */
bool front_main_block(IrCtx *c, const SrcFile *src, MainBlock *out);
void front_main_block_free(MainBlock *mb);
const MbJit *front_main_find_jit(const MainBlock *mb, const char *name);
/* The dotted name of a NAME / ATTR chain ("torch.testing.assert_close") in buf, or NULL. */
const char *front_mb_dotted(const MbExpr *e, char *buf, size_t n);

#endif
