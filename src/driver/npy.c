/* npy — reading and writing NumPy .npy files (format 1.0/2.0/3.0 read, 1.0 written) for
 * `ptoc run --in NAME=file.npy --out NAME=file.npy`: C-order little-endian arrays whose dtype and
 * shape must match the parameter exactly. BF16 is stored as NumPy's 2-byte void ("<V2" / "|V2"),
 * or read from "<u2"/"<i2" bit patterns. */
#include "driver/driver.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

static const char *npy_descr(DType t) {
    switch (t) {
    case DT_BOOL: return "|b1";
    case DT_INT8: return "|i1";
    case DT_UINT8: return "|u1";
    case DT_INT16: return "<i2";
    case DT_UINT16: return "<u2";
    case DT_INT32: return "<i4";
    case DT_UINT32: return "<u4";
    case DT_INT64: case DT_INDEX: return "<i8";
    case DT_UINT64: return "<u8";
    case DT_FP16: return "<f2";
    case DT_BF16: return "|V2";
    case DT_FP32: return "<f4";
    default: return NULL;
    }
}

static bool descr_ok(DType t, const char *d) {
    const char *want = npy_descr(t);
    if (want && !strcmp(want, d)) return true;
    if (want && (want[0] == '<' || want[0] == '|') && (d[0] == '<' || d[0] == '|' || d[0] == '=') && !strcmp(want + 1, d + 1))
        return true;
    return t == DT_BF16 && (!strcmp(d, "<V2") || !strcmp(d, "<u2") || !strcmp(d, "<i2"));
}

/* Value of 'key': in the header dict, copied (without quotes) into out. */
static bool header_field(const char *h, const char *key, char *out, size_t n) {
    char pat[32];
    snprintf(pat, sizeof pat, "'%s'", key);
    const char *p = strstr(h, pat);
    if (!p) return false;
    p = strchr(p + strlen(pat), ':');
    if (!p) return false;
    p++;
    while (*p == ' ') p++;
    const char *e;
    if (*p == '\'') e = strchr(++p, '\'');
    else if (*p == '(') e = strchr(p, ')') ? strchr(p, ')') + 1 : NULL;
    else for (e = p; *e && *e != ',' && *e != '}'; e++) {}
    if (!e || (size_t)(e - p) >= n) return false;
    memcpy(out, p, (size_t)(e - p));
    out[e - p] = 0;
    return true;
}

static bool parse_shape(const char *s, int64_t *dims, int *rank) {
    *rank = 0;
    for (const char *p = s + 1; *p && *p != ')';) {
        while (*p == ' ' || *p == ',') p++;
        if (*p == ')') break;
        char *end;
        long long v = strtoll(p, &end, 10);
        if (end == p || *rank >= 8) return false;
        dims[(*rank)++] = v;
        p = end;
    }
    return true;
}

bool drv_npy_read(const char *path, const DrvParam *prm, void *dst, char *err, size_t errlen) {
    size_t len;
    /* at most the data plus a generous header: --in NAME=/dev/zero fails at once */
    size_t max = (size_t)prm->bytes + ((size_t)1 << 20);
    char *buf = base_read_file_max(path, max, &len);
    if (!buf && errno == EFBIG)
        return snprintf(err, errlen, "'%s' is larger than a .npy of parameter '%s' (%lld data bytes) can be", path, prm->name,
                        (long long)prm->bytes), false;
    if (!buf) return snprintf(err, errlen, "cannot read '%s': %s", path, strerror(errno)), false;
    bool ok = false;
    if (len < 10 || memcmp(buf, "\x93NUMPY", 6)) {
        snprintf(err, errlen, "'%s' is not a .npy file", path);
        goto done;
    }
    unsigned char major = (unsigned char)buf[6];
    size_t hl = major == 1 ? (size_t)(unsigned char)buf[8] | (size_t)(unsigned char)buf[9] << 8
                           : (size_t)(unsigned char)buf[8] | (size_t)(unsigned char)buf[9] << 8 |
                                 (size_t)(unsigned char)buf[10] << 16 | (size_t)(unsigned char)buf[11] << 24;
    size_t hoff = major == 1 ? 10 : 12;
    if (hoff + hl > len) {
        snprintf(err, errlen, "'%s': truncated header", path);
        goto done;
    }
    char *h = strndup(buf + hoff, hl), descr[32], fort[16], shape[256];
    int64_t dims[8];
    int rank;
    if (!header_field(h, "descr", descr, sizeof descr) || !header_field(h, "fortran_order", fort, sizeof fort) ||
        !header_field(h, "shape", shape, sizeof shape) || !parse_shape(shape, dims, &rank))
        snprintf(err, errlen, "'%s': cannot read the header %s", path, h);
    else if (!descr_ok(prm->dtype, descr))
        snprintf(err, errlen, "'%s' has dtype '%s' but parameter '%s' is %s", path, descr, prm->name, dtype_name(prm->dtype));
    else if (strcmp(fort, "False"))
        snprintf(err, errlen, "'%s' is in Fortran order; save it C-contiguous", path);
    else if (rank != prm->rank || memcmp(dims, prm->shape, sizeof(int64_t) * (size_t)rank))
        snprintf(err, errlen, "'%s' has shape %s but parameter '%s' has rank %d and %lld elements", path, shape, prm->name,
                 prm->rank, (long long)prm->numel);
    else if (len - hoff - hl < (size_t)prm->bytes)
        snprintf(err, errlen, "'%s': %zu data bytes, expected %lld", path, len - hoff - hl, (long long)prm->bytes);
    else {
        memcpy(dst, buf + hoff + hl, (size_t)prm->bytes);
        ok = true;
    }
    free(h);
done:
    free(buf);
    return ok;
}

bool drv_npy_write(const char *path, const DrvParam *prm, const void *data, char *err, size_t errlen) {
    const char *descr = npy_descr(prm->dtype);
    if (!descr) return snprintf(err, errlen, "cannot write %s as .npy", dtype_name(prm->dtype)), false;
    StrBuf h = {0};
    sb_printf(&h, "{'descr': '%s', 'fortran_order': False, 'shape': (", descr);
    for (int i = 0; i < prm->rank; i++) sb_printf(&h, "%lld%s", (long long)prm->shape[i], prm->rank == 1 ? "," : i + 1 < prm->rank ? ", " : "");
    sb_puts(&h, "), }");
    while ((10 + h.len + 1) % 64) sb_putc(&h, ' ');
    sb_putc(&h, '\n');
    unsigned char pre[10] = { 0x93, 'N', 'U', 'M', 'P', 'Y', 1, 0, (unsigned char)(h.len & 0xff), (unsigned char)(h.len >> 8) };
    /* header, then the caller's buffer as is: no copy of a large output */
    FILE *f = fopen(path, "wb");
    bool ok = f && fwrite(pre, 1, sizeof pre, f) == sizeof pre && fwrite(h.data, 1, h.len, f) == h.len &&
              fwrite(data, 1, (size_t)prm->bytes, f) == (size_t)prm->bytes;
    int write_errno = errno;
    if (f && fclose(f) != 0) ok = false, write_errno = errno;
    if (!ok) snprintf(err, errlen, "cannot write '%s': %s", path, strerror(write_errno));
    sb_free(&h);
    return ok;
}

/* The dtype a .npy descr names (the inverse of npy_descr; "<i2" is INT16, BF16 is "V2"). */
static DType dtype_of_descr(const char *d) {
    static const DType order[] = { DT_BOOL, DT_INT8, DT_UINT8, DT_INT16, DT_UINT16, DT_INT32, DT_UINT32, DT_INT64, DT_UINT64,
                                   DT_FP16, DT_BF16, DT_FP32 };
    for (size_t i = 0; i < sizeof order / sizeof order[0]; i++)
        if (descr_ok(order[i], d) && (order[i] != DT_BF16 || d[1] == 'V')) return order[i];
    return DT_NONE;
}

bool drv_npy_header(const char *path, DType *dtype, int *rank, int64_t *dims, char *err, size_t errlen) {
    FILE *f = fopen(path, "rb");
    if (!f) return snprintf(err, errlen, "cannot read '%s': %s", path, strerror(errno)), false;
    char buf[4096 + 16];
    size_t len = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[len] = 0;
    if (len < 10 || memcmp(buf, "\x93NUMPY", 6)) return snprintf(err, errlen, "'%s' is not a .npy file", path), false;
    unsigned char major = (unsigned char)buf[6];
    size_t hoff = major == 1 ? 10 : 12;
    size_t hl = (size_t)(unsigned char)buf[8] | (size_t)(unsigned char)buf[9] << 8;
    if (major != 1) hl |= (size_t)(unsigned char)buf[10] << 16 | (size_t)(unsigned char)buf[11] << 24;
    if (hoff + hl > len) return snprintf(err, errlen, "'%s': truncated or oversized header", path), false;
    buf[hoff + hl] = 0;
    const char *h = buf + hoff;
    char descr[32], shape[256];
    if (!header_field(h, "descr", descr, sizeof descr) || !header_field(h, "shape", shape, sizeof shape) ||
        !parse_shape(shape, dims, rank))
        return snprintf(err, errlen, "'%s': cannot read the header", path), false;
    for (int i = 0; i < *rank; i++)
        if (dims[i] < 0) return snprintf(err, errlen, "'%s': negative dimension in shape %s", path, shape), false;
    if ((*dtype = dtype_of_descr(descr)) == DT_NONE)
        return snprintf(err, errlen, "'%s' has dtype '%s', which ptoc does not read", path, descr), false;
    return true;
}
