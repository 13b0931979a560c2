/* emit_cpp_int — private state of the PTO-ISA C++ emitter (emit_cpp.c: names, types, scalar
 * expressions, GM views, control flow, sync, the kernel_entry wrapper; emit_cpp_cube.c: the cube and
 * data-movement instructions; emit_cpp_vec.c: vector instructions; emit_cpp_xcore.c: cross-core
 * transfers). Requires: mir.h. Produces: nothing public. */
#ifndef PTOC_EMIT_CPP_INT_H
#define PTOC_EMIT_CPP_INT_H

#include "back/back.h"

typedef struct CppLoop { int var; const MirExpr *step; } CppLoop;

typedef struct Cpp {
    const Kernel *k;
    const Target *t;
    char **bn;                /* buffer variable names */
    char **vn;                /* scalar variable names */
    char **pn;                /* parameter names */
    StrBuf *o;
    int ind;
    CppLoop loops[64]; int nloops;
    int ntmp;
    StrBuf why;               /* non-empty: the first form without a PTO-ISA C++ spelling */
    bool defect;              /* ... because ptoc planned a tile pto-isa cannot declare (tile_ok) */
} Cpp;

/* emit_cpp.c */
void cpp_expr(Cpp *c, const MirExpr *e, StrBuf *o);          /* a C++ expression of e */
void cpp_unsupported(Cpp *c, const MirInst *i, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
const char *cpp_ctype(DType t);                              /* "half", "float", ... ; NULL: none */
void cpp_tile_type(Cpp *c, int b, bool whole, StrBuf *o);    /* buffer b's Tile<...>; whole: valid = the full shape */
void cpp_line(Cpp *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));   /* indented line */
/* emit_cpp_cube.c */
bool cpp_cube_inst(Cpp *c, const MirInst *i);                /* false: not a cube / move instruction */
/* emit_cpp_vec.c */
void cpp_vec_inst(Cpp *c, const MirInst *i);
void cpp_scalar_access(Cpp *c, const MirInst *i);
/* emit_cpp_xcore.c */
void cpp_xcore_inst(Cpp *c, const MirInst *i);
void cpp_xcore_decls(Cpp *c);                                /* the channels and ring counters */

#endif
