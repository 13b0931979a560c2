/* ptoc — the command: subcommand dispatch and exit codes. */
#include <stdio.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif
#include <string.h>

#include "cli/cli.h"

static const struct { const char *name; int (*fn)(int, char **); const char *help; } commands[] = {
    { "run", cli_run, "compile, run on the simulator and compare with the interpreter" },
    { "compile", cli_compile, "compile to the output tree (passes, .pto, reports) without running" },
    { "parse", cli_parse, "parse a program and print it in the printed IR form" },
    { "tile", cli_tile, "explain the L0 tile choice for a matmul" },
};

static void usage(FILE *f) {
    fprintf(f, "usage: ptoc <command> [args]\n\ncommands:\n");
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        fprintf(f, "  %-10s %s\n", commands[i].name, commands[i].help);
    fprintf(f, "\nSee docs/cli.md, or 'ptoc <command> --help'.\n");
}

int main(int argc, char **argv) {
#ifdef __GLIBC__
    /* Keep 64 MiB of freed heap instead of returning it at once: the interpreter, the staging of
     * tensor views and the simulator allocate and free arrays of a few MiB per op and per task, and
     * every page handed back is a page fault when the next array takes it again (a third of a
     * run's time on a virtualised host). Untouched pad costs no resident memory. */
    mallopt(M_TOP_PAD, 64 << 20);
#endif
    if (argc < 2 || strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
        usage(argc < 2 ? stderr : stdout);
        return argc < 2 ? 2 : 0;
    }
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        if (strcmp(argv[1], commands[i].name) == 0) return commands[i].fn(argc - 1, argv + 1);
    fprintf(stderr, "ptoc: unknown command '%s'\n", argv[1]);
    usage(stderr);
    return 2;
}
