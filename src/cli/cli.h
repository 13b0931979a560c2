/* cli — one function per subcommand; each takes (argc, argv) with argv[0] the command name and
 * returns the process exit code (0 ok, 1 user error or failed check, 2 usage error). */
#ifndef PTOC_CLI_H
#define PTOC_CLI_H

int cli_tile(int argc, char **argv);      /* cmd_tile.c */
int cli_compile(int argc, char **argv);   /* cmd_compile.c */
int cli_run(int argc, char **argv);       /* cmd_run.c */

#endif
