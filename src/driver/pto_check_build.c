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
                 "-Wall -Werror -Wno-unused-variable -Wno-unused-but-set-variable",
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

static const char *const REPLAY =
    "static bool ptoc_rd(FILE* f, void* p, size_t n) { return fread(p, 1, n, f) == n; }\n"
    "\n"
    "int main(int argc, char** argv) {\n"
    "    if (argc < 2) return 2;\n"
    "    FILE* f = fopen(argv[1], \"rb\");\n"
    "    if (!f) { printf(\"ERROR cannot open %s\\n\", argv[1]); return 2; }\n"
    "    NPU_MEMORY_INIT(PTOC_ARCH);\n"
    "    long rec = 0;\n"
    "    uint32_t magic;\n"
    "    while (ptoc_rd(f, &magic, 4)) {\n"
    "        int32_t ki, np;\n"
    "        int64_t head[3];\n"
    "        if (magic != 0x52435450u || !ptoc_rd(f, &ki, 4) || !ptoc_rd(f, head, sizeof head) || !ptoc_rd(f, &np, 4) ||\n"
    "            ki < 0 || ki >= (int32_t)(sizeof ptoc_entries / sizeof ptoc_entries[0]) || np < 0 || np > 48) {\n"
    "            printf(\"ERROR bad record %ld\\n\", rec);\n"
    "            return 2;\n"
    "        }\n"
    "        std::vector<std::vector<unsigned char>> bufs((size_t)np);\n"
    "        std::vector<int32_t> tensor((size_t)np), esize((size_t)np);\n"
    "        std::vector<int64_t> bytes((size_t)np);\n"
    "        std::vector<PtocTensorDesc> desc((size_t)np);\n"
    "        int64_t args[64] = {0};\n"
    "        int nt = 0, ns = 0;\n"
    "        for (int j = 0; j < np; j++) {\n"
    "            if (!ptoc_rd(f, &tensor[j], 4) || !ptoc_rd(f, &esize[j], 4) || !ptoc_rd(f, &bytes[j], 8)) return 2;\n"
    "            bufs[j].assign((size_t)bytes[j] + 256, 0);\n"
    "            if (!ptoc_rd(f, bufs[j].data(), (size_t)bytes[j])) return 2;\n"
    "            nt += tensor[j] != 0;\n"
    "        }\n"
    "        for (int j = 0, t = 0; j < np; j++) {\n"
    "            if (tensor[j]) {\n"
    "                desc[j] = PtocTensorDesc{(uint64_t)(uintptr_t)bufs[j].data(), (uint64_t)bytes[j], ~0ull, 0};\n"
    "                args[t++] = (int64_t)(uintptr_t)&desc[j];\n"
    "            } else {\n"
    "                std::memcpy(&args[nt + ns++], bufs[j].data(), 8);\n"
    "            }\n"
    "        }\n"
    "        PtocLocalCtx lc{head[0], head[1]};\n"
    "        PtocGlobalCtx gc{head[2]};\n"
    "        args[48] = (int64_t)(uintptr_t)&lc;\n"
    "        args[49] = (int64_t)(uintptr_t)&gc;\n"
    "        ptoc_entries[ki](args);\n"
    "        for (int j = 0; j < np; j++) {\n"
    "            if (!tensor[j]) continue;\n"
    "            std::vector<unsigned char> want((size_t)bytes[j]);\n"
    "            if (!ptoc_rd(f, want.data(), want.size())) return 2;\n"
    "            for (int64_t b = 0; b < bytes[j]; b++) {\n"
    "                if (want[(size_t)b] == bufs[j][(size_t)b]) continue;\n"
    "                int64_t e = b / esize[j];\n"
    "                printf(\"MISMATCH %ld %d %d %lld %lld \", rec, ki, j, (long long)e, (long long)head[0]);\n"
    "                for (int q = esize[j] - 1; q >= 0; q--) printf(\"%02x\", bufs[j][(size_t)(e * esize[j] + q)]);\n"
    "                printf(\" \");\n"
    "                for (int q = esize[j] - 1; q >= 0; q--) printf(\"%02x\", want[(size_t)(e * esize[j] + q)]);\n"
    "                printf(\"\\n\");\n"
    "                return 1;\n"
    "            }\n"
    "        }\n"
    "        rec++;\n"
    "    }\n"
    "    printf(\"MATCH %ld\\n\", rec);\n"
    "    return 0;\n"
    "}\n";

static void harness(const DrvSession *s, StrBuf *o) {
    sb_puts(o, "// ptoc --check-pto-isa host harness (generated; pto_check_build.c)\n");
    for (int i = 0; i < s->kernels.len; i++)
        sb_printf(o, "#define kernel_entry ptoc_entry_%d\n#include \"k%d.cpp\"\n#undef kernel_entry\n", i, i);
    sb_printf(o, "#include <cstdio>\n#include <vector>\n\n#define PTOC_ARCH NPUArch::%s\n",
              strcmp(s->opt.target->name, "a5") ? "A2A3" : "A5");
    sb_puts(o, "typedef void (*PtocEntry)(int64_t*);\nstatic PtocEntry ptoc_entries[] = {");
    for (int i = 0; i < s->kernels.len; i++) sb_printf(o, "%sptoc_entry_%d", i ? ", " : "", i);
    sb_puts(o, "};\n\n");
    sb_puts(o, REPLAY);
}

/* Builds CACHE/build-<key>/harness when missing; returns its path (malloc'd) or NULL. */
static char *build(DrvSession *s, const char *dir, const char *cache, StrBuf *msg) {
    StrBuf fl = {0}, h = {0}, key = {0}, p = {0};
    flags(s, dir, &fl);
    harness(s, &h);
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

/* "MISMATCH rec kernel param elem block got want" as a message naming kernel, tensor and index */
static void mismatch(const DrvSession *s, const char *line, StrBuf *msg) {
    long rec;
    int ki, pj;
    long long e, blk;
    char got[40], want[40];
    if (sscanf(line, "MISMATCH %ld %d %d %lld %lld %39s %39s", &rec, &ki, &pj, &e, &blk, got, want) != 7 || ki < 0 ||
        ki >= s->kernels.len || pj < 0 || pj >= s->kernels.data[ki].k->nparams) {
        sb_printf(msg, "pto-isa differs: %s", line);
        return;
    }
    const Kernel *k = s->kernels.data[ki].k;
    const MirParam *p = &k->params[pj];
    int64_t rows, cols;
    mir_param_matrix(p, &rows, &cols);
    sb_printf(msg, "pto-isa differs: kernel %s (call %ld, block %lld), tensor %s (%s), element %lld", k->name, rec + 1, blk,
              p->name, dtype_name(p->dtype), e);
    if (p->layout != MIR_LAYOUT_NZ && cols > 0) sb_printf(msg, " = [%lld, %lld]", e / cols, e % cols);
    sb_printf(msg, ": pto-isa 0x%s, ptoc 0x%s", got, want);
}

int pto_check_replay(DrvSession *s, const char *dir, const char *cache, const char *data, int nrecords, StrBuf *msg) {
    double t0 = base_now_seconds();
    char *bin = build(s, dir, cache, msg);
    if (!bin) return 0;
    StrBuf cmd = {0};
    sb_printf(&cmd, "'%s' '%s'", bin, data);
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
            mismatch(s, line, msg);
        }
    }
    int rc = f ? pclose(f) : -1;
    if (!done) sb_printf(msg, "the pto-isa harness failed (status %d): %s", rc, line[0] ? line : "no output");
    sb_free(&cmd);
    free(bin);
    return result;
}
