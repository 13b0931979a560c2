/* rt_tensor — runtime tensor descriptors (spec §4): geometry helpers, zero-filled heap
 * allocation, tensor.slice views (same buffer, new start offset and shape, parent strides), and
 * staging of non-packed views into packed copies for the kernel callback.
 * Requires: rt_internal.h. Produces: RtTensor values. Does: no I/O, no global state. */
#include "rt/rt_internal.h"

#include <string.h>

int64_t rt_tensor_numel(const RtTensor *t) {
    int64_t n = 1;
    for (int d = 0; d < t->ndims; d++) n *= t->shape[d];
    return n;
}

int64_t rt_tensor_extent(const RtTensor *t) {
    int64_t e = 1;
    for (int d = 0; d < t->ndims; d++) {
        if (t->shape[d] <= 0) return 0;
        e += (t->shape[d] - 1) * t->strides[d];
    }
    return e;
}

bool rt_tensor_packed(const RtTensor *t) {
    int64_t expect = 1;
    for (int d = t->ndims - 1; d >= 0; d--) {
        if (t->shape[d] > 1 && t->strides[d] != expect) return false;
        expect *= t->shape[d];
    }
    return true;
}

void rt_tensor_set_packed_strides(RtTensor *t) {
    int64_t s = 1;
    for (int d = t->ndims - 1; d >= 0; d--) {
        t->strides[d] = s;
        s *= t->shape[d] > 0 ? t->shape[d] : 1;
    }
}

void *rt_tensor_data(const RtTensor *t) {
    return (char *)(uintptr_t)t->addr + t->start * (uint64_t)dtype_bytes(t->dtype);
}

bool rt_tensor_from_type(RtTensor *t, const Type *ty) {
    memset(t, 0, sizeof *t);
    t->owner = RT_NO_TASK;
    if (!ty || ty->kind != TY_TENSOR || ty->rank > RT_MAX_DIMS) return false;
    t->dtype = ty->dtype;
    t->ndims = ty->rank;
    int64_t dims[RT_MAX_DIMS];
    if (!ir_type_static_dims(ty, dims)) return false;
    for (int d = 0; d < ty->rank; d++) t->shape[d] = dims[d];
    rt_tensor_set_packed_strides(t);
    return true;
}

void *rt_alloc_buffer(Rt *rt, uint64_t bytes) {
    uint64_t rounded = (bytes + 1023) / 1024 * 1024;
    if (rounded == 0) rounded = 1024;
    void *p = calloc(1, rounded);
    PTOC_ASSERT(p, "out of memory allocating %llu bytes", (unsigned long long)rounded);
    vec_push(&rt->buffers, p);
    return p;
}

void rt_materialize(Rt *rt, RtTensor *t, int owner) {
    rt_tensor_set_packed_strides(t);
    uint64_t bytes = (uint64_t)rt_tensor_numel(t) * (uint64_t)dtype_bytes(t->dtype);
    t->addr = (uint64_t)(uintptr_t)rt_alloc_buffer(rt, bytes);
    t->size = bytes;
    t->start = 0;
    t->version = 0;
    t->owner = owner;
    t->pending = false;
    rt_note_buffer(rt, t);
}

/* tensor.slice(src, shape, offset): rank of the result = len(shape); offsets index the source dims.
 * A shape shorter than the source rank drops leading dims (they must have offset-only extent 1). */
bool rt_slice(Rt *rt, const RtTensor *src, const int64_t *shape, int nshape, const int64_t *off,
              int noff, RtTensor *out, Span sp) {
    if (noff != src->ndims)
        return rt_fail(rt, RT_ERR_INVALID_ARGS, sp, "slice: %d offsets for a rank-%d tensor", noff, src->ndims);
    if (nshape > src->ndims || nshape < 1)
        return rt_fail(rt, RT_ERR_INVALID_ARGS, sp, "slice: rank-%d shape for a rank-%d tensor", nshape, src->ndims);
    *out = *src;
    uint64_t start = src->start;
    for (int d = 0; d < src->ndims; d++) {
        int sd = d - (src->ndims - nshape);        /* result dim, <0 = dropped */
        int64_t ext = sd >= 0 ? shape[sd] : 1;
        if (off[d] < 0 || ext < 0 || off[d] + ext > src->shape[d])
            return rt_fail(rt, RT_ERR_INVALID_ARGS, sp,
                           "slice: offset %lld + extent %lld exceeds dim %d of size %lld",
                           (long long)off[d], (long long)ext, d, (long long)src->shape[d]);
        start += (uint64_t)(off[d] * src->strides[d]);
    }
    out->ndims = nshape;
    for (int d = 0; d < nshape; d++) {
        out->shape[d] = shape[d];
        out->strides[d] = src->strides[src->ndims - nshape + d];
    }
    out->start = start;
    return true;
}

void rt_view_of(const RtTensor *t, RtView *v) {
    memset(v, 0, sizeof *v);
    v->dtype = t->dtype;
    v->ndims = t->ndims;
    for (int d = 0; d < t->ndims; d++) { v->shape[d] = t->shape[d]; v->strides[d] = t->strides[d]; }
    v->packed = rt_tensor_packed(t);
}

/* Copies between the strided view and a packed buffer; dir 0 = gather, 1 = scatter. */
static void rt_copy_view(const RtTensor *t, void *packed, int dir) {
    int64_t n = rt_tensor_numel(t);
    size_t es = (size_t)dtype_bytes(t->dtype);
    char *base = (char *)(uintptr_t)t->addr;
    int64_t idx[RT_MAX_DIMS] = {0};
    for (int64_t i = 0; i < n; i++) {
        int64_t off = (int64_t)t->start;
        for (int d = 0; d < t->ndims; d++) off += idx[d] * t->strides[d];
        char *strided = base + (size_t)off * es, *flat = (char *)packed + (size_t)i * es;
        if (dir == 0) memcpy(flat, strided, es);
        else memcpy(strided, flat, es);
        for (int d = t->ndims - 1; d >= 0; d--) {
            if (++idx[d] < t->shape[d]) break;
            idx[d] = 0;
        }
    }
}

void rt_gather(const RtTensor *t, void *dst) { rt_copy_view(t, dst, 0); }
void rt_scatter(const RtTensor *t, const void *src) { rt_copy_view(t, (void *)src, 1); }
