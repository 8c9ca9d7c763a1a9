#!/bin/bash
# Call 3 (twenty-seventh session): RMSNorm+SwiGLU's staged kernels over a
# cluster sum their slices by st.async (kp_cluster_sum_async: no cluster
# barrier with release semantics, no kp_cluster_done): kp tune over the long
# odd and aligned rows (every variant timed; call 2's numbers before), then
# every GPU suite whole (734eda1's GEMM tile-decode refactor and this).
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup
GPU=0
el "tune"
timeout $(left 150) build/bin/kp tune --device 0 --families rmsnorm_swiglu --dtypes bf16 \
  --shapes build/carry/shapes_c1.txt -o $R/c3.tune > $R/tune.log 2>&1
echo "tune rc=$?"; grep -E "default" $R/tune.log | cut -c1-220
grep -E "_stage_" $R/c3.tune | sort -k3,3 -k6,6n | awk '{print $3, $5, $6}' | head -120
el "suites"
gpu_suite t_all.log 585
grep -E "^TIME" $R/t_all.log | head -80
lanes_finish
