/* dtype: tables behind the element-type and memory-space enums. */
#include "base/dtype.h"

#include <string.h>

static const struct { const char *name; int bits; char kind; const char *pto; } dtypes[] = {
#define X(id, name, bits, kind, pto, npy) { name, bits, kind, pto },
    PTOC_DTYPES(X)
#undef X
};

const char *dtype_name(DType t) { return t >= 0 && t < DT_COUNT ? dtypes[t].name : "?"; }
const char *dtype_pto(DType t) { return t >= 0 && t < DT_COUNT ? dtypes[t].pto : "?"; }
int dtype_bits(DType t) { return t >= 0 && t < DT_COUNT ? dtypes[t].bits : 0; }
int dtype_bytes(DType t) { return dtype_bits(t) / 8; }
bool dtype_is_float(DType t) { return t >= 0 && t < DT_COUNT && dtypes[t].kind == 'f'; }
bool dtype_is_int(DType t) { return t >= 0 && t < DT_COUNT && (dtypes[t].kind == 'i' || dtypes[t].kind == 'u'); }
bool dtype_is_signed(DType t) { return t >= 0 && t < DT_COUNT && dtypes[t].kind == 'i'; }
bool dtype_is_supported(DType t) {
    return t >= 0 && t < DT_COUNT && dtypes[t].bits % 8 == 0 && strchr("biuf", dtypes[t].kind) &&
           !(dtypes[t].kind == 'f' && dtypes[t].bits == 8);
}

DType dtype_from_name(const char *s) {
    for (int i = 0; i < DT_COUNT; i++)
        if (strcmp(dtypes[i].name, s) == 0) return (DType)i;
    return DT_NONE;
}

static const struct { const char *name, *pto, *lower; } spaces[] = {
    { "DDR", "gm", "ddr" }, { "Vec", "vec", "vec" }, { "Mat", "mat", "mat" }, { "Left", "left", "left" },
    { "Right", "right", "right" }, { "Acc", "acc", "acc" }, { "Bias", "bias", "bias" },
    { "ScalarLocal", "scalar", "scalar" }, { "LeftScale", "scaling", "left_scale" },
    { "RightScale", "scaling", "right_scale" },
};

const char *memspace_name(MemSpace m) { return m >= 0 && m < MS_COUNT ? spaces[m].name : "?"; }
const char *memspace_pto(MemSpace m) { return m >= 0 && m < MS_COUNT ? spaces[m].pto : "?"; }
const char *memspace_lower(MemSpace m) { return m >= 0 && m < MS_COUNT ? spaces[m].lower : "?"; }

MemSpace memspace_from_name(const char *s) {
    for (int i = 0; i < MS_COUNT; i++)
        if (strcmp(spaces[i].name, s) == 0) return (MemSpace)i;
    return MS_NONE;
}
