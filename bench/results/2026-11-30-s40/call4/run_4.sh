#!/bin/bash
# Call 4 (fortieth session): the m <= 64 picks landed (64x64_s13_k2 for n <=
# 4352 at k >= 2048, 64x96_s11 / 64x112_s10 in the fill group, each with a
# `_pl` twin; 64x128_s8_k4 gone): gemm_gpu (every variant of both dtypes
# against float64), then the picks beside cuBLAS at m = 16..128, both dtypes.
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup || exit 1
GPU=0
gpu_suite gemm.log 230 gemm_gpu
grep -hE "variants on" $R/gemm.log | tail -4
S="32,4096,4096;32,4096,11008;32,11008,4096;32,14336,4096;48,11008,4096;64,4096,4096;64,11008,4096;64,4096,11008;64,14336,4096;64,8192,4096;64,9216,4096;128,4096,4096;128,11008,4096;128,4096,11008;128,14336,4096"
el table
CUDA_VISIBLE_DEVICES=0 timeout $(left 420) python3 bench/gemm_bench.py --reps 15 --peer-kernels \
  --shapes "$S" --json $R/table.json 2>&1 | grep -vE "$F" > $R/table.log
echo "table rc=$?"; grep -E "^(bfloat16|float16)|check\(s\)|kernpack:" $R/table.log | cut -c1-100
lanes_finish
