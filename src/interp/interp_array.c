/* interp_array — storage of the reference interpreter: scalar/array/tuple values with reference
 * counts, element rounding to a dtype, packing to and from caller buffers, and the Var -> value
 * environment of one function activation.
 *
 * Requires: base (fp16/bf16 conversions). Produces: the value layer used by every interp_*.c file.
 * Does: no I/O; allocation failures are internal errors (abort through base_vec_grow/PTOC_ASSERT). */
#include "interp/interp_internal.h"

#include <math.h>
#include <string.h>

/* ---------------------------------------------------------------- values */
InterpValue interp_int(int64_t v) { return (InterpValue){ .kind = IV_INT, .i = v }; }
InterpValue interp_float(double v) { return (InterpValue){ .kind = IV_FLOAT, .f = v }; }
InterpValue interp_bool(bool v) { return (InterpValue){ .kind = IV_BOOL, .i = v ? 1 : 0 }; }
InterpValue interp_arr_value(InterpArray *a) { return (InterpValue){ .kind = IV_ARRAY, .arr = a }; }

InterpValue interp_retain(InterpValue v) {
    if (v.kind == IV_ARRAY) v.arr->refs++;
    else if (v.kind == IV_TUPLE) v.tup->refs++;
    return v;
}

void interp_release(InterpValue v) {
    if (v.kind == IV_ARRAY) interp_array_release(v.arr);
    else if (v.kind == IV_TUPLE) {
        InterpTuple *t = v.tup;
        PTOC_ASSERT(t->refs > 0, "tuple over-released");
        if (--t->refs) return;
        for (int i = 0; i < t->n; i++) interp_release(t->items[i]);
        free(t->items);
        free(t);
    }
}

static void *xcalloc(size_t n, size_t size) {
    void *p = calloc(n ? n : 1, size ? size : 1);
    PTOC_ASSERT(p, "out of memory (%zu x %zu bytes)", n, size);
    return p;
}

InterpTuple *interp_tuple_new(int n) {
    InterpTuple *t = xcalloc(1, sizeof *t);
    t->refs = 1;
    t->n = n;
    t->items = xcalloc((size_t)n, sizeof(InterpValue));
    return t;
}

/* ---------------------------------------------------------------- arrays */
InterpArray *interp_array_new(DType dt, int rank, const int64_t *shape) {
    PTOC_ASSERT(rank >= 0 && rank <= INTERP_MAX_RANK, "rank %d", rank);
    InterpArray *a = xcalloc(1, sizeof *a);
    a->refs = 1;
    a->dtype = dt;
    a->rank = rank;
    a->numel = 1;
    for (int i = 0; i < rank; i++) {
        PTOC_ASSERT(shape[i] >= 0, "negative dim %lld", (long long)shape[i]);
        a->shape[i] = a->valid[i] = shape[i];
        a->numel *= shape[i];
    }
    size_t bytes = (size_t)a->numel * (size_t)interp_elem_bytes(dt);
    a->data = base_calloc_big(bytes);   /* zero bits are 0 in every storage */
    PTOC_ASSERT(a->data, "out of memory (%zu bytes)", bytes);
    return a;
}

InterpArray *interp_array_borrow(DType dt, int rank, const int64_t *shape, void *data) {
    PTOC_ASSERT(interp_store_packed(dt), "borrowing a %s buffer", dtype_name(dt));
    InterpArray *a = interp_array_new(dt, 0, NULL);   /* numel 1, a one-element allocation freed below */
    a->rank = rank;
    for (int i = 0; i < rank; i++) {
        PTOC_ASSERT(shape[i] >= 0, "negative dim %lld", (long long)shape[i]);
        a->shape[i] = a->valid[i] = shape[i];
        a->numel *= shape[i];
    }
    free(a->data);
    a->data = data;
    a->borrowed = true;
    if (dt == DT_BOOL)   /* read as 0 / 1, as interp_array_unpack does */
        for (int64_t i = 0; i < a->numel; i++) ((uint8_t *)data)[i] = ((uint8_t *)data)[i] != 0;
    return a;
}

void interp_array_release(InterpArray *a) {
    if (!a) return;
    PTOC_ASSERT(a->refs > 0, "array over-released");
    if (--a->refs) return;
    if (!a->borrowed) free(a->data);
    free(a);
}

InterpArray *interp_array_copy(const InterpArray *src, DType dt) {
    InterpArray *a = interp_array_new(dt, src->rank, src->shape);
    memcpy(a->valid, src->valid, sizeof a->valid);
    if (dt == src->dtype) memcpy(a->data, src->data, (size_t)interp_elem_bytes(dt) * (size_t)a->numel);
    else
        for (int64_t i = 0; i < a->numel; i++) interp_store(a, i, interp_get(src, i));
    return a;
}

/* Truncation toward zero, saturated to the int64 range (NaN -> 0), then wrapped to `bits`. */
static double round_int(double v, int bits, bool is_unsigned) {
    if (v != v) return 0;
    double t = trunc(v);
    int64_t i;
    if (t >= 9223372036854775807.0) i = INT64_MAX;
    else if (t <= -9223372036854775808.0) i = INT64_MIN;
    else i = (int64_t)t;
    if (bits >= 64) return is_unsigned ? (double)(uint64_t)i : (double)i;
    uint64_t mask = (UINT64_C(1) << bits) - 1, u = (uint64_t)i & mask;
    if (is_unsigned) return (double)u;
    if (u >> (bits - 1)) return (double)((int64_t)u - (int64_t)(UINT64_C(1) << bits));
    return (double)u;
}

/* double -> float rounded to odd (truncate, then set the last bit if inexact): a following
 * round-to-nearest-even to FP16/BF16 then rounds exactly as a single rounding from v would. */
static float to_float_odd(double v) {
    float f = (float)v;
    if ((double)f == v || f != f || isinf(f)) return f;
    if (fabs((double)f) > fabs(v)) f = nextafterf(f, 0.0f);
    uint32_t u;
    memcpy(&u, &f, 4);
    u |= 1;
    memcpy(&f, &u, 4);
    return f;
}

double interp_round(DType dt, double v) {
    switch (dt) {
    case DT_FP16: return fp16_to_f32(f32_to_fp16(to_float_odd(v)));
    case DT_BF16: return bf16_to_f32(f32_to_bf16(to_float_odd(v)));
    case DT_BOOL: return v != 0;
    case DT_INT8: return round_int(v, 8, false);
    case DT_INT16: return round_int(v, 16, false);
    case DT_INT32: return round_int(v, 32, false);
    case DT_INT64: case DT_INDEX: return round_int(v, 64, false);
    case DT_UINT8: return round_int(v, 8, true);
    case DT_UINT16: return round_int(v, 16, true);
    case DT_UINT32: return round_int(v, 32, true);
    case DT_UINT64: return round_int(v, 64, true);
    default: return (double)(float)v;   /* FP32 (and unsupported narrow floats: kept at FP32) */
    }
}

void interp_store(InterpArray *a, int64_t i, double v) {
    switch (interp_store_of(a->dtype)) {   /* the bits interp_round's value has: the same single rounding */
    case IS_F16: ((uint16_t *)a->data)[i] = f32_to_fp16(to_float_odd(v)); return;
    case IS_BF16: ((uint16_t *)a->data)[i] = f32_to_bf16(to_float_odd(v)); return;
    default: interp_set(a, i, interp_round(a->dtype, v)); return;
    }
}

bool interp_dtype_supported(DType dt) {
    switch (dt) {
    case DT_FP16: case DT_BF16: case DT_FP32: case DT_BOOL: case DT_INT8: case DT_INT16: case DT_INT32:
    case DT_INT64: case DT_INDEX: case DT_UINT8: case DT_UINT16: case DT_UINT32: case DT_UINT64:
        return true;
    default: return false;
    }
}

/* One packed element -> double. */
static double load_elem(DType dt, const unsigned char *p) {
    PTOC_ASSERT(dtype_bytes(dt) > 0 && (dtype_is_float(dt) ? dt == DT_FP16 || dt == DT_BF16 || dt == DT_FP32 : true),
                "unpack of %s", dtype_name(dt));
    return dtype_read(dt, p);
}

/* double (already rounded to dt) -> one packed element. */
static void store_elem(DType dt, unsigned char *p, double v) {
    switch (dt) {
    case DT_INT64: case DT_INDEX: { int64_t x = (int64_t)round_int(v, 64, false); memcpy(p, &x, 8); return; }
    case DT_UINT64: { uint64_t x = (uint64_t)round_int(v, 64, true); memcpy(p, &x, 8); return; }
    default: PTOC_UNREACHABLE("pack of %s", dtype_name(dt));
    }
}

/* Packed storage is the caller's byte format: a copy, except BOOL, whose bytes are read as 0 / 1. */
void interp_array_unpack(InterpArray *a, const void *data) {
    if (interp_store_packed(a->dtype)) {
        if (a->data != data) memcpy(a->data, data, (size_t)interp_elem_bytes(a->dtype) * (size_t)a->numel);
        if (a->dtype == DT_BOOL)
            for (int64_t i = 0; i < a->numel; i++) ((uint8_t *)a->data)[i] = ((uint8_t *)a->data)[i] != 0;
        return;
    }
    const unsigned char *p = data;
    int eb = dtype_bytes(a->dtype);
    for (int64_t i = 0; i < a->numel; i++) ((double *)a->data)[i] = load_elem(a->dtype, p + i * eb);
}

void interp_array_pack(const InterpArray *a, void *data) {
    if (interp_store_packed(a->dtype)) {
        if (a->data != data) memcpy(data, a->data, (size_t)interp_elem_bytes(a->dtype) * (size_t)a->numel);
        return;
    }
    unsigned char *p = data;
    int eb = dtype_bytes(a->dtype);
    for (int64_t i = 0; i < a->numel; i++) store_elem(a->dtype, p + i * eb, ((const double *)a->data)[i]);
}

const char *interp_shape_str(const InterpArray *a, char *buf, size_t n) {
    size_t k = 0;
    k += (size_t)snprintf(buf + k, n - k, "[");
    for (int i = 0; i < a->rank && k < n; i++)
        k += (size_t)snprintf(buf + k, n - k, "%s%lld", i ? ", " : "", (long long)a->shape[i]);
    if (k < n) snprintf(buf + k, n - k, "] %s", dtype_name(a->dtype));
    return buf;
}

/* ---------------------------------------------------------------- NZ */
int64_t interp_nz_c0(DType dt) { int eb = dtype_bytes(dt); return eb > 0 && eb <= 32 ? 32 / eb : 0; }

/* to_blocked: logical -> blocked, else blocked -> logical; dims R, C, c0 already checked. */
static void nz_copy(InterpArray *logical, InterpArray *blocked, int64_t R, int64_t C, int64_t c0, bool to_blocked) {
    for (int64_t i = 0; i < R; i++)
        for (int64_t j = 0; j < C; j++) {
            int64_t b = (j / c0) * (R * c0) + i * c0 + j % c0;   /* (i / 16)·16·c0 + (i % 16)·c0 = i·c0 */
            if (to_blocked) interp_set(blocked, b, interp_get(logical, i * C + j));
            else interp_set(logical, i * C + j, interp_get(blocked, b));
        }
}

InterpArray *interp_nz_block(const InterpArray *l) {
    int64_t c0 = interp_nz_c0(l->dtype);
    if (l->rank != 2 || !c0 || l->shape[0] % 16 || l->shape[1] % c0) return NULL;
    int64_t R = l->shape[0], C = l->shape[1], dims[5] = { 1, C / c0, R / 16, 16, c0 };
    InterpArray *b = interp_array_new(l->dtype, 5, dims);
    nz_copy((InterpArray *)l, b, R, C, c0, true);   /* read only in this direction */
    return b;
}

InterpArray *interp_nz_unblock(const InterpArray *b) {
    int64_t c0 = interp_nz_c0(b->dtype);
    if (b->rank != 5 || !c0 || b->shape[0] != 1 || b->shape[3] != 16 || b->shape[4] != c0) return NULL;
    int64_t dims[2] = { b->shape[2] * 16, b->shape[1] * c0 };
    InterpArray *l = interp_array_new(b->dtype, 2, dims);
    nz_copy(l, (InterpArray *)b, dims[0], dims[1], c0, false);   /* read only in this direction */
    return l;
}

/* ---------------------------------------------------------------- environment */
void interp_env_init(InterpEnv *e) { memset(e, 0, sizeof *e); }

void interp_env_free(InterpEnv *e) {
    for (int i = 0; i < e->cap; i++)
        if (e->keys[i]) interp_release(e->vals[i]);
    free(e->keys);
    free(e->vals);
    memset(e, 0, sizeof *e);
}

static uint32_t ptr_hash(const void *p) {
    uint64_t x = (uint64_t)(uintptr_t)p;
    x ^= x >> 33;
    x *= UINT64_C(0xff51afd7ed558ccd);
    x ^= x >> 33;
    return (uint32_t)x;
}

static int env_slot(const InterpEnv *e, const Var *v) {
    uint32_t mask = (uint32_t)e->cap - 1, i = ptr_hash(v) & mask;
    while (e->keys[i] && e->keys[i] != v) i = (i + 1) & mask;
    return (int)i;
}

static void env_grow(InterpEnv *e) {
    InterpEnv n = { .cap = e->cap ? e->cap * 2 : 64 };
    n.keys = xcalloc((size_t)n.cap, sizeof(Var *));
    n.vals = xcalloc((size_t)n.cap, sizeof(InterpValue));
    for (int i = 0; i < e->cap; i++)
        if (e->keys[i]) {
            int s = env_slot(&n, e->keys[i]);
            n.keys[s] = e->keys[i];
            n.vals[s] = e->vals[i];
            n.len++;
        }
    free(e->keys);
    free(e->vals);
    *e = n;
}

void interp_env_put(InterpEnv *e, const Var *v, InterpValue val) {
    if (!v) { interp_release(val); return; }   /* malformed IR: nothing to bind */
    if ((e->len + 1) * 2 > e->cap) env_grow(e);
    int s = env_slot(e, v);
    if (e->keys[s]) interp_release(e->vals[s]);
    else { e->keys[s] = v; e->len++; }
    e->vals[s] = val;
}

const InterpValue *interp_env_get(const InterpEnv *e, const Var *v) {
    if (!e->cap) return NULL;
    int s = env_slot(e, v);
    return e->keys[s] ? &e->vals[s] : NULL;
}
