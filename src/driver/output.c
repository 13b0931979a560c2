/* output — the output directory of DESIGN.md:
 *   DIR/passes_dump/00_frontend.py, NN_after_<Pass>.py   (needs drv_output_prepare before compile)
 *   DIR/ptoas/<kernel>.pto
 *   DIR/kernels/aic/<kernel>.cpp, DIR/kernels/aiv/<kernel>.cpp  (PTO-ISA C++, back/emit_cpp.c)
 *   DIR/kernel_config.py                                   (kernel_config.c)
 *   DIR/orchestration/<entry>.cpp                          (when the orchestration emitter is linked)
 *   DIR/report/perf_hints.log                              (one "CODE file:line: message" per line)
 *   DIR/report/summary.json                                (the report of drv_report_json)
 *   DIR/report/memory.svg                                  (the on-chip memory map per kernel)
 *   DIR/report/timeline.json                               (after a run: Chrome trace of the tasks and of
 *                                                           every core's pipes, timeline.c)
 *   DIR/run/deps.json                                      (after a run with capture_deps) */
#include "driver/driver_int.h"

#include <errno.h>
#include <string.h>

/* DIR/sub/file; the subdirectory is created on first use only (mkdir is slow on some file systems). */
static bool put(DrvSession *s, const char *dir, const char *sub, const char *file, const char *text) {
    StrBuf p = {0};
    sb_printf(&p, "%s/%s", dir, sub);
    bool ok = true;
    if (strcmp(s->out_made, sub)) {
        ok = base_mkdir_p(sb_cstr(&p));
        snprintf(s->out_made, sizeof s->out_made, "%s", sub);
    }
    sb_printf(&p, "/%s", file);
    ok = ok && base_write_file(sb_cstr(&p), text, strlen(text));
    if (!ok) diag_error(&s->diag, SPAN_NONE, "cannot write '%s': %s", sb_cstr(&p), strerror(errno));
    sb_free(&p);
    return ok;
}

bool drv_write_outputs(DrvSession *s, const char *dir) {
    if (!*dir) {     /* "" would put the tree at the file system's root ("/ptoas/...") */
        diag_error(&s->diag, SPAN_NONE, "the output directory is an empty string; give a directory such as out/");
        return false;
    }
    bool ok = base_mkdir_p(dir);
    s->out_made[0] = 0;
    if (!ok) {
        diag_error(&s->diag, SPAN_NONE, "cannot create directory '%s': %s", dir, strerror(errno));
        return false;
    }
    for (int i = 0; i < s->dumps.len && ok; i++) ok = put(s, dir, "passes_dump", s->dumps.data[i].file, s->dumps.data[i].text);
    for (int i = 0; i < s->kernels.len && ok; i++) {
        char file[256];
        snprintf(file, sizeof file, "%s.pto", s->kernels.data[i].k->name);
        ok = put(s, dir, "ptoas", file, s->kernels.data[i].pto);
    }
    if (ok) drv_kernels_cpp(s);
    for (int i = 0; i < s->kernels.len && ok; i++) {
        char sub[32], file[256];
        snprintf(sub, sizeof sub, "kernels/%s", drv_kernel_subdir(&s->kernels.data[i]));
        snprintf(file, sizeof file, "%s.cpp", s->kernels.data[i].k->name);
        ok = put(s, dir, sub, file, s->kernels.data[i].cpp);
    }
    StrBuf sb = {0};
    if (ok) {
        drv_kernel_config(s, &sb);
        ok = put(s, dir, ".", "kernel_config.py", sb_cstr(&sb));
    }
    if (ok && s->orch) {
        char file[256];
        snprintf(file, sizeof file, "%s.cpp", drv_entry_name(s));
        ok = put(s, dir, "orchestration", file, s->orch);
    }
    sb.len = 0;
    drv_perf_hints(s, &sb);
    ok = ok && put(s, dir, "report", "perf_hints.log", sb_cstr(&sb));
    sb.len = 0;
    drv_report_json(s, &sb);
    sb_putc(&sb, '\n');
    ok = ok && put(s, dir, "report", "summary.json", sb_cstr(&sb));
    sb.len = 0;
    drv_memory_svg(s, &sb);
    ok = ok && put(s, dir, "report", "memory.svg", sb_cstr(&sb));
    if (ok && s->run.ran) {
        sb.len = 0;
        drv_timeline_json(s, &sb);
        ok = put(s, dir, "report", "timeline.json", sb_cstr(&sb));
    }
    sb_free(&sb);
    if (ok && s->run.deps_json) ok = put(s, dir, "run", "deps.json", s->run.deps_json);
    return ok;
}
