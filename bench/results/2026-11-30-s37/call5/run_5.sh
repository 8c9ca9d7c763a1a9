#!/bin/bash
# Thirty-seventh session, call 5 (the last of its device time): the first
# half of bench/results/2026-11-27-s24/run_8.sh on an H200 (NOTES open lead
# "GEMM fill tie-break", pending since item 58: the fill tie-break's rates
# are H100 numbers) -- every FILL tile pinned at that call's 18 shapes, bf16:
# is the pick still the fastest on an H200?  (The issue table and the mid-m
# sweep of run_8.sh do not fit in what is left.)
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup || exit 1
GPU=0
el "fill pinned"
S="256,11008,4096;256,14336,4096;256,4096,11008;256,4096,4096;512,11008,4096;512,14336,4096;512,4096,11008;1024,11008,4096;1024,14336,4096;2048,11008,4096;2048,4096,4096;4096,4096,4096;4096,11008,4096;4096,14336,4096;640,8192,8192;768,12288,4096;128,11008,4096;128,14336,4096"
CUDA_VISIBLE_DEVICES=0 timeout $(left 330) python3 bench/gemm_bench.py --dtypes bf16 --reps 10 --shapes "$S" \
  --variants --only "wg_(128x(64_s8_e64|128_s6_e128|168|176|192|224|256_s3)|64x256)_.*nk" --json $R/gemm_fill.json \
  2>&1 | grep -vE "$F" > $R/gemm_fill.log
echo "fill rc=$?"
grep -E "^bfloat16|best:" $R/gemm_fill.log | cut -c1-120
lanes_finish
