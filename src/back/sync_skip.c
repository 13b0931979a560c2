/* sync_skip — an index of the elements a backward hazard scan may skip (stage 2 speed-up).
 *
 * Requires: the linear sync IR (sync.c); ops added during the scan are reported with sync_skip_note.
 * Produces: per element, bits telling what it can contribute to a scan: a compound on pipe p, a
 *           barrier on pipe p in its lists, a wait, a set, or a structure element (loop / if / func).
 * Does:     sync_skip_prev finds the nearest earlier element holding any of the selected kinds, a
 *           64-element word at a time. The scan of sync_hazard.c selects only what can still change
 *           its state (the compounds on unsynced pipes, a barrier on its own pipe while unsynced,
 *           waits, sets, structure) so that the elements in between — whose visit would be a no-op —
 *           are jumped over. The result is identical to visiting every element; the cost of a scan
 *           becomes words, not elements, and a long chain on one pipe no longer makes stage 2
 *           quadratic in statements. Bits are only ever added (a detached op leaves its bit: a
 *           superfluous visit is harmless).
 */
#include "back/sync_internal.h"

#include <stdlib.h>
#include <string.h>

static void set_bit(SyncSkip *s, int kind, int elem) {
    PTOC_ASSERT(kind >= 0 && kind < SK_COUNT && elem >= 0 && elem < s->n, "sync_skip: bad bit");
    s->bits[kind][elem >> 6] |= 1ull << (elem & 63);
}

void sync_skip_note(SyncSkip *s, const SyncCtx *c, int op) {
    const SyncOp *o = &c->ops.data[op];
    switch (o->kind) {
    case SO_SET: set_bit(s, SK_SET, o->elem); break;
    case SO_WAIT: set_bit(s, SK_WAIT, o->elem); break;
    case SO_BARRIER:
        PTOC_ASSERT((unsigned)o->pipe < PIPE_COUNT, "sync_skip: barrier on an unknown pipe");
        set_bit(s, SK_BARRIER + (int)o->pipe, o->elem);
        break;
    }
}

void sync_skip_init(SyncSkip *s, const SyncCtx *c) {
    s->n = c->el.len;
    s->nw = (s->n + 63) / 64;
    for (int k = 0; k < SK_COUNT; k++) {
        s->bits[k] = calloc((size_t)s->nw + 1, sizeof(uint64_t));
        PTOC_ASSERT(s->bits[k], "out of memory");
    }
    for (int i = 0; i < c->el.len; i++) {
        const SyncEl *e = &c->el.data[i];
        if (e->kind != EK_COMPOUND) set_bit(s, SK_STRUCT, i);
        else if (e->pipe != PIPE_NONE) {
            PTOC_ASSERT((unsigned)e->pipe < PIPE_COUNT, "sync_skip: compound on an unknown pipe");
            set_bit(s, SK_PIPE + (int)e->pipe, i);
        }
        for (int j = 0; j < e->before.len; j++) sync_skip_note(s, c, e->before.data[j]);
        for (int j = 0; j < e->after.len; j++) sync_skip_note(s, c, e->after.data[j]);
    }
}

void sync_skip_free(SyncSkip *s) {
    for (int k = 0; k < SK_COUNT; k++) free(s->bits[k]);
    memset(s, 0, sizeof *s);
}

/* the union of the selected kinds in word w */
static uint64_t word(const SyncSkip *s, uint64_t sel, int w) {
    uint64_t m = 0;
    for (int k = 0; k < SK_COUNT; k++)
        if (sel >> k & 1u) m |= s->bits[k][w];
    return m;
}

int sync_skip_prev(const SyncSkip *s, uint64_t sel, int i, int lo) {
    if (i >= s->n) i = s->n - 1;
    if (lo < 0) lo = 0;
    while (i >= lo) {
        int w = i >> 6;
        uint64_t m = word(s, sel, w);
        int top = i & 63;
        if (top < 63) m &= (2ull << top) - 1;       /* bits 0..top */
        if (m) {
            int j = (w << 6) + 63 - __builtin_clzll(m);
            return j >= lo ? j : lo - 1;
        }
        i = (w << 6) - 1;
    }
    return lo - 1;
}
