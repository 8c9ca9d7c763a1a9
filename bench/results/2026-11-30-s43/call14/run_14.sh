#!/bin/bash
# Call 14 (forty-third session): `_kp` for B as (k, n) (experiment rank):
# float64 over it, then pinned beside the (k, n) pick at m = 128 (128x64
# split over 2 CTAs) and cuBLAS.
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup || exit 1
GPU=0
KP_TEST_ONLY="_kp_" CK_RUN_CASE=gemm gpu_suite gemm_exp.log 60 gemm_gpu
grep -hE "variants on|FAIL|fail|Checks" $R/gemm_exp.log | tail -3
el pinned
S="128,4096,4096;96,4096,4096;128,2048,4096;128,4096,8192;128,4096,4096"
CUDA_VISIBLE_DEVICES=0 timeout $(left 300) python3 bench/gemm_bench.py --kn --dtypes bf16,f16 --reps 15 --variants \
  --only "_wg_(128x64_s8_k2|64x64_s12_kp)_kn" \
  --shapes "$S" --json $R/pinned.json 2>&1 | grep -vE "$F" > $R/pinned.log
echo "pinned rc=$?"; grep -E "^(bfloat16|float16)|      gemm_|check\(s\)" $R/pinned.log | grep -v "does not apply" | sed 's/(vs cuBLAS.*//; s/; rel err.*//; s/gemm_b\?f16_wg_//' | cut -c1-90
lanes_finish
