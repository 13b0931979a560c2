/* main_run — `ptoc run file.py` without an entry name: runs the file's own `__main__` block
 * (spec/language.md §5.3 / §5.4, §8 decisions 2, 3, 6).
 *
 * Requires: front/main_block.h (the reader), driver/torch_eval.h (values and checks), the driver
 *           (one DrvSession per kernel call, loaded specialised with drv_load_file_bound).
 * Produces: the text report (every call's report indented, one line per check, the count of checks
 *           and the verdict OK / FAIL last) or one JSON object, and the diagnostics (notes for
 *           skipped statements, warnings for checks not evaluated) formatted gcc-style.
 * Does: executes the main block's statements in order: assignments are evaluated (constructors use
 *       ptoc's seeded generator), each kernel call is compiled for its arguments and run on the
 *       simulator with the main block's values as inputs (race check and interpreter comparison as
 *       in `ptoc run prog.py:entry`), its Out / InOut arguments are rebound to the simulated results,
 *       and each check is evaluated on them. Library code: never prints. */
#ifndef PTOC_DRIVER_MAIN_RUN_H
#define PTOC_DRIVER_MAIN_RUN_H

#include "driver/driver.h"
#include "front/front.h"

/* -1: the file has no main block with a kernel call (the caller falls back to the default entry);
 * 0: every call ran clean and every evaluated check passed; 1: failure (a call, a check, an error). */
int drv_main_run(const DrvOptions *o, const char *path, bool json, StrBuf *out, StrBuf *diags);

/* The binding of `entry` (NULL: the first kernel the block calls) from the main block's first call of
 * it, for a load without the main-block run (ptoc compile / parse, ptoc run file.py:NAME): only when
 * the kernel has an unshaped pl.Tensor parameter (or the file declares pl.dynamic dimensions) and
 * the block is readable up to that call. *args and
 * each name are malloc'd (drv_main_binding_free). Returns the number of arguments, 0 for none. */
int drv_main_binding(const DrvOptions *o, const char *path, const char *entry, FrontArg **args);
void drv_main_binding_free(FrontArg *args, int n);

#endif
