/* test_race_map — the race detector's interval map (src/sim/race_map.c) against a dense array of
 * granule states, the model it replaces: after random reads and writes (short, long, page-crossing,
 * scattered enough to turn pages dense; paged and whole maps) every granule holds the dense model's state, and every
 * access visits exactly the states a per-granule loop checks, in the same order. And the recorded GM
 * footprint (src/sim/race_gm.c) against its definition: every record kept, sorted, merged. */
#include "sim/race_map.h"
#include "sim/sim_int.h"
#include "test.h"

#include <stdlib.h>

#define N 2600                               /* granules: several pages, the last one partial */
#define MAXV 4096

typedef struct { SimShadow v[MAXV]; int n; } Seen;

static void record(void *ud, const SimShadow *st) {
    Seen *s = ud;
    if (s->n < MAXV) s->v[s->n++] = *st;
}

static bool zero(const SimShadow *x) {
    static const SimShadow z;
    return memcmp(x, &z, sizeof z) == 0;
}

/* The dense model: what race.c's per-granule loop did. */
static void dense(SimShadow *sh, int64_t g0, int64_t g1, bool write, int32_t self, int slot, Seen *seen) {
    SimShadow last;
    bool have = false;
    for (int64_t g = g0; g <= g1; g++) {
        if (!have || memcmp(&sh[g], &last, sizeof last) != 0) {
            last = sh[g];
            have = true;
            if (!zero(&last)) record(seen, &last);
        }
        if (write) sh[g] = (SimShadow){ .w = self };
        else sh[g].r[slot] = self;
    }
}

static unsigned rnd_state = 12345;
static unsigned rnd(void) { rnd_state = rnd_state * 1103515245u + 12345u; return (rnd_state >> 8) & 0xffffff; }

/* One random access: mostly tile-like (aligned, a few sizes), some scalar, some long. */
static void pick(int64_t *g0, int64_t *g1) {
    int kind = (int)(rnd() % 4);
    int64_t len = kind == 0 ? 1 : kind == 1 ? (int64_t)(rnd() % 16) + 1 : kind == 2 ? 64 << (rnd() % 4) : (int64_t)(rnd() % N) + 1;
    int64_t at = kind == 2 ? (int64_t)(rnd() % (N / 64)) * 64 : (int64_t)(rnd() % N);
    if (at + len > N) len = N - at;
    *g0 = at;
    *g1 = at + len - 1;
}

TEST(random_against_dense) {
    static SimShadow ref[N];
    static Seen a, b;
    int bad_visits = 0, bad_states = 0, visits = 0;
    for (int round = 0; round < 4; round++) {
        memset(ref, 0, sizeof ref);
        SimRaceMap *m = sim_rmap_new(N, round % 2 == 1);   /* pages of 512, then one page */
        for (int op = 0; op < 3000; op++) {
            int64_t g0, g1;
            pick(&g0, &g1);
            bool write = rnd() % 3 == 0;
            int32_t self = op + 1;
            int slot = (int)(rnd() % SIM_SLOTS);
            a.n = b.n = 0;
            dense(ref, g0, g1, write, self, slot, &a);
            sim_rmap_access(m, g0, g1, write, self, slot, record, &b);
            visits += b.n;
            if (a.n != b.n || memcmp(a.v, b.v, sizeof(SimShadow) * (size_t)a.n) != 0) bad_visits++;
            if (op % 100 == 99 || round == 3)
                for (int64_t g = 0; g < N; g++) {
                    SimShadow x = sim_rmap_get(m, g);
                    if (memcmp(&x, &ref[g], sizeof x) != 0) bad_states++;
                }
        }
        sim_rmap_free(m);
    }
    CHECK_EQ_INT(bad_visits, 0);
    CHECK_EQ_INT(bad_states, 0);
    CHECK(visits > 1000);                    /* the accesses did see earlier ones */
}

/* A GM-sized map: its pages sit in directory blocks of 64 allocated on first touch; accesses far
 * apart, across a block boundary (granule 32768 starts the second block) and over untouched blocks
 * keep the dense model's states and visits. */
TEST(large_map_directory_blocks) {
    enum { NB = 200000, BOUNDARY = 64 * 512 };
    SimShadow *ref = calloc(NB, sizeof *ref);
    static Seen a, b;
    CHECK(ref != NULL);
    SimRaceMap *m = sim_rmap_new(NB, false);
    int bad_visits = 0, bad_states = 0, visits = 0;
    for (int op = 0; op < 2000; op++) {
        int64_t g0, len = (int64_t)(rnd() % 700) + 1;
        switch (op % 4) {
        case 0: g0 = BOUNDARY - (int64_t)(rnd() % 600); break;                  /* across the block edge */
        case 1: g0 = (int64_t)(rnd() % NB); break;                              /* anywhere */
        case 2: g0 = (int64_t)(rnd() % 64) * BOUNDARY / 16; break;              /* spread over the blocks */
        default: g0 = NB - len; break;                                          /* the partial last block */
        }
        if (g0 + len > NB) len = NB - g0;
        bool write = rnd() % 3 == 0;
        int slot = (int)(rnd() % SIM_SLOTS);
        a.n = b.n = 0;
        dense(ref, g0, g0 + len - 1, write, op + 1, slot, &a);
        sim_rmap_access(m, g0, g0 + len - 1, write, op + 1, slot, record, &b);
        visits += b.n;
        if (a.n != b.n || memcmp(a.v, b.v, sizeof(SimShadow) * (size_t)a.n) != 0) bad_visits++;
    }
    for (int64_t g = 0; g < NB; g += 7) {
        SimShadow x = sim_rmap_get(m, g);
        if (memcmp(&x, &ref[g], sizeof x) != 0) bad_states++;
    }
    a.n = b.n = 0;                                           /* a visit over the whole map */
    SimShadow last;
    bool have = false;
    for (int64_t g = 0; g < NB; g++)
        if (!have || memcmp(&ref[g], &last, sizeof last) != 0) {
            last = ref[g];
            have = true;
            if (!zero(&last)) record(&a, &last);
        }
    sim_rmap_visit(m, 0, NB - 1, record, &b);
    CHECK_EQ_INT(b.n, a.n);
    CHECK(a.n == b.n && memcmp(a.v, b.v, sizeof(SimShadow) * (size_t)a.n) == 0);
    sim_rmap_free(m);
    free(ref);
    CHECK_EQ_INT(bad_visits, 0);
    CHECK_EQ_INT(bad_states, 0);
    CHECK(visits > 500);
}

/* A tile written whole, then read and written whole again: one state, visited once per access. */
TEST(whole_tile_accesses) {
    SimRaceMap *m = sim_rmap_new(8192, false);
    Seen s = {0};
    sim_rmap_access(m, 0, 4095, true, 1, 0, record, &s);
    CHECK_EQ_INT(s.n, 0);                    /* fresh memory: nothing to check against */
    sim_rmap_access(m, 0, 4095, false, 2, 1, record, &s);
    CHECK_EQ_INT(s.n, 1);
    CHECK_EQ_INT(s.v[0].w, 1);
    s.n = 0;
    sim_rmap_access(m, 0, 4095, true, 3, 2, record, &s);
    CHECK_EQ_INT(s.n, 1);
    CHECK_EQ_INT(s.v[0].w, 1);
    CHECK_EQ_INT(s.v[0].r[1], 2);
    SimShadow x = sim_rmap_get(m, 4095), y = sim_rmap_get(m, 4096);
    CHECK_EQ_INT(x.w, 3);
    CHECK_EQ_INT(x.r[1], 0);
    CHECK_EQ_INT(y.w, 0);
    sim_rmap_free(m);
}

/* ---- the GM footprint ---- */
static int cmp_acc(const void *x, const void *y) {
    const SimGmAccess *a = x, *b = y;
    if (a->param != b->param) return a->param < b->param ? -1 : 1;
    if (a->write != b->write) return a->write < b->write ? -1 : 1;
    if (a->atomic != b->atomic) return a->atomic < b->atomic ? -1 : 1;
    return a->lo < b->lo ? -1 : a->lo > b->lo;
}

/* Rows of windows in every order (ascending, descending, K chunks, re-reads, scattered): the result
 * equals all records sorted by (param, write, atomic, lo) with overlapping and adjacent ones merged. */
TEST(gm_footprint_against_sort) {
    static SimGmAccess all[60000];
    int bad = 0, total = 0;
    for (int round = 0; round < 6; round++) {
        Kernel k = { .nparams = 3 };
        SimOptions o = { .record_gm = true };
        SimResult r = {0};
        SimRun s = { .k = &k, .o = &o, .r = &r };
        int n = 0;
        for (int w = 0; w < 300 && n < 59000; w++) {             /* windows of rows */
            int param = (int)(rnd() % 3), rows = (int)(rnd() % 64) + 1, order = round < 2 ? 0 : (int)(rnd() % 3);
            bool write = rnd() % 2, atomic = write && rnd() % 4 == 0;
            int64_t stride = 64 + (int64_t)(rnd() % 3) * 32, c0 = (int64_t)(rnd() % 64), len = (int64_t)(rnd() % 64) + 1;
            int64_t r0 = (int64_t)(rnd() % 200);
            if (round % 2 == 1) len = stride - c0;              /* full-width rows: neighbours merge */
            if (round < 2) {                                    /* a K loop: column chunks of row blocks, in order */
                stride = 64; len = 16; c0 = (w % 4) * 16; rows = 32; r0 = (int64_t)(w / 4) * 32;
                param = round; write = atomic = false;          /* one key: nothing is set aside */
            }
            for (int j = 0; j < rows && n < 59000; j++) {
                int64_t row = order == 0 ? r0 + j : order == 1 ? r0 + rows - 1 - j : (int64_t)(rnd() % 256);
                int64_t lo = row * stride + c0, hi = lo + len;
                all[n++] = (SimGmAccess){ param, lo, hi, write, atomic };
                sim_record_gm(&s, param, lo, hi, write, atomic);
            }
        }
        sim_gm_coalesce(&s);
        qsort(all, (size_t)n, sizeof all[0], cmp_acc);
        int m = 0;
        for (int j = 0; j < n; j++) {
            SimGmAccess *last = m ? &all[m - 1] : NULL;
            if (last && last->param == all[j].param && last->write == all[j].write && last->atomic == all[j].atomic &&
                all[j].lo <= last->hi) {
                if (all[j].hi > last->hi) last->hi = all[j].hi;
            } else all[m++] = all[j];
        }
        if (r.gm.len != m) bad++;
        for (int j = 0; j < m && j < r.gm.len; j++)
            if (cmp_acc(&r.gm.data[j], &all[j]) != 0 || r.gm.data[j].hi != all[j].hi) bad++;
        total += m;
        vec_free(&r.gm);
    }
    CHECK_EQ_INT(bad, 0);
    CHECK(total > 100);
}

/* sim_gm_covered: inside one recorded range of the same kind, or not. */
TEST(gm_covered) {
    Kernel k = { .nparams = 2 };
    SimOptions o = { .record_gm = true };
    SimResult r = {0};
    SimRun s = { .k = &k, .o = &o, .r = &r };
    CHECK(!sim_gm_covered(&s, 0, 0, 1, false, false));
    sim_record_gm(&s, 0, 0, 10, false, false);
    sim_record_gm(&s, 0, 10, 20, false, false);
    sim_record_gm(&s, 0, 30, 40, false, false);
    CHECK(sim_gm_covered(&s, 0, 0, 20, false, false));
    CHECK(sim_gm_covered(&s, 0, 31, 40, false, false));
    CHECK(!sim_gm_covered(&s, 0, 5, 25, false, false));
    CHECK(!sim_gm_covered(&s, 0, 15, 35, false, false));
    CHECK(!sim_gm_covered(&s, 0, 0, 20, true, false));
    CHECK(!sim_gm_covered(&s, 1, 0, 20, false, false));
    sim_gm_coalesce(&s);
    CHECK_EQ_INT(r.gm.len, 2);
    vec_free(&r.gm);
}

/* A reset map is a new one: all zero (whatever the last use left, a dense page included), then the
 * same states as the dense model, at another size and kind; fails when reset keeps a page or a
 * directory block of the previous use. */
static int reset_round(SimRaceMap *m, int64_t nb, int ops, int self0) {
    SimShadow *ref = calloc((size_t)nb, sizeof *ref);
    static Seen a, b;
    int bad = 0;
    for (int op = 0; op < ops; op++) {
        int64_t g0 = (int64_t)(rnd() % (uint64_t)nb), len = (int64_t)(rnd() % 300) + 1;
        if (op % 5 == 0) len = 1;                                   /* scattered: pages turn dense */
        if (g0 + len > nb) len = nb - g0;
        bool write = rnd() % 3 == 0;
        int slot = (int)(rnd() % SIM_SLOTS);
        a.n = b.n = 0;
        dense(ref, g0, g0 + len - 1, write, self0 + op, slot, &a);
        sim_rmap_access(m, g0, g0 + len - 1, write, self0 + op, slot, record, &b);
        if (a.n != b.n || memcmp(a.v, b.v, sizeof(SimShadow) * (size_t)a.n) != 0) bad++;
    }
    for (int64_t g = 0; g < nb; g++) {
        SimShadow x = sim_rmap_get(m, g);
        if (memcmp(&x, &ref[g], sizeof x) != 0) bad++;
    }
    free(ref);
    return bad;
}

TEST(reset_is_new) {
    SimRaceMap *m = sim_rmap_new(100000, false);
    CHECK_EQ_INT(reset_round(m, 100000, 3000, 1), 0);
    m = sim_rmap_reset(m, 6000, true);                              /* another size, one whole page */
    CHECK_EQ_INT(sim_rmap_size(m), 6000);
    static Seen v;
    v.n = 0;
    sim_rmap_visit(m, 0, 5999, record, &v);
    CHECK_EQ_INT(v.n, 0);                                           /* nothing of the first use */
    CHECK_EQ_INT(reset_round(m, 6000, 3000, 5000), 0);
    m = sim_rmap_reset(m, 100000, false);
    v.n = 0;
    sim_rmap_visit(m, 0, 99999, record, &v);
    CHECK_EQ_INT(v.n, 0);
    CHECK_EQ_INT(reset_round(m, 100000, 500, 9000), 0);
    sim_rmap_free(m);
}

int main(void) {
    RUN(large_map_directory_blocks);
    RUN(reset_is_new);
    RUN(random_against_dense);
    RUN(whole_tile_accesses);
    RUN(gm_footprint_against_sort);
    RUN(gm_covered);
    return test_summary();
}
