/* test_split_plan — the grid chooser of AutoSplitCores (src/pass/auto_split_plan.c): the reference
 * GEMM's 4 x 6 grid of 1536 x 1024 blocks for 6144^3 FP16 on a2a3's 24 cube cores, square grids on
 * a5's 36, the --cores bound, no split below SPLIT_MIN_BLOCK_OUTPUTS or for an unsplittable M / N,
 * and the Vec bound of an epilogue block (UP_DOWN halves, 32-row alignment). */
#include "pass/auto_split.h"
#include "test.h"

static SplitShape shape(int64_t M, int64_t N, int64_t K) {
    return (SplitShape){ M, N, K, DT_FP16, DT_FP32, false, 0 };
}

TEST(test_reference_gemm) {
    const Target *t = target_get(TGT_A2A3);
    SplitPlan p;
    SplitShape s = shape(6144, 6144, 6144);
    CHECK(split_plan(t, 24, &s, &p));
    CHECK_EQ_INT(p.gm, 4);
    CHECK_EQ_INT(p.gn, 6);
    CHECK_EQ_INT(p.bm, 1536);
    CHECK_EQ_INT(p.bn, 1024);
    CHECK(p.t1 / p.tn > 20.0);                    /* compute bound: close to 24x */
    s = shape(3072, 3072, 3072);
    CHECK(split_plan(t, 24, &s, &p));
    CHECK_EQ_INT(p.gm * p.gn, 24);
    CHECK_EQ_INT(p.bm, 768);
    CHECK_EQ_INT(p.bn, 512);
}

TEST(test_a5_and_cores) {
    SplitPlan p;
    SplitShape s = shape(6144, 6144, 6144);
    CHECK(split_plan(target_get(TGT_A5), 36, &s, &p));
    CHECK_EQ_INT(p.gm, 6);
    CHECK_EQ_INT(p.gn, 6);
    CHECK(split_plan(target_get(TGT_A2A3), 4, &s, &p));
    CHECK_EQ_INT(p.gm, 2);
    CHECK_EQ_INT(p.gn, 2);
    CHECK(!split_plan(target_get(TGT_A2A3), 1, &s, &p));
    CHECK_EQ_INT(p.gm * p.gn, 1);
}

TEST(test_small_and_ragged) {
    const Target *t = target_get(TGT_A2A3);
    SplitPlan p;
    SplitShape s = shape(128, 128, 4096);         /* one 128 x 128 block: nothing smaller is worth a core */
    CHECK(!split_plan(t, 24, &s, &p));
    s = shape(200, 200, 512);                     /* 200 has no 16-aligned divisor but itself */
    CHECK(!split_plan(t, 24, &s, &p));
    s = shape(300, 256, 256);                     /* M stays whole, N splits */
    CHECK(split_plan(t, 24, &s, &p));
    CHECK_EQ_INT(p.gm, 1);
    CHECK(p.bn % 16 == 0 && 256 % p.bn == 0);
    CHECK(300 * p.bn >= SPLIT_MIN_BLOCK_OUTPUTS);
}

TEST(test_epilogue_vec) {
    const Target *t = target_get(TGT_A2A3);
    SplitPlan p;
    SplitShape s = shape(512, 512, 256);
    s.epilogue = true;
    s.vec_bytes_per_output = 12;                  /* FP32: two ring slots and a temporary */
    CHECK(split_plan(t, 24, &s, &p));
    CHECK_EQ_INT(p.bm % 32, 0);
    CHECK((double)(p.bm / 2) * (double)p.bn * 12 <= (double)t->capacity[MS_VEC]);
    s.vec_bytes_per_output = 1e6;                 /* nothing fits */
    CHECK(!split_plan(t, 24, &s, &p));
    CHECK_EQ_INT(p.gm * p.gn, 1);
}

int main(void) {
    RUN(test_reference_gemm);
    RUN(test_a5_and_cores);
    RUN(test_small_and_ragged);
    RUN(test_epilogue_vec);
    return test_summary();
}
