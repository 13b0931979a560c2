/* embed — using ptoc as a library (include/ptoc.h): load examples/matmul.py (run from the repo
 * root), query its parameters, fill FP16 inputs, run it on the simulator through the public API,
 * and check the result against a plain C reference matmul (FP16 inputs, FP32 accumulation).
 * Prints "OK" and exits 0 on success; built and run by `make test` ($(BUILD)/tests/embed). */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ptoc.h"

/* IEEE half -> float (inputs are generated exactly representable, so no rounding is needed). */
static float half_to_float(uint16_t h) {
    uint32_t sign = (uint32_t)(h >> 15) << 31, exp = (h >> 10) & 0x1f, man = h & 0x3ff;
    float f;
    if (exp == 0) f = ldexpf((float)man, -24);
    else if (exp == 31) f = man ? NAN : INFINITY;
    else f = ldexpf((float)(man | 0x400), (int)exp - 25);
    return sign ? -f : f;
}

/* k / 64 for k in [-64, 64): exact in FP16 (a power-of-two scaled small integer). */
static uint16_t small_half(int k) {
    if (k == 0) return 0;
    uint16_t sign = k < 0 ? 0x8000 : 0;
    unsigned m = (unsigned)(k < 0 ? -k : k);
    int e = 0;
    while ((m << e) < 0x400) e++;          /* normalise to 1.xxx * 2^10 */
    unsigned man = (m << e) & 0x3ff;
    int exp = 10 - e - 6 + 15;             /* value = m * 2^-6 */
    return (uint16_t)(sign | (unsigned)exp << 10 | man);
}

static int fail(ptoc_program *p, const char *what) {
    fprintf(stderr, "embed: %s failed\n%s%s\n", what, ptoc_diagnostics(p), ptoc_report_json(p));
    ptoc_program_free(p);
    return 1;
}

int main(void) {
    ptoc_program *p = ptoc_program_new();
    if (!p) return 1;
    if (ptoc_set_option(p, "target", "a2a3") || ptoc_set_option(p, "seed", "7")) return fail(p, "set_option");
    if (ptoc_load_file(p, "examples/matmul.py", "matmul")) return fail(p, "load");
    if (ptoc_num_params(p) != 3 || strcmp(ptoc_param_dtype(p, 0), "FP16") || strcmp(ptoc_param_dtype(p, 2), "FP32") ||
        ptoc_param_direction(p, 0) != PTOC_DIR_IN || ptoc_param_direction(p, 2) != PTOC_DIR_OUT)
        return fail(p, "parameter query");
    const int M = (int)ptoc_param_dim(p, 0, 0), K = (int)ptoc_param_dim(p, 0, 1), N = (int)ptoc_param_dim(p, 1, 1);
    if (M != 128 || K != 512 || N != 128 || ptoc_param_bytes(p, 2) != (size_t)M * N * 4) return fail(p, "shape query");
    if (ptoc_compile(p)) return fail(p, "compile");

    uint16_t *a = malloc(sizeof *a * (size_t)M * K), *b = malloc(sizeof *b * (size_t)K * N);
    float *c = calloc((size_t)M * N, sizeof *c), *ref = calloc((size_t)M * N, sizeof *ref);
    unsigned seed = 12345;
    for (int i = 0; i < M * K; i++) seed = seed * 1103515245u + 12345u, a[i] = small_half((int)((seed >> 16) % 128) - 64);
    for (int i = 0; i < K * N; i++) seed = seed * 1103515245u + 12345u, b[i] = small_half((int)((seed >> 16) % 128) - 64);
    for (int i = 0; i < M; i++)
        for (int j = 0; j < N; j++) {
            float acc = 0;
            for (int k = 0; k < K; k++) acc += half_to_float(a[i * K + k]) * half_to_float(b[k * N + j]);
            ref[i * N + j] = acc;
        }

    void *bufs[3] = { a, b, c };
    int rc = ptoc_run(p, bufs, 3);
    double max_err = 0;
    for (int i = 0; i < M * N; i++) max_err = fmax(max_err, fabs((double)c[i] - ref[i]));
    int ok = rc == 0 && max_err <= 1e-3 && ptoc_makespan_cycles(p) > 0 && strstr(ptoc_report_json(p), "\"ok\":true");
    if (!ok) {
        fprintf(stderr, "embed: run rc=%d max_err=%g c[0]=%g ref[0]=%g\n", rc, max_err, (double)c[0], (double)ref[0]);
        free(a), free(b), free(c), free(ref);
        return fail(p, "run/check");
    }
    printf("OK matmul %dx%dx%d via the API: max abs err %g, %lld cycles\n", M, N, K, max_err,
           (long long)ptoc_makespan_cycles(p));
    free(a), free(b), free(c), free(ref);
    ptoc_program_free(p);
    return 0;
}
