/* pass — the pass manager and one file per pass (spec/ir_and_passes.md §6–§8).
 *
 * A pass is `bool pass_NAME(Program *, PassCtx *)`: it rewrites the program in place and returns
 * false after reporting a user error (fatal). Perf hints (non-fatal findings with stable codes such
 * as PH-AT-005, PH-MR-001) go to the same diagnostic sink with level DIAG_PERF. */
#ifndef PTOC_PASS_H
#define PTOC_PASS_H

#include "ir/ir.h"
#include "target/target.h"

typedef enum { PLANNER_PYPTO = 0, PLANNER_DSA_RP, PLANNER_PTOAS } MemoryPlanner;

/* One L0 tile decision of AutoTileMatmulL0, recorded for reports (ptoc run, --json "tiles"). */
typedef struct PassTileChoice {
    const char *function;           /* kernel (InCore function) name */
    Span span;                      /* the matmul */
    int64_t M, N, K, m, n, k;
    int stationarity;               /* Stationarity of src/tile: 0 OS, 1 AS, 2 BS */
    bool dbc, os_holds_a;
    int64_t cost_cycles;
} PassTileChoice;

/* A matmul AutoTileMatmulL0 left untiled (its perf hint), so that a later L0 capacity error can name
 * the cause. */
typedef struct PassUntiled { const char *function; Span span; const char *code, *reason; } PassUntiled;

typedef struct PassCtx {
    IrCtx *ir;
    const Target *target;
    DiagSink *diag;
    MemoryPlanner planner;
    bool enable_pypto_l0c_double_buffer;
    bool no_pipeline_dbc;           /* turn off the existing-pipeline L0C double buffer (--no-pipeline-dbc) */
    bool no_auto_l1;                /* turn off AutoTileL1 (--no-auto-l1) */
    int l1_shrink;                  /* AutoTileL1 judges its blocks against (8 - l1_shrink) / 8 of Mat / L0A / L0B
                                       (the driver raises it when a blocking it chose does not allocate) */
    int l1_tiled;                   /* matmuls AutoTileL1 blocked, and the first one's line */
    Span l1_span;
    bool no_rotate;                 /* turn off RotateMixedLoops (--no-rotate) */
    int rotate_stage;               /* the stage of its loops: 2, 1 or 0 (pl.range); the driver lowers it on failure */
    int rotated;                    /* loops RotateMixedLoops rotated (the driver retries without on failure) */
    Span rotated_span;              /* the first of them, and its loop variable */
    const char *rotated_loop;
    int cores;                      /* cube cores AutoSplitCores may use (the driver: --cores N, default num_aic);
                                       0 or 1 = no split (a context built without it, e.g. a unit test) */
    int counter;                    /* scratch for passes that mint names */
    VEC(PassTileChoice) tiles;      /* filled by AutoTileMatmulL0 (also for untiled, L0-sized matmuls) */
    VEC(PassUntiled) untiled;       /* matmuls AutoTileMatmulL0 could not tile */
} PassCtx;

void pass_ctx_free(PassCtx *ctx);   /* releases ctx->tiles and ctx->untiled */

typedef bool (*PassFn)(Program *p, PassCtx *ctx);
typedef struct PassInfo { const char *name; PassFn fn; unsigned produces; /* IrProp bits verified after */ } PassInfo;

/* The ordered pipeline. */
const PassInfo *pass_pipeline(int *n);

/* Called after each pass with its 1-based index (dumps, round-trip checks, timing). Returning false
 * stops the pipeline. */
typedef bool (*PassHook)(void *ud, int index, const PassInfo *info, Program *p, double seconds);
/* Runs every pass in order, verifying produced properties after each. Returns false on the first
 * user error (reported to ctx->diag). */
bool pass_run_pipeline(Program *p, PassCtx *ctx, PassHook hook, void *ud);

/* The passes, in pipeline order. */
bool pass_convert_to_ssa(Program *p, PassCtx *ctx);
bool pass_flatten_call_expr(Program *p, PassCtx *ctx);
bool pass_auto_split_cores(Program *p, PassCtx *ctx);
bool pass_outline_incore_scopes(Program *p, PassCtx *ctx);
bool pass_auto_tile_l1(Program *p, PassCtx *ctx);
bool pass_rotate_mixed_loops(Program *p, PassCtx *ctx);
bool pass_convert_tensor_to_tile_ops(Program *p, PassCtx *ctx);
bool pass_block_nz_tensor_views(Program *p, PassCtx *ctx);
bool pass_auto_tile_matmul_l0(Program *p, PassCtx *ctx);
bool pass_lower_composite_ops(Program *p, PassCtx *ctx);
bool pass_infer_tile_memory_space(Program *p, PassCtx *ctx);
bool pass_expand_mixed_kernel(Program *p, PassCtx *ctx);
bool pass_lower_pipeline_loops(Program *p, PassCtx *ctx);
bool pass_canonicalize_io_order(Program *p, PassCtx *ctx);
bool pass_init_memref(Program *p, PassCtx *ctx);
bool pass_materialize_semantic_aliases(Program *p, PassCtx *ctx);
bool pass_memory_reuse(Program *p, PassCtx *ctx);
bool pass_allocate_memory_addr(Program *p, PassCtx *ctx);
bool pass_derive_call_directions(Program *p, PassCtx *ctx);
bool pass_simplify(Program *p, PassCtx *ctx);
bool pass_materialize_runtime_scopes(Program *p, PassCtx *ctx);

/* ---- helpers shared by passes (pass/util.c) ---- */
void pass_hint(PassCtx *ctx, Span sp, const char *code, const char *fmt, ...) __attribute__((format(printf, 4, 5)));
/* "base__suffix_vN" names with a per-program counter. */
const char *pass_name(PassCtx *ctx, const char *base, const char *suffix);
/* The length of the user's spelling of a compiler name: x__ssa_v2, x__iter_v1, x__rv_v3 -> 1 ("x"). */
int pass_user_name_len(const char *name);
/* The call of an assignment or eval statement, else NULL. */
Expr *pass_stmt_call(Stmt *s);
bool pass_is_op(const Expr *e, OpId op);
void pass_var_set_type(Var *v, Type *t);
/* A loop's spaceless tile results take the space of what its body yields (a pass re-typed the body:
 * a vector op's result is in Vec), as the parser types them, so the printed IR parses back equal. */
void pass_refresh_loop_results(StmtList *l);
/* Buffer aliasing in one function body: for every variable, the variable whose buffer it is — through
 * plain copies, the in-place result of a writing op (the op table's reuses_input: tensor.assemble,
 * tile.store, matmul_acc, ...), a kernel call's result (the argument it returns), loop iter_args
 * (their init) and return vars (their iter_arg), and If return vars whose branches yield the same
 * buffer. Indexed by Var id: build it after the last
 * definition is created. */
typedef struct PassAliases { int n; Var **src, **src2; Stmt **defs; } PassAliases;
void pass_aliases_build(PassCtx *ctx, StmtList *body, PassAliases *a);
Var *pass_alias_root(const PassAliases *a, Var *v);
void pass_aliases_free(PassAliases *a);
/* How many times each variable is read (EX_VAR occurrences) in a body, indexed by Var id: one walk,
 * so a pass asking "is v read outside this region" per region stays linear — the reads of the whole
 * function less those counted into a second, scratch PassUses over the region (pass_uses_add), which
 * pass_uses_reset zeroes again in time proportional to the region. Variables created after the count
 * (id >= n) are not in it: pass_uses_of returns -1 for them (the caller scans instead). */
typedef struct PassUses { int n; int *count; } PassUses;
void pass_uses_init(PassCtx *ctx, PassUses *u);                       /* all zero, sized for every variable so far */
void pass_uses_count(PassCtx *ctx, StmtList *body, PassUses *u);       /* init, then add body */
void pass_uses_add(PassUses *u, StmtList *body);
void pass_uses_reset(PassUses *u, StmtList *body);
int pass_uses_of(const PassUses *u, const Var *v);
void pass_uses_free(PassUses *u);
/* The argument index whose buffer the call's result reuses (in place), or -1. */
int pass_inplace_slot(const Expr *e);
/* Physical L0C row alignment of the target for an accumulator dtype. */
int64_t pass_l0c_align(PassCtx *ctx, DType acc);

#endif
