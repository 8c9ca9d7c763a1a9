#!/bin/bash
# Call 10 (fortieth session): where the decode MLP block loses with PDL at
# 16 and 64 tokens (call 9: 96.7 / 103.6 us a layer with PDL against 95.5 /
# 101.6 without, cluster kernels in or out of PDL alike): each kernel's
# start and duration in one replay, PDL on and off (--trace).
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup || exit 1
GPU=0
CUDA_VISIBLE_DEVICES=0 timeout $(left 150) python3 bench/pdl_mlp_bench.py --tokens 16,64,128 --layers 4 \
  --no-compile --trace --json $R/mlp_trace.json > $R/mlp_trace.log 2>&1
echo "rc=$?"; grep -E "^T=|trace" $R/mlp_trace.log | cut -c1-120
lanes_finish
