#!/bin/bash
# Call 12 (fortieth session): compute-sanitizer (memcheck, racecheck,
# synccheck) over call 11's twins (128x128_e128, 128x168, 128x176, 128x224
# `_pl`, both dtypes); then B as (k, n) at m = 128: the 2-CTA split
# 128x64_k2_kn (ranked for m <= 64) pinned beside the pick, 128x64_e64_kn
# (the issue table's kn row: 0.79-0.84x cuBLAS at 128 x 4096²).
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup || exit 1
GPU=0
T="128x128_s6_e128_pl|128x168_s4_e168_pl|128x176_s4_e176_pl|128x224_s4_e112_pl"
san memcheck gemm_gpu "$T" mem.log 80
san racecheck gemm_gpu "$T" race.log 170
san synccheck gemm_gpu "$T" sync.log 230
grep -hE "variants on" $R/mem.log $R/race.log $R/sync.log
el kn
CUDA_VISIBLE_DEVICES=0 timeout $(left 330) python3 bench/gemm_bench.py --dtypes bf16,f16 --reps 21 --variants --kn \
  --only "_wg_128x64_s8_(k2|e64)_kn" --shapes "128,4096,4096;128,11008,4096;128,4096,11008;96,4096,4096" \
  --json $R/kn.json 2>&1 | grep -vE "$F" > $R/kn.log
echo "kn rc=$?"; grep -E "^(bfloat16|float16)|      gemm_|check\(s\)" $R/kn.log | sed 's/(vs cuBLAS.*//; s/; rel err.*//' | cut -c1-100
lanes_finish
