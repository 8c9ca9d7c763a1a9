#!/bin/bash
# Call 14 (the review commit: kp_explain's message loop on the selection path):
# the suites that select and launch through it.
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup
GPU=0
for s in api jit gemm_gpu graph_gpu concurrency ops_gpu; do gpu_suite t_$s.log 400 $s; done
lanes_finish
