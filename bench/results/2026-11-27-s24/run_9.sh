#!/bin/bash
# Call 9: B as (k, n) joins the fill tie-break (128x64 / 128x128 / 128x192 /
# 128x256 kn tiles at one rank, (n, k)'s rates).  gemm_gpu and the three
# sanitizers over the new kn tiles, then alone: mid-m kn shapes with every kn
# tile pinned (are (n, k)'s rates right for kn?), then the picks.
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup
GPU=0
ONLY='wg_128x192_s4_e192_kn|wg_128x64_s8_e64_kn'
( gpu_suite t_gemm_gpu.log 120 gemm_gpu
  san memcheck gemm_gpu "$ONLY" san_mem.log 200
  san synccheck gemm_gpu "$ONLY" san_sync.log 280 ) > $R/lane0.log 2>&1 &
san racecheck gemm_gpu "$ONLY" san_race.log 280 > $R/lane1.log 2>&1 &
wait
cat $R/lane0.log $R/lane1.log
grep -hE "every_variant/.*: gemm_" $R/san_*.log | sort | uniq -c
el "kn pinned"
S="128,4096,4096;256,4096,4096;256,11008,4096;256,4096,11008;512,11008,4096;512,14336,4096;1024,11008,4096;1024,4096,4096;2048,11008,4096;4096,4096,4096;4096,11008,4096"
timeout $(left 480) python3 bench/gemm_bench.py --dtypes bf16 --reps 10 --kn --shapes "$S" \
  --variants --only "wg_128x.*_kn" --json $R/gemm_kn.json 2>&1 | grep -vE "$F" > $R/gemm_kn.log
grep -E "^bfloat16|wg_|best:" $R/gemm_kn.log | cut -c1-120
el "kn picks, f16"
timeout $(left 580) python3 bench/gemm_bench.py --dtypes f16 --reps 15 --kn --shapes "$S" \
  --json $R/gemm_kn_f16.json 2>&1 | grep -vE "$F" > $R/gemm_kn_f16.log
grep -E "^float16" $R/gemm_kn_f16.log | cut -c1-100
lanes_finish
