/* cli — one function per subcommand; each takes (argc, argv) with argv[0] the command name and
 * returns the process exit code (0 ok, 1 user error or failed check, 2 usage error). */
#ifndef PTOC_CLI_H
#define PTOC_CLI_H

int cli_tile(int argc, char **argv);      /* cmd_tile.c */
int cli_compile(int argc, char **argv);   /* cmd_compile.c */
int cli_run(int argc, char **argv);       /* cmd_run.c */
int cli_parse(int argc, char **argv);     /* cmd_compile.c */

/* Shared by compile and run (cmd_compile.c). */
#include "driver/driver.h"
/* "prog.py:entry" -> path, entry (NULL when absent); both malloc'd. */
void cli_split_program(const char *arg, char **path, char **entry);
/* Prints the session's diagnostics gcc-style to stderr (perf hints only when perf). */
void cli_print_diags(DrvSession *s, bool perf);
/* The specialisation options of parse / compile / run: --arg NAME=VALUE and --in NAME=file.npy
 * (argv strings, checked when read). */
#define CLI_MAX_BINDS 64
typedef struct CliBinds {
    const char *args[CLI_MAX_BINDS]; int nargs;         /* "a=128x128:fp32" */
    const char *ins[CLI_MAX_BINDS]; int nins;           /* "a=file.npy" */
} CliBinds;
/* --target, --memory-planner, --seed, --threads, --dbc, --no-pipeline-dbc, --[no-]verify-roundtrip,
 * --arg, --in: 1 consumed, 0 not common, -1 usage error (printed). */
int cli_common_option(int argc, char **argv, int *i, DrvOptions *o, CliBinds *b);
/* Before drv_load_file: --arg values and --in shapes into the session (false: diagnostics). */
bool cli_apply_binds(DrvSession *s, const CliBinds *b);
/* After loading (ptoc run): --in files as the inputs' data (drv_bind_file). */
bool cli_bind_inputs(DrvSession *s, const CliBinds *b);

#endif
