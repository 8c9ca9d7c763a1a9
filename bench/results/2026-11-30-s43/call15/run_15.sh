#!/bin/bash
# Call 15 (forty-third session): kp_gemm's D map by one encode call (the
# review's leftover of the forty-second session): gemm_gpu whole, graph_gpu.
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup || exit 1
GPU=0
gpu_suite gemm.log 150 gemm_gpu
grep -hE "variants on|Checks" $R/gemm.log | tail -3
gpu_suite graph.log 220 graph_gpu
grep -hE "Checks" $R/graph.log | tail -1
lanes_finish
