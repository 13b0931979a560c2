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
/* --target, --memory-planner, --seed, --threads, --dbc, --no-pipeline-dbc, --[no-]verify-roundtrip: 1 consumed,
 * 0 not common, -1 usage error (printed). */
int cli_common_option(int argc, char **argv, int *i, DrvOptions *o);

#endif
