#!/bin/bash
# s39 call 9 (landed code, 28b2688): the GEMM GPU suite (every variant),
# the graph suite (its PDL chain ends in a GEMM), the decode MLP block, the
# GEMM issue table (both dtypes), racecheck over one GEMV variant's cases
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup || exit 1
GPU=0
gpu_suite gemm.log 240 gemm_gpu
gpu_suite graph.log 300 graph_gpu
el "mlp"
CUDA_VISIBLE_DEVICES=0 timeout $(left 360) python3 bench/pdl_mlp_bench.py --tokens 1,16,128 --layers 4 \
  --json $R/mlp.json > $R/mlp.log 2>&1
echo "mlp rc=$?"; grep -E "^T=" $R/mlp.log | cut -c1-160
el "gemm issue table"
CUDA_VISIBLE_DEVICES=0 timeout $(left 520) python3 bench/gemm_bench.py --reps 15 --json $R/gemm_issue.json > $R/gemm_issue.log 2>&1
echo "gemm rc=$?"; grep -E "^(bf16|f16)|check\(s\)" $R/gemm_issue.log | cut -c1-100
san racecheck gemm_gpu bf16_gemv_m16_n64_s5_tma san_race.log 600
lanes_finish
