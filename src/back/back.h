/* back — tile IR to machine kernels: lowering (lower.c), synchronisation insertion (sync.c), and the
 * text emitters (.pto in pto.c, PTO-ISA C++ in cpp.c, orchestration C++ in orch.c). */
#ifndef PTOC_BACK_H
#define PTOC_BACK_H

#include "ir/ir.h"
#include "mir/mir.h"
#include "target/target.h"

/* Lowers one AIC/AIV function (after AllocateMemoryAddr) to a kernel allocated in `arena`.
 * Returns NULL after reporting to diag when the function uses something the backend cannot lower. */
Kernel *back_lower_function(const Function *f, const Target *t, Arena *arena, DiagSink *diag);

/* Event IDs used per pipe direction after sync insertion: ids_used[src][dst] = number of distinct
 * EVENT_IDs the kernel uses for that direction. */
typedef struct SyncStats {
    int ids_used[PIPE_COUNT][PIPE_COUNT];
    int nset, nwait, nbarrier;          /* instructions inserted (static count, compensation included) */
    int nfallback_barriers;             /* pairs turned into pipe_barrier(PIPE_ALL) for lack of IDs */
} SyncStats;

/* The six-stage synchronisation insertion of spec/isa_and_sync.md §8 on exact address intervals.
 * Skipped (returns false) when the kernel already contains set/wait flags. */
bool back_insert_sync(Kernel *k, const Target *t, SyncStats *stats);

/* The kernel as a PTO-dialect module (spec/ir_and_passes.md §9), including the inserted syncs. */
void back_print_pto(const Kernel *k, const Target *t, StrBuf *out);

/* The kernel as PTO-ISA C++ with its kernel_entry wrapper (emit_cpp.c). Returns false, with the
 * located form in `why`, when the kernel uses a form the emitter cannot spell (the text then holds an
 * #error at that point); `why` starts with "ptoc defect: " when the form is a buffer ptoc planned that
 * pto-isa's Tile cannot declare (a whole number of fractals, 32-byte rows). */
bool back_print_cpp(const Kernel *k, const Target *t, StrBuf *out, StrBuf *why);

/* The orchestration C++ of an Orchestration function (spec/ir_and_passes.md §11). */
void back_print_orchestration(const Program *p, const Function *orch, StrBuf *out);

#endif
