#!/bin/bash
# Call 6 (fortieth session): 32-column 64-row tiles (128 of them at n =
# 4096, one round without a split; alone and sharing A over pairs), bf16
# experiment variants, checked against float64 and pinned with cuBLAS and
# the picks at m = 32 / 64, n = 4096.
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup || exit 1
GPU=0
KP_TEST_ONLY="64x32_s18" CK_RUN_CASE=gemm gpu_suite gemm_new.log 60 gemm_gpu
grep -hE "variants on" $R/gemm_new.log | tail -2
S="64,4096,4096;32,4096,4096;64,4096,11008;16,4096,4096;64,4096,4096"
el pinned
CUDA_VISIBLE_DEVICES=0 timeout $(left 200) python3 bench/gemm_bench.py --dtypes bf16 --reps 21 --variants \
  --only "bf16_wg_(64x64_s13_k2|64x64_s13|64x32_s18|64x32_s18_a2)_nk" \
  --shapes "$S" --json $R/pinned.json 2>&1 | grep -vE "$F" > $R/pinned.log
echo "pinned rc=$?"; grep -E "^bfloat16|      gemm_|check\(s\)" $R/pinned.log | sed 's/(vs cuBLAS.*//; s/; rel err.*//' | cut -c1-100
lanes_finish
