/* test_front — lexer, parser (user and printed forms), printer round trip, structural equality.
 * Run from the repository root (reads the samples in tests/front/). */
#include <stdlib.h>
#include <string.h>

#include "front/front_internal.h"
#include "test.h"

typedef struct Ctx { DiagSink diag; IrCtx *c; SrcFile src; char *text; } Ctx;

static void ctx_open(Ctx *x) {
    memset(x, 0, sizeof *x);
    diag_init(&x->diag);
    x->c = ir_ctx_new(&x->diag);
}

static void ctx_close(Ctx *x) {
    ir_ctx_free(x->c);
    diag_free(&x->diag);
    free(x->text);
}

static Program *parse_text(Ctx *x, const char *path, const char *text, const char *entry) {
    x->text = strdup(text);
    x->src = (SrcFile){ path, x->text, strlen(x->text) };
    return front_parse(x->c, &x->src, entry);
}

static Program *parse_file(Ctx *x, const char *path, const char *entry) {
    size_t len = 0;
    char *t = base_read_file(path, &len);
    CHECK_MSG(t != NULL, "cannot read %s (run from the repository root)", path);
    if (!t) return NULL;
    Program *p = parse_text(x, path, t, entry);
    free(t);
    return p;
}

static char *diags(Ctx *x) {
    StrBuf sb = { 0 };
    diag_format_all(&x->diag, &sb);
    return sb_take(&sb);
}

static char *print_prog(const Program *p) {
    StrBuf sb = { 0 };
    ir_print_program(p, &sb, (PrintOpts){ 0 });
    return sb_take(&sb);
}

/* ---------------------------------------------------------------- lexer */
TEST(lexer_tokens) {
    Ctx x;
    ctx_open(&x);
    const char *text = "def f(a, b):\n    x = [1,\n  2] # c\n\n    if a:\n        y = 0x1F + 1_000 + 2.5e-3 \\\n  - .5\n    return r'a\\n' \"s\" '''t\nu'''\nz = a ** 2 // 3 != 4 -> 5\n";
    SrcFile src = { "t.py", text, strlen(text) };
    TokVec v = { 0 };
    CHECK(front_lex(&src, x.c->strs, &x.diag, &v));
    StrBuf sb = { 0 };
    for (int i = 0; i < v.len; i++) {
        Tok *t = &v.data[i];
        switch (t->kind) {
        case TK_INDENT: sb_puts(&sb, "> "); break;
        case TK_DEDENT: sb_puts(&sb, "< "); break;
        case TK_NEWLINE: sb_puts(&sb, "; "); break;
        case TK_EOF: sb_puts(&sb, "$"); break;
        case TK_INT: sb_printf(&sb, "%lld ", (long long)t->ival); break;
        case TK_FLOAT: sb_printf(&sb, "%g ", t->fval); break;
        case TK_STRING: sb_printf(&sb, "s(%s) ", t->text); break;
        default: sb_printf(&sb, "%s ", t->text); break;
        }
    }
    CHECK_EQ_STR(sb_cstr(&sb), "def f ( a , b ) : ; > x = [ 1 , 2 ] ; if a : ; > y = 31 + 1000 + 0.0025 - 0.5 ; < return "
                                "s(a\\n) s(s) s(t\nu) ; < z = a ** 2 // 3 != 4 -> 5 ; $");
    Tok *y = NULL;
    for (int i = 0; i < v.len; i++)
        if (v.data[i].kind == TK_NAME && strcmp(v.data[i].text, "y") == 0) y = &v.data[i];
    CHECK(y && y->span.line == 6 && y->span.col == 9 && y->span.len == 1);
    sb_free(&sb);
    vec_free(&v);
    ctx_close(&x);
}

TEST(lexer_errors) {
    Ctx x;
    ctx_open(&x);
    const char *bad[] = { "x = 'abc\n", "s = '''never closed\n", "if a:\n        b\n    c\n" };
    for (int i = 0; i < 3; i++) {
        SrcFile src = { "t.py", bad[i], strlen(bad[i]) };
        TokVec v = { 0 };
        diag_free(&x.diag);
        diag_init(&x.diag);
        CHECK(!front_lex(&src, x.c->strs, &x.diag, &v));
        CHECK(x.diag.nerrors == 1);
        vec_free(&v);
    }
    ctx_close(&x);
}

/* ---------------------------------------------------------------- user form */
TEST(user_matmul) {
    Ctx x;
    ctx_open(&x);
    Program *p = parse_file(&x, "tests/front/matmul.py", NULL);
    char *d = diags(&x);
    CHECK_MSG(p != NULL, "%s", d);
    free(d);
    if (!p) { ctx_close(&x); return; }
    CHECK_EQ_STR(p->name, "matmul");
    CHECK_EQ_INT(p->nfuncs, 1);
    Function *f = p->funcs[0];
    CHECK_EQ_INT(f->type, FT_ORCHESTRATION);
    CHECK_EQ_INT(f->params.len, 3);
    CHECK_EQ_INT(f->param_dirs[0], PD_IN);
    CHECK_EQ_INT(f->param_dirs[2], PD_OUT);
    CHECK_EQ_INT(f->nreturns, 1);
    CHECK(f->return_types[0]->kind == TY_TENSOR && f->return_types[0]->dtype == DT_FP32);
    CHECK_EQ_INT(f->body.len, 2);
    Stmt *sc = f->body.items[0];
    CHECK(sc->kind == ST_SCOPE && sc->scope.kind == SC_INCORE && sc->scope.level == LV_CORE_GROUP);
    CHECK_EQ_INT(sc->scope.body.len, 1);
    Stmt *as = sc->scope.body.items[0];
    CHECK(as->kind == ST_ASSIGN && as->assign.var == f->params.items[2]);
    Expr *asm_ = as->assign.value;
    CHECK(asm_->kind == EX_CALL && asm_->call.op == OP_TENSOR_ASSEMBLE);
    Expr *mm = asm_->call.args[1];
    CHECK(mm->kind == EX_CALL && mm->call.op == OP_TENSOR_MATMUL);
    CHECK(mm->call.args[0]->kind == EX_VAR && mm->call.args[0]->var == f->params.items[0]);
    const AttrVal *od = ir_attr_get(&mm->call.kwargs, "out_dtype");
    CHECK(od && od->kind == AV_DTYPE && od->dtype == DT_FP32);
    CHECK(mm->type->kind == TY_TENSOR && ir_type_dim(mm->type, 0) == 128 && ir_type_dim(mm->type, 1) == 128);
    int64_t o0 = -1, o1 = -1;
    CHECK(asm_->call.args[2]->kind == EX_TUPLE && ir_is_const_int(asm_->call.args[2]->tuple.items[0], &o0) &&
          ir_is_const_int(asm_->call.args[2]->tuple.items[1], &o1) && o0 == 0 && o1 == 0);
    Stmt *ret = f->body.items[1];
    CHECK(ret->kind == ST_RETURN && ret->ret.n == 1 && ret->ret.values[0]->var == f->params.items[2]);
    /* print -> parse -> equal, and the second print is identical */
    char *t1 = print_prog(p);
    Ctx y;
    ctx_open(&y);
    Program *q = parse_text(&y, "printed.py", t1, NULL);
    d = diags(&y);
    CHECK_MSG(q != NULL, "%s\n%s", d, t1);
    free(d);
    if (q) {
        StrBuf why = { 0 };
        CHECK_MSG(ir_program_equal(p, q, &why), "%s", sb_cstr(&why));
        sb_free(&why);
        char *t2 = print_prog(q);
        CHECK_EQ_STR(t2, t1);
        free(t2);
    }
    CHECK_CONTAINS(t1, "c: pl.Tensor[[128, 128], pl.FP32] = pl.tensor.assemble(c, pl.tensor.matmul(a, b, out_dtype=pl.FP32), [0, 0])");
    free(t1);
    ctx_close(&y);
    ctx_close(&x);
}

TEST(user_skips_python) {
    Ctx x;
    ctx_open(&x);
    Program *p = parse_file(&x, "tests/front/with_python.py", NULL);
    char *d = diags(&x);
    CHECK_MSG(p != NULL, "%s", d);
    free(d);
    if (p) {
        CHECK_EQ_STR(p->name, "mm");
        Function *f = p->funcs[0];
        Stmt *sc = f->body.items[0];
        CHECK(sc->kind == ST_SCOPE && sc->scope.name_hint && strcmp(sc->scope.name_hint, "mm_k") == 0);
        Stmt *loop = sc->scope.body.items[0];
        CHECK(loop->kind == ST_FOR && loop->for_.kind == FK_SEQUENTIAL);
        int64_t step = 0;
        CHECK(ir_is_const_int(loop->for_.step, &step) && step == 128);     /* KS folded */
        Expr *mm = loop->for_.body.items[0]->assign.value;
        CHECK(mm->call.op == OP_TENSOR_MATMUL && mm->call.args[0]->call.op == OP_TENSOR_SLICE);
        Expr *sl = mm->call.args[0];
        CHECK(ir_type_dim(sl->type, 0) == 128 && ir_type_dim(sl->type, 1) == 128);
        CHECK(sl->call.args[2]->tuple.items[1]->kind == EX_VAR);
        Stmt *st = loop->for_.body.items[1];
        CHECK(st->kind == ST_ASSIGN && st->assign.var == f->params.items[2] && st->assign.value->call.op == OP_TENSOR_ASSEMBLE);
    }
    ctx_close(&x);
    ctx_open(&x);
    p = parse_file(&x, "tests/front/with_python.py", "other");
    CHECK(p && strcmp(p->name, "other") == 0 && p->funcs[0]->nreturns == 1);
    ctx_close(&x);
    ctx_open(&x);
    p = parse_file(&x, "tests/front/with_python.py", "foo");
    d = diags(&x);
    CHECK(p == NULL);
    CHECK_CONTAINS(d, "no @pl.jit function or @pl.program class named 'foo' in tests/front/with_python.py (entries: mm (@pl.jit), other (@pl.jit))");
    free(d);
    ctx_close(&x);
}

/* ---------------------------------------------------------------- printed form */
static void roundtrip_file(const char *path) {
    Ctx x;
    ctx_open(&x);
    size_t len = 0;
    char *orig = base_read_file(path, &len);
    Program *p = parse_file(&x, path, NULL);
    char *d = diags(&x);
    CHECK_MSG(p != NULL, "%s: %s", path, d);
    free(d);
    if (p && orig) {
        char *t1 = print_prog(p);
        CHECK_EQ_STR(t1, orig);
        Ctx y;
        ctx_open(&y);
        Program *q = parse_text(&y, "printed.py", t1, NULL);
        CHECK(q != NULL);
        if (q) {
            StrBuf why = { 0 };
            CHECK_MSG(ir_program_equal(p, q, &why), "%s: %s", path, sb_cstr(&why));
            sb_free(&why);
        }
        ctx_close(&y);
        free(t1);
    }
    free(orig);
    ctx_close(&x);
}

TEST(printed_roundtrip) {
    roundtrip_file("tests/front/matmul_after_tile.py");
    roundtrip_file("tests/front/constructs.py");
    roundtrip_file("tests/front/control.py");
}

TEST(printed_structure) {
    Ctx x;
    ctx_open(&x);
    Program *p = parse_file(&x, "tests/front/constructs.py", NULL);
    if (!p) { ctx_close(&x); CHECK(0); return; }
    Function *k = ir_program_find(p, "k");
    CHECK(k && k->type == FT_AIC && k->level == LV_AIC && k->nreturns == 2 && k->param_dirs[1] == PD_INOUT);
    CHECK(k->params.items[1]->type->layout == TLAYOUT_NZ);
    const AttrVal *sp = ir_attr_get(&k->attrs, "split");
    CHECK(sp && sp->kind == AV_INT && sp->i == 2);
    Stmt *alloc = k->body.items[0];
    Stmt *load = k->body.items[1];
    CHECK(load->assign.var->type->memref && load->assign.var->type->memref->base == alloc->assign.var);
    CHECK(k->params.items[0]->type->memref && k->params.items[0]->type->memref->size == 32768);
    CHECK(load->assign.var->type->view && load->assign.var->type->view->nvalid == 2);
    Stmt *n = k->body.items[3];
    CHECK(n->assign.value->kind == EX_CONST_INT && n->assign.value->ci.value == -128);
    Stmt *m = k->body.items[4];
    CHECK(m->assign.value->kind == EX_CONST_INT && m->assign.value->type->dtype == DT_INT64);
    Stmt *par = NULL;
    for (int i = 0; i < k->body.len; i++)
        if (k->body.items[i]->kind == ST_FOR && k->body.items[i]->for_.kind == FK_PARALLEL) par = k->body.items[i];
    CHECK(par && par->for_.iter_args.len == 2 && par->for_.return_vars.len == 2);
    if (par) {
        Stmt *ifs = par->for_.body.items[0];
        CHECK(ifs->kind == ST_IF && ifs->if_.return_vars.len == 2 && ifs->if_.has_else);
        CHECK(par->for_.iter_args.items[0]->kind == VAR_ITER_ARG && par->for_.iter_args.items[0]->init->kind == EX_VAR);
    }
    Function *mt = ir_program_find(p, "matmul_incore_0");
    CHECK(mt == NULL);
    ctx_close(&x);
    ctx_open(&x);
    p = parse_file(&x, "tests/front/matmul_after_tile.py", NULL);
    if (p) {
        Function *inc = ir_program_find(p, "matmul_incore_0");
        Stmt *loop = inc->body.items[3];
        CHECK(loop->kind == ST_FOR && loop->for_.kind == FK_PIPELINE && loop->for_.iter_args.len == 1);
        const AttrVal *st = ir_attr_get(&loop->for_.attrs, "pipeline_stages");
        CHECK(st && st->i == 2);
        CHECK(loop->for_.body.items[0]->assign.var->type->view != NULL);      /* Left extract: row_major */
        CHECK(loop->for_.body.items[1]->assign.var->type->view == NULL);      /* Right: implicit */
        Function *orch = ir_program_find(p, "matmul");
        const AttrVal *as = ir_attr_get(&orch->attrs, "auto_scope");
        CHECK(as && as->kind == AV_BOOL && as->i == 0);
        Expr *call = orch->body.items[0]->scope.body.items[0]->assign.value;
        CHECK(call->call.callee == inc);
        const AttrVal *ad = ir_attr_get(&call->call.attrs, "arg_directions");
        CHECK(ad && ad->kind == AV_LIST && ad->nitems == 3 && strcmp(ad->items[2].s, "pl.adir.output_existing") == 0);
    }
    ctx_close(&x);
}

/* distinct Vars with equal names print distinct names */
TEST(printer_renaming) {
    Ctx x;
    ctx_open(&x);
    IrCtx *c = x.c;
    Program *p = ir_program_new(c, "ren");
    Function *f = ir_func_new(c, "f", FT_OPAQUE);
    Type *s = ir_scalar_type(c, DT_INDEX);
    Var *a = ir_var_new(c, "x", s), *b = ir_var_new(c, "x", s), *d = ir_var_new(c, "x_1", s), *kw = ir_var_new(c, "in", s);
    ir_func_add_param(c, f, a, PD_IN);
    ir_list_push(c, &f->body, ir_assign(c, b, ir_binary(c, BIN_ADD, ir_ref(a), ir_const_int(c, 1, DT_INDEX))));
    ir_list_push(c, &f->body, ir_assign(c, d, ir_binary(c, BIN_MUL, ir_ref(b), ir_ref(a))));
    ir_list_push(c, &f->body, ir_assign(c, kw, ir_ref(d)));
    ir_list_push(c, &f->body, ir_assign(c, b, ir_ref(kw)));
    Expr *r = ir_ref(b);
    ir_list_push(c, &f->body, ir_return(c, &r, 1));
    f->nreturns = 1;
    f->return_types = &s;
    ir_program_add(c, p, f);
    char *t = print_prog(p);
    CHECK_CONTAINS(t, "def f(self, x: pl.Scalar[pl.INDEX]) -> pl.Scalar[pl.INDEX]:\n");
    CHECK_CONTAINS(t, "        x_1: pl.Scalar[pl.INDEX] = x + 1\n        x_1_1: pl.Scalar[pl.INDEX] = x_1 * x\n"
                      "        in_: pl.Scalar[pl.INDEX] = x_1_1\n        x_1: pl.Scalar[pl.INDEX] = in_\n        return x_1\n");
    Ctx y;
    ctx_open(&y);
    Program *q = parse_text(&y, "ren.py", t, NULL);
    CHECK(q != NULL);
    StrBuf why = { 0 };
    if (q) CHECK_MSG(ir_program_equal(p, q, &why), "%s", sb_cstr(&why));
    sb_free(&why);
    StrBuf cs = { 0 };
    ir_print_function(f, &cs, (PrintOpts){ .concise = true });
    CHECK_CONTAINS(sb_cstr(&cs), "    x_1 = x + 1\n");
    sb_free(&cs);
    free(t);
    ctx_close(&y);
    ctx_close(&x);
}

/* ---------------------------------------------------------------- equality */
static const char *EQ_BASE =
    "import pypto.language as pl\n@pl.program\nclass p:\n"
    "    @pl.function(type=pl.FunctionType.InCore)\n"
    "    def f(self, a: pl.Tensor[[64, 64], pl.FP16], b: pl.Tensor[[64, 64], pl.FP16]) -> pl.Tile[[64, 64], pl.FP32, pl.Mem.Acc]:\n"
    "        ta: pl.Tile[[64, 64], pl.FP16, pl.Mem.Left] = pl.tile.load(a, [0, 0], [64, 64], [64, 64], target_memory=pl.Mem.Left)\n"
    "        tb: pl.Tile[[64, 64], pl.FP16, pl.MemRef(\"m0\", pl.const(0, pl.INT64), 8192), pl.Mem.Right] = pl.tile.load(b, [0, 0], [64, 64], [64, 64], target_memory=pl.Mem.Right)\n"
    "        acc: pl.Tile[[64, 64], pl.FP32, pl.Mem.Acc] = pl.tile.matmul(ta, tb)\n"
    "        return acc\n";

static bool eq_variant(const char *from, const char *to, StrBuf *why) {
    char *v = malloc(strlen(EQ_BASE) + strlen(to) + 1);
    const char *at = strstr(EQ_BASE, from);
    PTOC_ASSERT(at, "variant text not found: %s", from);
    size_t pre = (size_t)(at - EQ_BASE);
    memcpy(v, EQ_BASE, pre);
    strcpy(v + pre, to);
    strcat(v, at + strlen(from));
    Ctx x, y;
    ctx_open(&x);
    ctx_open(&y);
    Program *p = parse_text(&x, "a.py", EQ_BASE, NULL), *q = parse_text(&y, "b.py", v, NULL);
    char *d = diags(&y);
    CHECK_MSG(p && q, "%s", d);
    free(d);
    bool r = p && q && ir_program_equal(p, q, why);
    ctx_close(&x);
    ctx_close(&y);
    free(v);
    return r;
}

TEST(equality) {
    StrBuf why = { 0 };
    CHECK(eq_variant("acc", "acc", &why));
    why.len = 0;
    /* consistent renaming: equal */
    {
        Ctx x, y;
        ctx_open(&x);
        ctx_open(&y);
        char *v = strdup(EQ_BASE);
        for (char *s = strstr(v, "ta:"); s; s = strstr(s + 2, "ta:")) s[0] = 'q', s[1] = 'q';
        for (char *s = strstr(v, "(ta,"); s; s = strstr(s + 2, "(ta,")) s[1] = 'q', s[2] = 'q';
        Program *p = parse_text(&x, "a.py", EQ_BASE, NULL), *q = parse_text(&y, "b.py", v, NULL);
        CHECK(p && q && ir_program_equal(p, q, &why));
        free(v);
        ctx_close(&x);
        ctx_close(&y);
    }
    why.len = 0;
    CHECK(!eq_variant("pl.Tensor[[64, 64], pl.FP16], b", "pl.Tensor[[64, 32], pl.FP16], b", &why));
    CHECK_CONTAINS(sb_cstr(&why), "function 'f'");
    why.len = 0;
    CHECK(!eq_variant("pl.Tensor[[64, 64], pl.FP16], b", "pl.Tensor[[64, 64], pl.FP16, pl.NZ], b", &why));
    why.len = 0;
    CHECK(!eq_variant("pl.const(0, pl.INT64), 8192", "pl.const(64, pl.INT64), 8192", &why));
    CHECK_CONTAINS(sb_cstr(&why), "statement #2");
    why.len = 0;
    CHECK(!eq_variant("pl.tile.matmul(ta, tb)", "pl.tile.matmul(tb, ta)", &why));
    CHECK_CONTAINS(sb_cstr(&why), "statement #3");
    why.len = 0;
    CHECK(!eq_variant("target_memory=pl.Mem.Left)", "target_memory=pl.Mem.Left, clamp=True)", &why));
    sb_free(&why);
}

/* a literal held as AV_EXPR prints like the plain attr and compares equal to it */
TEST(equality_attr_literals) {
    Ctx x;
    ctx_open(&x);
    IrCtx *c = x.c;
    Function *f[2];
    for (int k = 0; k < 2; k++) {
        f[k] = ir_func_new(c, "f", FT_OPAQUE);
        int64_t dims[2] = { 4, 4 };
        Expr *shape = ir_int_tuple(c, dims, 2);
        Expr *call = ir_call(c, OP_TENSOR_CREATE, &shape, 1);
        Expr *en = ARENA_NEW(c->arena, Expr);
        en->kind = EX_ENUM;
        en->enm = ir_av_dtype(DT_FP16);
        ir_attr_set(c, &call->call.kwargs, "dtype", k ? (AttrVal){ .kind = AV_EXPR, .expr = en } : ir_av_dtype(DT_FP16));
        ir_attr_set(c, &call->call.attrs, "n", k ? (AttrVal){ .kind = AV_EXPR, .expr = ir_const_int(c, 5, DT_INDEX) } : ir_av_int(5));
        CHECK(ir_deduce_call(c, call));
        ir_list_push(c, &f[k]->body, ir_eval(c, call));
    }
    StrBuf why = { 0 };
    CHECK_MSG(ir_function_equal(f[0], f[1], &why), "%s", sb_cstr(&why));
    StrBuf a = { 0 }, b = { 0 };
    ir_print_function(f[0], &a, (PrintOpts){ 0 });
    ir_print_function(f[1], &b, (PrintOpts){ 0 });
    CHECK_EQ_STR(sb_cstr(&a), sb_cstr(&b));
    CHECK_CONTAINS(sb_cstr(&a), "pl.tensor.create([4, 4], dtype=pl.FP16, attrs={\"n\": 5})");
    sb_free(&a);
    sb_free(&b);
    sb_free(&why);
    ctx_close(&x);
}

/* ---------------------------------------------------------------- errors */
typedef struct BadCase { const char *src; const char *msg; const char *loc; } BadCase;

#define JIT_HEAD "import pypto.language as pl\n\n@pl.jit\ndef f(a: pl.Tensor[[128, 512], pl.FP16], b: pl.Tensor[[512, 128], pl.FP16]):\n"

static const BadCase bad_cases[] = {
    { JIT_HEAD "    c = pl.matmull(a, b)\n    return c\n", "unknown operation 'pl.matmull' (did you mean pl.matmul?)", "bad.py:5:9:" },
    { JIT_HEAD "    c = pl.tensor.create([4, 4], dtype=pl.FP17)\n", "unknown dtype 'pl.FP17'", "bad.py:5:40:" },
    { JIT_HEAD "    c = pl.matmul(a, x)\n", "'x' is not defined", "bad.py:5:22:" },
    { JIT_HEAD "    for i in pl.range(4)\n        pass\n", "expected ':' after the for header", "bad.py:5:25:" },
    { JIT_HEAD "    c = pl.matmul(b, b)\n", "inner dimensions differ", "bad.py:5:9:" },
    { "import pypto.language as pl\n@pl.jit\ndef f(a: pl.Tensor):\n    return a\n",
      "parameter 'a' of 'f' is an unshaped pl.Tensor and nothing binds its shape", "bad.py:3:7:" },
    { JIT_HEAD "    t: pl.Tensor = a\n", "pl.Tensor needs a shape list and a dtype, e.g. pl.Tensor[[128, 512], pl.FP16]", "bad.py:5:11:" },
    { "import torch\nx = 1\n", "no @pl.jit function or @pl.program class found", "ptoc: error:" },
    { JIT_HEAD "    c = a[:, 0:128:2]\n", "slice steps are not supported", "bad.py:5:19:" },
    { JIT_HEAD "    c = a[-1:, :]\n", "negative indices are not supported", "bad.py:5:11:" },
    { JIT_HEAD "    c = a[0, :]\n", "indexing a dimension with a scalar is not supported", "bad.py:5:11:" },
    { JIT_HEAD "    c = pl.matmul(a, b, out_dtype=pl.FP32, foo=1)\n", "tensor.matmul has no parameter 'foo' (parameters: lhs, rhs, out_dtype=None", "bad.py:5:44:" },
    { JIT_HEAD "    with pl.at(level=pl.Level.CORE_GROUP):\n    c = 1\n", "expected an indented block", "bad.py:6:5:" },
    { JIT_HEAD "    x = 1 < 2 < 3\n", "chained comparisons are not supported", "bad.py:5:15:" },
    { JIT_HEAD "    c = a + b\n", "operator '+' needs scalar operands", "bad.py:5:11:" },
    { "import pypto.language as pl\n@pl.program\nclass p:\n    @pl.function(type=pl.FunctionType.InCore, level=pl.Level.CHIP)\n"
      "    def f(self):\n        return\n",
      "level=pl.Level.CHIP contradicts type=pl.FunctionType.InCore", "bad.py:4:53:" },
    { "import pypto.language as pl\n@pl.program\nclass p:\n    @pl.function\n    def f(self, n: pl.Scalar[pl.INDEX]):\n"
      "        for i, (x,) in pl.range(n, init_values=(n,)):\n            y: pl.Scalar[pl.INDEX] = x + 1\n        return\n",
      "the body of a loop with init_values must end with pl.yield_(...)", "bad.py:6:9:" },
    { "import pypto.language as pl\n@pl.program\nclass p:\n    @pl.function\n    def f(self, n: pl.Scalar[pl.INDEX]):\n"
      "        z = self.g(n)\n        return\n", "unknown function 'self.g'", "bad.py:6:13:" },
    { "import pypto.language as pl\n@pl.program\nclass p:\n    @pl.function\n    def f(self, t: pl.Tile[[16, 16], pl.FP16, pl.Mem.Lft]):\n"
      "        return\n", "unknown memory space 'pl.Mem.Lft'", "bad.py:5:47:" },
    { JIT_HEAD "    c: pl.Tensor[[128, 128], pl.FP16] = pl.matmul(a, b, out_dtype=pl.FP32)\n",
      "'c' is annotated pl.Tensor[[128, 128], pl.FP16] but the value is pl.Tensor[[128, 128], pl.FP32]", "bad.py:5:41:" },
    { JIT_HEAD "    c = pl.tile.matmull(a, b)\n", "unknown operation 'pl.tile.matmull' (did you mean pl.tile.matmul?)", "bad.py:5:9:" },
    { JIT_HEAD "    c = pl.matmul(a, b,\n", "'(' was never closed", "bad.py:5:18:" },
};

TEST(errors) {
    for (size_t i = 0; i < sizeof bad_cases / sizeof bad_cases[0]; i++) {
        Ctx x;
        ctx_open(&x);
        Program *p = parse_text(&x, "bad.py", bad_cases[i].src, NULL);
        char *d = diags(&x);
        CHECK_MSG(p == NULL, "case %zu parsed", i);
        CHECK_MSG(x.diag.nerrors == 1, "case %zu: %d errors: %s", i, x.diag.nerrors, d);
        CHECK_CONTAINS(d, bad_cases[i].msg);
        CHECK_CONTAINS(d, bad_cases[i].loc);
        if (strncmp(bad_cases[i].loc, "bad.py:", 7) == 0 && strlen(bad_cases[i].loc) > 8) {
            CHECK_CONTAINS(d, " error: ");
            CHECK_CONTAINS(d, "      | ");
            CHECK_CONTAINS(d, "^");
        }
        free(d);
        ctx_close(&x);
    }
}

/* ---------------------------------------------------------------- robustness */
static uint64_t rng_next(uint64_t *s) {
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

/* returns false when a rejected input produced no diagnostic */
static bool fuzz_one(const char *orig, uint64_t *seed, int mode) {
    size_t n = strlen(orig);
    char *t = malloc(n + 16);
    memcpy(t, orig, n + 1);
    if (mode == 0) t[rng_next(seed) % (n + 1)] = 0;                          /* truncation */
    else {
        static const char junk[] = "()[]{}:,.=+-*#'\"\\\n \t0aZ_@<>";
        int k = 1 + (int)(rng_next(seed) % 4);
        for (int j = 0; j < k; j++) {
            size_t at = rng_next(seed) % n;
            if (mode == 1) t[at] = junk[rng_next(seed) % (sizeof junk - 1)];
            else memmove(t + at, t + at + 1, n - at);                         /* deletion */
        }
    }
    Ctx x;
    ctx_open(&x);
    Program *p = parse_text(&x, "fuzz.py", t, NULL);
    bool ok = true;
    if (p) {
        char *pr = print_prog(p);
        free(pr);
    } else if (x.diag.nerrors != 1) {
        printf("fuzz: %d diagnostics for:\n%s\n", x.diag.nerrors, t);
        ok = false;
    }
    ctx_close(&x);
    free(t);
    return ok;
}

TEST(fuzz) {
    const char *files[] = { "tests/front/matmul.py", "tests/front/matmul_after_tile.py", "tests/front/constructs.py",
                            "tests/front/with_python.py", "tests/front/control.py" };
    uint64_t seed = 0x9E3779B97F4A7C15ull;
    for (int f = 0; f < 5; f++) {
        size_t len;
        char *orig = base_read_file(files[f], &len);
        CHECK(orig != NULL);
        if (!orig) continue;
        int bad = 0;
        for (int i = 0; i < 500; i++) bad += !fuzz_one(orig, &seed, i % 3);
        CHECK_MSG(bad == 0, "%s: %d mutated inputs were not rejected with exactly one error", files[f], bad);
        free(orig);
    }
}

int main(void) {
    RUN(lexer_tokens);
    RUN(lexer_errors);
    RUN(user_matmul);
    RUN(user_skips_python);
    RUN(printed_roundtrip);
    RUN(printed_structure);
    RUN(printer_renaming);
    RUN(equality);
    RUN(equality_attr_literals);
    RUN(errors);
    RUN(fuzz);
    return test_summary();
}
