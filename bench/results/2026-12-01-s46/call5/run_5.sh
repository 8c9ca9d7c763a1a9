#!/bin/bash
# forty-sixth session, call 5: six more TMA GEMV shapes (48 / 80 / 96
# columns a block, 64 with 6 / 7 stages; tuner-only ranks) against float64,
# then pinned beside cuBLAS at m = 1 / 16, n = 11008 / 14336, two rounds
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup || exit 1
GPU=0
el "gemv variants"
KP_TEST_ONLY="gemv_m16_n48_|gemv_m16_n80_|gemv_m16_n96_|gemv_m16_n64_s6_|gemv_m16_n64_s7_" CK_RUN_CASE=gemm \
  gpu_suite gemv_var.log 120 gemm_gpu
grep -E "cases" $R/gemv_var.log | head -3
S="1,11008,4096;16,11008,4096;1,14336,4096;16,14336,4096"
for k in 1 2; do
  el "gemv round $k"
  timeout $(left $((120 + 110 * k))) python3 bench/gemm_bench.py --reps 30 --shapes "$S" --variants \
    --only "gemv_m16_n(48|64|80|96)_s[567]_tma_nk" --json $R/gemv_$k.json > $R/gemv_$k.log 2>&1
  echo "round $k rc=$?"; grep -vE "^check ok|does not apply" $R/gemv_$k.log | grep -E "^(bfloat16|float16)|gemv_m16" | cut -c1-110
done
lanes_finish
