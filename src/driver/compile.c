/* compile — the pass pipeline with the driver's hook, the L0 tile report, and the backend.
 *
 * The hook, after pass NN (1-based pipeline index):
 *   - prints the program when dumps or the round-trip check are wanted, keeps the text
 *     ("NN_after_<Pass>.py") and writes it to opt.dump_dir;
 *   - verify_roundtrip: parses the printed text into a scratch IrCtx and checks ir_program_equal;
 *     a mismatch is an internal error naming the pass and the first difference;
 *   - records the pass's wall time;
 *   - after ConvertTensorToTileOps (the input of AutoTileMatmulL0) re-runs the L0 chooser with
 *     tile_pass_config on every Mat x Mat matmul, exactly as the pass configures it, for the report.
 * Then every AIC/AIV (or still-InCore) function is lowered (back_lower_function), synchronised
 * (back_insert_sync) and printed as .pto (back_print_pto). */
#include "driver/driver_int.h"

#include <string.h>

#include "back/back.h"
#include "front/front.h"

static void keep_dump(DrvSession *s, const char *file, char *text) {
    if (s->dump_dir) {
        StrBuf path = {0};
        sb_printf(&path, "%s/%s", s->dump_dir, file);
        if (!base_mkdir_p(s->dump_dir) || !base_write_file(sb_cstr(&path), text, strlen(text)))
            diag_add(&s->diag, DIAG_WARNING, SPAN_NONE, NULL, "cannot write '%s'", sb_cstr(&path));
        sb_free(&path);
    }
    if (s->keep_dumps) {
        DrvDump d = { strdup(file), text };
        vec_push(&s->dumps, d);
    } else {
        free(text);
    }
}

static bool roundtrip(DrvSession *s, const char *file, const char *text, const Program *p) {
    DiagSink d;
    diag_init(&d);
    IrCtx *c = ir_ctx_new(&d);
    SrcFile src = { file, text, strlen(text) };
    Program *q = front_parse(c, &src, NULL);
    bool ok = q && d.nerrors == 0;
    StrBuf why = {0};
    if (!ok) {
        for (int i = 0; i < d.items.len && why.len == 0; i++)
            if (d.items.data[i].level == DIAG_ERROR) diag_format(&d.items.data[i], &why);
        diag_add(&s->diag, DIAG_ERROR, SPAN_NONE, "internal",
                 "round trip after %s: the printed program does not parse back: %s", file, sb_cstr(&why));
    } else if (!ir_program_equal(p, q, &why)) {
        ok = false;
        diag_add(&s->diag, DIAG_ERROR, SPAN_NONE, "internal",
                 "round trip after %s: print -> parse is not structurally equal: %s", file, sb_cstr(&why));
    }
    sb_free(&why);
    ir_ctx_free(c);
    diag_free(&d);
    return ok;
}

/* ---- the L0 tile report ---- */
static bool static_2d(const Expr *e, int64_t d[2]) {
    const Type *t = e ? e->type : NULL;
    if (!t || t->kind != TY_TILE || t->rank != 2) return false;
    return ir_is_const_int(t->shape[0], &d[0]) && ir_is_const_int(t->shape[1], &d[1]);
}

static void tile_of_call(DrvSession *s, const Function *f, const Expr *c) {
    bool acc = c->call.op == OP_TILE_MATMUL_ACC;
    const Expr *lhs = c->call.args[acc ? 1 : 0], *rhs = c->call.args[acc ? 2 : 1];
    int64_t ld[2], rd[2];
    if (!static_2d(lhs, ld) || !static_2d(rhs, rd)) return;
    if (lhs->type->space != MS_MAT || rhs->type->space != MS_MAT) return;
    DType a = lhs->type->dtype, b = rhs->type->dtype, o = c->type->dtype;
    DrvTile t = { f->name, ld[0], rd[1], ld[1], false, { 0 } };
    if (dtype_bytes(a) && dtype_bytes(b) && dtype_bytes(o) && t.K % s->opt.target->l0_align == 0) {
        TilePassOpts po;
        tile_pass_opts_defaults(&po);
        po.memory_planner = (TileMemoryPlanner)s->opt.planner;
        po.enable_pypto_l0c_double_buffer = s->opt.dbc;
        po.is_matmul_acc = acc;
        L0TileConfig cfg;
        tile_pass_config(&cfg, s->opt.target, t.M, t.N, t.K, a, b, o, &po);
        char err[512];
        t.chosen = tile_choose_l0(&cfg, &t.r, err, sizeof err);
    }
    vec_push(&s->tiles, t);
}

static void tiles_in_expr(Expr *e, void *ud) {
    void **u = ud;
    if (e->kind == EX_CALL && (e->call.op == OP_TILE_MATMUL || e->call.op == OP_TILE_MATMUL_ACC))
        tile_of_call(u[0], u[1], e);
}

static void collect_tiles(DrvSession *s, Program *p) {
    vec_clear(&s->tiles);
    for (int i = 0; i < p->nfuncs; i++) {
        Function *f = p->funcs[i];
        if (!ir_functype_is_incore(f->type)) continue;
        void *ud[2] = { s, f };
        ir_visit_exprs(&f->body, tiles_in_expr, ud);
    }
}

static bool hook(void *ud, int index, const PassInfo *info, Program *p, double seconds) {
    DrvSession *s = ud;
    DrvPassTime pt = { info->name, seconds };
    vec_push(&s->pass_times, pt);
    if (!strcmp(info->name, "ConvertTensorToTileOps")) collect_tiles(s, p);
    if (!s->opt.verify_roundtrip && !s->dump_dir && !s->keep_dumps) return true;
    char file[128];
    snprintf(file, sizeof file, "%02d_after_%s.py", index, info->name);
    StrBuf sb = {0};
    ir_print_program(p, &sb, (PrintOpts){ false });
    char *text = sb_take(&sb);
    bool ok = !s->opt.verify_roundtrip || roundtrip(s, file, text, p);
    keep_dump(s, file, text);
    return ok;
}

/* ---- backend ---- */
static bool lower_all(DrvSession *s) {
    const Target *t = s->opt.target;
    s->karena = arena_new();
    for (int i = 0; i < s->prog->nfuncs; i++) {
        const Function *f = s->prog->funcs[i];
        if (f->type != FT_AIC && f->type != FT_AIV && f->type != FT_INCORE) continue;
        Kernel *k = back_lower_function(f, t, s->karena, &s->diag);
        if (!k) return false;
        DrvKernel dk;
        memset(&dk, 0, sizeof dk);
        dk.fn = f;
        dk.k = k;
        SyncStats st;
        memset(&st, 0, sizeof st);
        dk.sync_ok = back_insert_sync(k, t, &st);
        memcpy(dk.ids_used, st.ids_used, sizeof dk.ids_used);
        dk.nset = st.nset, dk.nwait = st.nwait, dk.nbarrier = st.nbarrier, dk.nfallback = st.nfallback_barriers;
        StrBuf pto = {0};
        back_print_pto(k, t, &pto);
        dk.pto = sb_take(&pto);
        vec_push(&s->kernels, dk);
    }
    const Function *orch = drv_find_entry(s->prog, drv_entry_name(s));
    if (orch && orch->type == FT_ORCHESTRATION) {
        StrBuf sb = {0};
        back_print_orchestration(s->prog, orch, &sb);
        s->orch = sb_take(&sb);
    }
    return true;
}

void drv_compile_reset(DrvSession *s) {
    for (int i = 0; i < s->dumps.len; i++) free(s->dumps.data[i].file), free(s->dumps.data[i].text);
    vec_free(&s->dumps);
    vec_free(&s->pass_times);
    vec_free(&s->tiles);
    for (int i = 0; i < s->kernels.len; i++) free(s->kernels.data[i].pto);
    vec_free(&s->kernels);
    if (s->karena) arena_free(s->karena);
    s->karena = NULL;
    free(s->orch);
    s->orch = NULL;
    s->compiled = false;
}

bool drv_compile_impl(DrvSession *s) {
    double t0 = base_now_seconds();
    drv_compile_reset(s);
    if (s->dump_dir || s->keep_dumps || s->opt.verify_roundtrip) {
        StrBuf sb = {0};
        ir_print_program(s->source, &sb, (PrintOpts){ false });
        char *text = sb_take(&sb);
        bool ok = !s->opt.verify_roundtrip || roundtrip(s, "00_frontend.py", text, s->source);
        keep_dump(s, "00_frontend.py", text);
        if (!ok) return false;
    }
    PassCtx ctx;
    memset(&ctx, 0, sizeof ctx);
    ctx.ir = s->ir;
    ctx.target = s->opt.target;
    ctx.diag = &s->diag;
    ctx.planner = s->opt.planner;
    ctx.enable_pypto_l0c_double_buffer = s->opt.dbc;
    bool ok = pass_run_pipeline(s->prog, &ctx, hook, s) && s->diag.nerrors == 0;
    ok = ok && lower_all(s) && s->diag.nerrors == 0;
    s->compile_seconds = base_now_seconds() - t0;
    s->compiled = ok;
    return ok;
}
