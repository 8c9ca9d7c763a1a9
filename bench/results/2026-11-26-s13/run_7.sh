#!/bin/bash
# GPU call 7 of the thirteenth session: GEMM m = 128 (n = k = 4096) ran
# 0.96-1.01x cuBLAS alone in earlier sessions and 0.83-0.91x inside the
# table, after the large shapes.  Processes one after another on each GPU
# (bf16 on 0, f16 on 1): m = 128 cold; 8192^3 and 4096^3; m = 128 right
# after; m = 128 after 10 s idle.  nvidia-smi samples clocks and power.
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup
nvidia-smi --query-gpu=timestamp,index,clocks.sm,clocks.mem,power.draw,temperature.gpu \
  --format=csv -lms 250 > $R/smi.csv 2>&1 &
SMI=$!
one() { CUDA_VISIBLE_DEVICES=$1 timeout 60 python3 bench/gemm_bench.py --dtypes $2 --shapes "$3" \
  2>&1 | grep -vE "$F" | grep -E "^(bfloat16|float16) " | sed "s/^/[$(($(date +%s) - T0))s $4] /"; }
lane() {
  one $1 $2 '128,4096,4096' cold
  one $1 $2 '8192,8192,8192;4096,4096,4096' heavy
  one $1 $2 '128,4096,4096' after
  sleep 10
  one $1 $2 '128,4096,4096' idle10
}
lane 0 bf16 > $R/lane0.log 2>&1 &
L0=$!
lane 1 f16 > $R/lane1.log 2>&1 &
L1=$!
wait $L0 $L1
kill $SMI 2>/dev/null
cat $R/lane0.log $R/lane1.log | cut -c1-140
lanes_finish
