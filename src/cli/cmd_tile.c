/* cmd_tile — `ptoc tile`: explain the L0 tile choice for a matmul.
 *   friendly: ptoc tile M N K [--dtype ..] [--acc ..] [--target ..] [--memory-planner ..] [--dbc] [--json]
 *   raw:      ptoc tile FIELD=VALUE ... [--json]     (chooser.md §2.1 field names, RAW defaults)
 *   batch:    ptoc tile --batch < lines of FIELD=VALUE words   -> one JSON object per line
 * Exit codes: 0 ok, 1 config rejected by the chooser, 2 usage error. */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/base.h"
#include "cli/cli.h"
#include "tile/tile.h"

typedef enum { TF_I64, TF_BOOL, TF_DBL } TileFieldKind;
typedef struct { const char *name; TileFieldKind kind; size_t off; } TileField;

#define TFI(f) { #f, TF_I64, offsetof(L0TileConfig, f) }
#define TFB(f) { #f, TF_BOOL, offsetof(L0TileConfig, f) }
#define TFD(f) { #f, TF_DBL, offsetof(L0TileConfig, f) }
static const TileField tile_fields[] = {
    TFI(M), TFI(N), TFI(K), TFI(l0a_bytes), TFI(l0b_bytes), TFI(l0c_bytes), TFI(bytes_a), TFI(bytes_b),
    TFI(bytes_c), TFI(min_m), TFI(min_n), TFI(min_k), TFI(align_m), TFI(align_n), TFI(align_k),
    TFI(l0c_align_m), TFI(box_align_m), TFI(box_align_n), TFI(max_n), TFI(max_n_pipelined),
    TFI(max_n_nested_pipelined), TFB(allow_a_stationary), TFB(allow_b_stationary), TFB(allow_double_buffer_c),
    TFB(c_read), TFD(bw_a), TFD(bw_b), TFD(bw_drain), TFD(drain_fixed_cycles), TFD(drain_row_cycles),
    TFD(drain_penalty_cycles), TFI(drain_c0_bytes), TFI(mad_head), TFI(mad_k_fractal_bytes),
    TFI(mad_fp32_passes), TFB(allow_padding), TFB(allow_k_boundary),
};
#define TILE_NFIELDS (sizeof tile_fields / sizeof tile_fields[0])

static void tile_usage(FILE *f) {
    fprintf(f,
            "usage: ptoc tile M N K [--dtype fp16|bf16|fp32|int8] [--acc fp32|int32] [--target a2a3|a5]\n"
            "                       [--memory-planner pypto|dsa_rp|ptoas] [--dbc] [--json]\n"
            "       ptoc tile FIELD=VALUE ... [--json]\n"
            "       ptoc tile --batch  < one FIELD=VALUE config per line\n\n"
            "Explains the L0 tile (m, n, k) AutoTileMatmulL0 picks (docs/cli.md, docs/tile.md).\n"
            "The friendly form fills the config as the pass does for the target; the raw form sets\n"
            "chooser fields directly (defaults: l0a/l0b/l0c_bytes 65536/65536/131072, bytes 2/2/4,\n"
            "min/align 16, l0c_align_m 16, boxes 1, caps 0, gates off, a2a3 cost model). Fields:\n ");
    for (size_t i = 0; i < TILE_NFIELDS; i++) fprintf(f, " %s%s", tile_fields[i].name, (i % 8 == 7) ? "\n " : "");
    fprintf(f, "\nBooleans accept 0/1/true/false. Exit: 0 ok, 1 config rejected, 2 usage error.\n");
}

static void tile_raw_defaults(L0TileConfig *g) {
    tile_l0_config_defaults(g);
    g->l0a_bytes = 65536;
    g->l0b_bytes = 65536;
    g->l0c_bytes = 131072;
}

/* Parses one FIELD=VALUE word (len bytes, not NUL-terminated) into g; on failure writes a message. */
static bool tile_parse_assign(L0TileConfig *g, const char *w, size_t len, char *err, size_t el) {
    const char *eq = memchr(w, '=', len);
    if (!eq) { snprintf(err, el, "expected FIELD=VALUE, got '%.*s'", (int)len, w); return false; }
    size_t nl = (size_t)(eq - w), vl = len - nl - 1;
    char val[64];
    const TileField *f = NULL;
    for (size_t i = 0; i < TILE_NFIELDS && !f; i++)
        if (strlen(tile_fields[i].name) == nl && memcmp(tile_fields[i].name, w, nl) == 0) f = &tile_fields[i];
    if (!f) { snprintf(err, el, "unknown field '%.*s'", (int)nl, w); return false; }
    if (vl == 0 || vl >= sizeof val) goto bad;
    memcpy(val, eq + 1, vl);
    val[vl] = '\0';
    char *end;
    errno = 0;
    void *dst = (char *)g + f->off;
    if (f->kind == TF_I64) {
        long long v = strtoll(val, &end, 10);
        if (*end || errno) goto bad;
        *(int64_t *)dst = v;
    } else if (f->kind == TF_DBL) {
        double v = strtod(val, &end);
        if (*end || errno || isnan(v)) goto bad;
        *(double *)dst = v;
    } else {
        bool t = !strcmp(val, "1") || !strcmp(val, "true"), fl = !strcmp(val, "0") || !strcmp(val, "false");
        if (!t && !fl) goto bad;
        *(bool *)dst = t;
    }
    return true;
bad:
    snprintf(err, el, "bad value '%.*s' for field '%s'", (int)vl, eq + 1, f->name);
    return false;
}

static void tile_json_result(StrBuf *sb, const L0TileResult *r) {
    JsonW w;
    json_init(&w, sb);
    json_obj_begin(&w);
    json_key(&w, "m"); json_int(&w, r->m);
    json_key(&w, "n"); json_int(&w, r->n);
    json_key(&w, "k"); json_int(&w, r->k);
    json_key(&w, "stationarity"); json_str(&w, tile_stationarity_name(r->stationarity));
    json_key(&w, "dbc"); json_int(&w, r->double_buffer_c);
    json_key(&w, "os_holds_a"); json_int(&w, r->os_holds_a);
    json_key(&w, "cost"); json_int(&w, r->estimated_cost_cycles);
    json_key(&w, "traffic"); json_int(&w, r->estimated_traffic_bytes);
    json_key(&w, "pvol"); json_int(&w, r->padded_compute_volume);
    json_key(&w, "perf_hint"); json_str(&w, r->perf_hint);
    json_obj_end(&w);
    sb_putc(sb, '\n');
}

static void tile_json_error(StrBuf *sb, const char *msg) {
    JsonW w;
    json_init(&w, sb);
    json_obj_begin(&w);
    json_key(&w, "error"); json_str(&w, msg);
    json_obj_end(&w);
    sb_putc(sb, '\n');
}

/* One batch line -> one JSON line appended to sb. */
static void tile_batch_line(const char *line, size_t len, StrBuf *sb) {
    L0TileConfig g;
    tile_raw_defaults(&g);
    char err[512];
    size_t i = 0;
    while (i < len) {
        while (i < len && (line[i] == ' ' || line[i] == '\t' || line[i] == '\r')) i++;
        size_t s = i;
        while (i < len && line[i] != ' ' && line[i] != '\t' && line[i] != '\r') i++;
        if (i > s && !tile_parse_assign(&g, line + s, i - s, err, sizeof err)) {
            tile_json_error(sb, err);
            return;
        }
    }
    L0TileResult r;
    if (tile_choose_l0(&g, &r, err, sizeof err)) tile_json_result(sb, &r);
    else tile_json_error(sb, err);
}

static int tile_batch(void) {
    static char obuf[1 << 16];
    setvbuf(stdout, obuf, _IOFBF, sizeof obuf);
    StrBuf sb = {0};
    char *line = NULL;
    size_t cap = 0;
    ssize_t n;
    while ((n = getline(&line, &cap, stdin)) >= 0) {
        size_t len = (size_t)n;
        while (len && (line[len - 1] == '\n' || line[len - 1] == '\r')) len--;
        size_t j = 0;
        while (j < len && (line[j] == ' ' || line[j] == '\t')) j++;
        if (j == len) continue;                       /* blank line */
        sb.len = 0;
        tile_batch_line(line, len, &sb);
        fwrite(sb.data, 1, sb.len, stdout);
    }
    free(line);
    sb_free(&sb);
    fflush(stdout);
    return 0;
}

/* ---- explanation (text form) ---- */

static void tile_print_residency(const L0TileConfig *g, const L0TileResult *r) {
    int64_t bm = (r->m + g->box_align_m - 1) / g->box_align_m * g->box_align_m;
    int64_t bn = (r->n + g->box_align_n - 1) / g->box_align_n * g->box_align_n;
    int64_t pm = (bm + g->l0c_align_m - 1) / g->l0c_align_m * g->l0c_align_m;
    struct { const char *name; int64_t depth, per, cap; } rows[3] = {
        { "L0A", r->stationarity == STAT_A ? 1 : 2, bm * r->k * g->bytes_a, g->l0a_bytes },
        { "L0B", r->stationarity == STAT_B ? 1 : 2, r->k * bn * g->bytes_b, g->l0b_bytes },
        { "L0C", r->double_buffer_c ? 2 : 1, pm * bn * g->bytes_c, g->l0c_bytes },
    };
    printf("residency (per buffer x depth):\n");
    for (int i = 0; i < 3; i++)
        printf("  %s  %" PRId64 " x %" PRId64 " B = %" PRId64 " / %" PRId64 " B (%.1f%%)\n", rows[i].name,
               rows[i].depth, rows[i].per, rows[i].depth * rows[i].per, rows[i].cap,
               100.0 * (double)(rows[i].depth * rows[i].per) / (double)rows[i].cap);
    printf("  (L0A holds a %" PRId64 " x %" PRId64 " slab, L0B %" PRId64 " x %" PRId64 ", L0C %" PRId64 " x %" PRId64
           " physical)\n", bm, r->k, r->k, bn, pm, bn);
}

static void tile_print_breakdown(const L0TileConfig *g, const TileScore *s) {
    const char *route = s->stat == STAT_A ? "AS: A loaded once, B re-streamed per row block"
                        : s->stat == STAT_B ? "BS: B loaded once, A re-streamed per column block"
                        : s->k < g->K ? "OS split K: both operands re-streamed"
                        : s->holds_a ? "OS full K: A hoisted" : "OS full K: B hoisted";
    printf("cost breakdown (cycles):\n");
    printf("  held_A   %.3f   held_B %.3f   -> HOLDS_A %s\n", s->held_a, s->held_b, s->holds_a ? "true" : "false");
    printf("  C_load   %.3f  (%s)\n", s->c_load, route);
    printf("  C_mad    %" PRId64 "  (T %" PRId64 ", K blocks %" PRId64 ", K fractals %" PRId64 ")\n", s->c_mad, s->tiles,
           s->kblk, s->kfrac);
    printf("  C_drain  %.3f  (T %" PRId64 ", N1 %" PRId64 ", per_row %.4f)\n", s->c_drain, s->tiles, s->n1, s->per_row);
    double comp = s->c_load > (double)s->c_mad ? s->c_load : (double)s->c_mad;
    if (s->dbc)
        printf("  wall     max(%.3f, %.3f) + min(...) / %" PRId64 " = %.3f -> %" PRId64 "\n", comp, s->c_drain,
               s->tiles, s->wall, s->cost);
    else
        printf("  wall     max(C_load, C_mad) + C_drain = %.3f + %.3f = %.3f -> %" PRId64 "\n", comp, s->c_drain,
               s->wall, s->cost);
}

/* Why x (of regime xs) lost against the pick p: the first differing key. */
static void tile_lost_on(const TileScore *x, const TileScore *p, char *buf, size_t n) {
    bool same = x->stat == p->stat && x->dbc == p->dbc;
    int key = same ? tile_compare(x, p) : (x->cost != p->cost ? (x->cost < p->cost ? 1 : -1) : 0);
    if (key == 0) {
        snprintf(buf, n, same ? "full tie, later in enumeration order" : "wall tie %" PRId64 ", earlier regime wins",
                 x->cost);
        return;
    }
    switch (key < 0 ? -key : key) {
    case 1: snprintf(buf, n, "wall %" PRId64 " %s %" PRId64, x->cost, key < 0 ? ">" : "<", p->cost); break;
    case 2: snprintf(buf, n, "pvol %" PRId64 " > %" PRId64, x->pvol, p->pvol); break;
    case 3: snprintf(buf, n, "k-blocks %" PRId64 " > %" PRId64, x->kblk, p->kblk); break;
    case 4: snprintf(buf, n, "load %.3f > %.3f", x->c_load, p->c_load); break;
    case 5: snprintf(buf, n, "m*n %" PRId64 " < %" PRId64, x->m * x->n, p->m * p->n); break;
    default: snprintf(buf, n, "k %" PRId64 " < %" PRId64, x->k, p->k); break;
    }
}

static void tile_print_regimes(const L0TileConfig *g, const L0TileResult *r, const TileScore *pick) {
    enum { TOPN = 4 };
    printf("regimes (best %d of each; 'lost on' = first key that differs from the pick):\n", TOPN);
    bool sized = r->m == g->M && r->n == g->N && r->k == g->K;
    for (int st = STAT_OUTPUT; st <= STAT_B; st++) {
        for (int d = 0; d <= 1; d++) {
            const char *gate = (st == STAT_A && !g->allow_a_stationary)   ? "AS gate closed"
                               : (st == STAT_B && !g->allow_b_stationary) ? "BS gate closed"
                               : (d && !g->allow_double_buffer_c)         ? "dbC gate closed"
                               : (sized && !(st == STAT_OUTPUT && d == 0)) ? "not scored: already L0-sized"
                                                                          : NULL;
            printf("  %s dbC%d:", tile_stationarity_name((Stationarity)st), d + 1);
            if (gate) { printf(" %s\n", gate); continue; }
            TileScore top[TOPN];
            int cnt = tile_rank_regime(g, (Stationarity)st, d, top, TOPN);
            if (cnt < 0) { printf(" skipped: C_budget below the minimum physical tile\n"); continue; }
            if (cnt == 0) { printf(" no legal tile\n"); continue; }
            printf("\n");
            for (int i = 0; i < cnt; i++) {
                char why[128];
                bool is_pick = top[i].m == r->m && top[i].n == r->n && top[i].k == r->k &&
                               top[i].stat == r->stationarity && top[i].dbc == r->double_buffer_c;
                if (is_pick) snprintf(why, sizeof why, "<- pick");
                else tile_lost_on(&top[i], pick, why, sizeof why);
                printf("    %4" PRId64 " x %4" PRId64 " x %4" PRId64 "  wall %-10" PRId64 " pvol %-12" PRId64
                       " kblk %-4" PRId64 " %s\n", top[i].m, top[i].n, top[i].k, top[i].cost, top[i].pvol,
                       top[i].kblk, why);
            }
        }
    }
}

static void tile_explain(const L0TileConfig *g, const L0TileResult *r, const char *header) {
    TileScore s;
    printf("%s\n", header);
    printf("gates: AS %s, BS %s, dbC %s; allow_k_boundary %s, allow_padding %s, c_read %s\n",
           g->allow_a_stationary ? "on" : "off", g->allow_b_stationary ? "on" : "off",
           g->allow_double_buffer_c ? "on" : "off", g->allow_k_boundary ? "on" : "off",
           g->allow_padding ? "on" : "off", g->c_read ? "on" : "off");
    printf("pick: m=%" PRId64 " n=%" PRId64 " k=%" PRId64 "  regime %s dbC%d  (%s%s)\n", r->m, r->n, r->k,
           tile_stationarity_name(r->stationarity), r->double_buffer_c ? 2 : 1,
           r->m == g->M && r->n == g->N ? "no M/N split" : "M/N output grid",
           r->k < g->K ? ", K loop" : ", full K");
    printf("  cost %" PRId64 " cycles, traffic %" PRId64 " B, padded volume %" PRId64 ", os_holds_a %s\n",
           r->estimated_cost_cycles, r->estimated_traffic_bytes, r->padded_compute_volume,
           r->os_holds_a ? "true" : "false");
    if (r->perf_hint[0]) printf("  perf hint: %s\n", r->perf_hint);
    if (!tile_score(g, r->m, r->n, r->k, r->stationarity, r->double_buffer_c, &s)) return;
    tile_print_breakdown(g, &s);
    tile_print_residency(g, r);
    tile_print_regimes(g, r, &s);
}

/* Runs the chooser (repeat times, timing it for the benchmark) and prints the outcome. */
static int tile_run(const L0TileConfig *g, bool json, long repeat, const char *header) {
    L0TileResult r;
    char err[512];
    bool ok = false;
    double t0 = base_now_seconds();
    for (long i = 0; i < repeat; i++) ok = tile_choose_l0(g, &r, err, sizeof err);
    double t1 = base_now_seconds();
    if (repeat > 1)
        fprintf(stderr, "repeat: %ld calls, %.6f ms/call\n", repeat, (t1 - t0) * 1e3 / (double)repeat);
    StrBuf sb = {0};
    if (!ok) {
        if (json) { tile_json_error(&sb, err); fputs(sb_cstr(&sb), stdout); }
        else fprintf(stderr, "ptoc tile: %s\n", err);
        sb_free(&sb);
        return 1;
    }
    if (json) { tile_json_result(&sb, &r); fputs(sb_cstr(&sb), stdout); }
    else tile_explain(g, &r, header);
    sb_free(&sb);
    return 0;
}

static int tile_usage_error(const char *fmt, const char *arg) {
    fprintf(stderr, "ptoc tile: ");
    fprintf(stderr, fmt, arg);
    fprintf(stderr, "\n(see 'ptoc tile --help')\n");
    return 2;
}

static bool tile_parse_pos(const char *s, int64_t *v) {
    char *end;
    errno = 0;
    long long x = strtoll(s, &end, 10);
    if (!*s || *end || errno) return false;
    *v = x;
    return true;
}

typedef struct TileArgs {
    int npos;
    int64_t mnk[3];
    const char *dtype, *acc, *target, *planner;
    bool dbc, json, batch, raw, friendly_opt;
    long repeat;
    L0TileConfig raw_cfg;
} TileArgs;

static int tile_parse_args(int argc, char **argv, TileArgs *a) {
    *a = (TileArgs){ .dtype = "fp16", .target = "a2a3", .planner = "pypto", .repeat = 1 };
    tile_raw_defaults(&a->raw_cfg);
    for (int i = 1; i < argc; i++) {
        const char *s = argv[i];
        const char **slot = !strcmp(s, "--dtype") ? &a->dtype : !strcmp(s, "--acc") ? &a->acc
                            : !strcmp(s, "--target") ? &a->target : !strcmp(s, "--memory-planner") ? &a->planner
                                                                                                  : NULL;
        if (slot) {
            if (i + 1 >= argc) return tile_usage_error("%s needs a value", s);
            *slot = argv[++i];
            a->friendly_opt = true;
        } else if (!strcmp(s, "--repeat")) {
            if (i + 1 >= argc || (a->repeat = atol(argv[++i])) < 1) return tile_usage_error("%s needs N >= 1", s);
        } else if (!strcmp(s, "--dbc")) { a->dbc = a->friendly_opt = true;
        } else if (!strcmp(s, "--json")) { a->json = true;
        } else if (!strcmp(s, "--batch")) { a->batch = true;
        } else if (strchr(s, '=')) {
            char err[256];
            a->raw = true;
            if (!tile_parse_assign(&a->raw_cfg, s, strlen(s), err, sizeof err)) return tile_usage_error("%s", err);
        } else if (s[0] == '-' && !(s[1] >= '0' && s[1] <= '9')) {
            return tile_usage_error("unknown option '%s'", s);
        } else {
            if (a->npos == 3 || !tile_parse_pos(s, &a->mnk[a->npos])) return tile_usage_error("bad argument '%s'", s);
            a->npos++;
        }
    }
    return 0;
}

static DType tile_dtype_arg(const char *s) {
    static const struct { const char *name; DType t; } map[] = {
        { "fp16", DT_FP16 }, { "bf16", DT_BF16 }, { "fp32", DT_FP32 }, { "int8", DT_INT8 }, { "int32", DT_INT32 },
    };
    for (size_t i = 0; i < sizeof map / sizeof map[0]; i++)
        if (!strcmp(s, map[i].name)) return map[i].t;
    return DT_NONE;
}

/* Friendly form: the config AutoTileMatmulL0 builds for this target and these options. */
static int tile_friendly(const TileArgs *a) {
    DType ab = tile_dtype_arg(a->dtype);
    if (ab == DT_NONE || ab == DT_INT32) return tile_usage_error("--dtype must be fp16|bf16|fp32|int8, got '%s'", a->dtype);
    const char *acc_s = a->acc ? a->acc : (ab == DT_INT8 ? "int32" : "fp32");
    DType acc = tile_dtype_arg(acc_s);
    if (acc != DT_FP32 && acc != DT_INT32) return tile_usage_error("--acc must be fp32|int32, got '%s'", acc_s);
    const Target *t = !strcmp(a->target, "a2a3") || !strcmp(a->target, "a5") ? target_by_name(a->target) : NULL;
    if (!t) return tile_usage_error("--target must be a2a3|a5, got '%s'", a->target);
    TilePassOpts o;
    tile_pass_opts_defaults(&o);
    if (!strcmp(a->planner, "pypto")) o.memory_planner = TILE_PLANNER_PYPTO;
    else if (!strcmp(a->planner, "dsa_rp")) o.memory_planner = TILE_PLANNER_DSA_RP;
    else if (!strcmp(a->planner, "ptoas")) o.memory_planner = TILE_PLANNER_PTOAS;
    else return tile_usage_error("--memory-planner must be pypto|dsa_rp|ptoas, got '%s'", a->planner);
    o.enable_pypto_l0c_double_buffer = a->dbc;
    L0TileConfig g;
    tile_pass_config(&g, t, a->mnk[0], a->mnk[1], a->mnk[2], ab, ab, acc, &o);
    char header[256];
    snprintf(header, sizeof header,
             "ptoc tile: M=%" PRId64 " N=%" PRId64 " K=%" PRId64 "  %s x %s -> %s  target %s  planner %s%s",
             g.M, g.N, g.K, dtype_name(ab), dtype_name(ab), dtype_name(acc), t->name, a->planner,
             a->dbc ? " (+L0C double buffer)" : "");
    return tile_run(&g, a->json, a->repeat, header);
}

int cli_tile(int argc, char **argv) {
    for (int i = 1; i < argc; i++)
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) { tile_usage(stdout); return 0; }
    TileArgs a;
    int rc = tile_parse_args(argc, argv, &a);
    if (rc) return rc;
    if (a.batch) {
        if (a.raw || a.npos || a.friendly_opt) return tile_usage_error("%s", "--batch takes its configs on stdin only");
        return tile_batch();
    }
    if (a.raw) {
        if (a.npos || a.friendly_opt)
            return tile_usage_error("%s", "FIELD=VALUE words cannot be mixed with M N K or the friendly options");
        return tile_run(&a.raw_cfg, a.json, a.repeat, "ptoc tile (raw config)");
    }
    if (a.npos != 3) {
        tile_usage(stderr);
        return 2;
    }
    return tile_friendly(&a);
}
