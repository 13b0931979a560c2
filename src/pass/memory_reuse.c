/* MemoryReuse
 * Requires: HasMemRefs (one tile.alloc per base at the top of each kernel). Runs under every memory
 *           planner (PYPTO exactly; DSA_RP / PTOAS approximated, see pass_memory_reuse).
 * Produces: bases whose lifetimes do not overlap merged onto one buffer, per memory space; the
 *           pipeline_membership attrs consumed and stripped; unreferenced allocs dropped.
 * Does: lifetimes from a linear pre-order numbering (a value defined outside a loop and used in it,
 *   at any depth, lives to the end of the outermost such loop; `prev.last <= curr.def` is no overlap). Global first-fit-decreasing
 *   packing: largest base first (equal sizes: pipeline clones, last stage first, before the tiles
 *   defined ahead of them); it joins the first buffer all of whose members it may share with
 *   (disjoint lifetimes, and never the result of an op with an input it may not overwrite: spec/ops.md
 *   §2.7 — every input of a not-in-place-safe op, an expand op's broadcast vector, a cast's input, a tile.slice
 *   view). Pipeline-stage guard: clones of one
 *   group at different stage residues (stage mod F_g) never share, F_g starting at the group's
 *   depth; when a space then overflows its capacity, depth is shed one step from the group that
 *   frees the most bytes, with perf hint PH-MR-001. A tile outside any pipeline that may join a
 *   pipelined buffer joins the last stage's when defined before the pipeline, the first stage's when
 *   after it, so a head matmul's operands do not delay the first iteration's first loads and a peeled
 *   tail's loads do not wait for the last iteration's last reads.
 * Cost: each buffer keeps its members' lifetimes sorted by (def, last); members never overlap, so in
 *   that order `last` never decreases and checking a candidate against a buffer is a binary search
 *   (plus the candidate's own inputs it may not overwrite, and the buffer's group residues), not a walk
 *   over every member. Bases are found by a binary search on their Var. A chain of 10,000 tiles packs
 *   in milliseconds; the packing is unchanged. */
#include "pass/pass.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    Var *base; MemSpace space; int64_t size;
    int def, last;                 /* lifetime */
    int group, stage;              /* pipeline membership of the defining call, -1 if none */
    const Stmt *loop;              /* the loop around the defining call (the pipeline a PH-MR-001 names) */
    int buffer;                    /* packing result: index of the buffer leader */
    Stmt *alloc;
} Base;

typedef struct {
    PassCtx *ctx; Function *f;
    Base *bases; int nbases;
    int counter;
    VEC(Var *) noalias;            /* pairs of bases that may not share (not in-place safe): 2 entries each */
    int *bad_off, *bad_idx;        /* the same pairs per base (CSR by base index): forbidden() is a short scan */
    Base **by_var;                 /* the bases sorted by their Var pointer: base_of is a binary search, not a
                                    * walk of every base per use (quadratic in the statements of a kernel) */
} Reuse;

static int cmp_var(const void *x, const void *y) {
    uintptr_t a = (uintptr_t)(*(Base *const *)x)->base, b = (uintptr_t)(*(Base *const *)y)->base;
    return a < b ? -1 : a > b;
}

static void index_bases(Reuse *r) {
    r->by_var = malloc(sizeof(Base *) * (size_t)(r->nbases + 1));
    PTOC_ASSERT(r->by_var, "out of memory");
    for (int i = 0; i < r->nbases; i++) r->by_var[i] = &r->bases[i];
    qsort(r->by_var, (size_t)r->nbases, sizeof(Base *), cmp_var);
}

static Base *base_of(Reuse *r, const Var *b) {
    int lo = 0, hi = r->nbases - 1;
    while (lo <= hi) {
        int mid = lo + (hi - lo) / 2;
        const Var *m = r->by_var[mid]->base;
        if (m == b) return r->by_var[mid];
        if ((uintptr_t)m < (uintptr_t)b) lo = mid + 1; else hi = mid - 1;
    }
    return NULL;
}

/* The loops enclosing a statement, outermost first: [start, end) of each in the numbering. */
typedef struct Loops { int start[64], end[64]; const Stmt *stmt[64]; int n; } Loops;

/* A use at `at` inside loops keeps a value defined before a loop alive to that loop's end (the next
 * iteration reads it again) — to the end of the outermost enclosing loop that starts after the
 * definition, however deeply the use is nested. */
static void touch(Reuse *r, const Var *v, int at, const Loops *loops) {
    if (!v->type || !v->type->memref) return;
    Base *b = base_of(r, v->type->memref->base);
    if (!b) return;
    if (b->def < 0 || at < b->def) b->def = at;
    int end = at;
    for (int i = 0; loops && i < loops->n; i++)
        if (b->def < loops->start[i] && loops->end[i] > end) { end = loops->end[i]; break; }
    if (end > b->last) b->last = end;
}

typedef struct { Reuse *r; int at; const Loops *loops; } UseCtx;
static void use_visit(Expr *e, void *ud) {
    UseCtx *u = ud;
    if (e->kind == EX_VAR) touch(u->r, e->var, u->at, u->loops);
}

static void parse_membership(const Expr *c, int *group, int *stage) {
    const AttrVal *m = c ? ir_attr_get(&c->call.attrs, "pipeline_membership") : NULL;
    *group = *stage = -1;
    if (!m) return;
    const char *last = strrchr(m->s, ';');
    sscanf(last ? last + 1 : m->s, "%d:%d", group, stage);
}

/* Whether the result of call may not share argument a's buffer (spec/ops.md §2.7): every input of a
 * not-in-place-safe op (for the cube ops the first); the broadcast vector of a row/col expand op,
 * read for every row or column after the first results are written; the input of a cast (a widening
 * one overwrites elements it has not read yet) or of a compare (its packed mask is another layout);
 * the mask of a select; the scratch tile of xor / xors / rem / rems / prelu (the hardware writes it
 * while computing); a tile.slice view read by any op (in place would mean a partial overlap). */
static bool output_may_not_alias(const Expr *c, int a) {
    unsigned fl = ir_op_info(c->call.op)->flags;
    const Type *at = a < c->call.nargs ? c->call.args[a]->type : NULL;
    if (at && at->kind == TY_TILE && at->view && (at->view->nstride || at->view->start_offset) && c->call.op != OP_TILE_SLICE)
        return true;   /* a tile.slice operand: sharing its parent's base puts dst at another offset and row pitch */
    if (!(fl & OPF_VEC)) return a == 0 && (fl & OPF_NOT_INPLACE_SAFE);
    if (fl & OPF_NOT_INPLACE_SAFE) return true;
    VecKind k = ir_vec_kind(c->call.op);
    return ((k == VK_ROW_EXPAND || k == VK_COL_EXPAND) && a == 1) || k == VK_CAST || k == VK_CMP || k == VK_CMPS ||
           ((k == VK_SEL || k == VK_SELS) && a == 0) ||
           ((k == VK_BINARY || k == VK_SCALAR) && c->call.nargs == 3 && a == 2);   /* xor xors rem rems prelu: the scratch */
}

/* Numbers statements; `loops` are the loops enclosing l (NULL while only counting). */
static void lifetimes(Reuse *r, StmtList *l, const Loops *loops) {
    for (int i = 0; i < l->len; i++) {
        Stmt *s = l->items[i];
        int at = r->counter++;
        UseCtx u = { r, at, loops };
        StmtList one = { &l->items[i], 1, 1 };
        if (s->kind == ST_FOR || s->kind == ST_IF) {
            int start = at;
            /* number the body first to know where the loop ends */
            int save = r->counter;
            StmtList *bodies[2] = { s->kind == ST_FOR ? &s->for_.body : &s->if_.then_body,
                                    s->kind == ST_IF ? &s->if_.else_body : NULL };
            for (int k = 0; k < 2 && bodies[k]; k++) lifetimes(r, bodies[k], NULL);
            int end = r->counter;
            r->counter = save;
            Loops inner = loops ? *loops : (Loops){ .n = 0 };
            if (s->kind == ST_FOR) {
                PTOC_ASSERT(inner.n < 64, "loops nested more than 64 deep");
                inner.start[inner.n] = start + 1;
                inner.stmt[inner.n] = s;
                inner.end[inner.n++] = end;
            }
            for (int k = 0; k < 2 && bodies[k]; k++) lifetimes(r, bodies[k], &inner);
            VarList *defs[2] = { s->kind == ST_FOR ? &s->for_.iter_args : NULL, s->kind == ST_FOR ? &s->for_.return_vars : &s->if_.return_vars };
            for (int k = 0; k < 2; k++)
                for (int j = 0; defs[k] && j < defs[k]->len; j++) touch(r, defs[k]->items[j], k ? r->counter : start, NULL);
            if (s->kind == ST_FOR)
                for (int j = 0; j < s->for_.iter_args.len; j++) {
                    Expr *init = s->for_.iter_args.items[j]->init;
                    UseCtx ui = { r, start, NULL };
                    ir_visit_expr(init, use_visit, &ui);
                }
            UseCtx uc = { r, start, loops };
            ir_visit_expr(s->kind == ST_FOR ? s->for_.stop : s->if_.cond, use_visit, &uc);
            continue;
        }
        if (s->kind == ST_ASSIGN) {
            Expr *c = pass_stmt_call(s);
            if (pass_is_op(c, OP_TILE_ALLOC)) continue;
            touch(r, s->assign.var, at, NULL);
            if (c && s->assign.var->type->memref) {
                Base *b = base_of(r, s->assign.var->type->memref->base);
                int g, st;
                parse_membership(c, &g, &st);
                if (b && g >= 0 && b->group < 0) { b->group = g; b->stage = st; }
                if (b && g >= 0 && loops && loops->n && !b->loop) b->loop = loops->stmt[loops->n - 1];
                for (int a = 0; c->call.op != OP_NONE && a < c->call.nargs; a++)
                    if (c->call.args[a]->kind == EX_VAR && c->call.args[a]->type->memref && output_may_not_alias(c, a)) {
                        vec_push(&r->noalias, s->assign.var->type->memref->base);
                        vec_push(&r->noalias, c->call.args[a]->type->memref->base);
                    }
            }
        }
        ir_visit_exprs(&one, use_visit, &u);
    }
}

/* Builds the per-base lists of the not-in-place pairs (both directions). */
static void build_forbidden(Reuse *r) {
    int n = r->nbases, np = r->noalias.len / 2;
    r->bad_off = calloc((size_t)n + 2, sizeof(int));
    r->bad_idx = calloc((size_t)(2 * np) + 1, sizeof(int));
    int *pair = malloc(sizeof(int) * (size_t)(2 * np + 1)), *fill = calloc((size_t)n + 1, sizeof(int));
    PTOC_ASSERT(r->bad_off && r->bad_idx && pair && fill, "out of memory");
    for (int i = 0; i < 2 * np; i++) {
        Base *b = base_of(r, r->noalias.data[i]);
        pair[i] = b ? (int)(b - r->bases) : -1;
    }
    for (int i = 0; i < np; i++)
        if (pair[2 * i] >= 0 && pair[2 * i + 1] >= 0) { r->bad_off[pair[2 * i] + 1]++; r->bad_off[pair[2 * i + 1] + 1]++; }
    for (int i = 0; i < n; i++) r->bad_off[i + 1] += r->bad_off[i];
    for (int i = 0; i < np; i++) {
        int x = pair[2 * i], y = pair[2 * i + 1];
        if (x < 0 || y < 0) continue;
        r->bad_idx[r->bad_off[x] + fill[x]++] = y;
        r->bad_idx[r->bad_off[y] + fill[y]++] = x;
    }
    free(pair);
    free(fill);
}

static int group_depth(Reuse *r, int g) {
    int d = 0;
    for (int i = 0; i < r->nbases; i++)
        if (r->bases[i].group == g && r->bases[i].stage + 1 > d) d = r->bases[i].stage + 1;
    return d;
}

static int cmp_size(const void *x, const void *y) {
    const Base *a = *(Base *const *)x, *b = *(Base *const *)y;
    if (a->size != b->size) return a->size < b->size ? 1 : -1;
    /* Equal sizes: pipeline clones before the tiles defined ahead of them, the last stage first, so
     * that a tile defined before the pipeline (a head matmul's operands) lands on the buffers of the
     * last stage: those are loaded last in each iteration, and the first stage's loads need not wait
     * for the head's reads. */
    if ((a->group >= 0) != (b->group >= 0)) {
        const Base *pipe = a->group >= 0 ? a : b, *other = a->group >= 0 ? b : a;
        if (other->def < pipe->def) return a == pipe ? -1 : 1;
    }
    if (a->group >= 0 && a->group == b->group && a->stage != b->stage) return b->stage - a->stage;
    return a->base->id - b->base->id;
}

/* One buffer while packing a space: its leader and what a candidate must be checked against — the
 * members' lifetimes sorted by (def, last) and the stage residue of each pipeline group among them.
 * Members are pairwise disjoint, so with that order their `last` never decreases: the members that
 * start before a candidate ends are a prefix, and the last of them reaches furthest. A check is a
 * binary search plus the candidate's short not-in-place list, not a walk of every member (which made
 * the packing cubic in the tiles of a long chain). Same answers as checking every member for disjoint
 * lifetimes, no not-in-place pair and (pipeline groups) the same stage residue. */
typedef struct { int def, last; } Life;
typedef struct { int group, residue; } Residue;
typedef struct {
    int lead;                      /* base index of the leader */
    VEC(Life) life;
    VEC(Residue) res;
} Buf;

static bool buf_fits(Reuse *r, const Buf *B, const Base *b, const int *fg) {
    int lo = 0, hi = B->life.len;  /* first member with def >= b->last */
    while (lo < hi) {
        int mid = lo + (hi - lo) / 2;
        if (B->life.data[mid].def < b->last) lo = mid + 1; else hi = mid;
    }
    if (lo > 0 && B->life.data[lo - 1].last > b->def) return false;
    int ib = (int)(b - r->bases);
    for (int k = r->bad_off[ib]; k < r->bad_off[ib + 1]; k++)
        if (r->bases[r->bad_idx[k]].buffer == B->lead) return false;
    if (b->group >= 0 && fg[b->group] > 1)
        for (int k = 0; k < B->res.len; k++)
            if (B->res.data[k].group == b->group && B->res.data[k].residue != b->stage % fg[b->group]) return false;
    return true;
}

static void buf_add(Buf *B, const Base *b, const int *fg) {
    Life v = { b->def, b->last };
    int at = B->life.len;
    while (at > 0 && (B->life.data[at - 1].def > v.def || (B->life.data[at - 1].def == v.def && B->life.data[at - 1].last > v.last)))
        at--;
    vec_push(&B->life, v);
    memmove(B->life.data + at + 1, B->life.data + at, sizeof(Life) * (size_t)(B->life.len - 1 - at));
    B->life.data[at] = v;
    if (b->group < 0) return;
    int res = fg[b->group] > 0 ? b->stage % fg[b->group] : b->stage;
    for (int k = 0; k < B->res.len; k++)
        if (B->res.data[k].group == b->group) return;   /* every member of one group has one residue */
    vec_push(&B->res, ((Residue){ b->group, res }));
}

/* Packs one space; returns its footprint (aligned bump sum of buffer sizes). */
static int64_t pack(Reuse *r, MemSpace sp, const int *fg) {
    Base **order = malloc(sizeof(Base *) * (size_t)(r->nbases + 1));
    int *buf_at = malloc(sizeof(int) * (size_t)(r->nbases + 1));   /* leader base -> index in bufs */
    PTOC_ASSERT(order && buf_at, "out of memory");
    int n = 0;
    for (int i = 0; i < r->nbases; i++)              /* unreferenced bases are dropped, never packed */
        if (r->bases[i].space == sp && r->bases[i].def >= 0) { r->bases[i].buffer = -1; order[n++] = &r->bases[i]; }
    qsort(order, (size_t)n, sizeof(Base *), cmp_size);
    VEC(Buf) bufs = {0};
    int64_t total = 0;
    for (int i = 0; i < n; i++) {
        Base *b = order[i];
        /* First fit, except that a tile outside any pipeline, when it may share with a pipelined
         * one, takes the last stage's buffer if it is defined before the pipeline (that stage is
         * loaded last in each iteration: the first stage's loads need not wait for its reads), the
         * first stage's if after it (the last iteration reads that one first). Buffers are tried
         * in the order their leaders were placed. */
        Base *after = NULL;
        for (int q = 0; q < bufs.len && (b->buffer < 0 || b->group < 0); q++) {
            Base *lead = &r->bases[bufs.data[q].lead];
            if (!buf_fits(r, &bufs.data[q], b, fg)) continue;
            if (b->buffer < 0) b->buffer = bufs.data[q].lead;
            if (b->group >= 0 || lead->group < 0) continue;
            int key = lead->def < b->def ? -lead->stage : lead->stage;
            if (!after || key > (after->def < b->def ? -after->stage : after->stage)) after = lead;
        }
        if (after) b->buffer = after->buffer;
        if (b->buffer < 0) {
            b->buffer = (int)(b - r->bases);
            total = (total + b->size + 31) / 32 * 32;
            buf_at[b->buffer] = bufs.len;
            vec_push(&bufs, ((Buf){ .lead = b->buffer }));
        }
        buf_add(&bufs.data[buf_at[b->buffer]], b, fg);
    }
    for (int q = 0; q < bufs.len; q++) { vec_free(&bufs.data[q].life); vec_free(&bufs.data[q].res); }
    vec_free(&bufs);
    free(buf_at);
    free(order);
    return total;
}

/* The loop around group g's first base in space sp. */
static const Stmt *group_loop(Reuse *r, int g, MemSpace sp) {
    for (int i = 0; i < r->nbases; i++)
        if (r->bases[i].group == g && r->bases[i].space == sp && r->bases[i].loop) return r->bases[i].loop;
    return NULL;
}

static void pack_space(Reuse *r, MemSpace sp, int *fg, int ngroups) {
    int64_t cap = r->ctx->target->capacity[sp];
    int64_t used = pack(r, sp, fg);
    while (cap > 0 && used > cap) {
        int best = -1;
        int64_t best_used = used;
        for (int g = 0; g < ngroups; g++) {
            if (fg[g] <= 1) continue;
            bool in_space = false;
            for (int i = 0; i < r->nbases; i++) in_space |= r->bases[i].group == g && r->bases[i].space == sp;
            if (!in_space) continue;
            fg[g]--;
            int64_t u = pack(r, sp, fg);
            fg[g]++;
            if (u < best_used) { best_used = u; best = g; }
        }
        if (best < 0) break;
        int requested = group_depth(r, best);
        const Stmt *loop = group_loop(r, best, sp);
        fg[best]--;
        /* located at the pipelined loop (after LowerPipelineLoops it keeps the user loop's span, or the
         * matmul's for a loop AutoTileMatmulL0 built) */
        pass_hint(r->ctx, loop ? loop->span : r->f->span, "PH-MR-001",
                  "requested depth %d for the pipelined loop at line %d (group %d) in %s, but only %d of %d buffers fit "
                  "(depth %d needs %lld bytes of %s, which holds %lld); stages %d apart share storage and serialize. "
                  "Fix: a smaller per-stage tile or a lower stage=",
                  requested, loop ? loop->span.line : r->f->span.line, best, memspace_name(sp), fg[best], requested,
                  fg[best] + 1, (long long)used, memspace_name(sp), (long long)cap, fg[best]);
        used = pack(r, sp, fg);
    }
}

static void retarget_var(IrCtx *c, Var *v, Reuse *r) {
    if (!v->type || !v->type->memref) return;
    Base *b = base_of(r, v->type->memref->base);
    if (!b || b->buffer < 0 || &r->bases[b->buffer] == b) return;   /* a leader keeps its base */
    Type *t = ir_type_copy(c, v->type);
    t->memref = ARENA_NEW(c->arena, MemRef);
    *t->memref = *v->type->memref;
    t->memref->base = r->bases[b->buffer].base;
    pass_var_set_type(v, t);
}

static void apply_list(Reuse *r, StmtList *l) {
    IrCtx *c = r->ctx->ir;
    for (int i = 0; i < l->len; i++) {
        Stmt *s = l->items[i];
        Expr *call = pass_stmt_call(s);
        if (call) ir_attr_remove(&call->call.attrs, "pipeline_membership");
        if (call) ir_attr_remove(&call->call.attrs, "pipeline_l0_step");
        if (s->kind == ST_ASSIGN) retarget_var(c, s->assign.var, r);
        if (s->kind == ST_FOR) {
            for (int j = 0; j < s->for_.iter_args.len; j++) retarget_var(c, s->for_.iter_args.items[j], r);
            for (int j = 0; j < s->for_.return_vars.len; j++) retarget_var(c, s->for_.return_vars.items[j], r);
            apply_list(r, &s->for_.body);
        }
        if (s->kind == ST_IF) {
            for (int j = 0; j < s->if_.return_vars.len; j++) retarget_var(c, s->if_.return_vars.items[j], r);
            apply_list(r, &s->if_.then_body);
            apply_list(r, &s->if_.else_body);
        }
    }
}

static void reuse_function(PassCtx *ctx, Function *f) {
    Reuse r = { ctx, f, NULL, 0, 0, {0}, NULL, NULL, NULL };
    r.bases = calloc((size_t)f->body.len + 1, sizeof(Base));
    for (int i = 0; i < f->body.len; i++) {
        Stmt *s = f->body.items[i];
        Expr *c = pass_stmt_call(s);
        if (s->kind != ST_ASSIGN || !pass_is_op(c, OP_TILE_ALLOC)) continue;
        int64_t size = 0;
        ir_is_const_int(c->call.args[1], &size);
        r.bases[r.nbases++] = (Base){ s->assign.var, c->call.args[0]->enm.mem, size, -1, -1, -1, -1, NULL, -1, s };
    }
    index_bases(&r);
    lifetimes(&r, &f->body, NULL);
    for (int i = 0; i < r.nbases; i++)          /* a cross-core ring is live for the whole kernel: never shared */
        if (ir_attr_get(&pass_stmt_call(r.bases[i].alloc)->call.kwargs, "ring_slots")) r.bases[i].def = 0, r.bases[i].last = 1 << 30;
    build_forbidden(&r);
    int ng = 0;
    for (int i = 0; i < r.nbases; i++)
        if (r.bases[i].group >= ng) ng = r.bases[i].group + 1;
    int *fg = calloc((size_t)ng + 1, sizeof(int));
    PTOC_ASSERT(fg, "out of memory");
    for (int g = 0; g < ng; g++) fg[g] = group_depth(&r, g);
    for (int sp = 0; sp < MS_COUNT; sp++) pack_space(&r, (MemSpace)sp, fg, ng);
    apply_list(&r, &f->body);
    for (int i = 0; i < f->params.len; i++) retarget_var(ctx->ir, f->params.items[i], &r);
    /* drop allocs of merged bases, and of bases nothing refers to any more: one compaction of the body
     * (a memmove per dropped alloc was quadratic in the tiles of a long chain) */
    int kept = 0;
    for (int i = 0; i < f->body.len; i++) {
        Stmt *s = f->body.items[i];
        Expr *c = pass_stmt_call(s);
        if (s->kind == ST_ASSIGN && pass_is_op(c, OP_TILE_ALLOC)) {
            Base *b = base_of(&r, s->assign.var);
            if (b && (b->def < 0 || b->buffer < 0 || &r.bases[b->buffer] != b)) continue;
        }
        f->body.items[kept++] = s;
    }
    f->body.len = kept;
    free(fg);
    vec_free(&r.noalias);
    free(r.bad_off);
    free(r.bad_idx);
    free(r.by_var);
    free(r.bases);
}

/* Under DSA_RP and PTOAS the reference plans storage elsewhere (a DSA solver, or ptoas itself);
 * ptoc approximates both with this lifetime packing so every planner yields addresses the
 * simulator can run. */
bool pass_memory_reuse(Program *p, PassCtx *ctx) {
    for (int i = 0; i < p->nfuncs; i++)
        if (ir_functype_is_incore(p->funcs[i]->type)) reuse_function(ctx, p->funcs[i]);
    return true;
}
