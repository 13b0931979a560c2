/* driver — compile and run a pl program end to end (DESIGN.md "The main job").
 *
 * A DrvSession owns one program from text to report:
 *   load    read + parse (front_parse) into two copies: the source program (kept untouched for the
 *           reference interpreter and for parameter queries) and the program the passes rewrite;
 *   compile pass_run_pipeline with a hook (dumps NN_after_<Pass>.py, per-pass timing, print -> parse
 *           -> ir_program_equal round trip), the L0 tile picks (re-run of the chooser on every Mat
 *           matmul after ConvertTensorToTileOps), then back_lower_function + back_insert_sync +
 *           back_print_pto for every AIC/AIV function;
 *   run     rt_run on the Orchestration function; each task block runs on a simulated core
 *           (sim_run, race check on by default) and its cycles, cube utilisation, races and sync
 *           errors are collected per kernel; optionally the golden outputs (interp_run on the source
 *           program) are compared with the simulated ones;
 *   report  one JSON object (drv_report_json) or the human text (drv_report_text); the output tree
 *           of DESIGN.md (drv_write_outputs).
 * Library code: never prints to stdout and never exits; errors go to the session's DiagSink. */
#ifndef PTOC_DRIVER_H
#define PTOC_DRIVER_H

#include "base/base.h"
#include "base/dtype.h"
#include "front/front.h"
#include "ir/ir.h"
#include "mir/mir.h"
#include "pass/pass.h"
#include "target/target.h"
#include "tile/tile.h"

typedef struct DrvOptions {
    const Target *target;           /* default a2a3 */
    MemoryPlanner planner;          /* default PLANNER_PYPTO */
    bool dbc;                       /* enable_pypto_l0c_double_buffer */
    bool pipeline_dbc;              /* the existing-pipeline L0C double buffer (PYPTO); default true */
    bool no_auto_l1;                /* turn off AutoTileL1 (--no-auto-l1); default false */
    bool no_rotate;                 /* turn off RotateMixedLoops (--no-rotate); default false */
    uint64_t seed;                  /* random inputs (drv_run_random); default 1 */
    bool race_check;                /* default true */
    bool verify_roundtrip;          /* print -> parse -> equal after every pass; default false (tests turn it on) */
    bool capture_deps;              /* ask the runtime for deps.json; default false */
    bool golden;                    /* drv_run compares with the interpreter; default false */
    bool timing_only;               /* simulate timing only: no data moved or computed, no golden run, no
                                       input data (drv_run_random leaves the buffers untouched) */
    int threads;                    /* host threads simulating kernels (default 1), 0 = one per CPU */
    int cores;                      /* --cores N: cube cores AutoSplitCores may use, 0 = all of the target */
    const char *dump_dir;           /* write 00_frontend.py + NN_after_<Pass>.py here (NULL = no) */
    const char *const *defines;     /* -D NAME=VALUE (builder free names, module constants, pl.dynamic
                                       dims); owned by the caller, read when a program is loaded */
    int ndefines;
    const char *check_pto_isa;      /* --check-pto-isa DIR: replay the run's kernels through pto-isa's CPU
                                       simulation (headers in DIR/include) and compare bit for bit; NULL = no */
} DrvOptions;

void drv_options_defaults(DrvOptions *o);
/* String options of the public API: target, memory_planner, dbc, pipeline_dbc, seed, race_check,
 * verify_roundtrip, capture_deps, golden, timing_only, threads, cores. false with a message in err on a bad key/value. */
bool drv_option_set(DrvOptions *o, const char *key, const char *value, char *err, size_t errlen);
bool drv_planner_from_name(const char *name, MemoryPlanner *out);   /* pypto | dsa_rp | ptoas */

/* One parameter of the entry function (the source program's @pl.jit function). */
typedef struct DrvParam {
    const char *name;
    DType dtype;
    int rank;
    int64_t shape[8];
    ParamDir dir;                   /* PD_IN, PD_OUT, PD_INOUT */
    bool is_tensor;
    int64_t numel, bytes;
} DrvParam;

/* The L0 tile AutoTileMatmulL0 chose for one matmul (PassCtx.tiles), attributed to the InCore
 * function it lives in. */
typedef struct DrvTile {
    const char *func;
    Span span;
    int64_t M, N, K, m, n, k;
    Stationarity stationarity;
    bool dbc, os_holds_a;
    int64_t cost_cycles;
} DrvTile;

typedef struct DrvPassTime { const char *name; double seconds; } DrvPassTime;

/* One compiled kernel and what running it produced. */
typedef struct DrvKernel {
    const Function *fn;
    Kernel *k;
    bool sync_ok;                   /* back_insert_sync ran */
    int ids_used[PIPE_COUNT][PIPE_COUNT];           /* SyncStats.ids_used */
    int nset, nwait, nbarrier, nfallback;
    char *pto;                      /* .pto text (malloc'd) */
    char *cpp;                      /* PTO-ISA C++ text (malloc'd, back_print_cpp; NULL until drv_kernels_cpp) */
    char *cpp_why;                  /* NULL, or the form the C++ emitter cannot spell (malloc'd) */
    /* run statistics (max over blocks / tasks) */
    int runs;
    int64_t cycles;
    double cube_util;
    double pipe_util[PIPE_COUNT];   /* busy fraction per pipe of the longest run */
    int races, sync_errors;
} DrvKernel;

/* One runtime task of the last run (simulated cycles). */
typedef struct DrvTask {
    int id;
    const char *kernel, *core;      /* function name ("alloc_tensors" for an allocation); "aic"/"aiv"/... */
    int64_t block_num, start, end;
} DrvTask;

typedef struct DrvRunStats {
    bool ran;
    int tasks, edges;
    VEC(DrvTask) task_list;
    int64_t makespan_cycles;
    double wall_seconds;            /* rt_run (runtime + simulator) */
    double golden_seconds;          /* interp_run */
    VEC(char *) race_messages;      /* "kernel: message" (malloc'd) */
    VEC(char *) sync_messages;
    char *deps_json;                /* when capture_deps */
    bool compared;                  /* golden comparison done */
    double max_abs_err, max_rel_err, atol, rtol;
    int64_t mismatches, checked;
    bool within_tol;
    int pto_isa_match;              /* --check-pto-isa: 1 bit-identical, 0 differs, -1 not checked */
    char *pto_isa_msg;              /* its detail (malloc'd), NULL when not asked */
} DrvRunStats;

typedef struct DrvSession DrvSession;

DrvSession *drv_new(const DrvOptions *o);
void drv_free(DrvSession *s);
DrvOptions *drv_options(DrvSession *s);     /* may be changed before drv_compile */
DiagSink *drv_diag(DrvSession *s);

/* ---- specialisation (language.md §1.1; ptoc --arg / --in) ----
 * Before loading, a session may bind parameters of the entry @pl.jit function: an unshaped
 * pl.Tensor takes the bound shape and dtype, a scalar parameter bound to a value is read as that
 * literal. The program is compiled for exactly these bindings (ptoc has no compile cache: one
 * session = one specialisation). Precedence: --arg, then --in, then the FrontBinding given to
 * drv_load_file_bound (the main block). */
/* "NAME=64x128:fp32" (a tensor; dtypes fp32 fp16 bf16 int8 int16 int32 int64 bool, any case),
 * "NAME=64" (an integer), "NAME=1e-5" (a float), "NAME=true" (a boolean). out->name points to
 * name (namelen bytes). false with a message in err on bad syntax. */
bool drv_arg_parse(const char *spec, FrontArg *out, char *name, size_t namelen, char *err, size_t errlen);
/* --arg: binds a->name (copied); a later binding of the same name replaces it. */
bool drv_bind_arg(DrvSession *s, const FrontArg *a);
/* --in NAME=file.npy: the header's shape and dtype bind NAME when it is an unshaped parameter
 * (unless --arg binds it); the data is still read and checked by drv_bind_file / drv_run_random.
 * An unreadable file binds nothing here (the data read reports it). */
bool drv_bind_input_shape(DrvSession *s, const char *name, const char *path);
/* Reads the header of a .npy file: dtype, rank (at most 8) and dims. */
bool drv_npy_header(const char *path, DType *dtype, int *rank, int64_t *dims, char *err, size_t errlen);

/* path[:entry] is split by the caller; entry NULL = the program's first @pl.jit function. */
bool drv_load_file(DrvSession *s, const char *path, const char *entry);
/* The same with a binding (the main block's call; its defines are passed through), under the
 * session's --arg / --in bindings. b may be NULL. */
bool drv_load_file_bound(DrvSession *s, const char *path, const char *entry, const FrontBinding *b);
bool drv_load_text(DrvSession *s, const char *name, const char *text, const char *entry);
bool drv_loaded(const DrvSession *s);
const char *drv_entry_name(const DrvSession *s);
/* The source program printed (ptoc parse). */
void drv_print_source(const DrvSession *s, StrBuf *out);

int drv_num_params(const DrvSession *s);
const DrvParam *drv_param(const DrvSession *s, int i);

bool drv_compile(DrvSession *s);
bool drv_compiled(const DrvSession *s);
int drv_num_kernels(const DrvSession *s);
const DrvKernel *drv_kernel(const DrvSession *s, int i);
int drv_num_tiles(const DrvSession *s);
const DrvTile *drv_tile(const DrvSession *s, int i);

/* Runs the compiled program with caller buffers (one per parameter, packed row-major in its dtype).
 * With options golden, the inputs are copied first and the outputs compared with interp_run. */
bool drv_run(DrvSession *s, void **bufs, int nbufs);
/* Allocates the parameters, fills inputs with seeded random values (or reads the .npy bound with
 * drv_bind_file), zero-fills outputs, runs with the golden comparison, writes bound outputs. */
bool drv_run_random(DrvSession *s);
const DrvRunStats *drv_run_stats(const DrvSession *s);
/* Binds parameter `name` to a .npy file for drv_run_random: an input read instead of random values
 * (output == false; In/InOut parameters), or an output written after the run (output == true;
 * Out/InOut). false with a diagnostic for an unknown name or a wrong direction. */
bool drv_bind_file(DrvSession *s, const char *name, const char *path, bool output);
/* Exit verdict of a run: compared within tolerance (when compared) and no race / sync error. */
bool drv_run_ok(const DrvSession *s);

/* Reports (report.c). */
void drv_report_json(const DrvSession *s, StrBuf *out);
void drv_report_text(const DrvSession *s, StrBuf *out);
/* {"ok": false, "error": "<first error message>"} */
void drv_error_json(const DrvSession *s, StrBuf *out);
/* Perf hints, one per line: "CODE file:line: message". */
void drv_perf_hints(const DrvSession *s, StrBuf *out);

/* The output tree (output.c): passes_dump/ (needs dump_dir == DIR/passes_dump set before compile,
 * see drv_output_prepare), ptoas/, orchestration/, report/; run/deps.json after a run. */
void drv_output_prepare(DrvSession *s, const char *dir);   /* sets dump_dir to DIR/passes_dump */
bool drv_write_outputs(DrvSession *s, const char *dir);

/* .npy files (npy.c): dtype and shape must match the parameter. */
bool drv_npy_read(const char *path, const DrvParam *p, void *dst, char *err, size_t errlen);
bool drv_npy_write(const char *path, const DrvParam *p, const void *data, char *err, size_t errlen);

/* ---- shared between the driver files (not for the CLI) ---- */
/* Random fill of one buffer: uniform [-1, 1) rounded to dtype (INT types: [-8, 8)). */
void drv_fill_random(void *buf, DType dt, int64_t n, uint64_t *state);
void drv_fill_random_threads(void *buf, DType dt, int64_t n, uint64_t *state, int threads);   /* the same bytes */
double drv_elem_get(const void *buf, DType dt, int64_t i);

#endif
