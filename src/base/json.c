/* json: a small streaming writer; commas and nesting are tracked so callers cannot emit bad JSON. */
#include "base/base.h"

#include <math.h>
#include <string.h>

void json_init(JsonW *w, StrBuf *sb) { w->sb = sb; w->depth = 0; w->need_comma[0] = false; w->after_key = false; }

static void json_sep(JsonW *w) {
    if (w->after_key) { w->after_key = false; return; }
    if (w->need_comma[w->depth]) sb_putc(w->sb, ',');
    w->need_comma[w->depth] = true;
}

static void json_open(JsonW *w, char c) {
    json_sep(w);
    sb_putc(w->sb, c);
    PTOC_ASSERT(w->depth + 1 < 64, "JSON nesting too deep");
    w->need_comma[++w->depth] = false;
}

void json_obj_begin(JsonW *w) { json_open(w, '{'); }
void json_arr_begin(JsonW *w) { json_open(w, '['); }
void json_obj_end(JsonW *w) { w->depth--; sb_putc(w->sb, '}'); }
void json_arr_end(JsonW *w) { w->depth--; sb_putc(w->sb, ']'); }

/* Well-formed UTF-8 is copied; every byte that does not start a well-formed sequence (file names
 * and source text may hold Latin-1 or garbage) becomes U+FFFD, so the output is always valid JSON. */
static void json_raw_str(StrBuf *sb, const char *s) {
    sb_putc(sb, '"');
    size_t left = strlen(s);
    for (const unsigned char *p = (const unsigned char *)s; *p; p++, left--) {
        if (*p >= 0x80) {
            int n = utf8_sequence_length(p, left);
            if (n == 0) { sb_puts(sb, "\\ufffd"); continue; }
            sb_putn(sb, (const char *)p, (size_t)n);
            p += n - 1;
            left -= (size_t)(n - 1);
            continue;
        }
        switch (*p) {
        case '"': sb_puts(sb, "\\\""); break;
        case '\\': sb_puts(sb, "\\\\"); break;
        case '\n': sb_puts(sb, "\\n"); break;
        case '\t': sb_puts(sb, "\\t"); break;
        case '\r': sb_puts(sb, "\\r"); break;
        default:
            if (*p < 0x20) sb_printf(sb, "\\u%04x", *p);
            else sb_putc(sb, (char)*p);
        }
    }
    sb_putc(sb, '"');
}

int utf8_sequence_length(const unsigned char *s, size_t n) {
    if (n == 0) return 0;
    unsigned c = s[0];
    if (c < 0x80) return 1;
    int len = c >= 0xf0 ? 4 : c >= 0xe0 ? 3 : c >= 0xc0 ? 2 : 0;
    if (len == 0 || (size_t)len > n || c < 0xc2 || c > 0xf4) return 0;
    for (int i = 1; i < len; i++)
        if ((s[i] & 0xc0) != 0x80) return 0;
    if (c == 0xe0 && s[1] < 0xa0) return 0;          /* overlong 3-byte form */
    if (c == 0xed && s[1] >= 0xa0) return 0;         /* UTF-16 surrogates */
    if (c == 0xf0 && s[1] < 0x90) return 0;          /* overlong 4-byte form */
    if (c == 0xf4 && s[1] >= 0x90) return 0;         /* beyond U+10FFFF */
    return len;
}

void json_key(JsonW *w, const char *k) { json_sep(w); json_raw_str(w->sb, k); sb_putc(w->sb, ':'); w->after_key = true; }
void json_str(JsonW *w, const char *s) { json_sep(w); json_raw_str(w->sb, s ? s : ""); }
void json_int(JsonW *w, int64_t v) { json_sep(w); sb_printf(w->sb, "%lld", (long long)v); }
void json_num(JsonW *w, double v) {
    json_sep(w);
    if (!isfinite(v)) sb_puts(w->sb, "null");
    else sb_printf(w->sb, "%.17g", v);
}
void json_bool(JsonW *w, bool v) { json_sep(w); sb_puts(w->sb, v ? "true" : "false"); }
void json_null(JsonW *w) { json_sep(w); sb_puts(w->sb, "null"); }
