/* rt_json — dependency capture in the deps.json format of spec §13: tasks[], tensors[] (one per
 * distinct (buffer address, version), tensor_id = 64-bit FNV-1a of the address and version bytes,
 * little endian), edges[] with source, flags and geometry. 64-bit values are JSON strings.
 * Addresses are not the host's: heap addresses change from run to run, so every buffer is shown at
 * an address of a virtual global memory instead (from RT_VGM_BASE, in order of first appearance in
 * the task list, 512-byte aligned), and two runs of one program write identical files.
 * Beyond spec §13 each task names its function ("kernel") and core shape ("core": aic | aiv | mix |
 * none); a mixed task (its callee a Group function) lists its member kernels ("kernels": [{name,
 * core}]) and their ids in kernel_ids [aic, aiv0, aiv1].
 * Requires: the submitted tasks and recorded edges. Produces: a malloc'd JSON text. */
#include "rt/rt_internal.h"

#include <inttypes.h>
#include <string.h>

uint64_t rt_tensor_id(uint64_t addr, int32_t version) {
    uint64_t h = 0xcbf29ce484222325ull;
    unsigned char bytes[12];
    for (int i = 0; i < 8; i++) bytes[i] = (unsigned char)(addr >> (8 * i));
    uint32_t v = (uint32_t)version;
    for (int i = 0; i < 4; i++) bytes[8 + i] = (unsigned char)(v >> (8 * i));
    for (int i = 0; i < 12; i++) { h ^= bytes[i]; h *= 0x100000001b3ull; }
    return h;
}

const char *rt_dtype_name(DType d) {
    switch (d) {
    case DT_FP32: return "FLOAT32";
    case DT_FP16: return "FLOAT16";
    case DT_INT32: return "INT32";
    case DT_INT16: return "INT16";
    case DT_INT8: return "INT8";
    case DT_UINT8: return "UINT8";
    case DT_BF16: return "BFLOAT16";
    case DT_INT64: case DT_INDEX: return "INT64";
    case DT_UINT64: return "UINT64";
    case DT_UINT16: return "UINT16";
    case DT_UINT32: return "UINT32";
    case DT_BOOL: return "BOOL";
    case DT_FP8E4M3FN: return "FP8E4M3FN";
    case DT_FP8E8M0: return "FP8E8M0";
    case DT_FP4: return "FP4E2M1";
    default: return dtype_name(d);
    }
}

/* ---- the virtual global memory: host buffer address -> deterministic address ---- */
#define RT_VGM_BASE (UINT64_C(1) << 32)
#define RT_VGM_ALIGN UINT64_C(512)

typedef struct { uint64_t *host, *virt; size_t cap, len; uint64_t next; } RtVgm;

static size_t rt_vgm_slot(const RtVgm *m, uint64_t host) {
    size_t i = (size_t)(host * 0x9E3779B97F4A7C15ull >> 7) & (m->cap - 1);
    while (m->host[i] && m->host[i] != host) i = (i + 1) & (m->cap - 1);
    return i;
}

static void rt_vgm_add(RtVgm *m, uint64_t host, uint64_t size) {
    if (!host) return;
    if (2 * (m->len + 1) > m->cap) {
        RtVgm n = { calloc(m->cap ? 2 * m->cap : 64, 8), calloc(m->cap ? 2 * m->cap : 64, 8), m->cap ? 2 * m->cap : 64, 0, m->next };
        PTOC_ASSERT(n.host && n.virt, "out of memory");
        for (size_t i = 0; i < m->cap; i++)
            if (m->host[i]) {
                size_t j = rt_vgm_slot(&n, m->host[i]);
                n.host[j] = m->host[i];
                n.virt[j] = m->virt[i];
                n.len++;
            }
        free(m->host);
        free(m->virt);
        *m = n;
    }
    size_t i = rt_vgm_slot(m, host);
    if (m->host[i]) return;
    m->host[i] = host;
    m->virt[i] = m->next;
    uint64_t span = size ? size : 1;
    m->next += (span + RT_VGM_ALIGN - 1) / RT_VGM_ALIGN * RT_VGM_ALIGN;
    m->len++;
}

static uint64_t rt_vgm_addr(const RtVgm *m, uint64_t host) {
    if (!host || !m->cap) return host;
    size_t i = rt_vgm_slot(m, host);
    return m->host[i] ? m->virt[i] : host;
}

static void rt_vgm_build(RtVgm *m, const Rt *rt) {
    memset(m, 0, sizeof *m);
    m->next = RT_VGM_BASE;
    for (int ti = 0; ti < rt->tasks.len; ti++)
        for (int i = 0; i < rt->tasks.data[ti].nargs; i++) {
            const RtArg *a = &rt->tasks.data[ti].args[i];
            if (a->dir != AD_SCALAR) rt_vgm_add(m, a->t.addr, a->t.size);
        }
}

static void rt_vgm_free(RtVgm *m) { free(m->host); free(m->virt); }

static void rt_json_u64(JsonW *w, uint64_t v) {
    char buf[32];
    snprintf(buf, sizeof buf, "%" PRIu64, v);
    json_str(w, buf);
}

static void rt_json_dims(JsonW *w, const char *key, const int64_t *v, int n) {
    json_key(w, key);
    json_arr_begin(w);
    for (int d = 0; d < n; d++) json_int(w, v[d]);
    json_arr_end(w);
}

static void rt_json_geometry(JsonW *w, const char *prefix, const RtTensor *t) {
    char key[64];
    snprintf(key, sizeof key, "%sshape", prefix);
    rt_json_dims(w, key, t->shape, t->ndims);
    snprintf(key, sizeof key, "%sstart_offset", prefix);
    json_key(w, key);
    rt_json_u64(w, t->start);
    snprintf(key, sizeof key, "%sstrides", prefix);
    rt_json_dims(w, key, t->strides, t->ndims);
}

static const char *rt_arg_type_name(ArgDir d) {
    static const char *names[] = { "INPUT", "OUTPUT", "INOUT", "OUTPUT_EXISTING", "NO_DEP", "SCALAR" };
    return names[d];
}

/* The member kernels of a mixed task: the AIC / AIV functions its Group callee calls, in statement
 * order (as the orchestration emitter lists them in MixedKernels, back/orch.c). */
typedef struct RtMembers { const Function *fn[3]; RtCoreKind core[3]; int n; } RtMembers;

static void rt_group_members(const Function *g, RtMembers *m) {
    memset(m, 0, sizeof *m);
    for (int s = 0; s < g->body.len && m->n < 3; s++) {
        const Stmt *st = g->body.items[s];
        const Expr *x = st->kind == ST_ASSIGN ? st->assign.value : st->kind == ST_EVAL ? st->eval.expr : NULL;
        if (!x || x->kind != EX_CALL || !x->call.callee) continue;
        RtCoreKind k = rt_kernel_core(x->call.callee);
        if (k != RT_CORE_AIC && k != RT_CORE_AIV) continue;
        m->fn[m->n] = x->call.callee;
        m->core[m->n++] = k;
    }
}

static int rt_json_func_id(const Rt *rt, const char *name) {
    for (int i = 0; i < rt->func_names.len; i++)
        if (strcmp(rt->func_names.data[i], name) == 0) return i;
    return -1;
}

/* kernel_ids [aic, aiv0, aiv1] (spec §13) and, for a mixed task, "kernels": [{name, core}]. */
static void rt_json_kernels(JsonW *w, const Rt *rt, const RtTask *t) {
    int ids[3] = { -1, -1, -1 };
    RtMembers m = { .n = 0 };
    if (t->core == RT_CORE_MIX && t->kernel && t->kernel->type == FT_GROUP) {
        rt_group_members(t->kernel, &m);
        for (int i = 0, nv = 0; i < m.n; i++) {
            int id = rt_json_func_id(rt, m.fn[i]->name);
            if (m.core[i] == RT_CORE_AIC) ids[0] = id;
            else if (nv < 2) ids[1 + nv++] = id;
        }
    } else if (t->core == RT_CORE_AIC || t->core == RT_CORE_MIX) ids[0] = t->func_id;
    else if (t->core == RT_CORE_AIV) ids[1] = t->func_id;
    json_key(w, "kernel_ids");
    json_arr_begin(w);
    for (int i = 0; i < 3; i++) json_int(w, ids[i]);
    json_arr_end(w);
    if (!m.n) return;
    json_key(w, "kernels");
    json_arr_begin(w);
    for (int i = 0; i < m.n; i++) {
        json_obj_begin(w);
        json_key(w, "name"); json_str(w, m.fn[i]->name);
        json_key(w, "core"); json_str(w, m.core[i] == RT_CORE_AIC ? "aic" : "aiv");
        json_obj_end(w);
    }
    json_arr_end(w);
}

static void rt_json_task(JsonW *w, const Rt *rt, const RtTask *t, const RtVgm *vgm) {
    static const char *core_names[] = { "none", "aic", "aiv", "mix" };
    json_obj_begin(w);
    json_key(w, "task_id"); rt_json_u64(w, t->id);
    json_key(w, "scope"); json_str(w, t->manual ? "manual" : "auto");
    json_key(w, "kernel"); json_str(w, t->kernel ? t->kernel->name : "alloc_tensors");
    json_key(w, "core"); json_str(w, core_names[t->core]);
    rt_json_kernels(w, rt, t);
    json_key(w, "block_num"); json_int(w, t->block_num);
    if (!t->kernel) { json_key(w, "alloc"); json_bool(w, true); }
    json_key(w, "args");
    json_arr_begin(w);
    for (int i = 0, slot = 0; i < t->nargs; i++) {
        const RtArg *a = &t->args[i];
        if (a->dir == AD_SCALAR) continue;
        json_obj_begin(w);
        json_key(w, "idx"); json_int(w, slot++);
        json_key(w, "type"); json_str(w, rt_arg_type_name(a->dir));
        json_key(w, "tensor_id"); rt_json_u64(w, rt_tensor_id(rt_vgm_addr(vgm, a->t.addr), a->t.version));
        json_key(w, "dtype"); json_str(w, rt_dtype_name(a->t.dtype));
        rt_json_geometry(w, "", &a->t);
        json_obj_end(w);
    }
    json_arr_end(w);
    json_obj_end(w);
}

/* Open-addressing set of tensor ids (0 is never an FNV-1a output here; used as empty). */
typedef struct { uint64_t *slots; size_t cap, len; } RtIdSet;

static bool rt_idset_add(RtIdSet *s, uint64_t id) {
    if (2 * (s->len + 1) > s->cap) {
        RtIdSet n = { calloc(s->cap ? 2 * s->cap : 64, sizeof(uint64_t)), s->cap ? 2 * s->cap : 64, 0 };
        for (size_t i = 0; i < s->cap; i++)
            if (s->slots[i]) rt_idset_add(&n, s->slots[i]);
        free(s->slots);
        *s = n;
    }
    size_t i = (size_t)(id * 0x9E3779B97F4A7C15ull) & (s->cap - 1);
    while (s->slots[i]) {
        if (s->slots[i] == id) return false;
        i = (i + 1) & (s->cap - 1);
    }
    s->slots[i] = id;
    s->len++;
    return true;
}

static void rt_json_tensors(JsonW *w, const Rt *rt, const RtVgm *vgm) {
    RtIdSet seen = {0};
    json_key(w, "tensors");
    json_arr_begin(w);
    for (int ti = 0; ti < rt->tasks.len; ti++) {
        const RtTask *t = &rt->tasks.data[ti];
        for (int i = 0; i < t->nargs; i++) {
            const RtTensor *x = &t->args[i].t;
            if (t->args[i].dir == AD_SCALAR) continue;
            uint64_t addr = rt_vgm_addr(vgm, x->addr);
            uint64_t id = rt_tensor_id(addr, x->version);
            if (!rt_idset_add(&seen, id ? id : 1)) continue;
            json_obj_begin(w);
            json_key(w, "tensor_id"); rt_json_u64(w, id);
            json_key(w, "buffer_addr"); rt_json_u64(w, addr);
            json_key(w, "version"); json_int(w, x->version);
            json_key(w, "dtype"); json_str(w, rt_dtype_name(x->dtype));
            int es = dtype_bytes(x->dtype);
            json_key(w, "buffer_numel"); rt_json_u64(w, es ? x->size / (uint64_t)es : 0);
            json_obj_end(w);
        }
    }
    json_arr_end(w);
    free(seen.slots);
}

static void rt_json_edge(JsonW *w, const Rt *rt, const RtEdge *e, const RtVgm *vgm) {
    static const char *srcs[] = { "explicit", "creator", "tensormap" };
    json_obj_begin(w);
    json_key(w, "pred"); rt_json_u64(w, rt->tasks.data[e->pred].id);
    json_key(w, "succ"); rt_json_u64(w, rt->tasks.data[e->succ].id);
    json_key(w, "arg"); json_int(w, e->arg);
    json_key(w, "source"); json_str(w, srcs[e->src]);
    json_key(w, "flags");
    json_arr_begin(w);
    if (e->flags & RT_DEP_WAIT) json_str(w, "wait");
    if (e->flags & RT_DEP_RETAIN) json_str(w, "retain");
    json_arr_end(w);
    if (e->src != RT_SRC_EXPLICIT) {
        json_key(w, "tensor_id"); rt_json_u64(w, rt_tensor_id(rt_vgm_addr(vgm, e->consumer.addr), e->consumer.version));
        json_key(w, "consumer_dtype"); json_str(w, rt_dtype_name(e->consumer.dtype));
        rt_json_geometry(w, "consumer_", &e->consumer);
    }
    if (e->src == RT_SRC_TENSORMAP) {
        json_key(w, "overlap"); json_str(w, e->overlap == RT_OV_COVERED ? "covered" : "other");
        rt_json_geometry(w, "producer_", &e->producer);
    }
    json_obj_end(w);
}

char *rt_deps_json(const Rt *rt) {
    RtVgm vgm;
    rt_vgm_build(&vgm, rt);
    StrBuf sb = {0};
    JsonW w;
    json_init(&w, &sb);
    json_obj_begin(&w);
    json_key(&w, "tasks");
    json_arr_begin(&w);
    for (int i = 0; i < rt->tasks.len; i++) rt_json_task(&w, rt, &rt->tasks.data[i], &vgm);
    json_arr_end(&w);
    rt_json_tensors(&w, rt, &vgm);
    json_key(&w, "edges");
    json_arr_begin(&w);
    for (int i = 0; i < rt->edges.len; i++) rt_json_edge(&w, rt, &rt->edges.data[i], &vgm);
    json_arr_end(&w);
    json_obj_end(&w);
    sb_putc(&sb, '\n');
    rt_vgm_free(&vgm);
    return sb_take(&sb);
}
