/* parse_optim — the `optimizations=[...]` option of `pl.at` (spec/language.md §4.2).
 * Requires: the parser positioned after `optimizations=`.
 * Produces: scope kwargs `split` (0 none, 1 up_down, 2 left_right; the MirSplit values) and
 *   `slot_num` (the cube/vector ring depth) on the pl.at scope; OutlineIncoreScopes copies them onto
 *   the kernel function, ExpandMixedKernel reads them.
 * Does: accepts a list of `pl.split(pl.SplitMode.NONE | UP_DOWN | LEFT_RIGHT)` (also `mode=`) and
 *   `pl.cross_core_slot(slot_num=N)` / `pl.cross_core_slot(N)`; anything else is a located error. */
#include "front/front_internal.h"

#include <string.h>

static bool parse_split(Parser *p, Stmt *s) {
    if (front_is_name(p, "mode") && front_is_op_at(p, 1, "=")) { front_next(p); front_next(p); }
    Span sp = front_peek(p, 0)->span;
    const char *mode = front_parse_dotted(p, &sp);
    if (!mode) return false;
    static const char *modes[] = { "pl.SplitMode.NONE", "pl.SplitMode.UP_DOWN", "pl.SplitMode.LEFT_RIGHT" };
    for (int m = 0; m < 3; m++)
        if (strcmp(mode, modes[m]) == 0) {
            ir_attr_set(p->c, &s->scope.kwargs, "split", ir_av_int(m));
            return front_expect_op(p, ")", "to close pl.split(...)");
        }
    front_error(p, sp, "pl.split takes pl.SplitMode.NONE, pl.SplitMode.UP_DOWN or pl.SplitMode.LEFT_RIGHT, not '%s'", mode);
    return false;
}

static bool parse_slot(Parser *p, Stmt *s) {
    if (front_is_name(p, "slot_num") && front_is_op_at(p, 1, "=")) { front_next(p); front_next(p); }
    Span sp = front_peek(p, 0)->span;
    Expr *n = front_parse_expr(p);
    if (!n) return false;
    int64_t v;
    if (!ir_is_const_int(ir_fold(p->c, n), &v) || v < 1 || v > 16) {
        front_error(p, sp, "pl.cross_core_slot(slot_num=N) needs a constant N in [1, 16] (the ring depth in tiles)");
        return false;
    }
    ir_attr_set(p->c, &s->scope.kwargs, "slot_num", ir_av_int(v));
    return front_expect_op(p, ")", "to close pl.cross_core_slot(...)");
}

bool front_parse_optimizations(Parser *p, Stmt *s) {
    if (!front_expect_op(p, "[", "to open the optimizations list")) return false;
    while (!p->failed && !front_is_op(p, "]")) {
        Span sp = front_peek(p, 0)->span;
        const char *name = front_parse_dotted(p, &sp);
        if (!name || !front_expect_op(p, "(", "after the optimization's name")) return false;
        bool ok;
        if (strcmp(name, "pl.split") == 0) ok = parse_split(p, s);
        else if (strcmp(name, "pl.cross_core_slot") == 0) ok = parse_slot(p, s);
        else {
            front_error(p, sp, "unknown optimization '%s' (pl.at accepts pl.split(pl.SplitMode.X) and "
                        "pl.cross_core_slot(slot_num=N))", name);
            return false;
        }
        if (!ok) return false;
        if (!front_accept_op(p, ",")) break;
    }
    return front_expect_op(p, "]", "to close the optimizations list");
}
