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

/* `for lane in pl.split_aiv(2[, mode=pl.SplitMode.X]):` — manual vector split (language.md §4.2): the
 * body is one vector core's work, `lane` (and pl.tile.get_subblock_idx() inside) its index 0 / 1. It is
 * a two-trip loop carrying attr split_aiv = the mode (MirSplit values); the interpreter runs the two
 * lanes one after the other, ExpandMixedKernel gives each lane its own AIV kernel of the cluster. */
bool front_parse_split_aiv_for(Parser *p, StmtList *body, Span sp, const char *lane, Span lane_span, Span ksp) {
    if (!front_expect_op(p, "(", "after pl.split_aiv")) return false;
    Span nsp = front_peek(p, 0)->span;
    Expr *n = front_parse_expr(p);
    int64_t v;
    if (!n) return false;
    if (!ir_is_const_int(ir_fold(p->c, n), &v) || v != 2) {
        front_error(p, nsp, "pl.split_aiv(N) divides work between the 2 vector cores of a cluster: N must be 2");
        return false;
    }
    int mode = 1;
    while (front_accept_op(p, ",") && !front_is_op(p, ")")) {
        Tok *key = front_peek(p, 0);
        if (key->kind != TK_NAME || strcmp(key->text, "mode") != 0 || !front_is_op_at(p, 1, "=")) {
            front_error(p, key->span, "pl.split_aiv takes the lane count and mode=pl.SplitMode.UP_DOWN / LEFT_RIGHT");
            return false;
        }
        front_next(p);
        front_next(p);
        Span msp = front_peek(p, 0)->span;
        const char *m = front_parse_dotted(p, &msp);
        if (!m) return false;
        if (strcmp(m, "pl.SplitMode.UP_DOWN") == 0) mode = 1;
        else if (strcmp(m, "pl.SplitMode.LEFT_RIGHT") == 0) mode = 2;
        else {
            front_error(p, msp, "pl.split_aiv mode must be pl.SplitMode.UP_DOWN or pl.SplitMode.LEFT_RIGHT, not '%s'", m);
            return false;
        }
    }
    if (!front_expect_op(p, ")", "to close pl.split_aiv(...)") || !front_expect_op(p, ":", "after the for header")) return false;
    Var *lv = front_bind(p, lane, ir_scalar_type(p->c, DT_INDEX), lane_span);
    Stmt *s = ir_for(p->c, lv, ir_const_int(p->c, 0, DT_INDEX), ir_const_int(p->c, 2, DT_INDEX), ir_const_int(p->c, 1, DT_INDEX),
                     FK_SEQUENTIAL);
    s->span = sp;
    ir_attr_set(p->c, &s->for_.attrs, "split_aiv", ir_av_int(mode));
    ir_list_push(p->c, body, s);
    p->loop_depth++;
    bool ok = front_parse_block(p, &s->for_.body, NULL);
    p->loop_depth--;
    (void)ksp;
    return ok;
}
