/* test_mutate_xcore — every cross-core push / pop / free and every flag of a compiled mixed kernel is
 * needed: deleting any one of them is caught (a race, a sync error such as a deadlock or a token or
 * ring entry left over, a simulator error, or a result that differs from the interpreter's). The
 * mixed example programs are compiled once; then, one at a time, each tpush, tpop, tfree, set_flag
 * and wait_flag of each AIC / AIV kernel is removed from its block, the program is run, and the
 * instruction is put back. A mutant that runs clean and correct is a hole in the checking: it fails
 * the test with the kernel, the instruction and its line. */
#include <stdio.h>
#include <string.h>

#include "driver/driver_int.h"
#include "test.h"

typedef struct Site { MirBlock *block; int at; } Site;
typedef VEC(Site) Sites;

static bool is_target(const MirInst *i) {
    return i->op == MI_TPUSH || i->op == MI_TPOP || i->op == MI_TFREE || i->op == MI_SET_FLAG || i->op == MI_WAIT_FLAG;
}

static void collect(MirBlock *b, Sites *out) {
    for (int j = 0; j < b->len; j++) {
        MirInst *i = b->items[j];
        if (i->op == MI_FOR) collect(&i->body, out);
        else if (i->op == MI_IF) { collect(&i->then_body, out); collect(&i->else_body, out); }
        else if (is_target(i)) vec_push(out, ((Site){ b, j }));
    }
}

static bool caught(DrvSession *s) {
    if (!drv_run_random(s)) return true;            /* a simulator error */
    return !drv_run_ok(s);
}

/* Returns the number of mutants; every one must be caught. */
static int mutate_program(const char *path, const char *target) {
    DrvOptions o;
    drv_options_defaults(&o);
    o.target = target_by_name(target);
    DrvSession *s = drv_new(&o);
    CHECK(drv_load_file(s, path, NULL));
    CHECK(drv_compile(s));
    CHECK(drv_run_random(s));
    CHECK(drv_run_ok(s));                           /* the unmutated program is clean */
    int n = 0, xcore = 0;
    for (int k = 0; k < s->kernels.len; k++) {
        Kernel *kern = s->kernels.data[k].k;
        Sites sites = {0};
        collect(&kern->body, &sites);
        for (int m = 0; m < sites.len; m++) {
            Site st = sites.data[m];
            MirInst *i = st.block->items[st.at];
            mir_block_remove(st.block, st.at);
            bool ok = caught(s);
            mir_block_insert(kern, st.block, st.at, i);
            n++;
            xcore += i->op == MI_TPUSH || i->op == MI_TPOP || i->op == MI_TFREE;
            if (!ok) fprintf(stderr, "  %s (%s): deleting %s at line %d of kernel %s goes unnoticed\n", path, target,
                             mir_op_name(i->op), i->loc.line, kern->name);
            CHECK(ok);
        }
        vec_free(&sites);
    }
    CHECK(xcore > 0);                               /* the program really is a mixed kernel */
    fprintf(stderr, "  %s (%s): %d mutants (%d cross-core), all caught\n", path, target, n, xcore);
    drv_free(s);
    return n;
}

TEST(test_mutants_mm_bias) { CHECK(mutate_program("examples/mm_bias_relu_mixed.py", "a2a3") > 0); }
TEST(test_mutants_mm_bias_lr_a5) { CHECK(mutate_program("examples/mm_bias_gelu_lr.py", "a5") > 0); }
TEST(test_mutants_mlp) { CHECK(mutate_program("examples/fused_mlp.py", "a2a3") > 0); }
TEST(test_mutants_fence) { CHECK(mutate_program("tests/e2e/mixed_gm_fence_fp16.py", "a2a3") > 0); }
TEST(test_mutants_loop) { CHECK(mutate_program("tests/e2e/mixed_loop_slots1_fp16.py", "a2a3") > 0); }
TEST(test_mutants_attention_a5) { CHECK(mutate_program("examples/attention.py", "a5") > 0); }
TEST(test_mutants_flash) { CHECK(mutate_program("examples/flash_attention_small.py", "a2a3") > 0); }
/* carries pushed where they are made (expand_mixed_carry.c): init pushes before the loop, early pushes */
TEST(test_mutants_flash_carried) { CHECK(mutate_program("tests/e2e/mixed_flash_carried_pv_fp16.py", "a2a3") > 0); }
TEST(test_mutants_flash_carried_a5) { CHECK(mutate_program("tests/e2e/mixed_flash_carried_pv_fp16.py", "a5") > 0); }

int main(void) {
    RUN(test_mutants_mm_bias);
    RUN(test_mutants_mm_bias_lr_a5);
    RUN(test_mutants_mlp);
    RUN(test_mutants_fence);
    RUN(test_mutants_loop);
    RUN(test_mutants_attention_a5);
    RUN(test_mutants_flash);
    RUN(test_mutants_flash_carried);
    RUN(test_mutants_flash_carried_a5);
    return test_summary();
}
