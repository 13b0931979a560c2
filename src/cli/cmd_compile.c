/* ptoc compile / ptoc parse — and the option parsing shared with ptoc run (cmd_run.c).
 *
 *   ptoc compile prog.py[:entry] [-o DIR] [--dump-passes DIR] [--target a2a3|a5]
 *                [--memory-planner pypto|dsa_rp|ptoas] [--dbc] [--no-pipeline-dbc] [--no-auto-l1] [--no-rotate] [--[no-]verify-roundtrip] [--json]
 *                [--arg NAME=VALUE]... [--in NAME=file.npy]... [-D NAME=VALUE]...
 *   ptoc parse prog.py[:entry] [--arg NAME=VALUE]... [--in NAME=file.npy]... [-D NAME=VALUE]...
 * --arg / --in specialise the @pl.jit entry (unshaped pl.Tensor parameters, scalar values;
 * docs/cli.md "Binding parameters"); -D binds builder names, module constants and pl.dynamic dims.
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

/* --arg NAME=VALUE / --in NAME=file.npy: checked now (a usage error), applied by cli_apply_binds. */
static int bind_option(const char *a, const char *val, CliBinds *b) {
    char err[256], name[128];
    FrontArg fa;
    if (!val) return fprintf(stderr, "ptoc: %s needs a value\n", a), -1;
    if (!strcmp(a, "--arg")) {
        if (!drv_arg_parse(val, &fa, name, sizeof name, err, sizeof err)) return fprintf(stderr, "ptoc: %s\n", err), -1;
        if (b->nargs == CLI_MAX_BINDS) return fprintf(stderr, "ptoc: at most %d --arg options\n", CLI_MAX_BINDS), -1;
        b->args[b->nargs++] = val;
        return 1;
    }
    const char *eq = strchr(val, '=');
    if (!eq || eq == val || !eq[1] || (size_t)(eq - val) >= sizeof name)
        return fprintf(stderr, "ptoc: --in expects NAME=file.npy, got '%s'\n", val), -1;
    if (b->nins == CLI_MAX_BINDS) return fprintf(stderr, "ptoc: at most %d --in options\n", CLI_MAX_BINDS), -1;
    b->ins[b->nins++] = val;
    return 1;
}

bool cli_apply_binds(DrvSession *s, const CliBinds *b) {
    char err[256], name[128];
    FrontArg fa;
    for (int i = 0; i < b->nargs; i++)
        if (!drv_arg_parse(b->args[i], &fa, name, sizeof name, err, sizeof err) || !drv_bind_arg(s, &fa)) return false;
    for (int i = 0; i < b->nins; i++) {
        const char *eq = strchr(b->ins[i], '=');
        snprintf(name, sizeof name, "%.*s", (int)(eq - b->ins[i]), b->ins[i]);
        if (!drv_bind_input_shape(s, name, eq + 1)) return false;
    }
    return true;
}

bool cli_bind_inputs(DrvSession *s, const CliBinds *b) {
    char name[128];
    for (int i = 0; i < b->nins; i++) {
        const char *eq = strchr(b->ins[i], '=');
        snprintf(name, sizeof name, "%.*s", (int)(eq - b->ins[i]), b->ins[i]);
        if (!drv_bind_file(s, name, eq + 1, false)) return false;
    }
    return true;
}

/* Options common to parse, compile and run. Returns 1 when argv[*i] was consumed (with its value),
 * 0 when not a common option, -1 on a usage error (message printed). */
int cli_common_option(int argc, char **argv, int *i, DrvOptions *o, CliBinds *b) {
    const char *a = argv[*i];
    const char *val = *i + 1 < argc ? argv[*i + 1] : NULL;
    char err[256];
    if (!strcmp(a, "--arg") || !strcmp(a, "--in")) {
        int r = bind_option(a, val, b);
        if (r > 0) (*i)++;
        return r;
    }
    if (!strcmp(a, "--target") || !strcmp(a, "--memory-planner") || !strcmp(a, "--seed") || !strcmp(a, "--threads") ||
        !strcmp(a, "--cores")) {
        if (!val) return fprintf(stderr, "ptoc: %s needs a value\n", a), -1;
        const char *key = !strcmp(a, "--target") ? "target" : !strcmp(a, "--seed") ? "seed"
                        : !strcmp(a, "--threads") ? "threads" : !strcmp(a, "--cores") ? "cores" : "memory_planner";
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
    if (!strcmp(a, "--no-auto-l1")) return o->no_auto_l1 = true, 1;
    if (!strcmp(a, "--no-rotate")) return o->no_rotate = true, 1;
    if (!strcmp(a, "--verify-roundtrip")) return o->verify_roundtrip = true, 1;
    if (!strcmp(a, "--no-verify-roundtrip")) return o->verify_roundtrip = false, 1;
    return 0;
}

#define PARSE_USAGE "usage: ptoc parse prog.py[:entry] [--arg NAME=VALUE]... [--in NAME=file.npy]...\n"

static void compile_usage(FILE *f) {
    fprintf(f,
            "usage: ptoc compile prog.py[:entry] [-o DIR] [--dump-passes DIR] [--target a2a3|a5]\n"
 "                    [--memory-planner pypto|dsa_rp|ptoas] [--dbc] [--no-pipeline-dbc] [--no-auto-l1] [--no-rotate] [--cores N] [--[no-]verify-roundtrip] [--json]\n"
            "                    [--arg NAME=VALUE]... [--in NAME=file.npy]...\n"
            "  --arg NAME=VALUE    bind a parameter of the @pl.jit entry: a=128x128:fp32 (shape and dtype), n=64, eps=1e-5\n"
            "  --in NAME=F         bind the shape and dtype of parameter NAME from the header of the .npy file F\n"
            "                    [-D NAME=VALUE]...\n"
            "  -D NAME=VALUE       bind a builder parameter / local, a module constant or a pl.dynamic dim\n"
            "  -o DIR              write passes_dump/, ptoas/<kernel>.pto, orchestration/, report/ to DIR\n"
            "  --dump-passes DIR   write 00_frontend.py and NN_after_<Pass>.py to DIR\n"
            "  --json              print the compile report as one JSON object on stdout\n"
            "  --cores N           cube cores the automatic multi-core split may use (1 = no split; default all)\n");
}

int cli_compile(int argc, char **argv) {
    DrvOptions o;
    drv_options_defaults(&o);
    const char *prog = NULL, *out = NULL;
    bool json = false;
    CliBinds binds = {0};
    for (int i = 1; i < argc; i++) {
        int r = cli_common_option(argc, argv, &i, &o, &binds);
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
    bool ok = cli_apply_binds(s, &binds) && drv_load_file(s, path, entry) && drv_compile(s);
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
    CliBinds binds = {0};
    const char *prog = NULL;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) return printf("%s", PARSE_USAGE), 0;
        int r = !strcmp(argv[i], "--arg") || !strcmp(argv[i], "--in") || !strncmp(argv[i], "-D", 2)
                    ? cli_common_option(argc, argv, &i, &o, &binds) : 0;
        if (r < 0) return 2;
        if (r) continue;
        if (argv[i][0] == '-' || prog) return fprintf(stderr, "ptoc parse: unexpected argument '%s'\n%s", argv[i], PARSE_USAGE), 2;
        prog = argv[i];
    }
    if (!prog) return fprintf(stderr, "%s", PARSE_USAGE), 2;
    char *path, *entry;
    cli_split_program(prog, &path, &entry);
    DrvSession *s = drv_new(&o);
    bool ok = cli_apply_binds(s, &binds) && drv_load_file(s, path, entry);
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
