/* emit_cpp_xcore — cross-core transfers (TPUSH / TPOP / TFREE of mixed kernels) as PTO-ISA C++.
 * Requires: emit_cpp_int.h state; MirInst.region_split (both sides), slot_num, xdir.
 * Produces: the channel declarations (cpp_xcore_decls: one `TPipe` per direction the kernel uses, one
 *   slot counter per ring) and the TPUSH / TPOP / TFREE lines.
 * Does: ptoc's channel (xdir) becomes pto-isa's `TPipe<FlagID, DIR_C2V|DIR_V2C, SlotSize, SlotNum>`
 *   (pto/cpu/TPush.hpp: a blocking, mutex + condition-variable ring shared by the cluster's threads).
 *   Both sides must instantiate the same TPipe type — the CPU simulation keys the shared ring by its
 *   template arguments — so SlotSize is the largest whole cluster tile of the direction in bytes on
 *   both sides (scan; rows and columns rounded up to 32, slot_bytes): the producer's tile on the AIC
 *   (C2V), the consumer's Mat tile on the AIC (V2C), and the lane's part times the number of lanes on
 *   an AIV. The split (TileSplitAxis) is the
 *   region's on both sides: pto-isa's consumer picks its half by get_subblockid(), which the harness
 *   sets to the AIV kernel's lane.
 *   a2a3 moves the data through a GM ring (targets.md: the `__gm_pipe_buffer` workspace, which the
 *   runtime does not pass yet: under __CPU_SIM the harness provides it, a device build fails to
 *   compile naming it); a5 through the consumer's on-chip buffer (GM slot buffer nullptr).
 *   A pop reassigns the ring buffer's Tile to the slot ptoc's walk uses (the ring's pop n: slot
 *   n % ring_slots, mir.h, sim/xcore.c; ring_of), so later instructions naming the buffer read that
 *   slot. A sync-only fence (no tile) has no TPUSH / TPOP form in pto-isa's CPU simulation and is
 *   reported. */
#include "back/emit_cpp_int.h"

static const char *split_name(MirSplit s) {
    return s == MSPLIT_UP_DOWN ? "TileSplitAxis::TILE_UP_DOWN" : s == MSPLIT_LEFT_RIGHT ? "TileSplitAxis::TILE_LEFT_RIGHT"
                                                                                      : "TileSplitAxis::TILE_NO_SPLIT";
}

static const char *pipe_var(MirXDir x) { return x == XDIR_C2V ? "ptoc_pipe_c2v" : "ptoc_pipe_v2c"; }

static int64_t round32(int64_t v) { return (v + 31) / 32 * 32; }

/* The whole cluster tile of a transfer, in bytes, as both sides compute it: the AIC's tile is padded
 * (Acc rows to 16, or 32 for INT32; Mat boxes) where the AIV's is not (a [40, 48] result is [48, 48]
 * in L0C and [40, 48] in UB), so rows and columns are rounded up to 32, past every padding either
 * side applies; an AIV lane's part is doubled along the split. Unequal SlotSizes made the two sides
 * instantiate different TPipe types, which under pto-isa's CPU simulation are two rings: the
 * cluster blocked forever (M = 40). */
static int64_t slot_bytes(const Cpp *c, const MirInst *i) {
    int b = i->op == MI_TPUSH ? i->src0 : i->dst;
    if (b < 0) return 0;
    const MirBuf *x = &c->k->bufs[b];
    int64_t rows = x->rows, cols = x->cols;
    if (c->k->core == CORE_AIV && i->region_split == MSPLIT_UP_DOWN) rows *= 2;
    if (c->k->core == CORE_AIV && i->region_split == MSPLIT_LEFT_RIGHT) cols *= 2;
    return round32(rows) * round32(cols) * dtype_bytes(x->dtype);
}

/* Per direction: the first transfer (its slot_num) and the largest tile it carries. SlotSize is the
 * largest, not the first: one channel may carry tiles of several shapes (flash_attention_long pushes a
 * [64, 128] score tile and a [64, 384] `p @ v` through one C2V ring), and pto-isa's CPU pipe copies
 * every entry into a slot of SlotSize bytes without a bound check — a larger later entry overran the
 * slot storage into the pipe's bookkeeping (F5 in docs/sim.md: hangs, heap corruption). */
typedef struct XScan { const MirInst *first[2]; int64_t bytes[2]; bool sync_only; } XScan;

static void scan(const Cpp *c, const MirBlock *b, XScan *s) {
    for (int j = 0; j < b->len; j++) {
        const MirInst *i = b->items[j];
        if (i->op == MI_TPUSH || i->op == MI_TPOP || i->op == MI_TFREE) {
            if (i->sync_only) s->sync_only = true;
            else if (i->op != MI_TFREE) {
                int d = i->xdir & 1;
                int64_t n = slot_bytes(c, i);
                if (!s->first[d]) s->first[d] = i;
                if (n > s->bytes[d]) s->bytes[d] = n;
            }
        }
        scan(c, &i->body, s);
        scan(c, &i->then_body, s);
        scan(c, &i->else_body, s);
    }
}

/* The buffer whose counter numbers the pops of ring buffer b: the first ring buffer at the same
 * address. Tiles of several shapes popped through one ring are separate MirBufs over the same slots,
 * and pop n of the ring — not of the buffer — takes slot n % slot_num (sim/xcore.c, and pto-isa's
 * pipe, whose slot index counts the channel's entries). */
static int ring_of(const Cpp *c, int b) {
    const MirBuf *x = &c->k->bufs[b];
    for (int q = 0; q < c->k->nbufs; q++) {
        const MirBuf *y = &c->k->bufs[q];
        if (y->ring_slots > 0 && y->space == x->space && y->addr == x->addr) return q;
    }
    return b;
}

/* a5 V2C on the AIC: the consumer buffer is ptoc's L1 ring. pto-isa's CPU model stages the popped slot as
 * a row-major Mat tile at V2C_CONSUMER_BUF + slot offset and TMOVs it into the tile, which on the ring
 * itself would be an in-place layout change (NZ tile over ND slot), not a copy; under __CPU_SIM the
 * staging therefore goes to L1 past ptoc's plan (the result in the tile is the same). */
static void v2c_a5_pipe(Cpp *c, const MirInst *pop, int64_t bytes) {
    int64_t end = 0;
    for (int j = 0; j < c->k->nbufs; j++) {
        const MirBuf *x = &c->k->bufs[j];
        int64_t e = x->addr + x->bytes * (x->ring_slots > 0 ? x->ring_slots : 1);
        if (x->space == MS_MAT && e > end) end = e;
    }
    end = (end + 511) / 512 * 512;
    int64_t cap = c->t->physical[MS_MAT];
    if (cap > 0 && end + bytes * pop->slot_num > cap) {
        cpp_unsupported(c, pop, "the a5 vector-to-cube pop: pto-isa's CPU simulation stages %d slots of %lld bytes in L1, "
                                "and only %lld of %lld bytes are left after ptoc's plan", pop->slot_num, (long long)bytes,
                        (long long)(cap - end), (long long)cap);
        return;
    }
    const MirBuf *ring = pop->dst >= 0 ? &c->k->bufs[pop->dst] : NULL;
    cpp_line(c, "#ifdef __CPU_SIM");
    cpp_line(c, "PtocPipeV2C ptoc_pipe_v2c(nullptr, 0x0u, 0x%llxu);   /* staging past ptoc's L1 plan */", (unsigned long long)end);
    cpp_line(c, "#else");
    cpp_line(c, "PtocPipeV2C ptoc_pipe_v2c(nullptr, 0x0u, 0x%llxu);   /* ptoc's L1 ring */",
             (unsigned long long)(ring ? ring->addr : 0));
    cpp_line(c, "#endif");
}

void cpp_xcore_decls(Cpp *c) {
    XScan s = { { NULL, NULL }, { 0, 0 }, false };
    scan(c, &c->k->body, &s);
    bool a5 = c->t->bw_xcore > 0;
    for (int d = 0; d < 2; d++) {
        const MirInst *i = s.first[d];
        if (!i) continue;
        int64_t bytes = s.bytes[d];
        cpp_line(c, "using PtocPipe%s = TPipe<%d, Direction::%s, %lldu, %du>;", d == XDIR_C2V ? "C2V" : "V2C", d,
                 d == XDIR_C2V ? "DIR_C2V" : "DIR_V2C", (long long)bytes, i->slot_num);
        if (a5 && d == XDIR_V2C && c->k->core == CORE_AIC) {
            v2c_a5_pipe(c, i, bytes);
            continue;
        }
        cpp_line(c, "PtocPipe%s %s(%s, 0x0u, 0x0u);", d == XDIR_C2V ? "C2V" : "V2C", pipe_var((MirXDir)d),
                 a5 ? "nullptr" : d == XDIR_C2V ? "PTOC_GM_PIPE_BUFFER(0)" : "PTOC_GM_PIPE_BUFFER(1)");
    }
    for (int j = 0; j < c->k->nbufs; j++)
        if (c->k->bufs[j].ring_slots > 0 && ring_of(c, j) == j)
            cpp_line(c, "int64_t ptoc_ring_%d = 0;   /* pops of the ring at %s so far */", j, c->bn[j]);
}

void cpp_xcore_inst(Cpp *c, const MirInst *i) {
    static const char *ops[] = { "tpush", "tpop", "tfree" };
    if (i->sync_only) {
        cpp_unsupported(c, i, "the synchronization-only cross-core %s (a fence without a tile; pto-isa's TPUSH / TPOP "
                              "move a tile)", ops[i->op - MI_TPUSH]);
        return;
    }
    const char *ty = i->xdir == XDIR_C2V ? "PtocPipeC2V" : "PtocPipeV2C", *pv = pipe_var(i->xdir);
    const char *sp = split_name(i->region_split);
    if (i->op == MI_TPUSH) {
        cpp_line(c, "TPUSH<%s, decltype(%s), %s>(%s, %s);", ty, c->bn[i->src0], sp, pv, c->bn[i->src0]);
    } else if (i->op == MI_TPOP) {
        const MirBuf *x = &c->k->bufs[i->dst];
        int r = ring_of(c, i->dst);
        cpp_line(c, "TASSIGN(%s, 0x%llxu + (uint32_t)(ptoc_ring_%d %% %d) * 0x%llxu);", c->bn[i->dst],
                 (unsigned long long)x->addr, r, x->ring_slots, (unsigned long long)x->bytes);
        cpp_line(c, "ptoc_ring_%d++;", r);
        if (x->space == MS_MAT && (x->valid_rows != x->rows || x->valid_cols != x->cols)) {
            /* pto-isa's CPU TPOP into Mat loads the slot as a GlobalTensor of the tile's full shape and
             * asserts that it equals the valid shape: pop the whole box (the padding rows only feed
             * accumulator rows no store reads), through a view of the same bytes */
            StrBuf whole = {0};
            cpp_tile_type(c, i->dst, true, &whole);
            cpp_line(c, "{");
            cpp_line(c, "    %s ptoc_pop_box;", sb_cstr(&whole));
            cpp_line(c, "    TASSIGN(ptoc_pop_box, 0x%llxu + (uint32_t)((ptoc_ring_%d - 1) %% %d) * 0x%llxu);",
                     (unsigned long long)x->addr, r, x->ring_slots, (unsigned long long)x->bytes);
            cpp_line(c, "    TPOP<%s, decltype(ptoc_pop_box), %s>(%s, ptoc_pop_box);", ty, sp, pv);
            cpp_line(c, "}");
            sb_free(&whole);
        } else {
            cpp_line(c, "TPOP<%s, decltype(%s), %s>(%s, %s);", ty, c->bn[i->dst], sp, pv, c->bn[i->dst]);
        }
    } else {
        cpp_line(c, "TFREE<%s, %s>(%s);", ty, sp, pv);
    }
}
