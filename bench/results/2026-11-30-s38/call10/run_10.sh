#!/bin/bash
# Thirty-eighth session, call 10: GEMM under PDL without its early trigger
# (kp_grid_wait at entry alone): the decode MLP block twice, the graph suite.
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup || exit 1
GPU=0
for i in 1 2; do
  el "mlp$i"
  CUDA_VISIBLE_DEVICES=0 timeout $(left $((90 * i))) python3 bench/pdl_mlp_bench.py --tokens 1,16,128 --layers 4 \
    --json $R/mlp$i.json > $R/mlp$i.log 2>&1
  echo "mlp$i rc=$?"; grep -E "^T=" $R/mlp$i.log | cut -c1-160
done
gpu_suite graph.log 240 graph_gpu
lanes_finish
