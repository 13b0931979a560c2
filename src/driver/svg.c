/* svg — report/memory.svg: the on-chip memory map of every kernel. One row per memory space a
 * kernel uses (Mat, Left, Right, Acc, Bias, Vec), scaled to the target's capacity of that space;
 * each buffer is a box over [addr, addr + bytes) labelled with its IR variable, so overlapping
 * (reused) buffers and the fill of each space are visible at a glance. */
#include "driver/driver_int.h"

#include <string.h>

enum { SVG_W = 960, SVG_LABEL = 70, SVG_ROW = 34, SVG_HEAD = 26 };

static const MemSpace spaces[] = { MS_MAT, MS_LEFT, MS_RIGHT, MS_ACC, MS_BIAS, MS_VEC };
static const char *colours[] = { "#8ecae6", "#ffb703", "#fb8500", "#90be6d", "#cdb4db", "#f4a261" };

static void xml_text(StrBuf *o, const char *s) {
    for (; s && *s; s++) {
        if (*s == '<') sb_puts(o, "&lt;");
        else if (*s == '>') sb_puts(o, "&gt;");
        else if (*s == '&') sb_puts(o, "&amp;");
        else sb_putc(o, *s);
    }
}

static bool uses(const Kernel *k, MemSpace m) {
    for (int i = 0; i < k->nbufs; i++)
        if (k->bufs[i].space == m) return true;
    return false;
}

/* One row: the space's capacity as a frame, its buffers as boxes. Returns the next y. */
static int row(StrBuf *o, const Target *t, const Kernel *k, int si, int y) {
    MemSpace m = spaces[si];
    int64_t cap = t->capacity[m], used = 0;
    for (int i = 0; i < k->nbufs; i++)
        if (k->bufs[i].space == m && k->bufs[i].addr + k->bufs[i].bytes > used) used = k->bufs[i].addr + k->bufs[i].bytes;
    if (cap < used) cap = used;
    double scale = (double)(SVG_W - SVG_LABEL - 10) / (double)(cap ? cap : 1);
    sb_printf(o, "<text x=\"4\" y=\"%d\">%s</text>\n", y + 15, memspace_name(m));
    sb_printf(o, "<text x=\"4\" y=\"%d\" font-size=\"9\">%.0f%% of %lld</text>\n", y + 27, 100.0 * (double)used / (double)(cap ? cap : 1),
              (long long)cap);
    sb_printf(o, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"#f8f8f8\" stroke=\"#999\"/>\n", SVG_LABEL, y,
              SVG_W - SVG_LABEL - 10, SVG_ROW - 6);
    for (int i = 0; i < k->nbufs; i++) {
        const MirBuf *b = &k->bufs[i];
        if (b->space != m) continue;
        double x = SVG_LABEL + (double)b->addr * scale, w = (double)b->bytes * scale;
        sb_printf(o, "<rect x=\"%.1f\" y=\"%d\" width=\"%.1f\" height=\"%d\" fill=\"%s\" fill-opacity=\"0.7\" stroke=\"#333\">"
                  "<title>", x, y + 2, w < 1 ? 1 : w, SVG_ROW - 10, colours[si]);
        xml_text(o, b->name);
        sb_printf(o, ": addr %lld, %lld bytes</title></rect>\n", (long long)b->addr, (long long)b->bytes);
        if (w > 40) {
            sb_printf(o, "<text x=\"%.1f\" y=\"%d\" font-size=\"10\">", x + 3, y + 17);
            xml_text(o, b->name);
            sb_puts(o, "</text>\n");
        }
    }
    return y + SVG_ROW;
}

void drv_memory_svg(const DrvSession *s, StrBuf *o) {
    int height = 10;
    for (int i = 0; i < s->kernels.len; i++) {
        height += SVG_HEAD;
        for (int j = 0; j < (int)(sizeof spaces / sizeof spaces[0]); j++) height += uses(s->kernels.data[i].k, spaces[j]) ? SVG_ROW : 0;
    }
    sb_printf(o, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" font-family=\"monospace\" font-size=\"12\">\n",
              SVG_W, height);
    int y = 4;
    for (int i = 0; i < s->kernels.len; i++) {
        const Kernel *k = s->kernels.data[i].k;
        sb_printf(o, "<text x=\"4\" y=\"%d\" font-weight=\"bold\">", y + 16);
        xml_text(o, k->name);
        sb_printf(o, " (%s, target %s)</text>\n", k->core == CORE_AIC ? "aic" : "aiv", s->opt.target->name);
        y += SVG_HEAD;
        for (int j = 0; j < (int)(sizeof spaces / sizeof spaces[0]); j++)
            if (uses(k, spaces[j])) y = row(o, s->opt.target, k, j, y);
    }
    sb_puts(o, "</svg>\n");
}
