/* test_interp_harness — building vector-op calls over variables bound in an interpreter frame, shared
 * by the interpreter's vector unit tests (test_interp_vec.c, test_interp_bits.c). */
#ifndef PTOC_TEST_INTERP_HARNESS_H
#define PTOC_TEST_INTERP_HARNESS_H

#include "interp/interp.h"
#include "interp/interp_internal.h"
#include "test.h"

typedef struct Env {
    DiagSink d;
    IrCtx *c;
    InterpCtx ic;
    InterpFrame f;
    const char *what;             /* the case being run, for failure messages */
    char whatbuf[96];             /* storage for a formatted `what` */
} Env;

static void env_open(Env *e) {
    memset(e, 0, sizeof *e);
    diag_init(&e->d);
    e->c = ir_ctx_new(&e->d);
    e->ic.diag = &e->d;
    interp_env_init(&e->f.env);
}

static void env_close(Env *e) {
    interp_env_free(&e->f.env);
    ir_ctx_free(e->c);
    diag_free(&e->d);
}

static const char *last_msg(const Env *e) { return e->d.items.len ? e->d.items.data[e->d.items.len - 1].msg : ""; }

static bool same(double a, double b) { return (a != a && b != b) || (a == b && signbit(a) == signbit(b)); }

static Type *ty(Env *e, DType dt, int64_t r, int64_t c, bool tile) {
    int64_t d[2] = { r, c };
    return tile ? ir_tile_type(e->c, dt, 2, d, MS_VEC) : ir_tensor_type(e->c, dt, 2, d);
}

/* A variable bound to an [r, c] array of dt with valid box [vr, vc], row-major values (NULL:
 * zeros); every value must be representable in dt. */
static Expr *arr(Env *e, DType dt, int64_t r, int64_t c, int64_t vr, int64_t vc, const double *vals, bool tile) {
    int64_t shape[2] = { r, c };
    InterpArray *a = interp_array_new(dt, 2, shape);
    a->valid[0] = vr;
    a->valid[1] = vc;
    for (int64_t i = 0; vals && i < r * c; i++) {
        if (!same(interp_round(dt, vals[i]), vals[i]))   /* a table typo, not a check of the interpreter */
            CHECK_MSG(false, "%s: input %.17g is not a %s value", e->what, vals[i], dtype_name(dt));
        interp_set(a, i, vals[i]);
    }
    Var *v = ir_var_new(e->c, "x", ty(e, dt, r, c, tile));
    interp_env_put(&e->f.env, v, interp_arr_value(a));
    return ir_ref(v);
}

/* env_open with a formatted case name. */
static inline void env_named(Env *e, const char *what) {
    env_open(e);
    snprintf(e->whatbuf, sizeof e->whatbuf, "%s", what);
    e->what = e->whatbuf;
}

#endif
