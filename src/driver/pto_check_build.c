/* pto_check_build — the host harness of --check-pto-isa: generated, built with a cached precompiled
 * pto-isa header, run over the recorded kernel calls (pto_check.c describes the records).
 *
 * Requires: the pto-isa checkout DIR, a C++20 compiler ($CXX, default g++), the cache root.
 * Produces: 1 (every record bit-identical), 0 (the first differing element, by kernel, tensor and
 *           index, in msg; or the emitted C++ does not build / the harness fails: a defect too).
 * Does:     CACHE/pch-<key>/ptoc_pch.hpp(.gch): <cstdint> (the `-include cstdint` of the reference
 *           compile line, inside the header because a precompiled header must come first) and <pto/pto-inst.hpp> precompiled once per
 *           (compiler, flags, DIR, header mtime); CACHE/build-<key>/ holds k<N>.cpp (each kernel's C++),
 *           harness.cpp (includes them with kernel_entry renamed, and the generic replay loop) and the
 *           binary, keyed by a hash of all that text and the flags, so a rerun of the same program
 *           only runs the binary. The kernels are compiled with -Wall -Werror: the emitted C++ must be
 *           warning-free. pto-isa's headers are -isystem (their own warnings are not ours).
 */
#include "driver/pto_check.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static uint64_t fnv(uint64_t h, const char *s) {
    for (; *s; s++) h = (h ^ (unsigned char)*s) * 0x100000001b3ull;
    return h;
}

static const char *cxx(void) {
    const char *c = getenv("CXX");
    return c && *c ? c : "g++";
}

static void flags(const DrvSession *s, const char *dir, StrBuf *o) {
    sb_printf(o, "-std=c++20 -O1 -D__CPU_SIM -DTCOLREDUCEIDX_CPU_HPP -isystem '%s/include' "
                 "-Wall -Werror",
              dir);
}

/* Runs `cmd` with its output in `log`; true on exit status 0. */
static bool sh(const char *cmd, const char *log) {
    StrBuf c = {0};
    sb_printf(&c, "( %s ) > '%s' 2>&1", cmd, log);
    int rc = system(sb_cstr(&c));
    sb_free(&c);
    return rc == 0;
}

/* The first lines of a log for a message. */
static void log_head(const char *log, StrBuf *msg) {
    size_t n;
    char *t = base_read_file(log, &n);
    if (!t) return;
    int lines = 0;
    for (char *p = t; *p && lines < 12; p++) {
        sb_putc(msg, *p);
        if (*p == '\n') lines++;
    }
    free(t);
}

/* CACHE/pch-<key>/ptoc_pch.hpp with its .gch; returns the directory (malloc'd) or NULL. */
static char *pch(const DrvSession *s, const char *dir, const char *cache, const char *fl, StrBuf *msg) {
    StrBuf p = {0}, key = {0};
    struct stat st;
    sb_printf(&p, "%s/include/pto/pto-inst.hpp", dir);
    long long mt = stat(sb_cstr(&p), &st) == 0 ? (long long)st.st_mtime : 0;
    sb_printf(&key, "%s|%s|%s|%lld", cxx(), fl, dir, mt);
    p.len = 0;
    sb_printf(&p, "%s/pch-%016llx", cache, (unsigned long long)fnv(0xcbf29ce484222325ull, sb_cstr(&key)));
    char *d = sb_take(&p);
    sb_printf(&p, "%s/ptoc_pch.hpp.gch", d);
    if (access(sb_cstr(&p), R_OK) == 0) { sb_free(&p), sb_free(&key); return d; }
    base_mkdir_p(d);
    StrBuf h = {0}, cmd = {0}, log = {0}, tmp = {0};
    sb_printf(&h, "%s/ptoc_pch.hpp", d);
    const char *text = "#include <cstdint>\n#include <pto/pto-inst.hpp>\n#include <cmath>\n#include <cstdio>\n#include <cstdlib>\n#include <cstring>\n#include <vector>\n";
    base_write_file(sb_cstr(&h), text, strlen(text));
    sb_printf(&tmp, "%s.%ld", sb_cstr(&p), (long)getpid());
    sb_printf(&log, "%s/pch.log", d);
    sb_printf(&cmd, "%s %s -x c++-header '%s' -o '%s' && mv -f '%s' '%s'", cxx(), fl, sb_cstr(&h), sb_cstr(&tmp), sb_cstr(&tmp), sb_cstr(&p));
    bool ok = sh(sb_cstr(&cmd), sb_cstr(&log));
    if (!ok) {
        sb_printf(msg, "precompiling pto-inst.hpp failed (%s):\n", sb_cstr(&log));
        log_head(sb_cstr(&log), msg);
        free(d);
        d = NULL;
    }
    sb_free(&h), sb_free(&cmd), sb_free(&log), sb_free(&tmp), sb_free(&p), sb_free(&key);
    return d;
}

/* Builds CACHE/build-<key>/harness when missing; returns its path (malloc'd) or NULL. */
static char *build(DrvSession *s, const char *dir, const char *cache, StrBuf *msg) {
    StrBuf fl = {0}, h = {0}, key = {0}, p = {0};
    flags(s, dir, &fl);
    pto_check_harness(s, &h);
    sb_printf(&key, "%s|%s|%s", cxx(), sb_cstr(&fl), sb_cstr(&h));
    uint64_t hash = fnv(0xcbf29ce484222325ull, sb_cstr(&key));
    for (int i = 0; i < s->kernels.len; i++) hash = fnv(hash, s->kernels.data[i].cpp);
    sb_printf(&p, "%s/build-%016llx", cache, (unsigned long long)hash);
    char *bd = sb_take(&p), *bin = NULL;
    sb_printf(&p, "%s/harness", bd);
    if (access(sb_cstr(&p), X_OK) == 0) { bin = sb_take(&p); goto done; }
    char *pd = pch(s, dir, cache, sb_cstr(&fl), msg);
    if (!pd) goto done;
    base_mkdir_p(bd);
    for (int i = 0; i < s->kernels.len; i++) {
        StrBuf kp = {0};
        sb_printf(&kp, "%s/k%d.cpp", bd, i);
        base_write_file(sb_cstr(&kp), s->kernels.data[i].cpp, strlen(s->kernels.data[i].cpp));
        sb_free(&kp);
    }
    StrBuf hp = {0}, cmd = {0}, log = {0}, tmp = {0};
    sb_printf(&hp, "%s/harness.cpp", bd);
    base_write_file(sb_cstr(&hp), h.data, h.len);
    sb_printf(&tmp, "%s.%ld", sb_cstr(&p), (long)getpid());
    sb_printf(&log, "%s/build.log", bd);
    sb_printf(&cmd, "%s %s -I'%s' -include ptoc_pch.hpp -Winvalid-pch '%s' -o '%s' && mv -f '%s' '%s'", cxx(), sb_cstr(&fl), pd,
              sb_cstr(&hp), sb_cstr(&tmp), sb_cstr(&tmp), sb_cstr(&p));
    if (sh(sb_cstr(&cmd), sb_cstr(&log))) bin = sb_take(&p);
    else {
        sb_printf(msg, "building the harness failed (%s):\n", sb_cstr(&log));
        log_head(sb_cstr(&log), msg);
    }
    sb_free(&hp), sb_free(&cmd), sb_free(&log), sb_free(&tmp);
    free(pd);
done:
    sb_free(&fl), sb_free(&h), sb_free(&key), sb_free(&p);
    free(bd);
    return bin;
}

int pto_check_defer(DrvSession *s, const char *defer, const char *data, StrBuf *msg) {
    StrBuf id = {0}, d = {0}, t = {0};
    pto_check_id(s->path ? s->path : "prog", &id);
    sb_printf(&id, "_%ld", (long)getpid());
    sb_printf(&d, "%s/%s", defer, sb_cstr(&id));
    bool ok = base_mkdir_p(sb_cstr(&d));
    for (int i = 0; ok && i < s->kernels.len; i++) {
        t.len = 0;
        sb_printf(&t, "%s/k%d.cpp", sb_cstr(&d), i);
        ok = base_write_file(sb_cstr(&t), s->kernels.data[i].cpp, strlen(s->kernels.data[i].cpp));
    }
    StrBuf part = {0}, row = {0};
    pto_check_part(s, sb_cstr(&id), sb_cstr(&d), &part);
    pto_check_row(s, sb_cstr(&id), &row);
    const char *files[4][2] = { { "part.cpp", part.data }, { "row.txt", row.data }, { "../head.inc", PTO_CHECK_HEAD },
                                { "../main.inc", PTO_CHECK_MAIN } };
    for (int f = 0; ok && f < 4; f++) {
        t.len = 0;
        sb_printf(&t, "%s/%s", sb_cstr(&d), files[f][0]);
        ok = base_write_file(sb_cstr(&t), files[f][1], strlen(files[f][1]));
    }
    t.len = 0;
    sb_printf(&t, "%s/records.bin", sb_cstr(&d));
    ok = ok && rename(data, sb_cstr(&t)) == 0;
    if (ok) sb_printf(msg, "deferred: %s", sb_cstr(&id));
    else sb_printf(msg, "unchecked: cannot write the deferred check to '%s': %s", sb_cstr(&d), strerror(errno));
    sb_free(&id), sb_free(&d), sb_free(&t), sb_free(&part), sb_free(&row);
    return -1;
}

int pto_check_replay(DrvSession *s, const char *dir, const char *cache, const char *data, int nrecords, StrBuf *msg) {
    double t0 = base_now_seconds();
    char *bin = build(s, dir, cache, msg);
    if (!bin) return 0;
    StrBuf cmd = {0};
    sb_printf(&cmd, "'%s' p '%s'", bin, data);
    FILE *f = popen(sb_cstr(&cmd), "r");
    char line[512] = {0};
    int result = 0;
    bool done = false;
    if (f && fgets(line, sizeof line, f)) {
        line[strcspn(line, "\n")] = 0;
        if (!strncmp(line, "MATCH", 5)) {
            result = 1, done = true;
            sb_printf(msg, "bit-identical: %d kernel calls replayed through pto-isa's CPU simulation (%.1f s)", nrecords,
                      base_now_seconds() - t0);
        } else if (!strncmp(line, "MISMATCH", 8)) {
            done = true;
            sb_printf(msg, "pto-isa differs: %s", line + 9);
        }
    }
    int rc = f ? pclose(f) : -1;
    if (!done) sb_printf(msg, "the pto-isa harness failed (status %d): %s", rc, line[0] ? line : "no output");
    sb_free(&cmd);
    free(bin);
    return result;
}
