#!/bin/bash
# s39 call 15: plain-only `_pl` twins of the m <= 128 WG tiles, picked for
# calls without epilogue terms (GEMM form bit 1): the GEMM GPU suite (every
# variant; twins take the plain cases), the twins pinned against their
# general twins, and the m <= 256 rows of the issue table, both dtypes
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup || exit 1
GPU=0
gpu_suite gemm.log 220 gemm_gpu
el "pinned"
CUDA_VISIBLE_DEVICES=0 timeout $(left 270) python3 bench/gemm_bench.py --reps 15 --dtypes bf16 --variants \
  --only "wg_(64x64_s13|128x64_s8_k2|128x88_s6_e88|128x112_s6_e112)(_pl)?_nk" \
  --shapes "128,4096,4096;128,4096,11008;128,11008,4096;128,14336,4096" > $R/pinned.log 2>&1
echo "pinned rc=$?"; grep -E "^bfloat16|^ +gemm" $R/pinned.log | cut -c1-100
el "table"
CUDA_VISIBLE_DEVICES=0 timeout $(left 320) python3 bench/gemm_bench.py --reps 15 \
  --shapes "128,4096,4096;128,11008,4096;128,4096,11008;128,14336,4096;64,4096,4096;64,11008,4096;256,4096,4096" \
  > $R/table.log 2>&1
echo "table rc=$?"; grep -E "^(bfloat16|float16)|check\(s\)" $R/table.log | cut -c1-100
lanes_finish
