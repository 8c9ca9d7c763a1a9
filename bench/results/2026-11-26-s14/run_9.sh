#!/bin/bash
# GPU call 9 (2026-11-26, fourteenth session): the review's refactor --
# kp_glu_elems (one element-at-a-time GLU loop for the rows and chunk
# kernels), rmsnorm_swiglu_f (one scalar formula), the loop's comment moved
# (sampled SASS: GLU kernels identical, rmsnorm_swiglu the same
# instructions reordered).  The suites that run every GLU and rmsnorm_swiglu
# variant at every residue.
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup
GPU=0; gpu_suite t_ops_gpu.log 150 ops_gpu > $R/lane0.log 2>&1 &
P0=$!
(GPU=1; gpu_suite t_variants_gpu.log 150 variants_gpu; gpu_suite t_graph_gpu.log 150 graph_gpu) > $R/lane1.log 2>&1 &
P1=$!
wait $P0 $P1
cat $R/lane0.log $R/lane1.log
lanes_finish
