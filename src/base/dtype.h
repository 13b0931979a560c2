/* dtype — element types and memory spaces shared by every layer (IR, machine IR, targets, simulator). */
#ifndef PTOC_DTYPE_H
#define PTOC_DTYPE_H

#include <stdbool.h>
#include <stdint.h>

/* X(id, dsl name, bits, kind, pto name, npy descr) ; kind: 'b' bool, 'i' signed, 'u' unsigned, 'f' float, 'x' other */
#define PTOC_DTYPES(X)                                   \
    X(BOOL, "BOOL", 8, 'b', "i1", "|b1")                 \
    X(INT4, "INT4", 4, 'i', "i4", "")                    \
    X(INT8, "INT8", 8, 'i', "i8", "|i1")                 \
    X(INT16, "INT16", 16, 'i', "i16", "<i2")             \
    X(INT32, "INT32", 32, 'i', "i32", "<i4")             \
    X(INT64, "INT64", 64, 'i', "i64", "<i8")             \
    X(UINT4, "UINT4", 4, 'u', "ui4", "")                 \
    X(UINT8, "UINT8", 8, 'u', "ui8", "|u1")              \
    X(UINT16, "UINT16", 16, 'u', "ui16", "<u2")          \
    X(UINT32, "UINT32", 32, 'u', "ui32", "<u4")          \
    X(UINT64, "UINT64", 64, 'u', "ui64", "<u8")          \
    X(FP4, "FP4", 4, 'f', "f4", "")                      \
    X(FP8E4M3FN, "FP8E4M3FN", 8, 'f', "f8E4M3FN", "")    \
    X(FP8E5M2, "FP8E5M2", 8, 'f', "f8E5M2", "")          \
    X(FP8E8M0, "FP8E8M0", 8, 'f', "f8E8M0", "")          \
    X(FP16, "FP16", 16, 'f', "f16", "<f2")               \
    X(BF16, "BF16", 16, 'f', "bf16", "<V2")              \
    X(FP32, "FP32", 32, 'f', "f32", "<f4")               \
    X(HF4, "HF4", 4, 'f', "hf4", "")                     \
    X(HF8, "HF8", 8, 'f', "hf8", "")                     \
    X(INDEX, "INDEX", 64, 'i', "index", "<i8")           \
    X(TASK_ID, "TASK_ID", 64, 'x', "i64", "")

typedef enum {
#define X(id, name, bits, kind, pto, npy) DT_##id,
    PTOC_DTYPES(X)
#undef X
    DT_COUNT,
    DT_NONE = -1
} DType;

const char *dtype_name(DType t);          /* "FP16" */
const char *dtype_pto(DType t);           /* "f16" */
int dtype_bits(DType t);
int dtype_bytes(DType t);                 /* 0 for sub-byte types */
bool dtype_is_float(DType t);
bool dtype_is_int(DType t);               /* signed, unsigned, INDEX */
bool dtype_is_signed(DType t);            /* signed integers and INDEX */
/* The element types ptoc computes with (interpreter, simulator, .npy): BOOL, INT8..INT64,
 * UINT8..UINT64, FP16, BF16, FP32, INDEX. Sub-byte, FP8 / HiF8 and TASK_ID elements are not. */
bool dtype_is_supported(DType t);
#define DTYPE_SUPPORTED_LIST "FP16, BF16, FP32, INT8, INT16, INT32, INT64, UINT8, UINT16, UINT32, UINT64, BOOL, INDEX"
/* v rounded to the float dtype t (nearest even, one rounding: FP16/BF16 go through a round-to-odd
 * float); FP32 and the narrow float types without a byte layout round to float. */
double dtype_round_float(DType t, double v);
DType dtype_from_name(const char *s);     /* DT_NONE when unknown */
/* Rounding modes of a vector cast (spec/ops.md §4.4), the values of the ISA's RoundMode. */
enum { DT_ROUND_NONE = 0, DT_ROUND_RINT, DT_ROUND_ROUND, DT_ROUND_FLOOR, DT_ROUND_CEIL, DT_ROUND_TRUNC, DT_ROUND_ODD };
const char *dtype_round_name(int mode);   /* "rint"; NULL when out of range */
/* v (a value of dtype from) converted to dtype to with rounding mode `mode`, the mode honoured for
 * every conversion (spec/ops.md decision 6): to a float type the nearest representable value per the
 * mode (none = rint); float to integer rounds per the mode (none = truncate) then saturates; integer
 * to integer wraps two's-complement; to BOOL: v != 0. */
double dtype_convert(DType to, DType from, double v, int mode);
/* One packed element of type t at p, as a double (FP16/BF16 bit patterns, FP32, bool, integers);
 * 0 for types without a byte layout (sub-byte, FP8). */
double dtype_read(DType t, const void *p);
/* An integer (or BOOL) element of type t at p, exact for the 64-bit types (dtype_read goes through a
 * double, which is not above 2^53). */
int64_t dtype_read_int(DType t, const void *p);
/* Python floor division and modulo on int64 (b != 0; INT64_MIN / -1 wraps). */
int64_t floordiv_i64(int64_t a, int64_t b);
int64_t floormod_i64(int64_t a, int64_t b);

/* Memory spaces, with the IR enum values of the spec. */
#define PTOC_MEMSPACES(X)            \
    X(DDR, "DDR", "gm")              \
    X(VEC, "Vec", "vec")             \
    X(MAT, "Mat", "mat")             \
    X(LEFT, "Left", "left")          \
    X(RIGHT, "Right", "right")       \
    X(ACC, "Acc", "acc")             \
    X(BIAS, "Bias", "bias")          \
    X(SCALAR_LOCAL, "ScalarLocal", "scalar") \
    X(LEFT_SCALE, "LeftScale", "scaling")    \
    X(RIGHT_SCALE, "RightScale", "scaling")

typedef enum {
#define X(id, name, pto) MS_##id,
    PTOC_MEMSPACES(X)
#undef X
    MS_COUNT,
    MS_NONE = -1
} MemSpace;

const char *memspace_name(MemSpace m);    /* "Left" (as in pl.Mem.Left) */
const char *memspace_pto(MemSpace m);     /* "left" */
const char *memspace_lower(MemSpace m);   /* "left", "ddr", for JSON and alloc names */
MemSpace memspace_from_name(const char *s);

#endif
