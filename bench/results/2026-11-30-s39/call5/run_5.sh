#!/bin/bash
# s39 call 5: the wgmma GEMV (`_wg_nk`, cuBLAS's form) pinned against the
# TMA GEMV and cuBLAS at the issue's skinny shapes (bf16), with gemm_bench's
# checks of each pinned variant
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup || exit 1
el "variants"
CUDA_VISIBLE_DEVICES=0 timeout $(left 300) python3 bench/gemm_bench.py --reps 11 --dtypes bf16 --variants \
  --only "gemv_m(16|8)_n(64|128)_s[0-9]+_(wg|tma)_nk" \
  --shapes "1,11008,4096;16,14336,4096;1,14336,4096;16,11008,4096;1,4096,4096;16,4096,4096;1,4096,11008;16,4096,11008;1,8448,4096" \
  > $R/variants.log 2>&1
echo "variants rc=$?"; grep -E "^bf16|^ +(gemm|best)|check\(s\)|FAIL|rel err [1-9]" $R/variants.log | grep -v "^ *check" | cut -c1-120
lanes_finish
