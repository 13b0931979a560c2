/* pto_check_harness — the text of the --check-pto-isa host harness (pto_check.c has the record format).
 *
 * Requires: a compiled session (its kernels' C++). Produces: C++ text in three pieces, so that one
 *           binary can hold one program (ptoc run --check-pto-isa) or a batch of many
 *           (tests/pto_isa/run.sh concatenates the pieces ptoc wrote under PTOC_PTO_CHECK_DEFER):
 *   head  — includes and the PtocEntry type;
 *   part  — one program: its kernels' C++ inside `namespace ptoc_p_<id>` (kernel_entry renamed per
 *           kernel, the prelude guard reset once so each program's namespace has its own helpers), the table of its
 *           entries, kernel names, parameter names and matrix widths (for the message);
 *   row   — its line of the program table;
 *   main  — the replay loop: `harness <id> <records>` replays the program's records and prints
 *           "MATCH n" or "MISMATCH kernel …, tensor …, element …: pto-isa 0x…, ptoc 0x…".
 */
#include "driver/pto_check.h"

#include <ctype.h>
#include <string.h>

const char *const PTO_CHECK_HEAD =
    "// ptoc --check-pto-isa host harness (generated; src/driver/pto_check_harness.c)\n"
    "#include <atomic>\n#include <chrono>\n#include <ctime>\n#include <cstdio>\n#include <cstdlib>\n#include <cstring>\n#include <map>\n"
    "#include <mutex>\n#include <thread>\n#include <unistd.h>\n#include <vector>\n\n"
    "using namespace pto;\n"
    "typedef void (*PtocEntry)(int64_t*);\n"
    "struct PtocProgram {\n"
    "    const char* id; int a5; PtocEntry* entries; int n; const char* const* knames;\n"
    "    const char* const* const* pnames; const long long* const* pcols; const int* klane;  /* -1 AIC, else the AIV lane */\n"
    "};\n"
    "/* the runtime's argument layout as the kernels' prelude reads it (spec/runtime.md §11) */\n"
    "struct PtocHostTensor { uint64_t addr, size, owner, start_offset; };\n"
    "struct PtocHostLocal { int64_t block_idx, block_num; };\n"
    "struct PtocHostGlobal { int64_t sub_block_id; };\n"
    "/* A mixed task's cluster: pto-isa's cross-core pipes (pto/cpu/TPush.hpp) are blocking rings shared by\n"
    " * the cluster's threads, looked up through the shared-state hook by the pipe's template key; the\n"
    " * harness gives every cluster block fresh (zeroed) states and a fresh GM ring per direction (a2a3). */\n"
    "static std::mutex ptoc_xmu;\n"
    "static std::map<uint64_t, void*> ptoc_xstate;\n"
    "static std::vector<unsigned char> ptoc_xring[2];\n"
    "static void* ptoc_pipe_state(uint64_t key, size_t size) {\n"
    "    std::lock_guard<std::mutex> g(ptoc_xmu);\n"
    "    void*& p = ptoc_xstate[key];\n"
    "    if (!p) { p = aligned_alloc(64, (size + 63) / 64 * 64); std::memset(p, 0, (size + 63) / 64 * 64); }\n"
    "    return p;\n"
    "}\n"
    "extern \"C\" void* ptoc_cpu_gm_pipe_buffer(int dir) { return ptoc_xring[dir & 1].data(); }\n"
    "static void ptoc_cluster_reset() {\n"
    "    for (auto& kv : ptoc_xstate) free(kv.second);\n"
    "    ptoc_xstate.clear();\n"
    "    for (auto& r : ptoc_xring) r.assign((size_t)64 << 20, 0);\n"
    "}\n\n";

const char *const PTO_CHECK_MAIN =
    "static bool ptoc_rd(FILE* f, void* p, size_t n) { return fread(p, 1, n, f) == n; }\n"
    "\n"
    "/* one cluster block: every member kernel on its own thread (AIC sub-block 0, AIV its lane), as the\n"
    " * hardware runs them at once — a pop blocks until the other core's push */\n"
    "static bool ptoc_cluster(const PtocProgram& P, const int32_t* kis, int nm, const int64_t* args, const int64_t* head, long rec) {\n"
    "    ptoc_cluster_reset();\n"
    "    pto::cpu_sim::register_hooks(nullptr, (void*)&ptoc_pipe_state);\n"
    "    int naiv = 0;\n"
    "    for (int m = 0; m < nm; m++) naiv += P.klane[kis[m]] >= 0;\n"
    "    std::atomic<int> done{0};\n"
    "    std::vector<std::thread> th;\n"
    "    std::vector<std::vector<int64_t>> margs((size_t)nm, std::vector<int64_t>(args, args + 64));\n"
    "    std::vector<PtocHostGlobal> gcs((size_t)nm);\n"
    "    for (int m = 0; m < nm; m++) {\n"
    "        int lane = P.klane[kis[m]];\n"
    "        gcs[(size_t)m].sub_block_id = lane < 0 ? 0 : lane;\n"
    "        margs[(size_t)m][49] = (int64_t)(uintptr_t)&gcs[(size_t)m];\n"
    "        th.emplace_back([&, m, lane]() {\n"
    "            pto::cpu_sim::set_execution_context((uint32_t)head[0], (uint32_t)(lane < 0 ? 0 : lane), (uint32_t)(naiv > 1 ? naiv : 1));\n"
    "            pto::cpu_sim::set_task_cookie((uint64_t)rec + 1);\n"
    "            P.entries[kis[m]](margs[(size_t)m].data());\n"
    "            done++;\n"
    "        });\n"
    "    }\n"
    "    /* a deadlock: no thread uses CPU time for 10 s while a kernel is unfinished */\n"
    "    std::clock_t last = std::clock();\n"
    "    for (int idle = 0; done.load() < nm && idle < 1000;) {\n"
    "        std::this_thread::sleep_for(std::chrono::milliseconds(10));\n"
    "        std::clock_t now = std::clock();\n"
    "        idle = now - last < CLOCKS_PER_SEC / 1000 ? idle + 1 : 0;\n"
    "        last = now;\n"
    "    }\n"
    "    if (done.load() < nm) {\n"
    "        printf(\"MISMATCH mixed task (call %ld, block %lld): the cluster's kernels block forever under pto-isa's \"\n"
    "               \"cross-core pipes (%d of %d finished, no progress for 10 s), where ptoc's simulator completes\\n\",\n"
    "               rec + 1, (long long)head[0], done.load(), nm);\n"
    "        fflush(stdout);\n"
    "        _exit(1);\n"
    "    }\n"
    "    for (auto& t : th) t.join();\n"
    "    pto::cpu_sim::register_hooks(nullptr, nullptr);\n"
    "    return true;\n"
    "}\n"
    "\n"
    "static int ptoc_replay(const PtocProgram& P, FILE* f) {\n"
    "    NPU_MEMORY_INIT(P.a5 ? NPUArch::A5 : NPUArch::A2A3);\n"
    "    long rec = 0;\n"
    "    uint32_t magic;\n"
    "    while (ptoc_rd(f, &magic, 4)) {\n"
    "        int32_t ki, np, nm = 1, kis[8];\n"
    "        int64_t head[3];\n"
    "        bool grp = magic == 0x47435450u, bad = !grp && magic != 0x52435450u;\n"
    "        if (grp && (!ptoc_rd(f, &nm, 4) || nm < 2 || nm > 8)) bad = true;\n"
    "        for (int m = 0; !bad && m < nm; m++) bad = !ptoc_rd(f, &kis[m], 4) || kis[m] < 0 || kis[m] >= P.n;\n"
    "        ki = bad ? -1 : kis[0];\n"
    "        if (bad || !ptoc_rd(f, head, sizeof head) || !ptoc_rd(f, &np, 4) || np < 0 || np > 48) {\n"
    "            printf(\"ERROR bad record %ld\\n\", rec);\n"
    "            return 2;\n"
    "        }\n"
    "        std::vector<std::vector<unsigned char>> bufs((size_t)np);\n"
    "        std::vector<int32_t> tensor((size_t)np), esize((size_t)np);\n"
    "        std::vector<int64_t> bytes((size_t)np);\n"
    "        std::vector<PtocHostTensor> desc((size_t)np);\n"
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
    "                desc[j] = PtocHostTensor{(uint64_t)(uintptr_t)bufs[j].data(), (uint64_t)bytes[j], ~0ull, 0};\n"
    "                args[t++] = (int64_t)(uintptr_t)&desc[j];\n"
    "            } else {\n"
    "                std::memcpy(&args[nt + ns++], bufs[j].data(), 8);\n"
    "            }\n"
    "        }\n"
    "        PtocHostLocal lc{head[0], head[1]};\n"
    "        PtocHostGlobal gc{head[2]};\n"
    "        args[48] = (int64_t)(uintptr_t)&lc;\n"
    "        args[49] = (int64_t)(uintptr_t)&gc;\n"
    "        if (!grp) P.entries[ki](args);\n"
    "        else if (!ptoc_cluster(P, kis, nm, args, head, rec)) return 3;\n"
    "        for (int j = 0; j < np; j++) {\n"
    "            if (!tensor[j]) continue;\n"
    "            std::vector<unsigned char> want((size_t)bytes[j]);\n"
    "            if (!ptoc_rd(f, want.data(), want.size())) return 2;\n"
    "            for (int64_t b = 0; b < bytes[j]; b++) {\n"
    "                if (want[(size_t)b] == bufs[j][(size_t)b]) continue;\n"
    "                long long e = b / esize[j], cols = P.pcols[ki][j];\n"
    "                printf(\"MISMATCH kernel %s (call %ld, block %lld), tensor %s, element %lld\", P.knames[ki], rec + 1,\n"
    "                       (long long)head[0], P.pnames[ki][j], e);\n"
    "                if (cols > 0) printf(\" = [%lld, %lld]\", e / cols, e % cols);\n"
    "                printf(\": pto-isa 0x\");\n"
    "                for (int q = esize[j] - 1; q >= 0; q--) printf(\"%02x\", bufs[j][(size_t)(e * esize[j] + q)]);\n"
    "                printf(\", ptoc 0x\");\n"
    "                for (int q = esize[j] - 1; q >= 0; q--) printf(\"%02x\", want[(size_t)(e * esize[j] + q)]);\n"
    "                printf(\"\\n\");\n"
    "                return 1;\n"
    "            }\n"
    "        }\n"
    "        rec++;\n"
    "    }\n"
    "    printf(\"MATCH %ld\\n\", rec);\n"
    "    return 0;\n"
    "}\n"
    "\n"
    "int main(int argc, char** argv) {\n"
    "    if (argc < 3) { printf(\"ERROR usage: harness ID RECORDS\\n\"); return 2; }\n"
    "    for (const PtocProgram& P : ptoc_programs) {\n"
    "        if (std::strcmp(P.id, argv[1]) != 0) continue;\n"
    "        FILE* f = std::fopen(argv[2], \"rb\");\n"
    "        if (!f) { printf(\"ERROR cannot open %s\\n\", argv[2]); return 2; }\n"
    "        int rc = ptoc_replay(P, f);\n"
    "        std::fclose(f);\n"
    "        return rc;\n"
    "    }\n"
    "    printf(\"ERROR no program %s\\n\", argv[1]);\n"
    "    return 2;\n"
    "}\n";

/* an identifier from a path: letters, digits and '_' */
void pto_check_id(const char *s, StrBuf *o) {
    const char *b = strrchr(s, '/');
    for (const char *p = b ? b + 1 : s; *p && *p != '.'; p++) sb_putc(o, isalnum((unsigned char)*p) ? *p : '_');
}

/* The part of program `id`: its kernels (k<i>.cpp under kdir, "" = next to the harness). */
void pto_check_part(const DrvSession *s, const char *id, const char *kdir, StrBuf *o) {
    sb_printf(o, "namespace ptoc_p_%s {\n#undef PTOC_KERNEL_PRELUDE\n", id);
    for (int i = 0; i < s->kernels.len; i++)
        sb_printf(o, "#define kernel_entry ptoc_entry_%s_%d\n#include \"%s%sk%d.cpp\"\n#undef kernel_entry\n",
                  id, i, kdir, *kdir ? "/" : "", i);
    sb_printf(o, "}\nstatic PtocEntry ptoc_entries_%s[] = {", id);
    for (int i = 0; i < s->kernels.len; i++) sb_printf(o, "%sptoc_p_%s::ptoc_entry_%s_%d", i ? ", " : "", id, id, i);
    sb_printf(o, "};\nstatic const char* const ptoc_knames_%s[] = {", id);
    for (int i = 0; i < s->kernels.len; i++) sb_printf(o, "%s\"%s\"", i ? ", " : "", s->kernels.data[i].k->name);
    sb_puts(o, "};\n");
    for (int i = 0; i < s->kernels.len; i++) {
        const Kernel *k = s->kernels.data[i].k;
        sb_printf(o, "static const char* const ptoc_pnames_%s_%d[] = {\"\"", id, i);
        for (int j = 0; j < k->nparams; j++) sb_printf(o, ", \"%s\"", k->params[j].name);
        sb_printf(o, "};\nstatic const long long ptoc_pcols_%s_%d[] = {0", id, i);
        for (int j = 0; j < k->nparams; j++) {
            int64_t r, c;
            mir_param_matrix(&k->params[j], &r, &c);
            sb_printf(o, ", %lld", k->params[j].layout == MIR_LAYOUT_NZ ? 0LL : (long long)c);
        }
        sb_puts(o, "};\n");
    }
    /* tables indexed [kernel][param]; entry 0 of each row is a placeholder so no array is empty */
    sb_printf(o, "static const char* const* const ptoc_pnames_%s[] = {", id);
    for (int i = 0; i < s->kernels.len; i++) sb_printf(o, "%sptoc_pnames_%s_%d + 1", i ? ", " : "", id, i);
    sb_printf(o, "};\nstatic const long long* const ptoc_pcols_%s[] = {", id);
    for (int i = 0; i < s->kernels.len; i++) sb_printf(o, "%sptoc_pcols_%s_%d + 1", i ? ", " : "", id, i);
    sb_printf(o, "};\nstatic const int ptoc_klane_%s[] = {", id);
    for (int i = 0; i < s->kernels.len; i++) {
        const Kernel *k = s->kernels.data[i].k;
        sb_printf(o, "%s%d", i ? ", " : "", k->core == CORE_AIC ? -1 : k->lane);
    }
    sb_puts(o, "};\n\n");
}

void pto_check_row(const DrvSession *s, const char *id, StrBuf *o) {
    sb_printf(o, "    {\"%s\", %d, ptoc_entries_%s, %d, ptoc_knames_%s, ptoc_pnames_%s, ptoc_pcols_%s, ptoc_klane_%s},\n", id,
              !strcmp(s->opt.target->name, "a5"), id, s->kernels.len, id, id, id, id);
}

/* head + part + table + main for one program whose kernels sit next to the harness */
void pto_check_harness(const DrvSession *s, StrBuf *o) {
    sb_puts(o, PTO_CHECK_HEAD);
    pto_check_part(s, "p", "", o);
    sb_puts(o, "static const PtocProgram ptoc_programs[] = {\n");
    pto_check_row(s, "p", o);
    sb_puts(o, "};\n\n");
    sb_puts(o, PTO_CHECK_MAIN);
}
