/* sim/group — the entry points: sim_run (one kernel on one core) and sim_run_group (the AIC and AIV
 * kernels of a mixed task together on one cluster). sim_run is a group of one: both share the walk
 * (core.c), the pipe engine (pipes.c) and the race detector (race.c).
 *
 * Requires: kernels whose buffers fit their cores; GM parameter pointers per kernel.
 * Produces: one SimResult per kernel (cycles from the common start 0), functional effects in GM.
 * Does: prepares every run (views, variables, shadow) before any walk, walks the kernels in group
 * order (AIC first, then the AIV lanes; a scalar read may run the engine over the members walked so
 * far), runs one event loop over all cores' pipes, then reports what is left: flags set, channel
 * entries never popped, slots never freed (xcore.c). */
#include "sim/sim_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *sim_kernel_tag(const SimRun *s) {
    if (!s->g || s->g->n < 2) return "";
    /* a small per-run buffer: the tag is used inside one message at a time */
    static _Thread_local char buf[SIM_GROUP_MAX][160];
    snprintf(buf[s->ci], sizeof buf[s->ci], "kernel %s: ", s->k->name);
    return buf[s->ci];
}

/* Which group member serves which lane; hard error for two kernels on one lane or two AICs. */
static bool assign_lanes(SimGroup *g, DiagSink *diag) {
    g->aic = g->aiv_of_lane[0] = g->aiv_of_lane[1] = -1;
    for (int j = 0; j < g->n; j++) {
        const Kernel *k = g->runs[j]->k;
        int *slot = k->core == CORE_AIC ? &g->aic : (k->lane == 0 || k->lane == 1) ? &g->aiv_of_lane[k->lane] : NULL;
        if (!slot || *slot >= 0) {
            diag_add(diag, DIAG_ERROR, SPAN_NONE, NULL,
                     "simulator: kernel %s: a cluster runs one AIC kernel and one AIV kernel per lane 0 / 1 (%s, lane %d "
                     "is taken or invalid)", k->name, k->core == CORE_AIC ? "AIC" : "AIV", k->lane);
            return false;
        }
        *slot = j;
    }
    return true;
}

static bool run_group(SimCore **cores, const Kernel **ks, void ***gm, int n, const SimOptions *o, SimResult *rs,
                      DiagSink *diag) {
    static const SimOptions defaults = {0};
    PTOC_ASSERT(n >= 1 && n <= SIM_GROUP_MAX, "a group runs 1 to %d kernels, not %d", SIM_GROUP_MAX, n);
    SimGroup *g = calloc(1, sizeof *g);
    PTOC_ASSERT(g != NULL, "out of memory");
    g->n = n;
    g->walking = -1;
    for (int j = 0; j < n; j++) {
        memset(&rs[j], 0, sizeof rs[j]);
        SimRun *s = calloc(1, sizeof *s);
        PTOC_ASSERT(s != NULL, "out of memory");
        *s = (SimRun){ .g = g, .ci = j, .c = cores[j], .k = ks[j], .t = o && o->timing ? o->timing : cores[j]->t, .gm = gm ? gm[j] : NULL,
                       .o = o ? o : &defaults, .r = &rs[j], .diag = diag };
        g->runs[j] = s;
    }
    bool ok = n == 1 || assign_lanes(g, diag);
    for (int j = 0; j < n && ok; j++) ok = sim_run_prepare(g->runs[j]);
    if (ok && n > 1 && g->runs[0]->o->race_check) sim_race_group_init(g);
    for (int j = 0; j < n && ok; j++) {
        g->walking = j;
        ok = sim_run_walk(g->runs[j]);
    }
    g->walking = -1;
    if (ok) ok = sim_run_pipes(g);
    if (ok) {
        for (int j = 0; j < n; j++) sim_run_report(g->runs[j]);
        sim_xcore_finish(g);
    }
    for (int j = 0; j < n; j++) {
        if (!ok) rs[j].cube_util = rs[j].cycles > 0 ? (double)rs[j].pipe_busy[PIPE_M] / (double)rs[j].cycles : 0.0;
        sim_run_cleanup(g->runs[j]);
        free(g->runs[j]);
    }
    sim_xcore_free(g);
    sim_gm_shadow_release(g->gm_shadow);
    free(g);
    return ok;
}

bool sim_run(SimCore *c, const Kernel *k, void **gm, const SimOptions *o, SimResult *r, DiagSink *diag) {
    return run_group(&c, &k, &gm, 1, o, r, diag);
}

bool sim_run_group(SimCore **cores, const Kernel **ks, void ***gm, int n, const SimOptions *o, SimResult *rs,
                   DiagSink *diag) {
    if (n < 1 || n > SIM_GROUP_MAX) {
        diag_add(diag, DIAG_ERROR, SPAN_NONE, NULL, "simulator: a cluster runs 1 to %d kernels, not %d", SIM_GROUP_MAX, n);
        return false;
    }
    return run_group(cores, ks, gm, n, o, rs, diag);
}
