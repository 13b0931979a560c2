/* run_group — one block of a mixed task: the Group function's AIC and AIV kernels run together on
 * one simulated cluster (sim_run_group), as the runtime places a MIX task (runtime.md §9.3).
 * Requires: a compiled program whose Group function calls its AIC member (if any), then its AIV
 *   member(s) (ExpandMixedKernel), every member taking the Group's parameters in the same order.
 * Produces: the block's cycles (when the last core finishes), per-kernel statistics, races and sync
 *   errors (record), and the block's GM accesses for the task-level race check. */
#include "driver/driver_int.h"
#include "driver/pto_check.h"

#include <string.h>

#include "rt/rt.h"
#include "sim/sim.h"

#define MAX_MEMBERS 3

static const Function *member_of(const Stmt *s) {
    const Expr *e = s->kind == ST_ASSIGN ? s->assign.value : s->kind == ST_EVAL ? s->eval.expr : NULL;
    return e && e->kind == EX_CALL && e->call.op == OP_NONE ? e->call.callee : NULL;
}

bool drv_run_group(DrvSession *s, const RtKernelCall *call, int64_t *cycles, DiagSink *diag) {
    const Function *g = call->kernel;
    DrvKernel *dk[MAX_MEMBERS];
    const Kernel *ks[MAX_MEMBERS];
    int n = 0;
    for (int i = 0; i < g->body.len; i++) {
        const Function *m = member_of(g->body.items[i]);
        if (!m) continue;
        if (n == MAX_MEMBERS || !(dk[n] = drv_kernel_of(s, m))) {
            diag_error(diag, g->span, "mixed task '%s': no compiled kernel for member '%s'", g->name, m->name);
            return false;
        }
        ks[n] = dk[n]->k;
        if (ks[n]->nparams != call->nparams) {
            diag_error(diag, g->span, "mixed task '%s': kernel '%s' takes %d parameters, the task passes %d", g->name,
                       ks[n]->name, ks[n]->nparams, call->nparams);
            return false;
        }
        n++;
    }
    if (n < 2) {
        diag_error(diag, g->span, "internal: mixed task '%s' has fewer than two kernels", g->name);
        return false;
    }
    SimCore *cores[MAX_MEMBERS];
    void **gm[MAX_MEMBERS];
    SimResult rs[MAX_MEMBERS];
    memset(rs, 0, sizeof rs);
    for (int j = 0; j < n; j++) { cores[j] = drv_pool_acquire(s, ks[j]->core); gm[j] = call->params; }
    Target timing;
    SimOptions so = { s->opt.race_check, call->gm_sink != NULL, drv_timeline_on(s), call->block_idx, call->block_num,
                      drv_block_timing(s, CORE_AIC, call->block_num, n, &timing),
                      s->opt.timing_only };
    StrBuf *rec = s->ptocheck ? pto_check_pre_group(s, call, dk, n) : NULL;   /* --check-pto-isa */
    bool ok = sim_run_group(cores, ks, gm, n, &so, rs, diag);
    if (rec) pto_check_post(s, call, dk[0], rec, ok);
    int64_t end = 0;
    for (int j = 0; j < n; j++) {
        drv_pool_release(s, cores[j]);
        if (ok) drv_record(s, dk[j], &rs[j]);
        if (ok && so.trace) drv_timeline_add(s, call, ks[j], ks[j]->core, drv_timeline_core(call, ks[j]), &rs[j]);
        for (int i = 0; ok && call->gm_sink && i < rs[j].gm.len; i++) {
            const SimGmAccess *a = &rs[j].gm.data[i];
            rt_record_gm(call->gm_sink, a->param, a->lo, a->hi, a->write, a->atomic);
        }
        if (rs[j].cycles > end) end = rs[j].cycles;
        sim_result_free(&rs[j]);
    }
    *cycles = end;
    return ok;
}
