#!/bin/bash
# s39 call 10: GEMV strips that fill the SMs (112 columns: 128 CTAs at n =
# 14336; 96: 115 at 11008) pinned against the 64- and 128-column rings and
# cuBLAS (bf16, k 4096)
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup || exit 1
el "variants"
CUDA_VISIBLE_DEVICES=0 timeout $(left 300) python3 bench/gemm_bench.py --reps 11 --dtypes bf16 --variants \
  --only "gemv_m16_n(64|96|112|128)_s(5|6)_tma_nk" \
  --shapes "1,14336,4096;16,14336,4096;1,11008,4096;16,11008,4096;1,14336,4096;16,14336,4096" \
  > $R/variants.log 2>&1
echo "variants rc=$?"; grep -E "^bfloat16|^ +(gemm|best)|check\(s\)|FAIL" $R/variants.log | grep -v "^ *check" | cut -c1-110
lanes_finish
