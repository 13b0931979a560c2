/* ptoc compile / ptoc parse — and the option parsing shared with ptoc run (cmd_run.c).
 *
 *   ptoc compile prog.py[:entry] [-o DIR] [--dump-passes DIR] [--target a2a3|a5]
 *                [--memory-planner pypto|dsa_rp|ptoas] [--dbc] [--no-pipeline-dbc] [--[no-]verify-roundtrip] [--json]
 *                [-D NAME=VALUE]...
 *   ptoc parse prog.py[:entry] [-D NAME=VALUE]...
 * prog.py:entry names a @pl.jit function or a @pl.program class, also by its dotted path
 * (prog.py:build.Tiled).
 * Exit codes: 0 ok, 1 user error (diagnostics on stderr, gcc style), 2 usage error. */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "driver/driver.h"

void cli_split_program(const char *arg, char **path, char **entry) {
    const char *colon = strrchr(arg, ':');
    /* a dotted entry (build.P) must not split a file that exists as named (a:b.py) */
    bool ident = colon && colon[1] && !strchr(colon, '/') && access(arg, F_OK) != 0;
    for (const char *c = colon ? colon + 1 : ""; ident && *c; c++)
        if (!(*c == '_' || *c == '.' || (*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') || (*c >= '0' && *c <= '9'))) ident = false;
    *path = ident ? strndup(arg, (size_t)(colon - arg)) : strdup(arg);
    *entry = ident ? strdup(colon + 1) : NULL;
}

void cli_print_diags(DrvSession *s, bool perf) {
    const DiagSink *d = drv_diag(s);
    StrBuf sb = {0};
    for (int i = 0; i < d->items.len; i++)
        if (perf || d->items.data[i].level != DIAG_PERF) diag_format(&d->items.data[i], &sb);
    fputs(sb_cstr(&sb), stderr);
    sb_free(&sb);
}

/* Options common to compile and run. Returns 1 when argv[*i] was consumed (with its value), 0 when
 * not a common option, -1 on a usage error (message printed). */
int cli_common_option(int argc, char **argv, int *i, DrvOptions *o) {
    const char *a = argv[*i];
    const char *val = *i + 1 < argc ? argv[*i + 1] : NULL;
    char err[256];
    if (!strcmp(a, "--target") || !strcmp(a, "--memory-planner") || !strcmp(a, "--seed") || !strcmp(a, "--threads")) {
        if (!val) return fprintf(stderr, "ptoc: %s needs a value\n", a), -1;
        const char *key = !strcmp(a, "--target") ? "target" : !strcmp(a, "--seed") ? "seed"
                        : !strcmp(a, "--threads") ? "threads" : "memory_planner";
        if (!drv_option_set(o, key, val, err, sizeof err)) return fprintf(stderr, "ptoc: %s\n", err), -1;
        (*i)++;
        return 1;
    }
    if (!strcmp(a, "-D") || (a[0] == '-' && a[1] == 'D' && a[2])) {   /* -D NAME=VALUE or -DNAME=VALUE */
        static const char *defines[64];
        const char *d = a[2] ? a + 2 : val;
        if (!d) return fprintf(stderr, "ptoc: -D needs NAME=VALUE, e.g. -D M=128\n"), -1;
        if (o->ndefines == 64) return fprintf(stderr, "ptoc: at most 64 -D options\n"), -1;
        if (o->defines != defines) { for (int k = 0; k < o->ndefines; k++) defines[k] = o->defines[k]; o->defines = defines; }
        defines[o->ndefines++] = d;
        if (!a[2]) (*i)++;
        return 1;
    }
    if (!strcmp(a, "--dbc")) return o->dbc = true, 1;
    if (!strcmp(a, "--no-pipeline-dbc")) return o->pipeline_dbc = false, 1;
    if (!strcmp(a, "--verify-roundtrip")) return o->verify_roundtrip = true, 1;
    if (!strcmp(a, "--no-verify-roundtrip")) return o->verify_roundtrip = false, 1;
    return 0;
}

static void compile_usage(FILE *f) {
    fprintf(f,
            "usage: ptoc compile prog.py[:entry] [-o DIR] [--dump-passes DIR] [--target a2a3|a5]\n"
            "                    [--memory-planner pypto|dsa_rp|ptoas] [--dbc] [--no-pipeline-dbc] [--[no-]verify-roundtrip] [--json]\n"
            "                    [-D NAME=VALUE]...\n"
            "  -D NAME=VALUE       bind a builder parameter / local, a module constant or a pl.dynamic dim\n"
            "  -o DIR              write passes_dump/, ptoas/<kernel>.pto, orchestration/, report/ to DIR\n"
            "  --dump-passes DIR   write 00_frontend.py and NN_after_<Pass>.py to DIR\n"
            "  --json              print the compile report as one JSON object on stdout\n");
}

int cli_compile(int argc, char **argv) {
    DrvOptions o;
    drv_options_defaults(&o);
    const char *prog = NULL, *out = NULL;
    bool json = false;
    for (int i = 1; i < argc; i++) {
        int r = cli_common_option(argc, argv, &i, &o);
        if (r < 0) return 2;
        if (r) continue;
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) return compile_usage(stdout), 0;
        if ((!strcmp(argv[i], "-o") || !strcmp(argv[i], "--dump-passes")) && i + 1 < argc) {
            if (argv[i][1] == 'o') out = argv[++i];
            else o.dump_dir = argv[++i];
        } else if (!strcmp(argv[i], "--json")) json = true;
        else if (argv[i][0] == '-' || prog) return fprintf(stderr, "ptoc compile: unexpected argument '%s'\n", argv[i]), compile_usage(stderr), 2;
        else prog = argv[i];
    }
    if (!prog) return compile_usage(stderr), 2;
    char *path, *entry;
    cli_split_program(prog, &path, &entry);
    DrvSession *s = drv_new(&o);
    if (out) drv_output_prepare(s, out);
    bool ok = drv_load_file(s, path, entry) && drv_compile(s);
    if (ok && out) ok = drv_write_outputs(s, out);
    cli_print_diags(s, !json);          /* perf hints too, also before an error: they may explain it */
    if (json) {
        StrBuf sb = {0};
        if (ok) drv_report_json(s, &sb);
        else drv_error_json(s, &sb);
        printf("%s\n", sb_cstr(&sb));
        sb_free(&sb);
    }
    drv_free(s);
    free(path);
    free(entry);
    return ok ? 0 : 1;
}

int cli_parse(int argc, char **argv) {
    DrvOptions o;
    drv_options_defaults(&o);
    const char *prog = NULL;
    for (int i = 1; i < argc; i++) {
        bool define = !strncmp(argv[i], "-D", 2);
        if (define && cli_common_option(argc, argv, &i, &o) < 0) return 2;
        if (define) continue;
        if (!strcmp(argv[i], "--help") && argc == 2) return printf("usage: ptoc parse prog.py[:entry] [-D NAME=VALUE]...\n"), 0;
        if (argv[i][0] == '-' || prog) return fprintf(stderr, "usage: ptoc parse prog.py[:entry] [-D NAME=VALUE]...\n"), 2;
        prog = argv[i];
    }
    if (!prog) return fprintf(stderr, "usage: ptoc parse prog.py[:entry] [-D NAME=VALUE]...\n"), 2;
    char *path, *entry;
    cli_split_program(prog, &path, &entry);
    DrvSession *s = drv_new(&o);
    bool ok = drv_load_file(s, path, entry);
    if (ok) {
        StrBuf sb = {0};
        drv_print_source(s, &sb);
        fputs(sb_cstr(&sb), stdout);
        sb_free(&sb);
    }
    cli_print_diags(s, true);
    drv_free(s);
    free(path);
    free(entry);
    return ok ? 0 : 1;
}
