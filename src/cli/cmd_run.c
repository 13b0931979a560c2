/* ptoc run — compile a program, run it on the simulator under the runtime with seeded random
 * inputs, compare with the reference interpreter, report.
 *
 *   ptoc run prog.py[:entry] [--target a2a3|a5] [--seed N] [--json] [--keep DIR] [--no-race-check]
 *            [--memory-planner pypto|dsa_rp|ptoas] [--dbc] [--no-pipeline-dbc] [--no-auto-l1] [--no-rotate] [--threads N] [--cores N]
 *            [--[no-]verify-roundtrip] [--in NAME=file.npy]... [--out NAME=file.npy]... [--arg NAME=VALUE]... [--timing-only]
 * --timing-only: the same simulation without data (docs/sim.md); the verdict line says no data was computed.
 * Exit 0 only when the outputs are within tolerance and no race or sync error was found; 1 on any
 * error or failed check; 2 on a usage error. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "driver/driver.h"
#include "driver/main_run.h"

static void run_usage(FILE *f) {
    fprintf(f,
            "usage: ptoc run prog.py[:entry] [--target a2a3|a5] [--seed N] [--json] [--keep DIR] [--no-race-check] [--timing-only]\n"
            "                [--check-pto-isa DIR] [--memory-planner pypto|dsa_rp|ptoas] [--dbc] [--no-pipeline-dbc] [--no-auto-l1] [--no-rotate] [--threads N] [--cores N]\n"
            "                [--[no-]verify-roundtrip]\n"
            "                [--in NAME=file.npy]... [--out NAME=file.npy]... [--arg NAME=VALUE]... [-D NAME=VALUE]...\n"
            "  -D NAME=VALUE   bind a builder parameter / local, a module constant or a pl.dynamic dim\n"
            "  --json          print exactly one JSON object on stdout (see docs/cli.md)\n"
            "  --keep DIR      write the output tree (passes_dump/, ptoas/, report/, run/deps.json) to DIR\n"
            "  --seed N        seed of the random inputs (default 1)\n"
            "  --no-race-check do not run the simulator's race detector\n"
            "  --check-pto-isa DIR  also run every kernel's PTO-ISA C++ through pto-isa's CPU simulation (headers in\n"
            "                  DIR/include) and compare with ptoc's simulator bit for bit (docs/backend.md)\n"
            "  --timing-only   simulate timing only: no data moved or computed, no golden run or comparison\n"
            "  --threads N     host threads simulating kernels (default 1, 0 = one per CPU); results never change\n"
            "  --cores N       cube cores the automatic multi-core split may use (1 = no split; default all)\n"
            "  --in NAME=F     read input parameter NAME from the .npy file F instead of random values (an unshaped\n"
            "                  pl.Tensor parameter takes the file's shape and dtype)\n"
            "  --arg NAME=V    bind a parameter of the @pl.jit entry: a=128x128:fp32 (shape and dtype), n=64, eps=1e-5\n"
            "  --out NAME=F    write output parameter NAME (simulated result) to the .npy file F\n");
}

static void emit(DrvSession *s, bool json, bool compiled) {
    StrBuf sb = {0};
    if (json) {
        if (compiled) drv_report_json(s, &sb);
        else drv_error_json(s, &sb);
        sb_putc(&sb, '\n');
    } else if (compiled) {
        drv_report_text(s, &sb);
    }
    fputs(sb_cstr(&sb), stdout);
    sb_free(&sb);
}

/* The file has an `if __name__ == "__main__":` block (a textual look: only for the --timing-only note). */
static bool has_main_block(const char *path) {
    size_t len;
    char *text = base_read_file_max(path, (size_t)16 << 20, &len);
    bool found = text && strstr(text, "__main__") != NULL;
    free(text);
    return found;
}

/* --out NAME=FILE, bound after the program is loaded (--in: cli_common_option, cli_bind_inputs). */
static bool bind_outputs(DrvSession *s, const char **outs, int n) {
    for (int i = 0; i < n; i++) {
        const char *eq = strchr(outs[i], '=');
        char name[256];
        snprintf(name, sizeof name, "%.*s", (int)(eq - outs[i]), outs[i]);
        if (!drv_bind_file(s, name, eq + 1, true)) return false;
    }
    return true;
}

int cli_run(int argc, char **argv) {
    DrvOptions o;
    drv_options_defaults(&o);
    const char *prog = NULL, *keep = NULL;
    bool json = false;
    CliBinds binds = {0};
    const char *outs[64];
    int nouts = 0;
    for (int i = 1; i < argc; i++) {
        int r = cli_common_option(argc, argv, &i, &o, &binds);
        if (r < 0) return 2;
        if (r) continue;
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) return run_usage(stdout), 0;
        if (!strcmp(argv[i], "--out") && i + 1 < argc) {
            const char *eq = strchr(argv[i + 1], '=');
            if (!eq || eq == argv[i + 1] || !eq[1] || nouts == 64)
                return fprintf(stderr, "ptoc run: %s expects NAME=file.npy, got '%s'\n", argv[i], argv[i + 1]), 2;
            outs[nouts++] = argv[i + 1];
            i++;
        } else if (!strcmp(argv[i], "--keep") && i + 1 < argc) keep = argv[++i];
        else if (!strcmp(argv[i], "--json")) json = true;
        else if (!strcmp(argv[i], "--no-race-check")) o.race_check = false;
        else if (!strcmp(argv[i], "--timing-only")) o.timing_only = true;
        else if (!strcmp(argv[i], "--check-pto-isa") && i + 1 < argc) o.check_pto_isa = argv[++i];
        else if (argv[i][0] == '-' || prog) return fprintf(stderr, "ptoc run: unexpected argument '%s'\n", argv[i]), run_usage(stderr), 2;
        else prog = argv[i];
    }
    if (!prog) return run_usage(stderr), 2;
    if (o.timing_only && (binds.nins || nouts))
        return fprintf(stderr, "ptoc run: --timing-only moves and computes no data, so --in / --out cannot be used with it "
                               "(bind a parameter's shape with --arg NAME=RxC:dtype)\n"), 2;
    if (keep) o.capture_deps = true;
    char *path, *entry;
    cli_split_program(prog, &path, &entry);
    if (!entry && o.timing_only && has_main_block(path))   /* the block's checks need data */
        fprintf(stderr, "note: --timing-only does not run the file's __main__ block (its calls and checks need data); "
                        "running the default entry\n");
    if (!entry && !o.timing_only && !keep && !o.check_pto_isa && binds.nargs == 0 && binds.nins == 0 && nouts == 0) {   /* no NAME: the file's own __main__ block (docs/cli.md) */
        StrBuf out = {0}, diags = {0};
        int rc = drv_main_run(&o, path, json, &out, &diags);
        fputs(sb_cstr(&diags), stderr);
        fputs(sb_cstr(&out), stdout);
        sb_free(&out), sb_free(&diags);
        if (rc >= 0) return free(path), free(entry), rc;
    }
    DrvSession *s = drv_new(&o);
    if (keep) drv_output_prepare(s, keep);
    bool compiled = cli_apply_binds(s, &binds) && drv_load_file(s, path, entry) && cli_bind_inputs(s, &binds) &&
                    bind_outputs(s, outs, nouts) && drv_compile(s);
    bool ok = compiled && drv_run_random(s) && drv_run_ok(s);
    if (keep && compiled && !drv_write_outputs(s, keep)) ok = false;
    cli_print_diags(s, !json);          /* perf hints on stderr with their source lines */
    emit(s, json, compiled);
    if (compiled && !json && !drv_run_stats(s)->ran) puts("FAIL");
    drv_free(s);
    free(path);
    free(entry);
    return ok ? 0 : 1;
}
