#!/bin/bash
# Call 4 (c88a69f): the fill tie-break on the GPU.  Lane 0: gemm_gpu (every
# variant against float64) and memcheck / synccheck / racecheck over the
# new tiles (128x64_e64, 128x176_e176, 128x224_e112, 128x192) in turn;
# then, alone, the issue's shapes (both dtypes, the picks now) and unseen
# mid-m shapes with the FILL tiles pinned (does the model pick the best?).
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup
GPU=0
ONLY='wg_128x(64_s8_e64|176|224|192)'
( gpu_suite t_gemm_gpu.log 120 gemm_gpu
  san memcheck gemm_gpu "$ONLY" san_mem.log 200
  san synccheck gemm_gpu "$ONLY" san_sync.log 260 ) > $R/lane0.log 2>&1 &
san racecheck gemm_gpu "$ONLY" san_race.log 260 > $R/lane1.log 2>&1 &
wait
cat $R/lane0.log $R/lane1.log
el "gemm issue shapes"
timeout $(left 420) python3 bench/gemm_bench.py --reps 15 --json $R/gemm_issue.json 2>&1 | grep -vE "$F" > $R/gemm_issue.log
grep -E "^(bfloat16|float16)|check\(s\)" $R/gemm_issue.log | cut -c1-120
el "gemm unseen mid m"
S="384,5120,5120;768,12288,4096;1536,5120,5120;3072,28672,8192;640,8192,8192;1280,3072,3072;192,28672,4096"
timeout $(left 580) python3 bench/gemm_bench.py --dtypes bf16 --reps 10 --shapes "$S" \
  --variants --only "wg_(128x(64_s8_e64|128_s6_e128|176|192|224|256_s3)|64x256)_.*nk" --json $R/gemm_unseen.json \
  2>&1 | grep -vE "$F" > $R/gemm_unseen.log
grep -E "^bfloat16|best:" $R/gemm_unseen.log | cut -c1-120
lanes_finish
