#!/bin/bash
# forty-sixth session, call 10: the 2-CTA K split of 64 columns (ranked for
# n = 4096..8191 at k >= 8192) taken to n = 8448 in this pack (an
# experiment): pinned beside the 64-column ring and cuBLAS at n = 8192 /
# 8448, k = 8192 / 14336 (Llama-70B's q / o projections: n = k = 8192), two
# rounds, bf16
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup || exit 1
GPU=0
el "variants"
KP_TEST_ONLY="gemv_m16_n64_s10_k2_" CK_RUN_CASE=gemm gpu_suite k2_var.log 60 gemm_gpu
S="1,8192,8192;16,8192,8192;1,8448,8192;1,8192,14336;16,8192,14336"
for k in 1 2; do
  el "round $k"
  timeout $(left $((60 + 60 * k))) python3 bench/gemm_bench.py --dtypes bf16 --reps 30 --shapes "$S" --variants \
    --only "gemv_m16_n64_s(5|10_k2)_tma_nk" --json $R/k2_$k.json > $R/k2_$k.log 2>&1
  echo "round $k rc=$?"; grep -vE "^check ok|does not apply" $R/k2_$k.log | grep -E "^bfloat16|gemv_m" | cut -c1-96
done
lanes_finish
