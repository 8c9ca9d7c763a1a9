#!/bin/bash
# Call 6 (twenty-eighth session): kp tune over the odd sweep's shorter and
# 151937-column rows (not tuned since the st.async cluster sums, NOTES 61),
# to see whether a cluster variant now beats the picks there; graph_gpu on
# the decode's push merge.
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup
GPU=0
gpu_suite t_graph_gpu.log 100 graph_gpu
el "tune"
timeout $(left 560) build/bin/kp tune --device 0 --families softmax,rmsnorm,add_rmsnorm,rmsnorm_swiglu \
  --dtypes bf16 --shapes build/carry/shapes_c6.txt -o $R/c6.tune > $R/tune.log 2>&1
echo "tune rc=$?"; grep -E "default" $R/tune.log | cut -c1-200
lanes_finish
