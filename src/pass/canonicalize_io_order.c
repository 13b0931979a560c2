/* CanonicalizeIOOrder
 * Requires: SSAForm; LowerPipelineLoops done (Pipeline loops carry pipeline_stages = 1).
 * Produces: PipelineResolved — every Pipeline loop demoted to Sequential, pipeline_stages stripped;
 *           its body (and nested if branches) reordered scalar -> loads -> compute -> stores.
 * Does: a priority-aware stable topological sort over the def-use graph of each body: among ready
 *   statements emit the smallest key (tier, stage, sub, index) with tiers ScalarCompute 0, Load 1
 *   (tile.load, L1->L0 tile.extract — except a pipeline_l0_step extract of an unrolled K loop, which
 *   keeps its ping-pong place in the compute tier), TileCompute 2/sub 0, Store 2/sub 1. A statement's stage is its
 *   pipeline_membership stage, else the largest stage of the statements it depends on. With
 *   pipeline_double_buffer_c the compute tier is keyed by stage / 2 first, so a depth-two chunk runs
 *   matmul, matmul, drain, drain; afterwards the cube accumulators' memberships are rotated modulo 2
 *   (stage j -> j % 2), so MemoryReuse keeps exactly two Acc buffers whatever the depth F while Left /
 *   Right keep all F (F = 4: M0 M1 S0 S1 M2 M3 S2 S3, accumulators at 0 1 0 1). For stage = 2 the
 *   result is load_0, load_1, compute_0, store_0, compute_1, store_1. */
#include "pass/pass.h"

#include <string.h>

typedef struct { int tier, sub, stage, index; Var *defs[8]; int ndefs; } Node;

static int membership_stage(const Expr *c) {
    const AttrVal *m = c ? ir_attr_get(&c->call.attrs, "pipeline_membership") : NULL;
    if (!m) return -1;
    const char *last = strrchr(m->s, ';');
    const char *colon = strchr(last ? last + 1 : m->s, ':');
    return colon ? atoi(colon + 1) : -1;
}

static void node_defs(Stmt *s, Node *n) {
    n->ndefs = 0;
    if (s->kind == ST_ASSIGN) n->defs[n->ndefs++] = s->assign.var;
    VarList *rv = s->kind == ST_FOR ? &s->for_.return_vars : s->kind == ST_IF ? &s->if_.return_vars : NULL;
    for (int i = 0; rv && i < rv->len && n->ndefs < 8; i++) n->defs[n->ndefs++] = rv->items[i];
}

static void classify(Stmt *s, Node *n) {
    Expr *c = pass_stmt_call(s);
    n->tier = 2;
    n->sub = 0;
    n->stage = membership_stage(c);
    if (s->kind == ST_ASSIGN && !c && s->assign.var->type && s->assign.var->type->kind == TY_SCALAR) n->tier = 0;
    else if (pass_is_op(c, OP_TILE_LOAD)) n->tier = 1;
    else if (pass_is_op(c, OP_TILE_EXTRACT) && c->call.args[0]->type->space == MS_MAT &&
             !ir_attr_get(&c->call.attrs, "pipeline_l0_step"))
        n->tier = 1;                 /* a pipeline_l0_step extract stays in its ping-pong place (compute tier) */
    else if (pass_is_op(c, OP_TILE_STORE)) n->sub = 1;
}

static bool uses_def(Stmt *s, const Node *d) {
    StmtList one = { &s, 1, 1 };
    for (int i = 0; i < d->ndefs; i++)
        if (ir_stmts_use_var(&one, d->defs[i])) return true;
    return false;
}

static bool key_less(const Node *a, const Node *b, bool dbc) {
    int as = a->stage < 0 ? 0 : a->stage, bs = b->stage < 0 ? 0 : b->stage;
    int ka[5] = { a->tier, dbc && a->tier == 2 ? as / 2 : as, a->sub, as, a->index };
    int kb[5] = { b->tier, dbc && b->tier == 2 ? bs / 2 : bs, b->sub, bs, b->index };
    for (int i = 0; i < 5; i++)
        if (ka[i] != kb[i]) return ka[i] < kb[i];
    return false;
}

static void reorder(IrCtx *c, StmtList *l, bool dbc) {
    int n = l->len;
    if (n < 2) return;
    bool has_yield = l->items[n - 1]->kind == ST_YIELD;
    int m = has_yield ? n - 1 : n;
    Node *nodes = calloc((size_t)m, sizeof(Node));
    bool *dep = calloc((size_t)m * (size_t)m, 1), *done = calloc((size_t)m, 1);
    for (int i = 0; i < m; i++) {
        nodes[i].index = i;
        classify(l->items[i], &nodes[i]);
        node_defs(l->items[i], &nodes[i]);
    }
    for (int i = 0; i < m; i++)
        for (int j = 0; j < i; j++) {
            bool effect_order = l->items[i]->kind == ST_EVAL && l->items[j]->kind == ST_EVAL;
            if (effect_order || uses_def(l->items[i], &nodes[j])) {
                dep[i * m + j] = true;
                if (nodes[i].stage < 0 || nodes[i].stage < nodes[j].stage) {
                    if (membership_stage(pass_stmt_call(l->items[i])) < 0) nodes[i].stage = nodes[j].stage;
                }
            }
        }
    Stmt **out = ARENA_ARRAY(c->arena, Stmt *, n);
    for (int k = 0; k < m; k++) {
        int best = -1;
        for (int i = 0; i < m; i++) {
            if (done[i]) continue;
            bool ready = true;
            for (int j = 0; j < i && ready; j++) ready = !dep[i * m + j] || done[j];
            if (ready && (best < 0 || key_less(&nodes[i], &nodes[best], dbc))) best = i;
        }
        PTOC_ASSERT(best >= 0, "dependency cycle in a pipeline body");
        done[best] = true;
        out[k] = l->items[best];
    }
    if (has_yield) out[m] = l->items[m];
    memcpy(l->items, out, sizeof(Stmt *) * (size_t)n);
    free(nodes);
    free(dep);
    free(done);
}

/* A dbc chunk M_2i M_2i+1 S_2i S_2i+1 needs only two accumulators at a time: M_2i+2 may reuse M_2i's
 * buffer once S_2i has drained it. Only the last (innermost) membership pair is rotated. */
static void rotate_acc(IrCtx *c, StmtList *l) {
    for (int i = 0; i < l->len; i++) {
        Stmt *s = l->items[i];
        if (s->kind == ST_IF) { rotate_acc(c, &s->if_.then_body); rotate_acc(c, &s->if_.else_body); continue; }
        Expr *call = pass_stmt_call(s);
        if (!call || call->call.op == OP_NONE || !(ir_op_info(call->call.op)->flags & OPF_CUBE) || !call->type ||
            call->type->space != MS_ACC)
            continue;
        int stage = membership_stage(call);
        if (stage < 2) continue;
        const char *m = ir_attr_get(&call->call.attrs, "pipeline_membership")->s, *colon = strrchr(m, ':');
        ir_attr_set(c, &call->call.attrs, "pipeline_membership",
                    ir_av_str(arena_printf(c->arena, "%.*s%d", (int)(colon + 1 - m), m, stage % 2)));
    }
}

static void canon_list(IrCtx *c, StmtList *l, bool in_pipeline, bool dbc) {
    for (int i = 0; i < l->len; i++) {
        Stmt *s = l->items[i];
        if (s->kind == ST_FOR) {
            bool pipe = s->for_.kind == FK_PIPELINE;
            const AttrVal *d = ir_attr_get(&s->for_.attrs, "pipeline_double_buffer_c");
            bool ldbc = pipe ? d && d->i : dbc;
            canon_list(c, &s->for_.body, pipe || in_pipeline, ldbc);
            if (pipe) {
                reorder(c, &s->for_.body, ldbc);
                if (ldbc) rotate_acc(c, &s->for_.body);
                s->for_.kind = FK_SEQUENTIAL;
                ir_attr_remove(&s->for_.attrs, "pipeline_stages");
            }
        } else if (s->kind == ST_IF) {
            canon_list(c, &s->if_.then_body, in_pipeline, dbc);
            canon_list(c, &s->if_.else_body, in_pipeline, dbc);
            if (in_pipeline) { reorder(c, &s->if_.then_body, dbc); reorder(c, &s->if_.else_body, dbc); }
        }
    }
}

bool pass_canonicalize_io_order(Program *p, PassCtx *ctx) {
    for (int i = 0; i < p->nfuncs; i++)
        if (ir_functype_is_incore(p->funcs[i]->type)) canon_list(ctx->ir, &p->funcs[i]->body, false, false);
    return true;
}
