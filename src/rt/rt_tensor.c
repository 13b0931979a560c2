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
        if (off[d] < 0 || ext < 0 || off[d] > src->shape[d] || ext > src->shape[d] - off[d])   /* no overflow */
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

/* ---------------------------------------------------------------- slice descriptors */
/* A slice's descriptor never changes once made (only pending create-infos are updated in place, and
 * a slice is never pending), so equal slices can share one: a loop slicing the same regions every
 * iteration then allocates nothing after the first, and memory follows the distinct slices, not
 * the iterations. Fields are compared one by one (padding is not part of the value). */
static bool rt_tensor_same(const RtTensor *a, const RtTensor *b) {
    if (a->addr != b->addr || a->size != b->size || a->owner != b->owner || a->start != b->start || a->version != b->version
        || a->ndims != b->ndims || a->dtype != b->dtype || a->manual_dep != b->manual_dep || a->pending != b->pending
        || a->created != b->created || a->name != b->name)
        return false;
    for (int d = 0; d < a->ndims; d++)
        if (a->shape[d] != b->shape[d] || a->strides[d] != b->strides[d]) return false;
    return true;
}

static unsigned rt_tensor_hash(const RtTensor *t, int cap) {
    uint64_t h = t->addr ^ (t->start * 0x9E3779B97F4A7C15ull) ^ ((uint64_t)(uint32_t)t->owner << 40);
    for (int d = 0; d < t->ndims; d++) h = (h ^ (uint64_t)t->shape[d]) * 0x100000001B3ull;
    return (unsigned)((h * 0x9E3779B97F4A7C15ull) >> 32) & (unsigned)(cap - 1);
}

static void rt_slices_insert(RtSliceSet *m, RtTensor *t) {
    unsigned i = rt_tensor_hash(t, m->cap);
    while (m->e[i]) i = (i + 1) & (unsigned)(m->cap - 1);
    m->e[i] = t;
    m->n++;
}

RtTensor *rt_tensor_intern(Rt *rt, const RtTensor *t) {
    RtSliceSet *m = &rt->slices;
    if (2 * (m->n + 1) > m->cap) {
        RtSliceSet old = *m;
        m->cap = old.cap ? 2 * old.cap : 256;
        m->n = 0;
        m->e = calloc((size_t)m->cap, sizeof(RtTensor *));
        PTOC_ASSERT(m->e, "out of memory");
        for (int i = 0; i < old.cap; i++)
            if (old.e[i]) rt_slices_insert(m, old.e[i]);
        free(old.e);
    }
    for (unsigned i = rt_tensor_hash(t, m->cap); m->e[i]; i = (i + 1) & (unsigned)(m->cap - 1))
        if (rt_tensor_same(m->e[i], t)) return m->e[i];
    RtTensor *n = ARENA_NEW(rt->arena, RtTensor);
    *n = *t;
    rt_slices_insert(m, n);
    return n;
}
