/* rt_build_util — building orchestration programs for runtime tests with the IR builders: a
 * program with one Orchestration function, tensor parameters, kernels with n tensor params, calls
 * with explicit argument directions, runtime scopes, slices and tensor.create. Header-only. */
#ifndef PTOC_TEST_RT_BUILD_UTIL_H
#define PTOC_TEST_RT_BUILD_UTIL_H

#include <stdio.h>
#include <string.h>

#include "rt/rt_internal.h"

typedef struct Tb { IrCtx *c; Program *p; Function *orch; StmtList *body; DiagSink diag; } Tb;

static inline void tb_init(Tb *t) {
    diag_init(&t->diag);
    t->c = ir_ctx_new(&t->diag);
    t->p = ir_program_new(t->c, "prog");
    t->orch = ir_func_new(t->c, "orch", FT_ORCHESTRATION);
    ir_program_add(t->c, t->p, t->orch);
    t->body = &t->orch->body;
}

static inline void tb_free(Tb *t) { ir_ctx_free(t->c); diag_free(&t->diag); }

static inline Type *ten(Tb *t, DType dt, int64_t r, int64_t c) { int64_t d[2] = { r, c }; return ir_tensor_type(t->c, dt, 2, d); }

static inline Var *param(Tb *t, const char *name, Type *ty, ParamDir d) {
    Var *v = ir_var_new(t->c, name, ty);
    ir_func_add_param(t->c, t->orch, v, d);
    return v;
}

/* A kernel with n tensor params of the given types/dirs; returns its last param. */
static inline Function *kernel(Tb *t, const char *name, FuncType ft, int n, Type **types, const ParamDir *dirs) {
    Function *f = ir_program_find(t->p, name);
    if (f) return f;
    f = ir_func_new(t->c, name, ft);
    Var *last = NULL;
    for (int i = 0; i < n; i++) {
        char pn[16];
        snprintf(pn, sizeof pn, "p%d", i);
        last = ir_var_new(t->c, pn, types[i]);
        ir_func_add_param(t->c, f, last, dirs[i]);
    }
    f->return_types = ARENA_ARRAY(t->c->arena, Type *, 1);
    f->return_types[0] = last->type;
    f->nreturns = 1;
    Expr *rv = ir_ref(last);
    ir_list_push(t->c, &f->body, ir_return(t->c, &rv, 1));
    ir_program_add(t->c, t->p, f);
    return f;
}

static inline AttrVal dirs_list(Tb *t, const char **dirs, int n) {
    AttrVal l = { .kind = AV_LIST };
    l.items = ARENA_ARRAY(t->c->arena, AttrVal, n);
    l.nitems = n;
    for (int i = 0; i < n; i++) {
        char q[64];
        snprintf(q, sizeof q, "pl.adir.%s", dirs[i]);
        l.items[i] = ir_av_enum(arena_strdup(t->c->arena, q));
    }
    return l;
}

/* Appends `var = kernel(args...)` (or an eval when var is NULL) with explicit directions. */
static inline Expr *call(Tb *t, StmtList *into, Var *var, Function *k, Expr **args, int n, const char **dirs) {
    Expr *e = ir_call_fn(t->c, k, args, n);
    if (dirs) ir_attr_set(t->c, &e->call.attrs, "arg_directions", dirs_list(t, dirs, n));
    ir_list_push(t->c, into, var ? ir_assign(t->c, var, e) : ir_eval(t->c, e));
    return e;
}

static inline Stmt *scope(Tb *t, StmtList *into, bool manual) {
    Stmt *s = ir_scope(t->c, SC_RUNTIME);
    s->scope.manual = manual;
    ir_list_push(t->c, into, s);
    return s;
}

static inline Expr *ci(Tb *t, int64_t v) { return ir_const_int(t->c, v, DT_INDEX); }

static inline Expr *slice(Tb *t, Expr *src, int64_t r, int64_t c, Expr *o0, Expr *o1) {
    Expr *off[2] = { o0, o1 };
    int64_t sh[2] = { r, c };
    Expr *args[3] = { src, ir_int_tuple(t->c, sh, 2), ir_tuple(t->c, off, 2) };
    Expr *e = ir_call(t->c, OP_TENSOR_SLICE, args, 3);
    ir_deduce_call(t->c, e);
    return e;
}

static inline Expr *create(Tb *t, int64_t r, int64_t c, DType dt) {
    int64_t sh[2] = { r, c };
    Expr *a = ir_int_tuple(t->c, sh, 2);
    Expr *e = ir_call(t->c, OP_TENSOR_CREATE, &a, 1);
    ir_attr_set(t->c, &e->call.kwargs, "dtype", ir_av_dtype(dt));
    ir_deduce_call(t->c, e);
    return e;
}

static inline int count_sub(const char *hay, const char *needle) {
    int n = 0;
    for (const char *p = hay; p && (p = strstr(p, needle)); p += strlen(needle)) n++;
    return n;
}

/* writer(c) then reader(c) in one runtime scope (kernels of type ft), optionally with an explicit
 * dependency of the reader on the writer's task. */
static inline void two_tasks(Tb *t, FuncType ft, Var *c, const char *dir_w, const char *dir_r, bool manual, bool explicit_dep) {
    Type *ts[1] = { c->type };
    ParamDir pd[1] = { PD_INOUT };
    Function *w = kernel(t, "writer", ft, 1, ts, pd);
    Function *rd = kernel(t, "reader", ft, 1, ts, pd);
    Stmt *sc = scope(t, t->body, manual);
    Expr *arg = ir_ref(c);
    Var *wv = ir_var_new(t->c, "w", c->type);
    call(t, &sc->scope.body, wv, w, &arg, 1, &dir_w);
    Expr *e = call(t, &sc->scope.body, NULL, rd, &arg, 1, &dir_r);
    if (explicit_dep) {
        AttrVal l = { .kind = AV_LIST };
        l.items = ARENA_ARRAY(t->c->arena, AttrVal, 1);
        l.nitems = 1;
        l.items[0] = (AttrVal){ .kind = AV_EXPR, .expr = ir_ref(wv) };
        ir_attr_set(t->c, &e->call.attrs, "deps", l);
    }
}

#endif
