/* front — lexer and parser: DSL text -> IR, with source spans (spec/ir_and_passes.md §3, §4;
 * spec/language.md for the program forms).
 *
 * Accepts both forms of the pl DSL:
 *   - the user form: @pl.jit functions (and helpers around them), pl.at scopes, pl.matmul, c[:] = x;
 *   - the printed form of every pass dump: @pl.program classes with @pl.function methods.
 * Ordinary Python around the DSL (imports, helper functions, torch code, if __name__ == ...) is
 * skipped. Errors are reported to c->diag with file:line:col spans; the parser never aborts on bad
 * input. */
#ifndef PTOC_FRONT_H
#define PTOC_FRONT_H

#include "ir/ir.h"

/* One bound name of a specialisation (language.md §1.1 "Parameters", §1.3 builders): a tensor's
 * shape and dtype (an unshaped pl.Tensor parameter), or a scalar value (a scalar parameter, a builder's
 * free name, a module constant given with -D NAME=VALUE). */
typedef enum { FA_TENSOR, FA_INT, FA_FLOAT, FA_BOOL } FrontArgKind;
typedef struct FrontArg {
    const char *name;
    FrontArgKind kind;
    DType dtype;                    /* FA_TENSOR */
    int rank;
    int64_t dims[8];
    int64_t ival;                   /* FA_INT, FA_BOOL */
    double fval;                    /* FA_FLOAT */
    Span span;                      /* where the binding came from (a main-block call), or SPAN_NONE */
    bool shape_only;                /* binds an unshaped pl.Tensor only, else ignored (a --in file's
                                       header: its data is checked against shaped parameters later) */
} FrontArg;

/* What a specialisation binds: args by parameter name of the entry (jit) function; defines by name
 * (builder parameters and locals, module constants). Either list may be empty. */
typedef struct FrontBinding {
    const FrontArg *args;
    int nargs;
    const FrontArg *defines;
    int ndefines;
    int cluster_count, aiv_count;   /* the target's, for pl.system.available_*_count() (0: a2a3's 24 / 48) */
} FrontBinding;

/* entry: the @pl.jit function or @pl.program class to compile (NULL = the default choice,
 * language.md §1.6). Returns NULL when any error was reported. */
Program *front_parse(IrCtx *c, const SrcFile *src, const char *entry);
/* The same, specialised by a binding (NULL = none). */
Program *front_parse_bound(IrCtx *c, const SrcFile *src, const char *entry, const FrontBinding *b);

/* Module-level constants (language.md §1.4), evaluated in file order: known ints and floats, and
 * names whose right-hand side is not a constant expression (known == false, with its line). defines
 * (-D) override. */
typedef struct FrontConst {
    const char *name;
    bool known, is_float;
    int64_t ival;
    double fval;
    Span span;                      /* the assignment */
} FrontConst;
typedef struct FrontModule { FrontConst *consts; int n; } FrontModule;
bool front_module_consts(IrCtx *c, const SrcFile *src, const FrontBinding *b, FrontModule *out);
void front_module_free(FrontModule *m);
const FrontConst *front_module_find(const FrontModule *m, const char *name);

#endif
