#!/bin/bash
# Call 11 (forty-third session): `_kp` ranked (64x64 at m = 65..128, n <= 4352,
# k <= 8192): gemm_gpu whole, compute-sanitizer over the `_kp` variants, the
# GEMM issue table (both dtypes).
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup || exit 1
GPU=0
gpu_suite gemm.log 200 gemm_gpu
grep -hE "variants on|Checks" $R/gemm.log | tail -4
san memcheck gemm_gpu "_kp_" mem.log 250
grep -hE "variants on|ERROR SUMMARY" $R/mem.log | tail -3
san synccheck gemm_gpu "_kp_" sync.log 290
grep -hE "variants on|ERROR SUMMARY" $R/sync.log | tail -3
san racecheck gemm_gpu "_kp_pl" race.log 340
grep -hE "variants on|RACECHECK SUMMARY|ERROR SUMMARY" $R/race.log | tail -3
el "gemm issue table"
CUDA_VISIBLE_DEVICES=0 timeout $(left 580) python3 bench/gemm_bench.py --reps 15 --json $R/gemm_issue.json 2>&1 |
  grep -vE "$F" > $R/gemm_issue.log
echo "gemm rc=$?"; grep -E "^(bfloat16|float16)|check\(s\)" $R/gemm_issue.log | cut -c1-100
lanes_finish
