/* sync_internal — private data of the synchronisation pass (sync.c, sync_hazard.c, sync_move.c,
 * sync_ids.c, sync_emit.c).
 *
 * Requires: a level-3 kernel (every buffer at a fixed address) without set/wait flags.
 * Produces: the linear sync IR of spec/isa_and_sync.md §8.1 — elements with pipeBefore / pipeAfter
 *           lists of sync ops — which the later stages edit and sync_emit.c materialises.
 * Does:     declares the element / sync-op / pair / region records and the stage entry points.
 *
 * Positions. A sync op sits in a list attached to an element: BEFORE the element or AFTER it. The
 * program point of an op is 2 * element + (AFTER ? 1 : 0); ops in one list execute in list order.
 * Where the lists of each element kind are materialised:
 *   FUNC_BEGIN.after   head of the kernel            FUNC_END.before   tail of the kernel
 *   COMPOUND           before / after its instruction
 *   LOOP_BEGIN.before  before the for                LOOP_BEGIN.after  start of the loop body
 *   LOOP_END.before    end of the loop body          LOOP_END.after    after the for
 *   IF_BEGIN.before    before the if                 IF_END.after      after the if
 *   PH_THEN.before / PH_ELSE.before  end of the then / else body
 */
#ifndef PTOC_SYNC_INTERNAL_H
#define PTOC_SYNC_INTERNAL_H

#include "back/back.h"

typedef VEC(int) IntVec;

typedef enum {
    EK_FUNC_BEGIN, EK_FUNC_END, EK_COMPOUND, EK_LOOP_BEGIN, EK_LOOP_END,
    EK_IF_BEGIN, EK_PH_THEN, EK_ELSE_BEGIN, EK_PH_ELSE, EK_IF_END
} ElKind;

typedef struct SyncEl {
    ElKind kind;
    MirInst *inst;            /* the tile instruction, or the MI_FOR / MI_IF */
    Pipe pipe;                /* COMPOUND */
    MirAccess rd[4], wr[4];
    int nrd, nwr;
    int begin, mid, end;      /* loop: begin, -, end; if: IF_BEGIN, ELSE_BEGIN, IF_END (element indices) */
    int region;               /* innermost region holding the element (the outer one for structure elements) */
    int body, then_r, else_r; /* regions opened by a LOOP_BEGIN / IF_BEGIN (and copied to their END) */
    IntVec before, after;     /* sync op ids */
} SyncEl;

typedef enum { SO_SET, SO_WAIT, SO_BARRIER } SyncOpKind;

typedef struct SyncOp {
    SyncOpKind kind;
    Pipe src, dst;            /* SET / WAIT */
    Pipe pipe;                /* BARRIER */
    int pair;                 /* -1 for barriers */
    int elem;                 /* element the op is attached to */
    bool after;               /* in elem.after (else elem.before) */
    bool compensation;
    int event;                /* assigned ID */
} SyncOp;

typedef struct SyncPair {
    Pipe src, dst;
    int set, wait;            /* op ids */
    int loop;                 /* LOOP_END element index of a loop-carried pair, else -1 */
    int nid;                  /* eventIdNum: always 1 in ptoc (see docs/sync.md) */
    bool dead;
    bool confined;            /* loop-carried pair allocated at loop scope */
    int conf_loop;            /* confined: LOOP_END element of the loop it lives in (its own or an outer one) */
    int sunk_from;            /* 1 + program point of the set before stage 3 sank it out of a loop, 0 if never */
    int hoisted_from;         /* 1 + program point of the wait before stage 3 hoisted it out of a loop, 0 if never */
    bool carries;             /* its pre-set / drain around its loop also serve forward pairs hoisted / sunk out of
                                 that loop: stays confined to its own loop */
    bool carries_sunk, carries_hoisted;   /* which of the two (the drain / the pre-set) */
    int event;                /* assigned ID, -1 none */
    int comp_set, comp_wait;  /* compensation op ids, -1 none */
} SyncPair;

typedef enum { RG_ROOT, RG_LOOP, RG_THEN, RG_ELSE } RegionKind;
typedef struct SyncRegion { RegionKind kind; int parent; int begin, end; } SyncRegion;

typedef struct SyncCtx {
    Kernel *k;
    const Target *t;
    VEC(SyncEl) el;
    VEC(SyncOp) ops;
    VEC(SyncPair) pairs;
    VEC(SyncRegion) regions;
    SyncStats *st;
} SyncCtx;

/* sync.c — ops and lists */
int sync_op_new(SyncCtx *c, SyncOp op, int elem, bool after);   /* appends to the list, returns id */
void sync_op_detach(SyncCtx *c, int op);                        /* removes from its list */
void sync_op_attach(SyncCtx *c, int op, int elem, bool after, int at);  /* at = -1: append */
IntVec *sync_list(SyncCtx *c, int elem, bool after);
int sync_op_index(SyncCtx *c, int op);                          /* position inside its list */
int sync_op_point(const SyncCtx *c, int op);                    /* 2 * elem + after */
int sync_op_region(const SyncCtx *c, int op);
bool sync_region_contains(const SyncCtx *c, int outer, int inner);

/* sync_move.c — relative order of two sets (a fires no earlier than b) / two waits (a blocks no
 * later than b): a later program point, or the same list with only sets (waits) between them. */
bool sync_set_not_before(SyncCtx *c, int a, int b);
bool sync_wait_not_after(SyncCtx *c, int a, int b);

/* sync_hazard.c — does every path from wait `wait` to set `set` order the wait's pipe before the
 * set fires? With loop_region >= 0 the path crosses that loop's back edge once (set in a later
 * iteration). A wait no path reaches (the other branch of an if) counts as ordered. */
bool sync_ordered(SyncCtx *c, int set, int wait, int loop_region);
/* innermost loop region holding both regions, -1 none */
int sync_common_loop(const SyncCtx *c, int ra, int rb);

/* sync_skip.c — which elements a backward scan can jump over (see the file). Bit kinds: */
enum { SK_PIPE = 0,                    /* + p: a compound on pipe p */
       SK_BARRIER = PIPE_COUNT,        /* + p: a barrier on pipe p (PIPE_ALL included) */
       SK_WAIT = 2 * PIPE_COUNT, SK_SET, SK_STRUCT, SK_COUNT };
typedef struct SyncSkip {
    int n, nw, nb;
    uint64_t *bits[SK_COUNT];          /* bit e: element e holds the kind */
    uint64_t *sum[SK_COUNT];           /* bit w: word w of bits holds any (a scan jumps 4,096 elements) */
} SyncSkip;
void sync_skip_init(SyncSkip *s, const SyncCtx *c);
void sync_skip_note(SyncSkip *s, const SyncCtx *c, int op);   /* op was attached to its element */
void sync_skip_free(SyncSkip *s);
/* the highest element in [lo, i] holding any kind of the mask sel (bit k = kind k), else lo - 1 */
int sync_skip_prev(const SyncSkip *s, uint64_t sel, int i, int lo);

/* stages */
void sync_analyse(SyncCtx *c);        /* sync_hazard.c: stage 2 */
void sync_move(SyncCtx *c);           /* sync_move.c: stage 3 */
void sync_remove_redundant(SyncCtx *c);
/* a forward pair whose set was sunk out of a loop rides on a loop-carried pair's drain, one whose
 * wait was hoisted out of a loop on a loop-carried pair's pre-set (sync_move.c) */
void sync_carry_sunk_sets(SyncCtx *c);  /* sync_move.c: stage 4 */
void sync_guard_tokens(SyncCtx *c);   /* sync_hazard.c: guard pairs so that no set can hit an unconsumed token */
void sync_alloc_ids(SyncCtx *c);      /* sync_ids.c: stage 5 */
void sync_emit(SyncCtx *c);           /* sync_emit.c: stage 6 */

#endif
