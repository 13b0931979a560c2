#!/usr/bin/env bash
# test_tile_pad — tile capacities are whole storage units (issue 13 finding F4, docs/sim.md): a boxed
# tile holds whole fractals and a none-box tile has 32-byte rows / columns, the valid shape keeping the
# logical extent, and an L0 tile extracted / moved from a padded Mat tile carries its valid box.
# Reproducers: the sweep programs pto-isa's Tile rejected before (tests/pto_isa/sweep/); the values
# must still match the interpreter, and the emitted C++ must declare every tile (no #error).
set -u
BUILD=${1:-build}
PTOC="$BUILD/ptoc"
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
cd "$ROOT" || exit 1
PASS=0
FAIL=0
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
ok() { PASS=$((PASS + 1)); echo "PASS $1"; }
ko() { FAIL=$((FAIL + 1)); echo "FAIL $1: $2"; }
check() { if eval "$2"; then ok "$1"; else ko "$1" "$2"; fi; }
S=tests/pto_isa/sweep

for p in mm_int8_16x16x16 mm_fp16_100x64x60 mm_fp32_24x40x72 vec_rowsum_fp16_8x256; do
    "$PTOC" compile "$S/$p.py" -o "$T/$p" > /dev/null 2>&1
    check "$p: every tile declared" '! grep -q "#error" "$T/$p"/kernels/*/*.cpp'
    check "$p: values match the interpreter" '"$PTOC" run "$S/$p.py" 2>/dev/null | tail -1 | grep -qx OK'
done
K="$T/mm_int8_16x16x16/kernels/aic/mm_incore_0.cpp"
check "int8 [16, 16] Mat: capacity 16 x 32 (a 16 x 32-byte box), valid 16 x 16" \
    'grep -qF "Tile<TileType::Mat, int8_t, 16, 32, BLayout::ColMajor, 16, 16, SLayout::RowMajor" "$K"'
check "int8 Right: capacity 32 x 16 (column-major inner box)" 'grep -qF "Tile<TileType::Right, int8_t, 32, 16, BLayout::RowMajor, 16, 16," "$K"'
check "int8: the .pto carries the padded capacity" 'grep -q "loc=mat, dtype=i8, rows=16, cols=32" "$T"/mm_int8_16x16x16/ptoas/*.pto'
K="$T/mm_fp16_100x64x60/kernels/aic/mm_incore_0.cpp"
check "fp16 Left extracted from a [112, 64] valid [100, 64] Mat tile keeps valid 100 x 64" \
    'grep -qF "Tile<TileType::Left, half, 112, 64, BLayout::RowMajor, 100, 64," "$K"'
check "fp16 [64, 60] Mat: capacity 64 x 64, valid 64 x 60" 'grep -qF "Tile<TileType::Mat, half, 64, 64, BLayout::ColMajor, 64, 60," "$K"'
check "fp16 Right [64, 28]: capacity 64 x 32, valid 64 x 28" 'grep -qF "Tile<TileType::Right, half, 64, 32, BLayout::RowMajor, 64, 28," "$K"'
check "fp16: the Mat allocation is the padded size (112 x 64 x 2 bytes)" 'grep -q "pl.tile.alloc(pl.Mem.Mat, 14336)" "$T"/mm_fp16_100x64x60/passes_dump/*AllocateMemoryAddr.py'
K="$T/mm_fp32_24x40x72/kernels/aic/mm_incore_0.cpp"
check "fp32 Right [40, 72]: capacity 40 x 80 (8 x 16 boxes), valid 40 x 72" 'grep -qF "Tile<TileType::Right, float, 40, 80, BLayout::RowMajor, 40, 72," "$K"'
check "fp32 Left moved from a valid [24, 40] Mat tile keeps valid 24 x 40" 'grep -qF "Tile<TileType::Left, float, 32, 40, BLayout::ColMajor, 24, 40," "$K"'
K="$T/vec_rowsum_fp16_8x256/kernels/aiv/vec_incore_0.cpp"
check "fp16 [8, 1] column-major row sum: capacity 16 x 1 (32-byte column), valid 8 x 1" \
    'grep -qF "Tile<TileType::Vec, half, 16, 1, BLayout::ColMajor, 8, 1, SLayout::NoneBox" "$K"'

echo "$PASS passed, $FAIL failed"
[ "$FAIL" -eq 0 ]
