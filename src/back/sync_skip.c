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
 *           superfluous visit is harmless). A second level (one bit per word) lets a scan that
 *           must reach far back — an early load on another pipe, behind 10,000 vector ops — jump
 *           4,096 elements a step, so that the scans of a long chain are not quadratic in words.
 */
#include "back/sync_internal.h"

#include <stdlib.h>
#include <string.h>

static void set_bit(SyncSkip *s, int kind, int elem) {
    PTOC_ASSERT(kind >= 0 && kind < SK_COUNT && elem >= 0 && elem < s->n, "sync_skip: bad bit");
    s->bits[kind][elem >> 6] |= 1ull << (elem & 63);
    s->sum[kind][elem >> 12] |= 1ull << (elem >> 6 & 63);
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
    s->nb = (s->nw + 63) / 64;
    for (int k = 0; k < SK_COUNT; k++) {
        s->bits[k] = calloc((size_t)s->nw + 1, sizeof(uint64_t));
        s->sum[k] = calloc((size_t)s->nb + 1, sizeof(uint64_t));
        PTOC_ASSERT(s->bits[k] && s->sum[k], "out of memory");
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
    for (int k = 0; k < SK_COUNT; k++) free(s->bits[k]), free(s->sum[k]);
    memset(s, 0, sizeof *s);
}

/* the union of the selected kinds in word w of a level (bits or sum) */
static uint64_t word(uint64_t *const *level, uint64_t sel, int w) {
    uint64_t m = 0;
    for (uint64_t t = sel; t; t &= t - 1) m |= level[__builtin_ctzll(t)][w];
    return m;
}

/* bits 0..top of m */
static uint64_t upto(uint64_t m, int top) { return top < 63 ? m & ((2ull << top) - 1) : m; }

/* the highest word <= w holding a selected kind, else -1 (the second level skips empty blocks) */
static int prev_word(const SyncSkip *s, uint64_t sel, int w) {
    while (w >= 0) {
        int b = w >> 6;
        uint64_t m = upto(word(s->sum, sel, b), w & 63);
        if (m) return (b << 6) + 63 - __builtin_clzll(m);
        w = (b << 6) - 1;
    }
    return -1;
}

int sync_skip_prev(const SyncSkip *s, uint64_t sel, int i, int lo) {
    if (i >= s->n) i = s->n - 1;
    if (lo < 0) lo = 0;
    while (i >= lo) {
        int w = i >> 6;
        uint64_t m = upto(word(s->bits, sel, w), i & 63);
        if (m) {
            int j = (w << 6) + 63 - __builtin_clzll(m);
            return j >= lo ? j : lo - 1;
        }
        w = prev_word(s, sel, w - 1);
        if (w < 0) break;
        i = (w << 6) + 63;
    }
    return lo - 1;
}
