#!/usr/bin/env bash
# test_kernel_cpp — the PTO-ISA C++ output tree and --check-pto-isa without pto-isa (issue 13):
#   - ptoc compile -o writes kernels/aic/<k>.cpp (cube) / kernels/aiv/<k>.cpp (vector) with the planned
#     Tile types, TASSIGN addresses, the instructions and a kernel_entry wrapper, and kernel_config.py
#     with the func_ids of the orchestration;
#   - a mixed kernel's cross-core transfers are TPipe / TPUSH / TPOP / TFREE with the region's split on
#     both sides (the AIC pushes the scores, the AIV pops its half), no #error; the pipe's SlotSize is
#     the direction's largest tile and tiles of several shapes popped through one ring share its slot
#     counter (docs/sim.md F5);
#   - TROWSUM into a padded [R, 1] result reads a source view with the result's rows (F4);
#   - --check-pto-isa with a directory without headers reports the run unchecked (pto_isa_match null)
#     and still exits 0; without the option pto_isa_match is null and no pto_isa key appears.
# The real comparison needs the pto-isa headers: make check-pto-isa (tests/pto_isa/run.sh).
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

"$PTOC" compile examples/matmul.py -o "$T/mm" > /dev/null 2>&1
K="$T/mm/kernels/aic/matmul_incore_0.cpp"
check "matmul: kernels/aic/<kernel>.cpp" '[ -s "$K" ]'
check "matmul: Mat tile of a, col_major/row_major NZ fractal" 'grep -qF "Tile<TileType::Mat, half, 128, 512, BLayout::ColMajor, 128, 512, SLayout::RowMajor, 512, PadValue::Null>" "$K"'
check "matmul: Acc tile, fractal 1024" 'grep -qF "Tile<TileType::Acc, float, 128, 128, BLayout::ColMajor, 128, 128, SLayout::RowMajor, 1024" "$K"'
check "matmul: b at 0x20000" 'grep -qF "TASSIGN(t_b__tile_1, 0x20000u);" "$K"'
check "matmul: K loop, extracts, matmuls" 'grep -q "for (s_ko__idx_v1_0 = INT64_C(0); s_ko__idx_v1_0 < INT64_C(512); s_ko__idx_v1_0 += INT64_C(256))" "$K" && [ "$(grep -c "TEXTRACT(" "$K")" -eq 4 ] && grep -q "TMATMUL_ACC(t_t__acc_v5_6, t_t__acc_v5_6," "$K"'
check "matmul: GlobalTensor view and TSTORE" 'grep -qF "GlobalTensor<float, Shape<1, 1, 1, 128, 128>, Stride<16384, 16384, 16384, 128, 1>, Layout::ND>" "$K" && grep -q "TSTORE(gt_2, t_t__acc_v5_6);" "$K"'
check "matmul: syncs as inserted" '[ "$(grep -c "set_flag(" "$K")" -eq 8 ] && [ "$(grep -c "wait_flag(" "$K")" -eq 8 ] && grep -q "pipe_barrier(PIPE_ALL);" "$K"'
check "matmul: kernel_entry decodes the descriptors" 'grep -qF "matmul_incore_0_impl(ptoc_tensor<half>(args, 0), ptoc_tensor<half>(args, 1), ptoc_tensor<float>(args, 2));" "$K"'
check "matmul: kernel_config.py" 'grep -qF "\"func_id\": 0, \"name\": \"matmul_incore_0\", \"source\": os.path.join(_DIR, \"kernels/aic/matmul_incore_0.cpp\"), \"core_type\": \"aic\"" "$T/mm/kernel_config.py" && grep -qF "orchestration/matmul.cpp" "$T/mm/kernel_config.py"'

"$PTOC" compile examples/splitk_chain.py -o "$T/sk" > /dev/null 2>&1
check "splitk: an AIV kernel and an AIC kernel" '[ -s "$T/sk/kernels/aiv/zero_init.cpp" ] && ls "$T/sk/kernels/aic/"*.cpp > /dev/null 2>&1'
check "splitk: TEXPANDS with its scalar" 'grep -q "TEXPANDS(" "$T/sk/kernels/aiv/zero_init.cpp"'
check "splitk: atomic-add store" 'grep -q "AtomicType::AtomicAdd" "$T"/sk/kernels/aic/*.cpp'
check "splitk: func_ids 0 and 1" 'grep -q "\"func_id\": 0, \"name\": \"zero_init\"" "$T/sk/kernel_config.py" && grep -q "\"func_id\": 1" "$T/sk/kernel_config.py"'

"$PTOC" compile examples/layer_norm.py -o "$T/ln" > /dev/null 2>&1
check "layer_norm: row reduction with its scratch, row-major views of [R,1] tiles" 'grep -q "TROWSUM(" "$T"/ln/kernels/aiv/*.cpp && grep -q "row-major views of the \[R, 1\]" "$T"/ln/kernels/aiv/*.cpp'

"$PTOC" compile examples/attention.py -o "$T/at" > /dev/null 2>&1
check "attention: cross-core transfers emitted (TPUSH on the AIC, split TPOP on the AIV, no #error)" 'grep -q "TPUSH<PtocPipeC2V, decltype(.*), TileSplitAxis::TILE_UP_DOWN>" "$T"/at/kernels/aic/*.cpp && grep -q "TPOP<PtocPipeC2V, decltype(.*), TileSplitAxis::TILE_UP_DOWN>" "$T"/at/kernels/aiv/attention_0_aiv1.cpp && ! grep -q "#error" "$T"/at/kernels/*/*.cpp'

"$PTOC" compile tests/pto_isa/sweep/vec_rowsum_fp16_8x256.py -o "$T/rs" > /dev/null 2>&1
check "FP16 row_sum of 8 rows: TROWSUM reads a source view with dst's 16 rows (pto-isa's CPU assert)" 'grep -qF "Tile<TileType::Vec, half, 16, 256, BLayout::RowMajor, 8, 256, SLayout::NoneBox, 512, PadValue::Null> v1_t_a__vec_0;" "$T"/rs/kernels/aiv/*.cpp && grep -q "TROWSUM(t_t__tmp_v0_1, v1_t_a__vec_0," "$T"/rs/kernels/aiv/*.cpp'

"$PTOC" compile examples/flash_attention_long.py --target a5 -o "$T/fl" > /dev/null 2>&1
check "flash_attention_long a5: C2V SlotSize is the largest tile (p @ v, 96 KiB), on both sides" '[ "$(grep -h "using PtocPipeC2V" "$T"/fl/kernels/*/*.cpp | sort -u)" = "    using PtocPipeC2V = TPipe<0, Direction::DIR_C2V, 98304u, 2u>;" ]'
check "flash_attention_long a5: the score and p @ v pops share the ring's counter" '[ "$(grep -c "int64_t ptoc_ring_" "$T"/fl/kernels/aiv/flash_aiv0.cpp)" -eq 1 ] && [ "$(grep -c "ptoc_ring_1++;" "$T"/fl/kernels/aiv/flash_aiv0.cpp)" -eq "$(grep -c "TPOP<PtocPipeC2V" "$T"/fl/kernels/aiv/flash_aiv0.cpp)" ]'

"$PTOC" run examples/matmul.py --json --check-pto-isa "$T/none" > "$T/c.json" 2> /dev/null
check "no headers: exit 0, unchecked" '[ $? -eq 0 ] && grep -q "\"pto_isa_match\":null" "$T/c.json" && grep -q "\"pto_isa\":\"unchecked: no pto-isa headers" "$T/c.json"'
"$PTOC" run examples/matmul.py --json > "$T/d.json" 2> /dev/null
check "no option: pto_isa_match null, no detail" 'grep -q "\"pto_isa_match\":null" "$T/d.json" && ! grep -q "\"pto_isa\":" "$T/d.json"'
"$PTOC" run examples/matmul.py --check-pto-isa "$T/none" > "$T/e.txt" 2> /dev/null
check "text report names the reason" 'grep -q "^pto-isa: unchecked: no pto-isa headers" "$T/e.txt" && grep -q "^OK" "$T/e.txt"'

echo "$PASS passed, $FAIL failed"
[ "$FAIL" -eq 0 ]
