/* interp — the reference interpreter: functional semantics of every IR op on logical arrays.
 * Evaluates a program at any stage of the pipeline (tensor level, tile level, after memory
 * planning — memory spaces, MemRefs and allocations do not change the logical result), so it gives
 * the golden outputs and per-pass differential checks.
 *
 * Numerics: FP16/BF16/FP32 operands are multiplied exactly and accumulated in FP32 (the cube's
 * accumulator); INT8 in INT32. Values are rounded to their dtype whenever they are stored into a
 * tensor or tile of that dtype (round half to even for FP16/BF16). */
#ifndef PTOC_INTERP_H
#define PTOC_INTERP_H

#include "ir/ir.h"

/* A caller-owned tensor: row-major packed elements of `dtype` (FP16/BF16 as uint16 bit patterns). */
typedef struct InterpTensor {
    DType dtype;
    int rank;
    int64_t shape[8];
    void *data;
} InterpTensor;

/* Runs function `entry` of p (NULL: the Orchestration function, else the only function) with args
 * bound to its parameters in order (tensors only). Out/InOut tensors are written in place: a tensor
 * of a packed dtype (all but 64-bit integers and pl.NZ; docs/interp.md "Values") is used as the
 * interpreter's array itself, so writes land during the run (a failed run may leave some) and a BOOL
 * buffer's nonzero bytes are normalised to 1; the others are copied in and packed back on
 * success.
 * Returns false with a diagnostic on an evaluation error (shape mismatch, out-of-range window,
 * unsupported op). */
bool interp_run(const Program *p, const char *entry, InterpTensor *args, int nargs, DiagSink *diag);

#endif
