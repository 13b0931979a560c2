/* base: arena, vectors, string buffers, interning, diagnostics, files. */
#define _DEFAULT_SOURCE                          /* MAP_ANONYMOUS, MADV_HUGEPAGE */
#include "base/base.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>

void base_die(const char *file, int line, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "ptoc: internal error at %s:%d: ", file, line);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    abort();
}

/* ---- arena ----
 * Chunks of 64 KiB from malloc while the arena is small; once it has 2 MiB, chunks of 4 MiB mapped
 * 2 MiB-aligned and advised as transparent huge pages. Why: compiling a long kernel fills tens of MiB
 * of fresh arena memory, and where a 4 KiB first-touch fault is expensive (~15 us on the virtual
 * machines ptoc runs on: a third of the 10,000-statement compile went to them) one fault per 2 MiB
 * page removes that cost. Mapped memory comes zeroed and is not cleared again. Where transparent huge
 * pages are off, madvise changes nothing and the chunks fault page by page as malloc'd ones do. */
typedef struct Chunk { struct Chunk *next; size_t used, cap, map_len; max_align_t data[]; } Chunk;
struct Arena { Chunk *head; size_t total; };

enum { ARENA_SMALL = 65536, ARENA_BIG_AFTER = 2 << 20, ARENA_BIG = 4 << 20, HUGE_PAGE = 2 << 20 };

Arena *arena_new(void) {
    Arena *a = calloc(1, sizeof *a);
    PTOC_ASSERT(a, "out of memory");
    return a;
}

void arena_free(Arena *a) {
    if (!a) return;
    for (Chunk *c = a->head, *n; c; c = n) {
        n = c->next;
        if (c->map_len) munmap(c, c->map_len);
        else free(c);
    }
    free(a);
}

/* A zeroed chunk of at least `need` bytes (header included) on whole huge pages, or NULL. */
static Chunk *map_chunk(size_t need) {
    size_t len = (need + HUGE_PAGE - 1) / HUGE_PAGE * HUGE_PAGE;
    char *p = mmap(NULL, len + HUGE_PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) return NULL;
    char *at = (char *)(((uintptr_t)p + HUGE_PAGE - 1) & ~(uintptr_t)(HUGE_PAGE - 1));
    if (at > p) munmap(p, (size_t)(at - p));                       /* keep only the aligned window */
    if (p + len + HUGE_PAGE > at + len) munmap(at + len, (size_t)(p + len + HUGE_PAGE - (at + len)));
#ifdef MADV_HUGEPAGE
    madvise(at, len, MADV_HUGEPAGE);
#endif
    Chunk *c = (Chunk *)at;
    c->map_len = len;
    c->cap = len - sizeof(Chunk);
    return c;
}

static Chunk *new_chunk(Arena *a, size_t size) {
    Chunk *c = NULL;
    if (a->total >= ARENA_BIG_AFTER) c = map_chunk(sizeof(Chunk) + (size > ARENA_BIG ? size : ARENA_BIG));
    if (!c) {
        size_t cap = size > ARENA_SMALL ? size : ARENA_SMALL;
        c = malloc(sizeof(Chunk) + cap);
        PTOC_ASSERT(c, "out of memory");
        c->cap = cap;
        c->map_len = 0;
    }
    c->next = a->head;
    c->used = 0;
    a->head = c;
    a->total += c->cap;
    return c;
}

void *arena_alloc(Arena *a, size_t size) {
    size = (size + 15) & ~(size_t)15;
    Chunk *c = a->head;
    if (!c || c->used + size > c->cap) c = new_chunk(a, size);
    void *p = (char *)c->data + c->used;
    c->used += size;
    if (!c->map_len) memset(p, 0, size);   /* a mapped chunk is zero and never reused */
    return p;
}

char *arena_strndup(Arena *a, const char *s, size_t n) {
    char *p = arena_alloc(a, n + 1);
    memcpy(p, s, n);
    p[n] = 0;
    return p;
}

char *arena_strdup(Arena *a, const char *s) { return arena_strndup(a, s, strlen(s)); }

char *arena_printf(Arena *a, const char *fmt, ...) {
    va_list ap, aq;
    va_start(ap, fmt);
    va_copy(aq, ap);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    char *p = arena_alloc(a, (size_t)n + 1);
    vsnprintf(p, (size_t)n + 1, fmt, aq);
    va_end(aq);
    return p;
}

/* ---- vectors ---- */
void *base_vec_grow(void *data, int *cap, int need, size_t elem) {
    int c = *cap ? *cap : 4;
    while (c < need) c *= 2;
    void *p = realloc(data, (size_t)c * elem);
    PTOC_ASSERT(p, "out of memory");
    *cap = c;
    return p;
}

/* ---- string buffer ---- */
static void sb_reserve(StrBuf *sb, size_t extra) {
    if (sb->len + extra + 1 <= sb->cap) return;
    size_t c = sb->cap ? sb->cap : 64;
    while (c < sb->len + extra + 1) c *= 2;
    sb->data = realloc(sb->data, c);
    PTOC_ASSERT(sb->data, "out of memory");
    sb->cap = c;
}

void sb_putn(StrBuf *sb, const char *s, size_t n) {
    sb_reserve(sb, n);
    memcpy(sb->data + sb->len, s, n);
    sb->len += n;
    sb->data[sb->len] = 0;
}
void sb_putc(StrBuf *sb, char c) { sb_putn(sb, &c, 1); }
void sb_puts(StrBuf *sb, const char *s) { sb_putn(sb, s, strlen(s)); }
void sb_indent(StrBuf *sb, int n) { for (int i = 0; i < n; i++) sb_putc(sb, ' '); }

/* Formats straight into the free space; only when that is too short is the text formatted again
 * (measuring first formatted every printf twice, a large share of printing a long program). */
void sb_vprintf(StrBuf *sb, const char *fmt, va_list ap) {
    va_list aq;
    va_copy(aq, ap);
    size_t room = sb->cap > sb->len ? sb->cap - sb->len : 0;
    int n = vsnprintf(room ? sb->data + sb->len : NULL, room, fmt, aq);
    va_end(aq);
    PTOC_ASSERT(n >= 0, "sb_printf: bad format");
    if ((size_t)n >= room) {
        sb_reserve(sb, (size_t)n);
        vsnprintf(sb->data + sb->len, (size_t)n + 1, fmt, ap);
    }
    sb->len += (size_t)n;
}

void sb_printf(StrBuf *sb, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    sb_vprintf(sb, fmt, ap);
    va_end(ap);
}

const char *sb_cstr(StrBuf *sb) { return sb->data ? sb->data : ""; }
char *sb_take(StrBuf *sb) {
    char *p = sb->data ? sb->data : calloc(1, 1);
    sb->data = NULL; sb->len = sb->cap = 0;
    return p;
}
void sb_free(StrBuf *sb) { free(sb->data); sb->data = NULL; sb->len = sb->cap = 0; }

/* ---- interning: open addressing, strings live in the arena ---- */
struct Interner { Arena *arena; const char **slots; size_t cap, count; };

Interner *intern_new(Arena *a) {
    Interner *in = ARENA_NEW(a, Interner);
    in->arena = a;
    in->cap = 256;
    in->slots = ARENA_ARRAY(a, const char *, in->cap);
    return in;
}

static uint64_t hash_bytes(const char *s, size_t n) {
    uint64_t h = 1469598103934665603ull;
    for (size_t i = 0; i < n; i++) { h ^= (unsigned char)s[i]; h *= 1099511628211ull; }
    return h;
}

const char *intern(Interner *in, const char *s, size_t len) {
    if (in->count * 2 >= in->cap) {
        size_t ncap = in->cap * 2;
        const char **ns = ARENA_ARRAY(in->arena, const char *, ncap);
        for (size_t i = 0; i < in->cap; i++) {
            const char *t = in->slots[i];
            if (!t) continue;
            size_t j = hash_bytes(t, strlen(t)) & (ncap - 1);
            while (ns[j]) j = (j + 1) & (ncap - 1);
            ns[j] = t;
        }
        in->slots = ns;
        in->cap = ncap;
    }
    size_t j = hash_bytes(s, len) & (in->cap - 1);
    while (in->slots[j]) {
        const char *t = in->slots[j];
        if (strncmp(t, s, len) == 0 && t[len] == 0) return t;
        j = (j + 1) & (in->cap - 1);
    }
    in->slots[j] = arena_strndup(in->arena, s, len);
    in->count++;
    return in->slots[j];
}
const char *intern_cstr(Interner *in, const char *s) { return intern(in, s, strlen(s)); }

/* ---- diagnostics ---- */
void diag_init(DiagSink *d) { memset(d, 0, sizeof *d); }
void diag_free(DiagSink *d) {
    for (int i = 0; i < d->items.len; i++) { free(d->items.data[i].msg); free(d->items.data[i].code); }
    vec_free(&d->items);
    d->nerrors = 0;
}

void diag_vadd(DiagSink *d, DiagLevel lv, Span sp, const char *code, const char *fmt, va_list ap) {
    StrBuf sb = {0};
    sb_vprintf(&sb, fmt, ap);
    Diag g = { lv, sp, code ? strdup(code) : NULL, sb_take(&sb) };
    vec_push(&d->items, g);
    if (lv == DIAG_ERROR) d->nerrors++;
}

void diag_add(DiagSink *d, DiagLevel lv, Span sp, const char *code, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    diag_vadd(d, lv, sp, code, fmt, ap);
    va_end(ap);
}

const char *diag_level_name(DiagLevel lv) {
    switch (lv) {
    case DIAG_ERROR: return "error";
    case DIAG_WARNING: return "warning";
    case DIAG_NOTE: return "note";
    case DIAG_PERF: return "perf-hint";
    }
    return "?";
}

void diag_format(const Diag *g, StrBuf *out) {
    const SrcFile *f = g->span.file;
    if (f && g->span.line > 0)
        sb_printf(out, "%s:%d:%d: ", f->path, g->span.line, g->span.col);
    else
        sb_puts(out, "ptoc: ");
    sb_printf(out, "%s: ", diag_level_name(g->level));
    if (g->code) sb_printf(out, "[%s] ", g->code);
    sb_puts(out, g->msg);
    sb_putc(out, '\n');
    if (!f || g->span.line <= 0 || !f->text) return;
    const char *p = f->text, *end = f->text + f->len;
    for (int ln = 1; ln < g->span.line && p < end; p++)
        if (*p == '\n') ln++;
    const char *e = p;
    while (e < end && *e != '\n') e++;
    /* a long line (generated code) is shown as a window around the caret */
    const char *at = p + (g->span.col > 0 ? g->span.col - 1 : 0);
    if (at > e) at = e;
    const char *ls = p, *le = e;
    if (e - p > 160) {
        if (at - p > 60) ls = at - 60;
        if (le - ls > 160) le = ls + 160;
    }
    sb_printf(out, "%5d | %s", g->span.line, ls > p ? "..." : "");
    for (const char *q = ls; q < le; q++) sb_putc(out, *q ? *q : ' ');   /* a NUL would end the message */
    sb_printf(out, "%s\n      | %s", le < e ? "..." : "", ls > p ? "   " : "");
    for (const char *q = ls; q < at; q++) {
        unsigned char c = (unsigned char)*q;
        if ((c & 0xc0) != 0x80) sb_putc(out, c == '\t' ? '\t' : ' ');   /* one space per UTF-8 character */
    }
    sb_putc(out, '^');
    for (int i = 1; i < g->span.len && at + i < le; i++) sb_putc(out, '~');
    sb_putc(out, '\n');
}

void diag_format_all(const DiagSink *d, StrBuf *out) {
    for (int i = 0; i < d->items.len; i++) diag_format(&d->items.data[i], out);
}

/* ---- files ---- */
char *base_read_file_max(const char *path, size_t max, size_t *len) {
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    struct stat st;
    if (fstat(fileno(f), &st) == 0 && S_ISDIR(st.st_mode)) {
        fclose(f);
        errno = EISDIR;
        return NULL;
    }
    StrBuf sb = {0};
    char buf[65536];
    size_t n;
    bool too_long = false;
    /* devices and pipes report no size: the limit is enforced while reading */
    while (!too_long && (n = fread(buf, 1, sizeof buf, f)) > 0) {
        if (n > max - sb.len) too_long = true;
        else sb_putn(&sb, buf, n);
    }
    int read_errno = ferror(f) ? errno : 0;
    fclose(f);
    if (too_long || read_errno) {
        sb_free(&sb);
        errno = too_long ? EFBIG : read_errno;
        return NULL;
    }
    if (len) *len = sb.len;
    return sb_take(&sb);
}

char *base_read_file(const char *path, size_t *len) { return base_read_file_max(path, SIZE_MAX - 1, len); }

bool checked_product(const int64_t *factors, int n, int64_t *r) {
    int64_t p = 1;
    for (int i = 0; i < n; i++)
        if (!checked_mul(p, factors[i], &p)) return false;
    *r = p;
    return true;
}

bool checked_round_up(int64_t a, int64_t m, int64_t *r) {
    int64_t t;
    if (!checked_add(a, m - 1, &t)) return false;
    *r = t / m * m;
    return true;
}

bool base_write_file(const char *path, const char *data, size_t len) {
    FILE *f = fopen(path, "wb");
    if (!f) return false;
    bool ok = fwrite(data, 1, len, f) == len;
    int write_errno = errno;
    if (fclose(f) != 0) return false;
    errno = write_errno;
    return ok;
}

bool base_mkdir_p(const char *path) {
    char buf[4096];
    size_t n = strlen(path);
    if (n >= sizeof buf) { errno = ENAMETOOLONG; return false; }
    memcpy(buf, path, n + 1);
    for (size_t i = 1; i <= n; i++) {
        if (buf[i] == '/' || buf[i] == 0) {
            char c = buf[i];
            buf[i] = 0;
            if (mkdir(buf, 0777) != 0 && errno != EEXIST) return false;
            buf[i] = c;
        }
    }
    return true;
}

double base_now_seconds(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}
