/* sim/scalar — scalar element access on the S pipe (spec/ops.md §4.9): tgetval / tsetval of one element
 * of a Vec buffer, ggetval / gsetval of one element of a GM parameter (through the D-cache).
 *
 * Requires: the buffer views; the walk evaluated a tile access's (row, col) into off0 / off1, a GM
 * access's element offset (sim_scalar_issue) into off0, and a write's value into sc.
 * Produces: a read's value in its kernel variable (a float as the bits of a double), a write's element.
 * Does: indices are logical (layout-independent, decision 12); a tile access outside the buffer's valid
 * region, or a GM index outside the parameter, is a hard error naming the instruction. A written value
 * converts to the element type as the interpreter's (floats round to nearest even, integers wrap).
 * Timing-only runs (SimOptions.timing_only) check the index and record the GM footprint but move no
 * data: a read leaves 0 in its variable, which core.c marks as data-dependent. */
#include "sim/sim_int.h"

#include <string.h>

bool sim_scalar_issue(SimRun *s, const MirInst *i, SimDyn *d) {
    const MirParam *p = &s->k->params[i->param];
    int64_t off = 0;
    for (int k = 0; k < p->rank; k++) {
        int64_t x;
        if (!i->off[k] || !mir_eval_checked(i->off[k], s->vars, &x))
            return sim_hard_error(s, i, "%s: index %d of %s overflows or is missing", mir_op_name(i->op), k, p->name);
        if (x < 0 || x >= p->shape[k])
            return sim_hard_error(s, i, "%s: index %lld of dimension %d is outside %s (dim %lld)", mir_op_name(i->op),
                                  (long long)x, k, p->name, (long long)p->shape[k]);
        off += x * p->strides[k];
    }
    d->off0 = off;
    return true;
}

static void store_var(SimRun *s, const MirInst *i, DType dt, const uint8_t *p) {
    int64_t v = 0;
    if (dtype_is_float(dt)) { double f = dtype_read(dt, p); memcpy(&v, &f, 8); }
    else v = dtype_read_int(dt, p);
    s->vars[i->var] = v;
}

static void load_value(const SimDyn *d, DType dt, uint8_t *p) {
    if (!dtype_is_float(dt) && !d->sc.fp && dtype_bytes(dt) == 8) { memcpy(p, &d->sc.i, 8); return; }
    double v = d->sc.fp ? d->sc.f : (double)d->sc.i;
    sim_write_elem(dt, p, dtype_convert(dt, d->sc.fp ? DT_FP32 : DT_INT64, v, dtype_is_float(dt) ? DT_ROUND_RINT : DT_ROUND_TRUNC));
}

bool sim_exec_scalar(SimRun *s, const SimDyn *d) {
    const MirInst *i = d->inst;
    if (i->op == MI_GGETVAL || i->op == MI_GSETVAL) {
        const MirParam *p = &s->k->params[i->param];
        if (!s->gm || !s->gm[i->param]) return sim_hard_error(s, i, "GM parameter %s has no tensor data", p->name);
        uint8_t *e = (uint8_t *)s->gm[i->param] + d->off0 * dtype_bytes(p->dtype);
        bool write = i->op == MI_GSETVAL;
        sim_record_gm(s, i->param, d->off0, d->off0 + 1, write, false);
        if (s->o->timing_only) { if (!write) s->vars[i->var] = 0; return true; }   /* no data; the walk tainted the variable */
        if (write) load_value(d, p->dtype, e);
        else store_var(s, i, p->dtype, e);
        return true;
    }
    int b = i->op == MI_TGETVAL ? i->src0 : i->dst;
    const SimView *v = &s->views[b];
    const MirBuf *buf = v->buf;
    if (d->off0 < 0 || d->off1 < 0 || d->off0 >= buf->valid_rows || d->off1 >= buf->valid_cols)
        return sim_hard_error(s, i, "%s: element (%lld, %lld) is outside the valid region [%lld, %lld] of %s", mir_op_name(i->op),
                              (long long)d->off0, (long long)d->off1, (long long)buf->valid_rows, (long long)buf->valid_cols,
                              buf->name);
    if (s->o->timing_only) { if (i->op == MI_TGETVAL) s->vars[i->var] = 0; return true; }
    uint8_t *e = sim_elem_ptr(v, d->off0, d->off1);
    if (i->op == MI_TSETVAL) load_value(d, buf->dtype, e);
    else store_var(s, i, buf->dtype, e);
    return true;
}
