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
#define PF_MAX_VEC 16             /* vector blocks per program */
#define PF_MAX_VNODES 24          /* values of one vector block */
#define PF_MAX_VSTORES 4          /* stores of one vector block */

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
    X(DBC,          "dbc",          1, "--dbc")                                                       \
    X(VEC,          "vec",          0, "vector regions (AIV kernels): elementwise ops on Vec tiles")    \
    X(VEC_TILE,     "vec_tile",     1, "vector blocks at the tile level: pl.load(.., Mem.Vec) / pl.store") \
    X(VEC_TENSOR,   "vec_tensor",   1, "vector blocks at the tensor level inside pl.at (slices, y[..] = ..)") \
    X(VEC_MATH,     "vec_math",     1, "unary math: exp / log / sqrt / rsqrt / recip / abs / neg / relu") \
    X(VEC_DIV,      "vec_div",      1, "division: pl.div, scalar divs, row/col_expand_div")            \
    X(VEC_CAST,     "vec_cast",     1, "pl.cast between FP32/FP16/BF16/INT32/INT16/INT8 with modes")   \
    X(VEC_FILL,     "vec_fill",     1, "pl.full / pl.tile.full, pl.expands, pl.fillpad (partial loads)") \
    X(VEC_REDUCE,   "vec_reduce",   1, "row_sum / row_max / row_min / row_prod, col_sum / col_max / col_min / col_prod")     \
    X(VEC_EXPAND,   "vec_expand",   1, "row_expand_* / col_expand_*, [M,1] / [1,N] broadcasting")      \
    X(VEC_INT,      "vec_int",      1, "INT32 / INT16 / INT8 vector values")                           \
    X(VEC_HALF,     "vec_half",     1, "FP16 / BF16 vector values")                                    \
    X(VEC_PROMOTE,  "vec_promote",  1, "tensor-level mixed dtypes (the front end inserts casts)")      \
    X(VEC_SCALAR,   "vec_scalar",   1, "loop variables as scalar operands (kernel scalar arguments)")  \
    X(VEC_SCALAR_PIPE, "vec_scalar_pipe", 1, "a pl.pipeline loop variable as a scalar operand")     \
    X(VEC_MIX,      "vec_mix",      1, "matmul results feeding vector regions and the other way round") \
    X(VEC_BITS,     "vec_bits",     1, "remainder and bit ops: pl.fmod (float / int), pl.and_ / pl.or_ (int)") \
    X(VEC_ARG,      "vec_arg",      1, "row_argmax / row_argmin / col_argmax / col_argmin (INT32 indices of exact values)") \
    X(VEC_READ,     "vec_read",     1, "an element of an earlier value, t[r, c] (tgetval / ggetval), as a scalar operand") \
    X(MM_AUTO,      "mm_auto",      1, "tile-level pl.tile.matmul of whole Mat operands (AutoTileMatmulL0 tiles it)") \
    X(MM_BIAS,      "mm_bias",      1, "pl.tile.matmul_bias with a [1, N] bias (FP32 / INT32)")         \
    X(SPLITK,       "splitk",       1, "split-K chains: tile.create in Acc, pl.pipeline of K chunks, one store (both spellings)") \
    X(MM_CHAIN,     "mm_chain",     1, "chained matmuls in one kernel: c = a @ b; cb = pl.tile.cast(c, FP16, mode=rint); d = cb @ e") \
    X(USER_PIPE,    "user_pipe",    1, "a user pl.pipeline(stage=2..4) over N blocks: stationary Left, per-iteration Right extract (L0C double buffer, eligible and not)") \
    X(MIX,          "mix",          1, "mixed cube + vector regions: acc = pl.matmul(..) then vector ops on acc in one pl.at (AIC + AIV)") \
    X(MIX_SPLIT,    "mix_split",    1, "mixed regions with pl.split(NONE / UP_DOWN / LEFT_RIGHT) and pl.cross_core_slot(slot_num=1..4)") \
    X(MIX_CHAIN,    "mix_chain",    1, "a second matmul in a mixed region whose left operand is a vector result (pl.cast(g, FP16) @ w2)") \
    X(MIX_LOOP,     "mix_loop",     1, "a flash-attention-style pl.range(T, init_values=(o0,)) loop in a mixed region") \
    X(MIX_ROTATE,   "mix_rotate",   1, "mix_loop loops of up to 6 trips accumulating as o + r, r + o or o * 0.5 + r (RotateMixedLoops: the prefetched matmul, the deferred add in both operand orders)") \
    X(SPMD,         "spmd",         1, "SPMD launches of mixed regions: rows split across pl.spmd(B) blocks (loop and with forms), and split-K with atomic-add assembly across blocks") \
    X(MIX_GRANULE, "mix_granule", 1, "split stores whose two AIV lanes' GM pieces share a 32-byte granule (unaligned row stride, or a LEFT_RIGHT half row under 32 B; was a false WAW race until 4f71719)") \
    X(MIX_ROUNDTRIP, "mix_roundtrip", 1, "the print -> parse round trip on programs with mixed regions (tpop_from_aic / yield_ after ExpandMixedKernel did not parse back until 7fb72bf)") \
    X(THREADS,      "threads",      0, "run every program that passes again with 2 host threads (ptoc run --threads 2: the golden run beside the simulation, tasks and SPMD blocks on workers) and require byte-identical outputs, cycles, task times and reports")

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
/* Spellings of a TILE-style matmul: MANUAL — chunks moved to Left/Right by hand; AUTO — one
 * pl.tile.matmul of whole Mat operands; BIAS — pl.tile.matmul_bias of them; SPLITK — tile.create in
 * Acc, a pl.pipeline over the K chunks (predicated matmul_acc, or the peeled if), one store; PIPE —
 * a user pl.pipeline(stage=stages) over N blocks of nb: the Left panel once, a Right extract, a matmul
 * and a store per iteration; CHAIN — c = a @ b ([M, n1]), cast to FP16 with mode="rint", d = c @ e
 * ([n1, N] FP16 tensor `extra`). */
typedef enum { PF_TF_MANUAL, PF_TF_AUTO, PF_TF_BIAS, PF_TF_SPLITK, PF_TF_PIPE, PF_TF_CHAIN } PfTileForm;

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
    int8_t tform;                 /* TILE: PfTileForm */
    bool peeled;                  /* SPLITK: the `if kb == 0: matmul else: matmul_acc` spelling */
    int8_t stages;                /* PIPE: stage= */
    int64_t nb;                   /* PIPE: N block per iteration (N = nb * blocks) */
    int bias;                     /* BIAS: the [1, N] bias tensor (accumulator dtype); CHAIN: the FP16 [n1, N]
                                     second operand; else -1 */
    int64_t n1;                   /* CHAIN: the intermediate's columns */
} PfMM;

/* ---- vector blocks (progfuzz_vec.c: the op table and value ranges; progfuzz_gen_vec.c) ----
 * A vector block is straight-line code inside a pl.at region: loads of tensor windows, a DAG of
 * vector ops on values of one of three shapes ([R, C], a per-row vector [R, 1], a per-column vector
 * [1, C]), and stores of values to tensor windows. At the tile level it prints as pl.load(..,
 * target_memory=pl.Mem.Vec) / tile ops / pl.store; at the tensor level as slices, tensor ops and
 * y[..] = v / pl.assemble. */
typedef enum { PF_VSH_FULL, PF_VSH_ROW, PF_VSH_COL } PfVShape;   /* [R, C], [R, 1], [1, C] */
bool pf_vop_is_arg(int op);     /* row / col argmax / argmin: an INT32 index of its operand */

typedef enum {
    PF_V_LOAD, PF_V_FULL, PF_V_EXPANDS, PF_V_FILLPAD,
    PF_V_ADD, PF_V_SUB, PF_V_MUL, PF_V_DIV, PF_V_MAX, PF_V_MIN,
    PF_V_ADDS, PF_V_SUBS, PF_V_MULS, PF_V_DIVS, PF_V_MAXS, PF_V_MINS,
    PF_V_EXP, PF_V_LOG, PF_V_SQRT, PF_V_RSQRT, PF_V_RECIP, PF_V_ABS, PF_V_NEG, PF_V_RELU,
    PF_V_CAST,
    PF_V_ROW_SUM, PF_V_ROW_MAX, PF_V_ROW_MIN, PF_V_COL_SUM, PF_V_COL_MAX, PF_V_COL_MIN,
    PF_V_ROW_PROD, PF_V_COL_PROD,
    PF_V_ROW_EXPAND, PF_V_COL_EXPAND,
    PF_V_FMOD, PF_V_AND, PF_V_OR,
    PF_V_ROW_ARGMAX, PF_V_ROW_ARGMIN, PF_V_COL_ARGMAX, PF_V_COL_ARGMIN,
    PF_V_NOPS
} PfVOp;

/* Print variants of a node (PfVNode.form) */
enum {
    PF_VF_SWAP = 1,          /* scalar / commutative operand printed first: pl.add(2.0, t) */
    PF_VF_EXPLICIT = 2,      /* tensor level: broadcast printed as pl.row_expand_add(..) */
    PF_VF_TMP = 4,           /* tile col reduction with a scratch tile */
    PF_VF_INLINE = 8,        /* printed inside its single consumer */
};

typedef struct PfVNode {
    int8_t op;                    /* PfVOp */
    int8_t dt;                    /* DType of the result */
    int8_t shape;                 /* PfVShape */
    int8_t a, b;                  /* operand nodes (-1 none) */
    int8_t mode;                  /* CAST: round mode; FILLPAD: pad (0 zero, 1 max, 2 min) */
    int8_t form;                  /* PF_VF_* */
    int8_t tensor;                /* LOAD */
    int16_t vr, vc;               /* LOAD: valid rows / cols (tile level, < R / C: a partial load) */
    PfOff r, c;                   /* LOAD window offsets */
    double k;                     /* scalar operand / fill value */
    int8_t kvar;                  /* scalar operand: loop variable kvar + k (-1: the constant k) */
    int8_t kread;                 /* scalar operand: element (kr, kc) of node kread - 1 (0: none; k unused) */
    int16_t kr, kc;
} PfVNode;

typedef struct PfVStore { int8_t node, tensor; PfOff r, c; } PfVStore;

typedef struct PfVec {
    bool tensor_level;
    int64_t R, C;
    int nn, ns;
    PfVNode n[PF_MAX_VNODES];
    PfVStore s[PF_MAX_VSTORES];
} PfVec;

/* A conservative interval of a value, and whether it depends on a matmul's accumulation order
 * (approx: the interpreter and the simulator agree only within the tolerance). */
typedef struct PfRange { double lo, hi; bool approx; } PfRange;

/* ---- mixed cube + vector regions (progfuzz_mix.c) ----
 * One pl.at region: acc = a[..] @ b[..] (FP32), a chain of vector steps on acc, optionally a second
 * matmul whose left operand is the chain's result (cast to the operand dtype) and more steps on its
 * result, stored to a window of `out`; optionally all of it inside a flash-attention-style
 * pl.range(trips, init_values=(o0,)) loop whose iteration j takes the j-th N block of b (and the j-th
 * row block of w2) and accumulates into the carried o. ExpandMixedKernel splits it into AIC + AIV. */
typedef enum {
    PF_MX_MULS, PF_MX_ADDS, PF_MX_BIAS, PF_MX_RELU, PF_MX_EXP, PF_MX_MAXS, PF_MX_MINS,
    PF_MX_ROWNORM,      /* m = pl.row_max(x); x = pl.row_expand_sub(x, m)   (not under LEFT_RIGHT) */
    PF_MX_SOFTMAX,      /* the row softmax: row_max, exp(row_expand_sub), row_sum, row_expand_div (not under LEFT_RIGHT) */
    PF_MX_NOPS
} PfMixOp;
#define PF_MIX_MAXSTEPS 6
typedef struct PfMixStep { int8_t op; double k; } PfMixStep;
enum { PF_SPLIT_ABSENT = -1, PF_SPLIT_NONE = 0, PF_SPLIT_UP_DOWN = 1, PF_SPLIT_LEFT_RIGHT = 2 };
typedef struct PfMix {
    int8_t split;                 /* PF_SPLIT_*: the pl.split optimization (ABSENT: none given) */
    int8_t slots;                 /* pl.cross_core_slot(slot_num=); 0: not given */
    int8_t in_dt;                 /* DType of a, b, w2 (FP16 / BF16 / FP32) */
    int8_t trips;                 /* the flash loop's trip count; 0: straight-line */
    int8_t acc_form;              /* the loop's accumulation (mix_rotate): 0 o + r, 1 r + o, 2 o * 0.5 + r */
    int8_t n1, n2;                /* steps on acc, steps on the second matmul's result */
    bool mm2;                     /* the second matmul */
    bool out_half;                /* the result cast to FP16 and stored to an FP16 out */
    bool assemble;                /* out = pl.assemble(out, v, [r, c]) instead of out[..] = v */
    int64_t M, K, N, N2;
    int64_t ar, bc, orow, ocol;   /* window offsets of a (rows), b (cols), out */
    int a, b, bias, w2, out;      /* tensors; bias (FP32 [M, N] window) and w2 -1 when unused */
    int8_t blocks;                /* spmd: B blocks (0: no SPMD launch) */
    bool spmd_with;               /* spmd: `with pl.spmd(B): with pl.at(..): i = pl.tile.get_block_idx()`
                                     (else `for i in pl.spmd(B)` around the body) */
    bool atomic_k;                /* spmd: split-K, block i takes K chunk i and adds atomically into out
                                     (after a zero-initialising region); else block i takes rows i * M */
    PfMixStep s1[PF_MIX_MAXSTEPS], s2[PF_MIX_MAXSTEPS];
    double lo, hi;                /* the range of the stored values (set by pf_mix_check) */
} PfMix;

typedef enum { PF_S_FOR, PF_S_IF, PF_S_AT, PF_S_MANUAL, PF_S_MM, PF_S_VEC, PF_S_MIX } PfStmtKind;
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
    int vec;                      /* VEC: index into PfProgram.vec */
    PfMix mix;                    /* MIX */
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
    int ntensors, nvars, nst, ntop, nvec;
    PfTensor t[PF_MAX_TENSORS];
    PfVar v[PF_MAX_VARS];
    PfStmt st[PF_MAX_STMTS];
    int top[PF_MAX_BODY * 2];
    PfVec vec[PF_MAX_VEC];
} PfProgram;

/* progfuzz_gen.c */
void pf_generate(PfProgram *p, uint64_t seed, const PfFeatures *f);
/* progfuzz_check.c: sizes the parameters from their accesses; false (with a reason) when a rule is broken. The
 * generator only emits programs that pass; the reducer discards candidates that do not. */
bool pf_finalize(PfProgram *p, char *why, size_t whylen);
int pf_count_mm(const PfProgram *p);          /* matmuls and vector blocks */
/* The bias tensor of a matmul_bias spelling, else -1. */
static inline int pf_mm_bias(const PfMM *m) { return m->style == PF_MM_TILE && m->tform == PF_TF_BIAS ? m->bias : -1; }
/* The extra tensor a TILE spelling reads (the bias, or the chained matmul's second operand), else -1;
 * *rows / *cols: its window. */
static inline int pf_mm_extra(const PfMM *m, int64_t *rows, int64_t *cols) {
    if (m->style != PF_MM_TILE || (m->tform != PF_TF_BIAS && m->tform != PF_TF_CHAIN)) return -1;
    *rows = m->tform == PF_TF_BIAS ? 1 : m->n1;
    *cols = m->N;
    return m->bias;
}

/* progfuzz_vec.c: the vector op table and value ranges (see there). */
typedef enum { PF_VK_LOAD, PF_VK_FULL, PF_VK_EXPANDS, PF_VK_FILLPAD, PF_VK_BINARY, PF_VK_SCALAR, PF_VK_UNARY,
               PF_VK_CAST, PF_VK_REDUCE, PF_VK_EXPAND } PfVKind;
typedef struct PfVOpInfo {
    const char *name;             /* pl.<name>; BINARY: the expand forms are row_expand_<xname> / col_expand_<xname> */
    const char *xname;            /* BINARY: the expand-op suffix ("add"); REDUCE: "row" or "col" */
    PfVKind kind;
    unsigned dtypes;              /* legal element types (PF_VDT_* bits) */
    unsigned expand_dtypes;       /* BINARY: legal element types of the [M,1] / [1,N] forms */
    unsigned flags;               /* PF_VOP_* */
    PfFeature feature;            /* the feature that enables it */
    int weight;                   /* how often the generator draws it */
} PfVOpInfo;
enum { PF_VOP_APPROX_OK = 1, PF_VOP_COMMUTES = 2, PF_VOP_POSITIVE = 4, PF_VOP_NONZERO = 8 };
enum { PF_VDT_FP32 = 1, PF_VDT_FP16 = 2, PF_VDT_BF16 = 4, PF_VDT_INT32 = 8, PF_VDT_INT16 = 16, PF_VDT_INT8 = 32 };
#define PF_VDT_FLOAT (PF_VDT_FP32 | PF_VDT_FP16 | PF_VDT_BF16)
#define PF_VDT_INT (PF_VDT_INT32 | PF_VDT_INT16 | PF_VDT_INT8)
#define PF_VDT_ALL (PF_VDT_FLOAT | PF_VDT_INT)
const PfVOpInfo *pf_vop(int op);
unsigned pf_vdt_bit(DType dt);
int64_t pf_vshape_rows(const PfVec *v, int shape);
void pf_vvalid(const PfVec *v, int k, int64_t *vr, int64_t *vc);   /* valid extents of node k */
int64_t pf_vshape_cols(const PfVec *v, int shape);
/* The bytes a value of this shape and dtype takes in Vec ([R, 1] columns counted as 32 B a row). */
int64_t pf_vbytes(const PfVec *v, int shape, DType dt);
bool pf_vshape_aligned(const PfVec *v, int shape, DType dt);
/* Conservative Vec bytes of the block (every value its own buffer, tensor-level scratch included). */
int64_t pf_vec_bytes(const PfVec *v);
/* The range of node k from its operands' ranges (nodes[]), the tensors' ranges and the loop
 * variables' ranges; false with the broken rule in *why (a domain, a magnitude limit, an approx
 * value where the op would amplify the accumulation-order difference). */
bool pf_vnode_range(const PfProgram *p, const PfVec *v, int k, const PfRange *nodes, const PfRange *tensors,
                    const int64_t *vmin, const int64_t *vmax, PfRange *out, const char **why);
double pf_vdt_limit(DType dt);
void pf_range_union(PfRange *into, PfRange r);
/* The initial contents of a tensor (drv_fill_random: floats in [-1, 1), integers in [-8, 7]; Out
 * parameters and locals: empty, lo > hi). */
PfRange pf_initial_range(DType dt, PfDir dir);
/* The range of a matmul's result: K products of its operands' ranges (approx for float operands;
 * unbounded when accumulated atomically). */
PfRange pf_mm_range(const PfMM *m, PfRange a, PfRange b);
/* Vec capacity of the program's target (targets.md §1.2), less a margin for the planner. */
int64_t pf_vec_capacity(const PfProgram *p);
/* Matmul operands written by a vector block stay within this magnitude (the FP32 tolerance). */
#define PF_MM_OPERAND_MAX 4.0
/* The dtype of a tensor-level binary result (promotion, spec/ops.md §2.2 and decision 3). */
DType pf_vpromote(DType a, DType b);

/* progfuzz_mix.c: the structural rules of a mixed region (split axes, extents, UB), its value range
 * (in m->lo / m->hi); false with the broken rule in *why. */
bool pf_mix_check(const PfProgram *p, PfMix *m, const char **why);
void pf_mix_round_out(PfProgram *p, const PfMix *m);
/* The columns of the stored result ([M, cols]), the columns of b / rows of w2 read (all trips). */
int64_t pf_mix_out_cols(const PfMix *m);
/* Prints the region (user form) at indent ind; tname names tensors like the printer. */
struct StrBuf;
void pf_print_mix(struct StrBuf *sb, const PfProgram *p, int si, int ind);
const char *pf_tname(const PfProgram *p, int t, char *buf);
/* One shrinking step of a mixed region (progfuzz_reduce.c); false when idx has none. */
bool pf_mix_mutate(PfMix *m, int idx);

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
