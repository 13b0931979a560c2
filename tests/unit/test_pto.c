/* test_pto — the .pto printer (back/pto.c) on the synchronised matmul kernel of
 * ir_and_passes.md §13 and on a small vector kernel with scalar expressions.
 *
 * Requires: the mir building API, back_insert_sync, back_print_pto.
 * Does:     checks the module header, kernel kind, constants, views, alloc_tile addresses, the loop,
 *           the accumulate form, the sync ops and that braces balance.
 */
#include "back/back.h"
#include "test.h"

#include <stdlib.h>

#include "mir_build_util.h"


static int count(const char *hay, const char *needle) {
    int n = 0;
    for (const char *p = strstr(hay, needle); p; p = strstr(p + 1, needle)) n++;
    return n;
}

static bool braces_balance(const char *s) {
    int depth = 0;
    for (; *s; s++) {
        if (*s == '{') depth++;
        if (*s == '}' && --depth < 0) return false;
    }
    return depth == 0;
}

TEST(test_matmul_pto) {
    Arena *a = arena_new();
    Kernel *k = matmul_kernel(a);
    SrcFile f = { "matmul.py", "", 0 };
    k->body.items[0]->loc = (Span){ &f, 7, 9, 1 };
    CHECK(back_insert_sync(k, target_get(TGT_A2A3), NULL));
    StrBuf sb = { 0 };
    back_print_pto(k, target_get(TGT_A2A3), &sb);
    const char *s = sb_cstr(&sb);
    if (getenv("PTO_SHOW")) printf("%s", s);
    CHECK(strstr(s, "module attributes {pto.target_arch = \"a2a3\"} {\n") == s);
    CHECK_CONTAINS(s, "  func.func @matmul_matmul(%arg0: !pto.ptr<f16>, %arg1: !pto.ptr<f16>, %arg2: !pto.ptr<f32>) "
                      "attributes {pto.kernel_kind = #pto.kernel_kind<cube>} {\n");
    CHECK_CONTAINS(s, "    %c128_index = arith.constant 128 : index\n");
    CHECK_CONTAINS(s, "    %c0_i64 = arith.constant 0 : i64\n");
    CHECK_CONTAINS(s, "    %c32768_i64 = arith.constant 32768 : i64\n");
    CHECK_EQ_INT(count(s, "%c128_index = arith.constant"), 1);
    CHECK_CONTAINS(s, "    %a_view = pto.make_tensor_view %arg0, shape = [%c128_index, %c512_index], strides = "
                      "[%c512_index, %c1_index] {layout = #pto.layout<nd>} : !pto.tensor_view<?x?xf16>\n");
    CHECK_CONTAINS(s, "    %sa0 = pto.alloc_tile addr = %c0_i64 valid_row = %c128_index valid_col = %c128_index : "
                      "!pto.tile_buf<loc=left, dtype=f16, rows=128, cols=128, v_row=?, v_col=?, blayout=row_major, "
                      "slayout=row_major, fractal=512, pad=0>\n");
    CHECK_CONTAINS(s, "    %sa1 = pto.alloc_tile addr = %c32768_i64 valid_row = %c128_index valid_col = %c128_index : "
                      "!pto.tile_buf<loc=left,");
    CHECK_CONTAINS(s, "%acc = pto.alloc_tile addr = %c0_i64 valid_row = %c128_index valid_col = %c128_index : "
                      "!pto.tile_buf<loc=acc, dtype=f32, rows=128, cols=128, v_row=?, v_col=?, blayout=col_major, "
                      "slayout=row_major, fractal=1024, pad=0>");
    CHECK_CONTAINS(s, "    %pv0 = pto.partition_view %a_view, offsets = [%c0_index, %c0_index], sizes = [%c128_index, "
                      "%c512_index] : !pto.tensor_view<?x?xf16> -> !pto.partition_tensor_view<128x512xf16>\n");
    CHECK_CONTAINS(s, "    pto.tload ins(%pv0 : !pto.partition_tensor_view<128x512xf16>) outs(%a_mat : "
                      "!pto.tile_buf<loc=mat, dtype=f16, rows=128, cols=512, v_row=?, v_col=?, blayout=col_major, "
                      "slayout=row_major, fractal=512, pad=0>) loc(\"matmul.py\":7:9)\n");
    CHECK_CONTAINS(s, "    scf.for %ko = %c0_index to %c512_index step %c256_index {\n");
    CHECK_CONTAINS(s, "      pto.textract ins(%a_mat, %c0_index, %ko : !pto.tile_buf<loc=mat,");
    CHECK_CONTAINS(s, "      %t0 = arith.addi %ko, %c128_index : index\n");
    CHECK_CONTAINS(s, "      %t2 = arith.cmpi eq, %ko, %c0_index : index\n      scf.if %t2 {\n");
    CHECK_CONTAINS(s, "        pto.tmatmul ins(%sa0, %sb0 : !pto.tile_buf<loc=left,");
    CHECK_CONTAINS(s, "        pto.tmatmul.acc ins(%acc, %sa0, %sb0 : !pto.tile_buf<loc=acc,");
    CHECK_CONTAINS(s, "      } else {\n");
    CHECK_CONTAINS(s, "    pto.set_flag[<PIPE_M>, <PIPE_MTE1>, <EVENT_ID0>]\n");
    CHECK_CONTAINS(s, "      pto.wait_flag[<PIPE_MTE1>, <PIPE_M>, <EVENT_ID1>]\n");
    CHECK_CONTAINS(s, "      pto.barrier #pto.pipe<PIPE_MTE1>\n");
    CHECK_CONTAINS(s, "    pto.barrier #pto.pipe<PIPE_ALL>\n    return\n  }\n}\n");
    CHECK_CONTAINS(s, "pto.tstore ins(%acc : !pto.tile_buf<loc=acc,");
    CHECK_CONTAINS(s, ") outs(%pv");
    CHECK_EQ_INT(count(s, "pto.set_flag["), 8);
    CHECK_EQ_INT(count(s, "pto.wait_flag["), 8);
    CHECK_EQ_INT(count(s, "pto.alloc_tile"), 7);
    CHECK_EQ_INT(count(s, "pto.make_tensor_view"), 3);
    CHECK(braces_balance(s));
    sb_free(&sb);
    arena_free(a);
}

TEST(test_vector_pto) {
    Arena *a = arena_new();
    Kernel *k = mir_kernel_new(a, "vec k", CORE_AIV);
    int px = param(k, "x", DT_FP32, 64, 64);
    int vx = buf(k, "vx", MS_VEC, 0, DT_FP32, 16, 64, ML_ROW_MAJOR, ML_NONE_BOX, 512);
    int vy = buf(k, "vy", MS_VEC, 4096, DT_FP32, 16, 64, ML_ROW_MAJOR, ML_NONE_BOX, 512);
    MirInst *f = loop(k, &k->body, "i", 0, 4, 1);
    MirExpr *row = mir_bin(k, MB_MUL, mir_var(k, f->var), mir_const(k, 16));
    tload(k, &f->body, vx, px, row, mir_const(k, 0));
    MirInst *br = branch(k, &f->body, mir_bin(k, MB_FLOORMOD, mir_var(k, f->var), mir_const(k, 2)));
    move(k, &br->then_body, MI_TMOV, vy, vx, NULL, NULL);
    MirInst *st = tstore(k, &f->body, px, vy, row, mir_const(k, -16));
    st->atomic_add = true;
    StrBuf sb = { 0 };
    back_print_pto(k, target_get(TGT_A5), &sb);
    const char *s = sb_cstr(&sb);
    if (getenv("PTO_SHOW")) printf("%s", s);
    CHECK_CONTAINS(s, "module attributes {pto.target_arch = \"a5\"} {\n");
    CHECK_CONTAINS(s, "func.func @vec_k(%arg0: !pto.ptr<f32>) attributes {pto.kernel_kind = #pto.kernel_kind<vector>}");
    CHECK_CONTAINS(s, "!pto.tile_buf<loc=vec, dtype=f32, rows=16, cols=64, v_row=?, v_col=?, blayout=row_major, "
                      "slayout=none_box, fractal=512, pad=0>");
    CHECK_CONTAINS(s, "arith.muli %i, %c16_index : index\n");
    CHECK_CONTAINS(s, "arith.floordivsi %i, %c2_index : index\n");
    CHECK_CONTAINS(s, "arith.cmpi ne, %t");
    CHECK_CONTAINS(s, "%cn16_index = arith.constant -16 : index\n");
    CHECK_CONTAINS(s, "pto.partition_view %x_view, offsets = [%t");
    CHECK_CONTAINS(s, " {atomicType = #pto<atomic_type atomic_add>}\n");
    CHECK_CONTAINS(s, "pto.tmov ins(%vx : !pto.tile_buf<loc=vec,");
    CHECK(strstr(s, "} else {") == NULL);   /* empty else omitted */
    CHECK(braces_balance(s));
    sb_free(&sb);
    arena_free(a);
}

int main(void) {
    RUN(test_matmul_pto);
    RUN(test_vector_pto);
    return test_summary();
}
