#!/bin/bash
# s39 call 13: EXPERIMENT, the TMA GEMV with a ring a warp (`_pw`: each warp
# refills its own stages, no producer warp), pinned against the landed rings
# and cuBLAS (bf16)
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup || exit 1
el "variants"
CUDA_VISIBLE_DEVICES=0 timeout $(left 300) python3 bench/gemm_bench.py --reps 11 --dtypes bf16 --variants \
  --only "gemv_m16_n(64|128)_(s5_tma|j[12]_s[58]_pw)_nk" \
  --shapes "1,11008,4096;16,14336,4096;1,14336,4096;16,11008,4096;1,8192,4096;1,11008,4096;16,14336,4096" \
  > $R/variants.log 2>&1
echo "variants rc=$?"; grep -E "^bfloat16|^ +(gemm|best)|check\(s\)|FAIL" $R/variants.log | grep -v "^ *check" | cut -c1-110
lanes_finish
