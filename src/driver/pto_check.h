/* pto_check — the --check-pto-isa replay of a run through pto-isa's CPU simulation (pto_check.c:
 * recording and verdict; pto_check_build.c: the host harness, its cached build and its run).
 * Requires: driver_int.h. Produces: DrvRunStats.pto_isa_match / pto_isa_msg. */
#ifndef PTOC_PTO_CHECK_H
#define PTOC_PTO_CHECK_H

#include "driver/driver_int.h"

PtoCheck *pto_check_begin(DrvSession *s);                 /* before the runtime runs */
StrBuf *pto_check_pre(DrvSession *s, const RtKernelCall *call, const DrvKernel *dk);
void pto_check_post(DrvSession *s, const RtKernelCall *call, const DrvKernel *dk, StrBuf *rec, bool ran);
/* a cluster block of a mixed task: members' kernels (AIC first, as the group lists them); post as above */
StrBuf *pto_check_pre_group(DrvSession *s, const RtKernelCall *call, DrvKernel *const *dks, int n);
void pto_check_unchecked(PtoCheck *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void pto_check_end(DrvSession *s);                        /* after the run: build, replay, verdict */
/* $PTOC_CACHE_DIR, else $XDG_CACHE_HOME/ptoc, else ~/.cache/ptoc */
const char *pto_check_cache_root(StrBuf *out);
/* pto_check_build.c: builds (cached) and runs the harness over the records; 1 match, 0 differs or
 * the harness does not build / run; *msg says which. */
int pto_check_replay(DrvSession *s, const char *ptoisa, const char *cache, const char *data, int nrecords, StrBuf *msg);
/* pto_check_harness.c: the harness text (head, one part per program, its table row, main) */
extern const char *const PTO_CHECK_HEAD, *const PTO_CHECK_MAIN;
void pto_check_id(const char *path, StrBuf *o);
void pto_check_part(const DrvSession *s, const char *id, const char *kdir, StrBuf *o);
void pto_check_row(const DrvSession *s, const char *id, StrBuf *o);
void pto_check_harness(const DrvSession *s, StrBuf *o);
/* PTOC_PTO_CHECK_DEFER=DIR: instead of building, leave DIR/<id>/ (k<i>.cpp, records.bin, part.cpp,
 * row.txt; DIR/head.inc, DIR/main.inc) for a batch build (tests/pto_isa/run.sh); -1 with msg "deferred: <id>" */
int pto_check_defer(DrvSession *s, const char *defer, const char *data, StrBuf *msg);

#endif
