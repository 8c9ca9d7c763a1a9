#!/bin/bash
# Thirty-eighth session, call 12: cluster kernels whose CTAs could share an
# SM launched without PDL (runtime/launch.c); the MLP block at 14336 and
# at 5504 (gate|up of 11008 rows: the 86-CTA GEMV, sub-wave), the graph suite.
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup || exit 1
GPU=0
el "mlp"
CUDA_VISIBLE_DEVICES=0 timeout $(left 80) python3 bench/pdl_mlp_bench.py --tokens 1,16,128 --layers 4 \
  --trace --json $R/mlp.json > $R/mlp.log 2>&1
echo "mlp rc=$?"; grep -E "^T=|trace kp_pdl" $R/mlp.log | cut -c1-150
el "mlp 5504"
CUDA_VISIBLE_DEVICES=0 timeout $(left 150) python3 bench/pdl_mlp_bench.py --tokens 1,16 --layers 8 --inter 5504 \
  --trace --json $R/mlp5504.json > $R/mlp5504.log 2>&1
echo "mlp5504 rc=$?"; grep -E "^T=|trace" $R/mlp5504.log | cut -c1-150
gpu_suite graph.log 230 graph_gpu
lanes_finish
