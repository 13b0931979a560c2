/* front — lexer and parser: DSL text -> IR, with source spans (spec/ir_and_passes.md §3, §4).
 *
 * Accepts both forms of the pl DSL:
 *   - the user form: @pl.jit functions (and helpers around them), pl.at scopes, pl.matmul, c[:] = x;
 *   - the printed form of every pass dump: @pl.program classes with @pl.function methods.
 * Ordinary Python around the DSL (imports, helper functions, torch code, if __name__ == ...) is
 * skipped. Errors are reported to c->diag with file:line:col spans; the parser never aborts on bad
 * input. */
#ifndef PTOC_FRONT_H
#define PTOC_FRONT_H

#include "ir/ir.h"

/* entry: the @pl.jit function to compile (NULL = the first one in the file); ignored for
 * @pl.program files. Returns NULL when any error was reported. */
Program *front_parse(IrCtx *c, const SrcFile *src, const char *entry);

#endif
