/* emit_cpp_vec — vector instructions and scalar element access of a kernel as PTO-ISA C++.
 * Requires: emit_cpp_int.h state. Produces: lines into the kernel body. */
#include "back/emit_cpp_int.h"

void cpp_vec_inst(Cpp *c, const MirInst *i) { cpp_unsupported(c, i, "the vector instruction %s", mir_vop_pto(i->vop)); }

void cpp_scalar_access(Cpp *c, const MirInst *i) { cpp_unsupported(c, i, "the scalar access %s", mir_op_name(i->op)); }
