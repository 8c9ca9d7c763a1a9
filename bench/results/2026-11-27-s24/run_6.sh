#!/bin/bash
# Call 6: the 168-column tile (cuBLAS's at n = 11008; the epilogue's odd
# n8 block by stmatrix .x2).  gemm_gpu (every variant) and the three
# sanitizers over 128x168 and 128x176 (both dtypes), then alone: n = 11008
# at m = 256-2048 with 168 / 176 / 128 / 256 pinned, both dtypes' picks, and
# cuBLAS's kernels at the issue's m = 128 shapes (--peer-kernels).
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup
GPU=0
ONLY='wg_128x1(68|76)'
( gpu_suite t_gemm_gpu.log 120 gemm_gpu
  san memcheck gemm_gpu "$ONLY" san_mem.log 200
  san synccheck gemm_gpu "$ONLY" san_sync.log 260 ) > $R/lane0.log 2>&1 &
san racecheck gemm_gpu "$ONLY" san_race.log 260 > $R/lane1.log 2>&1 &
wait
cat $R/lane0.log $R/lane1.log
el "n = 11008 pinned"
S="256,11008,4096;512,11008,4096;1024,11008,4096;2048,11008,4096;4096,11008,4096;768,11008,4096"
timeout $(left 420) python3 bench/gemm_bench.py --dtypes bf16 --reps 15 --shapes "$S" \
  --variants --only "wg_128x(168|176|128_s6_e128|256_s3)_.*nk" --json $R/gemm_168.json \
  2>&1 | grep -vE "$F" > $R/gemm_168.log
grep -E "^bfloat16|wg_|best:" $R/gemm_168.log | cut -c1-120
el "f16 picks, m = 128 peers"
timeout $(left 560) python3 bench/gemm_bench.py --dtypes f16,bf16 --reps 15 --peer-kernels \
  --shapes "256,11008,4096;512,11008,4096;1024,11008,4096;128,4096,4096;128,14336,4096;128,4096,4096" \
  --json $R/gemm_f16.json 2>&1 | grep -vE "$F" > $R/gemm_f16.log
grep -E "^(bfloat16|float16)|cuBLAS:" $R/gemm_f16.log | cut -c1-140
lanes_finish
