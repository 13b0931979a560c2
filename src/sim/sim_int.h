/* sim_int — private types of the simulator shared by its files (not part of the API).
 *
 * SimCore: memories and reusable scratch. SimRun: the state of one sim_run (dynamic instruction
 * stream, per-buffer layout tables, pipe queues, flags, vector clocks, shadow memory). */
#ifndef PTOC_SIM_INT_H
#define PTOC_SIM_INT_H

#include "sim/sim.h"
#include "sim/race_map.h"

#include <string.h>

#define SIM_MAX_EVENTS 16        /* event IDs per (src, dst) direction accepted by the simulator */
#define SIM_GRANULE 32           /* bytes per shadow-memory granule */
#define SIM_MAX_MSGS 100         /* cap on race / sync-error messages */
#define SIM_SCALAR_UB_CYCLES 20  /* tgetval / tsetval: one UB element through the scalar unit (ptoc's model) */
#define SIM_MAX_DYN 50000000     /* dynamic instruction limit (a runaway loop is a hard error) */
#define SIM_GROUP_MAX 3          /* cores of one cluster run together: the AIC and two AIV lanes */
#define SIM_VC (SIM_GROUP_MAX * PIPE_COUNT)   /* vector clock width: one entry per (core, pipe) */
#define SIM_MAX_SLOTS 1024       /* slot_num accepted by the simulator (ring slots are int16) */
#define SIM_ID_BITS 26           /* shadow ids: (core << SIM_ID_BITS) | (dynamic index + 1); SIM_MAX_DYN < 2^26 */

/* The GM shadow of a run or group (race.c): an interval map of granules (race_map.h). */
typedef SimRaceMap SimGmShadow;

struct SimCore {
    const Target *t;
    CoreKind kind;
    uint8_t *block;              /* one allocation: the flag table, then every space's bytes */
    uint8_t *mem[MS_COUNT];
    int64_t size[MS_COUNT];
    VEC(float) fa, fb, fc;       /* MAD scratch: dense A, B, C */
    VEC(int32_t) ia, ib, ic;     /* INT8 MAD scratch */
    VEC(double) vrow;            /* vector unit scratch: dense rows (vec.c) */
    struct SimFlag *flags;       /* PIPE_COUNT² × SIM_MAX_EVENTS, all clear between runs: a run's flag table,
                                  * kept with the core so no run zeroes 300 KiB (sim_run_prepare / cleanup) */
    struct SimGmRec *gm_rec_spare;   /* the last run's GM footprint sets, emptied, for the next run (race_gm.c) */
    struct SimRaceMap *rmap_spare[MS_COUNT];   /* the last run's race shadows (race.c): on-chip spaces, and */
    struct SimRaceMap *gm_rmap_spare;          /* a run's own GM shadow; reset, not reallocated, by the next */
};

/* A buffer's layout as two separable tables: element offset of (i, j) = roff[i] + coff[j]
 * (every layout of §3 is separable). Offsets in elements from the buffer address. */
typedef struct SimView {
    const MirBuf *buf;
    uint8_t *base;               /* mem[space] + addr */
    int eb;                      /* element bytes */
    int64_t *roff, *coff;        /* rows, cols entries */
    int32_t *rrun, *crun;        /* rrun[i]: rows i, i + 1, ... with consecutive offsets (>= 1); crun: columns */
} SimView;

/* End (exclusive, <= n) of the run of consecutive offsets from index j of a run table. */
static inline int64_t sim_run_end(const int32_t *run, int64_t j, int64_t n) {
    return j + run[j] < n ? j + run[j] : n;
}

/* Address of element (r, c) of a buffer through its view. */
static inline uint8_t *sim_elem_ptr(const SimView *v, int64_t r, int64_t c) {
    return v->base + (v->roff[r] + v->coff[c]) * v->eb;
}

/* memcpy of n bytes; the box-row sizes of tile layouts (16 / 32 / 64 bytes) inline. */
static inline void sim_copy_bytes(uint8_t *d, const uint8_t *s, int64_t n) {
    if (n == 32) memcpy(d, s, 32);
    else if (n == 64) memcpy(d, s, 64);
    else if (n == 16) memcpy(d, s, 16);
    else memcpy(d, s, (size_t)n);
}

/* Rows [0, nr) x columns [0, nc) of a view copied from (to_view) or to memory of its dtype whose
 * row r starts at mem + r * ld elements (layout.c). */
void sim_rows_copy(const SimView *v, int64_t nr, int64_t nc, uint8_t *mem, int64_t ld, bool to_view);

/* n FP16 values at src -> float, vectorised, bit-identical to fp16_to_f32 (mad.c). */
void sim_fp16_run(const uint8_t *src, int64_t n, float *out);

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
    int16_t slot[4];             /* ring slot used by operand dst, src0, src1, src2 (ring buffers; else 0) */
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
    int32_t vc[SIM_VC];          /* setter's knowledge (race detector) */
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

typedef struct SimGroup SimGroup;

typedef struct SimRun {
    SimGroup *g;                 /* the group it runs in (sim_run: a group of one) */
    int ci;                      /* its index in the group: vector clock entries [ci·PIPE_COUNT, +PIPE_COUNT) */
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
    SimFlag (*flags)[PIPE_COUNT][SIM_MAX_EVENTS];   /* [src][dst][event]: the core's table (SimCore.flags) */
    int32_t nflags_set;          /* flags set and not yet waited for: the end-of-kernel scan runs only when > 0 */
    /* cross-core channels, during the walk */
    int32_t *ring_npop;          /* per ring (indexed by its first buffer): TPOPs into it issued so far */
    int16_t *ring_cur;           /* per buffer: slot of the latest TPOP into it */
    VEC(int32_t) pend[2];        /* per MirXDir: (buffer << 16 | slot) of pops issued and not yet freed, FIFO */
    int32_t pend_head[2];
    /* race detector: known[P][c·PIPE_COUNT + Q] = highest seq of pipe Q of group core c known to have
     * completed before P's next instruction starts */
    int32_t known[PIPE_COUNT][SIM_VC];
    SimRaceMap *gm_map;          /* GM shadow (the run's own, or the group's shared one) */
    SimRaceMap *gm_own;          /* the GM shadow of a run of its own (freed with the run), NULL in a group */
    SimRaceMap *chip[MS_COUNT];  /* on-chip shadows of this run, made on first access (freed with the run) */
    const bool *gm_written;      /* a run of its own: per param, some instruction writes it (NULL in a group) */
    int64_t *gm_base, *gm_len;   /* per param: first granule in gm_sh and granule count */
    int64_t gm_lo, gm_hi;        /* exact bytes of the GM access being checked (cross-core false sharing) */
    bool race_dry, race_dry_hit; /* race.c touch_gm: a probe that only notes whether a race would be reported */
    VEC(SimRace) reported;
    /* timing-only runs: taint_by[v] = the element read (tgetval / ggetval) whose value variable v holds
     * (NULL: not data-dependent); ntaint counts them, so runs without reads skip the check */
    const MirInst **taint_by;
    struct SimGmRec *gm_rec;     /* the GM footprint recorded so far (race_gm.c) */
    int ntaint;
    bool failed;                 /* a hard error happened */
} SimRun;

/* One cross-core channel (mir.h, MirXDir) of a group: every entry pushed (index = push number), how
 * many were popped, and every slot release (index = free number). Push n takes the slot released by
 * free n - slot_num (n >= slot_num); pop m takes entry m. */
typedef struct SimXEntry {
    uint8_t *data;               /* rows x cols elements of dt, logical row-major (NULL: fence or phantom) */
    int64_t rows, cols;
    DType dt;
    bool sync_only, phantom;     /* phantom: made by a forced pop of the deadlock recovery */
    int64_t ready;               /* when a pop may take it: push end + cross-core flag latency */
    int producer, consumer;      /* group indices of the pushing and (once popped) the popping run */
    const MirInst *push, *pop;   /* the instructions (pop: once popped) */
    int32_t vc[SIM_VC];          /* the producer's knowledge at the push (race detector) */
} SimXEntry;
typedef struct SimXFree { int64_t time; int32_t vc[SIM_VC]; } SimXFree;
typedef struct SimChan {
    VEC(SimXEntry) ent;
    int32_t npop;
    VEC(SimXFree) fr;
    int slot_num;                /* 0 until an instruction names the channel */
} SimChan;

struct SimGroup {
    int n;
    SimRun *runs[SIM_GROUP_MAX];
    int walking;                 /* index of the run being walked; later ones are not walked yet */
    SimChan ch[2][2];            /* [MirXDir][lane] */
    int aiv_of_lane[2];          /* group index of the AIV kernel of each lane, -1 when none */
    int aic;                     /* group index of the AIC kernel, -1 when none */
    SimGmShadow *gm_shadow;      /* groups of more than one: GM shadow shared by all, keyed by data pointer */
};

/* core.c: one run of a group — sim_run_prepare (views, variables, shadow; before any walk of the
 * group), sim_run_walk (the scalar walk), sim_run_report (tokens left set, cube_util),
 * sim_run_cleanup */
bool sim_run_prepare(SimRun *s);
bool sim_run_walk(SimRun *s);
void sim_run_report(SimRun *s);
void sim_run_cleanup(SimRun *s);
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
/* race_gm.c: records that elements [lo, hi) of GM parameter `param` were touched (the runtime's race
 * check); sim_gm_coalesce puts the run's footprint into its SimResult.gm at the end. */
typedef struct SimGmRec SimGmRec;
void sim_record_gm(SimRun *s, int param, int64_t lo, int64_t hi, bool write, bool atomic);
/* Whether elements [lo, hi) of the parameter lie inside one range recorded so far (a window re-read). */
bool sim_gm_covered(SimRun *s, int param, int64_t lo, int64_t hi, bool write, bool atomic);
void sim_gm_coalesce(SimRun *s);
void sim_gm_rec_free(SimRun *s);          /* the run's sets, emptied, to its core's spare */
void sim_gm_rec_release(SimGmRec *g);     /* frees them (NULL: nothing) */
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
bool sim_run_pipes(SimGroup *g);
/* Runs the engine until the issued instruction dyn[order] has executed (a scalar read whose value the
 * walk needs); false on a hard error. */
bool sim_run_pipes_until(SimRun *s, int32_t order);
/* scalar.c: tgetval / tsetval / ggetval / gsetval. sim_scalar_issue evaluates a GM access's indices
 * into the element offset d->off0 (hard error outside the parameter). */
bool sim_scalar_issue(SimRun *s, const MirInst *i, SimDyn *d);
bool sim_exec_scalar(SimRun *s, const SimDyn *d);
/* xcore.c: the cross-core channels. sim_xcore_issue checks a tpush / tpop / tfree at issue and
 * resolves its ring slots; sim_xcore_can_start tells whether the head d can start (its slot is free /
 * its entry is there) and raises *t0 to when; sim_xcore_exec runs it at [start, end) (forced: the
 * deadlock recovery releases it); sim_xcore_blocked describes why d waits; sim_xcore_finish reports
 * what is left in the channels at the end; sim_ring_slots fills d->slot for a ring operand. */
bool sim_xcore_issue(SimRun *s, const MirInst *i, SimDyn *d);
void sim_ring_slots(SimRun *s, SimDyn *d);
bool sim_xcore_can_start(SimRun *s, const SimDyn *d, int64_t *t0);
bool sim_xcore_exec(SimRun *s, const SimDyn *d, int64_t end, bool forced);
void sim_xcore_blocked(SimRun *s, const SimDyn *d, StrBuf *sb);
void sim_xcore_finish(SimGroup *g);
void sim_xcore_free(SimGroup *g);
/* Points the views of d's ring operands at their slots (undo: sim_ring_rebase(s, d, -1)). */
void sim_ring_rebase(SimRun *s, const SimDyn *d, int sign);
/* group.c */
const char *sim_kernel_tag(const SimRun *s);     /* "kernel K: " in a group of several, else "" */
/* race.c */
void sim_race_init(SimRun *s);
void sim_race_group_init(SimGroup *g);
void sim_race_free(SimRun *s);
void sim_gm_shadow_release(SimGmShadow *g);    /* frees a group's GM shadow (race.c) */
void sim_race_access(SimRun *s, const SimDyn *d);
/* Checks and records one access of d (a tfree's release of its slot, which names no operand). */
void sim_race_touch(SimRun *s, const SimDyn *d, const MirAccess *a, bool write);

#endif
