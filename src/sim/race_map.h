/* sim/race_map — the race detector's shadow memory as runs of granules (interval map).
 *
 * Requires: base.
 * Produces: SimRaceMap and its access operation, used by race.c for every space (GM and on-chip).
 * Does: one shadow state per 32-byte granule, as if stored in a dense array, but kept as sorted runs
 * of equal states: a tile access costs per run it covers, not per granule, and a map costs per page
 * it touched, never for the size of the space (see race_map.c). */
#ifndef PTOC_SIM_RACE_MAP_H
#define PTOC_SIM_RACE_MAP_H

#include "base/base.h"

#define SIM_SLOTS 8              /* reader slots per granule: S V M MTE1 MTE2 MTE3 FIX, other pipes share 7 */

/* Shadow state of one granule: last writer and last reader per pipe slot, as 1-based indices into
 * the run's dynamic instruction array, tagged with the core's index in its group above SIM_ID_BITS
 * (core 0: the plain 1-based index; 0 = none). */
typedef struct SimShadow {
    int32_t w;
    int32_t r[SIM_SLOTS];
} SimShadow;

typedef struct SimRaceMap SimRaceMap;

/* A map of `granules` granules, all in the zero state (no writer, no reader). `whole`: its accesses
 * are large ranges (tiles of an on-chip space), so a small map is kept as one page. */
SimRaceMap *sim_rmap_new(int64_t granules, bool whole);
void sim_rmap_free(SimRaceMap *m);
int64_t sim_rmap_size(const SimRaceMap *m);
/* m as sim_rmap_new(granules, whole) made it, all zero again, reusing its memory (the first chunk's
 * worth; the rest goes back): a core's on-chip maps serve run after run. */
SimRaceMap *sim_rmap_reset(SimRaceMap *m, int64_t granules, bool whole);

/* Called with the state before the access of each run of equal states in the accessed range, in
 * granule order; never with the zero state (nothing to check against). A run may be reported in
 * pieces (page boundaries): the callback must be idempotent for equal states. */
typedef void (*SimRmapVisit)(void *ud, const SimShadow *before);

/* An access of granules [g0, g1] (inclusive, within the map): visits the states before it, then
 * records it — a write leaves every granule {w = self, no readers}; a read sets r[slot] = self. */
void sim_rmap_access(SimRaceMap *m, int64_t g0, int64_t g1, bool write, int32_t self, int slot,
                     SimRmapVisit visit, void *ud);

/* The states of granules [g0, g1] as sim_rmap_access would visit them, recording nothing. */
void sim_rmap_visit(const SimRaceMap *m, int64_t g0, int64_t g1, SimRmapVisit visit, void *ud);

/* The state of granule g (tests). */
SimShadow sim_rmap_get(const SimRaceMap *m, int64_t g);

#endif
