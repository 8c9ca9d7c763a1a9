#!/bin/bash
# Call 5 (pack format 9, the fill tie-break, eighth-octave classes): every
# GPU suite (lane 0) and the Python GPU tests with d96 / d256 against SDPA
# (lane 1) together, then alone: the issue's GEMM shapes (both dtypes) and
# a mid-m sweep (m = 256-2048 x the issue's four (n, k)), picks against cuBLAS.
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
