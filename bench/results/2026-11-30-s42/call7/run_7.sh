#!/bin/bash
# Call 7 (forty-second session): the GEMM issue table (both dtypes, × cuBLAS
# in the same run) with the `_e` tiles' D stored by TMA; the decode MLP block
# from a graph (its m <= 128 GEMMs).
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup || exit 1
GPU=0
el "gemm issue table"
CUDA_VISIBLE_DEVICES=0 timeout $(left 420) python3 bench/gemm_bench.py --reps 15 --json $R/gemm_issue.json 2>&1 |
  grep -vE "$F" > $R/gemm_issue.log
echo "gemm rc=$?"; grep -E "^(bfloat16|float16)|check\(s\)" $R/gemm_issue.log | cut -c1-100
el "mlp"
CUDA_VISIBLE_DEVICES=0 timeout $(left 570) python3 bench/pdl_mlp_bench.py --tokens 1,16,64,128 --layers 4 \
  --json $R/mlp.json > $R/mlp.log 2>&1
echo "mlp rc=$?"; grep -E "^T=" $R/mlp.log | cut -c1-160
lanes_finish
