#!/bin/bash
# Call 7: the sanitizers over the tiles call 4's pattern missed (its
# KP_TEST_ONLY alternatives split at '|': 128x64_e64, 128x192 and the new
# 128x168), both dtypes; then alone the issue's shapes at n = 11008 and
# the big ones with 168 / 128 / 256 pinned (the fill now picks 168 at 4096 x
# 11008), and the issue table (both dtypes) on the final picks.
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup
GPU=0
ONLY='wg_128x64_s8_e64|wg_128x192_s4|wg_128x168_s4'
( san memcheck gemm_gpu "$ONLY" san_mem.log 200
  san synccheck gemm_gpu "$ONLY" san_sync.log 300 ) > $R/lane0.log 2>&1 &
san racecheck gemm_gpu "$ONLY" san_race.log 300 > $R/lane1.log 2>&1 &
wait
cat $R/lane0.log $R/lane1.log
grep -hE "every_variant/.*: gemm_" $R/san_*.log | sort | uniq -c
el "big shapes pinned"
S="4096,11008,4096;4096,11008,4096;8192,8192,8192;4096,14336,4096;2048,11008,4096"
timeout $(left 450) python3 bench/gemm_bench.py --dtypes bf16 --reps 15 --shapes "$S" \
  --variants --only "wg_128x(168|128_s6_e128|256_s3)_.*nk" --json $R/gemm_big.json \
  2>&1 | grep -vE "$F" > $R/gemm_big.log
grep -E "^bfloat16|wg_|best:" $R/gemm_big.log | cut -c1-120
el "issue table"
timeout $(left 580) python3 bench/gemm_bench.py --reps 15 --json $R/gemm_issue.json 2>&1 | grep -vE "$F" > $R/gemm_issue.log
grep -E "^(bfloat16|float16)|check\(s\)" $R/gemm_issue.log | cut -c1-100
lanes_finish
