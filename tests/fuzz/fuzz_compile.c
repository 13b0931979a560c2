/* fuzz_compile — the coverage-guided fuzz harness of the front end and the compiler.
 *
 * Requires: libptoc (the public API of include/ptoc.h, plus front_parse and the IR for the work
 * estimate). Produces: LLVMFuzzerTestOneInput for libFuzzer (`make fuzz-parse`, clang), and
 * fuzz_one() for the replay of committed reproducers in `make test` (tests/unit/test_fuzz_replay.c,
 * gcc).
 * Does: feeds the input as program text through the public path — load (lexer, parser, type
 * deduction), compile (every pass — for one input in eight with the print -> parse -> equal round
 * trip after each —, lowering, sync insertion, .pto and orchestration printing) — and, when the
 * program is small enough to stay
 * fast, the run: the reference interpreter, the runtime and the simulator on seeded random inputs.
 * User errors are the expected outcome of most inputs; what counts as a finding is an internal
 * error: an assertion (abort), a sanitizer report, a leak, a hang, or a diagnostic that says
 * "internal". "Small enough": at most FUZZ_MAX_TRIPS loop iterations per function, loop bounds and
 * SPMD block counts that are constants, no while loops, and at most FUZZ_MAX_BYTES of tensors. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "front/front.h"
#include "ptoc.h"

#define FUZZ_MAX_INPUT 8192                 /* bytes of program text */
#define FUZZ_MAX_TRIPS 64                   /* loop iterations per function (nested: multiplied) */
#define FUZZ_MAX_BLOCKS 16                  /* SPMD blocks */
#define FUZZ_MAX_BYTES (INT64_C(48) << 10)  /* parameters and created tensors together */

typedef enum { FUZZ_OK = 0, FUZZ_INTERNAL_ERROR } FuzzVerdict;

/* ---- the work estimate: can the program run quickly? ---- */
typedef struct Work { int64_t trips, bytes; bool unbounded; } Work;

static void work_add_bytes(Work *w, const Type *t, int64_t times) {
    int64_t dims[16], b;
    if (!t || (t->kind != TY_TENSOR && t->kind != TY_TILE) || t->rank > 16 || !ir_type_static_dims(t, dims) ||
        !ir_shape_bytes(t->dtype, dims, t->rank, &b) || !checked_mul(b, times, &b) || !checked_add(w->bytes, b, &w->bytes) ||
        w->bytes > FUZZ_MAX_BYTES)
        w->unbounded = true;
}

typedef struct { Work *w; int64_t times; } CallScan;

static void scan_call(Expr *e, void *ud) {
    CallScan *cs = ud;
    if (e->kind != EX_CALL) return;
    if (e->call.op == OP_TENSOR_CREATE || e->call.op == OP_TILE_CREATE) work_add_bytes(cs->w, e->type, cs->times);
    const AttrVal *bn = ir_attr_get(&e->call.attrs, "block_num");
    if (bn && (bn->kind != AV_INT || bn->i > FUZZ_MAX_BLOCKS)) cs->w->unbounded = true;
}

static bool const_bound(Expr *e, int64_t *v) { return e && ir_is_const_int(e, v); }

static void work_list(StmtList *l, int64_t times, Work *w);

static void work_stmt(Stmt *s, int64_t times, Work *w) {
    StmtList one = { &s, 1, 1 };
    CallScan cs = { w, times };
    switch (s->kind) {
    case ST_FOR: {
        int64_t a, b, c, n;
        if (!const_bound(s->for_.start, &a) || !const_bound(s->for_.stop, &b) || !const_bound(s->for_.step, &c) || c == 0) {
            w->unbounded = true;
            return;
        }
        /* trips = ceil((b - a) / c), with the int64 arithmetic checked */
        int64_t span;
        if (!checked_sub(b, a, &span)) { w->unbounded = true; return; }
        n = (c > 0) ? (span <= 0 ? 0 : (span - 1) / c + 1) : (span >= 0 ? 0 : (span + 1) / c + 1);
        if (!checked_mul(times, n, &n) || n > FUZZ_MAX_TRIPS || !checked_add(w->trips, n, &w->trips) || w->trips > FUZZ_MAX_TRIPS) {
            w->unbounded = true;
            return;
        }
        ir_visit_expr(s->for_.start, scan_call, &cs);
        work_list(&s->for_.body, n ? n : 1, w);
        return;
    }
    case ST_WHILE: w->unbounded = true; return;
    case ST_IF:
        ir_visit_expr(s->if_.cond, scan_call, &cs);
        work_list(&s->if_.then_body, times, w);
        work_list(&s->if_.else_body, times, w);
        return;
    case ST_SCOPE: {
        int64_t n = 1;
        if (s->scope.kind == SC_SPMD && s->scope.core_num && (!const_bound(s->scope.core_num, &n) || n > FUZZ_MAX_BLOCKS)) {
            w->unbounded = true;
            return;
        }
        work_list(&s->scope.body, times, w);
        return;
    }
    default: ir_visit_exprs(&one, scan_call, &cs); return;
    }
}

static void work_list(StmtList *l, int64_t times, Work *w) {
    for (int i = 0; i < l->len && !w->unbounded; i++) work_stmt(l->items[i], times, w);
}

/* True when the program parsed from text runs within the caps. */
static bool small_enough(const char *text, size_t len) {
    DiagSink d;
    diag_init(&d);
    IrCtx *c = ir_ctx_new(&d);
    SrcFile src = { "fuzz.py", text, len };
    Program *p = front_parse(c, &src, NULL);
    Work total = { 0, 0, p == NULL };
    for (int i = 0; p && i < p->nfuncs && !total.unbounded; i++) {
        Function *f = p->funcs[i];
        Work w = { 0, total.bytes, false };
        for (int k = 0; k < f->params.len; k++) work_add_bytes(&w, f->params.items[k]->type, 1);
        work_list(&f->body, 1, &w);
        total.bytes = w.bytes;
        total.unbounded = w.unbounded;
    }
    ir_ctx_free(c);
    diag_free(&d);
    return !total.unbounded;
}

/* ---- one input ---- */
/* A diagnostic's first line starts with its location ("fuzz.py:3:5: " or "ptoc: "); the source
 * lines echoed under it (which may hold any text the fuzzer made up) start with the line number. */
static bool internal_error(const char *diags) {
    for (const char *l = diags; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL) {
        const char *rest = NULL;
        if (strncmp(l, "ptoc: ", 6) == 0) rest = l + 6;
        else if (strncmp(l, "fuzz.py:", 8) == 0) {
            rest = l + 8;
            while ((*rest >= '0' && *rest <= '9') || *rest == ':') rest++;
            if (*rest == ' ') rest++;
        }
        if (rest && (strncmp(rest, "error: internal", 15) == 0 || strncmp(rest, "error: [internal]", 17) == 0)) return true;
    }
    return false;
}

/* Runs one input; on an internal error copies the diagnostics into why (may be NULL). always_roundtrip:
 * check every pass's print -> parse -> equal (the replay of reproducers), not one input in eight. */
static FuzzVerdict fuzz_one(const uint8_t *data, size_t size, bool always_roundtrip, char *why, size_t whylen) {
    if (size > FUZZ_MAX_INPUT) return FUZZ_OK;
    char *text = malloc(size + 1);
    if (!text) return FUZZ_OK;
    memcpy(text, data, size);
    text[size] = 0;                         /* the API takes C strings: the text ends at a NUL */
    size_t len = strlen(text);
    ptoc_program *p = ptoc_program_new();
    /* the print -> parse -> equal check after every pass costs five times the rest: one input in
     * eight (chosen by content, so a finding reproduces) pays it */
    uint32_t h = 2166136261u;
    for (size_t i = 0; i < len; i++) h = (h ^ (uint8_t)text[i]) * 16777619u;
    ptoc_set_option(p, "verify_roundtrip", always_roundtrip || h % 8 == 0 ? "1" : "0");
    ptoc_set_option(p, "threads", "1");
    ptoc_set_option(p, "golden", "1");
    if (text[0] == '#' && text[1] == '5') ptoc_set_option(p, "target", "a5");     /* a cheap way to reach the a5 paths */
    if (ptoc_load_text(p, "fuzz.py", text, NULL) == 0 && ptoc_compile(p) == 0 && small_enough(text, len))
        (void)ptoc_run_random(p);
    (void)ptoc_report_json(p);
    const char *d = ptoc_diagnostics(p);
    FuzzVerdict v = internal_error(d) ? FUZZ_INTERNAL_ERROR : FUZZ_OK;
    if (v != FUZZ_OK && why) snprintf(why, whylen, "%s", d);
    ptoc_program_free(p);
    free(text);
    return v;
}

#ifndef FUZZ_NO_MAIN
#include <stdio.h>
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    static char why[4096];
    if (fuzz_one(data, size, false, why, sizeof why) != FUZZ_OK) {
        fprintf(stderr, "fuzz_compile: internal error:\n%s\n", why);
        abort();
    }
    return 0;
}
#endif
