/* sim_int — private types of the simulator shared by its files (not part of the API).
 *
 * SimCore: memories and reusable scratch. SimRun: the state of one sim_run (dynamic instruction
 * stream, per-buffer layout tables, pipe queues, flags, vector clocks, shadow memory). */
#ifndef PTOC_SIM_INT_H
#define PTOC_SIM_INT_H

#include "sim/sim.h"

#define SIM_MAX_EVENTS 16        /* event IDs per (src, dst) direction accepted by the simulator */
#define SIM_GRANULE 32           /* bytes per shadow-memory granule */
#define SIM_MAX_MSGS 100         /* cap on race / sync-error messages */
#define SIM_SCALAR_UB_CYCLES 20  /* tgetval / tsetval: one UB element through the scalar unit (ptoc's model) */
#define SIM_MAX_DYN 50000000     /* dynamic instruction limit (a runaway loop is a hard error) */
#define SIM_SLOTS 8              /* reader slots per granule: S V M MTE1 MTE2 MTE3 FIX, other pipes share 7 */

/* Shadow state of one granule: last writer and last reader per pipe slot, as 1-based indices into
 * the run's dynamic instruction array (0 = none). */
typedef struct SimShadow {
    int32_t w;
    int32_t r[SIM_SLOTS];
} SimShadow;

struct SimCore {
    const Target *t;
    CoreKind kind;
    uint8_t *mem[MS_COUNT];
    int64_t size[MS_COUNT];
    VEC(float) fa, fb, fc;       /* MAD scratch: dense A, B, C */
    VEC(int32_t) ia, ib, ic;     /* INT8 MAD scratch */
    VEC(double) vrow;            /* vector unit scratch: dense rows (vec.c) */
    /* race detector shadow memory, kept across runs (reset over the dirty granule range) */
    SimShadow *shadow[MS_COUNT];
    int64_t dirty_lo[MS_COUNT], dirty_hi[MS_COUNT];
    VEC(SimShadow) gm_shadow;    /* all GM parameters of a run, concatenated */
};

/* A buffer's layout as two separable tables: element offset of (i, j) = roff[i] + coff[j]
 * (every layout of §3 is separable). Offsets in elements from the buffer address. */
typedef struct SimView {
    const MirBuf *buf;
    uint8_t *base;               /* mem[space] + addr */
    int eb;                      /* element bytes */
    int64_t *roff, *coff;        /* rows, cols entries */
} SimView;

/* Address of element (r, c) of a buffer through its view. */
static inline uint8_t *sim_elem_ptr(const SimView *v, int64_t r, int64_t c) {
    return v->base + (v->roff[r] + v->coff[c]) * v->eb;
}

/* Buffer id `id` exists and lies in Vec (the vector instructions' operands). */
#define SIM_IS_VEC_BUF(s, id) ((id) >= 0 && (id) < (s)->k->nbufs && (s)->k->bufs[(id)].space == MS_VEC)

/* How a GM parameter's logical matrix element (r, c) is addressed (elements from its base):
 * ND: r·rs + c·cs; NZ: (c / c0)·strip + r·rs + c % c0, rs = c0 (spec/isa_and_sync.md §3). */
typedef struct SimGm {
    int64_t rows, cols;          /* the logical matrix */
    int64_t rs, cs;
    bool nz;
    int64_t c0, strip;           /* NZ: fractal columns and elements per column strip (R·c0) */
} SimGm;

static inline int64_t sim_gm_offset(const SimGm *g, int64_t r, int64_t c) {
    return g->nz ? (c / g->c0) * g->strip + r * g->rs + c % g->c0 : r * g->rs + c * g->cs;
}

/* One issued (dynamic) instruction. */
typedef struct SimDyn {
    const MirInst *inst;
    int64_t off0, off1;          /* evaluated offsets; tload / tstore: the window's logical (row, col);
                                  * ggetval / gsetval: off0 = the element offset */
    int32_t order;               /* issue index */
    int64_t t_issue;             /* issue time in cycles: one per instruction, later after a scalar read's stall */
    int32_t seq;                 /* 1-based sequence number on its pipe */
    int16_t pipe;                /* queue it was issued to (PIPE_ALL for a PIPE_ALL barrier) */
    int16_t event;               /* resolved event id */
    int32_t snap;                /* PIPE_ALL barrier: index of its per-pipe seq snapshot */
    MirNum sc;                   /* MI_VOP with inst->scalar: the scalar operand's value at issue */
} SimDyn;

/* The scalar operand of a vector instruction as an element of type t stores it (spec/ops.md §4.2):
 * a run-time integer wraps to t, a run-time float (or the constant imm) rounds to nearest even for
 * a float t and truncates and saturates for an integer t. */
static inline double sim_vop_scalar(const SimDyn *d, DType t) {
    const MirInst *i = d->inst;
    if (i->scalar && !d->sc.fp) return dtype_convert(t, DT_INT64, (double)d->sc.i, DT_ROUND_RINT);
    double v = i->scalar ? d->sc.f : i->imm;
    return dtype_convert(t, DT_FP32, v, dtype_is_float(t) ? DT_ROUND_RINT : DT_ROUND_TRUNC);
}

typedef struct SimFlag {
    bool set;
    int64_t time;                /* when it became set */
    const MirInst *setter;
    int32_t vc[PIPE_COUNT];      /* setter's knowledge (race detector) */
} SimFlag;

typedef struct SimRace {         /* one reported (static pair, kind) */
    const MirInst *a, *b;
    int kind;
} SimRace;

/* The pipe engine's state (pipes.c); kept in the run so that the walk can run it up to a scalar read. */
typedef struct SimEngine {
    int64_t pipe_free[PIPE_COUNT];
    int32_t head[PIPE_COUNT];
    int64_t allbar_end, max_end, completed;
} SimEngine;

typedef struct SimRun {
    SimCore *c;
    const Kernel *k;
    const Target *t;
    void **gm;
    const SimOptions *o;
    SimResult *r;
    DiagSink *diag;
    Arena *arena;                /* per-run allocations */
    SimView *views;              /* per buffer */
    int64_t *vars;
    int64_t *var_step;           /* step of the MI_FOR defining each var (1 when none) */
    VEC(SimDyn) dyn;
    VEC(int32_t) queue[PIPE_COUNT];
    VEC(int32_t) snaps;          /* PIPE_COUNT entries per PIPE_ALL barrier */
    int32_t issued[PIPE_COUNT];  /* per-pipe seq counters during the walk */
    int64_t stall;               /* cycles the scalar unit waited for element reads so far */
    SimEngine eng;
    SimFlag flags[PIPE_COUNT][PIPE_COUNT][SIM_MAX_EVENTS];
    /* race detector */
    int32_t known[PIPE_COUNT][PIPE_COUNT];
    int64_t *gm_base;            /* per param: first granule in SimCore.gm_shadow */
    VEC(SimRace) reported;
    bool failed;                 /* a hard error happened */
} SimRun;

/* core.c */
bool sim_hard_error(SimRun *s, const MirInst *i, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
void sim_add_msg(SimRun *s, bool race, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* layout.c */
bool sim_build_view(SimRun *s, const MirBuf *b, SimView *v);
void sim_copy_window(const SimView *dst, int64_t dr, int64_t dc, const SimView *src, int64_t sr, int64_t sc,
                     int64_t rows, int64_t cols);
void sim_fill_pad(const SimView *v, int64_t vrows, int64_t vcols, double value);
void sim_gm_geometry(const MirParam *p, SimGm *g);
/* Evaluates a tload / tstore window origin into logical (row, col); hard error for an NZ window
 * that does not start on a fractal. */
bool sim_gm_origin(SimRun *s, const MirInst *i, int64_t *row, int64_t *col);
/* exec.c */
bool sim_exec(SimRun *s, const SimDyn *d);
/* Records that elements [lo, hi) of GM parameter `param` were touched (the runtime's race check). */
void sim_record_gm(SimRun *s, int param, int64_t lo, int64_t hi, bool write, bool atomic);
/* vec.c: vector instructions. sim_vop_check validates an MI_VOP's operands, dtypes, valid shapes
 * and mode when it is issued (hard error naming the op and the shapes); sim_exec_vop executes it. */
bool sim_vop_check(SimRun *s, const MirInst *i);
bool sim_exec_vop(SimRun *s, const SimDyn *d);
/* vec_row.c: one tile row <-> a dense row; n elements from column c0 (loads) or 0 (stores).
 * load_d reads any dtype as double; store_d rounds once to FP16 / BF16 / FP32 (other dtypes: the
 * value must already be in range); the integer forms are exact and wrap on store. */
void sim_vrow_load_d(const SimView *v, int64_t r, int64_t c0, int64_t n, double *o);
void sim_vrow_store_d(const SimView *v, int64_t r, int64_t n, const double *in);
void sim_vrow_load_i(const SimView *v, int64_t r, int64_t c0, int64_t n, int64_t *o);
void sim_vrow_store_i(const SimView *v, int64_t r, int64_t n, const int64_t *in);
/* Dense kernels: o = a fn b (fn NONE: o = b), o = op(a). The integer forms return the index of the
 * first zero divisor (div, recip) or -1. o may equal a or b. */
void sim_vrow_bin_d(MirVecFn fn, double *o, const double *a, const double *b, int64_t n);
int64_t sim_vrow_bin_i(MirVecFn fn, int64_t *o, const int64_t *a, const int64_t *b, int64_t n);
void sim_vrow_unary_d(MirVecOp op, double *o, const double *a, int64_t n);
int64_t sim_vrow_unary_i(MirVecOp op, int64_t *o, const int64_t *a, int64_t n);
/* FP32 kernels on contiguous rows in tile memory (byte pointers; d may equal a or b):
 * d = a fn b, d = a fn s (fn NONE: d = s), d = op(a). */
void sim_vrow_bin_f32(MirVecFn fn, uint8_t *d, const uint8_t *a, const uint8_t *b, int64_t n);
void sim_vrow_sc_f32(MirVecFn fn, uint8_t *d, const uint8_t *a, float s, int64_t n);
void sim_vrow_unary_f32(MirVecOp op, uint8_t *d, const uint8_t *a, int64_t n);
/* vec_cmp.c: compare (packed masks) and select */
bool sim_vop_check_cmp(SimRun *s, const MirInst *i);
bool sim_exec_vop_cmp(SimRun *s, const SimDyn *d);
/* vec_move.c: transpose and concat */
bool sim_vop_check_move(SimRun *s, const MirInst *i);
bool sim_exec_vop_move(SimRun *s, const SimDyn *d);
/* vec_bits.c: fmod rem and or xor shl shr not prelu lrelu expdif and tpart* (docs/vector.md).
 * sim_vfn_is_bits: fn's dense kernels are here (MVF_FMOD and after). sim_vop_bits_dtype_error: NULL
 * when the op computes on dt, else what it takes. The dense kernels (o may equal a or b) return,
 * for integers, the index of the first element with a zero divisor (fmod, rem) or a shift count
 * outside [0, bits) (shl, shr), or -1. */
bool sim_vfn_is_bits(MirVecFn fn);
const char *sim_vop_bits_dtype_error(MirVecOp op, DType dt);
void sim_vrow_bits_d(MirVecFn fn, DType dt, double *o, const double *a, const double *b, int64_t n);
int64_t sim_vrow_bits_i(MirVecFn fn, DType dt, int64_t *o, const int64_t *a, const int64_t *b, int64_t n);
bool sim_vop_check_part(SimRun *s, const MirInst *i);
bool sim_exec_vop_part(SimRun *s, const SimDyn *d);
/* vec_arg.c: row / column argmax and argmin */
bool sim_vop_check_arg(SimRun *s, const MirInst *i);
bool sim_exec_vop_arg(SimRun *s, const SimDyn *d);
/* mad.c */
bool sim_exec_matmul(SimRun *s, const SimDyn *d);
/* pipes.c */
bool sim_run_pipes(SimRun *s);
/* Runs the engine until the issued instruction dyn[order] has executed (a scalar read whose value the
 * walk needs); false on a hard error. */
bool sim_run_pipes_until(SimRun *s, int32_t order);
/* scalar.c: tgetval / tsetval / ggetval / gsetval. sim_scalar_issue evaluates a GM access's indices
 * into the element offset d->off0 (hard error outside the parameter). */
bool sim_scalar_issue(SimRun *s, const MirInst *i, SimDyn *d);
bool sim_exec_scalar(SimRun *s, const SimDyn *d);
/* race.c */
void sim_race_init(SimRun *s);
void sim_race_free(SimRun *s);
void sim_race_access(SimRun *s, const SimDyn *d);

#endif
