/* test_tile — the L0 tile chooser against chooser.md: every published pick and worked number of
 * §14 (tile, regime, os_holds_a, cost, traffic, padded volume, intermediate costs via tile_score),
 * the §10.1 validation messages, the pass-facing config helper, and the explanation helpers.
 * The brute-force oracle comparison lives in test_tile_oracle.c. */
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

int main(void) {
    RUN(test_published_picks);
    RUN(test_worked_numbers);
    RUN(test_tie_break_keys);
    RUN(test_validation_messages);
    RUN(test_padding_hint);
    RUN(test_already_l0_sized);
    RUN(test_c_read_only_traffic);
    RUN(test_pass_config);
    RUN(test_overflow_is_illegal);
    return test_summary();
}
