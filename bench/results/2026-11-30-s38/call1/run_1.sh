#!/bin/bash
# Thirty-eighth session, call 1: GEMM m <= 16 at the issue's large-n shapes
# (0.94-0.98x cuBLAS on an H200 in the thirty-seventh's table): every GEMV
# variant pinned (bench/gemm_bench.py --variants --only gemv), bf16, and
# cuBLAS's kernels named; then the issue table, both dtypes (baseline).
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup || exit 1
el "gemv pinned"
S="1,11008,4096;16,11008,4096;1,14336,4096;16,14336,4096;1,4096,11008;16,4096,11008;1,4096,4096;16,4096,4096"
CUDA_VISIBLE_DEVICES=0 timeout $(left 250) python3 bench/gemm_bench.py --dtypes bf16 --reps 15 --shapes "$S" \
  --variants --only "gemv" --peer-kernels --json $R/gemv_pinned.json 2>&1 | grep -vE "$F" > $R/gemv_pinned.log
echo "gemv rc=$?"; grep -E "^(bfloat16|float16)|best:|cuBLAS:" $R/gemv_pinned.log | cut -c1-110
el "gemm issue table"
CUDA_VISIBLE_DEVICES=0 timeout $(left 400) python3 bench/gemm_bench.py --reps 15 --json $R/gemm_issue.json 2>&1 |
  grep -vE "$F" > $R/gemm_issue.log
echo "gemm rc=$?"; grep -E "^(bfloat16|float16)|check\(s\)" $R/gemm_issue.log | cut -c1-100
lanes_finish
