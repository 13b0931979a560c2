/* api — the public C API of include/ptoc.h over the driver session (driver.h).
 * Keeps the strings it hands out (diagnostics, report) in the handle. */
#include "ptoc.h"

#include <string.h>

#include "driver/driver.h"

struct ptoc_program {
    DrvSession *s;
    StrBuf diag_text;
    StrBuf report;
    bool failed;                    /* last load / compile failed: the report is the error object */
};

const char *ptoc_version(void) { return PTOC_VERSION; }

ptoc_program *ptoc_program_new(void) {
    ptoc_program *p = calloc(1, sizeof *p);
    if (!p) return NULL;
    p->s = drv_new(NULL);
    return p;
}

void ptoc_program_free(ptoc_program *p) {
    if (!p) return;
    drv_free(p->s);
    sb_free(&p->diag_text);
    sb_free(&p->report);
    free(p);
}

static int status(ptoc_program *p, bool ok) {
    p->failed = !ok;
    return ok ? 0 : -1;
}

int ptoc_set_option(ptoc_program *p, const char *key, const char *value) {
    if (!p) return -1;
    char err[256];
    if (drv_option_set(drv_options(p->s), key, value, err, sizeof err)) return 0;
    diag_error(drv_diag(p->s), SPAN_NONE, "%s", err);
    return -1;
}

int ptoc_load_file(ptoc_program *p, const char *path, const char *entry) {
    if (!p) return -1;
    if (!path) diag_error(drv_diag(p->s), SPAN_NONE, "ptoc_load_file: path is NULL");
    return status(p, path && drv_load_file(p->s, path, entry));
}

int ptoc_load_text(ptoc_program *p, const char *name, const char *text, const char *entry) {
    if (!p) return -1;
    if (!text) diag_error(drv_diag(p->s), SPAN_NONE, "ptoc_load_text: text is NULL");
    return status(p, text && drv_load_text(p->s, name, text, entry));
}

int ptoc_compile(ptoc_program *p) { return p ? status(p, drv_compile(p->s)) : -1; }

int ptoc_keep_dumps(ptoc_program *p) {
    if (!p) return -1;
    drv_output_prepare(p->s, NULL);
    return 0;
}

int ptoc_write_outputs(ptoc_program *p, const char *dir) {
    if (!p) return -1;
    if (!dir || !drv_compiled(p->s)) {
        diag_error(drv_diag(p->s), SPAN_NONE, "ptoc_write_outputs: %s", dir ? "program not compiled" : "no directory");
        return -1;
    }
    return drv_write_outputs(p->s, dir) ? 0 : -1;
}

const char *ptoc_entry_name(const ptoc_program *p) { return p && drv_loaded(p->s) ? drv_entry_name(p->s) : NULL; }
int ptoc_num_params(const ptoc_program *p) { return p && drv_loaded(p->s) ? drv_num_params(p->s) : 0; }

static const DrvParam *param(const ptoc_program *p, int i) { return p && drv_loaded(p->s) ? drv_param(p->s, i) : NULL; }

const char *ptoc_param_name(const ptoc_program *p, int i) { return param(p, i) ? param(p, i)->name : NULL; }
const char *ptoc_param_dtype(const ptoc_program *p, int i) { return param(p, i) ? dtype_name(param(p, i)->dtype) : NULL; }
int ptoc_param_elem_bytes(const ptoc_program *p, int i) { return param(p, i) ? dtype_bytes(param(p, i)->dtype) : 0; }
int ptoc_param_rank(const ptoc_program *p, int i) { return param(p, i) ? param(p, i)->rank : -1; }
int64_t ptoc_param_numel(const ptoc_program *p, int i) { return param(p, i) ? param(p, i)->numel : 0; }
size_t ptoc_param_bytes(const ptoc_program *p, int i) { return param(p, i) ? (size_t)param(p, i)->bytes : 0; }

int64_t ptoc_param_dim(const ptoc_program *p, int i, int d) {
    const DrvParam *q = param(p, i);
    return q && d >= 0 && d < q->rank ? q->shape[d] : -1;
}

ptoc_direction ptoc_param_direction(const ptoc_program *p, int i) {
    const DrvParam *q = param(p, i);
    if (!q) return PTOC_DIR_IN;
    return q->dir == PD_OUT ? PTOC_DIR_OUT : q->dir == PD_INOUT ? PTOC_DIR_INOUT : PTOC_DIR_IN;
}

int ptoc_run(ptoc_program *p, void **bufs, int nbufs) {
    if (!p) return -1;
    if (!drv_compiled(p->s) && ptoc_compile(p)) return -1;
    if (!bufs) diag_error(drv_diag(p->s), SPAN_NONE, "ptoc_run: bufs is NULL (one buffer per parameter)");
    bool ok = bufs && drv_run(p->s, bufs, nbufs);
    p->failed = false;
    return ok && drv_run_ok(p->s) ? 0 : -1;
}

int ptoc_run_random(ptoc_program *p) {
    if (!p) return -1;
    if (!drv_compiled(p->s) && ptoc_compile(p)) return -1;
    bool ok = drv_run_random(p->s);
    p->failed = false;
    return ok && drv_run_ok(p->s) ? 0 : -1;
}

const char *ptoc_diagnostics(ptoc_program *p) {
    if (!p) return "ptoc: error: NULL ptoc_program handle\n";
    p->diag_text.len = 0;
    diag_format_all(drv_diag(p->s), &p->diag_text);
    return sb_cstr(&p->diag_text);
}

const char *ptoc_report_json(ptoc_program *p) {
    if (!p) return "{\"ok\":false,\"error\":\"NULL ptoc_program handle\"}";
    p->report.len = 0;
    if (p->failed || !drv_compiled(p->s)) drv_error_json(p->s, &p->report);
    else drv_report_json(p->s, &p->report);
    return sb_cstr(&p->report);
}

const char *ptoc_deps_json(const ptoc_program *p) { return p ? drv_run_stats(p->s)->deps_json : NULL; }
int64_t ptoc_makespan_cycles(const ptoc_program *p) { return p ? drv_run_stats(p->s)->makespan_cycles : 0; }
