/* util: helpers shared by passes — perf hints, fresh names, statement/call accessors. */
#include "pass/pass.h"

#include <string.h>

void pass_hint(PassCtx *ctx, Span sp, const char *code, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    diag_vadd(ctx->diag, DIAG_PERF, sp, code, fmt, ap);
    va_end(ap);
}

const char *pass_name(PassCtx *ctx, const char *base, const char *suffix) {
    /* strip an earlier versioning suffix so names do not grow: x__ssa_v0 -> x */
    const char *cut = strstr(base, "__");
    int len = cut ? (int)(cut - base) : (int)strlen(base);
    return arena_printf(ctx->ir->arena, "%.*s__%s_v%d", len, base, suffix, ctx->counter++);
}

Expr *pass_stmt_call(Stmt *s) {
    Expr *e = s->kind == ST_ASSIGN ? s->assign.value : s->kind == ST_EVAL ? s->eval.expr : NULL;
    return e && e->kind == EX_CALL ? e : NULL;
}

bool pass_is_op(const Expr *e, OpId op) { return e && e->kind == EX_CALL && e->call.op == op; }

void pass_var_set_type(Var *v, Type *t) {
    v->type = t;
    if (v->ref) v->ref->type = t;
}

int64_t pass_l0c_align(PassCtx *ctx, DType acc) { return target_l0c_align_m(ctx->target, acc); }

void pass_ctx_free(PassCtx *ctx) { vec_free(&ctx->tiles); }
