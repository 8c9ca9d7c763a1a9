#!/bin/bash
# s39 call 14: EXPERIMENT, the m = 128 GEMM picks against plain-only twins
# (`_nt`: no epilogue terms compiled in; 8361 -> 3017 SASS lines for
# 128x88), pinned (bf16; the twins fail gemm_bench's epilogue checks by
# design)
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup || exit 1
el "variants"
CUDA_VISIBLE_DEVICES=0 timeout $(left 300) python3 bench/gemm_bench.py --reps 15 --dtypes bf16 --variants \
  --only "wg_(128x88_s6_e88|128x112_s6_e112|64x64_s13|128x64_s8_k2)(_nt)?_nk" \
  --shapes "128,11008,4096;128,14336,4096;128,4096,4096;128,4096,11008;128,11008,4096;128,14336,4096;128,4096,4096" \
  > $R/variants.log 2>&1
echo "variants rc=$?"; grep -E "^bfloat16|^ +(gemm|best)|check\(s\)" $R/variants.log | grep -v "^ *check" | cut -c1-110
lanes_finish
