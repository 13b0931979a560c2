/* progfuzz_gen.h — the generator's state, shared by progfuzz_gen.c (programs, regions, matmuls)
 * and progfuzz_gen_vec.c (vector blocks). Not part of the AST (progfuzz.h). */
#ifndef PTOC_PROGFUZZ_GEN_H
#define PTOC_PROGFUZZ_GEN_H

#include "progfuzz.h"

typedef struct Gen {
    PfProgram *p;
    const PfFeatures *f;
    uint64_t rng;
    int scope[PF_MAX_VARS], nscope;         /* loop variables visible here, outermost first */
    int par_var;                            /* innermost enclosing pl.parallel variable, -1 none */
    bool conditional;                       /* inside an if or a loop: writes may not happen */
    bool in_manual;
    int region_dst;                         /* printed form: the one tensor a region writes */
    int mm_left;                            /* budget of matmuls and vector blocks */
    /* vector blocks */
    bool region_vec;                        /* the current region is a vector region */
    int64_t region_vbytes;                  /* Vec bytes of the region's blocks so far (times stages) */
    int64_t stages;                         /* product of the enclosing pl.pipeline stages in the region */
    bool region_wr[PF_MAX_TENSORS];         /* tensors the current region writes */
    PfRange tr[PF_MAX_TENSORS];             /* the values a tensor holds (initial contents and writes so far) */
    bool vec_written[PF_MAX_TENSORS];
    bool pipe_var[PF_MAX_VARS];             /* the variable of a pl.pipeline loop */
    /* a matmul region feeding a vector region through a local, or the other way round (vec_mix) */
    bool force_local;                       /* the next block writes a new local (recorded in last_local) */
    int last_local;
    int prefer_tensor;                      /* the next block reads this tensor first (-1 none) */
} Gen;

uint64_t pf_rnd(Gen *g);
int64_t pf_rint(Gen *g, int64_t n);
bool pf_chance(Gen *g, int percent);
#define PICK(g, arr) ((arr)[pf_rint((g), (int64_t)(sizeof(arr) / sizeof((arr)[0])))])
static inline bool on(const Gen *g, PfFeature id) { return g->f->on[id]; }

int pf_new_stmt(Gen *g, PfStmtKind kind);
int pf_new_tensor(Gen *g, DType dt, PfDir dir);
PfOff pf_gen_off(Gen *g, int64_t extent, int prefer_var);

/* progfuzz_gen_vec.c: a vector block statement (-1 when the budget or a table is exhausted). */
int pf_gen_vec(Gen *g, int block_var);
/* progfuzz_mix.c: a mixed cube + vector region (PF_S_MIX) over fresh tensors (-1 when exhausted). */
int pf_gen_mix(Gen *g);

#endif
