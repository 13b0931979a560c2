/* progfuzz_vec — the vector ops the generator knows, and the value ranges that keep their programs
 * meaningful (docs/fuzzing.md "Vector blocks").
 *
 * Requires: a PfVec block (progfuzz.h) and the ranges of the tensors it reads.
 * Produces: the op table (pf_vop: spelling, operand kind, legal dtypes, domain flags, feature,
 *           weight), the Vec bytes of a block, the 32-byte row alignment rule, and the range of
 *           one node from its operands (pf_vnode_range) — used by the generator to choose
 *           operands and by pf_finalize to re-check every program, reduced ones too.
 * Does:     interval arithmetic. A float result is widened by 1/64 of its bounds (per-op rounding
 *           in FP16 / BF16); integers are exact. A node is rejected when its operand leaves the op's
 *           domain (log / rsqrt of values not >= 0.01, recip / div by values within 0.01 of zero,
 *           integer division by a range holding 0), when its result leaves the dtype's magnitude
 *           limit (pf_vdt_limit: values stay finite and comparisons meaningful), when a cast to an
 *           integer would saturate or wrap, or when an op that amplifies relative error (division,
 *           recip, rsqrt, log, sqrt, narrowing casts) takes an `approx` value — one that depends on
 *           a matmul's accumulation order, where the interpreter and the simulator agree only
 *           within the tolerance.
 *
 * Adding an op: a PfVOp enumerator (progfuzz.h), a row here (its kind decides how the generator
 * picks operands and how it prints), and its range rule in pf_vnode_range when the kind's generic
 * rule does not fit. */
#include <math.h>
#include <string.h>

#include "progfuzz.h"

#define POS_MIN 0.01            /* log / rsqrt / recip / div operands stay this far from zero */
#define APPROX_EXP_MAX 2.0      /* exp of an approx value: the error grows by exp(x) */

static const PfVOpInfo ops[PF_V_NOPS] = {
    /*                 name        xname  kind              dtypes                                 expand dtypes                                      flags */
    [PF_V_LOAD]     = { "load",     NULL,  PF_VK_LOAD,    PF_VDT_ALL, 0, PF_VOP_APPROX_OK, PF_F_VEC, 0 },
    [PF_V_FULL]     = { "full",     NULL,  PF_VK_FULL,    PF_VDT_ALL, 0, PF_VOP_APPROX_OK, PF_F_VEC_FILL, 3 },
    [PF_V_EXPANDS]  = { "expands",  NULL,  PF_VK_EXPANDS, PF_VDT_ALL, 0, PF_VOP_APPROX_OK, PF_F_VEC_FILL, 2 },
    [PF_V_FILLPAD]  = { "fillpad",  NULL,  PF_VK_FILLPAD, PF_VDT_ALL, 0, PF_VOP_APPROX_OK, PF_F_VEC_FILL, 1 },
    [PF_V_ADD]      = { "add",      "add", PF_VK_BINARY,  PF_VDT_ALL, PF_VDT_FP32 | PF_VDT_FP16 | PF_VDT_INT32 | PF_VDT_INT16,
                        PF_VOP_APPROX_OK | PF_VOP_COMMUTES, PF_F_VEC, 10 },
    [PF_V_SUB]      = { "sub",      "sub", PF_VK_BINARY,  PF_VDT_ALL, PF_VDT_FP32 | PF_VDT_FP16 | PF_VDT_INT32 | PF_VDT_INT16,
                        PF_VOP_APPROX_OK, PF_F_VEC, 8 },
    [PF_V_MUL]      = { "mul",      "mul", PF_VK_BINARY,  PF_VDT_ALL, PF_VDT_FP32 | PF_VDT_FP16 | PF_VDT_INT32 | PF_VDT_INT16,
                        PF_VOP_APPROX_OK | PF_VOP_COMMUTES, PF_F_VEC, 8 },
    [PF_V_DIV]      = { "div",      "div", PF_VK_BINARY,  PF_VDT_FP32 | PF_VDT_FP16 | PF_VDT_INT32 | PF_VDT_INT16,
                        PF_VDT_FP32 | PF_VDT_FP16 | PF_VDT_INT32 | PF_VDT_INT16, PF_VOP_NONZERO, PF_F_VEC_DIV, 4 },
    [PF_V_MAX]      = { "maximum",  "max", PF_VK_BINARY,  PF_VDT_ALL, PF_VDT_FP32 | PF_VDT_FP16 | PF_VDT_INT32 | PF_VDT_INT16,
                        PF_VOP_APPROX_OK | PF_VOP_COMMUTES, PF_F_VEC, 5 },
    [PF_V_MIN]      = { "minimum",  "min", PF_VK_BINARY,  PF_VDT_ALL, PF_VDT_FP32 | PF_VDT_FP16 | PF_VDT_INT32 | PF_VDT_INT16,
                        PF_VOP_APPROX_OK | PF_VOP_COMMUTES, PF_F_VEC, 5 },
    [PF_V_ADDS]     = { "add",      NULL,  PF_VK_SCALAR,  PF_VDT_ALL, 0, PF_VOP_APPROX_OK | PF_VOP_COMMUTES, PF_F_VEC, 8 },
    [PF_V_SUBS]     = { "sub",      NULL,  PF_VK_SCALAR,  PF_VDT_ALL, 0, PF_VOP_APPROX_OK, PF_F_VEC, 5 },
    [PF_V_MULS]     = { "mul",      NULL,  PF_VK_SCALAR,  PF_VDT_ALL, 0, PF_VOP_APPROX_OK | PF_VOP_COMMUTES, PF_F_VEC, 8 },
    [PF_V_DIVS]     = { "div",      NULL,  PF_VK_SCALAR,  PF_VDT_ALL, 0, PF_VOP_APPROX_OK, PF_F_VEC_DIV, 3 },
    [PF_V_MAXS]     = { "maximum",  NULL,  PF_VK_SCALAR,  PF_VDT_ALL, 0, PF_VOP_APPROX_OK | PF_VOP_COMMUTES, PF_F_VEC, 5 },
    [PF_V_MINS]     = { "minimum",  NULL,  PF_VK_SCALAR,  PF_VDT_ALL, 0, PF_VOP_APPROX_OK | PF_VOP_COMMUTES, PF_F_VEC, 5 },
    [PF_V_EXP]      = { "exp",      NULL,  PF_VK_UNARY,   PF_VDT_FLOAT, 0, PF_VOP_APPROX_OK, PF_F_VEC_MATH, 5 },
    [PF_V_LOG]      = { "log",      NULL,  PF_VK_UNARY,   PF_VDT_FP32 | PF_VDT_FP16, 0, PF_VOP_POSITIVE, PF_F_VEC_MATH, 3 },
    [PF_V_SQRT]     = { "sqrt",     NULL,  PF_VK_UNARY,   PF_VDT_FLOAT, 0, PF_VOP_POSITIVE, PF_F_VEC_MATH, 3 },
    [PF_V_RSQRT]    = { "rsqrt",    NULL,  PF_VK_UNARY,   PF_VDT_FLOAT, 0, PF_VOP_POSITIVE, PF_F_VEC_MATH, 3 },
    [PF_V_RECIP]    = { "recip",    NULL,  PF_VK_UNARY,   PF_VDT_FLOAT, 0, PF_VOP_NONZERO, PF_F_VEC_MATH, 3 },
    [PF_V_ABS]      = { "abs",      NULL,  PF_VK_UNARY,   PF_VDT_ALL, 0, PF_VOP_APPROX_OK, PF_F_VEC_MATH, 3 },
    [PF_V_NEG]      = { "neg",      NULL,  PF_VK_UNARY,   PF_VDT_ALL, 0, PF_VOP_APPROX_OK, PF_F_VEC_MATH, 3 },
    [PF_V_RELU]     = { "relu",     NULL,  PF_VK_UNARY,   PF_VDT_ALL, 0, PF_VOP_APPROX_OK, PF_F_VEC_MATH, 3 },
    [PF_V_CAST]     = { "cast",     NULL,  PF_VK_CAST,    PF_VDT_ALL, 0, 0, PF_F_VEC_CAST, 6 },
    [PF_V_ROW_SUM]  = { "row_sum",  "row", PF_VK_REDUCE,  PF_VDT_FP32 | PF_VDT_FP16 | PF_VDT_BF16 | PF_VDT_INT32 | PF_VDT_INT16, 0,
                        PF_VOP_APPROX_OK, PF_F_VEC_REDUCE, 5 },
    [PF_V_ROW_MAX]  = { "row_max",  "row", PF_VK_REDUCE,  PF_VDT_FP32 | PF_VDT_FP16 | PF_VDT_BF16 | PF_VDT_INT32 | PF_VDT_INT16, 0,
                        PF_VOP_APPROX_OK, PF_F_VEC_REDUCE, 5 },
    [PF_V_ROW_MIN]  = { "row_min",  "row", PF_VK_REDUCE,  PF_VDT_FP32 | PF_VDT_FP16 | PF_VDT_INT32 | PF_VDT_INT16, 0,
                        PF_VOP_APPROX_OK, PF_F_VEC_REDUCE, 3 },
    [PF_V_COL_SUM]  = { "col_sum",  "col", PF_VK_REDUCE,  PF_VDT_FP32 | PF_VDT_FP16 | PF_VDT_BF16 | PF_VDT_INT32 | PF_VDT_INT16, 0,
                        PF_VOP_APPROX_OK, PF_F_VEC_REDUCE, 3 },
    [PF_V_COL_MAX]  = { "col_max",  "col", PF_VK_REDUCE,  PF_VDT_FP32 | PF_VDT_FP16 | PF_VDT_BF16 | PF_VDT_INT32 | PF_VDT_INT16, 0,
                        PF_VOP_APPROX_OK, PF_F_VEC_REDUCE, 3 },
    [PF_V_COL_MIN]  = { "col_min",  "col", PF_VK_REDUCE,  PF_VDT_FP32 | PF_VDT_FP16 | PF_VDT_INT32 | PF_VDT_INT16, 0,
                        PF_VOP_APPROX_OK, PF_F_VEC_REDUCE, 2 },
    /* products: sequential FP32 running products in both the interpreter and the simulator */
    [PF_V_ROW_PROD] = { "row_prod", "row", PF_VK_REDUCE,  PF_VDT_FP32 | PF_VDT_FP16 | PF_VDT_BF16 | PF_VDT_INT32 | PF_VDT_INT16, 0,
                        PF_VOP_APPROX_OK, PF_F_VEC_REDUCE, 1 },
    [PF_V_COL_PROD] = { "col_prod", "col", PF_VK_REDUCE,  PF_VDT_FP32 | PF_VDT_FP16 | PF_VDT_BF16 | PF_VDT_INT32 | PF_VDT_INT16, 0,
                        PF_VOP_APPROX_OK, PF_F_VEC_REDUCE, 1 },
    [PF_V_ROW_EXPAND] = { "row_expand", "row", PF_VK_EXPAND, PF_VDT_FP32 | PF_VDT_FP16 | PF_VDT_INT32 | PF_VDT_INT16, 0,
                        PF_VOP_APPROX_OK, PF_F_VEC_EXPAND, 1 },
    [PF_V_COL_EXPAND] = { "col_expand", "col", PF_VK_EXPAND, PF_VDT_FP32 | PF_VDT_FP16 | PF_VDT_INT32 | PF_VDT_INT16, 0,
                        PF_VOP_APPROX_OK, PF_F_VEC_EXPAND, 1 },
    /* fmod: a discontinuous function of its operands, so never of an approx value; the divisor's
     * range avoids 0 as div's does */
    [PF_V_FMOD]     = { "fmod",     NULL,  PF_VK_BINARY,  PF_VDT_ALL, 0, PF_VOP_NONZERO, PF_F_VEC_BITS, 3 },
    [PF_V_AND]      = { "and_",     NULL,  PF_VK_BINARY,  PF_VDT_INT, 0, PF_VOP_APPROX_OK | PF_VOP_COMMUTES, PF_F_VEC_BITS, 2 },
    [PF_V_OR]       = { "or_",      NULL,  PF_VK_BINARY,  PF_VDT_INT, 0, PF_VOP_APPROX_OK | PF_VOP_COMMUTES, PF_F_VEC_BITS, 2 },
    [PF_V_ROW_ARGMAX] = { "row_argmax", "row", PF_VK_REDUCE, PF_VDT_FP32 | PF_VDT_FP16 | PF_VDT_BF16 | PF_VDT_INT32 | PF_VDT_INT16 | PF_VDT_INT8, 0,
                          0, PF_F_VEC_ARG, 1 },
    [PF_V_ROW_ARGMIN] = { "row_argmin", "row", PF_VK_REDUCE, PF_VDT_FP32 | PF_VDT_FP16 | PF_VDT_BF16 | PF_VDT_INT32 | PF_VDT_INT16 | PF_VDT_INT8, 0,
                          0, PF_F_VEC_ARG, 1 },
    [PF_V_COL_ARGMAX] = { "col_argmax", "col", PF_VK_REDUCE, PF_VDT_FP32 | PF_VDT_FP16 | PF_VDT_BF16 | PF_VDT_INT32 | PF_VDT_INT16 | PF_VDT_INT8, 0,
                          0, PF_F_VEC_ARG, 1 },
    [PF_V_COL_ARGMIN] = { "col_argmin", "col", PF_VK_REDUCE, PF_VDT_FP32 | PF_VDT_FP16 | PF_VDT_BF16 | PF_VDT_INT32 | PF_VDT_INT16 | PF_VDT_INT8, 0,
                          0, PF_F_VEC_ARG, 1 },
};

const PfVOpInfo *pf_vop(int op) { return &ops[op]; }

unsigned pf_vdt_bit(DType dt) {
    switch (dt) {
    case DT_FP32: return PF_VDT_FP32;
    case DT_FP16: return PF_VDT_FP16;
    case DT_BF16: return PF_VDT_BF16;
    case DT_INT32: return PF_VDT_INT32;
    case DT_INT16: return PF_VDT_INT16;
    case DT_INT8: return PF_VDT_INT8;
    default: return 0;
    }
}

bool pf_vop_is_arg(int op) { return op >= PF_V_ROW_ARGMAX && op <= PF_V_COL_ARGMIN; }

double pf_vdt_limit(DType dt) {
    switch (dt) {
    case DT_FP32: return 1e6;
    case DT_BF16: return 1e6;
    case DT_FP16: return 2e4;
    case DT_INT32: return 1e7;
    case DT_INT16: return 32767;
    case DT_INT8: return 127;
    default: return 0;
    }
}

/* ---- shapes and bytes ---- */

int64_t pf_vshape_rows(const PfVec *v, int shape) { return shape == PF_VSH_COL ? 1 : v->R; }
int64_t pf_vshape_cols(const PfVec *v, int shape) { return shape == PF_VSH_ROW ? 1 : v->C; }

int64_t pf_vbytes(const PfVec *v, int shape, DType dt) {
    int64_t esz = dtype_bytes(dt);
    if (shape == PF_VSH_ROW) return v->R * 32;
    int64_t row = v->C * esz;
    row = (row + 31) / 32 * 32;
    return pf_vshape_rows(v, shape) * row;
}

/* Vec tiles: row-major rows are whole 32-byte blocks; a [R, 1] column (col_major) is R * esz bytes
 * in whole 32-byte blocks. */
bool pf_vshape_aligned(const PfVec *v, int shape, DType dt) {
    int64_t esz = dtype_bytes(dt);
    if (shape == PF_VSH_ROW) return v->R * esz % 32 == 0;
    return v->C * esz % 32 == 0;
}

DType pf_vpromote(DType a, DType b) {
    if (a == b) return a;
    if (dtype_is_float(a) != dtype_is_float(b)) return dtype_is_float(a) ? a : b;
    if (dtype_is_float(a) && dtype_bits(a) == dtype_bits(b)) return DT_FP32;
    if (dtype_bits(a) != dtype_bits(b)) return dtype_bits(a) > dtype_bits(b) ? a : b;
    return dtype_is_signed(a) ? a : b;
}

int64_t pf_vec_bytes(const PfVec *v) {
    int64_t total = 0;
    bool tmp_dt[DT_COUNT] = { 0 };
    for (int k = 0; k < v->nn; k++) {
        const PfVNode *n = &v->n[k];
        const PfVOpInfo *oi = pf_vop(n->op);
        int64_t copies = 1;
        if (v->tensor_level && n->op == PF_V_LOAD) {      /* a slice is loaded once per use */
            copies = 0;
            for (int i = k + 1; i < v->nn; i++) copies += (v->n[i].a == k) + (v->n[i].b == k);
            if (copies < 1) copies = 1;
        }
        total += (pf_vbytes(v, n->shape, (DType)n->dt) + 512) * copies;   /* + alignment of each buffer */
        if (!v->tensor_level) {
            if (oi->kind == PF_VK_REDUCE && (oi->xname[0] == 'r' || (n->form & PF_VF_TMP)) && !tmp_dt[(int)v->n[n->a].dt]) {
                tmp_dt[(int)v->n[n->a].dt] = true;
                total += pf_vbytes(v, PF_VSH_FULL, (DType)v->n[n->a].dt) + 512;
            }
            continue;
        }
        /* tensor level: the conversion's scratch tiles and promotion casts */
        if (oi->kind == PF_VK_REDUCE && (oi->xname[0] == 'r' || pf_vop_is_arg(n->op))) {
            int64_t c = v->C < 128 ? 128 : v->C;
            total += v->R * c * dtype_bytes((DType)v->n[n->a].dt) + 512;
        }
        if (oi->kind == PF_VK_BINARY) {
            const PfVNode *a = &v->n[n->a], *b = &v->n[n->b];
            if (a->dt != n->dt) total += pf_vbytes(v, a->shape, (DType)n->dt) + 512;
            if (b->dt != n->dt) total += pf_vbytes(v, b->shape, (DType)n->dt) + 512;
            if (a->shape != PF_VSH_FULL && n->shape == PF_VSH_FULL) total += pf_vbytes(v, PF_VSH_FULL, (DType)n->dt) + 512;
        }
        if ((oi->kind == PF_VK_SCALAR || oi->kind == PF_VK_EXPANDS) && n->a >= 0 && v->n[n->a].dt != n->dt)
            total += pf_vbytes(v, n->shape, (DType)n->dt) + 512;
    }
    return total;
}

/* ---- ranges ---- */

void pf_range_union(PfRange *into, PfRange r) {
    if (r.lo > r.hi) return;
    if (into->lo > into->hi) { *into = r; return; }
    into->lo = fmin(into->lo, r.lo);
    into->hi = fmax(into->hi, r.hi);
    into->approx |= r.approx;
}

PfRange pf_initial_range(DType dt, PfDir dir) {
    if (dir == PF_OUT || dir == PF_LOCAL) return (PfRange){ 1, 0, false };
    return dtype_is_float(dt) ? (PfRange){ -1, 1, false } : (PfRange){ -8, 7, false };
}

PfRange pf_mm_range(const PfMM *m, PfRange a, PfRange b) {
    bool fl = m->in_dt != DT_INT8;
    if (m->atomic) return (PfRange){ -1e30, 1e30, fl };
    double ma = fmax(fabs(a.lo), fabs(a.hi)), mb = fmax(fabs(b.lo), fabs(b.hi));
    double x = ma * mb * (double)m->K + (pf_mm_bias(m) >= 0 ? 8 : 0);   /* a bias: FP32 in [-1, 1), INT32 in [-8, 7] */
    if (m->style == PF_MM_TILE && m->tform == PF_TF_CHAIN) x *= (double)m->n1;   /* times an FP16 operand in [-1, 1) */
    return (PfRange){ -x, x, fl || a.approx || b.approx };
}

int64_t pf_vec_capacity(const PfProgram *p) { return (p->a5 ? 245760 : 188416) - 8192; }

static PfRange rng(double lo, double hi, bool approx) { return (PfRange){ lo < hi ? lo : hi, lo < hi ? hi : lo, approx }; }

static PfRange widen(PfRange r, DType dt) {
    if (!dtype_is_float(dt)) return r;
    r.lo -= fabs(r.lo) / 64;
    r.hi += fabs(r.hi) / 64;
    return r;
}

static double min4(double a, double b, double c, double d) { return fmin(fmin(a, b), fmin(c, d)); }
static double max4(double a, double b, double c, double d) { return fmax(fmax(a, b), fmax(c, d)); }

static bool positive(PfRange r) { return r.lo >= POS_MIN; }
static bool nonzero(PfRange r, DType dt) {
    if (!dtype_is_float(dt)) return r.lo >= 1 || r.hi <= -1;
    return r.lo >= POS_MIN || r.hi <= -POS_MIN;
}

static PfRange arith(int op, PfRange a, PfRange b, DType dt) {
    bool ap = a.approx || b.approx;
    switch (op) {
    case PF_V_ADD: case PF_V_ADDS: return rng(a.lo + b.lo, a.hi + b.hi, ap);
    case PF_V_SUB: case PF_V_SUBS: return rng(a.lo - b.hi, a.hi - b.lo, ap);
    case PF_V_MUL: case PF_V_MULS:
        return rng(min4(a.lo * b.lo, a.lo * b.hi, a.hi * b.lo, a.hi * b.hi), max4(a.lo * b.lo, a.lo * b.hi, a.hi * b.lo, a.hi * b.hi), ap);
    case PF_V_DIV: case PF_V_DIVS: {
        double q[4] = { a.lo / b.lo, a.lo / b.hi, a.hi / b.lo, a.hi / b.hi };
        PfRange r = rng(min4(q[0], q[1], q[2], q[3]), max4(q[0], q[1], q[2], q[3]), ap);
        if (!dtype_is_float(dt)) r = rng(floor(fmin(r.lo, 0)), ceil(fmax(r.hi, 0)), ap);   /* truncating */
        return r;
    }
    case PF_V_MAX: case PF_V_MAXS: return rng(fmax(a.lo, b.lo), fmax(a.hi, b.hi), ap);
    case PF_V_FMOD: {   /* the sign of the dividend, |r| < |b| and |r| <= |a| */
        double m = fmax(fabs(b.lo), fabs(b.hi));
        return rng(fmax(fmin(a.lo, 0), -m), fmin(fmax(a.hi, 0), m), ap);
    }
    case PF_V_AND: case PF_V_OR: {   /* two's-complement bits: within [-2^k, 2^k) when both operands are */
        double m = 1;
        while (m <= max4(fabs(a.lo), fabs(a.hi), fabs(b.lo), fabs(b.hi))) m *= 2;
        bool nonneg = a.lo >= 0 && b.lo >= 0;
        return rng(nonneg ? 0 : -m, m - 1, ap);
    }
    default: return rng(fmin(a.lo, b.lo), fmin(a.hi, b.hi), ap);
    }
}

static bool int_fits(PfRange r, DType dt) {
    switch (dt) {
    case DT_INT8: return r.lo >= -128 && r.hi <= 127;
    case DT_INT16: return r.lo >= -32768 && r.hi <= 32767;
    case DT_INT32: return r.lo >= -2147483648.0 && r.hi <= 2147483647.0;
    default: return true;
    }
}

/* The scalar operand of node n: the constant k, loop variable kvar plus k, or an element of an earlier
 * node (its range). */
static PfRange scalar_range(const PfVNode *n, const PfRange *nodes, const int64_t *vmin, const int64_t *vmax) {
    if (n->kread > 0) return nodes[n->kread - 1];
    if (n->kvar < 0) return rng(n->k, n->k, false);
    return rng((double)vmin[(int)n->kvar] + n->k, (double)vmax[(int)n->kvar] + n->k, false);
}

#define FAIL(msg) do { *why = (msg); return false; } while (0)

/* The valid extents of node k: a partial load's [vr, vc]; elementwise ops, casts and fills of a
 * tile keep their operand's; a reduction keeps the other axis; fillpad, full and expand make the
 * whole shape valid (spec/ops.md §2.4). */
void pf_vvalid(const PfVec *v, int k, int64_t *vr, int64_t *vc) {
    const PfVNode *n = &v->n[k];
    const PfVOpInfo *oi = pf_vop(n->op);
    *vr = pf_vshape_rows(v, n->shape);
    *vc = pf_vshape_cols(v, n->shape);
    switch (oi->kind) {
    case PF_VK_LOAD:
        if (n->vr) *vr = n->vr;
        if (n->vc) *vc = n->vc;
        return;
    case PF_VK_UNARY: case PF_VK_SCALAR: case PF_VK_CAST: case PF_VK_EXPANDS: case PF_VK_BINARY:
        if (n->a >= 0 && v->n[(int)n->a].shape == n->shape) pf_vvalid(v, n->a, vr, vc);
        return;
    case PF_VK_REDUCE: {
        int64_t ar, ac;
        if (n->a < 0) return;
        pf_vvalid(v, n->a, &ar, &ac);
        if (oi->xname[0] == 'r') *vr = ar;
        else *vc = ac;
        return;
    }
    default: return;
    }
}

static bool partial(const PfVec *v, int k) {
    int64_t vr, vc;
    pf_vvalid(v, k, &vr, &vc);
    return vr < pf_vshape_rows(v, v->n[k].shape) || vc < pf_vshape_cols(v, v->n[k].shape);
}

/* Shapes and dtypes: what the front end accepts at the block's level (tile ops need equal dtypes
 * and shapes; the tensor level promotes and broadcasts). */
static bool structure_ok(const PfProgram *p, const PfVec *v, int k, const char **why) {
    const PfVNode *n = &v->n[k];
    const PfVOpInfo *oi = pf_vop(n->op);
    DType dt = (DType)n->dt;
    if (n->op < 0 || n->op >= PF_V_NOPS) FAIL("bad op");
    if (n->a >= k || n->b >= k) FAIL("operand after its use");
    if (n->kread > 0) {                       /* an element of an earlier, exact value of the same dtype */
        int64_t vr, vc;
        if (n->kread - 1 >= k || n->kvar >= 0) FAIL("bad element read");
        if (oi->kind != PF_VK_SCALAR && oi->kind != PF_VK_EXPANDS) FAIL("an element read as a scalar of a non-scalar op");
        if (v->n[n->kread - 1].dt != n->dt) FAIL("an element read of another dtype");
        pf_vvalid(v, n->kread - 1, &vr, &vc);
        if (n->kr < 0 || n->kc < 0 || n->kr >= vr || n->kc >= vc) FAIL("an element read outside the valid region");
    }
    const PfVNode *a = n->a >= 0 ? &v->n[(int)n->a] : NULL, *b = n->b >= 0 ? &v->n[(int)n->b] : NULL;
    bool need_a = oi->kind != PF_VK_LOAD && oi->kind != PF_VK_FULL;
    if (need_a && !a) FAIL("missing operand");
    if ((oi->kind == PF_VK_BINARY || oi->kind == PF_VK_EXPAND) && !b) FAIL("missing operand");
    if (!pf_vshape_aligned(v, n->shape, dt)) FAIL("a Vec row is not a whole number of 32-byte blocks");
    /* a partially valid operand: elementwise ops, casts, fills and reductions keep its valid
     * extents; a binary op needs both operands valid alike; no broadcast */
    bool pa = a && partial(v, n->a), pb = b && partial(v, n->b);
    if (pa || pb) {
        if (oi->kind == PF_VK_EXPAND || (n->form & PF_VF_EXPLICIT)) FAIL("a partially valid operand of an expand op");
        if (oi->kind == PF_VK_BINARY) {
            int64_t ar, ac, br, bc;
            pf_vvalid(v, n->a, &ar, &ac);
            pf_vvalid(v, n->b, &br, &bc);
            if (a->shape != b->shape || ar != br || ac != bc) FAIL("binary operands of different valid extents");
        }
    }
    switch (oi->kind) {
    case PF_VK_LOAD:
        if (n->shape == PF_VSH_ROW) FAIL("a [R, 1] load");
        if (n->tensor < 0 || n->tensor >= p->ntensors || p->t[(int)n->tensor].dt != dt) FAIL("load dtype");
        return true;
    case PF_VK_FULL: if (n->shape == PF_VSH_ROW) FAIL("a [R, 1] fill"); return true;
    case PF_VK_EXPANDS: case PF_VK_FILLPAD: case PF_VK_UNARY:
        if (n->shape != a->shape || dt != a->dt) FAIL("unary shape / dtype");
        return true;
    case PF_VK_SCALAR: {
        bool frac = n->kvar < 0 && n->k != floor(n->k);
        DType want = v->tensor_level && !dtype_is_float((DType)a->dt) && frac ? DT_FP32 : (DType)a->dt;
        if (n->shape != a->shape || dt != want) FAIL("scalar-op shape / dtype");
        return true;
    }
    case PF_VK_CAST: if (n->shape != a->shape) FAIL("cast shape"); return true;
    case PF_VK_REDUCE:
        if (a->shape != PF_VSH_FULL || dt != (pf_vop_is_arg(n->op) ? DT_INT32 : (DType)a->dt) ||
            n->shape != (oi->xname[0] == 'r' ? PF_VSH_ROW : PF_VSH_COL))
            FAIL("reduce shape / dtype");
        return true;
    case PF_VK_EXPAND:
        if (a->shape != PF_VSH_FULL || b->shape != (oi->xname[0] == 'r' ? PF_VSH_ROW : PF_VSH_COL) || n->shape != PF_VSH_FULL ||
            a->dt != dt || b->dt != dt)
            FAIL("expand shape / dtype");
        return true;
    case PF_VK_BINARY: {
        int shp = a->shape == b->shape ? a->shape : a->shape == PF_VSH_FULL || b->shape == PF_VSH_FULL ? PF_VSH_FULL : -1;
        if (shp < 0 || n->shape != shp) FAIL("binary shapes");
        bool bcast = a->shape != b->shape;
        if (v->tensor_level ? dt != pf_vpromote((DType)a->dt, (DType)b->dt) : (a->dt != dt || b->dt != dt)) FAIL("binary dtypes");
        if (bcast && !(oi->expand_dtypes & pf_vdt_bit(dt))) FAIL("dtype not legal for the expand form");
        if (n->form & PF_VF_EXPLICIT) {
            if (!bcast || a->dt != b->dt) FAIL("explicit expand form");
            if (a->shape != PF_VSH_FULL && !(oi->flags & PF_VOP_COMMUTES)) FAIL("explicit expand with the vector first");
        }
        return true;
    }
    }
    FAIL("unknown kind");
}

bool pf_vnode_range(const PfProgram *p, const PfVec *v, int k, const PfRange *nodes, const PfRange *tensors,
                    const int64_t *vmin, const int64_t *vmax, PfRange *out, const char **why) {
    const PfVNode *n = &v->n[k];
    const PfVOpInfo *oi = pf_vop(n->op);
    DType dt = (DType)n->dt;
    PfRange a = n->a >= 0 ? nodes[(int)n->a] : rng(0, 0, false), b = n->b >= 0 ? nodes[(int)n->b] : rng(0, 0, false);
    const PfVNode *na = n->a >= 0 ? &v->n[(int)n->a] : NULL, *nb = n->b >= 0 ? &v->n[(int)n->b] : NULL;
    *why = "ok";
    if (!structure_ok(p, v, k, why)) return false;
    if (!(oi->dtypes & pf_vdt_bit(dt)) && oi->kind != PF_VK_CAST) FAIL("dtype not legal for the op");
    if ((na && na->op == PF_V_LOAD && na->tensor >= 0 && tensors[(int)na->tensor].lo > tensors[(int)na->tensor].hi))
        FAIL("reads a tensor nothing wrote");
    /* infinite pad cells (fillpad max / min of a partial load) only reach the reduction that drops them */
    bool inf_in = (na && (isinf(a.lo) || isinf(a.hi))) || (nb && (isinf(b.lo) || isinf(b.hi)));
    if (inf_in) {
        int64_t lr = 0, lc = 0;
        if (na->op == PF_V_FILLPAD) pf_vvalid(v, na->a, &lr, &lc);
        bool row = oi->kind == PF_VK_REDUCE && oi->xname[0] == 'r', col = oi->kind == PF_VK_REDUCE && oi->xname[0] == 'c';
        bool drops = na->op == PF_V_FILLPAD && !nb &&
                     (((n->op == PF_V_ROW_MAX && na->mode == 2) || (n->op == PF_V_ROW_MIN && na->mode == 1)) ? row && lr == v->R :
                      ((n->op == PF_V_COL_MAX && na->mode == 2) || (n->op == PF_V_COL_MIN && na->mode == 1)) ? col && lc == v->C : false);
        if (!drops) FAIL("infinite pad cells reach an op");
        *out = nodes[(int)na->a];
        out->approx = a.approx;
        return true;
    }
    if (!(oi->flags & PF_VOP_APPROX_OK) && (a.approx || b.approx)) {
        bool widening_cast = n->op == PF_V_CAST && dt == DT_FP32;
        if (!widening_cast) FAIL("an op amplifying the accumulation-order error takes an approx value");
    }
    PfRange r;
    switch (oi->kind) {
    case PF_VK_LOAD: {
        if (n->tensor < 0 || n->tensor >= p->ntensors) FAIL("bad tensor");
        r = tensors[(int)n->tensor];
        if (n->vr || n->vc) {
            if (v->tensor_level) FAIL("partial load at the tensor level");
            if (n->vr < 0 || n->vc < 0 || n->vr >= v->R || n->vc >= v->C || n->shape != PF_VSH_FULL) FAIL("bad partial load");
        }
        *out = r;
        return true;       /* loads are what they are; the ops after them must bring them in range */
    }
    case PF_VK_FULL: r = rng(n->k, n->k, false); break;
    case PF_VK_EXPANDS: r = scalar_range(n, nodes, vmin, vmax); break;
    case PF_VK_FILLPAD:
        r = a;
        if (partial(v, n->a)) {
            if (n->mode == 0) r = rng(fmin(r.lo, 0), fmax(r.hi, 0), r.approx);
            else if (n->mode == 1) r.hi = INFINITY;
            else r.lo = -INFINITY;
            *out = r;
            return true;
        }
        break;
    case PF_VK_BINARY: {
        if ((n->op == PF_V_DIV || n->op == PF_V_FMOD) && !nonzero(b, (DType)nb->dt)) FAIL("division by a range near zero");
        r = arith(n->op, a, b, dt);
        break;
    }
    case PF_VK_SCALAR: {
        PfRange s = scalar_range(n, nodes, vmin, vmax);
        if (!dtype_is_float(dt) && (s.lo != floor(s.lo) || s.hi != floor(s.hi))) FAIL("a fractional scalar with an integer value");
        if (n->op == PF_V_DIVS && !nonzero(s, dt)) FAIL("division by a scalar near zero");
        if (n->form & PF_VF_SWAP) {
            if (!(oi->flags & PF_VOP_COMMUTES)) FAIL("scalar first in a non-commutative op");
            r = arith(n->op, s, a, dt);
        } else {
            r = arith(n->op, a, s, dt);
        }
        break;
    }
    case PF_VK_UNARY:
        switch (n->op) {
        case PF_V_EXP:
            if (a.approx && a.hi > APPROX_EXP_MAX) FAIL("exp of a large approx value");
            if (a.hi > 30) FAIL("exp overflows");
            r = rng(exp(a.lo), exp(a.hi), a.approx);
            break;
        case PF_V_LOG: if (!positive(a)) FAIL("log of a range not positive"); r = rng(log(a.lo), log(a.hi), a.approx); break;
        case PF_V_SQRT: if (a.lo < 0) FAIL("sqrt of a negative range"); r = rng(sqrt(a.lo), sqrt(a.hi), a.approx); break;
        case PF_V_RSQRT: if (!positive(a)) FAIL("rsqrt of a range not positive"); r = rng(1 / sqrt(a.hi), 1 / sqrt(a.lo), a.approx); break;
        case PF_V_RECIP: if (!nonzero(a, dt)) FAIL("recip of a range near zero"); r = rng(1 / a.hi, 1 / a.lo, a.approx); break;
        case PF_V_ABS:
            r = a.lo >= 0 ? a : a.hi <= 0 ? rng(-a.hi, -a.lo, a.approx) : rng(0, fmax(-a.lo, a.hi), a.approx);
            break;
        case PF_V_NEG: r = rng(-a.hi, -a.lo, a.approx); break;
        default: r = rng(fmax(a.lo, 0), fmax(a.hi, 0), a.approx); break;
        }
        break;
    case PF_VK_CAST: {
        DType from = (DType)na->dt;
        if (!(pf_vdt_bit(from) & PF_VDT_ALL) || !(pf_vdt_bit(dt) & PF_VDT_ALL) || from == dt) FAIL("bad cast");
        r = a;
        if (!dtype_is_float(dt)) {
            if (dtype_is_float(from)) r = rng(floor(a.lo), ceil(a.hi), a.approx);
            if (!int_fits(r, dt)) FAIL("a cast to an integer type would saturate or wrap");
        }
        break;
    }
    case PF_VK_REDUCE: {
        if (na->shape != PF_VSH_FULL) FAIL("reduction of a vector");
        bool row = oi->xname[0] == 'r';
        int64_t cnt = row ? v->C : v->R;
        if (pf_vop_is_arg(n->op)) {            /* an index; ties or order differences would flip it */
            if (a.approx) FAIL("an index reduction of an approx value");
            r = rng(0, (double)(cnt - 1), false);
        } else if (n->op == PF_V_ROW_SUM || n->op == PF_V_COL_SUM) r = rng(a.lo * (double)cnt, a.hi * (double)cnt, a.approx);
        else if (n->op == PF_V_ROW_PROD || n->op == PF_V_COL_PROD) {
            double m = fmax(fabs(a.lo), fabs(a.hi)), bound = m <= 1 ? m : pow(m, (double)cnt);   /* |product| <= m^cnt */
            r = rng(-bound, bound, a.approx);
        } else r = a;
        break;
    }
    case PF_VK_EXPAND: r = b; break;
    default: FAIL("unknown op");
    }
    r = widen(r, dt);
    double lim = pf_vdt_limit(dt);
    if (!(r.lo >= -lim && r.hi <= lim)) FAIL("a value leaves the dtype's magnitude limit");
    *out = r;
    return true;
}
