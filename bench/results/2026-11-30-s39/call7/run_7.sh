#!/bin/bash
# s39 call 7: the TMA GEMV with direct 2-byte stores for plain calls (`_d`)
# and the wgmma GEMV releasing each stage after its own group (`_w0`),
# pinned against the plain ones and cuBLAS (bf16)
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup || exit 1
el "variants"
CUDA_VISIBLE_DEVICES=0 timeout $(left 300) python3 bench/gemm_bench.py --reps 11 --dtypes bf16 --variants \
  --only "gemv_m16_n(64|128)_s(5|8)(_d|_w0)?_(wg|tma)_nk" \
  --shapes "1,11008,4096;16,14336,4096;1,14336,4096;16,11008,4096;1,8448,4096;1,11008,4096;16,14336,4096" \
  > $R/variants.log 2>&1
echo "variants rc=$?"; grep -E "^bf16|^ +(gemm|best)|check\(s\)|FAIL|rel err [1-9]" $R/variants.log | grep -v "^ *check" | cut -c1-120
lanes_finish
