#!/bin/bash
# Call 8 (fortieth session): the landed code's (m <= 64 GEMM picks, NOTES
# item 75) graph suite, the PDL chain of row ops and the decode MLP block
# (bench/results/next/run_1.sh's), and the GEMM issue table with m = 64 rows
# (both dtypes, cuBLAS's and our kernels named).
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup || exit 1
GPU=0
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
gpu_suite graph.log 60 graph_gpu
el "chain"
CUDA_VISIBLE_DEVICES=0 timeout $(left 170) python3 bench/pdl_bench.py --tokens 1,16,128 \
  --json $R/chain.json > $R/chain.log 2>&1
echo "chain rc=$?"; grep -A5 "^tokens |" $R/chain.log | cut -c1-130
el "mlp"
CUDA_VISIBLE_DEVICES=0 timeout $(left 320) python3 bench/pdl_mlp_bench.py --tokens 1,16,64,128 --layers 4 \
  --json $R/mlp.json > $R/mlp.log 2>&1
echo "mlp rc=$?"; grep -E "^T=" $R/mlp.log | cut -c1-160
el "gemm issue table"
CUDA_VISIBLE_DEVICES=0 timeout $(left 575) python3 bench/gemm_bench.py --reps 15 --peer-kernels --json $R/gemm_issue.json 2>&1 |
  grep -vE "$F" > $R/gemm_issue.log
echo "gemm rc=$?"; grep -E "^(bfloat16|float16)|check\(s\)" $R/gemm_issue.log | cut -c1-100
lanes_finish
