#!/bin/bash
# Call 13 (fortieth session): B as (k, n) at m = 65..128 with the 2-CTA
# split 128x64_k2_kn allowed there (max_m 64 -> 128; call 12 could not pin
# it at m = 128): pinned beside the unsplit 128x64_e64_kn and cuBLAS.
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup || exit 1
GPU=0
el kn
CUDA_VISIBLE_DEVICES=0 timeout $(left 200) python3 bench/gemm_bench.py --dtypes bf16,f16 --reps 21 --variants --kn \
  --only "_wg_128x64_s8_(k2|e64)_kn" --shapes "128,4096,4096;128,11008,4096;128,4096,11008;96,4096,4096;128,2048,4096" \
  --json $R/kn.json 2>&1 | grep -vE "$F" > $R/kn.log
echo "kn rc=$?"; grep -E "^(bfloat16|float16)|      gemm_|check\(s\)" $R/kn.log | sed 's/(vs cuBLAS.*//; s/; rel err.*//' | cut -c1-100
lanes_finish
