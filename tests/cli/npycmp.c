/* npycmp — compare two NumPy .npy files element by element (a test tool, standalone: no ptoc code).
 *
 *   npycmp [--atol A] [--rtol R] GOT.npy EXPECTED.npy [[--exact | --atol A | --rtol R]... GOT2 EXP2]...
 *
 * (More pairs may follow, each compared under the options given before it — `--exact` goes back to
 * exact comparison — so a test compares all the outputs of a run with one process.)
 * Both files must have the same dtype descr (the byte-order character is ignored for one-byte types
 * and for 'V2', BF16 as ptoc writes it: '<V2' and '|V2' are the same) and the same shape, C order.
 * Without --atol/--rtol the comparison is exact: float elements must have identical bits (so -0 and
 * +0 differ), except that any NaN equals any NaN; integers must be equal. With a tolerance a float
 * element passes when |got - exp| <= atol + rtol * |exp| (computed in double), NaN matches only NaN
 * and an infinity only the same infinity; integers are still compared exactly.
 * Supported descrs: f2 f4 f8 V2 (BF16) i1 i2 i4 i8 u1 u2 u4 u8 b1.
 *
 * Exit 0 when every pair is equal ("equal: N elements" each), 1 when an element of some pair
 * differs (prints, per pair, "GOT: " and the first differing index, both values and the number of
 * differing elements), 2 on a usage or file error. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    char kind;            /* 'f' float, 'V' bf16, 'i' signed, 'u' unsigned, 'b' bool */
    int size;             /* bytes per element */
    int rank;
    long long shape[16];
    long long n;
    const unsigned char *data;
    unsigned char *buf;
    char descr[32];
} Npy;

static int fail(const char *fmt, const char *a, const char *b) {
    fprintf(stderr, "npycmp: ");
    fprintf(stderr, fmt, a, b);
    fputc('\n', stderr);
    return 2;
}

static unsigned char *read_file(const char *path, size_t *len) {
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    size_t cap = 1 << 16, n = 0;
    unsigned char *b = malloc(cap);
    size_t r;
    while (b && (r = fread(b + n, 1, cap - n, f)) > 0) {
        n += r;
        if (n == cap) {
            unsigned char *nb = realloc(b, cap *= 2);
            if (!nb) { free(b); b = NULL; }
            else b = nb;
        }
    }
    fclose(f);
    *len = n;
    return b;
}

/* Copies the value of 'key' in the header dict h into out (quotes stripped, parens kept). */
static int field(const char *h, const char *key, char *out, size_t cap) {
    char pat[40];
    snprintf(pat, sizeof pat, "'%s'", key);
    const char *p = strstr(h, pat);
    if (!p) return 0;
    p = strchr(p + strlen(pat), ':');
    if (!p) return 0;
    for (p++; *p == ' '; p++) {}
    const char *e;
    if (*p == '\'') { p++; e = strchr(p, '\''); }
    else if (*p == '(') { e = strchr(p, ')'); if (e) e++; }
    else for (e = p; *e && *e != ',' && *e != '}'; e++) {}
    if (!e || (size_t)(e - p) >= cap) return 0;
    memcpy(out, p, (size_t)(e - p));
    out[e - p] = 0;
    return 1;
}

static int load(const char *path, Npy *a) {
    size_t len;
    memset(a, 0, sizeof *a);
    a->buf = read_file(path, &len);
    if (!a->buf) return fail("cannot read '%s'%s", path, "");
    if (len < 10 || memcmp(a->buf, "\x93NUMPY", 6)) return fail("'%s' is not a .npy file%s", path, "");
    int major = a->buf[6];
    size_t hoff = major == 1 ? 10 : 12;
    size_t hl = major == 1 ? (size_t)a->buf[8] | (size_t)a->buf[9] << 8
                           : (size_t)a->buf[8] | (size_t)a->buf[9] << 8 | (size_t)a->buf[10] << 16 | (size_t)a->buf[11] << 24;
    if (hoff + hl > len) return fail("'%s': truncated header%s", path, "");
    char *h = malloc(hl + 1), fort[16], shape[256];
    memcpy(h, a->buf + hoff, hl);
    h[hl] = 0;
    int ok = field(h, "descr", a->descr, sizeof a->descr) && field(h, "fortran_order", fort, sizeof fort) &&
             field(h, "shape", shape, sizeof shape);
    free(h);
    if (!ok) return fail("'%s': cannot read the header%s", path, "");
    if (strcmp(fort, "False")) return fail("'%s': Fortran order is not supported%s", path, "");
    const char *d = a->descr;
    if (d[0] == '>') return fail("'%s': big-endian data (%s) is not supported", path, d);
    if (d[0] == '<' || d[0] == '|' || d[0] == '=') d++;
    a->kind = d[0];
    a->size = atoi(d + 1);
    int good = (a->kind == 'f' && (a->size == 2 || a->size == 4 || a->size == 8)) || (a->kind == 'V' && a->size == 2) ||
               ((a->kind == 'i' || a->kind == 'u') && (a->size == 1 || a->size == 2 || a->size == 4 || a->size == 8)) ||
               (a->kind == 'b' && a->size == 1);
    if (!good) return fail("'%s': unsupported dtype '%s'", path, a->descr);
    a->n = 1;
    for (const char *p = shape + 1; *p && *p != ')';) {
        while (*p == ' ' || *p == ',') p++;
        if (*p == ')' || !*p) break;
        char *end;
        long long v = strtoll(p, &end, 10);
        if (end == p || a->rank >= 16 || v < 0) return fail("'%s': bad shape %s", path, shape);
        a->shape[a->rank++] = v;
        a->n *= v;
        p = end;
    }
    if (len - hoff - hl < (size_t)(a->n * a->size)) return fail("'%s': truncated data%s", path, "");
    a->data = a->buf + hoff + hl;
    return 0;
}

static double half_to_double(uint16_t h) {
    int e = (h >> 10) & 0x1f, m = h & 0x3ff;
    double v = e == 0 ? ldexp(m, -24) : e == 31 ? (m ? NAN : INFINITY) : ldexp(m | 0x400, e - 25);
    return (h & 0x8000) ? -v : v;
}

static double fval(const Npy *a, long long i) {
    const unsigned char *p = a->data + i * a->size;
    if (a->kind == 'V') {
        uint16_t h;
        memcpy(&h, p, 2);
        uint32_t u = (uint32_t)h << 16;
        float f;
        memcpy(&f, &u, 4);
        return f;
    }
    if (a->size == 2) { uint16_t h; memcpy(&h, p, 2); return half_to_double(h); }
    if (a->size == 4) { float f; memcpy(&f, p, 4); return f; }
    double d;
    memcpy(&d, p, 8);
    return d;
}

static long long ival(const Npy *a, long long i) {
    const unsigned char *p = a->data + i * a->size;
    switch (a->size) {
    case 1: return a->kind == 'u' || a->kind == 'b' ? (long long)p[0] : (long long)(int8_t)p[0];
    case 2: { uint16_t v; memcpy(&v, p, 2); return a->kind == 'u' ? (long long)v : (long long)(int16_t)v; }
    case 4: { uint32_t v; memcpy(&v, p, 4); return a->kind == 'u' ? (long long)v : (long long)(int32_t)v; }
    default: { long long v; memcpy(&v, p, 8); return v; }
    }
}

static void print_index(const Npy *a, long long i) {
    long long idx[16];
    for (int d = a->rank - 1; d >= 0; d--) {
        long long s = a->shape[d] ? a->shape[d] : 1;
        idx[d] = i % s;
        i /= s;
    }
    printf("[");
    for (int d = 0; d < a->rank; d++) printf("%s%lld", d ? ", " : "", idx[d]);
    printf("]");
}

/* Compares one pair; 0 equal, 1 different, 2 error. */
static int compare(const char *got, const char *exp, int tol, double atol, double rtol) {
    Npy a, b;
    memset(&b, 0, sizeof b);
    int rc = load(got, &a);                /* on an error the buffers are still freed below */
    if (rc || (rc = load(exp, &b))) goto done;
    rc = 1;
    if (a.kind != b.kind || a.size != b.size) {
        printf("%s: dtype differs: '%s', %s has '%s'\n", got, a.descr, exp, b.descr);
        goto done;
    }
    if (a.rank != b.rank || memcmp(a.shape, b.shape, sizeof(long long) * (size_t)a.rank)) {
        printf("%s: shape differs: (", got);
        for (int d = 0; d < a.rank; d++) printf("%s%lld", d ? ", " : "", a.shape[d]);
        printf("), %s has (", exp);
        for (int d = 0; d < b.rank; d++) printf("%s%lld", d ? ", " : "", b.shape[d]);
        printf(")\n");
        goto done;
    }
    int is_float = a.kind == 'f' || a.kind == 'V';
    long long bad = 0, first = -1;
    for (long long i = 0; i < a.n; i++) {
        int same;
        if (is_float) {
            double x = fval(&a, i), y = fval(&b, i);
            if (isnan(x) || isnan(y)) same = isnan(x) && isnan(y);
            else if (!tol) same = !memcmp(a.data + i * a.size, b.data + i * b.size, (size_t)a.size);
            else if (isinf(x) || isinf(y)) same = x == y;
            else same = fabs(x - y) <= atol + rtol * fabs(y);
        } else {
            same = ival(&a, i) == ival(&b, i);
        }
        if (!same) {
            if (first < 0) first = i;
            bad++;
        }
    }
    if (!bad) {
        printf("equal: %lld elements\n", a.n);
        rc = 0;
        goto done;
    }
    printf("%s: first difference at ", got);
    print_index(&a, first);
    if (is_float) {
        double x = fval(&a, first), y = fval(&b, first);
        printf(": got %.9g, expected %.9g", x, y);
        if (a.kind == 'V' || a.size == 2) {
            uint16_t hx, hy;
            memcpy(&hx, a.data + first * 2, 2);
            memcpy(&hy, b.data + first * 2, 2);
            printf(" (bits 0x%04x vs 0x%04x)", hx, hy);
        } else if (a.size == 4) {
            uint32_t ux, uy;
            memcpy(&ux, a.data + first * 4, 4);
            memcpy(&uy, b.data + first * 4, 4);
            printf(" (bits 0x%08x vs 0x%08x)", ux, uy);
        }
    } else {
        printf(": got %lld, expected %lld", ival(&a, first), ival(&b, first));
    }
    printf("; %lld of %lld elements differ%s\n", bad, a.n, tol ? " beyond the tolerance" : "");
done:
    free(a.buf);
    free(b.buf);
    return rc;
}

int main(int argc, char **argv) {
    double atol = 0, rtol = 0;
    int tol = 0, npairs = 0, worst = 0;
    const char *pending = NULL;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--atol") && i + 1 < argc) atol = atof(argv[++i]), tol = 1;
        else if (!strcmp(argv[i], "--rtol") && i + 1 < argc) rtol = atof(argv[++i]), tol = 1;
        else if (!strcmp(argv[i], "--exact")) atol = rtol = 0, tol = 0;
        else if (argv[i][0] == '-' && argv[i][1] == '-') return fail("unknown option '%s'%s", argv[i], "");
        else if (!pending) pending = argv[i];
        else {
            int rc = compare(pending, argv[i], tol, atol, rtol);
            if (rc == 2) return 2;
            if (rc > worst) worst = rc;
            pending = NULL;
            npairs++;
        }
    }
    if (pending || !npairs) {
        fprintf(stderr, "usage: npycmp [--atol A] [--rtol R] GOT.npy EXPECTED.npy [[--exact | --atol A | --rtol R]... GOT2 EXP2]...\n");
        return 2;
    }
    return worst;
}
