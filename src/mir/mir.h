/* mir — machine IR: one Kernel per AIC/AIV function, with PTO-dialect semantics.
 *
 * A kernel is GM tensor parameters + on-chip buffers (space, address, bytes, shape, layout) + a body
 * of instructions inside structured for/if regions with scalar expressions. Every instruction knows
 * its pipe and the exact byte intervals it reads and writes (mir_inst_access), which is what sync
 * insertion (back/sync.c) and the simulator's race detector (sim/) work on.
 *
 * Tile instructions address whole buffers: the valid region of a buffer is [0, valid_rows) x
 * [0, valid_cols) of its rows x cols capacity, stored in the layout its (blayout, slayout, fractal)
 * give (spec/isa_and_sync.md §2–§3). A buffer's byte interval is [addr, addr + bytes) of its space.
 */
#ifndef PTOC_MIR_H
#define PTOC_MIR_H

#include "base/base.h"
#include "base/dtype.h"

/* Pipe enum values of the spec (the sync-ID arithmetic relies on them). */
typedef enum {
    PIPE_S = 0, PIPE_V = 1, PIPE_M = 2, PIPE_MTE1 = 3, PIPE_MTE2 = 4, PIPE_MTE3 = 5, PIPE_ALL = 6,
    PIPE_MTE4 = 7, PIPE_MTE5 = 8, PIPE_V2 = 9, PIPE_FIX = 10, PIPE_COUNT = 11, PIPE_NONE = 99
} Pipe;
const char *mir_pipe_name(Pipe p);            /* "MTE1" (C++ spelling PIPE_MTE1 is "PIPE_" + this) */

typedef enum { ML_NONE_BOX = 0, ML_ROW_MAJOR, ML_COL_MAJOR } MirLayout;   /* same values as TileLayout */

/* ---- scalar expressions (loop bounds, offsets, predicates, vector scalar operands) ----
 * A node's value is an int64 or, when fp is set, a double: the scalar semantics of ir/scalar.c
 * (Python's): an operator with a float operand computes in double; MB_DIV is true division (a
 * float); comparisons and and/or give an integer 0/1. A float kernel variable (Kernel.var_fp) holds
 * the bits of its double in the int64 variable array. MX_CAST converts to cast_to as a scalar cast
 * does: to a float type rounds to nearest even at its width (DT_NONE: to double, exact for integers
 * up to 2^53), to an integer type truncates toward zero and wraps. */
typedef enum { MX_CONST, MX_VAR, MX_BIN, MX_NOT, MX_NEG, MX_ABS, MX_CAST } MirExprKind;
typedef enum {
    MB_ADD, MB_SUB, MB_MUL, MB_FLOORDIV, MB_FLOORMOD, MB_MIN, MB_MAX,
    MB_EQ, MB_NE, MB_LT, MB_LE, MB_GT, MB_GE, MB_AND, MB_OR, MB_DIV
} MirBinOp;
typedef struct MirExpr MirExpr;
struct MirExpr {
    MirExprKind kind;
    bool fp;                  /* the value is a double */
    int64_t value;            /* MX_CONST (integer) */
    double fvalue;            /* MX_CONST (fp) */
    int var;                  /* MX_VAR: index into Kernel.vars */
    MirBinOp op;              /* MX_BIN */
    DType cast_to;            /* MX_CAST */
    MirExpr *a, *b;           /* MX_BIN (a, b), MX_NOT / MX_NEG / MX_ABS / MX_CAST (a) */
};
/* A run-time scalar value. */
typedef struct MirNum { bool fp; int64_t i; double f; } MirNum;

/* ---- kernel parameters and buffers ---- */
#define MIR_MAX_RANK 5        /* an NZ parameter is rank 5: [1, C/c0, R/16, 16, c0] */
enum { MIR_LAYOUT_ND = 0, MIR_LAYOUT_DN = 1, MIR_LAYOUT_NZ = 2 };   /* TensorLayout values */

/* A GM tensor parameter. An ND parameter is addressed row-major (leading dims folded into rows).
 * An NZ parameter (layout MIR_LAYOUT_NZ) holds the logical R x C matrix in NZ fractal order: its
 * shape is the blocked [1, C/c0, R/16, 16, c0] with packed strides (R·C, R·c0, 16·c0, c0, 1), so
 * logical element (r, c) lies at (c / c0)·R·c0 + r·c0 + c % c0 (spec/isa_and_sync.md §3). */
typedef struct MirParam {
    const char *name;
    bool is_tensor;           /* false: a scalar parameter */
    DType dtype;
    int rank;
    int64_t shape[MIR_MAX_RANK];
    int64_t strides[MIR_MAX_RANK];   /* elements, row-major packed by default */
    int layout;               /* MIR_LAYOUT_*: the TensorLayout of the IR parameter */
    int var;                  /* scalar parameter: index + 1 of the kernel variable it binds (0: none) */
} MirParam;

typedef struct MirBuf {
    int id;                   /* index in Kernel.bufs */
    const char *name;         /* IR variable name, for reports */
    MemSpace space;
    int64_t addr, bytes;      /* byte interval [addr, addr + bytes) in its space */
    DType dtype;
    int64_t rows, cols;       /* static capacity */
    int64_t valid_rows, valid_cols;
    MirLayout blayout, slayout;
    int64_t fractal;          /* box bytes: 512 or 1024; ignored for none_box */
    int pad;                  /* PadValue */
    bool compact;
    int ring_slots;           /* > 0: a cross-core ring buffer of ring_slots slots of `bytes` each (see MirXDir) */
} MirBuf;

/* ---- vector instructions (MI_VOP), spec/ops.md ----
 * X(id, pto name, kind, fn). kind says which operands the instruction uses; fn the element
 * combination of binary, scalar and expand forms. */
typedef enum {
    MVK_BINARY,      /* dst = src0 fn src1                 (identical valid shapes) */
    MVK_SCALAR,      /* dst = src0 fn s                     s = scalar (MirExpr) or imm, in dst's dtype (cmps: src0's) */
    MVK_UNARY,       /* dst = f(src0) */
    MVK_CAST,        /* dst = convert(src0) to dst's dtype, mode = MirRound */
    MVK_FILL,        /* dst valid region = s */
    MVK_FILLPAD,     /* dst = src0 inside src0's valid region, pad value (mode = PadValue) elsewhere; dst whole */
    MVK_ROW_REDUCE,  /* dst[r, 0] = fn over the valid columns of src0 row r; src1 = tmp (unused); fn ADD MAX MIN MUL */
    MVK_COL_REDUCE,  /* dst[0, c] = fn over the valid rows of src0 column c; src1 = tmp or -1 */
    MVK_ROW_EXPAND,  /* dst[r, c] = src0[r, c] fn src1[r, 0]  (fn NONE: src1[r, 0]; src0 = -1) */
    MVK_COL_EXPAND,  /* dst[r, c] = src0[r, c] fn src1[0, c]  (fn NONE: src1[0, c]; src0 = -1) */
    MVK_CMP,         /* dst (UINT8 packed mask) bit (r, c) = src0[r, c] cmp src1[r, c], mode = MirCmp */
    MVK_CMPS,        /* dst (UINT8 packed mask) bit (r, c) = src0[r, c] cmp s */
    MVK_SEL,         /* dst[r, c] = bit (r, c) of the mask src0 ? src1[r, c] : src2[r, c] */
    MVK_SELS,        /* dst[r, c] = bit (r, c) of the mask src0 ? src1[r, c] : s */
    MVK_TRANS,       /* dst[c, r] = src0[r, c] over src0's valid region */
    MVK_CONCAT,      /* dst[r, c] = c < vC(src0) ? src0[r, c] : src1[r, c - vC(src0)] */
    MVK_PART,        /* over dst's valid region: src0 fn src1 where both are valid, the one valid operand's
                      * element where only one is, 0 where neither is (TPartOp) */
    MVK_ROW_ARG,     /* dst (INT32)[r, 0] = column index of the first max (fn MAX) / min of src0 row r; src1 = tmp */
    MVK_COL_ARG,     /* dst (INT32)[0, c] = row index of the first max / min of src0 column c; src1 = tmp */
} MirVecKind;
/* Compare modes (cmp_type), the numbering of PyPTO and pto-isa. A packed mask holds the predicate of
 * column c of row r in bit c % 8 (LSB first) of byte c / 8 of mask row r; bits beyond the valid
 * columns are 0 (spec/ops.md §4.8, decision 7: sel reads it per row, as cmp writes it). */
typedef enum { MCMP_EQ = 0, MCMP_NE, MCMP_LT, MCMP_LE, MCMP_GT, MCMP_GE } MirCmp;
/* FMOD: C fmod / %; REM: fmod, plus the divisor when the signs differ and the result is not 0;
 * AND OR XOR SHL SHR: integer bit ops (shr of a signed type is arithmetic); PRELU: a > 0 ? a : a * b;
 * EXPDIF: exp(a - b), the difference in the element type (vec_bits.c, docs/vector.md). */
typedef enum {
    MVF_NONE, MVF_ADD, MVF_SUB, MVF_MUL, MVF_DIV, MVF_MAX, MVF_MIN,
    MVF_FMOD, MVF_REM, MVF_AND, MVF_OR, MVF_XOR, MVF_SHL, MVF_SHR, MVF_PRELU, MVF_EXPDIF
} MirVecFn;
typedef enum { MRND_NONE = 0, MRND_RINT, MRND_ROUND, MRND_FLOOR, MRND_CEIL, MRND_TRUNC, MRND_ODD } MirRound;

#define MIR_VOPS(X)                                                                        \
    X(ADD, "tadd", MVK_BINARY, MVF_ADD) X(SUB, "tsub", MVK_BINARY, MVF_SUB)                 \
    X(MUL, "tmul", MVK_BINARY, MVF_MUL) X(DIV, "tdiv", MVK_BINARY, MVF_DIV)                 \
    X(MAX, "tmax", MVK_BINARY, MVF_MAX) X(MIN, "tmin", MVK_BINARY, MVF_MIN)                 \
    X(ADDS, "tadds", MVK_SCALAR, MVF_ADD) X(SUBS, "tsubs", MVK_SCALAR, MVF_SUB)             \
    X(MULS, "tmuls", MVK_SCALAR, MVF_MUL) X(DIVS, "tdivs", MVK_SCALAR, MVF_DIV)             \
    X(MAXS, "tmaxs", MVK_SCALAR, MVF_MAX) X(MINS, "tmins", MVK_SCALAR, MVF_MIN)             \
    X(FMOD, "tfmod", MVK_BINARY, MVF_FMOD) X(FMODS, "tfmods", MVK_SCALAR, MVF_FMOD)          \
    X(REM, "trem", MVK_BINARY, MVF_REM) X(REMS, "trems", MVK_SCALAR, MVF_REM)                 \
    X(AND, "tand", MVK_BINARY, MVF_AND) X(ANDS, "tands", MVK_SCALAR, MVF_AND)                 \
    X(OR, "tor", MVK_BINARY, MVF_OR) X(ORS, "tors", MVK_SCALAR, MVF_OR)                       \
    X(XOR, "txor", MVK_BINARY, MVF_XOR) X(XORS, "txors", MVK_SCALAR, MVF_XOR)                 \
    X(SHL, "tshl", MVK_BINARY, MVF_SHL) X(SHLS, "tshls", MVK_SCALAR, MVF_SHL)                 \
    X(SHR, "tshr", MVK_BINARY, MVF_SHR) X(SHRS, "tshrs", MVK_SCALAR, MVF_SHR)                 \
    X(NOT, "tnot", MVK_UNARY, MVF_NONE)                                                     \
    X(PRELU, "tprelu", MVK_BINARY, MVF_PRELU) X(LRELU, "tlrelu", MVK_SCALAR, MVF_PRELU)       \
    X(PARTADD, "tpartadd", MVK_PART, MVF_ADD) X(PARTMUL, "tpartmul", MVK_PART, MVF_MUL)       \
    X(PARTMAX, "tpartmax", MVK_PART, MVF_MAX) X(PARTMIN, "tpartmin", MVK_PART, MVF_MIN)       \
    X(EXP, "texp", MVK_UNARY, MVF_NONE) X(LOG, "tlog", MVK_UNARY, MVF_NONE)                 \
    X(SQRT, "tsqrt", MVK_UNARY, MVF_NONE) X(RSQRT, "trsqrt", MVK_UNARY, MVF_NONE)           \
    X(RECIP, "trecip", MVK_UNARY, MVF_NONE) X(ABS, "tabs", MVK_UNARY, MVF_NONE)             \
    X(NEG, "tneg", MVK_UNARY, MVF_NONE) X(RELU, "trelu", MVK_UNARY, MVF_NONE)               \
    X(CVT, "tcvt", MVK_CAST, MVF_NONE)                                                      \
    X(EXPANDS, "texpands", MVK_FILL, MVF_NONE)                                              \
    X(FILLPAD, "tfillpad", MVK_FILLPAD, MVF_NONE)                                           \
    X(ROWSUM, "trowsum", MVK_ROW_REDUCE, MVF_ADD) X(ROWMAX, "trowmax", MVK_ROW_REDUCE, MVF_MAX) \
    X(ROWMIN, "trowmin", MVK_ROW_REDUCE, MVF_MIN)                                           \
    X(COLSUM, "tcolsum", MVK_COL_REDUCE, MVF_ADD) X(COLMAX, "tcolmax", MVK_COL_REDUCE, MVF_MAX) \
    X(COLMIN, "tcolmin", MVK_COL_REDUCE, MVF_MIN)                                           \
    X(ROWPROD, "trowprod", MVK_ROW_REDUCE, MVF_MUL) X(COLPROD, "tcolprod", MVK_COL_REDUCE, MVF_MUL) \
    X(ROWARGMAX, "trowargmax", MVK_ROW_ARG, MVF_MAX) X(ROWARGMIN, "trowargmin", MVK_ROW_ARG, MVF_MIN) \
    X(COLARGMAX, "tcolargmax", MVK_COL_ARG, MVF_MAX) X(COLARGMIN, "tcolargmin", MVK_COL_ARG, MVF_MIN) \
    X(FILLPADEXPAND, "tfillpad_expand", MVK_FILLPAD, MVF_NONE)                              \
    X(ROWEXPAND, "trowexpand", MVK_ROW_EXPAND, MVF_NONE)                                    \
    X(ROWEXPANDADD, "trowexpandadd", MVK_ROW_EXPAND, MVF_ADD)                               \
    X(ROWEXPANDSUB, "trowexpandsub", MVK_ROW_EXPAND, MVF_SUB)                               \
    X(ROWEXPANDMUL, "trowexpandmul", MVK_ROW_EXPAND, MVF_MUL)                               \
    X(ROWEXPANDDIV, "trowexpanddiv", MVK_ROW_EXPAND, MVF_DIV)                               \
    X(ROWEXPANDMAX, "trowexpandmax", MVK_ROW_EXPAND, MVF_MAX)                               \
    X(ROWEXPANDMIN, "trowexpandmin", MVK_ROW_EXPAND, MVF_MIN)                               \
    X(ROWEXPANDEXPDIF, "trowexpandexpdif", MVK_ROW_EXPAND, MVF_EXPDIF)                      \
    X(COLEXPAND, "tcolexpand", MVK_COL_EXPAND, MVF_NONE)                                    \
    X(COLEXPANDADD, "tcolexpandadd", MVK_COL_EXPAND, MVF_ADD)                               \
    X(COLEXPANDSUB, "tcolexpandsub", MVK_COL_EXPAND, MVF_SUB)                               \
    X(COLEXPANDMUL, "tcolexpandmul", MVK_COL_EXPAND, MVF_MUL)                               \
    X(COLEXPANDDIV, "tcolexpanddiv", MVK_COL_EXPAND, MVF_DIV)                               \
    X(COLEXPANDMAX, "tcolexpandmax", MVK_COL_EXPAND, MVF_MAX)                               \
    X(COLEXPANDMIN, "tcolexpandmin", MVK_COL_EXPAND, MVF_MIN)                               \
    X(COLEXPANDEXPDIF, "tcolexpandexpdif", MVK_COL_EXPAND, MVF_EXPDIF)                      \
    X(CMP, "tcmp", MVK_CMP, MVF_NONE) X(CMPS, "tcmps", MVK_CMPS, MVF_NONE)                  \
    X(SEL, "tsel", MVK_SEL, MVF_NONE) X(SELS, "tsels", MVK_SELS, MVF_NONE)                  \
    X(TRANS, "ttrans", MVK_TRANS, MVF_NONE) X(CONCAT, "tconcat", MVK_CONCAT, MVF_NONE)

typedef enum {
#define X(id, pto, kind, fn) VOP_##id,
    MIR_VOPS(X)
#undef X
    VOP_COUNT
} MirVecOp;
const char *mir_vop_pto(MirVecOp v);          /* "tadd" (the .pto op is "pto." + this) */
MirVecKind mir_vop_kind(MirVecOp v);
MirVecFn mir_vop_fn(MirVecOp v);

/* ---- instructions ---- */
typedef enum {
    MI_TLOAD,        /* dst buf <- GM param window at off (mir_gm_noff entries) of dst valid size  MTE2 */
    MI_TSTORE,       /* GM param window at off <- src0 buf valid region (atomic_add)  FIX from Acc, MTE3 otherwise */
    MI_TEXTRACT,     /* dst buf <- src0 window at (off[0], off[1]) of dst size                       MTE1 from Mat; FIX from Acc */
    MI_TMOV,         /* dst buf <- src0 whole                                                        MTE1 from Mat; FIX from Acc; V */
    MI_TMATMUL,      /* dst(acc) = src0(left) * src1(right)                                          M */
    MI_TMATMUL_ACC,  /* dst(acc) = src2(acc in, usually == dst) + src0 * src1                         M */
    MI_TMATMUL_BIAS, /* dst(acc) = src0 * src1 + src2(bias)                                          M */
    MI_TINSERT,      /* dst buf window at (off[0], off[1]) <- src0                                   FIX */
    MI_VOP,          /* vector instruction vop (MirVecOp) on Vec buffers                            V */
    /* scalar element access (spec/ops.md §4.9); the scalar unit waits for a read's value */
    MI_TGETVAL,      /* vars[var] = element (off[0], off[1]) of buffer src0 (logical indices)        S */
    MI_TSETVAL,      /* element (off[0], off[1]) of buffer dst = scalar, converted to its dtype      S */
    MI_GGETVAL,      /* vars[var] = element at index (off[0], ..) of GM parameter param              S */
    MI_GSETVAL,      /* element at index (off[0], ..) of GM parameter param = scalar                  S */
    /* cross-core transfer between the cores of one cluster (mixed kernels, spec/isa_and_sync.md TPUSH /
     * TPOP; the channel model is described below, at MirXDir) */
    MI_TPUSH,        /* channel (xdir, lane) <- src0's valid region (sync_only: no data)      FIX from Acc, MTE3 otherwise */
    MI_TPOP,         /* dst (a ring buffer) <- the oldest entry of the channel (sync_only: no dst)   MTE2 */
    MI_TFREE,        /* releases the ring slot of this core's oldest not yet freed pop of the channel   S */
    MI_SET_FLAG,     /* set (src_pipe -> dst_pipe, event) ; issued on src_pipe */
    MI_WAIT_FLAG,    /* wait (src_pipe -> dst_pipe, event) ; issued on dst_pipe */
    MI_BARRIER,      /* pipe_barrier(pipe) ; PIPE_ALL drains every pipe */
    MI_FOR,          /* for vars[var] in [start, stop) step: body */
    MI_IF,           /* if cond: then_body else else_body */
} MirOp;

/* ---- cross-core channels (MI_TPUSH / MI_TPOP / MI_TFREE) ----
 * A mixed task runs on one cluster: the AIC kernel and one AIV kernel per lane (Kernel.lane 0 / 1; one
 * lane only when the region has no split). Between the AIC and lane L there is one FIFO channel per
 * direction, C2V (AIC pushes, lane L pops) and V2C (lane L pushes, AIC pops), of `slot_num` slots (the
 * instruction's slot_num; push and pop of one channel agree). A push waits for a free slot, a pop for a
 * filled one, entries are taken in push order, and a slot is free again only after the consumer's TFREE
 * (the consumer reads the popped data in place, in its ring buffer, until then).
 *
 * Split (MirSplit of the AIC-side instruction): C2V push of a tile of valid R x C: NONE sends it whole
 * to lane 0; UP_DOWN sends rows [0, h) to lane 0 and [h, R) to lane 1, h = ceil(R / 2); LEFT_RIGHT the
 * same by columns. V2C pop on the AIC: NONE takes lane 0's entry; UP_DOWN / LEFT_RIGHT take one entry
 * from each lane and place lane 1's below (right of) lane 0's. The AIV side pushes / pops its own part
 * (its buffer's valid shape); a part whose shape differs from what the other side sends is an error.
 *
 * Ring buffers: the consumer's pop destination is a MirBuf with ring_slots = slot_num > 0, slot s at
 * [addr + s·bytes, addr + (s + 1)·bytes). Every instruction of the consumer kernel that names the ring
 * buffer uses the slot of the latest TPOP of that buffer issued before it (pop n uses slot n % slot_num).
 * sync_only push / pop carry no data (a fence ordering a GM store on one side before a load on the
 * other); their slot count is slot_num too. */
typedef enum { XDIR_C2V = 0, XDIR_V2C = 1 } MirXDir;
typedef enum { MSPLIT_NONE = 0, MSPLIT_UP_DOWN = 1, MSPLIT_LEFT_RIGHT = 2 } MirSplit;

typedef struct MirInst MirInst;
typedef struct MirBlock { MirInst **items; int len, cap; } MirBlock;

struct MirInst {
    MirOp op;
    Pipe pipe;                /* the pipe the instruction is issued on (PIPE_NONE for for/if) */
    Span loc;                 /* source location it came from */
    int dst, src0, src1, src2;/* buffer ids, -1 when unused */
    int param;                /* GM param index (tload / tstore), -1 otherwise */
    MirExpr *off[MIR_MAX_RANK];   /* textract / tinsert: (row, col). tload / tstore: the window origin in the
                                   * parameter's coordinates — (row, col) for ND, 5 blocked indices
                                   * (0, col / c0, row / 16, row % 16, col % c0) for NZ (mir_gm_noff) */
    bool atomic_add;          /* tstore */
    /* MI_VOP */
    MirVecOp vop;
    MirExpr *scalar;          /* MVK_SCALAR / MVK_FILL: a run-time scalar operand, or NULL: use imm; T/GSETVAL: the value */
    double imm;               /* the constant scalar operand (already a value of the dst dtype) */
    int mode;                 /* MVK_CAST: MirRound; MVK_FILLPAD: PadValue (1 zero, 2 max, 3 min); MVK_CMP(S): MirCmp */
    /* sync */
    Pipe src_pipe, dst_pipe;
    int event;                /* EVENT_IDn */
    int event_alt;            /* -1, or the second ID of a double-buffered pair: ID = (vars[event_var] / step) % 2 ? alt : event */
    int event_var;
    bool compensation;        /* a pre-set or drain inserted for a loop-carried pair */
    /* cross-core (MI_TPUSH / MI_TPOP / MI_TFREE) */
    MirXDir xdir;
    MirSplit split;           /* the AIC side's split; NONE on the AIV side */
    MirSplit region_split;    /* the region's split on both sides (the pto-isa C++ TileSplitAxis) */
    int slot_num;             /* slots of the channel (>= 1) */
    bool sync_only;           /* a fence: no data */
    /* control flow */
    int var;                  /* MI_FOR: loop variable index; MI_TGETVAL / MI_GGETVAL: the variable read into */
    MirExpr *start, *stop, *step;
    MirBlock body;            /* MI_FOR body */
    MirExpr *cond;            /* MI_IF */
    MirBlock then_body, else_body;
};

typedef enum { CORE_AIC = 0, CORE_AIV = 1 } CoreKind;

typedef struct Kernel {
    const char *name;
    CoreKind core;
    int lane;                 /* AIV kernel of a mixed task: its lane (sub-block) 0 or 1; 0 otherwise */
    MirParam *params; int nparams;
    MirBuf *bufs; int nbufs, capbufs;
    const char **vars; int nvars, capvars;   /* scalar variable names (loop variables, scalar parameters, reads) */
    bool *var_fp;             /* per variable: holds a float (the bits of a double); NULL: none does */
    MirBlock body;
    Arena *arena;             /* owner of every node of this kernel (not freed by the kernel) */
    const bool *param_written;   /* per parameter: some tstore / gsetval writes it; NULL until
                                    mir_mark_param_written (then the simulator works it out per run) */
} Kernel;

/* ---- building (mir/mir.c) ---- */
Kernel *mir_kernel_new(Arena *a, const char *name, CoreKind core);
/* Fills k->param_written once the kernel is final (after sync insertion): the race detector's per-run
 * question "does anything write parameter p" then costs nothing per run. */
void mir_mark_param_written(Kernel *k);
/* w[p] := true for every parameter p some tstore / gsetval of k writes (w zeroed, nparams entries). */
void mir_param_writes(const Kernel *k, bool *w);
int mir_add_buf(Kernel *k, MirBuf b);                 /* returns id */
int mir_add_var(Kernel *k, const char *name);         /* returns var index */
MirInst *mir_inst_new(Kernel *k, MirOp op, Pipe pipe);    /* all ids -1, event_alt -1 */
void mir_block_push(Kernel *k, MirBlock *b, MirInst *i);
void mir_block_insert(Kernel *k, MirBlock *b, int at, MirInst *i);
void mir_block_remove(MirBlock *b, int at);
MirExpr *mir_const(Kernel *k, int64_t v);
MirExpr *mir_var(Kernel *k, int var);
MirExpr *mir_bin(Kernel *k, MirBinOp op, MirExpr *a, MirExpr *b);
MirExpr *mir_not(Kernel *k, MirExpr *a);
MirExpr *mir_fconst(Kernel *k, double v);
MirExpr *mir_unary(Kernel *k, MirExprKind kind, MirExpr *a);     /* MX_NOT, MX_NEG, MX_ABS */
MirExpr *mir_cast(Kernel *k, MirExpr *a, DType to);             /* to DT_NONE: to double */
void mir_set_var_fp(Kernel *k, int var);                        /* the variable holds a float */
int64_t mir_eval(const MirExpr *e, const int64_t *vars);     /* asserts mir_eval_checked succeeds */
/* false on int64 overflow, division by zero or a float that is not an int64 (run-time values: the
 * caller reports the error); a float result converts to the integer it holds (truncated). */
bool mir_eval_checked(const MirExpr *e, const int64_t *vars, int64_t *out);
/* The value with its kind; false as mir_eval_checked (a float never fails but on division by zero). */
bool mir_eval_num(const MirExpr *e, const int64_t *vars, MirNum *out);
bool mir_is_const(const MirExpr *e, int64_t *out);
bool mir_is_sync(const MirInst *i);                   /* set/wait/barrier */
const char *mir_op_name(MirOp op);                   /* "tload"; a vector instruction is named by mir_vop_pto */
bool mir_is_scalar_access(const MirInst *i);         /* T/G GETVAL / SETVAL */
/* Number of offsets of a GM instruction: tload / tstore: 5 for an NZ parameter, else 2; a scalar GM
 * access: the parameter's rank (one index per dimension). */
int mir_gm_noff(const Kernel *k, const MirInst *i);
/* The logical matrix a GM parameter holds: R x C (NZ: unblocked; ND: leading dims folded into rows). */
void mir_param_matrix(const MirParam *p, int64_t *rows, int64_t *cols);

/* ---- memory effects ---- */
/* A byte interval of one space. GM intervals are relative to the start of parameter `param`
 * (whole-tensor granularity: every GM access covers the parameter's whole extent). */
typedef struct MirAccess { MemSpace space; int param; int64_t lo, hi; } MirAccess;
/* Fills reads/writes (capacity 4 each) for a tile instruction; returns false for sync/control. */
bool mir_inst_access(const Kernel *k, const MirInst *i, MirAccess *reads, int *nreads,
                     MirAccess *writes, int *nwrites);
bool mir_access_overlap(const MirAccess *a, const MirAccess *b);
/* The pipe a tile instruction runs on, from its operands' spaces (isa_and_sync.md §6.1). */
Pipe mir_pipe_for(const Kernel *k, MirOp op, int dst, int src0);

/* ---- text ---- */
void mir_print_expr(const Kernel *k, const MirExpr *e, StrBuf *out);   /* C-like: ko + 128 */
void mir_dump(const Kernel *k, StrBuf *out);          /* debugging listing, one instruction per line */

#endif
