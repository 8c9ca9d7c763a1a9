#!/bin/bash
# Thirty-eighth session, call 9: GEMM launched with PDL (every GEMM kernel
# starts with kp_grid_begin; KP_FAMILY_LIST's pdl column).  The graph suite
# (its PDL chain now ends in a GEMM), the decode MLP block with and without
# PDL beside eager and torch.compile (bench/pdl_mlp_bench.py), the GEMM
# issue table (PDL off: the begin's cost on plain launches), the GEMM and
# ops suites.
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup || exit 1
GPU=0
gpu_suite graph.log 120 graph_gpu
el "mlp"
CUDA_VISIBLE_DEVICES=0 timeout $(left 300) python3 bench/pdl_mlp_bench.py --tokens 1,16,128 --layers 4 \
  --json $R/mlp.json > $R/mlp.log 2>&1
echo "mlp rc=$?"; grep -vE "$F" $R/mlp.log | cut -c1-160
el "gemm issue table bf16"
CUDA_VISIBLE_DEVICES=0 timeout $(left 360) python3 bench/gemm_bench.py --dtypes bf16 --reps 15 --json $R/gemm_issue.json > $R/gemm_issue.log 2>&1
echo "gemm rc=$?"; grep -E "^(bfloat16|float16)|check\(s\)" $R/gemm_issue.log | cut -c1-100
gpu_suite gemm.log 520 gemm_gpu
gpu_suite ops.log 580 ops_gpu
lanes_finish
