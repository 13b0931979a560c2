/* compile — the pass pipeline with the driver's hook, the L0 tile report, and the backend.
 *
 * The hook, after pass NN (1-based pipeline index):
 *   - prints the program when dumps or the round-trip check are wanted, keeps the text
 *     ("NN_after_<Pass>.py") and writes it to opt.dump_dir;
 *   - verify_roundtrip: parses the printed text into a scratch IrCtx and checks ir_program_equal;
 *     a mismatch is an internal error naming the pass and the first difference;
 *   - records the pass's wall time.
 * The L0 tiles come from what AutoTileMatmulL0 recorded in PassCtx.tiles.
 * Then every AIC/AIV (or still-InCore) function is lowered (back_lower_function), synchronised
 * (back_insert_sync) and printed as .pto (back_print_pto). */
#include "driver/driver_int.h"

#include <errno.h>
#include <string.h>

#include "back/back.h"
#include "front/front.h"

static bool keep_dump(DrvSession *s, const char *file, char *text) {
    bool ok = true;
    if (s->dump_dir && !*s->dump_dir) {
        diag_error(&s->diag, SPAN_NONE, "the pass dump directory is an empty string; give a directory such as dumps/");
        ok = false;
    } else if (s->dump_dir) {
        StrBuf path = {0};
        sb_printf(&path, "%s/%s", s->dump_dir, file);
        if (!base_mkdir_p(s->dump_dir) || !base_write_file(sb_cstr(&path), text, strlen(text))) {
            diag_error(&s->diag, SPAN_NONE, "cannot write the pass dump '%s': %s", sb_cstr(&path), strerror(errno));
            ok = false;
        }
        sb_free(&path);
    }
    if (s->keep_dumps) {
        DrvDump d = { strdup(file), text };
        vec_push(&s->dumps, d);
    } else {
        free(text);
    }
    return ok;
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

static bool hook(void *ud, int index, const PassInfo *info, Program *p, double seconds) {
    DrvSession *s = ud;
    DrvPassTime pt = { info->name, seconds };
    vec_push(&s->pass_times, pt);
    if (!s->opt.verify_roundtrip && !s->dump_dir && !s->keep_dumps) return true;
    char file[128];
    snprintf(file, sizeof file, "%02d_after_%s.py", index, info->name);
    StrBuf sb = {0};
    ir_print_program(p, &sb, (PrintOpts){ false });
    char *text = sb_take(&sb);
    bool ok = !s->opt.verify_roundtrip || roundtrip(s, file, text, p);
    return keep_dump(s, file, text) && ok;
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
        mir_mark_param_written(k);
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
    for (int i = 0; i < s->kernels.len; i++) {
        free(s->kernels.data[i].pto);
        free(s->kernels.data[i].cpp);
        free(s->kernels.data[i].cpp_why);
    }
    vec_free(&s->kernels);
    if (s->karena) arena_free(s->karena);
    s->karena = NULL;
    free(s->orch);
    s->orch = NULL;
    s->compiled = false;
}

static void format_bytes(int64_t b, char *buf, size_t n) {
    if (b >= (INT64_C(1) << 30)) snprintf(buf, n, "%.1f GiB", (double)b / (double)(INT64_C(1) << 30));
    else snprintf(buf, n, "%lld bytes", (long long)b);
}

/* The entry's tensors live in the target's global memory: each, and all together, must fit. */
static bool params_fit_target(DrvSession *s) {
    const Target *t = s->opt.target;
    int64_t total = 0;
    char have[64], cap[64];
    format_bytes(t->gm_bytes, cap, sizeof cap);
    for (int i = 0; i < s->nparams; i++) {
        const DrvParam *p = &s->params[i];
        if (!p->is_tensor) continue;
        format_bytes(p->bytes, have, sizeof have);
        if (p->bytes > t->gm_bytes) {
            StrBuf ty = {0};
            ir_print_type(s->entry_fn->params.items[i]->type, &ty);
            diag_error(&s->diag, s->entry_fn->params.items[i]->span,
                       "parameter '%s' (%s) needs %s, more than the %s of global memory on %s; use a smaller shape",
                       p->name, sb_cstr(&ty), have, cap, t->name);
            sb_free(&ty);
            return false;
        }
        total += p->bytes;                 /* both terms <= gm_bytes (2^36): cannot overflow */
        if (total > t->gm_bytes) {
            format_bytes(total, have, sizeof have);
            diag_error(&s->diag, s->entry_fn->span, "the parameters of '%s' need %s together (up to '%s'), more than the %s of global memory on %s",
                       s->entry_fn->name, have, p->name, cap, t->name);
            return false;
        }
    }
    return true;
}

/* RotateMixedLoops' schedules need buffers (its carried values, the loads a pipeline hoists): when
 * the rotated program does not compile, the compile starts again from a fresh parse with the next
 * schedule (drv_compile_impl), the last being the program as written. The failed attempt's
 * diagnostics, dumps and records are dropped; returns its first error (NULL when the parse fails). */
static char *retry_compile(DrvSession *s, PassCtx *ctx, int first_diag, int first_dump, int errors) {
    char *why = NULL;
    for (int i = first_diag; i < s->diag.items.len && !why; i++)
        if (s->diag.items.data[i].level == DIAG_ERROR) why = strdup(s->diag.items.data[i].msg);
    for (int i = first_diag; i < s->diag.items.len; i++) free(s->diag.items.data[i].code), free(s->diag.items.data[i].msg);
    s->diag.items.len = first_diag;
    s->diag.nerrors = errors;
    for (int i = first_dump; i < s->dumps.len; i++) free(s->dumps.data[i].file), free(s->dumps.data[i].text);
    s->dumps.len = first_dump;               /* 00_frontend.py stays */
    s->pass_times.len = 0;
    ctx->tiles.len = 0;
    ctx->untiled.len = 0;
    ctx->rotated = 0;
    if (!why) why = strdup("no error message");
    PTOC_ASSERT(why, "out of memory");
    if (!drv_reparse(s)) { free(why); return NULL; }
    return why;
}

/* The pass pipeline, again from a fresh parse while a failure has a schedule left to try: the
 * rotations of RotateMixedLoops (stage 2, 1, a pl.range loop, none), and within each round
 * AutoTileL1's blockings against less of the buffers. Hints say what was given up. */
static bool run_pipeline_retrying(DrvSession *s, PassCtx *ctx, int errors) {
    int first_diag = s->diag.items.len, first_dump = s->dumps.len;
    bool ok = pass_run_pipeline(s->prog, ctx, hook, s) && s->diag.nerrors == errors;
    char *why = NULL, *l1_why = NULL;          /* the rotated program's error, while there is one; AutoTileL1's */
    Span where = SPAN_NONE;
    const char *loop = NULL;
    for (;;) {
        while (!ok && ctx->rotated) {           /* a pipeline of stage 2, 1, a pl.range loop, then none */
            where = ctx->rotated_span, loop = ctx->rotated_loop;
            free(why);
            why = retry_compile(s, ctx, first_diag, first_dump, errors);
            if (!why) break;
            if (ctx->rotate_stage > 0) ctx->rotate_stage--;
            else ctx->no_rotate = true;
            ctx->l1_tiled = 0;
            ok = pass_run_pipeline(s->prog, ctx, hook, s) && s->diag.nerrors == errors;
        }
        /* AutoTileL1 predicts the L0 / Mat bytes of its blocks; when a blocking it chose still does not
         * allocate, it chooses again within 7/8, 6/8 .. 4/8 of the buffers, every schedule again */
        if (ok || !ctx->l1_tiled || ctx->l1_shrink >= 4) break;
        char *e = retry_compile(s, ctx, first_diag, first_dump, errors);
        if (!e) break;
        if (!l1_why) l1_why = e;
        else free(e);
        ctx->l1_shrink++;
        ctx->l1_tiled = 0;
        ctx->rotate_stage = 2;
        ctx->no_rotate = s->opt.no_rotate;
        free(why);
        why = NULL;
        ok = pass_run_pipeline(s->prog, ctx, hook, s) && s->diag.nerrors == errors;
    }
    if (ok && ctx->no_rotate && why)
        pass_hint(ctx, where, "PH-RM-002", "loop over '%s' not software-pipelined across cube and vector: rotated, it "
                  "does not compile (%s)", loop, why);
    if (ok && l1_why)
        pass_hint(ctx, ctx->l1_span, "PH-L1-003", "AutoTileL1's first blocking did not allocate (%s); blocked again within "
                  "%d/8 of the buffers (the PH-L1-001 lines give the blocking kept)", l1_why, 8 - ctx->l1_shrink);
    free(why);
    free(l1_why);
    return ok;
}

bool drv_compile_impl(DrvSession *s) {
    double t0 = base_now_seconds();
    drv_compile_reset(s);
    s->diag_base = s->diag.items.len;
    int errors = s->diag.nerrors;          /* earlier errors (a rejected option, a second load) are not this compile's */
    if (!params_fit_target(s) || !ir_check_program(s->prog, &s->diag)) return false;
    if (s->dump_dir || s->keep_dumps || s->opt.verify_roundtrip) {
        StrBuf sb = {0};
        ir_print_program(s->source, &sb, (PrintOpts){ false });
        char *text = sb_take(&sb);
        bool ok = !s->opt.verify_roundtrip || roundtrip(s, "00_frontend.py", text, s->source);
        if (!keep_dump(s, "00_frontend.py", text) || !ok) return false;
    }
    PassCtx ctx;
    memset(&ctx, 0, sizeof ctx);
    ctx.ir = s->ir;
    ctx.target = s->opt.target;
    ctx.diag = &s->diag;
    ctx.planner = s->opt.planner;
    ctx.enable_pypto_l0c_double_buffer = s->opt.dbc;
    ctx.no_pipeline_dbc = !s->opt.pipeline_dbc;
    ctx.no_auto_l1 = s->opt.no_auto_l1;
    ctx.no_rotate = s->opt.no_rotate;
    ctx.rotate_stage = 2;
    ctx.cores = s->opt.cores ? s->opt.cores : ctx.target->num_aic;
    if (ctx.cores > ctx.target->num_aic) {
        diag_error(&s->diag, SPAN_NONE, "--cores %d: target %s has %d cube cores; give 1 (no multi-core split) to %d",
                   ctx.cores, ctx.target->name, ctx.target->num_aic, ctx.target->num_aic);
        return false;
    }
    bool ok = run_pipeline_retrying(s, &ctx, errors);
    for (int i = 0; i < ctx.tiles.len; i++) {
        const PassTileChoice *c = &ctx.tiles.data[i];
        DrvTile t = { c->function, c->span, c->M, c->N, c->K, c->m, c->n, c->k, (Stationarity)c->stationarity,
                      c->dbc, c->os_holds_a, c->cost_cycles };
        vec_push(&s->tiles, t);
    }
    pass_ctx_free(&ctx);
    ok = ok && lower_all(s) && s->diag.nerrors == errors;
    s->compile_seconds = base_now_seconds() - t0;
    s->compiled = ok;
    return ok;
}
