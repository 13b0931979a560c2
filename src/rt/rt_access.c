/* rt_access — tensor.read / tensor.write in orchestration code (spec/runtime.md §3.5
 * get_tensor_data / set_tensor_data; spec/ops.md §4.9).
 *
 * Requires: rt.c (evaluation), rt_sched.c (rt_run_pending). Produces: the element's value (read),
 * or the element written in the tensor's buffer (write; the value is the tensor).
 * Does: the orchestrator waits as the real runtime's spin-wait does. The tasks submitted so far run
 * first (a batch of the scheduler), so the element holds what they wrote; the orchestrator's clock
 * then advances to the end of the tasks that wrote the buffer (a read) or touched it (a write, which
 * also waits for the readers), and tasks submitted afterwards are ready no earlier. Indices are
 * logical, checked against the tensor's shape (a run-time error names the tensor, index and shape). */
#include "rt/rt_internal.h"

#include <math.h>
#include <string.h>

/* The orchestrator waits for the tasks that wrote (or, for a write, touched) the tensor's buffer:
 * every task has run (rt_run_pending), and each noted its end per buffer (rt_live.c). */
static void rt_wait_for(Rt *rt, const RtTensor *t, bool write) {
    int64_t end = rt_bufend_get(rt, t->addr, write);
    if (end > rt->orch_time) rt->orch_time = end;
}

static bool rt_element(Rt *rt, const Expr *e, const RtTensor *t, uint8_t **p) {
    RtValue idx;
    if (!rt_eval(rt, e->call.args[1], &idx)) return false;
    int n = idx.kind == RV_TUPLE ? idx.n : 1;
    const char *op = ir_op_info(e->call.op)->name, *name = t->name ? t->name : "the tensor";
    if (n != t->ndims)
        return rt_fail(rt, RT_ERR_INVALID_ARGS, e->span, "%s: %d indices for '%s' of rank %d", op, n, name, t->ndims);
    int64_t off = (int64_t)t->start;
    for (int d = 0; d < n; d++) {
        const RtValue *v = idx.kind == RV_TUPLE ? &idx.items[d] : &idx;
        if (v->kind != RV_INT) return rt_fail(rt, RT_ERR_INVALID_ARGS, e->span, "%s: the indices must be integers", op);
        if (v->i < 0 || v->i >= t->shape[d])
            return rt_fail(rt, RT_ERR_INVALID_ARGS, e->span, "%s: index %lld of dimension %d is outside '%s' (dim %lld)", op,
                           (long long)v->i, d, name, (long long)t->shape[d]);
        off += v->i * t->strides[d];
    }
    *p = (uint8_t *)(uintptr_t)t->addr + off * dtype_bytes(t->dtype);
    return true;
}

static RtValue rt_read_elem(DType dt, const uint8_t *p) {
    RtValue v = {0};
    v.kind = dtype_is_float(dt) ? RV_FLOAT : RV_INT;
    if (v.kind == RV_FLOAT) v.f = dtype_read(dt, p);
    else v.i = dtype_read_int(dt, p);
    return v;
}

/* The value as the element type stores it: floats round to nearest even, integers wrap. */
static void rt_write_elem(DType dt, uint8_t *p, const RtValue *v) {
    if (dtype_is_float(dt)) {
        double x = dtype_round_float(dt, v->kind == RV_FLOAT ? v->f : (double)v->i);
        if (dt == DT_FP32) { float f = (float)x; memcpy(p, &f, 4); return; }
        uint32_t u;
        float f = (float)x;                     /* exact: x is an FP16 / BF16 value */
        memcpy(&u, &f, 4);
        uint16_t h = dt == DT_BF16 ? (uint16_t)(u >> 16) : f32_to_fp16(f);
        memcpy(p, &h, 2);
        return;
    }
    uint64_t u = (uint64_t)v->i;
    if (dt == DT_BOOL) u = v->i != 0;
    memcpy(p, &u, (size_t)dtype_bytes(dt));     /* little-endian: the low bytes wrap */
}

bool rt_eval_access(Rt *rt, const Expr *e, RtValue *out) {
    bool write = e->call.op == OP_TENSOR_WRITE;
    RtValue x, val = {0};
    if (!rt_eval(rt, e->call.args[0], &x)) return false;
    if (x.kind != RV_TENSOR)
        return rt_fail(rt, RT_ERR_INVALID_ARGS, e->span, "%s: expected a tensor", ir_op_info(e->call.op)->name);
    if (write && !rt_eval(rt, e->call.args[2], &val)) return false;
    if (write && val.kind != RV_INT && val.kind != RV_FLOAT)
        return rt_fail(rt, RT_ERR_INVALID_ARGS, e->span, "tensor.write: the value must be a scalar");
    if (x.t->pending && rt_alloc_task(rt, &x.t, 1) < 0) return false;
    if (!dtype_is_supported(x.t->dtype) || dtype_bytes(x.t->dtype) <= 0)
        return rt_fail(rt, RT_ERR_INVALID_ARGS, e->span, "%s: %s elements cannot be accessed", ir_op_info(e->call.op)->name,
                       dtype_name(x.t->dtype));
    uint8_t *p = NULL;
    if (!rt_element(rt, e, x.t, &p)) return false;
    if (!rt_run_pending(rt)) return false;
    rt_wait_for(rt, x.t, write);
    if (rt->opt && rt->opt->timing_only) {        /* no data: a read's value is unknown, a write is only timed */
        if (!write)
            return rt_fail(rt, RT_ERR_INVALID_ARGS, e->span,
                           "--timing-only: this tensor.read of an element of '%s' (%s) needs the tensor's data, which a "
                           "timing-only run does not compute (its value could steer control flow or addresses); run "
                           "without --timing-only", x.t->name ? x.t->name : "a tensor", dtype_name(x.t->dtype));
        *out = x;
        return true;
    }
    if (!write) { *out = rt_read_elem(x.t->dtype, p); return true; }
    rt_write_elem(x.t->dtype, p, &val);
    *out = x;
    return true;
}
