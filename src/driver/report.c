/* report — the run/compile report as one JSON object (ptoc run --json, report/summary.json, the
 * public API) and as human text (ptoc run). Keys are documented in docs/cli.md. */
#include "driver/driver_int.h"

#include <string.h>

static const char *core_name(CoreKind k) { return k == CORE_AIC ? "aic" : "aiv"; }

static const char *space_name(MemSpace m) {
    switch (m) {
    case MS_MAT: return "mat";
    case MS_LEFT: return "left";
    case MS_RIGHT: return "right";
    case MS_ACC: return "acc";
    case MS_VEC: return "vec";
    case MS_BIAS: return "bias";
    default: return memspace_lower(m);
    }
}

/* "file:line:col: message" of the first error; false when there is none. */
static bool first_error(const DrvSession *s, int from, StrBuf *out) {
    for (int i = from; i < s->diag.items.len; i++) {
        const Diag *d = &s->diag.items.data[i];
        if (d->level != DIAG_ERROR) continue;
        if (d->span.file && d->span.line > 0) sb_printf(out, "%s:%d:%d: ", d->span.file->path, d->span.line, d->span.col);
        sb_puts(out, d->msg);
        return true;
    }
    return false;
}

/* Tiles of function f: picks recorded for f itself, or for the InCore function f was split from. */
static bool tile_belongs(const DrvTile *t, const char *kname) {
    size_t n = strlen(t->func);
    return !strcmp(t->func, kname) || (!strncmp(t->func, kname, n) && kname[n] == '_');
}

static void json_tile(JsonW *w, const DrvTile *t) {
    json_obj_begin(w);
    json_key(w, "func"), json_str(w, t->func);
    json_key(w, "line"), json_int(w, t->span.line);
    json_key(w, "M"), json_int(w, t->M);
    json_key(w, "N"), json_int(w, t->N);
    json_key(w, "K"), json_int(w, t->K);
    json_key(w, "m"), json_int(w, t->m);
    json_key(w, "n"), json_int(w, t->n);
    json_key(w, "k"), json_int(w, t->k);
    json_key(w, "stationarity"), json_str(w, tile_stationarity_name(t->stationarity));
    json_key(w, "dbc"), json_bool(w, t->dbc);
    json_key(w, "os_holds_a"), json_bool(w, t->os_holds_a);
    json_key(w, "cost_cycles"), json_int(w, t->cost_cycles);
    json_obj_end(w);
}

/* The pipes a kernel's instructions run on, in the order reports list them. */
static const Pipe report_pipes[] = { PIPE_MTE1, PIPE_MTE2, PIPE_MTE3, PIPE_M, PIPE_V, PIPE_FIX, PIPE_S };

static void json_kernel(JsonW *w, const DrvSession *s, const DrvKernel *dk) {
    const Kernel *k = dk->k;
    json_obj_begin(w);
    json_key(w, "name"), json_str(w, k->name);
    json_key(w, "core"), json_str(w, core_name(k->core));
    json_key(w, "runs"), json_int(w, dk->runs);
    json_key(w, "cycles"), json_int(w, dk->cycles);
    json_key(w, "cube_util"), json_num(w, dk->cube_util);
    json_key(w, "pipe_util"), json_obj_begin(w);
    for (int p = 0; p < (int)(sizeof report_pipes / sizeof report_pipes[0]); p++)
        json_key(w, mir_pipe_name(report_pipes[p])), json_num(w, dk->pipe_util[report_pipes[p]]);
    json_obj_end(w);
    json_key(w, "races"), json_int(w, dk->races);
    json_key(w, "sync_errors"), json_int(w, dk->sync_errors);
    json_key(w, "tiles"), json_arr_begin(w);
    for (int i = 0; i < s->tiles.len; i++)
        if (tile_belongs(&s->tiles.data[i], k->name)) json_tile(w, &s->tiles.data[i]);
    json_arr_end(w);
    json_key(w, "buffers"), json_arr_begin(w);
    for (int i = 0; i < k->nbufs; i++) {
        const MirBuf *b = &k->bufs[i];
        json_obj_begin(w);
        json_key(w, "var"), json_str(w, b->name ? b->name : "");
        json_key(w, "space"), json_str(w, space_name(b->space));
        json_key(w, "addr"), json_int(w, b->addr);
        json_key(w, "bytes"), json_int(w, b->bytes);
        json_obj_end(w);
    }
    json_arr_end(w);
    json_key(w, "event_ids"), json_obj_begin(w);
    for (int a = 0; a < PIPE_COUNT; a++)
        for (int b = 0; b < PIPE_COUNT; b++)
            if (dk->ids_used[a][b]) {
                char key[48];
                snprintf(key, sizeof key, "%s->%s", mir_pipe_name((Pipe)a), mir_pipe_name((Pipe)b));
                json_key(w, key), json_int(w, dk->ids_used[a][b]);
            }
    json_obj_end(w);
    json_key(w, "set_flags"), json_int(w, dk->nset);
    json_key(w, "wait_flags"), json_int(w, dk->nwait);
    json_key(w, "barriers"), json_int(w, dk->nbarrier);
    json_obj_end(w);
}

static void json_strings(JsonW *w, const char *key, char **items, int n) {
    json_key(w, key), json_arr_begin(w);
    for (int i = 0; i < n; i++) json_str(w, items[i]);
    json_arr_end(w);
}

static void json_run(JsonW *w, const DrvSession *s) {
    const DrvRunStats *r = &s->run;
    json_key(w, "ran"), json_bool(w, r->ran);
    json_key(w, "timing_only"), json_bool(w, s->opt.timing_only);
    json_key(w, "compared"), json_bool(w, r->compared);
    json_key(w, "max_abs_err"), r->compared ? json_num(w, r->max_abs_err) : json_null(w);
    json_key(w, "max_rel_err"), r->compared ? json_num(w, r->max_rel_err) : json_null(w);
    json_key(w, "atol"), json_num(w, r->atol);
    json_key(w, "rtol"), json_num(w, r->rtol);
    json_key(w, "mismatches"), json_int(w, r->mismatches);
    json_key(w, "checked"), json_int(w, r->checked);
    json_key(w, "races"), json_int(w, r->race_messages.len);
    json_strings(w, "race_messages", r->race_messages.data, r->race_messages.len);
    json_key(w, "sync_errors"), json_int(w, r->sync_messages.len);
    json_strings(w, "sync_error_messages", r->sync_messages.data, r->sync_messages.len);
    json_key(w, "tasks"), json_int(w, r->tasks);
    json_key(w, "edges"), json_int(w, r->edges);
    json_key(w, "task_list"), json_arr_begin(w);
    for (int i = 0; i < r->task_list.len; i++) {
        const DrvTask *t = &r->task_list.data[i];
        json_obj_begin(w);
        json_key(w, "id"), json_int(w, t->id);
        json_key(w, "kernel"), json_str(w, t->kernel ? t->kernel : "");
        json_key(w, "core"), json_str(w, t->core ? t->core : "");
        json_key(w, "block_num"), json_int(w, t->block_num);
        json_key(w, "start"), json_int(w, t->start);
        json_key(w, "end"), json_int(w, t->end);
        json_obj_end(w);
    }
    json_arr_end(w);
    json_key(w, "makespan_cycles"), json_int(w, r->makespan_cycles);
    json_key(w, "makespan_us"), json_num(w, (double)r->makespan_cycles / (s->opt.target->clock_ghz * 1000.0));
    json_key(w, "run_ms"), json_num(w, r->wall_seconds * 1e3);
    json_key(w, "golden_ms"), json_num(w, r->golden_seconds * 1e3);
    json_key(w, "pto_isa_match"), !r->pto_isa_msg || r->pto_isa_match < 0 ? json_null(w) : json_bool(w, r->pto_isa_match == 1);
    if (r->pto_isa_msg) json_key(w, "pto_isa"), json_str(w, r->pto_isa_msg);
}

void drv_report_json(const DrvSession *s, StrBuf *out) {
    JsonW w;
    json_init(&w, out);
    json_obj_begin(&w);
    StrBuf err = {0};
    bool errors = first_error(s, s->diag_base, &err);
    bool ok = s->compiled && (!s->run.ran || drv_run_ok(s)) && !errors;
    json_key(&w, "ok"), json_bool(&w, ok);
    if (errors) json_key(&w, "error"), json_str(&w, sb_cstr(&err));
    sb_free(&err);
    json_key(&w, "program"), json_str(&w, s->path ? s->path : "");
    json_key(&w, "entry"), json_str(&w, drv_entry_name(s) ? drv_entry_name(s) : "");
    json_key(&w, "target"), json_str(&w, s->opt.target->name);
    json_key(&w, "seed"), json_int(&w, (int64_t)s->opt.seed);
    json_run(&w, s);
    json_key(&w, "compile_ms"), json_num(&w, s->compile_seconds * 1e3);
    json_key(&w, "passes"), json_arr_begin(&w);
    for (int i = 0; i < s->pass_times.len; i++) {
        json_obj_begin(&w);
        json_key(&w, "name"), json_str(&w, s->pass_times.data[i].name);
        json_key(&w, "ms"), json_num(&w, s->pass_times.data[i].seconds * 1e3);
        json_obj_end(&w);
    }
    json_arr_end(&w);
    json_key(&w, "perf_hints"), json_arr_begin(&w);
    StrBuf line = {0};
    for (int i = 0; i < s->diag.items.len; i++) {
        const Diag *d = &s->diag.items.data[i];
        if (d->level != DIAG_PERF) continue;
        line.len = 0;
        sb_printf(&line, "%s %s:%d: %s", d->code ? d->code : "PH", d->span.file ? d->span.file->path : "?", d->span.line, d->msg);
        json_str(&w, sb_cstr(&line));
    }
    sb_free(&line);
    json_arr_end(&w);
    json_key(&w, "tiles"), json_arr_begin(&w);
    for (int i = 0; i < s->tiles.len; i++) json_tile(&w, &s->tiles.data[i]);
    json_arr_end(&w);
    json_key(&w, "kernels"), json_arr_begin(&w);
    for (int i = 0; i < s->kernels.len; i++) json_kernel(&w, s, &s->kernels.data[i]);
    json_arr_end(&w);
    json_obj_end(&w);
}

void drv_error_json(const DrvSession *s, StrBuf *out) {
    StrBuf loc = {0};
    const char *msg = first_error(s, s->diag_base, &loc) || first_error(s, 0, &loc) ? sb_cstr(&loc) : "error";
    JsonW w;
    json_init(&w, out);
    json_obj_begin(&w);
    json_key(&w, "ok"), json_bool(&w, false);
    json_key(&w, "error"), json_str(&w, msg);
    json_obj_end(&w);
    sb_free(&loc);
}

void drv_perf_hints(const DrvSession *s, StrBuf *out) {
    for (int i = 0; i < s->diag.items.len; i++) {
        const Diag *d = &s->diag.items.data[i];
        if (d->level != DIAG_PERF) continue;
        sb_printf(out, "%s %s:%d: %s\n", d->code ? d->code : "PH", d->span.file ? d->span.file->path : "?",
                  d->span.line, d->msg);
    }
}

/* ---- human text ---- */
static void text_tile(StrBuf *o, const DrvTile *t) {
    sb_printf(o, "    matmul [%lld x %lld] x [%lld x %lld] (line %d): L0 tile m=%lld n=%lld k=%lld, %s, dbC%d, cost %lld cycles%s\n",
              (long long)t->M, (long long)t->K, (long long)t->K, (long long)t->N, t->span.line, (long long)t->m,
              (long long)t->n, (long long)t->k, tile_stationarity_name(t->stationarity), t->dbc ? 2 : 1,
              (long long)t->cost_cycles, t->m == t->M && t->n == t->N && t->k == t->K ? " (fits L0 whole, not re-tiled)" : "");
}

static void text_kernel(StrBuf *o, const DrvSession *s, const DrvKernel *dk) {
    const Kernel *k = dk->k;
    sb_printf(o, "kernel %s (%s)\n", k->name, core_name(k->core));
    for (int i = 0; i < s->tiles.len; i++)
        if (tile_belongs(&s->tiles.data[i], k->name)) text_tile(o, &s->tiles.data[i]);
    sb_puts(o, "  buffers:\n");
    for (int i = 0; i < k->nbufs; i++) {
        const MirBuf *b = &k->bufs[i];
        sb_printf(o, "    %-24s %-5s addr %7lld  bytes %7lld  [%lld x %lld %s]\n", b->name ? b->name : "?",
                  space_name(b->space), (long long)b->addr, (long long)b->bytes, (long long)b->rows, (long long)b->cols,
                  dtype_name(b->dtype));
    }
    sb_puts(o, "  event ids:");
    int any = 0;
    for (int a = 0; a < PIPE_COUNT; a++)
        for (int b = 0; b < PIPE_COUNT; b++)
            if (dk->ids_used[a][b])
                sb_printf(o, "%s %s->%s: %d", any++ ? "," : "", mir_pipe_name((Pipe)a), mir_pipe_name((Pipe)b), dk->ids_used[a][b]);
    sb_printf(o, "%s (set %d, wait %d, barrier %d)\n", any ? "" : " none", dk->nset, dk->nwait, dk->nbarrier);
    if (s->run.ran) {
        sb_printf(o, "  simulated: %lld cycles (%.2f us), cube utilisation %.1f%%, %d run(s)\n", (long long)dk->cycles,
                  (double)dk->cycles / (s->opt.target->clock_ghz * 1000.0), dk->cube_util * 100.0, dk->runs);
        sb_puts(o, "  pipe busy:");
        for (int p = 0; p < (int)(sizeof report_pipes / sizeof report_pipes[0]); p++)
            sb_printf(o, " %s %.1f%%", mir_pipe_name(report_pipes[p]), dk->pipe_util[report_pipes[p]] * 100.0);
        sb_putc(o, '\n');
    }
}

void drv_report_text(const DrvSession *s, StrBuf *o) {
    const DrvRunStats *r = &s->run;
    sb_printf(o, "program %s, entry %s, target %s\n", s->path ? s->path : "?", drv_entry_name(s) ? drv_entry_name(s) : "?",
              s->opt.target->name);
    sb_printf(o, "compiled in %.2f ms (%d passes), %d kernel(s)\n", s->compile_seconds * 1e3, s->pass_times.len,
              s->kernels.len);
    for (int i = 0; i < s->kernels.len; i++) text_kernel(o, s, &s->kernels.data[i]);
    if (s->kernels.len == 0)
        for (int i = 0; i < s->tiles.len; i++) text_tile(o, &s->tiles.data[i]);
    StrBuf hints = {0};
    drv_perf_hints(s, &hints);
    if (hints.len) sb_printf(o, "perf hints:\n%s", sb_cstr(&hints));
    sb_free(&hints);
    if (!r->ran) return;
    sb_printf(o, "runtime: %d task(s), %d edge(s), makespan %lld cycles (%.2f us), host %.2f ms\n", r->tasks, r->edges,
              (long long)r->makespan_cycles, (double)r->makespan_cycles / (s->opt.target->clock_ghz * 1000.0),
              r->wall_seconds * 1e3);
    for (int i = 0; i < r->task_list.len && i < 32; i++) {
        const DrvTask *t = &r->task_list.data[i];
        sb_printf(o, "  task %d %s (%s, %lld block%s): cycles [%lld, %lld)\n", t->id, t->kernel ? t->kernel : "?",
                  t->core ? t->core : "?", (long long)t->block_num, t->block_num == 1 ? "" : "s", (long long)t->start,
                  (long long)t->end);
    }
    if (r->task_list.len > 32) sb_printf(o, "  ... %d more tasks\n", r->task_list.len - 32);
    if (!s->opt.race_check) sb_puts(o, "race check: off\n");
    else if (r->race_messages.len == 0 && r->sync_messages.len == 0) sb_puts(o, "race check: clean\n");
    for (int i = 0; i < r->race_messages.len; i++) sb_printf(o, "race: %s\n", r->race_messages.data[i]);
    for (int i = 0; i < r->sync_messages.len; i++) sb_printf(o, "sync error: %s\n", r->sync_messages.data[i]);
    if (r->compared && r->checked == 0)
        sb_printf(o, "vs golden: nothing compared: '%s' has no Out / InOut tensor parameter (a tensor it creates and "
                  "returns is not checked; pass it as pl.Out)\n", drv_entry_name(s));
    else if (r->compared)
        sb_printf(o, "vs golden: max abs err %.3g, max rel err %.3g (atol %g, rtol %g), %lld / %lld elements off\n",
                  r->max_abs_err, r->max_rel_err, r->atol, r->rtol, (long long)r->mismatches, (long long)r->checked);
    if (r->pto_isa_msg) sb_printf(o, "pto-isa: %s\n", r->pto_isa_msg);
    /* the verdict agrees with the exit code: an error after the comparison (an output file that
     * could not be written) fails the run too, and is named here */
    StrBuf err = {0};
    bool errors = first_error(s, s->diag_base, &err);
    if (drv_run_ok(s) && !errors && s->opt.timing_only)      /* no claim about values: none were computed */
        sb_printf(o, "TIMING-ONLY: makespan %lld cycles (%.2f us); no data moved or computed, outputs not checked\n",
                  (long long)r->makespan_cycles, (double)r->makespan_cycles / (s->opt.target->clock_ghz * 1000.0));
    else if (drv_run_ok(s) && !errors) sb_puts(o, "OK\n");
    else if (errors && drv_run_ok(s)) sb_printf(o, "FAIL: %s\n", sb_cstr(&err));
    else sb_puts(o, "FAIL\n");
    sb_free(&err);
}
