/* test_fuzz_replay — replays every committed libFuzzer reproducer (every file in tests/fuzz/regress/) through the
 * fuzz harness (tests/fuzz/fuzz_compile.c, built here by gcc without libFuzzer): each must load,
 * compile and (when small) run without an internal error; the sanitizers of `make test SAN=1` catch
 * the memory errors the fuzzer found. */
#include "test.h"

#include <dirent.h>
#include <stdlib.h>

#define FUZZ_NO_MAIN
#include "../fuzz/fuzz_compile.c"

static int by_name(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

TEST(test_replay_reproducers) {
    const char *dir = "tests/fuzz/regress";
    DIR *d = opendir(dir);
    CHECK_MSG(d != NULL, "cannot open %s (run from the repository root)", dir);
    if (!d) return;
    VEC(char *) names = { 0 };
    for (struct dirent *e; (e = readdir(d));)
        if (e->d_name[0] != '.') vec_push(&names, strdup(e->d_name));
    closedir(d);
    qsort(names.data, (size_t)names.len, sizeof(char *), by_name);
    CHECK_MSG(names.len > 0, "no reproducers in %s", dir);
    static char why[8192];
    for (int i = 0; i < names.len; i++) {
        char path[512];
        snprintf(path, sizeof path, "%s/%s", dir, names.data[i]);
        size_t len = 0;
        char *data = base_read_file(path, &len);
        CHECK_MSG(data != NULL, "cannot read %s", path);
        if (data) {
            why[0] = 0;
            FuzzVerdict v = fuzz_one((const uint8_t *)data, len, true, why, sizeof why);
            CHECK_MSG(v == FUZZ_OK, "%s: %s", path, why);
        }
        free(data);
        free(names.data[i]);
    }
    vec_free(&names);
}

int main(void) {
    RUN(test_replay_reproducers);
    return test_summary();
}
