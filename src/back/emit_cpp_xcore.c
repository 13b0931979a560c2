/* emit_cpp_xcore — cross-core transfers (TPUSH / TPOP / TFREE of mixed kernels) as PTO-ISA C++.
 * Requires: emit_cpp_int.h state. Produces: lines into the kernel body.
 * Does: nothing yet but report the form: ptoc's channel model (mir.h, MirXDir: ring buffers in the
 * consumer's memory, per-lane split) has no emitted counterpart yet, and the host check cannot run
 * the two halves of a cluster concurrently, so a mixed kernel is reported, never emitted wrongly. */
#include "back/emit_cpp_int.h"

void cpp_xcore_inst(Cpp *c, const MirInst *i) {
    static const char *ops[] = { "tpush", "tpop", "tfree" };
    cpp_unsupported(c, i, "the cross-core %s (mixed kernel)", ops[i->op - MI_TPUSH]);
}
