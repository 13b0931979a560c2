/* pipeline_util.h — builds the user-form matmul program by hand (no parser) and runs the whole
 * compile: passes, lowering, sync. Shared by the pass and end-to-end unit tests. */
#ifndef PTOC_PIPELINE_UTIL_H
#define PTOC_PIPELINE_UTIL_H

#include "back/back.h"
#include "front/front.h"
#include "ir/ir.h"
#include "pass/pass.h"

/* matmul(a: [M, K] dt, b: [K, N] dt, c: Out [M, N] acc) with one pl.at region:
 *   c = tensor.assemble(c, tensor.matmul(a, b, out_dtype=acc), [0, 0]); return c */
static inline Program *build_matmul(IrCtx *c, int64_t M, int64_t N, int64_t K, DType dt, DType acc) {
    Function *f = ir_func_new(c, "matmul", FT_ORCHESTRATION);
    Var *a = ir_var_new(c, "a", ir_tensor_type(c, dt, 2, (int64_t[]){ M, K }));
    Var *b = ir_var_new(c, "b", ir_tensor_type(c, dt, 2, (int64_t[]){ K, N }));
    Var *o = ir_var_new(c, "c", ir_tensor_type(c, acc, 2, (int64_t[]){ M, N }));
    ir_func_add_param(c, f, a, PD_IN);
    ir_func_add_param(c, f, b, PD_IN);
    ir_func_add_param(c, f, o, PD_OUT);
    f->return_types = ARENA_ARRAY(c->arena, Type *, 1);
    f->return_types[0] = o->type;
    f->nreturns = 1;
    Stmt *scope = ir_scope(c, SC_INCORE);
    Expr *mm = ir_call(c, OP_TENSOR_MATMUL, (Expr *[]){ ir_ref(a), ir_ref(b) }, 2);
    ir_attr_set(c, &mm->call.kwargs, "out_dtype", ir_av_dtype(acc));
    ir_deduce_call(c, mm);
    Expr *as = ir_call(c, OP_TENSOR_ASSEMBLE, (Expr *[]){ ir_ref(o), mm, ir_int_tuple(c, (int64_t[]){ 0, 0 }, 2) }, 3);
    ir_deduce_call(c, as);
    ir_list_push(c, &scope->scope.body, ir_assign(c, o, as));
    ir_list_push(c, &f->body, scope);
    Expr *r = ir_ref(o);
    ir_list_push(c, &f->body, ir_return(c, &r, 1));
    Program *p = ir_program_new(c, "matmul");
    ir_program_add(c, p, f);
    return p;
}

/* Parses a DSL file (paths are relative to the repository root, where the tests run). The source
 * text stays alive in the context's arena so diagnostics can quote it. */
static inline Program *parse_file(IrCtx *c, const char *path) {
    size_t len = 0;
    char *text = base_read_file(path, &len);
    if (!text) return NULL;
    SrcFile *src = ARENA_NEW(c->arena, SrcFile);
    src->path = arena_strdup(c->arena, path);
    src->text = arena_strndup(c->arena, text, len);
    src->len = len;
    free(text);
    return front_parse(c, src, NULL);
}

static inline Function *find_kernel(Program *p) {
    for (int i = 0; i < p->nfuncs; i++)
        if (p->funcs[i]->type == FT_AIC || p->funcs[i]->type == FT_AIV) return p->funcs[i];
    return NULL;
}

#endif
