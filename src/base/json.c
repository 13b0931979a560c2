/* json: a small streaming writer; commas and nesting are tracked so callers cannot emit bad JSON. */
#include "base/base.h"

#include <math.h>

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

static void json_raw_str(StrBuf *sb, const char *s) {
    sb_putc(sb, '"');
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
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
