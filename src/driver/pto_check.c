/* pto_check — `ptoc run --check-pto-isa DIR`: every kernel call of a run replayed through pto-isa's
 * own CPU simulation and compared with ptoc's simulator bit for bit.
 *
 * Requires: a compiled session whose kernels carry their PTO-ISA C++ (DrvKernel.cpp, back/emit_cpp.c);
 *           DIR = a pto-isa checkout (DIR/include/pto/pto-inst.hpp); g++ (or $CXX) with C++20.
 * Produces: DrvRunStats.pto_isa_match (1 match, 0 differs, -1 unchecked) and pto_isa_msg.
 * Does:     while the runtime runs, each kernel block is recorded (pto_check_pre / pto_check_post
 *           around sim_run): the bytes of every tensor argument before the block, its scalar slots, its
 *           block index / count, and the bytes of every tensor argument after ptoc's simulator ran it.
 *           After the run a generated host harness (pto_check_build.c) that includes every kernel's C++
 *           replays the records in order: it fills fresh GM buffers with the "before" bytes, calls the
 *           kernel's kernel_entry with the argument layout the runtime passes (descriptor pointers,
 *           scalar slots, contexts at args[48] / args[49]) and compares the buffers with the "after"
 *           bytes. Replaying per block makes each comparison independent of task order and of other
 *           tasks, and names the first differing element by kernel, tensor and index. Records stream to a
 *           file in the cache directory, so memory stays flat; a run whose records would pass
 *           PTO_CHECK_MAX_BYTES is reported unchecked. A mixed (cluster) task is recorded once per cluster
 *           block (pto_check_pre_group) and replayed with its kernels on concurrent threads. A kernel the emitter
 *           cannot spell makes the run unchecked, with the reason — never a match. A record is built
 *           without the session lock and written under it, so blocks on several host threads do not
 *           interleave records. Each tensor argument gets its own buffer in the replay: two
 *           arguments of one call aliasing the same memory are not modelled.
 */
#include "driver/pto_check.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define PTO_CHECK_MAX_BYTES ((uint64_t)2 << 30)

struct PtoCheck {
    char *dir;              /* the pto-isa checkout */
    char *cache;            /* cache root */
    char *data_path;        /* records of this run */
    FILE *data;
    uint64_t bytes;
    int nrecords;
    char *unchecked;        /* the first reason the run cannot be checked (malloc'd) */
    char *defect;           /* a kernel pto-isa cannot declare (back_print_cpp "ptoc defect: "): fails */
};

void pto_check_unchecked(PtoCheck *c, const char *fmt, ...) {
    if (!c || c->unchecked) return;
    StrBuf m = {0};
    va_list ap;
    va_start(ap, fmt);
    sb_vprintf(&m, fmt, ap);
    va_end(ap);
    c->unchecked = sb_take(&m);
}

const char *pto_check_cache_root(StrBuf *out) {
    const char *x = getenv("PTOC_CACHE_DIR");
    if (x && *x) sb_puts(out, x);
    else if ((x = getenv("XDG_CACHE_HOME")) && *x) sb_printf(out, "%s/ptoc", x);
    else if ((x = getenv("HOME")) && *x) sb_printf(out, "%s/.cache/ptoc", x);
    else sb_puts(out, "/tmp/ptoc-cache");
    return sb_cstr(out);
}

static bool uses_bf16(const Kernel *k) {
    for (int j = 0; j < k->nparams; j++)
        if (k->params[j].dtype == DT_BF16) return true;
    for (int j = 0; j < k->nbufs; j++)
        if (k->bufs[j].dtype == DT_BF16) return true;
    return false;
}

PtoCheck *pto_check_begin(DrvSession *s) {
    PtoCheck *c = calloc(1, sizeof *c);
    PTOC_ASSERT(c, "out of memory");
    c->dir = strdup(s->opt.check_pto_isa);
    StrBuf root = {0}, p = {0};
    pto_check_cache_root(&root);
    c->cache = sb_take(&root);
    PTOC_ASSERT(c->dir && c->cache, "out of memory");
    sb_printf(&p, "%s/include/pto/pto-inst.hpp", c->dir);
    if (access(sb_cstr(&p), R_OK) != 0) pto_check_unchecked(c, "no pto-isa headers: '%s' is not readable", sb_cstr(&p));
    p.len = 0;
    sb_printf(&p, "%s/runs", c->cache);
    if (!c->unchecked && !base_mkdir_p(sb_cstr(&p)))
        pto_check_unchecked(c, "cannot create the cache directory '%s': %s", sb_cstr(&p), strerror(errno));
    sb_printf(&p, "/data-%ld.bin", (long)getpid());
    c->data_path = sb_take(&p);
    if (!c->unchecked && !(c->data = fopen(c->data_path, "wb")))
        pto_check_unchecked(c, "cannot write '%s': %s", c->data_path, strerror(errno));
    drv_kernels_cpp(s);
    for (int i = 0; i < s->kernels.len && !c->defect; i++) {
        const char *w = s->kernels.data[i].cpp_why;
        if (w && !strncmp(w, "ptoc defect: ", 13)) c->defect = strdup(w);
    }
    for (int i = 0; i < s->kernels.len; i++)
        if (s->kernels.data[i].cpp_why) pto_check_unchecked(c, "%s", s->kernels.data[i].cpp_why);
    for (int i = 0; i < s->kernels.len; i++)
        if (uses_bf16(s->kernels.data[i].k))
            pto_check_unchecked(c, "kernel %s uses BF16: pto-isa's CPU simulation needs C++23 std::bfloat16_t (GCC >= 14) "
                                   "for it and aliases bfloat16_t to _Float16 otherwise", s->kernels.data[i].k->name);
    return c;
}

static int kernel_index(const DrvSession *s, const DrvKernel *dk) { return (int)(dk - s->kernels.data); }

static int64_t param_bytes(const MirParam *p) {
    int64_t n = dtype_bytes(p->dtype);
    for (int d = 0; d < p->rank; d++) n *= p->shape[d];
    return n;
}

static void put(StrBuf *b, const void *p, size_t n) { sb_putn(b, p, n); }

/* The tensor / scalar arguments of a record ("before" bytes). */
static void put_params(StrBuf *b, const RtKernelCall *call, const Kernel *k) {
    int32_t np = k->nparams;
    int64_t head[3] = { call->block_idx, call->block_num, k->lane };
    put(b, head, sizeof head), put(b, &np, 4);
    for (int j = 0; j < k->nparams; j++) {
        const MirParam *p = &k->params[j];
        int32_t tensor = p->is_tensor, esize = p->is_tensor ? dtype_bytes(p->dtype) : 8;
        int64_t n = p->is_tensor ? param_bytes(p) : 8;
        put(b, &tensor, 4), put(b, &esize, 4), put(b, &n, 8);
        put(b, call->params[j], (size_t)n);
    }
}

/* false (and the run unchecked) when the kernel has no C++ */
static bool has_cpp(DrvSession *s, const DrvKernel *dk) {
    if (!dk->cpp_why) return true;
    pthread_mutex_lock(&s->lock);
    pto_check_unchecked(s->ptocheck, "%s", dk->cpp_why);
    pthread_mutex_unlock(&s->lock);
    return false;
}

/* The record head and the "before" bytes; NULL when nothing is recorded. */
StrBuf *pto_check_pre(DrvSession *s, const RtKernelCall *call, const DrvKernel *dk) {
    PtoCheck *c = s->ptocheck;
    if (!c || c->unchecked || !has_cpp(s, dk)) return NULL;
    StrBuf *b = calloc(1, sizeof *b);
    PTOC_ASSERT(b, "out of memory");
    uint32_t magic = 0x52435450u;   /* "PTCR" */
    int32_t ki = kernel_index(s, dk);
    put(b, &magic, 4), put(b, &ki, 4);
    put_params(b, call, dk->k);
    return b;
}

/* A cluster block of a mixed task: "PTCG", the member count and kernel indices, then one record body
 * (the members share the task's arguments; the harness runs them as concurrent threads). */
StrBuf *pto_check_pre_group(DrvSession *s, const RtKernelCall *call, DrvKernel *const *dks, int n) {
    PtoCheck *c = s->ptocheck;
    if (!c || c->unchecked) return NULL;
    for (int j = 0; j < n; j++)
        if (!has_cpp(s, dks[j])) return NULL;
    StrBuf *b = calloc(1, sizeof *b);
    PTOC_ASSERT(b, "out of memory");
    uint32_t magic = 0x47435450u;   /* "PTCG" */
    int32_t nm = n;
    put(b, &magic, 4), put(b, &nm, 4);
    for (int j = 0; j < n; j++) {
        int32_t ki = kernel_index(s, dks[j]);
        put(b, &ki, 4);
    }
    put_params(b, call, dks[0]->k);
    return b;
}

/* The "after" bytes; writes the record. */
void pto_check_post(DrvSession *s, const RtKernelCall *call, const DrvKernel *dk, StrBuf *b, bool ran) {
    PtoCheck *c = s->ptocheck;
    if (!b) return;
    const Kernel *k = dk->k;
    for (int j = 0; ran && j < k->nparams; j++)
        if (k->params[j].is_tensor) put(b, call->params[j], (size_t)param_bytes(&k->params[j]));
    pthread_mutex_lock(&s->lock);
    if (ran && !c->unchecked) {
        c->bytes += b->len;
        if (c->bytes > PTO_CHECK_MAX_BYTES)
            pto_check_unchecked(c, "the run's kernel arguments exceed %llu bytes of records",
                                (unsigned long long)PTO_CHECK_MAX_BYTES);
        else if (fwrite(b->data, 1, b->len, c->data) != b->len)
            pto_check_unchecked(c, "cannot write '%s': %s", c->data_path, strerror(errno));
        else c->nrecords++;
    }
    pthread_mutex_unlock(&s->lock);
    sb_free(b);
    free(b);
}

static void set_result(DrvSession *s, int match, char *msg) {
    s->run.pto_isa_match = match;
    free(s->run.pto_isa_msg);
    s->run.pto_isa_msg = msg;
}

void pto_check_end(DrvSession *s) {
    PtoCheck *c = s->ptocheck;
    if (!c) return;
    if (c->data) fclose(c->data);
    c->data = NULL;
    if (c->defect && s->run.ran) {          /* not a limit of the check: the kernel cannot be built for pto-isa */
        set_result(s, 0, strdup(c->defect));
        free(c->unchecked);
        c->unchecked = NULL;
        goto out;
    }
    if (!c->unchecked && !s->run.ran) pto_check_unchecked(c, "the run failed");
    if (!c->unchecked && c->nrecords == 0) pto_check_unchecked(c, "no kernel ran");
    if (c->unchecked) {
        StrBuf m = {0};
        sb_printf(&m, "unchecked: %s", c->unchecked);
        set_result(s, -1, sb_take(&m));
    } else {
        StrBuf m = {0};
        const char *defer = getenv("PTOC_PTO_CHECK_DEFER");   /* a batch build (tests/pto_isa/run.sh) */
        int match = defer && *defer ? pto_check_defer(s, defer, c->data_path, &m)
                                    : pto_check_replay(s, c->dir, c->cache, c->data_path, c->nrecords, &m);
        set_result(s, match, sb_take(&m));
    }
out:
    remove(c->data_path);
    free(c->defect);
    free(c->dir);
    free(c->cache);
    free(c->data_path);
    free(c->unchecked);
    free(c);
    s->ptocheck = NULL;
}
