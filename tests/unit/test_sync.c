/* test_sync — automatic synchronisation (back/sync*.c) on hand-built level-3 kernels.
 *
 * Requires: the mir building API and back_insert_sync.
 * Does:     the reference synchronised matmul K loop of isa_and_sync.md §9 (exact listing), and small
 *           kernels for each rule: producer/consumer pairs per pipe pair, WAR, same-pipe barrier,
 *           if/else merge, nested loops, running out of event IDs, disjoint and partially
 *           overlapping intervals. Each failing check prints the kernel listing.
 */
#include "back/back.h"
#include "test.h"

#include <stdlib.h>

#include "mir_build_util.h"

/* The listing of a kernel body: mir_dump without the kernel / param / buf lines. */
static char *body_listing(const Kernel *k) {
    StrBuf sb = { 0 };
    mir_dump(k, &sb);
    return sb_take(&sb);
}

static const char *skip_decls(const char *s) {
    const char *nl = strchr(s, '\n');
    if (nl) s = nl + 1;
    while (strncmp(s, "  param ", 8) == 0 || strncmp(s, "  buf ", 6) == 0) {
        const char *nl = strchr(s, '\n');
        if (!nl) break;
        s = nl + 1;
    }
    return s;
}

static const char *MATMUL_EXPECTED =
    "  set_flag(M, MTE1, 0)  // compensation\n"
    "  set_flag(M, MTE1, 1)  // compensation\n"
    "  tload        [MTE2] dst=a_mat gm=a at=(0, 0)\n"
    "  tload        [MTE2] dst=b_mat gm=b at=(0, 0)\n"
    "  set_flag(MTE2, MTE1, 0)\n"
    "  wait_flag(MTE2, MTE1, 0)\n"
    "  for ko = 0 to 512 step 256 {\n"
    "    wait_flag(M, MTE1, 0)\n"
    "    pipe_barrier(MTE1)\n"
    "    textract     [MTE1] dst=sa0 src0=a_mat at=(0, ko)\n"
    "    textract     [MTE1] dst=sb0 src0=b_mat at=(ko, 0)\n"
    "    set_flag(MTE1, M, 0)\n"
    "    wait_flag(M, MTE1, 1)\n"
    "    textract     [MTE1] dst=sa1 src0=a_mat at=(0, ko + 128)\n"
    "    textract     [MTE1] dst=sb1 src0=b_mat at=(ko + 128, 0)\n"
    "    set_flag(MTE1, M, 1)\n"
    "    wait_flag(MTE1, M, 0)\n"
    "    pipe_barrier(M)\n"
    "    if ko == 0 {\n"
    "      tmatmul      [M] dst=acc src0=sa0 src1=sb0\n"
    "    } else {\n"
    "      tmatmul.acc  [M] dst=acc src0=sa0 src1=sb0 src2=acc\n"
    "    }\n"
    "    set_flag(M, MTE1, 0)\n"
    "    wait_flag(MTE1, M, 1)\n"
    "    pipe_barrier(M)\n"
    "    if (ko + 128) == 0 {\n"
    "      tmatmul      [M] dst=acc src0=sa1 src1=sb1\n"
    "    } else {\n"
    "      tmatmul.acc  [M] dst=acc src0=sa1 src1=sb1 src2=acc\n"
    "    }\n"
    "    set_flag(M, MTE1, 1)\n"
    "  }\n"
    "  set_flag(M, FIX, 0)\n"
    "  wait_flag(M, FIX, 0)\n"
    "  tstore       [FIX] src0=acc gm=c at=(0, 0)\n"
    "  wait_flag(M, MTE1, 0)  // compensation\n"
    "  wait_flag(M, MTE1, 1)  // compensation\n"
    "  pipe_barrier(ALL)\n";

TEST(test_matmul_reference) {
    Arena *a = arena_new();
    Kernel *k = matmul_kernel(a);
    SyncStats st;
    CHECK(back_insert_sync(k, target_get(TGT_A2A3), &st));
    char *l = body_listing(k);
    const char *body = skip_decls(l);
    if (getenv("SYNC_SHOW")) printf("%s", l);
    CHECK_MSG(strcmp(body, MATMUL_EXPECTED) == 0, "matmul listing differs; got:\n%s", body);
    CHECK_EQ_INT(st.ids_used[PIPE_MTE1][PIPE_M], 2);
    CHECK_EQ_INT(st.ids_used[PIPE_M][PIPE_MTE1], 2);
    CHECK_EQ_INT(st.ids_used[PIPE_MTE2][PIPE_MTE1], 1);
    CHECK_EQ_INT(st.ids_used[PIPE_M][PIPE_FIX], 1);
    CHECK_EQ_INT(st.nset, 8);
    CHECK_EQ_INT(st.nwait, 8);
    CHECK_EQ_INT(st.nbarrier, 4);
    CHECK_EQ_INT(st.nfallback_barriers, 0);
    /* a second run is skipped: the kernel now has flags */
    SyncStats st2;
    CHECK(!back_insert_sync(k, target_get(TGT_A2A3), &st2));
    CHECK_EQ_INT(st2.nset, 0);
    free(l);
    arena_free(a);
}


/* ---- compact signature: one token per instruction ----
 *   S(src,dst,id)  W(src,dst,id)  B(pipe)  <op>:<dst or gm>  for{...}  if{...|...}  (* = compensation) */
static void sig_block(const Kernel *k, const MirBlock *b, StrBuf *o);
static void sig_inst(const Kernel *k, const MirInst *i, StrBuf *o) {
    switch (i->op) {
    case MI_SET_FLAG: case MI_WAIT_FLAG:
        sb_printf(o, "%c%s(%s,%s,%d) ", i->op == MI_SET_FLAG ? 'S' : 'W', i->compensation ? "*" : "",
                  mir_pipe_name(i->src_pipe), mir_pipe_name(i->dst_pipe), i->event);
        return;
    case MI_BARRIER: sb_printf(o, "B(%s) ", mir_pipe_name(i->pipe)); return;
    case MI_FOR: sb_puts(o, "for{ "); sig_block(k, &i->body, o); sb_puts(o, "} "); return;
    case MI_IF:
        sb_puts(o, "if{ "); sig_block(k, &i->then_body, o); sb_puts(o, "| ");
        sig_block(k, &i->else_body, o); sb_puts(o, "} ");
        return;
    default:
        sb_printf(o, "%s ", i->dst >= 0 ? k->bufs[i->dst].name : k->params[i->param].name);
        return;
    }
}
static void sig_block(const Kernel *k, const MirBlock *b, StrBuf *o) {
    for (int j = 0; j < b->len; j++) sig_inst(k, b->items[j], o);
}
/* runs the pass and checks the signature; prints the listing on mismatch */
static void expect_sync(Kernel *k, const char *want, SyncStats *st) {
    CHECK(back_insert_sync(k, target_get(TGT_A2A3), st));
    StrBuf o = { 0 };
    sig_block(k, &k->body, &o);
    const char *got = sb_cstr(&o);
    size_t n = strlen(got);
    if (n && got[n - 1] == ' ') o.data[--o.len] = 0;
    if (strcmp(got, want) != 0 || getenv("SYNC_SHOW")) {
        StrBuf d = { 0 };
        mir_dump(k, &d);
        CHECK_MSG(strcmp(got, want) == 0, "%s:\n got: %s\nwant: %s\n%s", k->name, got, want, sb_cstr(&d));
        sb_free(&d);
    } else CHECK(true);
    sb_free(&o);
}

static Kernel *vec_kernel(Arena *a, const char *name) {
    Kernel *k = mir_kernel_new(a, name, CORE_AIV);
    param(k, "x", DT_FP32, 16, 64);
    param(k, "out", DT_FP32, 16, 64);
    return k;
}
static int vbuf(Kernel *k, const char *name, int64_t addr) {
    return buf(k, name, MS_VEC, addr, DT_FP32, 16, 64, ML_ROW_MAJOR, ML_NONE_BOX, 512);   /* 4096 B */
}

TEST(test_mte2_v_mte3_chain) {
    Arena *a = arena_new();
    Kernel *k = vec_kernel(a, "chain");
    MirExpr *z = mir_const(k, 0);
    int x = vbuf(k, "vx", 0), y = vbuf(k, "vy", 4096);
    tload(k, &k->body, x, 0, z, z);
    move(k, &k->body, MI_TMOV, y, x, NULL, NULL);
    tstore(k, &k->body, 1, y, z, z);
    SyncStats st;
    expect_sync(k, "vx S(MTE2,V,0) W(MTE2,V,0) vy S(V,MTE3,0) W(V,MTE3,0) out B(ALL)", &st);
    CHECK_EQ_INT(st.nset, 2);
    CHECK_EQ_INT(st.nwait, 2);
    CHECK_EQ_INT(st.nbarrier, 1);
    CHECK_EQ_INT(st.ids_used[PIPE_MTE2][PIPE_V], 1);
    arena_free(a);
}

/* cube chain MTE2 -> MTE1 -> M -> FIX, then FIX -> MTE2 through GM (same parameter, RAW) */
TEST(test_cube_chain_and_gm) {
    Arena *a = arena_new();
    Kernel *k = mir_kernel_new(a, "cube", CORE_AIC);
    int pa = param(k, "a", DT_FP16, 16, 16), pc = param(k, "c", DT_FP32, 16, 16);
    MirExpr *z = mir_const(k, 0);
    int ma = buf(k, "ma", MS_MAT, 0, DT_FP16, 16, 16, ML_COL_MAJOR, ML_ROW_MAJOR, 512);
    int mc = buf(k, "mc", MS_MAT, 4096, DT_FP32, 16, 16, ML_COL_MAJOR, ML_ROW_MAJOR, 512);
    int l = buf(k, "l", MS_LEFT, 0, DT_FP16, 16, 16, ML_ROW_MAJOR, ML_ROW_MAJOR, 512);
    int r = buf(k, "r", MS_RIGHT, 0, DT_FP16, 16, 16, ML_ROW_MAJOR, ML_COL_MAJOR, 512);
    int acc = buf(k, "acc", MS_ACC, 0, DT_FP32, 16, 16, ML_COL_MAJOR, ML_ROW_MAJOR, 1024);
    tload(k, &k->body, ma, pa, z, z);
    move(k, &k->body, MI_TEXTRACT, l, ma, z, z);
    move(k, &k->body, MI_TEXTRACT, r, ma, z, z);
    matmul(k, &k->body, acc, l, r, false);
    tstore(k, &k->body, pc, acc, z, z);
    tload(k, &k->body, mc, pc, z, z);
    SyncStats st;
    expect_sync(k, "ma S(MTE2,MTE1,0) W(MTE2,MTE1,0) l r S(MTE1,M,0) W(MTE1,M,0) acc S(M,FIX,0) W(M,FIX,0) c "
                   "S(FIX,MTE2,0) W(FIX,MTE2,0) mc B(ALL)", &st);
    arena_free(a);
}

TEST(test_war_and_same_pipe) {
    Arena *a = arena_new();
    Kernel *k = vec_kernel(a, "war");
    MirExpr *z = mir_const(k, 0);
    int x = vbuf(k, "vx", 0), y = vbuf(k, "vy", 4096), w = vbuf(k, "vw", 8192);
    move(k, &k->body, MI_TMOV, y, x, NULL, NULL);      /* V reads vx */
    move(k, &k->body, MI_TMOV, w, y, NULL, NULL);      /* V reads vy: same-pipe RAW -> barrier */
    tload(k, &k->body, x, 0, z, z);                    /* MTE2 overwrites vx: WAR V -> MTE2 */
    SyncStats st;
    expect_sync(k, "vy S(V,MTE2,0) B(V) vw W(V,MTE2,0) vx B(ALL)", &st);
    CHECK_EQ_INT(st.nbarrier, 2);
    arena_free(a);
}

/* producers inside both branches: the two sets sink after the if and collapse into one pair */
TEST(test_if_else_merge) {
    Arena *a = arena_new();
    Kernel *k = vec_kernel(a, "ifelse");
    int v = mir_add_var(k, "n");
    MirExpr *z = mir_const(k, 0);
    int x = vbuf(k, "vx", 0), y = vbuf(k, "vy", 4096), q = vbuf(k, "vq", 8192);
    MirInst *br = branch(k, &k->body, mir_bin(k, MB_GT, mir_var(k, v), z));
    tload(k, &br->then_body, x, 0, z, z);
    move(k, &br->then_body, MI_TMOV, y, x, NULL, NULL);
    move(k, &br->else_body, MI_TMOV, y, q, NULL, NULL);
    tstore(k, &k->body, 1, y, z, z);
    SyncStats st;
    expect_sync(k, "if{ vx S(MTE2,V,0) W(MTE2,V,0) vy | vy } S(V,MTE3,0) W(V,MTE3,0) out B(ALL)", &st);
    arena_free(a);
}

/* consumers in both branches of a producer outside: waits hoisted before the if, one pair left;
 * the consumer after the if is covered by it (AND-merge finds no complete pair, redundancy removes) */
TEST(test_if_hoist) {
    Arena *a = arena_new();
    Kernel *k = vec_kernel(a, "ifhoist");
    int v = mir_add_var(k, "n");
    MirExpr *z = mir_const(k, 0);
    int x = vbuf(k, "vx", 0), y = vbuf(k, "vy", 4096), q = vbuf(k, "vq", 8192), w = vbuf(k, "vw", 12288);
    tload(k, &k->body, x, 0, z, z);
    MirInst *br = branch(k, &k->body, mir_bin(k, MB_GT, mir_var(k, v), z));
    move(k, &br->then_body, MI_TMOV, y, x, NULL, NULL);
    move(k, &br->else_body, MI_TMOV, q, x, NULL, NULL);
    move(k, &k->body, MI_TMOV, w, x, NULL, NULL);
    SyncStats st;
    expect_sync(k, "vx S(MTE2,V,0) W(MTE2,V,0) if{ vy | vq } vw B(ALL)", &st);
    arena_free(a);
}

/* an empty else: the sync of the then branch cannot promote; the producer after needs its own order */
TEST(test_if_no_else) {
    Arena *a = arena_new();
    Kernel *k = vec_kernel(a, "ifnoelse");
    int v = mir_add_var(k, "n");
    MirExpr *z = mir_const(k, 0);
    int x = vbuf(k, "vx", 0), y = vbuf(k, "vy", 4096);
    MirInst *br = branch(k, &k->body, mir_bin(k, MB_GT, mir_var(k, v), z));
    move(k, &br->then_body, MI_TMOV, y, x, NULL, NULL);   /* V writes vy in then only */
    tstore(k, &k->body, 1, y, z, z);                       /* MTE3 reads vy */
    SyncStats st;
    expect_sync(k, "if{ vy | } S(V,MTE3,0) W(V,MTE3,0) out B(ALL)", &st);
    arena_free(a);
}

TEST(test_nested_loops) {
    Arena *a = arena_new();
    Kernel *k = vec_kernel(a, "nested");
    MirExpr *z = mir_const(k, 0);
    int x = vbuf(k, "vx", 0), y = vbuf(k, "vy", 4096);
    MirInst *fi = loop(k, &k->body, "i", 0, 4, 1);
    tload(k, &fi->body, x, 0, mir_var(k, fi->var), z);
    MirInst *fj = loop(k, &fi->body, "j", 0, 4, 1);
    move(k, &fj->body, MI_TMOV, y, x, NULL, NULL);
    tstore(k, &fj->body, 1, y, mir_var(k, fj->var), z);
    SyncStats st;
    /* no barrier on MTE3 between the stores: MTE3 -> V -> MTE3 orders them transitively */
    expect_sync(k, "S*(MTE3,V,0) S*(V,MTE2,0) for{ W(V,MTE2,0) vx S(MTE2,V,0) W(MTE2,V,0) "
                   "for{ W(MTE3,V,0) vy S(V,MTE3,0) W(V,MTE3,0) out S(MTE3,V,0) } S(V,MTE2,0) } "
                   "W*(MTE3,V,0) W*(V,MTE2,0) B(ALL)", &st);
    arena_free(a);
}

TEST(test_disjoint_no_sync) {
    Arena *a = arena_new();
    Kernel *k = vec_kernel(a, "disjoint");
    MirExpr *z = mir_const(k, 0);
    int x = vbuf(k, "vx", 0), y = vbuf(k, "vy", 4096), q = vbuf(k, "vq", 8192);
    tload(k, &k->body, x, 0, z, z);
    move(k, &k->body, MI_TMOV, y, q, NULL, NULL);
    SyncStats st;
    expect_sync(k, "vx vy B(ALL)", &st);
    CHECK_EQ_INT(st.nset + st.nwait, 0);
    arena_free(a);
}

/* vq starts inside vx's interval (different constant addresses, partial overlap): a sync is needed */
TEST(test_partial_overlap_syncs) {
    Arena *a = arena_new();
    Kernel *k = vec_kernel(a, "partial");
    MirExpr *z = mir_const(k, 0);
    int x = vbuf(k, "vx", 0), y = vbuf(k, "vy", 8192), q = vbuf(k, "vq", 2048);
    tload(k, &k->body, x, 0, z, z);
    move(k, &k->body, MI_TMOV, y, q, NULL, NULL);
    SyncStats st;
    expect_sync(k, "vx S(MTE2,V,0) W(MTE2,V,0) vy B(ALL)", &st);
    arena_free(a);
}

/* nine independent MTE2 -> V pairs live at once; MTE2 -> V has 7 IDs: widening merges pairs */
TEST(test_widening) {
    Arena *a = arena_new();
    Kernel *k = vec_kernel(a, "widen");
    MirExpr *z = mir_const(k, 0);
    int src[9], dst[9];
    for (int j = 0; j < 9; j++) {
        src[j] = vbuf(k, arena_printf(a, "s%d", j), 4096 * j);
        dst[j] = vbuf(k, arena_printf(a, "d%d", j), 4096 * (16 + j));
    }
    for (int j = 0; j < 9; j++) tload(k, &k->body, src[j], 0, z, z);
    for (int j = 0; j < 9; j++) move(k, &k->body, MI_TMOV, dst[j], src[j], NULL, NULL);
    SyncStats st;
    CHECK(back_insert_sync(k, target_get(TGT_A2A3), &st));
    CHECK_EQ_INT(st.ids_used[PIPE_MTE2][PIPE_V], 7);
    CHECK_EQ_INT(st.nset, 7);
    CHECK_EQ_INT(st.nwait, 7);
    CHECK_EQ_INT(st.nfallback_barriers, 0);
    /* the two pairs without an ID were merged into the first: its set now follows the last load and
     * its wait still precedes the first tmov */
    CHECK_EQ_INT(k->body.items[14]->op, MI_TLOAD);
    CHECK_EQ_INT(k->body.items[14]->dst, src[8]);
    CHECK_EQ_INT(k->body.items[15]->op, MI_SET_FLAG);
    CHECK_EQ_INT(k->body.items[16]->op, MI_WAIT_FLAG);
    CHECK_EQ_INT(k->body.items[16]->event, k->body.items[15]->event);
    CHECK_EQ_INT(k->body.items[17]->dst, dst[0]);
    CHECK_EQ_INT(k->body.items[13]->dst, src[7]);   /* no set between the 8th and 9th load */
    if (getenv("SYNC_SHOW")) { StrBuf d = { 0 }; mir_dump(k, &d); printf("%s", sb_cstr(&d)); sb_free(&d); }
    arena_free(a);
}

/* nine loop-carried M -> MTE1 pairs in one loop: 8 IDs, reallocation at loop scope cannot help, the
 * last pair becomes pipe_barrier(PIPE_ALL) */
TEST(test_out_of_ids_fallback) {
    Arena *a = arena_new();
    Kernel *k = mir_kernel_new(a, "fallback", CORE_AIC);
    int pa = param(k, "a", DT_FP16, 16, 16);
    MirExpr *z = mir_const(k, 0);
    int ma = buf(k, "ma", MS_MAT, 0, DT_FP16, 16, 16, ML_COL_MAJOR, ML_ROW_MAJOR, 512);
    int r = buf(k, "r", MS_RIGHT, 0, DT_FP16, 16, 16, ML_ROW_MAJOR, ML_COL_MAJOR, 512);
    int l[9], acc[9];
    for (int j = 0; j < 9; j++) {
        l[j] = buf(k, arena_printf(a, "l%d", j), MS_LEFT, 512 * j, DT_FP16, 16, 16, ML_ROW_MAJOR, ML_ROW_MAJOR, 512);
        acc[j] = buf(k, arena_printf(a, "acc%d", j), MS_ACC, 1024 * j, DT_FP32, 16, 16, ML_COL_MAJOR, ML_ROW_MAJOR, 1024);
    }
    tload(k, &k->body, ma, pa, z, z);
    move(k, &k->body, MI_TEXTRACT, r, ma, z, z);
    MirInst *f = loop(k, &k->body, "i", 0, 4, 1);
    for (int j = 0; j < 9; j++) move(k, &f->body, MI_TEXTRACT, l[j], ma, z, z);
    for (int j = 0; j < 9; j++) matmul(k, &f->body, acc[j], l[j], r, false);
    SyncStats st;
    CHECK(back_insert_sync(k, target_get(TGT_A2A3), &st));
    CHECK_EQ_INT(st.ids_used[PIPE_M][PIPE_MTE1], 8);
    CHECK_EQ_INT(st.nfallback_barriers, 1);
    CHECK(st.ids_used[PIPE_MTE1][PIPE_M] <= 8);
    int nall = 0, nwait_m_mte1 = 0, npre = 0;
    for (int j = 0; j < f->body.len; j++) {
        const MirInst *i = f->body.items[j];
        if (i->op == MI_BARRIER && i->pipe == PIPE_ALL) nall++;
        if (i->op == MI_WAIT_FLAG && i->src_pipe == PIPE_M && i->dst_pipe == PIPE_MTE1) nwait_m_mte1++;
    }
    for (int j = 0; j < k->body.len; j++)
        if (k->body.items[j]->op == MI_SET_FLAG && k->body.items[j]->compensation) npre++;
    CHECK_EQ_INT(nall, 1);
    CHECK_EQ_INT(nwait_m_mte1, 8);
    CHECK_EQ_INT(npre, 8);
    if (nall != 1 || getenv("SYNC_SHOW")) {
        StrBuf d = { 0 };
        mir_dump(k, &d);
        printf("%s", sb_cstr(&d));
        sb_free(&d);
    }
    arena_free(a);
}


/* Two loops with five loop-carried M -> MTE1 pairs each: ten whole-function intervals do not fit in
 * 8 IDs, so the direction is reallocated at loop scope (pre-sets before each loop, drains after).
 * The second loop may reuse an ID of the first only if the first loop's drain (on MTE1) is ordered
 * before the second loop's pre-set (on M) — flags are binary tokens. With `bridge`, an extract and a
 * matmul between the loops give that order (MTE1 -> M pair). */
static Kernel *realloc_kernel(Arena *a, bool bridge, MirInst **loops) {
    Kernel *k = mir_kernel_new(a, bridge ? "realloc_bridge" : "realloc", CORE_AIC);
    int pa = param(k, "a", DT_FP16, 16, 16);
    MirExpr *z = mir_const(k, 0);
    int ma = buf(k, "ma", MS_MAT, 0, DT_FP16, 16, 16, ML_COL_MAJOR, ML_ROW_MAJOR, 512);
    int r = buf(k, "r", MS_RIGHT, 0, DT_FP16, 16, 16, ML_ROW_MAJOR, ML_COL_MAJOR, 512);
    int bx = buf(k, "bx", MS_LEFT, 8192, DT_FP16, 16, 16, ML_ROW_MAJOR, ML_ROW_MAJOR, 512);
    int bacc = buf(k, "bacc", MS_ACC, 16384, DT_FP32, 16, 16, ML_COL_MAJOR, ML_ROW_MAJOR, 1024);
    tload(k, &k->body, ma, pa, z, z);
    move(k, &k->body, MI_TEXTRACT, r, ma, z, z);
    for (int L = 0; L < 2; L++) {
        int l[5], acc[5];
        for (int j = 0; j < 5; j++) {
            l[j] = buf(k, arena_printf(a, "l%d_%d", L, j), MS_LEFT, 512 * (5 * L + j), DT_FP16, 16, 16, ML_ROW_MAJOR, ML_ROW_MAJOR, 512);
            acc[j] = buf(k, arena_printf(a, "acc%d_%d", L, j), MS_ACC, 1024 * (5 * L + j), DT_FP32, 16, 16, ML_COL_MAJOR, ML_ROW_MAJOR, 1024);
        }
        if (L == 1 && bridge) {
            move(k, &k->body, MI_TEXTRACT, bx, ma, z, z);
            matmul(k, &k->body, bacc, bx, r, false);
        }
        MirInst *f = loops[L] = loop(k, &k->body, L ? "j" : "i", 0, 4, 1);
        for (int j = 0; j < 5; j++) move(k, &f->body, MI_TEXTRACT, l[j], ma, z, z);
        for (int j = 0; j < 5; j++) matmul(k, &f->body, acc[j], l[j], r, false);
    }
    return k;
}

static void check_realloc(bool bridge) {
    Arena *a = arena_new();
    MirInst *loops[2];
    Kernel *k = realloc_kernel(a, bridge, loops);
    SyncStats st;
    CHECK(back_insert_sync(k, target_get(TGT_A2A3), &st));
    if (getenv("SYNC_SHOW")) { StrBuf d = { 0 }; mir_dump(k, &d); printf("%s", sb_cstr(&d)); sb_free(&d); }
    /* IDs never used are preferred: the second loop takes 5, 6, 7, then (bridge only) reuses 0, 1;
     * without the bridge its last two pairs become pipe_barrier(PIPE_ALL) */
    CHECK_EQ_INT(st.ids_used[PIPE_M][PIPE_MTE1], 8);
    CHECK_EQ_INT(st.nfallback_barriers, bridge ? 0 : 2);
    static const int ids[2][5] = { { 0, 1, 2, 3, 4 }, { 5, 6, 7, 0, 1 } };
    int npre[2] = { 5, bridge ? 5 : 3 };
    int pos[2] = { -1, -1 };
    for (int j = 0; j < k->body.len; j++)
        for (int L = 0; L < 2; L++)
            if (k->body.items[j] == loops[L]) pos[L] = j;
    bool shape = pos[0] > 5 && pos[1] > pos[0] && pos[1] + npre[1] < k->body.len;
    CHECK(shape);
    for (int L = 0; L < 2 && shape; L++) {
        for (int d = 1; d <= npre[L]; d++) {   /* pre-sets right before the loop, drains right after */
            const MirInst *pre = k->body.items[pos[L] - d], *drain = k->body.items[pos[L] + d];
            CHECK(pre->op == MI_SET_FLAG && pre->compensation && pre->src_pipe == PIPE_M && pre->dst_pipe == PIPE_MTE1);
            CHECK(drain->op == MI_WAIT_FLAG && drain->compensation && drain->src_pipe == PIPE_M);
            CHECK_EQ_INT(pre->event, ids[L][npre[L] - d]);
            CHECK_EQ_INT(drain->event, ids[L][d - 1]);
        }
    }
    int nall = 0;
    for (int j = 0; j < loops[1]->body.len; j++)
        nall += loops[1]->body.items[j]->op == MI_BARRIER && loops[1]->body.items[j]->pipe == PIPE_ALL;
    CHECK_EQ_INT(nall, bridge ? 0 : 2);
    arena_free(a);
}

TEST(test_realloc_loop_scope) { check_realloc(true); }
TEST(test_realloc_no_unsafe_reuse) { check_realloc(false); }

/* a5 drops same-pipe V barriers (the hardware orders V); cross-pipe pairs stay */
TEST(test_a5_drops_v_barrier) {
    Arena *a = arena_new();
    Kernel *k = vec_kernel(a, "a5");
    MirExpr *z = mir_const(k, 0);
    int x = vbuf(k, "vx", 0), y = vbuf(k, "vy", 4096), w = vbuf(k, "vw", 8192);
    move(k, &k->body, MI_TMOV, y, x, NULL, NULL);
    move(k, &k->body, MI_TMOV, w, y, NULL, NULL);
    tload(k, &k->body, x, 0, z, z);
    SyncStats st;
    CHECK(back_insert_sync(k, target_get(TGT_A5), &st));
    StrBuf o = { 0 };
    sig_block(k, &k->body, &o);
    CHECK_EQ_STR(sb_cstr(&o), "vy S(V,MTE2,0) vw W(V,MTE2,0) vx B(ALL) ");
    CHECK_EQ_INT(st.nbarrier, 1);
    sb_free(&o);
    arena_free(a);
}

int main(void) {
    RUN(test_matmul_reference);
    RUN(test_mte2_v_mte3_chain);
    RUN(test_cube_chain_and_gm);
    RUN(test_war_and_same_pipe);
    RUN(test_if_else_merge);
    RUN(test_if_hoist);
    RUN(test_if_no_else);
    RUN(test_nested_loops);
    RUN(test_disjoint_no_sync);
    RUN(test_partial_overlap_syncs);
    RUN(test_widening);
    RUN(test_out_of_ids_fallback);
    RUN(test_realloc_loop_scope);
    RUN(test_realloc_no_unsafe_reuse);
    RUN(test_a5_drops_v_barrier);
    return test_summary();
}
