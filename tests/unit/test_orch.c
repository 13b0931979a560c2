/* test_orch — the orchestration C++ emitter (ir_and_passes.md §11): the single-matmul file
 * byte for byte, func_id deduplication, every argument direction, loops, tensor.create (batched
 * alloc_tensors and add_output create-infos), slices, SPMD block counts, MANUAL scopes and
 * explicit dependencies. */
#include "back/back.h"
#include "test.h"

typedef struct Tb { IrCtx *c; Program *p; Function *orch; DiagSink diag; } Tb;

static void tb_init(Tb *t, const char *name) {
    diag_init(&t->diag);
    t->c = ir_ctx_new(&t->diag);
    t->p = ir_program_new(t->c, "prog");
    t->orch = ir_func_new(t->c, name, FT_ORCHESTRATION);
    ir_program_add(t->c, t->p, t->orch);
}

static void tb_free(Tb *t) { ir_ctx_free(t->c); diag_free(&t->diag); }

static Type *ten(Tb *t, DType dt, int64_t r, int64_t c) { int64_t d[2] = { r, c }; return ir_tensor_type(t->c, dt, 2, d); }

static Var *param(Tb *t, Function *f, const char *name, Type *ty, ParamDir d) {
    Var *v = ir_var_new(t->c, name, ty);
    ir_func_add_param(t->c, f, v, d);
    return v;
}

static Function *kernel(Tb *t, const char *name, FuncType ft, int n, Type **types, const ParamDir *dirs) {
    Function *f = ir_func_new(t->c, name, ft);
    Var *last = NULL;
    for (int i = 0; i < n; i++) last = param(t, f, i == 0 ? "x" : i == 1 ? "y" : "z", types[i], dirs[i]);
    f->return_types = ARENA_ARRAY(t->c->arena, Type *, 1);
    f->return_types[0] = last->type;
    f->nreturns = 1;
    Expr *rv = ir_ref(last);
    ir_list_push(t->c, &f->body, ir_return(t->c, &rv, 1));
    ir_program_add(t->c, t->p, f);
    return f;
}

static Expr *call(Tb *t, StmtList *into, Var *var, Function *k, Expr **args, int n, const char **dirs) {
    Expr *e = ir_call_fn(t->c, k, args, n);
    if (dirs) {
        AttrVal l = { .kind = AV_LIST };
        l.items = ARENA_ARRAY(t->c->arena, AttrVal, n);
        l.nitems = n;
        for (int i = 0; i < n; i++) l.items[i] = ir_av_enum(arena_printf(t->c->arena, "pl.adir.%s", dirs[i]));
        ir_attr_set(t->c, &e->call.attrs, "arg_directions", l);
    }
    ir_list_push(t->c, into, var ? ir_assign(t->c, var, e) : ir_eval(t->c, e));
    return e;
}

static Stmt *scope(Tb *t, StmtList *into, bool manual) {
    Stmt *s = ir_scope(t->c, SC_RUNTIME);
    s->scope.manual = manual;
    ir_list_push(t->c, into, s);
    return s;
}

static char *emit(Tb *t) {
    StrBuf sb = {0};
    back_print_orchestration(t->p, t->orch, &sb);
    return sb_take(&sb);
}

static int count_sub(const char *hay, const char *needle) {
    int n = 0;
    for (const char *p = hay; p && (p = strstr(p, needle)); p += strlen(needle)) n++;
    return n;
}

static const char *expected_matmul =
    "#include <stddef.h>\n"
    "#include <stdint.h>\n"
    "#include <stdio.h>\n"
    "#include \"pto_orchestration_api.h\"\n"
    "\n"
    "extern \"C\" {\n"
    "__attribute__((visibility(\"default\")))\n"
    "PTO2OrchestrationConfig aicpu_orchestration_config(const ChipTaskArgs& orch_args) {\n"
    "    (void)orch_args;\n"
    "    return PTO2OrchestrationConfig{ .expected_arg_count = 3, };\n"
    "}\n"
    "\n"
    "__attribute__((visibility(\"default\")))\n"
    "void aicpu_orchestration_entry(const ChipTaskArgs& orch_args) {\n"
    "    // External tensors\n"
    "    const ChipTensor& ext_a = orch_args.tensor(0).ref();\n"
    "    const ChipTensor& ext_b = orch_args.tensor(1).ref();\n"
    "    const ChipTensor& ext_c = orch_args.tensor(2).ref();\n"
    "    PTO2_SCOPE() {\n"
    "        // Task 0: mm_incore_0\n"
    "        CoreTaskArgs params_t0;\n"
    "        params_t0.add_input(ext_a);\n"
    "        params_t0.add_input(ext_b);\n"
    "        params_t0.add_output(ext_c);\n"
    "        rt_submit_aic_task(0, params_t0);\n"
    "    }\n"
    "}\n"
    "}  // extern \"C\"\n";

TEST(test_single_matmul) {
    Tb t; tb_init(&t, "mm");
    Var *a = param(&t, t.orch, "a", ten(&t, DT_FP16, 128, 512), PD_IN);
    Var *b = param(&t, t.orch, "b", ten(&t, DT_FP16, 512, 128), PD_IN);
    Var *c = param(&t, t.orch, "c", ten(&t, DT_FP32, 128, 128), PD_OUT);
    Type *ts[3] = { a->type, b->type, c->type };
    ParamDir pd[3] = { PD_IN, PD_IN, PD_OUT };
    Function *k = kernel(&t, "mm_incore_0", FT_AIC, 3, ts, pd);
    Stmt *sc = scope(&t, &t.orch->body, false);
    Var *out = ir_var_new(t.c, "c__ssa_v0", c->type);
    Expr *args[3] = { ir_ref(a), ir_ref(b), ir_ref(c) };
    const char *dirs[3] = { "input", "input", "output_existing" };
    call(&t, &sc->scope.body, out, k, args, 3, dirs);
    Expr *rv = ir_ref(out);
    ir_list_push(t.c, &t.orch->body, ir_return(t.c, &rv, 1));
    char *s = emit(&t);
    CHECK_EQ_STR(s, expected_matmul);
    CHECK_CONTAINS(s, "params_t0.add_output(ext_c);");
    CHECK_CONTAINS(s, "rt_submit_aic_task(0, params_t0);");
    CHECK_CONTAINS(s, ".expected_arg_count = 3,");
    free(s);
    tb_free(&t);
}

/* Two kernels called in a loop and after it: func ids by first call; directions; aiv submits;
 * a later call consuming the first call's result uses the aliased name. */
TEST(test_loop_dirs_and_func_ids) {
    Tb t; tb_init(&t, "orch");
    Var *a = param(&t, t.orch, "a", ten(&t, DT_FP32, 64, 64), PD_IN);
    Var *c = param(&t, t.orch, "c", ten(&t, DT_FP32, 64, 64), PD_INOUT);
    Type *ts[3] = { a->type, c->type, ir_scalar_type(t.c, DT_INDEX) };
    ParamDir pd[3] = { PD_IN, PD_INOUT, PD_IN };
    Function *k1 = kernel(&t, "step", FT_AIV, 3, ts, pd);
    Function *k2 = kernel(&t, "fin", FT_AIC, 2, ts, pd);
    Stmt *sc = scope(&t, &t.orch->body, false);
    Var *i = ir_var_new(t.c, "i", ir_scalar_type(t.c, DT_INDEX));
    Stmt *loop = ir_for(t.c, i, ir_const_int(t.c, 0, DT_INDEX), ir_const_int(t.c, 4, DT_INDEX), ir_const_int(t.c, 1, DT_INDEX), FK_SEQUENTIAL);
    ir_list_push(t.c, &sc->scope.body, loop);
    Var *r = ir_var_new(t.c, "r", c->type);
    Expr *args[3] = { ir_ref(a), ir_ref(c), ir_binary(t.c, BIN_MUL, ir_ref(i), ir_const_int(t.c, 2, DT_INDEX)) };
    const char *d1[3] = { "no_dep", "inout", "scalar" };
    call(&t, &loop->for_.body, r, k1, args, 3, d1);
    Expr *args2[2] = { ir_ref(a), ir_ref(c) };
    call(&t, &sc->scope.body, NULL, k2, args2, 2, NULL);       /* param_dirs fallback */
    Expr *args3[3] = { ir_ref(a), ir_ref(c), ir_const_int(t.c, 7, DT_INDEX) };
    call(&t, &sc->scope.body, NULL, k1, args3, 3, d1);
    char *s = emit(&t);
    CHECK_CONTAINS(s, "for (int64_t i = 0; i < 4; i += 1) {");
    CHECK_CONTAINS(s, "            // Task 0: step\n");
    CHECK_CONTAINS(s, "params_t0.add_no_dep(ext_a);\n            params_t0.add_inout(ext_c);\n            params_t0.add_scalar((i * 2));");
    CHECK_CONTAINS(s, "rt_submit_aiv_task(0, params_t0);");
    CHECK_CONTAINS(s, "params_t1.add_input(ext_a);");
    CHECK_CONTAINS(s, "params_t1.add_inout(ext_c);");
    CHECK_CONTAINS(s, "rt_submit_aic_task(1, params_t1);");
    CHECK_CONTAINS(s, "rt_submit_aiv_task(0, params_t2);");     /* deduplicated func id */
    CHECK_CONTAINS(s, "params_t2.add_scalar(7);");
    CHECK_CONTAINS(s, ".expected_arg_count = 2,");
    free(s);
    tb_free(&t);
}

/* tensor.create: consecutive creates batched into one alloc_tensors; a create passed as
 * pl.adir.output stays a create-info and its consumer reads outs.get_ref(0). */
TEST(test_create_and_slice) {
    Tb t; tb_init(&t, "orch");
    Var *a = param(&t, t.orch, "a", ten(&t, DT_FP32, 32, 32), PD_IN);
    Type *ts[2] = { a->type, a->type };
    ParamDir pd[2] = { PD_IN, PD_OUT };
    Function *k = kernel(&t, "k", FT_AIV, 2, ts, pd);
    Stmt *sc = scope(&t, &t.orch->body, false);
    Var *x = ir_var_new(t.c, "x", a->type), *y = ir_var_new(t.c, "y", a->type), *z = ir_var_new(t.c, "z", a->type);
    int64_t sh[2] = { 32, 32 };
    Var *vs[3] = { x, y, z };
    for (int i = 0; i < 3; i++) {
        Expr *arg = ir_int_tuple(t.c, sh, 2);
        Expr *e = ir_call(t.c, OP_TENSOR_CREATE, &arg, 1);
        ir_attr_set(t.c, &e->call.kwargs, "dtype", ir_av_dtype(i == 1 ? DT_FP16 : DT_FP32));
        ir_deduce_call(t.c, e);
        ir_list_push(t.c, &sc->scope.body, ir_assign(t.c, vs[i], e));
    }
    Expr *a1[2] = { ir_ref(a), ir_ref(z) };
    const char *d1[2] = { "input", "output" };
    call(&t, &sc->scope.body, NULL, k, a1, 2, d1);
    int64_t ssh[2] = { 16, 32 }, off[2] = { 16, 0 };
    Expr *sargs[3] = { ir_ref(x), ir_int_tuple(t.c, ssh, 2), ir_int_tuple(t.c, off, 2) };
    Expr *sl = ir_call(t.c, OP_TENSOR_SLICE, sargs, 3);
    ir_deduce_call(t.c, sl);
    Var *xs = ir_var_new(t.c, "xs", sl->type);
    ir_list_push(t.c, &sc->scope.body, ir_assign(t.c, xs, sl));
    Expr *a2[2] = { ir_ref(z), ir_ref(xs) };
    const char *d2[2] = { "input", "output_existing" };
    Expr *second = call(&t, &sc->scope.body, NULL, k, a2, 2, d2);
    ir_attr_set(t.c, &second->call.attrs, "block_num", ir_av_int(4));
    char *s = emit(&t);
    CHECK_CONTAINS(s, "uint32_t x_ci_shapes[2] = {32, 32};");
    CHECK_CONTAINS(s, "TensorCreateInfo x_ci(x_ci_shapes, 2, DataType::FLOAT32);");
    CHECK_CONTAINS(s, "TensorCreateInfo y_ci(y_ci_shapes, 2, DataType::FLOAT16);");
    CHECK_CONTAINS(s, "TaskOutputTensors alloc_0 = alloc_tensors(x_ci, y_ci);");
    CHECK_CONTAINS(s, "const ChipTensor& x = alloc_0.get_ref(0);");
    CHECK_CONTAINS(s, "const ChipTensor& y = alloc_0.get_ref(1);");
    CHECK_EQ_INT(count_sub(s, "alloc_tensors("), 1);
    CHECK_CONTAINS(s, "params_t0.add_output(z_ci);");
    CHECK_CONTAINS(s, "TaskOutputTensors outs_t0 = rt_submit_aiv_task(0, params_t0);");
    CHECK_CONTAINS(s, "const ChipTensor& z_t0 = outs_t0.get_ref(0);");
    CHECK_CONTAINS(s, "uint32_t xs_offsets[2] = {16, 0};");
    CHECK_CONTAINS(s, "ChipTensor xs = x.view(xs_shapes, xs_offsets);");
    CHECK_CONTAINS(s, "params_t1.add_input(z_t0);");
    CHECK_CONTAINS(s, "params_t1.add_output(xs);");
    CHECK_CONTAINS(s, "params_t1.launch_spec.set_block_num(4);");
    free(s);
    tb_free(&t);
}

/* MANUAL scope with an explicit dependency; SPMD scope core_num. */
TEST(test_manual_deps_spmd) {
    Tb t; tb_init(&t, "orch");
    Var *c = param(&t, t.orch, "c", ten(&t, DT_FP32, 16, 16), PD_OUT);
    Type *ts[1] = { c->type };
    ParamDir pd[1] = { PD_INOUT };
    Function *k = kernel(&t, "k", FT_AIC, 1, ts, pd);
    Stmt *m = scope(&t, &t.orch->body, true);
    Var *w = ir_var_new(t.c, "w", c->type);
    Expr *arg = ir_ref(c);
    const char *d[1] = { "inout" };
    call(&t, &m->scope.body, w, k, &arg, 1, d);
    Stmt *sp = ir_scope(t.c, SC_SPMD);
    sp->scope.core_num = ir_const_int(t.c, 8, DT_INDEX);
    ir_list_push(t.c, &m->scope.body, sp);
    Expr *e = call(&t, &sp->scope.body, NULL, k, &arg, 1, d);
    AttrVal l = { .kind = AV_LIST };
    l.items = ARENA_ARRAY(t.c->arena, AttrVal, 1);
    l.nitems = 1;
    l.items[0] = (AttrVal){ .kind = AV_EXPR, .expr = ir_ref(w) };
    ir_attr_set(t.c, &e->call.attrs, "deps", l);
    char *s = emit(&t);
    CHECK_CONTAINS(s, "PTO2_SCOPE(PTO2ScopeMode::MANUAL) {");
    CHECK_CONTAINS(s, "TaskOutputTensors outs_t0 = rt_submit_aic_task(0, params_t0);");
    CHECK_CONTAINS(s, "PTO2TaskId deps_t1[1] = {outs_t0.task_id()};");
    CHECK_CONTAINS(s, "params_t1.set_dependencies(deps_t1, 1);");
    CHECK_CONTAINS(s, "params_t1.launch_spec.set_block_num(8);");
    CHECK_CONTAINS(s, "rt_submit_aic_task(0, params_t1);");
    free(s);
    tb_free(&t);
}

int main(void) {
    RUN(test_single_matmul);
    RUN(test_loop_dirs_and_func_ids);
    RUN(test_create_and_slice);
    RUN(test_manual_deps_spmd);
    return test_summary();
}
