/* main_run — runs a file's `__main__` block (header main_run.h; spec/language.md §5.3 / §5.4).
 *
 * Requires: front_main_block, front_module_consts, teval / tcheck, drv_load_file_bound, drv_run.
 * Produces: the report text or JSON in `out`, the formatted diagnostics in `diags`, an exit status.
 * Does: one DrvSession per kernel call (each call is its own specialisation); values live in a name
 *       environment (main-block assignments over module constants); a statement the reader skipped
 *       is a note naming its line; a check that cannot be evaluated is a warning and is counted
 *       "not evaluated", never "passed". */
#include "driver/main_run.h"

#include <string.h>

#include "driver/torch_eval.h"
#include "front/main_block.h"

typedef struct EnvEntry { const char *name; TVal v; bool known; char why[300]; } EnvEntry;

typedef struct CheckRec {
    int line;
    const char *kind;
    bool evaluated;
    TCheck c;
    char why[256];
} CheckRec;

/* A compiled specialisation: the kernel and its binding (as text), reused by a later call with the
 * same key, as a JIT's compile cache would (spec/language.md §1.1 step 6). */
typedef struct Compiled { char *key; DrvSession *s; bool compiled; int printed; } Compiled;

typedef struct MR {
    DrvOptions opt;
    const char *path;
    SrcFile src;
    char *text;
    IrCtx *ir;
    DiagSink diag;
    FrontModule mod;
    MainBlock mb;
    VEC(EnvEntry) env;
    uint64_t rng;
    TEval *ev;                      /* the evaluation in progress (lookup reports unknown names) */
    bool json;
    StrBuf *out, *diags;
    VEC(char *) call_json;
    VEC(CheckRec) checks;
    bool calls_ok;
    int ncalls;
    VEC(Compiled) cache;
    bool reused;                    /* the call being reported reuses an earlier call's compile */
} MR;

static EnvEntry *env_find(MR *m, const char *name) {
    for (int i = m->env.len - 1; i >= 0; i--)
        if (!strcmp(m->env.data[i].name, name)) return &m->env.data[i];
    return NULL;
}

/* Binds name to v (owned) or, when !known, to the reason it has no value. */
static void env_set(MR *m, const char *name, TVal v, bool known, const char *why) {
    EnvEntry *e = env_find(m, name);
    if (!e) {
        vec_push(&m->env, ((EnvEntry){ .name = name }));
        e = &vec_last(&m->env);
    }
    tval_free(&e->v);
    e->v = v, e->known = known;
    snprintf(e->why, sizeof e->why, "%s", why ? why : "");
}

static bool lookup(void *ud, const char *name, TVal *out) {
    MR *m = ud;
    EnvEntry *e = env_find(m, name);
    if (e && e->known) {
        *out = e->v;
        if (out->kind == TV_TENSOR) tarr_ref(out->t);
        return true;
    }
    if (e) {
        snprintf(m->ev->why, sizeof m->ev->why, "'%.40s' has no value: %.150s", name, e->why);
        return false;
    }
    const FrontConst *c = front_module_find(&m->mod, name);
    if (c && c->known) {
        *out = (TVal){ .kind = TV_NUM, .num = c->is_float ? c->fval : (double)c->ival, .is_int = !c->is_float };
        return true;
    }
    if (c) snprintf(m->ev->why, sizeof m->ev->why, "module constant '%s' (line %d) is not a constant the reader evaluates", name, c->span.line);
    return false;
}

static TEval new_eval(MR *m) { return (TEval){ .lookup = lookup, .ud = m, .rng = &m->rng }; }

static void flush_diags(MR *m) {
    for (int i = 0; i < m->diag.items.len; i++) diag_format(&m->diag.items.data[i], m->diags);
    diag_free(&m->diag);
    diag_init(&m->diag);
}

/* ---- one kernel call ---- */

typedef struct CallArg { const char *param; const char *var; TVal v; } CallArg;

static bool pack(void *buf, DType dt, int64_t i, double v) {
    switch (dt) {
    case DT_FP16: ((uint16_t *)buf)[i] = f32_to_fp16((float)v); return true;
    case DT_BF16: ((uint16_t *)buf)[i] = f32_to_bf16((float)v); return true;
    case DT_FP32: ((float *)buf)[i] = (float)v; return true;
    case DT_INT8: ((int8_t *)buf)[i] = (int8_t)v; return true;
    case DT_UINT8: case DT_BOOL: ((uint8_t *)buf)[i] = (uint8_t)v; return true;
    case DT_INT16: ((int16_t *)buf)[i] = (int16_t)v; return true;
    case DT_UINT16: ((uint16_t *)buf)[i] = (uint16_t)v; return true;
    case DT_INT32: ((int32_t *)buf)[i] = (int32_t)v; return true;
    case DT_UINT32: ((uint32_t *)buf)[i] = (uint32_t)v; return true;
    case DT_INT64: case DT_INDEX: ((int64_t *)buf)[i] = (int64_t)v; return true;
    default: return false;
    }
}

/* The call's arguments by parameter name (positional, then keywords; config= is recorded only). */
static bool bind_args(MR *m, const MbStmt *st, const MbJit *j, CallArg *ca, int *n) {
    const MbExpr *call = st->e;
    int pos = 0;
    *n = 0;
    for (int i = 0; i < call->n; i++) {
        const char *kw = call->kw[i];
        if (kw && !strcmp(kw, "config")) continue;
        const char *param = NULL;
        if (kw) {
            for (int p = 0; p < j->nparams; p++)
                if (!strcmp(j->params[p], kw)) param = j->params[p];
            if (!param) {
                diag_error(&m->diag, call->items[i]->span, "keyword argument '%s' is not a parameter of '%s'", kw, j->name);
                return false;
            }
        } else if (pos < j->nparams) param = j->params[pos++];
        else {
            diag_error(&m->diag, call->items[i]->span, "'%s' takes %d parameters; this call passes more", j->name, j->nparams);
            return false;
        }
        TEval ev = new_eval(m);
        m->ev = &ev;
        CallArg a = { param, call->items[i]->kind == MBX_NAME ? call->items[i]->name : NULL, { 0 } };
        if (!teval(&ev, call->items[i], &a.v) || (a.v.kind != TV_TENSOR && a.v.kind != TV_NUM)) {
            diag_error(&m->diag, ev.why[0] ? ev.where : call->items[i]->span, "argument '%s' of '%s' has no value: %s", param,
                       j->name, ev.why[0] ? ev.why : "not a tensor or a number");
            tval_free(&a.v);
            return false;
        }
        if (*n == 64) { tval_free(&a.v); diag_error(&m->diag, call->span, "more than 64 arguments"); return false; }
        ca[(*n)++] = a;
    }
    return true;
}

static void to_front_args(const CallArg *ca, int n, FrontArg *fa, Span sp) {
    for (int i = 0; i < n; i++) {
        const TVal *v = &ca[i].v;
        fa[i] = (FrontArg){ .name = ca[i].param, .span = sp };
        if (v->kind == TV_TENSOR) {
            fa[i].kind = FA_TENSOR, fa[i].dtype = v->t->dtype, fa[i].rank = v->t->rank;
            memcpy(fa[i].dims, v->t->dims, sizeof(int64_t) * (size_t)v->t->rank);
        } else if (v->is_int) fa[i].kind = FA_INT, fa[i].ival = (int64_t)v->num;
        else fa[i].kind = FA_FLOAT, fa[i].fval = v->num;
    }
}

/* Buffers for the loaded entry's parameters from the arguments; false with an error on a missing
 * argument or a shape / dtype the (shaped) parameter does not have. */
static bool make_bufs(MR *m, DrvSession *s, const MbStmt *st, const CallArg *ca, int n, void **bufs, int *argof) {
    for (int i = 0; i < drv_num_params(s); i++) {
        const DrvParam *p = drv_param(s, i);
        argof[i] = -1;
        for (int k = 0; k < n; k++)
            if (!strcmp(ca[k].param, p->name)) argof[i] = k;
        if (argof[i] < 0) { diag_error(&m->diag, st->span, "the call passes no argument for parameter '%s' of '%s'", p->name, st->kernel); return false; }
        const TVal *v = &ca[argof[i]].v;
        bufs[i] = calloc(1, (size_t)(p->bytes ? p->bytes : 1));
        if (p->is_tensor != (v->kind == TV_TENSOR)) {
            diag_error(&m->diag, st->span, "parameter '%s' of '%s' is a %s; the call passes a %s", p->name, st->kernel,
                       p->is_tensor ? "tensor" : "scalar", v->kind == TV_TENSOR ? "tensor" : "number");
            return false;
        }
        if (!p->is_tensor) { pack(bufs[i], p->dtype, 0, v->num); continue; }
        const TArr *t = v->t;
        bool same = t->rank == p->rank && !memcmp(t->dims, p->shape, sizeof(int64_t) * (size_t)p->rank);
        if (!same || t->dtype != p->dtype) {
            diag_error(&m->diag, st->span, "argument for parameter '%s' of '%s' is %s with %d dims (%lld elements); the parameter is %s with %d dims (%lld elements)",
                       p->name, st->kernel, dtype_name(t->dtype), t->rank, (long long)t->n, dtype_name(p->dtype), p->rank, (long long)p->numel);
            return false;
        }
        for (int64_t e = 0; e < t->n; e++) pack(bufs[i], p->dtype, e, t->d[e]);
    }
    return true;
}

/* Out / InOut arguments that are names take the simulated results. */
static void write_back(MR *m, DrvSession *s, const CallArg *ca, void **bufs, const int *argof) {
    for (int i = 0; i < drv_num_params(s); i++) {
        const DrvParam *p = drv_param(s, i);
        if (!p->is_tensor || p->dir == PD_IN || !ca[argof[i]].var) continue;
        TArr *t = tarr_new(p->dtype, p->rank, p->shape);
        for (int64_t e = 0; e < t->n; e++) t->d[e] = drv_elem_get(bufs[i], p->dtype, e);
        env_set(m, ca[argof[i]].var, (TVal){ .kind = TV_TENSOR, .t = t }, true, NULL);
    }
}

/* After a failed call its outputs have no value: the checks on them are "not evaluated" rather than
 * failed against zeros. Without a loaded program the directions are unknown: every tensor name. */
static void forget_outputs(MR *m, DrvSession *s, const MbStmt *st, const CallArg *ca, int n) {
    char why[160];
    snprintf(why, sizeof why, "the call of '%s' at line %d failed", st->kernel, st->span.line);
    for (int k = 0; k < n; k++) {
        if (!ca[k].var || ca[k].v.kind != TV_TENSOR) continue;
        bool out = !drv_loaded(s);
        for (int i = 0; !out && i < drv_num_params(s); i++)
            out = !strcmp(drv_param(s, i)->name, ca[k].param) && drv_param(s, i)->dir != PD_IN;
        if (out) env_set(m, ca[k].var, (TVal){ 0 }, false, why);
    }
}

static void call_report(MR *m, DrvSession *s, const MbStmt *st, bool compiled) {
    StrBuf r = { 0 };
    if (m->json) {
        if (compiled) drv_report_json(s, &r);
        else drv_error_json(s, &r);
        vec_push(&m->call_json, sb_take(&r));
        return;
    }
    sb_printf(m->out, "call %s%s at %s:%d%s\n", st->kernel, st->lower_only ? " (compile only)" : "", m->path, st->span.line,
              m->reused ? " (same binding as an earlier call: its compile is reused)" : "");
    if (compiled) drv_report_text(s, &r);
    const char *p = sb_cstr(&r);
    while (*p) {                                 /* indented: the verdict lines of calls are not the file's */
        const char *nl = strchr(p, '\n');
        size_t len = nl ? (size_t)(nl - p) : strlen(p);
        sb_puts(m->out, "  "), sb_putn(m->out, p, len), sb_putc(m->out, '\n');
        p += len + (nl != NULL);
    }
    if (!compiled) sb_puts(m->out, "  FAIL\n");
    sb_free(&r);
}

/* "kernel(a=FP32[64x128], n=64, ...)": the specialisation key of a call. */
static char *binding_key(const char *kernel, const FrontArg *fa, int n) {
    StrBuf k = { 0 };
    sb_printf(&k, "%s(", kernel);
    for (int i = 0; i < n; i++) {
        sb_printf(&k, "%s%s=", i ? "," : "", fa[i].name);
        if (fa[i].kind == FA_TENSOR) {
            sb_printf(&k, "%s[", dtype_name(fa[i].dtype));
            for (int d = 0; d < fa[i].rank; d++) sb_printf(&k, "%s%lld", d ? "x" : "", (long long)fa[i].dims[d]);
            sb_putc(&k, ']');
        } else if (fa[i].kind == FA_FLOAT) sb_printf(&k, "%.17g", fa[i].fval);
        else sb_printf(&k, "%lld", (long long)fa[i].ival);
    }
    sb_putc(&k, ')');
    return sb_take(&k);
}

/* The session compiled for this key: a cached one, or a new one loaded and compiled (cached even
 * when it failed, so a repeated call reports the same errors without compiling again). */
static Compiled *specialisation(MR *m, const char *kernel, const FrontBinding *b, bool bound) {
    char *key = binding_key(kernel, b->args, b->nargs);
    m->reused = false;
    for (int i = 0; bound && i < m->cache.len; i++)
        if (!strcmp(m->cache.data[i].key, key)) { free(key); m->reused = true; return &m->cache.data[i]; }
    DrvSession *s = drv_new(&m->opt);
    bool ok = bound && drv_load_file_bound(s, m->path, kernel, b);
    vec_push(&m->cache, ((Compiled){ key, s, ok && drv_compile(s), 0 }));
    return &m->cache.data[m->cache.len - 1];
}

static void run_call(MR *m, const MbStmt *st) {
    const MbJit *j = front_main_find_jit(&m->mb, st->kernel);
    CallArg ca[64];
    int n = 0;
    m->ncalls++;
    bool ok = bind_args(m, st, j, ca, &n);
    FrontArg fa[64];
    to_front_args(ca, n, fa, st->span);
    FrontBinding b = { fa, n, NULL, 0, 0, 0 };
    Compiled *c = specialisation(m, j->name, &b, ok);
    DrvSession *s = c->s;
    ok = ok && drv_loaded(s);
    int np = ok ? drv_num_params(s) : 0;
    void **bufs = calloc((size_t)np + 1, sizeof *bufs);
    int *argof = calloc((size_t)np + 1, sizeof *argof);
    ok = ok && make_bufs(m, s, st, ca, n, bufs, argof);
    bool compiled = ok && c->compiled;
    if (compiled && !st->lower_only) {
        drv_options(s)->golden = true;
        bool ran = drv_run(s, bufs, np);
        if (ran) write_back(m, s, ca, bufs, argof);
        ok = ran && drv_run_ok(s);
    }
    ok = ok && compiled;
    if (!ok) m->calls_ok = false;
    if (!ok && !st->lower_only) forget_outputs(m, s, st, ca, n);
    flush_diags(m);
    const DiagSink *sd = drv_diag(s);
    for (int i = c->printed; i < sd->items.len; i++)     /* a reused specialisation: only what is new */
        if (sd->items.data[i].level != DIAG_PERF) diag_format(&sd->items.data[i], m->diags);
    c->printed = sd->items.len;
    call_report(m, s, st, compiled);
    for (int i = 0; i < np; i++) free(bufs[i]);
    free(bufs), free(argof);
    for (int i = 0; i < n; i++) tval_free(&ca[i].v);
}

/* ---- statements ---- */

static const char *kind_prefix(const char *kind) { return !strcmp(kind, "assert_close") ? "testing." : ""; }

static void run_check(MR *m, const MbStmt *st) {
    CheckRec r = { .line = st->span.line, .kind = st->check ? st->check : "assert" };
    if (!st->e) {
        snprintf(r.why, sizeof r.why, "%s", st->why ? st->why : "not a supported check");
        diag_add(&m->diag, DIAG_WARNING, st->span, NULL, "main-block check not evaluated: %s", r.why);
    } else {
        TEval ev = new_eval(m);
        m->ev = &ev;
        r.evaluated = tcheck(&ev, st->check, st->e, &r.c);
        if (!r.evaluated) {
            snprintf(r.why, sizeof r.why, "%s", ev.why);
            diag_add(&m->diag, DIAG_WARNING, ev.where.line ? ev.where : st->span, NULL, "main-block check not evaluated: %s", ev.why);
        }
    }
    vec_push(&m->checks, r);
    if (m->json) return;
    StrBuf *o = m->out;
    sb_printf(o, "check %s:%d: ", m->path, r.line);
    if (!r.evaluated) sb_printf(o, "not evaluated: %s\n", r.why);
    else if (r.c.shape_msg[0]) sb_printf(o, "torch.%s%s FAILED: %s\n", kind_prefix(r.kind), r.kind, r.c.shape_msg);
    else
        sb_printf(o, "torch.%s%s %s: max |out - ref| %.3g (rtol %g, atol %g), %lld / %lld elements off\n", kind_prefix(r.kind), r.kind,
                  r.c.passed ? "passed" : "FAILED", r.c.max_abs_err, r.c.rtol, r.c.atol, (long long)r.c.mismatches,
                  (long long)r.c.checked);
}

static void run_assign(MR *m, const MbStmt *st) {
    TEval ev = new_eval(m);
    m->ev = &ev;
    TVal v;
    if (teval(&ev, st->e, &v)) { env_set(m, st->target, v, true, NULL); return; }
    char why[300];
    snprintf(why, sizeof why, "line %d: %.250s", st->span.line, ev.why);
    env_set(m, st->target, (TVal){ 0 }, false, why);
    diag_add(&m->diag, DIAG_NOTE, ev.where.line ? ev.where : st->span, NULL, "main block: '%s' is not evaluated: %s",
             st->target, ev.why);
}

static void run_stmt(MR *m, const MbStmt *st) {
    switch (st->kind) {
    case MS_ASSIGN: run_assign(m, st); break;
    case MS_CALL: run_call(m, st); break;
    case MS_CHECK: run_check(m, st); break;
    case MS_SEED: m->rng = (uint64_t)st->seed; break;
    case MS_CONFIG:
        if (st->platform && !strncmp(st->platform, "a5", 2)) m->opt.target = target_by_name("a5");
        else if (st->platform && strncmp(st->platform, "a2a3", 4))
            diag_add(&m->diag, DIAG_NOTE, st->span, NULL, "RunConfig platform '%s' is not a ptoc target; using %s", st->platform,
                     m->opt.target->name);
        for (int i = 0; i < st->e->n; i++)
            if (st->e->kw[i] && strcmp(st->e->kw[i], "platform"))
                diag_add(&m->diag, DIAG_NOTE, st->e->items[i]->span, NULL, "RunConfig field '%s' is ignored by ptoc", st->e->kw[i]);
        break;
    case MS_SKIP:
        if (st->why) diag_add(&m->diag, DIAG_NOTE, st->span, NULL, "main block: skipped (%s)", st->why);
        break;
    }
    flush_diags(m);
}

static void summary(MR *m, bool ok) {
    int passed = 0, failed = 0, noeval = 0;
    for (int i = 0; i < m->checks.len; i++) {
        const CheckRec *r = &m->checks.data[i];
        if (!r->evaluated) noeval++;
        else if (r->c.passed) passed++;
        else failed++;
    }
    if (!m->json) {
        sb_printf(m->out, "main block: %d call(s), checks: %d passed, %d failed, %d not evaluated\n", m->ncalls, passed, failed, noeval);
        sb_puts(m->out, ok ? "OK\n" : "FAIL\n");
        return;
    }
    JsonW w;
    json_init(&w, m->out);
    json_obj_begin(&w);
    json_key(&w, "ok"), json_bool(&w, ok);
    json_key(&w, "program"), json_str(&w, m->path);
    json_key(&w, "main_block"), json_bool(&w, true);
    json_key(&w, "calls"), json_arr_begin(&w);
    for (int i = 0; i < m->call_json.len; i++) sb_puts(m->out, i ? "," : ""), sb_puts(m->out, m->call_json.data[i]);
    json_arr_end(&w);
    json_key(&w, "checks"), json_arr_begin(&w);
    for (int i = 0; i < m->checks.len; i++) {
        const CheckRec *r = &m->checks.data[i];
        json_obj_begin(&w);
        json_key(&w, "line"), json_int(&w, r->line);
        json_key(&w, "kind"), json_str(&w, r->kind);
        json_key(&w, "evaluated"), json_bool(&w, r->evaluated);
        json_key(&w, "passed"), json_bool(&w, r->evaluated && r->c.passed);
        if (r->evaluated) {
            json_key(&w, "max_abs_err"), json_num(&w, r->c.max_abs_err);
            json_key(&w, "rtol"), json_num(&w, r->c.rtol);
            json_key(&w, "atol"), json_num(&w, r->c.atol);
            json_key(&w, "mismatches"), json_int(&w, r->c.mismatches);
            json_key(&w, "checked"), json_int(&w, r->c.checked);
        }
        if (r->why[0] || r->c.shape_msg[0]) json_key(&w, "reason"), json_str(&w, r->why[0] ? r->why : r->c.shape_msg);
        json_obj_end(&w);
    }
    json_arr_end(&w);
    json_key(&w, "checks_passed"), json_int(&w, passed);
    json_key(&w, "checks_failed"), json_int(&w, failed);
    json_key(&w, "checks_not_evaluated"), json_int(&w, noeval);
    json_obj_end(&w);
    sb_putc(m->out, '\n');
}

/* Every kernel call's name arguments are assigned earlier in the block (or are module constants).
 * Otherwise the block is not readable (spec §5.4: give up on the block, not on the file): a note
 * names the argument and the first statement skipped before the call. */
static bool readable(MR *m) {
    bool any = false;
    for (int i = 0; i < m->mb.n; i++) {
        const MbStmt *st = &m->mb.stmts[i];
        if (st->kind != MS_CALL) continue;
        any = true;
        for (int k = 0; k < st->e->n; k++) {
            const MbExpr *a = st->e->items[k];
            if (a->kind != MBX_NAME || (st->e->kw[k] && !strcmp(st->e->kw[k], "config")) || front_module_find(&m->mod, a->name)) continue;
            bool bound = false;
            const MbStmt *skip = NULL;
            for (int q = 0; q < i; q++) {
                const MbStmt *p = &m->mb.stmts[q];
                bound |= (p->kind == MS_ASSIGN || p->kind == MS_CONFIG) && p->target && !strcmp(p->target, a->name);
                if (!skip && p->kind == MS_SKIP && p->why) skip = p;
            }
            if (bound) continue;
            diag_add(&m->diag, DIAG_NOTE, a->span, NULL,
                     "cannot read the main block statically: argument '%s' of '%s' is not assigned by a statement the reader understands%s%s%s; running the default entry with random inputs",
                     a->name, st->kernel, skip ? " (skipped: " : "", skip ? skip->why : "", skip ? ")" : "");
            if (skip) diag_add(&m->diag, DIAG_NOTE, skip->span, NULL, "main block: skipped (%s)", skip->why);
            return false;
        }
    }
    return any;
}

static void mr_free(MR *m) {
    for (int i = 0; i < m->env.len; i++) tval_free(&m->env.data[i].v);
    vec_free(&m->env);
    for (int i = 0; i < m->call_json.len; i++) free(m->call_json.data[i]);
    vec_free(&m->call_json);
    vec_free(&m->checks);
    for (int i = 0; i < m->cache.len; i++) free(m->cache.data[i].key), drv_free(m->cache.data[i].s);
    vec_free(&m->cache);
    front_main_block_free(&m->mb);
    front_module_free(&m->mod);
    ir_ctx_free(m->ir);
    diag_free(&m->diag);
    free(m->text);
}

void drv_main_binding_free(FrontArg *args, int n) {
    for (int i = 0; args && i < n; i++) free((char *)args[i].name);
    free(args);
}

int drv_main_binding(const DrvOptions *o, const char *path, const char *entry, FrontArg **args) {
    StrBuf out = { 0 }, diags = { 0 };
    MR m = { .opt = *o, .path = path, .out = &out, .diags = &diags, .calls_ok = true, .rng = o->seed };
    size_t len;
    int n = 0;
    *args = NULL;
    m.text = base_read_file_max(path, (size_t)16 << 20, &len);
    if (!m.text) return 0;
    m.src = (SrcFile){ path, m.text, len };
    diag_init(&m.diag);
    m.ir = ir_ctx_new(&m.diag);
    if (front_main_block(m.ir, &m.src, &m.mb) && front_module_consts(m.ir, &m.src, NULL, &m.mod)) {
        for (int i = 0; i < m.mb.n && !*args; i++) {
            const MbStmt *st = &m.mb.stmts[i];
            if (st->kind == MS_ASSIGN) run_assign(&m, st);
            if (st->kind == MS_SEED) m.rng = (uint64_t)st->seed;
            if (st->kind != MS_CALL || (entry && strcmp(st->kernel, entry))) continue;
            const MbJit *j = front_main_find_jit(&m.mb, st->kernel);
            CallArg ca[64];
            bool needs = j && (j->unshaped || strstr(m.text, "pl.dynamic("));   /* shapes only the call can give */
            if (!needs || !bind_args(&m, st, j, ca, &n)) { n = 0; break; }
            *args = calloc((size_t)n + 1, sizeof(FrontArg));
            PTOC_ASSERT(*args, "out of memory");
            to_front_args(ca, n, *args, st->span);
            for (int k = 0; k < n; k++) (*args)[k].name = strdup(ca[k].param), tval_free(&ca[k].v);
        }
    }
    mr_free(&m);
    sb_free(&out), sb_free(&diags);
    return n;
}

int drv_main_run(const DrvOptions *o, const char *path, bool json, StrBuf *out, StrBuf *diags) {
    MR m = { .opt = *o, .path = path, .json = json, .out = out, .diags = diags, .calls_ok = true, .rng = o->seed };
    size_t len;
    m.text = base_read_file_max(path, (size_t)16 << 20, &len);
    if (!m.text) return -1;                      /* the normal load reports it */
    m.src = (SrcFile){ path, m.text, len };
    diag_init(&m.diag);
    m.ir = ir_ctx_new(&m.diag);
    int rc = -1;
    if (front_main_block(m.ir, &m.src, &m.mb) && front_module_consts(m.ir, &m.src, NULL, &m.mod) && readable(&m)) {
        for (int i = 0; i < m.mb.n; i++) run_stmt(&m, &m.mb.stmts[i]);
        bool ok = m.calls_ok;
        for (int i = 0; i < m.checks.len; i++)
            if (m.checks.data[i].evaluated && !m.checks.data[i].c.passed) ok = false;
        summary(&m, ok);
        rc = ok ? 0 : 1;
    } else {
        if (m.diag.nerrors) diag_free(&m.diag), diag_init(&m.diag);   /* the fallback load reports lexical errors */
        if (m.mb.found && !m.diag.items.len)
            diag_add(&m.diag, DIAG_NOTE, m.mb.span, NULL,
                     "the main block calls no @pl.jit function the reader understands; running the default entry with random inputs");
        flush_diags(&m);
    }
    mr_free(&m);
    return rc;
}
