/* progfuzz — the differential program fuzzer (issue 6, docs/fuzzing.md).
 *
 * Requires: the ptoc library (src/driver/driver.h) and a seed.
 * Produces: random *valid* pl programs (a small AST, printed as DSL text in the @pl.jit user form or
 *           the @pl.program printed form), each compiled, simulated and compared with the reference
 *           interpreter; failures minimised on the same AST.
 * Does:     progfuzz_gen.c builds the AST, progfuzz_check.c holds the validity rules (pf_finalize),
 *           progfuzz_print.c prints it, progfuzz_reduce.c shrinks a failing program while the
 *           failure persists, progfuzz.c drives seeds, classifies outcomes and writes reproducers.
 *
 * The AST is a fixed-size value (no pointers): copying a PfProgram is a memcpy, which the reducer
 * relies on. Statements live in PfProgram.st and refer to their children by index. */
#ifndef PTOC_PROGFUZZ_H
#define PTOC_PROGFUZZ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/dtype.h"

#define PF_MAX_TENSORS 16
#define PF_MAX_VARS 8
#define PF_MAX_STMTS 64
#define PF_MAX_BODY 8

/* Language features the generator may use. Each can be switched on/off (--features); a feature
 * that fails on today's main for a known reason is off by default until its fix lands. */
#define PF_FEATURES(X)                                                                                \
    X(RANGE,        "range",        1, "pl.range loops of regions (orchestration level)")             \
    X(PARALLEL,     "parallel",     1, "pl.parallel loops of regions writing disjoint blocks")        \
    X(IF,           "if",           1, "if/else on loop variables (orchestration level)")             \
    X(MANUAL,       "manual",       1, "pl.manual_scope() around independent regions")                \
    X(MANUAL_DEPS,  "manual_deps",  1, "dependent regions in a manual scope: 'as tid' + deps=[tid]")  \
    X(LOCAL,        "local",        1, "pl.create_tensor intermediates feeding later matmuls")        \
    X(INOUT,        "inout",        1, "pl.InOut parameters (read, then written)")                    \
    X(ATOMIC,       "atomic",       1, "atomic-add destinations (assemble / store with AtomicType.Add)") \
    X(WAR,          "war",          0, "a tensor written after an earlier region read it")           \
    X(WAW,          "waw",          1, "a region overwriting what an earlier region wrote")           \
    X(NZ,           "nz",           1, "pl.NZ input tensors")                                          \
    X(SUGAR,        "sugar",        1, "c[r:r+M, c:c+N] = pl.matmul(a[..], b[..], out_dtype=..)")      \
    X(ASSEMBLE,     "assemble",     1, "t = pl.matmul(..); c = pl.assemble(c, t, [r, c])")            \
    X(TILE,         "tile",         1, "pl.load / pl.move / pl.matmul / pl.matmul_acc / pl.store")    \
    X(ACC_LOOP,     "acc_loop",     1, "matmul_acc over K chunks as a loop inside the kernel")        \
    X(LOOP_IN_AT,   "loop_in_at",   1, "a loop inside pl.at whose body writes an output")             \
    X(IF_IN_AT,     "if_in_at",     1, "if/else inside pl.at around writes of an output")             \
    X(PIPELINE,     "pipeline",     1, "pl.pipeline(..., stage=2) K loop with atomic assemble")       \
    X(PROGRAM,      "program",      1, "the @pl.program printed form with InCore kernels")            \
    X(SCALAR_ARGS,  "scalar_args",  1, "computed scalar arguments of kernels (printed form)")         \
    X(ODD,          "odd",          1, "odd shapes (not multiples of 16)")                             \
    X(BF16,         "bf16",         1, "BF16 operands")                                                 \
    X(FP32,         "fp32",         1, "FP32 operands")                                                 \
    X(INT8,         "int8",         1, "INT8 operands (INT32 results)")                                 \
    X(A5,           "a5",           1, "--target a5")                                                   \
    X(PLANNERS,     "planners",     1, "--memory-planner dsa_rp / ptoas")                               \
    X(DBC,          "dbc",          1, "--dbc")

typedef enum {
#define PF_ENUM(id, name, on, help) PF_F_##id,
    PF_FEATURES(PF_ENUM)
#undef PF_ENUM
    PF_F_COUNT
} PfFeature;

typedef struct PfFeatures { bool on[PF_F_COUNT]; } PfFeatures;

void pf_features_default(PfFeatures *f);
/* "all", "default", or a comma list of [+|-]name; false with a message on an unknown name. */
bool pf_features_parse(PfFeatures *f, const char *spec, char *err, size_t errlen);
const char *pf_feature_name(PfFeature id);
const char *pf_feature_help(PfFeature id);

typedef enum { PF_IN, PF_OUT, PF_INOUT, PF_LOCAL } PfDir;

typedef struct PfTensor {
    DType dt;
    PfDir dir;
    bool nz;
    bool fixed;                   /* locals: dims chosen at creation; parameters are sized by pf_finalize */
    int64_t rows, cols;
    int64_t pad_r, pad_c;         /* slack beyond the largest access (parameters) */
    bool accessed;                /* set by pf_finalize; unaccessed tensors are not printed */
} PfTensor;

/* An index expression: konst + coef * var (var < 0: the constant konst). */
typedef struct PfOff { int var; int64_t coef, konst; } PfOff;

typedef enum { PF_LOOP_RANGE, PF_LOOP_PARALLEL, PF_LOOP_PIPELINE } PfLoopKind;
typedef struct PfVar { int64_t start, stop, step; } PfVar;

typedef enum { PF_MM_SUGAR, PF_MM_ASSEMBLE, PF_MM_TILE } PfMMStyle;

/* One matmul: dst[dr:dr+M, dc:dc+N] (=|+=) a[ar:ar+M, ak:ak+K] @ b[bk:bk+K, bc:bc+N]. */
typedef struct PfMM {
    PfMMStyle style;
    DType in_dt;                  /* a and b; the result is FP32 (INT32 for INT8) */
    int64_t M, N, K;
    int a, b, dst;                /* tensor indices */
    PfOff ar, ak, bk, bc, dr, dc;
    int kchunks;                  /* TILE: K split into kchunks matmul / matmul_acc steps */
    bool kloop;                   /* TILE: the matmul_acc steps as a loop */
    bool atomic;
} PfMM;

typedef enum { PF_S_FOR, PF_S_IF, PF_S_AT, PF_S_MANUAL, PF_S_MM } PfStmtKind;
typedef enum { PF_CMP_EQ, PF_CMP_LT, PF_CMP_GE } PfCmp;

typedef struct PfStmt {
    PfStmtKind kind;
    /* FOR */
    PfLoopKind loop;
    int var;
    /* IF: var cmp value */
    int cond_var;
    PfCmp cmp;
    int64_t cond_val;
    /* AT: task id for manual deps (-1 none) and the regions it depends on */
    int tid, ndeps, deps[4];
    PfMM mm;
    int nbody, body[PF_MAX_BODY];
    int nelse, orelse[PF_MAX_BODY];
} PfStmt;

typedef enum { PF_FORM_JIT, PF_FORM_PROGRAM } PfForm;

typedef struct PfProgram {
    uint64_t seed;                /* generator seed (also varies the printing) */
    PfForm form;
    /* compile options */
    bool a5, dbc;
    int planner;                  /* MemoryPlanner */
    uint64_t run_seed;
    PfFeatures features;          /* what the generator was allowed to use (WAR rule, printing) */
    int ntensors, nvars, nst, ntop;
    PfTensor t[PF_MAX_TENSORS];
    PfVar v[PF_MAX_VARS];
    PfStmt st[PF_MAX_STMTS];
    int top[PF_MAX_BODY * 2];
} PfProgram;

/* progfuzz_gen.c */
void pf_generate(PfProgram *p, uint64_t seed, const PfFeatures *f);
/* progfuzz_check.c: sizes the parameters from their accesses; false (with a reason) when a rule is broken. The
 * generator only emits programs that pass; the reducer discards candidates that do not. */
bool pf_finalize(PfProgram *p, char *why, size_t whylen);
int pf_count_mm(const PfProgram *p);

/* progfuzz_print.c: the DSL text (malloc'd) and the ptoc command line options of the program. */
char *pf_print(const PfProgram *p);
void pf_options_string(const PfProgram *p, char *buf, size_t len);

/* progfuzz.c: outcome of one program */
typedef enum { PF_OK, PF_MISMATCH, PF_RACE, PF_RUNTIME, PF_REJECTED, PF_CRASH, PF_HANG, PF_NOUTCOMES } PfOutcome;
const char *pf_outcome_name(PfOutcome o);
/* Compiles and runs the text in-process; msg gets the first error line / first race. */
PfOutcome pf_run_text(const PfProgram *p, const char *text, char *msg, size_t msglen);

/* progfuzz_reduce.c: shrinks p while `still_fails` says the failure persists. Returns the number
 * of accepted steps. */
typedef bool (*PfStillFails)(const PfProgram *cand, void *ctx);
int pf_reduce(PfProgram *p, PfStillFails still_fails, void *ctx, int max_tries);

#endif
