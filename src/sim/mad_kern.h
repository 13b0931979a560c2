/* sim/mad_kern.h — the MAD micro-kernel template, included by mad_kernel.c once per (element type,
 * vector width) variant. Not a public header.
 *
 * Requires (macros): MK_NAME(x) name mangler, MK_T element type (float, or uint32_t for the INT8
 *   path's wrapping int32 arithmetic), MK_VW lanes per vector, MK_MR rows per micro-tile,
 *   MK_TARGET a function attribute (a target ISA, or empty), MK_MULADD(acc, x, bv) the lane update
 *   acc + x * bv (x a scalar, bv a vector): fused (one rounding) for float, wrapping for uint32_t.
 * Produces: MK_NAME(mad)(m, n, k, a, b, c, ws): c[m x n] = a[m x k] * b[k x n], all dense row-major;
 *   ws holds MK_NAME(ws_elems)(m, n, k) elements.
 * Does: packs A into MR-row panels ([k][MR], zero-padded) and B into NR = 2 * VW column panels
 *   ([k][NR], zero-padded), then computes every MR x NR tile of C in registers: each lane is one
 *   element of C, initialised to +0 and updated c = fma(a, b, c) for l = 0, 1, ..., k - 1 — exactly
 *   the order and rounding of pto-isa's TMATMUL (one rounding per step; the project builds with
 *   -ffp-contract=off, so fusion comes only from MK_MULADD). Vectorised across n only. */
#define MK_NR (2 * MK_VW)
typedef MK_T MK_NAME(v) __attribute__((vector_size(MK_VW * sizeof(MK_T))));

static inline int64_t MK_NAME(ws_elems)(int64_t m, int64_t n, int64_t k) {
    return ((m + MK_MR - 1) / MK_MR * MK_MR + (n + MK_NR - 1) / MK_NR * MK_NR) * k;
}

/* One MR x NR tile over the whole of k; stores its mr x nr valid part into c (leading dim ldc). */
MK_TARGET static void MK_NAME(tile)(int64_t k, const MK_T *ap, const MK_T *bp, MK_T *c, int64_t ldc, int64_t mr,
                                     int64_t nr) {
    typedef MK_NAME(v) V;
    V lo[MK_MR], hi[MK_MR];
#pragma GCC unroll 16
    for (int r = 0; r < MK_MR; r++) { lo[r] = (V){ 0 }; hi[r] = (V){ 0 }; }
    for (int64_t l = 0; l < k; l++) {
        V b0, b1;
        memcpy(&b0, bp + l * MK_NR, sizeof b0);
        memcpy(&b1, bp + l * MK_NR + MK_VW, sizeof b1);
        const MK_T *al = ap + l * MK_MR;
#pragma GCC unroll 16
        for (int r = 0; r < MK_MR; r++) {
            MK_T x = al[r];
            lo[r] = MK_MULADD(lo[r], x, b0);
            hi[r] = MK_MULADD(hi[r], x, b1);
        }
    }
    if (mr == MK_MR && nr == MK_NR) {
#pragma GCC unroll 16
        for (int r = 0; r < MK_MR; r++) {
            memcpy(c + r * ldc, &lo[r], sizeof lo[r]);
            memcpy(c + r * ldc + MK_VW, &hi[r], sizeof hi[r]);
        }
        return;
    }
    MK_T t[MK_MR][MK_NR];
    for (int r = 0; r < MK_MR; r++) {
        memcpy(t[r], &lo[r], sizeof lo[r]);
        memcpy(t[r] + MK_VW, &hi[r], sizeof hi[r]);
    }
    for (int64_t r = 0; r < mr; r++) memcpy(c + r * ldc, t[r], sizeof(MK_T) * (size_t)nr);
}

MK_TARGET static void MK_NAME(mad)(int64_t m, int64_t n, int64_t k, const MK_T *a, const MK_T *b, MK_T *c, MK_T *ws) {
    int64_t mp = (m + MK_MR - 1) / MK_MR, np = (n + MK_NR - 1) / MK_NR;
    MK_T *pa = ws, *pb = ws + mp * MK_MR * k;
    for (int64_t p = 0; p < mp; p++) {           /* A panel p: pa[p][l][r] = a[p * MR + r][l] */
        MK_T *d = pa + p * MK_MR * k;
        int64_t rows = m - p * MK_MR < MK_MR ? m - p * MK_MR : MK_MR;
        for (int64_t r = 0; r < MK_MR; r++) {
            const MK_T *s = a + (p * MK_MR + r) * k;
            if (r < rows) for (int64_t l = 0; l < k; l++) d[l * MK_MR + r] = s[l];
            else for (int64_t l = 0; l < k; l++) d[l * MK_MR + r] = 0;
        }
    }
    for (int64_t p = 0; p < np; p++) {           /* B panel p: pb[p][l][j] = b[l][p * NR + j] */
        MK_T *d = pb + p * MK_NR * k;
        int64_t cols = n - p * MK_NR < MK_NR ? n - p * MK_NR : MK_NR;
        for (int64_t l = 0; l < k; l++) {
            memcpy(d + l * MK_NR, b + l * n + p * MK_NR, sizeof(MK_T) * (size_t)cols);
            if (cols < MK_NR) memset(d + l * MK_NR + cols, 0, sizeof(MK_T) * (size_t)(MK_NR - cols));
        }
    }
    for (int64_t q = 0; q < np; q++)             /* B panel outer: it stays in cache across the A panels */
        for (int64_t p = 0; p < mp; p++) {
            int64_t mr = m - p * MK_MR < MK_MR ? m - p * MK_MR : MK_MR;
            int64_t nr = n - q * MK_NR < MK_NR ? n - q * MK_NR : MK_NR;
            MK_NAME(tile)(k, pa + p * MK_MR * k, pb + q * MK_NR * k, c + p * MK_MR * n + q * MK_NR, n, mr, nr);
        }
}

#undef MK_NR
