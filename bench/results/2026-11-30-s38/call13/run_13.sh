#!/bin/bash
# Thirty-eighth session, call 13: the landed code (GEMM waits at entry under
# PDL, no early trigger; cluster kernels whose CTAs could share an SM go
# without PDL): the GEMM and ops suites, the GEMM issue table (both dtypes).
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup || exit 1
GPU=0
gpu_suite gemm.log 150 gemm_gpu
gpu_suite ops.log 200 ops_gpu
el "gemm issue table"
CUDA_VISIBLE_DEVICES=0 timeout $(left 260) python3 bench/gemm_bench.py --reps 15 --json $R/gemm_issue.json > $R/gemm_issue.log 2>&1
echo "gemm rc=$?"; grep -E "^(bfloat16|float16)|check\(s\)" $R/gemm_issue.log | cut -c1-100
lanes_finish
