/* driver — the session: options, loading and parsing a program (specialised by the bindings of
 * args.c), its parameters.
 * Compilation lives in compile.c, execution in run.c, reports in report.c, files in output.c. */
#include "driver/driver_int.h"

#include <errno.h>
#include <string.h>

#include "driver/main_run.h"
#include "front/front.h"

void drv_options_defaults(DrvOptions *o) {
    memset(o, 0, sizeof *o);
    o->target = target_get(TGT_A2A3);
    o->planner = PLANNER_PYPTO;
    o->seed = 1;
    o->race_check = true;
    o->pipeline_dbc = true;
    o->threads = 1;     /* parallel simulation is opt-in: every worker holds its own core and race shadow (RSS) */
}

static bool parse_bool(const char *v, bool *out) {
    if (!strcmp(v, "1") || !strcmp(v, "true") || !strcmp(v, "on") || !strcmp(v, "yes")) return *out = true, true;
    if (!strcmp(v, "0") || !strcmp(v, "false") || !strcmp(v, "off") || !strcmp(v, "no")) return *out = false, true;
    return false;
}

static bool parse_u64(const char *v, uint64_t *out) {
    char *end;
    if (!*v) return false;
    unsigned long long x = strtoull(v, &end, 0);
    if (*end) return false;
    *out = x;
    return true;
}

bool drv_planner_from_name(const char *v, MemoryPlanner *p) {
    if (!strcmp(v, "pypto")) *p = PLANNER_PYPTO;
    else if (!strcmp(v, "dsa_rp")) *p = PLANNER_DSA_RP;
    else if (!strcmp(v, "ptoas")) *p = PLANNER_PTOAS;
    else return false;
    return true;
}

bool drv_option_set(DrvOptions *o, const char *key, const char *value, char *err, size_t errlen) {
    bool b;
    uint64_t u;
    if (!key || !value) return snprintf(err, errlen, "option key and value must not be NULL"), false;
    if (!strcmp(key, "target")) {
        const Target *t = target_by_name(value);
        if (!t) return snprintf(err, errlen, "unknown target '%s' (expected a2a3 or a5)", value), false;
        o->target = t;
        return true;
    }
    if (!strcmp(key, "memory_planner")) {
        if (!drv_planner_from_name(value, &o->planner))
            return snprintf(err, errlen, "unknown memory planner '%s' (expected pypto, dsa_rp or ptoas)", value), false;
        return true;
    }
    if (!strcmp(key, "seed")) {
        if (!parse_u64(value, &u)) return snprintf(err, errlen, "bad seed '%s'", value), false;
        o->seed = u;
        return true;
    }
    if (!strcmp(key, "threads")) {
        if (!parse_u64(value, &u) || u > 1024) return snprintf(err, errlen, "bad thread count '%s'", value), false;
        o->threads = (int)u;
        return true;
    }
    if (!strcmp(key, "cores")) {    /* the target's bound (num_aic) is checked when compiling */
        if (!parse_u64(value, &u) || u < 1 || u > 4096)
            return snprintf(err, errlen, "bad core count '%s' (expected an integer from 1 to the target's cube cores)", value), false;
        o->cores = (int)u;
        return true;
    }
    bool *flag = !strcmp(key, "dbc") ? &o->dbc
               : !strcmp(key, "pipeline_dbc") ? &o->pipeline_dbc
               : !strcmp(key, "race_check") ? &o->race_check
               : !strcmp(key, "verify_roundtrip") ? &o->verify_roundtrip
               : !strcmp(key, "capture_deps") ? &o->capture_deps
               : !strcmp(key, "golden") ? &o->golden
               : !strcmp(key, "timing_only") ? &o->timing_only : NULL;
    if (!flag) return snprintf(err, errlen, "unknown option '%s'", key), false;
    if (!parse_bool(value, &b)) return snprintf(err, errlen, "option '%s' expects a boolean, got '%s'", key, value), false;
    *flag = b;
    return true;
}

DrvSession *drv_new(const DrvOptions *o) {
    DrvSession *s = calloc(1, sizeof *s);
    PTOC_ASSERT(s, "out of memory");
    if (o) s->opt = *o;
    else drv_options_defaults(&s->opt);
    if (s->opt.dump_dir) s->dump_dir = strdup(s->opt.dump_dir);
    s->opt.dump_dir = s->dump_dir;
    diag_init(&s->diag);
    pthread_mutex_init(&s->lock, NULL);
    return s;
}

void drv_free(DrvSession *s) {
    if (!s) return;
    drv_compile_reset(s);
    drv_run_reset(s);
    drv_pool_free(s);
    if (s->ir) ir_ctx_free(s->ir);
    for (int i = 0; i < s->bindings.len; i++) free(s->bindings.data[i].path);
    vec_free(&s->bindings);
    drv_args_free(s);
    free(s->params);
    free(s->path);
    free(s->text);
    free(s->entry);
    free(s->bind_args);
    free(s->bind_defines);
    free(s->dump_dir);
    diag_free(&s->diag);
    pthread_mutex_destroy(&s->lock);
    free(s);
}

DrvOptions *drv_options(DrvSession *s) { return &s->opt; }
DiagSink *drv_diag(DrvSession *s) { return &s->diag; }
bool drv_loaded(const DrvSession *s) { return s->loaded; }
bool drv_compiled(const DrvSession *s) { return s->compiled; }
int drv_num_params(const DrvSession *s) { return s->nparams; }
const DrvParam *drv_param(const DrvSession *s, int i) { return i >= 0 && i < s->nparams ? &s->params[i] : NULL; }
const char *drv_entry_name(const DrvSession *s) { return s->entry_fn ? s->entry_fn->name : s->entry; }

const Function *drv_find_entry(const Program *p, const char *entry) {
    if (!p) return NULL;
    /* prog.py:NAME names a function, or the program itself (a @pl.program class, maybe by its path
     * builder.Class): then its default entry */
    if (entry) {
        const Function *f = ir_program_find(p, entry);
        const char *last = strrchr(entry, '.');
        if (f || !p->name || strcmp(p->name, last ? last + 1 : entry) != 0) return f;
    }
    if (p->name) {
        const Function *f = ir_program_find(p, p->name);
        if (f) return f;
    }
    for (int i = 0; i < p->nfuncs; i++)
        if (p->funcs[i]->type == FT_ORCHESTRATION) return p->funcs[i];
    for (int i = 0; i < p->nfuncs; i++)
        if (!ir_functype_is_incore(p->funcs[i]->type)) return p->funcs[i];
    return p->nfuncs ? p->funcs[0] : NULL;
}

int64_t drv_type_numel(const Type *t) {
    if (!t || (t->kind != TY_TENSOR && t->kind != TY_TILE)) return t && t->kind == TY_SCALAR ? 1 : -1;
    int64_t dims[16], n;
    if (t->rank > 16 || !ir_type_static_dims(t, dims)) return -1;
    return checked_product(dims, t->rank, &n) ? n : -1;
}

static bool collect_params(DrvSession *s) {
    const Function *f = s->entry_fn;
    s->nparams = f->params.len;
    s->params = calloc((size_t)(s->nparams ? s->nparams : 1), sizeof *s->params);
    for (int i = 0; i < s->nparams; i++) {
        const Var *v = f->params.items[i];
        DrvParam *p = &s->params[i];
        p->name = v->name;
        p->dir = f->param_dirs ? f->param_dirs[i] : PD_IN;
        p->dtype = v->type ? v->type->dtype : DT_NONE;
        p->is_tensor = v->type && v->type->kind == TY_TENSOR;
        p->rank = p->is_tensor ? v->type->rank : 0;
        if (p->rank > 8) {
            diag_error(&s->diag, v->span, "parameter '%s' has rank %d; at most 8 is supported", v->name, p->rank);
            return false;
        }
        if (p->is_tensor && !ir_type_static_dims(v->type, p->shape)) {
            diag_error(&s->diag, v->span, "parameter '%s' has a dynamic shape; ptoc run needs static shapes", v->name);
            return false;
        }
        if (!p->is_tensor) { p->numel = 1; p->bytes = dtype_bytes(p->dtype) > 0 ? dtype_bytes(p->dtype) : 1; continue; }
        if (!checked_product(p->shape, p->rank, &p->numel) || !ir_shape_bytes(p->dtype, p->shape, p->rank, &p->bytes)) {
            diag_error(&s->diag, v->span, "parameter '%s' is too large: its size in bytes does not fit in a 64-bit integer", v->name);
            return false;
        }
        if (dtype_bytes(p->dtype) == 0 && p->bytes < p->numel) p->bytes = p->numel;   /* sub-byte: a byte each */
    }
    return true;
}

/* The largest source ptoc reads: far beyond any real program, small enough that reading a device
 * such as /dev/zero by mistake fails fast instead of exhausting memory. */
#define DRV_MAX_SOURCE_BYTES ((size_t)16 << 20)

/* A @pl.program class without @pl.function methods parses to an empty program. */
static bool check_entry(DrvSession *s) {
    s->entry_fn = drv_find_entry(s->source, s->entry);
    if (s->entry_fn) return true;
    if (s->source->nfuncs == 0)
        diag_error(&s->diag, SPAN_NONE, "%s: @pl.program class '%s' has no @pl.function methods; nothing to compile",
                   s->path, s->source->name ? s->source->name : "?");
    else if (s->entry) {
        StrBuf names = {0};
        for (int i = 0; i < s->source->nfuncs; i++) sb_printf(&names, "%s%s", i ? ", " : "", s->source->funcs[i]->name);
        diag_error(&s->diag, SPAN_NONE, "%s: no function named '%s' (functions: %s)", s->path, s->entry, sb_cstr(&names));
        sb_free(&names);
    } else
        diag_error(&s->diag, SPAN_NONE, "%s: no entry function (name one with %s:<function>)", s->path, s->path);
    return false;
}

/* The -D NAME=VALUE options as a FrontBinding (ints, floats, True / False). */
static bool defines_binding(DrvSession *s, FrontArg *out, FrontBinding *b) {
    *b = (FrontBinding){ NULL, 0, out, 0, 0, 0 };
    for (int i = 0; i < s->opt.ndefines; i++) {
        const char *d = s->opt.defines[i], *eq = strchr(d, '=');
        FrontArg a = { .span = SPAN_NONE };
        char *end = NULL;
        if (!eq || eq == d) {
            diag_error(&s->diag, SPAN_NONE, "-D '%s': expected NAME=VALUE, e.g. -D M=128", d);
            return false;
        }
        a.name = intern_cstr(s->ir->strs, arena_printf(s->ir->arena, "%.*s", (int)(eq - d), d));
        const char *v = eq + 1;
        errno = 0;
        long long iv = strtoll(v, &end, 0);
        if (*v && !*end && errno == 0) { a.kind = FA_INT; a.ival = iv; }
        else if (!strcmp(v, "True") || !strcmp(v, "False")) { a.kind = FA_BOOL; a.ival = v[0] == 'T'; }
        else {
            double fv = strtod(v, &end);
            if (!*v || *end) {
                diag_error(&s->diag, SPAN_NONE, "-D %s: '%s' is not an integer, a float, True or False", a.name, v);
                return false;
            }
            a.kind = FA_FLOAT;
            a.fval = fv;
        }
        out[b->ndefines++] = a;
    }
    return true;
}

static void keep_binding(DrvSession *s, const FrontBinding *fb);

/* text holds len bytes (NUL bytes included: the lexer rejects them with their location). Both
 * parses are specialised by the session's bindings merged with b. */
static bool load_source(DrvSession *s, const char *name, const char *text, size_t len, const char *entry, const FrontBinding *b) {
    if (s->loaded || s->path) {
        diag_error(&s->diag, SPAN_NONE, "a program ('%s') is already loaded in this session; use a new session (ptoc_program_new) for '%s'",
                   s->path ? s->path : "?", name ? name : "<text>");
        return false;
    }
    s->path = strdup(name ? name : "<text>");
    s->text = malloc(len + 1);
    PTOC_ASSERT(s->text, "out of memory");
    memcpy(s->text, text, len);
    s->text[len] = 0;
    s->entry = entry && *entry ? strdup(entry) : NULL;
    s->src = (SrcFile){ s->path, s->text, len };
    s->ir = ir_ctx_new(&s->diag);
    int errors = s->diag.nerrors;
    FrontArg *defs = calloc((size_t)s->opt.ndefines + (size_t)(b ? b->ndefines : 0) + 1, sizeof(FrontArg));
    PTOC_ASSERT(defs, "out of memory");
    FrontBinding with_defs;
    if (!defines_binding(s, defs, &with_defs)) { free(defs); return false; }
    for (int i = 0; b && i < b->ndefines; i++) defs[with_defs.ndefines++] = b->defines[i];   /* -D first: it wins */
    with_defs.args = b ? b->args : NULL;
    with_defs.nargs = b ? b->nargs : 0;
    FrontBinding fb;
    FrontArg *merged;
    drv_binding_merge(s, &with_defs, &fb, &merged);
    s->source = front_parse_bound(s->ir, &s->src, s->entry, &fb);
    if (!s->source || s->diag.nerrors > errors || !check_entry(s) || !collect_params(s) || !drv_check_args(s)) {
        free(merged);
        free(defs);
        return false;
    }
    keep_binding(s, &fb);
    free(merged);
    free(defs);
    if (!drv_reparse(s)) return false;
    s->loaded = true;
    return true;
}

/* The binding of the parses, owned by the session (names interned, spans dropped: the caller's
 * lists are freed after loading), so that the compile can parse a fresh copy again (drv_reparse). */
static FrontArg *copy_args(DrvSession *s, const FrontArg *a, int n) {
    FrontArg *out = calloc((size_t)n + 1, sizeof *out);
    PTOC_ASSERT(out, "out of memory");
    for (int i = 0; i < n; i++) {
        out[i] = a[i];
        out[i].name = a[i].name ? intern_cstr(s->ir->strs, a[i].name) : NULL;
        out[i].span = SPAN_NONE;
    }
    return out;
}

static void keep_binding(DrvSession *s, const FrontBinding *fb) {
    s->bind = *fb;
    s->bind_args = copy_args(s, fb->args, fb->nargs);
    s->bind_defines = copy_args(s, fb->defines, fb->ndefines);
    s->bind.args = s->bind_args;
    s->bind.defines = s->bind_defines;
}

/* A fresh copy of the program for the passes to rewrite: a parse of the same text (it cannot fail
 * after the first; its warnings would repeat the first parse's, so they go to a scratch sink). */
bool drv_reparse(DrvSession *s) {
    DiagSink again;
    diag_init(&again);
    s->ir->diag = &again;
    s->prog = front_parse_bound(s->ir, &s->src, s->entry, &s->bind);
    s->ir->diag = &s->diag;
    bool ok = s->prog && again.nerrors == 0;
    diag_free(&again);
    if (!ok) diag_error(&s->diag, SPAN_NONE, "internal: the second parse of '%s' failed", s->path);
    return ok;
}

bool drv_load_text(DrvSession *s, const char *name, const char *text, const char *entry) {
    return load_source(s, name, text ? text : "", text ? strlen(text) : 0, entry, NULL);
}

/* Without a binding, an unshaped entry takes the shapes of the main block's first call of it
 * (--arg / --in given to the session still win: drv_binding_merge). */
bool drv_load_file(DrvSession *s, const char *path, const char *entry) {
    FrontArg *margs = NULL;
    int n = drv_main_binding(&s->opt, path, entry, &margs);
    FrontBinding b = { margs, n, NULL, 0, 0, 0 };
    bool ok = drv_load_file_bound(s, path, entry, n ? &b : NULL);
    drv_main_binding_free(margs, n);
    return ok;
}

bool drv_load_file_bound(DrvSession *s, const char *path, const char *entry, const FrontBinding *b) {
    size_t len;
    char *text = base_read_file_max(path, DRV_MAX_SOURCE_BYTES, &len);
    if (!text) {
        if (errno == EISDIR)
            diag_error(&s->diag, SPAN_NONE, "'%s' is a directory; give a program file such as %s/prog.py", path, path);
        else if (errno == EFBIG)
            diag_error(&s->diag, SPAN_NONE, "'%s' is larger than %zu MiB; that is not a program source (ptoc reads at most %zu MiB)",
                       path, DRV_MAX_SOURCE_BYTES >> 20, DRV_MAX_SOURCE_BYTES >> 20);
        else
            diag_error(&s->diag, SPAN_NONE, "cannot read '%s': %s", path, strerror(errno));
        return false;
    }
    bool ok = load_source(s, path, text, len, entry, b);
    free(text);
    return ok;
}

void drv_print_source(const DrvSession *s, StrBuf *out) {
    if (s->source) ir_print_program(s->source, out, (PrintOpts){ false });
}

bool drv_compile(DrvSession *s) {
    if (!s->loaded) {
        diag_error(&s->diag, SPAN_NONE, "no program loaded");
        return false;
    }
    if (s->compiled) return true;
    return drv_compile_impl(s);
}

int drv_num_kernels(const DrvSession *s) { return s->kernels.len; }
const DrvKernel *drv_kernel(const DrvSession *s, int i) { return &s->kernels.data[i]; }
int drv_num_tiles(const DrvSession *s) { return s->tiles.len; }
const DrvTile *drv_tile(const DrvSession *s, int i) { return &s->tiles.data[i]; }
const DrvRunStats *drv_run_stats(const DrvSession *s) { return &s->run; }

bool drv_bind_file(DrvSession *s, const char *name, const char *path, bool output) {
    for (int i = 0; i < s->nparams; i++) {
        const DrvParam *p = &s->params[i];
        if (strcmp(p->name, name)) continue;
        if (!p->is_tensor || (output ? p->dir == PD_IN : p->dir == PD_OUT)) {
            diag_error(&s->diag, SPAN_NONE, "parameter '%s' is %s; %s needs %s", name,
                       p->dir == PD_IN ? "an input" : p->dir == PD_OUT ? "an output" : "in-out",
                       output ? "--out" : "--in", output ? "an Out or InOut tensor" : "an In or InOut tensor");
            return false;
        }
        DrvBinding b = { i, strdup(path), output };
        vec_push(&s->bindings, b);
        return true;
    }
    diag_error(&s->diag, SPAN_NONE, "'%s' has no parameter named '%s'", drv_entry_name(s), name);
    return false;
}

void drv_output_prepare(DrvSession *s, const char *dir) {
    (void)dir;
    s->keep_dumps = true;
}
