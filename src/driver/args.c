/* args — the session's specialisation bindings (ptoc --arg / --in; spec/language.md §1.1, §8
 * decisions 1 and 7): parsing "NAME=64x128:fp32", keeping the lists, merging them with a caller's
 * FrontBinding for the front end, and checking --arg against the loaded entry's parameters.
 *
 * Requires: front.h (FrontArg / FrontBinding), npy.c (drv_npy_header).
 * Produces: drv_arg_parse, drv_bind_arg, drv_bind_input_shape; drv_binding_merge and
 *           drv_check_args for driver.c. */
#include "driver/driver_int.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <string.h>

static bool dtype_of_arg(const char *s, DType *out) {
    static const struct { const char *name; DType dt; } names[] = {
        { "fp32", DT_FP32 }, { "fp16", DT_FP16 }, { "bf16", DT_BF16 }, { "int8", DT_INT8 }, { "int16", DT_INT16 },
        { "int32", DT_INT32 }, { "int64", DT_INT64 }, { "bool", DT_BOOL }, { "float32", DT_FP32 }, { "float16", DT_FP16 },
        { "bfloat16", DT_BF16 },
    };
    char low[16];
    size_t n = strlen(s);
    if (n >= sizeof low) return false;
    for (size_t i = 0; i <= n; i++) low[i] = (char)tolower((unsigned char)s[i]);
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (!strcmp(low, names[i].name)) return *out = names[i].dt, true;
    return false;
}

/* "64x128" -> dims (each a decimal integer >= 0) */
static bool parse_dims(const char *s, size_t len, FrontArg *a) {
    a->rank = 0;
    const char *p = s, *end = s + len;
    while (p < end) {
        if (a->rank == 8 || !isdigit((unsigned char)*p)) return false;
        errno = 0;
        char *e;
        long long v = strtoll(p, &e, 10);
        if (errno || e > end) return false;
        a->dims[a->rank++] = v;
        p = e;
        if (p < end && *p != 'x' && *p != 'X') return false;
        if (p < end && ++p == end) return false;            /* "64x" */
    }
    return a->rank > 0;
}

static bool parse_scalar(const char *v, FrontArg *a) {
    char *e;
    if (!strcmp(v, "true") || !strcmp(v, "True")) return a->kind = FA_BOOL, a->ival = 1, true;
    if (!strcmp(v, "false") || !strcmp(v, "False")) return a->kind = FA_BOOL, a->ival = 0, true;
    errno = 0;
    long long i = strtoll(v, &e, 10);
    if (*v && !*e && !errno) return a->kind = FA_INT, a->ival = i, true;
    if (*v && !*e) return false;                             /* an integer out of int64 */
    errno = 0;
    double d = strtod(v, &e);
    if (*v && !*e && !errno && isfinite(d)) return a->kind = FA_FLOAT, a->fval = d, true;
    return false;
}

bool drv_arg_parse(const char *spec, FrontArg *out, char *name, size_t namelen, char *err, size_t errlen) {
    *out = (FrontArg){ .span = SPAN_NONE };
    const char *eq = strchr(spec, '=');
    if (!eq || eq == spec || !eq[1] || (size_t)(eq - spec) >= namelen)
        return snprintf(err, errlen, "--arg expects NAME=VALUE such as a=128x128:fp32 or n=64, got '%s'", spec), false;
    snprintf(name, namelen, "%.*s", (int)(eq - spec), spec);
    out->name = name;
    const char *v = eq + 1, *colon = strchr(v, ':');
    if (!colon) {
        if (parse_scalar(v, out)) return true;
        if (strchr(v, 'x') && isdigit((unsigned char)v[0]))
            return snprintf(err, errlen, "--arg %s: a tensor needs a dtype, e.g. %s=%s:fp32", spec, name, v), false;
        return snprintf(err, errlen, "--arg %s: expected a shape and dtype (%s=128x128:fp32), an integer, a float or true/false", spec,
                        name), false;
    }
    out->kind = FA_TENSOR;
    if (!parse_dims(v, (size_t)(colon - v), out))
        return snprintf(err, errlen, "--arg %s: the shape must be 1 to 8 dimensions written DxD (e.g. 64x128)", spec), false;
    if (!dtype_of_arg(colon + 1, &out->dtype))
        return snprintf(err, errlen, "--arg %s: unknown dtype '%s' (dtypes: fp32 fp16 bf16 int8 int16 int32 int64 bool)", spec, colon + 1),
               false;
    return true;
}

static void put_arg(void *vec, const FrontArg *a) {
    VEC(FrontArg) *v = vec;
    FrontArg c = *a;
    c.name = strdup(a->name);
    PTOC_ASSERT(c.name, "out of memory");
    for (int i = 0; i < v->len; i++)
        if (!strcmp(v->data[i].name, a->name)) { free((char *)v->data[i].name); v->data[i] = c; return; }
    vec_push(v, c);
}

static bool before_load(DrvSession *s, const char *what) {
    if (!s->loaded && !s->path) return true;
    diag_error(&s->diag, SPAN_NONE, "%s must be given before the program is loaded", what);
    return false;
}

bool drv_bind_arg(DrvSession *s, const FrontArg *a) {
    if (!a || !a->name || !before_load(s, "--arg")) return false;
    put_arg(&s->args, a);
    return true;
}

bool drv_bind_input_shape(DrvSession *s, const char *name, const char *path) {
    if (!before_load(s, "--in")) return false;
    FrontArg a = { .name = name, .kind = FA_TENSOR, .span = SPAN_NONE, .shape_only = true };
    char err[512];
    /* an unreadable file binds nothing: reading its data (drv_bind_file, drv_npy_read) reports it,
     * and an unshaped parameter it was meant for is reported unbound */
    if (drv_npy_header(path, &a.dtype, &a.rank, a.dims, err, sizeof err)) put_arg(&s->in_args, &a);
    return true;
}

void drv_args_free(DrvSession *s) {
    for (int i = 0; i < s->args.len; i++) free((char *)s->args.data[i].name);
    for (int i = 0; i < s->in_args.len; i++) free((char *)s->in_args.data[i].name);
    vec_free(&s->args);
    vec_free(&s->in_args);
}

static bool has_name(const FrontArg *a, int n, const char *name) {
    for (int i = 0; i < n; i++)
        if (!strcmp(a[i].name, name)) return true;
    return false;
}

/* --arg, then --in, then b's args (a name bound earlier in that order wins); b's defines. The
 * merged list is malloc'd into *args (names borrowed). */
void drv_binding_merge(const DrvSession *s, const FrontBinding *b, FrontBinding *out, FrontArg **args) {
    int cap = s->args.len + s->in_args.len + (b ? b->nargs : 0), n = 0;
    FrontArg *m = malloc(sizeof *m * (size_t)(cap ? cap : 1));
    PTOC_ASSERT(m, "out of memory");
    for (int i = 0; i < s->args.len; i++) m[n++] = s->args.data[i];
    for (int i = 0; i < s->in_args.len; i++)
        if (!has_name(m, n, s->in_args.data[i].name)) m[n++] = s->in_args.data[i];
    for (int i = 0; b && i < b->nargs; i++)
        if (!has_name(m, n, b->args[i].name)) m[n++] = b->args[i];
    /* the target's core counts: pl.system.available_cluster_count() / available_aiv_count() */
    *out = (FrontBinding){ m, n, b ? b->defines : NULL, b ? b->ndefines : 0, s->opt.target->num_aic, s->opt.target->num_aiv };
    *args = m;
}

/* After loading: every --arg names a parameter of the entry, with its shape and dtype (a @pl.jit
 * entry was bound by the front end; a @pl.program class's parameters carry their own shapes). */
bool drv_check_args(DrvSession *s) {
    for (int i = 0; i < s->args.len; i++) {
        const FrontArg *a = &s->args.data[i];
        const DrvParam *p = NULL;
        int k = 0;
        for (; k < s->nparams && !p; k++)
            if (!strcmp(s->params[k].name, a->name)) p = &s->params[k];
        if (!p && a->kind != FA_TENSOR) continue;    /* a scalar substituted (and dropped) by the front end */
        if (!p) {
            StrBuf names = {0};
            for (int j = 0; j < s->nparams; j++) sb_printf(&names, "%s%s", j ? ", " : "", s->params[j].name);
            diag_error(&s->diag, SPAN_NONE, "--arg %s: '%s' has no parameter '%s' (parameters: %s)", a->name, drv_entry_name(s),
                       a->name, s->nparams ? sb_cstr(&names) : "none");
            sb_free(&names);
            return false;
        }
        Span at = s->entry_fn->params.items[k - 1]->span;
        bool same = p->is_tensor == (a->kind == FA_TENSOR) &&
                    (!p->is_tensor || (p->dtype == a->dtype && p->rank == a->rank &&
                                       !memcmp(p->shape, a->dims, sizeof(int64_t) * (size_t)a->rank)));
        if (!same) {
            diag_error(&s->diag, at, "--arg %s does not match parameter '%s' (%s %s of rank %d)", a->name, a->name,
                       p->is_tensor ? "a tensor of" : "a scalar of", dtype_name(p->dtype), p->rank);
            return false;
        }
    }
    return true;
}
