#!/bin/bash
# Call 10, the final code (6e301af): every GPU suite (lane 0) and the Python
# GPU tests (lane 1), then alone the issue's GEMM table (both dtypes, the
# final picks: kn m = 128 on the unsplit 128x64) and the mid-m sweep.
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup
GPU=0
( for s in attention_gpu ops_gpu variants_gpu gemm_gpu api jit concurrency graph_gpu; do
    gpu_suite t_$s.log 400 $s
  done ) > $R/lane0.log 2>&1 &
( KP_REQUIRE_GPU=1 timeout $(left 400) python3 python/tests/run_gpu.py > $R/python_gpu.log 2>&1
  echo "python rc=$? $(tail -1 $R/python_gpu.log)" ) > $R/lane1.log 2>&1 &
wait
cat $R/lane0.log $R/lane1.log
el "gemm issue shapes"
timeout $(left 500) python3 bench/gemm_bench.py --reps 15 --json $R/gemm_issue.json 2>&1 | grep -vE "$F" > $R/gemm_issue.log
grep -E "^(bfloat16|float16)|check\(s\)" $R/gemm_issue.log | cut -c1-100
el "gemm mid m"
S=""
for m in 256 512 1024 2048; do for nk in 4096,4096 11008,4096 4096,11008 14336,4096; do S="$S;$m,$nk"; done; done
timeout $(left 580) python3 bench/gemm_bench.py --reps 15 --shapes "${S#;}" --json $R/gemm_mid.json 2>&1 | grep -vE "$F" > $R/gemm_mid.log
grep -E "^(bfloat16|float16)" $R/gemm_mid.log | cut -c1-100
lanes_finish
