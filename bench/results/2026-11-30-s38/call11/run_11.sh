#!/bin/bash
# Thirty-eighth session, call 11: why the MLP block at 16 tokens runs 5%
# slower with PDL (call 10): one replay's kernels, PDL on and off.
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup || exit 1
el "mlp trace"
CUDA_VISIBLE_DEVICES=0 timeout $(left 120) python3 bench/pdl_mlp_bench.py --tokens 16,1 --layers 4 --no-compile \
  --trace --json $R/mlp_trace.json > $R/mlp_trace.log 2>&1
echo "rc=$?"; grep -E "^T=|trace" $R/mlp_trace.log | cut -c1-120
lanes_finish
