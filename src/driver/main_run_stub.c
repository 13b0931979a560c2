/* main_run_stub — STUB (issue 9, branch main9): a weak stand-in for drv_load_file_bound, which the
 * jitbind9 helper adds to the driver. It ignores the binding, so only programs whose jit parameters
 * are shaped run through the main-block runner until the real function lands; the real (strong)
 * definition replaces this one at link time. Delete this file after the merge.
 *
 * Requires: drv_load_file. Produces: drv_load_file_bound (weak). */
#include "driver/main_run.h"

__attribute__((weak)) bool drv_load_file_bound(DrvSession *s, const char *path, const char *entry,
                                               const FrontBinding *binding) {
    (void)binding;
    return drv_load_file(s, path, entry);
}
