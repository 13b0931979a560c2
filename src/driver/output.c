/* output — the output directory of DESIGN.md:
 *   DIR/passes_dump/00_frontend.py, NN_after_<Pass>.py   (needs drv_output_prepare before compile)
 *   DIR/ptoas/<kernel>.pto
 *   DIR/orchestration/<entry>.cpp                          (when the orchestration emitter is linked)
 *   DIR/report/perf_hints.log                              (one "CODE file:line: message" per line)
 *   DIR/report/summary.json                                (the report of drv_report_json)
 *   DIR/run/deps.json                                      (after a run with capture_deps) */
#include "driver/driver_int.h"

#include <string.h>

static bool put(DrvSession *s, const char *dir, const char *sub, const char *file, const char *text) {
    StrBuf d = {0}, p = {0};
    sb_printf(&d, "%s/%s", dir, sub);
    sb_printf(&p, "%s/%s", sb_cstr(&d), file);
    bool ok = base_mkdir_p(sb_cstr(&d)) && base_write_file(sb_cstr(&p), text, strlen(text));
    if (!ok) diag_error(&s->diag, SPAN_NONE, "cannot write '%s'", sb_cstr(&p));
    sb_free(&d);
    sb_free(&p);
    return ok;
}

bool drv_write_outputs(DrvSession *s, const char *dir) {
    bool ok = base_mkdir_p(dir);
    if (!ok) {
        diag_error(&s->diag, SPAN_NONE, "cannot create directory '%s'", dir);
        return false;
    }
    for (int i = 0; i < s->dumps.len && ok; i++) ok = put(s, dir, "passes_dump", s->dumps.data[i].file, s->dumps.data[i].text);
    for (int i = 0; i < s->kernels.len && ok; i++) {
        char file[256];
        snprintf(file, sizeof file, "%s.pto", s->kernels.data[i].k->name);
        ok = put(s, dir, "ptoas", file, s->kernels.data[i].pto);
    }
    if (ok && s->orch) {
        char file[256];
        snprintf(file, sizeof file, "%s.cpp", drv_entry_name(s));
        ok = put(s, dir, "orchestration", file, s->orch);
    }
    StrBuf sb = {0};
    drv_perf_hints(s, &sb);
    ok = ok && put(s, dir, "report", "perf_hints.log", sb_cstr(&sb));
    sb.len = 0;
    drv_report_json(s, &sb);
    sb_putc(&sb, '\n');
    ok = ok && put(s, dir, "report", "summary.json", sb_cstr(&sb));
    sb_free(&sb);
    if (ok && s->run.deps_json) ok = put(s, dir, "run", "deps.json", s->run.deps_json);
    return ok;
}
