/* run_group — one block of a mixed task: the Group function's AIC and AIV kernels run together on
 * one simulated cluster (sim_run_group), as the runtime places a MIX task (runtime.md §9.3).
 * Requires: a compiled program whose Group function calls its AIC member (if any), then its AIV
 *   member(s) (ExpandMixedKernel), every member taking the Group's parameters in the same order.
 * Produces: the block's cycles (when the last core finishes) and a DrvBlockRec with each member's
 *   result, reported by drv_block_commit (run.c) like a one-kernel block's. */
#include "driver/driver_int.h"
#include "driver/pto_check.h"

#include <string.h>

#include "rt/rt.h"
#include "sim/sim.h"

static const Function *member_of(const Stmt *s) {
    const Expr *e = s->kind == ST_ASSIGN ? s->assign.value : s->kind == ST_EVAL ? s->eval.expr : NULL;
    return e && e->kind == EX_CALL && e->call.op == OP_NONE ? e->call.callee : NULL;
}

/* The member kernels of Group function g, checked against the call's parameter count; n = 0 after
 * reporting to diag. */
static int members_of(DrvSession *s, const Function *g, int nparams, DrvKernel **dk, DiagSink *diag) {
    int n = 0;
    for (int i = 0; i < g->body.len; i++) {
        const Function *m = member_of(g->body.items[i]);
        if (!m) continue;
        if (n == DRV_MAX_MEMBERS || !(dk[n] = drv_kernel_of(s, m))) {
            diag_error(diag, g->span, "mixed task '%s': no compiled kernel for member '%s'", g->name, m->name);
            return 0;
        }
        if (nparams >= 0 && dk[n]->k->nparams != nparams) {
            diag_error(diag, g->span, "mixed task '%s': kernel '%s' takes %d parameters, the task passes %d", g->name,
                       dk[n]->k->name, dk[n]->k->nparams, nparams);
            return 0;
        }
        n++;
    }
    if (n < 2) {
        diag_error(diag, g->span, "internal: mixed task '%s' has fewer than two kernels", g->name);
        return 0;
    }
    return n;
}

bool drv_group_exec(DrvSession *s, const RtKernelCall *call, int64_t *cycles, void **record, DiagSink *diag) {
    const Function *g = call->kernel;
    DrvBlockRec *rec = calloc(1, sizeof *rec);
    PTOC_ASSERT(rec, "out of memory");
    int n = members_of(s, g, call->nparams, rec->dk, diag);
    if (!n) { free(rec); return false; }
    SimCore *cores[DRV_MAX_MEMBERS];
    const Kernel *ks[DRV_MAX_MEMBERS];
    void **gm[DRV_MAX_MEMBERS];
    for (int j = 0; j < n; j++) { ks[j] = rec->dk[j]->k; cores[j] = drv_pool_acquire(s, ks[j]->core); gm[j] = call->params; }
    Target timing;
    SimOptions so = { s->opt.race_check, call->gm_sink != NULL, drv_timeline_on(s), call->block_idx, call->block_num,
                      drv_block_timing(s, CORE_AIC, call->block_num, n, &timing),
                      s->opt.timing_only };
    StrBuf *prec = s->ptocheck ? pto_check_pre_group(s, call, rec->dk, n) : NULL;   /* --check-pto-isa (one host thread) */
    bool ok = sim_run_group(cores, ks, gm, n, &so, rec->r, diag);
    if (prec) pto_check_post(s, call, rec->dk[0], prec, ok);
    int64_t end = 0;
    for (int j = 0; j < n; j++) {
        drv_pool_release(s, cores[j]);
        if (rec->r[j].cycles > end) end = rec->r[j].cycles;
    }
    rec->n = n;
    *cycles = end;
    if (!ok) { drv_block_commit(s, NULL, rec); return false; }
    *record = rec;
    return true;
}

int drv_group_members(DrvSession *s, const Function *g, DrvKernel **dk) {
    DiagSink quiet = {0};                          /* a broken group is reported when it runs */
    int n = members_of(s, g, -1, dk, &quiet);
    diag_free(&quiet);
    return n;
}
