/* test_tile — the L0 tile chooser against chooser.md: every published pick and worked number of
 * §14 (tile, regime, os_holds_a, cost, traffic, padded volume, intermediate costs via tile_score),
 * the §10.1 validation messages, the pass-facing config helper, and the explanation helpers.
 * The brute-force oracle comparison lives in test_tile_oracle.c. */
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>

#include "test.h"
#include "tile/tile.h"

static L0TileConfig raw_cfg(int64_t M, int64_t N, int64_t K) {
    L0TileConfig g;
    tile_l0_config_defaults(&g);
    g.l0a_bytes = 65536;
    g.l0b_bytes = 65536;
    g.l0c_bytes = 131072;
    g.M = M;
    g.N = N;
    g.K = K;
    return g;
}

typedef struct {
    int64_t M, N, K, bytes;
    int gates;   /* bit 0: AS, bit 1: BS, bit 2: dbC */
    int64_t m, n, k;
    Stationarity st;
    int dbc, holds_a;
    int64_t cost, traffic, pvol;
} Pick;

/* traffic computed by hand from §7.2 (A_part + B_part + C_part), see the comments */
static const Pick picks[] = {
    /* split K: 2*128*512*1 + 2*512*128*1 + 4*128*128 */
    { 128, 128, 512, 2, 0, 128, 128, 128, STAT_OUTPUT, 0, 1, 3279, 327680, 8388608 },
    { 128, 128, 512, 2, 7, 128, 128, 128, STAT_OUTPUT, 0, 1, 3279, 327680, 8388608 },
    /* full K, holds A: 2*320*64 + 2*64*320*cdiv(320,160) + 4*320*320 */
    { 320, 320, 64, 2, 0, 160, 128, 64, STAT_OUTPUT, 0, 1, 7302, 532480, 7864320 },
    /* split K: 2*4096^2*16 + 2*4096^2*32 + 4*4096^2; wall 17465344 + 512*(164+128*8.6779661) */
    { 4096, 4096, 4096, 2, 0, 128, 256, 64, STAT_OUTPUT, 0, 0, 18118031, 1677721600, 68719476736LL },
    /* split K: 2*128*192 + 2*192*128 + 4*128*128 */
    { 128, 128, 192, 2, 0, 128, 128, 96, STAT_OUTPUT, 0, 1, 1688, 163840, 3145728 },
    /* holds B: 2*512*64*2 + 2*64*512 + 4*512*512 */
    { 512, 512, 64, 2, 0, 128, 256, 64, STAT_OUTPUT, 0, 0, 14462, 1245184, 16777216 },
    { 512, 512, 64, 2, 4, 64, 256, 64, STAT_OUTPUT, 1, 0, 11787, 1245184, 16777216 },
    /* split K: 2*16*512 + 2*512*256 + 4*16*256 */
    { 16, 256, 512, 2, 0, 16, 256, 64, STAT_OUTPUT, 0, 1, 3499, 294912, 2097152 },
    /* holds B: 2*256*64*1 + 2*64*256 + 4*256*256 */
    { 256, 256, 64, 2, 0, 128, 256, 64, STAT_OUTPUT, 0, 0, 3616, 327680, 4194304 },
    /* holds A: 2*272*64 + 2*64*272*2 + 4*272*272 */
    { 272, 272, 64, 2, 0, 144, 128, 64, STAT_OUTPUT, 0, 1, 6683, 400384, 7077888 },
    /* FP32 split K: 4*256*256*1 + 4*256*256*2 + 4*256*256 */
    { 256, 256, 256, 4, 0, 128, 256, 32, STAT_OUTPUT, 0, 0, 19270, 1048576, 16777216 },
    /* dbC, holds A, full K: 2*16*128 + 2*128*256*1 + 4*16*256 */
    { 16, 256, 128, 2, 4, 16, 128, 128, STAT_OUTPUT, 1, 1, 1034, 86016, 524288 },
    { 16, 256, 128, 2, 0, 16, 256, 64, STAT_OUTPUT, 0, 1, 1102, 86016, 524288 },
    /* baseline above, split K: 2*16*128 + 2*128*256 + 4*16*256 */
    /* BS dbC2: 2*256*256*cdiv(256,128) + 2*256*256 + 4*256*256 */
    { 256, 256, 256, 2, 7, 64, 128, 256, STAT_B, 1, 0, 4713, 655360, 16777216 },
    /* §16: (128,128,256) FP16 -> 2-trip K loop under the default planner (AS/BS open, dbC closed):
     * 2*128*256 + 2*256*128 + 4*128*128 */
    { 128, 128, 256, 2, 3, 128, 128, 128, STAT_OUTPUT, 0, 1, 2006, 196608, 4194304 },
};

TEST(test_published_picks) {
    for (size_t i = 0; i < sizeof picks / sizeof picks[0]; i++) {
        const Pick *p = &picks[i];
        L0TileConfig g = raw_cfg(p->M, p->N, p->K);
        g.bytes_a = g.bytes_b = p->bytes;
        g.allow_a_stationary = p->gates & 1;
        g.allow_b_stationary = (p->gates >> 1) & 1;
        g.allow_double_buffer_c = (p->gates >> 2) & 1;
        L0TileResult r;
        char err[256];
        bool ok = tile_choose_l0(&g, &r, err, sizeof err);
        CHECK_MSG(ok, "case %zu: %s", i, err);
        if (!ok) continue;
        CHECK_MSG(r.m == p->m && r.n == p->n && r.k == p->k, "case %zu: tile %lld,%lld,%lld want %lld,%lld,%lld", i,
                  (long long)r.m, (long long)r.n, (long long)r.k, (long long)p->m, (long long)p->n, (long long)p->k);
        CHECK_EQ_INT(r.stationarity, p->st);
        CHECK_EQ_INT(r.double_buffer_c, p->dbc);
        CHECK_EQ_INT(r.os_holds_a, p->holds_a);
        if (p->cost) CHECK_EQ_INT(r.estimated_cost_cycles, p->cost);
        CHECK_EQ_INT(r.estimated_traffic_bytes, p->traffic);
        CHECK_EQ_INT(r.padded_compute_volume, p->pvol);
        CHECK_EQ_STR(r.perf_hint, "");
    }
}

typedef struct {
    int64_t M, N, K, bytes;
    int64_t m, n, k;
    Stationarity st;
    int dbc;
    double held_a, held_b, load;   /* held_* < 0: not given */
    int64_t mad, tiles, n1;
    double per_row, drain, wall;   /* wall < 0: not given */
    int64_t cost, pvol;
} Worked;

/* chooser.md §14.2, row by row */
static const Worked worked[] = {
    { 16, 256, 512, 2, 16, 256, 64, STAT_OUTPUT, 0, 3195.924, 3195.924, 3195.924, 680, 1, 32, 8.678, 302.847, 3498.772, 3499, 2097152 },
    { 16, 256, 512, 2, 16, 256, 32, STAT_OUTPUT, 0, -1, -1, 3195.924, 848, 1, 32, 8.678, 302.847, -1, 3499, 2097152 },
    { 16, 256, 512, 2, 16, 32, 512, STAT_OUTPUT, 0, 3195.924, 4080.180, 3195.924, 680, 8, 4, 4.45, 1881.6, -1, 5078, 2097152 },
    { 128, 128, 192, 2, 128, 128, 96, STAT_OUTPUT, 0, 954.517, 954.517, 954.517, 810, 1, 16, 4.45, 733.6, -1, 1688, 3145728 },
    { 128, 128, 192, 2, 128, 128, 128, STAT_OUTPUT, 0, -1, -1, 954.517, 810, 1, 16, 4.45, 733.6, -1, 1688, 4194304 },
    { 128, 128, 192, 2, 128, 128, 64, STAT_OUTPUT, 0, -1, -1, 954.517, 831, 1, 16, 4.45, 733.6, -1, 1688, 3145728 },
    { 256, 256, 64, 2, 128, 256, 64, STAT_OUTPUT, 0, 1020.045, 636.345, 636.345, 1066, 2, 32, 8.678, 2549.559, -1, 3616, 4194304 },
    { 256, 256, 64, 2, 256, 128, 64, STAT_OUTPUT, 0, 636.345, 888.989, 636.345, 1066, 2, 16, 4.45, 2606.4, -1, 3672, 4194304 },
    { 320, 320, 64, 2, 160, 128, 64, STAT_OUTPUT, 0, 1275.056, 1427.042, 1275.056, 2046, 6, 16, 4.45, 5256.0, -1, 7302, 7864320 },
    { 320, 320, 64, 2, 160, 160, 64, STAT_OUTPUT, 0, 1275.056, 1111.237, 1111.237, 1684, 4, 20, 15.8237, 10783.186, -1, 12467, 6553600 },
    { 272, 272, 64, 2, 144, 128, 64, STAT_OUTPUT, 0, 1083.798, 1212.986, 1083.798, 1854, 6, 16, 4.45, 4828.8, -1, 6683, 7077888 },
    { 272, 272, 64, 2, 192, 160, 64, STAT_OUTPUT, 0, 1083.798, 944.551, 944.551, 2004, 4, 20, 15.8237, 12808.624, -1, 14813, 7864320 },
    { 256, 256, 256, 4, 128, 256, 32, STAT_OUTPUT, 0, 8160.360, 5090.758, 8160.360, 16720, 2, 32, 8.678, 2549.559, -1, 19270, 16777216 },
    { 256, 256, 256, 4, 192, 160, 32, STAT_OUTPUT, 0, -1, -1, 10181.517, 31392, 4, 20, 15.8237, 12808.624, -1, 44201, 31457280 },
    { 512, 512, 64, 2, 64, 256, 64, STAT_OUTPUT, 1, 6644.493, 1777.979, 1777.979, 4432, 16, 32, 8.678, 11510.237, 11787.237, 11787, 16777216 },
    { 512, 512, 64, 2, 128, 256, 64, STAT_OUTPUT, 0, 3574.891, 1777.979, 1777.979, 4264, 8, 32, 8.678, 10198.237, -1, 14462, 16777216 },
    { 16, 256, 128, 2, 16, 128, 128, STAT_OUTPUT, 1, 798.981, 830.562, 798.981, 170, 2, 16, 4.45, 470.4, 1034.181, 1034, 524288 },
    { 16, 256, 128, 2, 16, 256, 64, STAT_OUTPUT, 0, -1, -1, 798.981, 170, 1, 32, 8.678, 302.847, -1, 1102, 524288 },
    { 256, 256, 256, 2, 64, 128, 256, STAT_B, 1, 7149.782, 3555.957, 3555.957, 4264, 8, 16, 4.45, 3590.4, 4712.8, 4713, 16777216 },
    /* §14.1 derivation of the first row */
    { 128, 128, 512, 2, 128, 128, 16, STAT_OUTPUT, 0, -1, -1, 2545.379, 2720, 1, 16, 4.45, 733.6, 3453.6, 3454, 8388608 },
    { 128, 128, 512, 2, 128, 128, 32, STAT_OUTPUT, 0, -1, -1, 2545.379, 2384, 1, 16, 4.45, 733.6, 3278.979, 3279, 8388608 },
    { 128, 128, 512, 2, 128, 128, 64, STAT_OUTPUT, 0, -1, -1, 2545.379, 2216, 1, 16, 4.45, 733.6, 3278.979, 3279, 8388608 },
    { 128, 128, 512, 2, 128, 128, 128, STAT_OUTPUT, 0, -1, -1, 2545.379, 2132, 1, 16, 4.45, 733.6, 3278.979, 3279, 8388608 },
    { 128, 128, 512, 2, 64, 128, 128, STAT_OUTPUT, 0, -1, -1, 4080.180, -1, 2, 16, 4.45, 897.6, -1, 4978, -1 },
    { 128, 128, 512, 2, 128, 64, 128, STAT_OUTPUT, 0, -1, -1, -1, -1, 2, 8, -1, -1, -1, 5023, -1 },
};

TEST(test_worked_numbers) {
    for (size_t i = 0; i < sizeof worked / sizeof worked[0]; i++) {
        const Worked *w = &worked[i];
        L0TileConfig g = raw_cfg(w->M, w->N, w->K);
        g.bytes_a = g.bytes_b = w->bytes;
        TileScore s;
        bool ok = tile_score(&g, w->m, w->n, w->k, w->st, w->dbc, &s);
        CHECK_MSG(ok, "row %zu scores", i);
        if (!ok) continue;
        if (w->held_a >= 0) CHECK_NEAR(s.held_a, w->held_a, 1e-3);
        if (w->held_b >= 0) CHECK_NEAR(s.held_b, w->held_b, 1e-3);
        if (w->load >= 0) CHECK_NEAR(s.c_load, w->load, 1e-3);
        if (w->mad >= 0) CHECK_EQ_INT(s.c_mad, w->mad);
        CHECK_EQ_INT(s.tiles, w->tiles);
        CHECK_EQ_INT(s.n1, w->n1);
        if (w->per_row >= 0) CHECK_NEAR(s.per_row, w->per_row, 1e-3);
        if (w->drain >= 0) CHECK_NEAR(s.c_drain, w->drain, 1e-3);
        if (w->wall >= 0) CHECK_NEAR(s.wall, w->wall, 1e-3);
        CHECK_MSG(s.cost == w->cost, "row %zu: cost %lld want %lld", i, (long long)s.cost, (long long)w->cost);
        if (w->pvol >= 0) CHECK_EQ_INT(s.pvol, w->pvol);
    }
}

/* The derivation's tie-break narrative: the k = 64 and k = 32 candidates tie on wall and pvol with the
 * pick and lose on key 3; 128x128x192 k = 128 loses on pvol, k = 64 on K blocks. */
TEST(test_tie_break_keys) {
    L0TileConfig g = raw_cfg(128, 128, 512);
    TileScore top[4];
    int n = tile_rank_regime(&g, STAT_OUTPUT, false, top, 4);
    CHECK_EQ_INT(n, 4);
    CHECK_EQ_INT(top[0].k, 128);
    CHECK_EQ_INT(top[1].k, 64);
    CHECK_EQ_INT(top[2].k, 32);
    CHECK_EQ_INT(top[3].k, 16);
    CHECK_EQ_INT(tile_compare(&top[1], &top[0]), -3);
    CHECK_EQ_INT(tile_compare(&top[0], &top[1]), 3);
    CHECK_EQ_INT(tile_compare(&top[3], &top[0]), -1);
    CHECK_EQ_STR(tile_key_name(-3), "k-blocks");
    CHECK_EQ_STR(tile_key_name(1), "wall");
    g = raw_cfg(128, 128, 192);
    TileScore a, b, c;
    CHECK(tile_score(&g, 128, 128, 96, STAT_OUTPUT, false, &a));
    CHECK(tile_score(&g, 128, 128, 128, STAT_OUTPUT, false, &b));
    CHECK(tile_score(&g, 128, 128, 64, STAT_OUTPUT, false, &c));
    CHECK_EQ_INT(tile_compare(&b, &a), -2);
    CHECK_EQ_INT(tile_compare(&c, &a), -3);
    CHECK_EQ_INT(tile_compare(&a, &a), 0);
    /* with allow_k_boundary, k = 128 is a legal non-divisor of 192; without, it is not */
    CHECK(!tile_candidate_legal(&g, 128, 128, 128, STAT_OUTPUT, false));
    g.allow_k_boundary = true;
    CHECK(tile_candidate_legal(&g, 128, 128, 128, STAT_OUTPUT, false));
    CHECK(tile_candidate_legal(&g, 128, 128, 96, STAT_OUTPUT, false));
    CHECK(!tile_candidate_legal(&g, 128, 128, 96, STAT_A, false));     /* L7: AS needs k == K */
    CHECK(!tile_candidate_legal(&g, 128, 128, 160, STAT_OUTPUT, false)); /* L4: 128*160 > A budget */
}

static void expect_error(L0TileConfig g, const char *want, const char *label) {
    L0TileResult r;
    char err[512] = "unset";
    bool ok = tile_choose_l0(&g, &r, err, sizeof err);
    CHECK_MSG(!ok, "%s: expected failure", label);
    CHECK_MSG(strstr(err, want) != NULL, "%s: got \"%s\", want \"%s\"", label, err, want);
    CHECK_MSG(strncmp(err, "ChooseL0Tile: ", 14) == 0, "%s: prefix: %s", label, err);
}

TEST(test_validation_messages) {
    L0TileConfig g = raw_cfg(0, 16, 16);
    expect_error(g, "ChooseL0Tile: M, N, K must all be positive (got 0, 16, 16)", "M=0");
    g = raw_cfg(16, 16, -3);
    expect_error(g, "M, N, K must all be positive (got 16, 16, -3)", "K<0");
    g = raw_cfg(16, 16, 16); g.l0b_bytes = 0;
    expect_error(g, "L0 capacities must be positive", "cap");
    g = raw_cfg(16, 16, 16); g.bytes_c = 0;
    expect_error(g, "element byte sizes must be positive", "bytes");
    g = raw_cfg(16, 16, 16); g.min_k = 0;
    expect_error(g, "minimum tile dimensions must be positive", "min");
    g = raw_cfg(16, 16, 16); g.max_n = 8;
    expect_error(g, "max_n must be zero (unbounded) or at least min_n (got max_n=8, min_n=16)", "max_n");
    g = raw_cfg(16, 16, 16); g.max_n = -1;
    expect_error(g, "max_n must be zero (unbounded) or at least min_n", "max_n<0");
    g = raw_cfg(16, 16, 16); g.max_n = 64; g.max_n_pipelined = 128;
    expect_error(g, "max_n_pipelined must be non-negative and no greater than max_n when both are bounded", "mnp");
    g = raw_cfg(16, 16, 16); g.max_n_pipelined = -1;
    expect_error(g, "max_n_pipelined must be non-negative", "mnp<0");
    g = raw_cfg(16, 16, 16); g.max_n_pipelined = 64; g.max_n_nested_pipelined = 96;
    expect_error(g, "max_n_nested_pipelined must be non-negative and no greater than max_n_pipelined when both are "
                    "bounded", "nested");
    g = raw_cfg(16, 16, 16); g.box_align_n = 0;
    expect_error(g, "tile and physical L0C alignments must be positive", "align");
    g = raw_cfg(16, 16, 16); g.bw_drain = 0;
    expect_error(g, "roofline bandwidths must be strictly positive", "bw");
    g = raw_cfg(16, 16, 16); g.drain_c0_bytes = 0;
    expect_error(g, "drain params must be non-negative with a positive fractal C0", "drain");
    g = raw_cfg(16, 16, 16); g.drain_penalty_cycles = -0.5;
    expect_error(g, "drain params must be non-negative with a positive fractal C0", "drain<0");
    g = raw_cfg(8, 16, 16);
    expect_error(g, "allow_padding=false but M=8 is below the cube minimum tile dimension 16", "M small");
    g = raw_cfg(16, 8, 16);
    expect_error(g, "allow_padding=false but N=8 is below the cube minimum tile dimension 16", "N small");
    g = raw_cfg(16, 16, 4);
    expect_error(g, "allow_padding=false but K=4 is below the cube minimum tile dimension 16", "K small");
    g = raw_cfg(64, 64, 64); g.l0a_bytes = 511;
    expect_error(g, "L0a capacity 127 elements is too small to fit the minimum tile (16 x 16)", "12a");
    g = raw_cfg(64, 64, 64); g.l0b_bytes = 1024; g.box_align_n = 32;
    expect_error(g, "L0b capacity 256 elements is too small to fit the minimum tile (16 x 16)", "12b");
    g = raw_cfg(64, 64, 64); g.l0c_bytes = 2047; g.l0c_align_m = 32;
    expect_error(g, "L0c capacity 511 elements is too small to fit the minimum physical tile footprint (512 "
                    "elements for logical 16 x 16)", "12c");
    L0TileResult r;
    char err[256];
    g.l0c_bytes = 2048;   /* exactly the 32 x 16 physical minimum: fits */
    CHECK(tile_choose_l0(&g, &r, err, sizeof err));
    CHECK_EQ_INT(r.m, 32);   /* l0c_align_m = 32 makes m = 32 cost no more L0C than m = 16 */
    CHECK_EQ_INT(r.n, 16);
    g = raw_cfg(50, 64, 50); g.allow_k_boundary = true;
    expect_error(g, "no legal (m, n, k) tile found for M=50, N=64, K=50", "unaligned K");
}

TEST(test_padding_hint) {
    L0TileConfig g = raw_cfg(5, 40, 7);
    g.allow_padding = true;
    L0TileResult r;
    char err[256];
    CHECK(tile_choose_l0(&g, &r, err, sizeof err));
    CHECK_EQ_INT(r.m, 16);
    CHECK_EQ_INT(r.k, 16);
    CHECK_EQ_INT(r.n % 16, 0);
    char want[256];
    snprintf(want, sizeof want,
             "Matmul shape (M=5, N=40, K=7) is below the cube minimum tile dimension 16; tile shape padded up to "
             "(16, %lld, 16). Consider reshaping or fusing with adjacent ops to amortise the padding.",
             (long long)r.n);
    CHECK_EQ_STR(r.perf_hint, want);
    /* k > K under padding: the C_load route switch uses k >= K (full K, one operand hoisted) */
    TileScore s;
    CHECK(tile_score(&g, 16, r.n, 16, STAT_OUTPUT, false, &s));
    CHECK_EQ_INT(s.kblk, 1);
    CHECK_NEAR(s.c_load, s.holds_a ? s.held_a : s.held_b, 0.0);
    g = raw_cfg(40, 40, 40);
    g.allow_padding = true;   /* no dim below the minimum: no hint even though tiles pad */
    CHECK(tile_choose_l0(&g, &r, err, sizeof err));
    CHECK_EQ_STR(r.perf_hint, "");
}

TEST(test_already_l0_sized) {
    L0TileConfig g = raw_cfg(128, 128, 128);
    g.allow_a_stationary = g.allow_b_stationary = g.allow_double_buffer_c = true;
    L0TileResult r;
    char err[256];
    CHECK(tile_choose_l0(&g, &r, err, sizeof err));
    CHECK(r.m == 128 && r.n == 128 && r.k == 128);
    CHECK_EQ_INT(r.stationarity, STAT_OUTPUT);
    CHECK_EQ_INT(r.double_buffer_c, 0);
    CHECK_EQ_STR(tile_stationarity_name(STAT_A), "AS");
    CHECK_EQ_STR(tile_stationarity_name(STAT_B), "BS");
    CHECK_EQ_STR(tile_stationarity_name(STAT_OUTPUT), "OS");
}

TEST(test_c_read_only_traffic) {
    L0TileConfig g = raw_cfg(512, 512, 64);
    L0TileResult a, b;
    char err[256];
    CHECK(tile_choose_l0(&g, &a, err, sizeof err));
    g.c_read = true;
    CHECK(tile_choose_l0(&g, &b, err, sizeof err));
    CHECK(a.m == b.m && a.n == b.n && a.k == b.k && a.estimated_cost_cycles == b.estimated_cost_cycles);
    CHECK_EQ_INT(b.estimated_traffic_bytes - a.estimated_traffic_bytes, 4 * 512 * 512);
}

TEST(test_pass_config) {
    const Target *t = target_get(TGT_A2A3);
    TilePassOpts o;
    tile_pass_opts_defaults(&o);
    L0TileConfig g;
    tile_pass_config(&g, t, 128, 256, 512, DT_INT8, DT_INT8, DT_INT32, &o);
    CHECK_EQ_INT(g.bytes_a, 1);
    CHECK_EQ_INT(g.bytes_c, 4);
    CHECK_EQ_INT(g.l0c_align_m, 32);
    CHECK_EQ_INT(g.l0c_bytes, 131072);
    CHECK_EQ_INT(g.l0a_bytes, 65536);
    CHECK(g.allow_a_stationary && g.allow_b_stationary && !g.allow_double_buffer_c);
    CHECK(!g.allow_padding && g.allow_k_boundary && !g.c_read);
    CHECK_EQ_INT(g.mad_head, 21);
    o.memory_planner = TILE_PLANNER_PTOAS;
    o.force_output_stationary = true;
    o.is_matmul_acc = true;
    tile_pass_config(&g, target_get(TGT_A5), 128, 256, 512, DT_FP16, DT_FP16, DT_FP32, &o);
    CHECK(!g.allow_a_stationary && !g.allow_b_stationary && g.allow_double_buffer_c && g.c_read);
    CHECK_EQ_INT(g.l0c_bytes, 262144);
    CHECK_EQ_INT(g.l0c_align_m, 16);
    CHECK_NEAR(g.bw_drain, 30.0, 0.0);
    CHECK_EQ_INT(g.mad_fp32_passes, 8);
    CHECK_EQ_INT(g.mad_head, 25);
    o = (TilePassOpts){ .memory_planner = TILE_PLANNER_PYPTO, .enable_pypto_l0c_double_buffer = true };
    tile_pass_config(&g, t, 512, 512, 64, DT_BF16, DT_BF16, DT_FP32, &o);
    CHECK(g.allow_double_buffer_c);
    L0TileResult r;
    char err[256];
    CHECK(tile_choose_l0(&g, &r, err, sizeof err));
    CHECK(r.m == 64 && r.n == 256 && r.k == 64 && r.double_buffer_c);
    CHECK_EQ_INT(r.estimated_cost_cycles, 11787);
}

/* Transposed INT8 operands (ZN boxes of 32 rows) step M (A^T) and K (B^T) by 32; FP16 ones change nothing. */
TEST(test_pass_config_trans) {
    TilePassOpts o;
    tile_pass_opts_defaults(&o);
    o.lhs_zn_rows = o.rhs_zn_rows = 32;
    L0TileConfig g;
    tile_pass_config(&g, target_get(TGT_A2A3), 320, 256, 256, DT_INT8, DT_INT8, DT_INT32, &o);
    CHECK(g.align_m == 32 && g.min_m == 32 && g.box_align_m == 32 && g.align_k == 32 && g.min_k == 32 && g.align_n == 16);
    L0TileResult r;
    char err[256];
    CHECK(tile_choose_l0(&g, &r, err, sizeof err));
    CHECK(r.m % 32 == 0 && r.k % 32 == 0);
    o.lhs_zn_rows = o.rhs_zn_rows = 16;
    tile_pass_config(&g, target_get(TGT_A2A3), 320, 256, 256, DT_FP16, DT_FP16, DT_FP32, &o);
    CHECK(g.align_m == 16 && g.box_align_m == 1 && g.align_k == 16);
}

TEST(test_pass_config_bias) {
    const Target *t = target_get(TGT_A2A3);
    TilePassOpts o;
    tile_pass_opts_defaults(&o);
    TileBiasInfo bi = { 16, 16, 16, 16, false };
    L0TileConfig g;
    CHECK(tile_pass_config_bias(&g, t, 512, 1024, 256, DT_FP16, DT_FP16, DT_FP32, &o, &bi) == NULL);
    CHECK_EQ_INT(g.max_n, 256);
    CHECK_EQ_INT(g.max_n_pipelined, 128);
    CHECK_EQ_INT(g.max_n_nested_pipelined, 64);
    CHECK_EQ_INT(g.box_align_n, 16);
    L0TileResult r;
    char err[256];
    CHECK(tile_choose_l0(&g, &r, err, sizeof err));
    CHECK(r.n <= 256);                 /* bias table: max_n */
    CHECK(r.k < 256 || r.stationarity == STAT_B || r.n <= 128);   /* full-K grid: pipelined cap */
    /* with full K the OS/AS candidates are held to the pipelined caps (L9) */
    CHECK(!tile_candidate_legal(&g, 128, 256, 256, STAT_A, false));
    L0TileConfig h = raw_cfg(256, 512, 64);   /* L9 nested cap hits OS candidates that hold A */
    h.max_n_pipelined = 128;
    h.max_n_nested_pipelined = 64;
    TileScore s;
    CHECK(tile_score(&h, 256, 96, 64, STAT_OUTPUT, false, &s));
    CHECK(s.holds_a);
    CHECK(!tile_candidate_legal(&h, 256, 96, 64, STAT_OUTPUT, false));
    CHECK(tile_candidate_legal(&h, 256, 96, 64, STAT_B, false));
    CHECK(tile_candidate_legal(&h, 128, 144, 64, STAT_B, false));         /* BS: only max_n */
    h.max_n_nested_pipelined = 0;
    CHECK(tile_candidate_legal(&h, 256, 96, 64, STAT_OUTPUT, false));
    CHECK(!tile_candidate_legal(&h, 128, 144, 64, STAT_OUTPUT, false));   /* one-level cap 128 */
    CHECK(!tile_candidate_legal(&h, 128, 144, 64, STAT_A, false));
    h.max_n_pipelined = 0;
    CHECK(tile_candidate_legal(&h, 128, 144, 64, STAT_OUTPUT, false));
    bi = (TileBiasInfo){ 16, 32, 32, 32, false };   /* INT8 NZ-style boxes */
    CHECK(tile_pass_config_bias(&g, t, 512, 512, 256, DT_INT8, DT_INT8, DT_INT32, &o, &bi) == NULL);
    CHECK_EQ_INT(g.align_n, 32);
    CHECK_EQ_INT(g.align_k, 32);
    CHECK_EQ_INT(g.min_n, 32);
    CHECK_EQ_INT(g.min_m, 16);
    CHECK_EQ_INT(g.l0c_align_m, 32);
    bi.bias_resident = true;
    CHECK(tile_pass_config_bias(&g, target_get(TGT_A5), 512, 512, 256, DT_FP16, DT_FP16, DT_FP32, &o, &bi) == NULL);
    CHECK_EQ_INT(g.max_n, 1024);
    CHECK_EQ_INT(g.max_n_pipelined, 0);
    CHECK_EQ_INT(g.min_n, 512);
    bi = (TileBiasInfo){ 0, 16, 16, 16, false };
    CHECK_EQ_STR(tile_pass_config_bias(&g, t, 512, 512, 256, DT_FP16, DT_FP16, DT_FP32, &o, &bi), "PH-AT-011");
    bi = (TileBiasInfo){ 16, 16, 16, 16, false };
    CHECK_EQ_STR(tile_pass_config_bias(&g, t, 512, 500, 256, DT_FP16, DT_FP16, DT_FP32, &o, &bi), "PH-AT-011");
    o.box_align_m = 16;
    o.box_align_n = 32;
    o.force_output_stationary = true;
    tile_pass_config(&g, t, 512, 512, 256, DT_INT8, DT_INT8, DT_INT32, &o);
    CHECK(g.box_align_m == 16 && g.box_align_n == 32 && !g.allow_a_stationary);
}

TEST(test_overflow_is_illegal) {
    /* ba*M*K overflows 64 bits: every candidate is illegal -> error 13, never a wrapped cost */
    L0TileConfig g = raw_cfg(INT64_C(1) << 40, INT64_C(1) << 40, INT64_C(1) << 40);
    expect_error(g, "no legal (m, n, k) tile found", "overflow");
    g = raw_cfg(INT64_C(1) << 20, 4096, 4096);
    L0TileResult r;
    char err[256];
    CHECK(tile_choose_l0(&g, &r, err, sizeof err));
    CHECK(r.padded_compute_volume > INT64_C(1) << 32);
}


/* ======================================================================================
 * Brute-force oracle, written from the prose of chooser.md §3–§10. It shares no code with
 * src/tile: exact 128-bit integer arithmetic (a quantity above INT64_MAX makes the candidate
 * illegal, as the library documents), every rule checked per candidate, plain nested loops.
 * ====================================================================================== */
typedef __int128 I128;
#define ORC_MAX ((I128)INT64_MAX)

typedef struct {
    bool ok;
    char err[512];
    int64_t m, n, k, cost, traffic, pvol;
    int stat, dbc, holds_a;
    char hint[256];
} OrcResult;

typedef struct {
    bool found;
    int64_t m, n, k, wall, pvol, kb;
    double load;
    int stat, dbc;
} OrcCand;

static I128 orc_ceil(I128 a, I128 b) { return (a + b - 1) / b; }
static I128 orc_up(I128 x, I128 a) { return orc_ceil(x, a) * a; }
static I128 orc_odd(I128 x) { while (x % 2 == 0) x /= 2; return x; }

static int orc_error(OrcResult *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int orc_error(OrcResult *o, const char *fmt, ...) {
    char body[480];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(body, sizeof body, fmt, ap);
    va_end(ap);
    snprintf(o->err, sizeof o->err, "ChooseL0Tile: %s", body);
    o->ok = false;
    return 1;
}

/* §10.1 items 1–11 */
static int orc_validate(const L0TileConfig *c, OrcResult *o) {
    if (!(c->M > 0 && c->N > 0 && c->K > 0))
        return orc_error(o, "M, N, K must all be positive (got %lld, %lld, %lld)", (long long)c->M, (long long)c->N,
                         (long long)c->K);
    if (!(c->l0a_bytes > 0 && c->l0b_bytes > 0 && c->l0c_bytes > 0)) return orc_error(o, "L0 capacities must be positive");
    if (!(c->bytes_a > 0 && c->bytes_b > 0 && c->bytes_c > 0)) return orc_error(o, "element byte sizes must be positive");
    if (!(c->min_m > 0 && c->min_n > 0 && c->min_k > 0)) return orc_error(o, "minimum tile dimensions must be positive");
    if (c->max_n != 0 && c->max_n < c->min_n)
        return orc_error(o, "max_n must be zero (unbounded) or at least min_n (got max_n=%lld, min_n=%lld)",
                         (long long)c->max_n, (long long)c->min_n);
    if (c->max_n_pipelined < 0 || (c->max_n > 0 && c->max_n_pipelined > 0 && c->max_n_pipelined > c->max_n))
        return orc_error(o, "max_n_pipelined must be non-negative and no greater than max_n when both are bounded");
    if (c->max_n_nested_pipelined < 0 ||
        (c->max_n_pipelined > 0 && c->max_n_nested_pipelined > 0 && c->max_n_nested_pipelined > c->max_n_pipelined))
        return orc_error(o, "max_n_nested_pipelined must be non-negative and no greater than max_n_pipelined when both "
                            "are bounded");
    if (c->align_m < 1 || c->align_n < 1 || c->align_k < 1 || c->l0c_align_m < 1 || c->box_align_m < 1 ||
        c->box_align_n < 1)
        return orc_error(o, "tile and physical L0C alignments must be positive");
    if (c->bw_a <= 0 || c->bw_b <= 0 || c->bw_drain <= 0) return orc_error(o, "roofline bandwidths must be strictly positive");
    if (c->drain_c0_bytes <= 0 || c->drain_row_cycles < 0 || c->drain_penalty_cycles < 0 || c->drain_fixed_cycles < 0)
        return orc_error(o, "drain params must be non-negative with a positive fractal C0");
    const char *dim[3] = { "M", "N", "K" };
    int64_t v[3] = { c->M, c->N, c->K }, mn[3] = { c->min_m, c->min_n, c->min_k };
    for (int i = 0; i < 3 && !c->allow_padding; i++)
        if (v[i] < mn[i])
            return orc_error(o, "allow_padding=false but %s=%lld is below the cube minimum tile dimension %lld", dim[i],
                             (long long)v[i], (long long)mn[i]);
    return 0;
}

/* HOLDS_A and the three load expressions of §6.1; false when a product leaves int64 */
static bool orc_loads(const L0TileConfig *c, I128 m, I128 n, double *ha, double *hb, double *split) {
    I128 p1 = (I128)c->bytes_a * c->M * c->K, p2 = (I128)c->bytes_b * c->K * c->N;
    I128 p3 = p2 * orc_ceil(c->M, m), p4 = p1 * orc_ceil(c->N, n);
    if (p1 > ORC_MAX || p2 > ORC_MAX || p3 > ORC_MAX || p4 > ORC_MAX) return false;
    *ha = (double)(int64_t)p1 / c->bw_a + (double)(int64_t)p3 / c->bw_b;
    *hb = (double)(int64_t)p4 / c->bw_a + (double)(int64_t)p2 / c->bw_b;
    *split = (double)(int64_t)p4 / c->bw_a + (double)(int64_t)p3 / c->bw_b;
    return true;
}

/* Score one candidate; false when illegal by overflow / wall range. */
static bool orc_score(const L0TileConfig *c, I128 m, I128 n, I128 k, int stat, int dbc, OrcCand *out) {
    double ha, hb, split;
    if (!orc_loads(c, m, n, &ha, &hb, &split)) return false;
    double load;
    if (stat == 1) load = ha;
    else if (stat == 2) load = hb;
    else if (k >= c->K) load = ha <= hb ? ha : hb;
    else load = split;
    I128 kt = c->mad_k_fractal_bytes / c->bytes_a;
    if (kt < 1) kt = 1;
    I128 cpr = c->bytes_a == 4 ? c->mad_fp32_passes : c->bytes_a / 2;
    if (cpr < 1) cpr = 1;
    I128 T = orc_ceil(c->M, m) * orc_ceil(c->N, n);
    I128 kfull = c->K / k, ktail = c->K - kfull * k;
    I128 kblk = kfull + (ktail > 0 ? 1 : 0);
    I128 kfrac = kfull * orc_ceil(k, kt) + (ktail > 0 ? orc_ceil(ktail, kt) : 0);
    I128 inner = kblk * c->mad_head + cpr * orc_ceil(m, c->align_m) * kfrac * orc_ceil(n, c->align_n);
    if (T > ORC_MAX || inner > ORC_MAX) return false;
    I128 mad = T * inner;
    I128 pvol = orc_ceil(c->M, m) * m * orc_ceil(c->N, n) * n;
    if (mad > ORC_MAX || pvol > ORC_MAX) return false;
    pvol *= orc_ceil(c->K, k) * k;
    if (pvol > ORC_MAX || (I128)c->bytes_c * n > ORC_MAX) return false;
    I128 N0 = c->drain_c0_bytes / c->bytes_c;
    if (N0 < 1) N0 = 1;
    I128 N1 = orc_ceil(n, N0);
    double thr = (double)(int64_t)((I128)c->bytes_c * n) / c->bw_drain;
    double per_row = (c->drain_row_cycles >= thr ? c->drain_row_cycles : thr) +
                     c->drain_penalty_cycles * (double)(int64_t)(orc_odd(N1) - 1);
    double drain = (double)(int64_t)T * (c->drain_fixed_cycles + (double)(int64_t)m * per_row);
    double compute = load >= (double)(int64_t)mad ? load : (double)(int64_t)mad;
    double wall;
    if (dbc) wall = fmax(compute, drain) + fmin(compute, drain) / (double)(int64_t)T;
    else wall = compute + drain;
    if (!isfinite(wall) || fabs(wall) > 9007199254740992.0) return false;
    *out = (OrcCand){ true, (int64_t)m, (int64_t)n, (int64_t)k, llround(wall), (int64_t)pvol, (int64_t)kblk, load,
                      stat, dbc };
    return true;
}

/* §8 six-key comparison: does x strictly beat y */
static bool orc_beats(const OrcCand *x, const OrcCand *y) {
    int64_t kx[6] = { x->wall, x->pvol, x->kb, 0, -(x->m * x->n), -x->k };
    int64_t ky[6] = { y->wall, y->pvol, y->kb, 0, -(y->m * y->n), -y->k };
    for (int i = 0; i < 6; i++) {
        if (i == 3) {
            if (x->load != y->load) return x->load < y->load;
            continue;
        }
        if (kx[i] != ky[i]) return kx[i] < ky[i];
    }
    return false;
}

/* All candidates of one regime, every legality rule of §5 checked explicitly. */
static OrcCand orc_regime(const L0TileConfig *c, int stat, int dbc) {
    OrcCand best = { .found = false };
    I128 abud = c->l0a_bytes / ((I128)c->bytes_a * (stat == 1 ? 1 : 2));
    I128 bbud = c->l0b_bytes / ((I128)c->bytes_b * (stat == 2 ? 1 : 2));
    I128 cbud = c->l0c_bytes / ((I128)c->bytes_c * (dbc ? 2 : 1));
    bool pad = c->allow_padding;
    I128 mtop = pad ? orc_up(c->M, c->align_m) : c->M;
    I128 ntop = pad ? orc_up(c->N, c->align_n) : c->N;
    if (c->max_n > 0 && ntop > c->max_n) ntop = c->max_n;
    I128 kprob = pad ? orc_up(c->K, c->align_k) : c->K;
    if (pad && kprob < c->min_k) kprob = c->min_k;
    bool peel = c->allow_k_boundary && c->K % c->align_k == 0;
    /* m*n <= PHYS <= C_budget bounds both loops */
    for (I128 m = c->min_m; m <= mtop && m <= cbud; m += c->align_m) {
        for (I128 n = c->min_n; n <= ntop && m * n <= cbud; n += c->align_n) {
            I128 bm = orc_up(m, c->box_align_m), bn = orc_up(n, c->box_align_n);
            I128 phys = orc_up(bm, c->l0c_align_m) * bn;
            if (phys > cbud) continue;                                           /* L3 */
            I128 cap = abud / bm < bbud / bn ? abud / bm : bbud / bn;            /* L4 */
            I128 lim = cap < kprob ? cap : kprob;
            I128 ktop = lim / c->align_k * c->align_k;                           /* L5 */
            double ha, hb, sp;
            if (!orc_loads(c, m, n, &ha, &hb, &sp)) continue;
            bool holds_a = ha <= hb;
            if (dbc) {                                                           /* L8 */
                bool rows_outer = stat == 1 || (stat == 0 && holds_a);
                if ((rows_outer ? c->N / n : c->M / m) < 2) continue;
            }
            for (I128 k = c->min_k; k <= ktop; k += c->align_k) {
                if (!pad && !peel && c->K % k != 0) continue;                    /* L6 */
                if ((stat != 0 || dbc) && k != c->K) continue;                   /* L7 */
                bool grid = k == c->K && (m != c->M || n != c->N);               /* L9 */
                if (c->max_n_pipelined > 0 && grid && stat != 2 && n > c->max_n_pipelined) continue;
                if (c->max_n_nested_pipelined > 0 && grid && stat == 0 && holds_a && n > c->max_n_nested_pipelined)
                    continue;
                OrcCand x;
                if (!orc_score(c, m, n, k, stat, dbc, &x)) continue;
                if (!best.found || orc_beats(&x, &best)) best = x;
            }
        }
    }
    return best;
}

static void orc_choose(const L0TileConfig *c, OrcResult *o) {
    memset(o, 0, sizeof *o);
    if (orc_validate(c, o)) return;
    I128 a0 = c->l0a_bytes / ((I128)c->bytes_a * 2), b0 = c->l0b_bytes / ((I128)c->bytes_b * 2);
    I128 c0 = c->l0c_bytes / (I128)c->bytes_c;
    I128 pmin = orc_up(orc_up(c->min_m, c->box_align_m), c->l0c_align_m) * orc_up(c->min_n, c->box_align_n);
    if (orc_up(c->min_m, c->box_align_m) > a0 / c->min_k) {
        orc_error(o, "L0a capacity %lld elements is too small to fit the minimum tile (%lld x %lld)", (long long)a0,
                  (long long)c->min_m, (long long)c->min_k);
        return;
    }
    if (orc_up(c->min_n, c->box_align_n) > b0 / c->min_k) {
        orc_error(o, "L0b capacity %lld elements is too small to fit the minimum tile (%lld x %lld)", (long long)b0,
                  (long long)c->min_k, (long long)c->min_n);
        return;
    }
    if (pmin > c0) {
        orc_error(o, "L0c capacity %lld elements is too small to fit the minimum physical tile footprint (%lld elements "
                     "for logical %lld x %lld)", (long long)c0, (long long)pmin, (long long)c->min_m, (long long)c->min_n);
        return;
    }
    OrcCand best = orc_regime(c, 0, 0);
    if (!best.found) {
        orc_error(o, "no legal (m, n, k) tile found for M=%lld, N=%lld, K=%lld", (long long)c->M, (long long)c->N,
                  (long long)c->K);
        return;
    }
    bool sized = best.m == c->M && best.n == c->N && best.k == c->K;
    static const int order[5][2] = { { 0, 1 }, { 1, 0 }, { 1, 1 }, { 2, 0 }, { 2, 1 } };
    for (int i = 0; i < 5 && !sized; i++) {
        int st = order[i][0], d = order[i][1];
        if ((st == 1 && !c->allow_a_stationary) || (st == 2 && !c->allow_b_stationary) || (d && !c->allow_double_buffer_c))
            continue;
        if (c->l0c_bytes / ((I128)c->bytes_c * (d ? 2 : 1)) < pmin) continue;
        OrcCand x = orc_regime(c, st, d);
        if (x.found && x.wall < best.wall) best = x;
    }
    o->ok = true;
    o->m = best.m; o->n = best.n; o->k = best.k;
    o->stat = best.stat; o->dbc = best.dbc; o->cost = best.wall; o->pvol = best.pvol;
    double ha, hb, sp;
    orc_loads(c, best.m, best.n, &ha, &hb, &sp);
    o->holds_a = ha <= hb;
    /* §7.2 traffic */
    I128 am = (I128)c->bytes_a * c->M * c->K, bk = (I128)c->bytes_b * c->K * c->N;
    I128 cdm = orc_ceil(c->M, best.m), cdn = orc_ceil(c->N, best.n), A, B;
    if (best.stat == 1 || (best.stat == 0 && best.k >= c->K && o->holds_a)) { A = am; B = bk * cdm; }
    else if (best.stat == 2 || (best.stat == 0 && best.k >= c->K)) { A = am * cdn; B = bk; }
    else { A = am * cdn; B = bk * cdm; }
    I128 tr = A + B + (I128)(c->c_read ? 2 : 1) * c->bytes_c * c->M * c->N;
    o->traffic = tr > ORC_MAX ? INT64_MAX : (int64_t)tr;
    if (c->M < c->min_m || c->N < c->min_n || c->K < c->min_k)
        snprintf(o->hint, sizeof o->hint,
                 "Matmul shape (M=%lld, N=%lld, K=%lld) is below the cube minimum tile dimension %lld; tile shape padded "
                 "up to (%lld, %lld, %lld). Consider reshaping or fusing with adjacent ops to amortise the padding.",
                 (long long)c->M, (long long)c->N, (long long)c->K, (long long)c->min_m, (long long)o->m,
                 (long long)o->n, (long long)o->k);
}

/* ---- seeded random configurations ---- */
static uint64_t orc_rng = 0x9E3779B97F4A7C15ULL;
static uint64_t rnd(void) {
    orc_rng ^= orc_rng << 13;
    orc_rng ^= orc_rng >> 7;
    orc_rng ^= orc_rng << 17;
    return orc_rng;
}
static int64_t pick_of(const int64_t *v, int n) { return v[rnd() % (uint64_t)n]; }
static int64_t range(int64_t lo, int64_t hi) { return lo + (int64_t)(rnd() % (uint64_t)(hi - lo + 1)); }

static int64_t random_dim(bool pad) {
    switch (rnd() % 8) {
    case 0: return pad ? range(1, 40) : range(16, 48);
    case 1: case 6: return range(1, 20) * 16;
    case 7: return range(1, 6) * 48;
    case 2: return range(16, 330);
    case 3: return range(1, 10) * 32;
    case 4: return pick_of((const int64_t[]){ 64, 128, 192, 256, 320, 384 }, 6);
    default: return range(2, 24) * 16 + (int64_t)(rnd() % 2) * range(1, 15);
    }
}

static void random_config(L0TileConfig *g) {
    tile_l0_config_defaults(g);
    const Target *t = target_get(rnd() % 2 ? TGT_A2A3 : TGT_A5);
    const L0CostModel *cm = &t->cost;
    g->bw_a = cm->bw_a; g->bw_b = cm->bw_b; g->bw_drain = cm->bw_drain;
    g->drain_fixed_cycles = cm->drain_fixed_cycles; g->drain_row_cycles = cm->drain_row_cycles;
    g->drain_penalty_cycles = cm->drain_penalty_cycles; g->drain_c0_bytes = cm->drain_c0_bytes;
    g->mad_head = cm->mad_head; g->mad_k_fractal_bytes = cm->mad_k_fractal_bytes; g->mad_fp32_passes = cm->mad_fp32_passes;
    g->l0a_bytes = t->capacity[MS_LEFT]; g->l0b_bytes = t->capacity[MS_RIGHT]; g->l0c_bytes = t->capacity[MS_ACC];
    if (rnd() % 4 == 0) {   /* smaller or odd capacities, occasionally too small */
        g->l0a_bytes = pick_of((const int64_t[]){ 700, 4096, 16384, 32768, 40000 }, 5);
        g->l0b_bytes = pick_of((const int64_t[]){ 1000, 8192, 16384, 65536 }, 4);
        g->l0c_bytes = pick_of((const int64_t[]){ 1500, 16384, 65536, 100000 }, 4);
    }
    g->bytes_a = pick_of((const int64_t[]){ 1, 2, 2, 4 }, 4);
    g->bytes_b = rnd() % 3 ? g->bytes_a : pick_of((const int64_t[]){ 1, 2, 4 }, 3);
    g->bytes_c = rnd() % 4 ? 4 : 2;
    if (rnd() % 5 == 0) {
        g->align_m = pick_of((const int64_t[]){ 8, 16, 32 }, 3);
        g->align_n = pick_of((const int64_t[]){ 8, 16, 32 }, 3);
        g->align_k = pick_of((const int64_t[]){ 8, 16, 32 }, 3);
        g->min_m = pick_of((const int64_t[]){ 8, 16, 32 }, 3);
        g->min_n = pick_of((const int64_t[]){ 16, 32 }, 2);
        g->min_k = pick_of((const int64_t[]){ 16, 24, 32 }, 3);
    }
    g->l0c_align_m = rnd() % 3 ? 16 : 32;
    g->box_align_m = pick_of((const int64_t[]){ 1, 1, 16, 32 }, 4);
    g->box_align_n = pick_of((const int64_t[]){ 1, 1, 16, 32 }, 4);
    if (rnd() % 3 == 0) {
        g->max_n = pick_of((const int64_t[]){ 0, 64, 128, 256, 48 }, 5);
        int64_t base = g->max_n ? g->max_n : 256;
        g->max_n_pipelined = rnd() % 2 ? base / 2 : 0;
        g->max_n_nested_pipelined = rnd() % 2 ? (g->max_n_pipelined ? g->max_n_pipelined : base) / 2 : 0;
    }
    g->allow_a_stationary = rnd() % 2;
    g->allow_b_stationary = rnd() % 2;
    g->allow_double_buffer_c = rnd() % 2;
    g->c_read = rnd() % 4 == 0;
    g->allow_padding = rnd() % 5 == 0;
    g->allow_k_boundary = rnd() % 2;
    g->M = random_dim(g->allow_padding);
    g->N = random_dim(g->allow_padding);
    g->K = rnd() % 10 < 6 ? range(1, 32) * 16 : random_dim(g->allow_padding);
    if (rnd() % 10 == 0) { g->M *= 4; g->N *= 3; }
    switch (rnd() % 120) {   /* validation failures */
    case 0: g->M = -(int64_t)(rnd() % 3); break;
    case 1: g->l0c_bytes = 0; break;
    case 2: g->bytes_b = 0; break;
    case 3: g->min_n = -16; break;
    case 4: g->max_n = 8; break;
    case 5: g->max_n = 64; g->max_n_pipelined = 96; break;
    case 6: g->max_n_pipelined = 32; g->max_n_nested_pipelined = 48; break;
    case 7: g->max_n_nested_pipelined = -1; break;
    case 8: g->l0c_align_m = 0; break;
    case 9: g->bw_b = 0.0; break;
    case 10: g->drain_row_cycles = -1.0; break;
    case 11: g->drain_c0_bytes = 0; break;
    default: break;
    }
}

static bool same_result(const OrcResult *o, bool ok, const L0TileResult *r, const char *err) {
    if (o->ok != ok) return false;
    if (!ok) return strcmp(o->err, err) == 0;
    return o->m == r->m && o->n == r->n && o->k == r->k && o->stat == (int)r->stationarity &&
           o->dbc == (int)r->double_buffer_c && o->holds_a == (int)r->os_holds_a && o->cost == r->estimated_cost_cycles &&
           o->traffic == r->estimated_traffic_bytes && o->pvol == r->padded_compute_volume &&
           strcmp(o->hint, r->perf_hint) == 0;
}

static int compare_with_oracle(const L0TileConfig *g, const char *label, int *n_ok, int *n_err) {
    OrcResult o;
    L0TileResult r;
    char err[512] = "";
    orc_choose(g, &o);
    bool ok = tile_choose_l0(g, &r, err, sizeof err);
    bool same = same_result(&o, ok, &r, err);
    if (ok) (*n_ok)++; else (*n_err)++;
    if (!same) {
        printf("  mismatch %s: M=%lld N=%lld K=%lld ba=%lld bb=%lld bc=%lld gates=%d%d%d pad=%d kb=%d box=%lld,%lld l0c_m=%lld "
               "caps=%lld,%lld,%lld\n", label, (long long)g->M, (long long)g->N, (long long)g->K, (long long)g->bytes_a,
               (long long)g->bytes_b, (long long)g->bytes_c, g->allow_a_stationary, g->allow_b_stationary,
               g->allow_double_buffer_c, g->allow_padding, g->allow_k_boundary, (long long)g->box_align_m,
               (long long)g->box_align_n, (long long)g->l0c_align_m, (long long)g->max_n, (long long)g->max_n_pipelined,
               (long long)g->max_n_nested_pipelined);
        printf("    oracle: ok=%d %s %lld,%lld,%lld st=%d dbc=%d ha=%d cost=%lld tr=%lld pvol=%lld\n", o.ok, o.err,
               (long long)o.m, (long long)o.n, (long long)o.k, o.stat, o.dbc, o.holds_a, (long long)o.cost,
               (long long)o.traffic, (long long)o.pvol);
        printf("    tile:   ok=%d %s %lld,%lld,%lld st=%d dbc=%d ha=%d cost=%lld tr=%lld pvol=%lld\n", ok, err,
               (long long)r.m, (long long)r.n, (long long)r.k, r.stationarity, r.double_buffer_c, r.os_holds_a,
               (long long)r.estimated_cost_cycles, (long long)r.estimated_traffic_bytes,
               (long long)r.padded_compute_volume);
    } else if (ok) {
        /* the explanation helpers agree with the chooser on its own pick */
        TileScore s;
        if (!tile_score(g, r.m, r.n, r.k, r.stationarity, r.double_buffer_c, &s) || s.cost != r.estimated_cost_cycles ||
            !tile_candidate_legal(g, r.m, r.n, r.k, r.stationarity, r.double_buffer_c)) {
            printf("  helper mismatch %s\n", label);
            return 0;
        }
    }
    return same;
}

TEST(test_oracle_random) {
    int agree = 0, n_ok = 0, n_err = 0, total = 5000;
    for (int i = 0; i < total; i++) {
        L0TileConfig g;
        random_config(&g);
        char label[32];
        snprintf(label, sizeof label, "random #%d", i);
        agree += compare_with_oracle(&g, label, &n_ok, &n_err);
    }
    CHECK_MSG(agree == total, "%d of %d random configs agree with the oracle", agree, total);
    CHECK_MSG(n_ok > total * 6 / 10 && n_err > total / 20, "coverage: %d picks, %d errors", n_ok, n_err);
}

TEST(test_oracle_large) {
    static const int64_t shapes[][3] = {
        { 4096, 4096, 4096 }, { 2048, 1024, 4096 }, { 1000, 3000, 777 }, { 4096, 16, 8192 }, { 1 << 20, 4096, 4096 },
        { 1 << 20, 1 << 20, 1 << 20 }, { INT64_C(1) << 40, INT64_C(1) << 40, INT64_C(1) << 40 },
    };
    int n_ok = 0, n_err = 0;
    for (size_t i = 0; i < sizeof shapes / sizeof shapes[0]; i++) {
        for (int v = 0; v < 4; v++) {
            L0TileConfig g = raw_cfg(shapes[i][0], shapes[i][1], shapes[i][2]);
            g.allow_a_stationary = g.allow_b_stationary = g.allow_double_buffer_c = v & 1;
            g.allow_k_boundary = (v >> 1) & 1;
            if (v == 3) { g.bytes_a = g.bytes_b = 1; g.l0c_bytes = 262144; g.box_align_n = 32; g.l0c_align_m = 32; }
            char label[48];
            snprintf(label, sizeof label, "large #%zu/%d", i, v);
            CHECK_MSG(compare_with_oracle(&g, label, &n_ok, &n_err), "%s", label);
        }
    }
    CHECK(n_ok >= 20);
}

int main(void) {
    RUN(test_published_picks);
    RUN(test_worked_numbers);
    RUN(test_tie_break_keys);
    RUN(test_validation_messages);
    RUN(test_padding_hint);
    RUN(test_already_l0_sized);
    RUN(test_c_read_only_traffic);
    RUN(test_pass_config);
    RUN(test_pass_config_trans);
    RUN(test_pass_config_bias);
    RUN(test_overflow_is_illegal);
    RUN(test_oracle_random);
    RUN(test_oracle_large);
    return test_summary();
}
