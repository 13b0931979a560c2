/* ptoc.h — the public C API of ptoc: compile a pl program and run it on the built-in simulator.
 *
 *   ptoc_program *p = ptoc_program_new();
 *   ptoc_set_option(p, "target", "a2a3");                 // optional
 *   if (ptoc_load_file(p, "examples/matmul.py", NULL) || ptoc_compile(p))
 *       fprintf(stderr, "%s", ptoc_diagnostics(p));
 *   void *bufs[3] = { a, b, c };                          // one per parameter, packed row-major
 *   ptoc_run(p, bufs, 3);                                  // outputs are written into the buffers
 *   puts(ptoc_report_json(p));
 *   ptoc_program_free(p);
 *
 * Every function returning int returns 0 on success and -1 on failure; the reason is in
 * ptoc_diagnostics(). The library never prints and never exits. A handle is not thread safe (use
 * one per thread); separate handles are independent. Strings returned stay valid until the next
 * call on the same handle that changes them, or until ptoc_program_free. A NULL handle makes every
 * function fail (-1, NULL or 0) without effect. */
#ifndef PTOC_H
#define PTOC_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define PTOC_VERSION "0.1.0"

typedef struct ptoc_program ptoc_program;

typedef enum { PTOC_DIR_IN = 0, PTOC_DIR_OUT = 1, PTOC_DIR_INOUT = 2 } ptoc_direction;

const char *ptoc_version(void);

ptoc_program *ptoc_program_new(void);           /* NULL only when out of memory */
void ptoc_program_free(ptoc_program *p);

/* Options (before ptoc_compile; "seed", "race_check", "golden", "threads" also before ptoc_run):
 *   target          "a2a3" (default) | "a5"
 *   memory_planner  "pypto" (default) | "dsa_rp" | "ptoas"
 *   dbc             "0" (default) | "1"   enable_pypto_l0c_double_buffer
 *   pipeline_dbc    "1" (default) | "0"   L0C double buffer of canonical user pl.pipeline loops (pypto)
 *   race_check      "1" (default) | "0"
 *   verify_roundtrip "0" (default) | "1"  print -> parse -> equal after every pass (about 3 ms)
 *   golden          "0" (default) | "1"   ptoc_run also runs the reference interpreter on copies
 *                                          of the inputs and adds the comparison to the report
 *   seed            unsigned integer (used by ptoc_run_random)
 *   threads         host threads simulating kernels (default "1"), "0" = one per CPU; results never change
 *   cores           cube cores the automatic multi-core split may use: "1" = no split, default all
 *                   (AutoSplitCores; above the target's cube cores fails at ptoc_compile)
 *   capture_deps    "0" (default) | "1"   record the runtime's deps.json (ptoc_deps_json)
 *   timing_only     "0" (default) | "1"   simulate timing only: the buffers are never read or written,
 *                                          no golden run (`ptoc run --timing-only`, docs/sim.md)
 * Unknown keys and bad values fail with a diagnostic. */
int ptoc_set_option(ptoc_program *p, const char *key, const char *value);

/* Load a program; entry = the @pl.jit function to compile (NULL = the first one). One load per
 * handle: a second one (even after a failed first) fails with a diagnostic and changes nothing.
 * Parse errors are reported in ptoc_diagnostics (gcc style, with the source line). A file must be
 * UTF-8 without NUL bytes and at most 16 MiB. A refused call (an unknown option, a second load)
 * does not make later calls fail. */
int ptoc_load_file(ptoc_program *p, const char *path, const char *entry);
int ptoc_load_text(ptoc_program *p, const char *name, const char *text, const char *entry);

/* Run every pass and the backend (kernels, sync, .pto). Idempotent. */
int ptoc_compile(ptoc_program *p);
/* Write the output tree (passes_dump/, ptoas/, report/, run/deps.json) to dir. Call before
 * ptoc_compile to get passes_dump/ (ptoc_keep_dumps) — otherwise only the rest is written. */
int ptoc_keep_dumps(ptoc_program *p);
int ptoc_write_outputs(ptoc_program *p, const char *dir);

/* The entry function's parameters (available after a successful load). */
const char *ptoc_entry_name(const ptoc_program *p);
int ptoc_num_params(const ptoc_program *p);
const char *ptoc_param_name(const ptoc_program *p, int i);
const char *ptoc_param_dtype(const ptoc_program *p, int i);     /* "FP16", "BF16", "FP32", "INT8", ... */
int ptoc_param_elem_bytes(const ptoc_program *p, int i);
int ptoc_param_rank(const ptoc_program *p, int i);
int64_t ptoc_param_dim(const ptoc_program *p, int i, int d);
int64_t ptoc_param_numel(const ptoc_program *p, int i);
size_t ptoc_param_bytes(const ptoc_program *p, int i);          /* numel * elem_bytes */
ptoc_direction ptoc_param_direction(const ptoc_program *p, int i);

/* Run the compiled program (compiles first if needed) with caller buffers: bufs[i] for parameter i,
 * packed row-major in its dtype (FP16/BF16 as 16-bit patterns); a pl.NZ parameter [R, C] holds its
 * logical matrix in NZ fractal order instead (element (i, j) at (j / c0)*R*c0 + i*c0 + j % c0,
 * c0 = 32 / element bytes; docs/cli.md). Out/InOut buffers receive the
 * results. Fails on a runtime/simulator error, or (with "golden") when the outputs are off the
 * reference interpreter beyond tolerance, or when the race detector reports a race or sync error;
 * the report has the details either way. */
int ptoc_run(ptoc_program *p, void **bufs, int nbufs);
/* Run with internally allocated, seeded random inputs and the golden comparison (as `ptoc run`). */
int ptoc_run_random(ptoc_program *p);

/* All diagnostics so far (errors, warnings, perf hints), gcc style. Never NULL. */
const char *ptoc_diagnostics(ptoc_program *p);
/* The report: the object of `ptoc run --json` (ok, max_abs_err, max_rel_err, races,
 * race_messages, tasks, edges, makespan_cycles, kernels[...], ...); max_abs_err / max_rel_err are
 * null unless "golden" was set. After a failed load or compile: {"ok": false, "error": "..."}. */
const char *ptoc_report_json(ptoc_program *p);
/* The runtime's dependency record of the last run (NULL unless capture_deps). */
const char *ptoc_deps_json(const ptoc_program *p);
/* Simulated makespan of the last run in cycles (0 before a run). */
int64_t ptoc_makespan_cycles(const ptoc_program *p);

#ifdef __cplusplus
}
#endif

#endif
