#!/bin/bash
# forty-sixth session, call 8: the 48-column TMA GEMV below its ranked
# range (this pack: min_n 4097, an experiment) pinned beside the picks of
# n = 4097..8448 (64 columns, the 2-CTA K split, the cp.async ring, the
# register GEMVs) and cuBLAS, two rounds, bf16
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup || exit 1
GPU=0
S="1,8192,4096;16,8192,4096;1,8192,8192;16,8192,8192;1,6144,4096;1,5120,8192;1,7168,8192"
for k in 1 2; do
  el "round $k"
  timeout $(left $((150 * k))) python3 bench/gemm_bench.py --dtypes bf16 --reps 30 --shapes "$S" --variants \
    --only "gemv_m16_(n48_s5_tma|n64_s5_tma|n64_s10_k2_tma|n32_w8_s4)_nk|gemv_m(8|16)_n16_w8_u4_nk" \
    --json $R/low_$k.json > $R/low_$k.log 2>&1
  echo "round $k rc=$?"; grep -vE "^check ok|does not apply" $R/low_$k.log | grep -E "^bfloat16|gemv_m" | cut -c1-96
done
lanes_finish
