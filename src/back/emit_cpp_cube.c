/* emit_cpp_cube — the cube and data-movement instructions of a kernel as PTO-ISA C++: TEXTRACT,
 * TINSERT, TMOV, TMATMUL, TMATMUL_ACC, TMATMUL_BIAS (spec/isa_and_sync.md §10).
 * Requires: emit_cpp_int.h state. Produces: lines into the kernel body. Does: one call per
 * instruction; window offsets are uint16_t in the ISA (tile coordinates, always < 65536). */
#include "back/emit_cpp_int.h"

static void window(Cpp *c, const MirInst *i, StrBuf *o) {
    for (int d = 0; d < 2; d++) {
        sb_puts(o, ", (uint16_t)(");
        if (i->off[d]) cpp_expr(c, i->off[d], o);
        else sb_putc(o, '0');
        sb_putc(o, ')');
    }
}

bool cpp_cube_inst(Cpp *c, const MirInst *i) {
    StrBuf w = { 0 };
    switch (i->op) {
    case MI_TEXTRACT: case MI_TINSERT:
        window(c, i, &w);
        cpp_line(c, "%s(%s, %s%s);", i->op == MI_TEXTRACT ? "TEXTRACT" : "TINSERT", c->bn[i->dst], c->bn[i->src0], sb_cstr(&w));
        break;
    case MI_TMOV: cpp_line(c, "TMOV(%s, %s);", c->bn[i->dst], c->bn[i->src0]); break;
    case MI_TMATMUL: cpp_line(c, "TMATMUL(%s, %s, %s);", c->bn[i->dst], c->bn[i->src0], c->bn[i->src1]); break;
    case MI_TMATMUL_ACC: {   /* the four-operand form: the CPU simulation has no in-place overload */
        int in = i->src2 >= 0 ? i->src2 : i->dst;
        cpp_line(c, "TMATMUL_ACC(%s, %s, %s, %s);", c->bn[i->dst], c->bn[in], c->bn[i->src0], c->bn[i->src1]);
        break;
    }
    case MI_TMATMUL_BIAS:
        cpp_line(c, "TMATMUL_BIAS(%s, %s, %s, %s);", c->bn[i->dst], c->bn[i->src0], c->bn[i->src1], c->bn[i->src2]);
        break;
    default: return false;
    }
    sb_free(&w);
    return true;
}
