/* base — arena, growable arrays, strings, diagnostics, fp16/bf16 numerics, JSON writer, .npy I/O.
 * Everything above libc that every other layer uses. No global mutable state. */
#ifndef PTOC_BASE_H
#define PTOC_BASE_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

/* ---- invariants: internal errors abort loudly with file, line and message ---- */
void base_die(const char *file, int line, const char *fmt, ...) __attribute__((noreturn, format(printf, 3, 4)));
#define PTOC_ASSERT(cond, ...) \
    do { if (!(cond)) base_die(__FILE__, __LINE__, "assertion '" #cond "' failed: " __VA_ARGS__); } while (0)
#define PTOC_UNREACHABLE(...) base_die(__FILE__, __LINE__, "unreachable: " __VA_ARGS__)

/* ---- checked 64-bit arithmetic: every size, element count and computation on user values goes
 * through these; they return false on overflow (the result is then unspecified). GNU builtins,
 * available in gcc and clang. ---- */
static inline bool checked_add(int64_t a, int64_t b, int64_t *r) { return !__builtin_add_overflow(a, b, r); }
static inline bool checked_sub(int64_t a, int64_t b, int64_t *r) { return !__builtin_sub_overflow(a, b, r); }
static inline bool checked_mul(int64_t a, int64_t b, int64_t *r) { return !__builtin_mul_overflow(a, b, r); }
/* The product of n factors (1 when n == 0); false on overflow. */
bool checked_product(const int64_t *factors, int n, int64_t *r);
/* a rounded up to a multiple of m (m > 0, a >= 0); false on overflow. */
bool checked_round_up(int64_t a, int64_t m, int64_t *r);

/* ---- arena: bump allocation, freed all at once ---- */
typedef struct Arena Arena;
Arena *arena_new(void);
void arena_free(Arena *a);
void *arena_alloc(Arena *a, size_t size);          /* zeroed, 16-byte aligned */
char *arena_strdup(Arena *a, const char *s);
char *arena_strndup(Arena *a, const char *s, size_t n);
char *arena_printf(Arena *a, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
#define ARENA_NEW(a, T) ((T *)arena_alloc((a), sizeof(T)))
#define ARENA_ARRAY(a, T, n) ((T *)arena_alloc((a), sizeof(T) * (size_t)(n)))

/* ---- growable arrays (heap backed; vec_free releases) ----
 *   VEC(int) v = {0}; vec_push(&v, 3); v.data[0]; v.len; vec_free(&v); */
#define VEC(T) struct { T *data; int len, cap; }
void *base_vec_grow(void *data, int *cap, int need, size_t elem);
#define vec_reserve(v, n) \
    ((n) > (v)->cap ? (void)((v)->data = base_vec_grow((v)->data, &(v)->cap, (n), sizeof(*(v)->data))) : (void)0)
#define vec_push(v, x) (vec_reserve((v), (v)->len + 1), (v)->data[(v)->len++] = (x))
#define vec_pop(v) ((v)->data[--(v)->len])
#define vec_last(v) ((v)->data[(v)->len - 1])
#define vec_free(v) (free((v)->data), (v)->data = NULL, (v)->len = (v)->cap = 0)
#define vec_clear(v) ((v)->len = 0)

/* ---- string buffer ---- */
typedef struct StrBuf { char *data; size_t len, cap; } StrBuf;
void sb_putc(StrBuf *sb, char c);
void sb_puts(StrBuf *sb, const char *s);
void sb_putn(StrBuf *sb, const char *s, size_t n);
void sb_printf(StrBuf *sb, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void sb_vprintf(StrBuf *sb, const char *fmt, va_list ap);
void sb_indent(StrBuf *sb, int n);                  /* n spaces */
const char *sb_cstr(StrBuf *sb);                    /* never NULL */
char *sb_take(StrBuf *sb);                          /* caller frees; sb reset */
void sb_free(StrBuf *sb);

/* ---- string interning (per interner; pointer equality == string equality) ---- */
typedef struct Interner Interner;
Interner *intern_new(Arena *a);
const char *intern(Interner *in, const char *s, size_t len);
const char *intern_cstr(Interner *in, const char *s);

/* ---- source files and spans ---- */
typedef struct SrcFile { const char *path; const char *text; size_t len; } SrcFile;
typedef struct Span { const SrcFile *file; int line, col, len; } Span;   /* 1-based; len >= 1 for a caret */
#define SPAN_NONE ((Span){0})

/* ---- diagnostics: a sink collects; the CLI decides what to print ---- */
typedef enum { DIAG_ERROR, DIAG_WARNING, DIAG_NOTE, DIAG_PERF } DiagLevel;
typedef struct Diag { DiagLevel level; Span span; char *code; char *msg; } Diag;
typedef struct DiagSink { VEC(Diag) items; int nerrors; } DiagSink;
void diag_init(DiagSink *d);
void diag_free(DiagSink *d);
void diag_add(DiagSink *d, DiagLevel lv, Span sp, const char *code, const char *fmt, ...) __attribute__((format(printf, 5, 6)));
void diag_vadd(DiagSink *d, DiagLevel lv, Span sp, const char *code, const char *fmt, va_list ap);
#define diag_error(d, sp, ...) diag_add((d), DIAG_ERROR, (sp), NULL, __VA_ARGS__)
/* gcc style: "path:line:col: error: msg\n<source line>\n    ^~~~\n" (no location line when span is empty) */
void diag_format(const Diag *g, StrBuf *out);
void diag_format_all(const DiagSink *d, StrBuf *out);
const char *diag_level_name(DiagLevel lv);

/* ---- numerics: IEEE half and bfloat16, round to nearest even ---- */
float fp16_to_f32(uint16_t h);
uint16_t f32_to_fp16(float f);
float bf16_to_f32(uint16_t h);
uint16_t f32_to_bf16(float f);

/* ---- UTF-8 ---- */
/* Length (1..4) of the well-formed UTF-8 sequence at s (n bytes available), 0 when the bytes there
 * are not UTF-8 (stray continuation, overlong form, surrogate, beyond U+10FFFF, truncated). */
int utf8_sequence_length(const unsigned char *s, size_t n);

/* ---- JSON writer (compact, valid, strings escaped; bytes that are not UTF-8 become U+FFFD) ---- */
typedef struct JsonW { StrBuf *sb; int depth; bool need_comma[64]; bool after_key; } JsonW;
void json_init(JsonW *w, StrBuf *sb);
void json_obj_begin(JsonW *w);
void json_obj_end(JsonW *w);
void json_arr_begin(JsonW *w);
void json_arr_end(JsonW *w);
void json_key(JsonW *w, const char *k);
void json_str(JsonW *w, const char *s);
void json_int(JsonW *w, int64_t v);
void json_num(JsonW *w, double v);        /* %.17g, NaN/Inf written as null */
void json_bool(JsonW *w, bool v);
void json_null(JsonW *w);

/* ---- files ---- */
char *base_read_file(const char *path, size_t *len);    /* malloc'd, NUL-terminated; NULL on failure */
/* The same, reading at most max bytes: NULL with errno = EISDIR for a directory and EFBIG for a
 * file longer than max (neither is read); other failures keep fopen/fread's errno. */
char *base_read_file_max(const char *path, size_t max, size_t *len);
bool base_write_file(const char *path, const char *data, size_t len);   /* false with errno set */
bool base_mkdir_p(const char *path);                                     /* false with errno set */
double base_now_seconds(void);                            /* monotonic */

/* ---- large data buffers (hugemem.c): malloc / calloc, advised onto transparent huge pages when at
 * least 2 MiB (fewer first-touch faults); freed with free() ---- */
void *base_malloc_big(size_t n);
void *base_calloc_big(size_t n);
void base_advise_huge(void *p, size_t n);

#endif
