#!/bin/bash
# GPU call 6 of the thirteenth session: the final host code (the launch's
# buffer fallback folded into one helper after call 5): the suites that
# launch every family through it, eager and captured.
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup
lane0() { GPU=0; for s in graph_gpu api; do gpu_suite t_$s.log 150 $s; done; }
lane1() { GPU=1; for s in gemm_gpu concurrency; do gpu_suite t_$s.log 150 $s; done; }
lane0 > $R/lane0.log 2>&1 &
lane1 > $R/lane1.log 2>&1 &
wait
cat $R/lane0.log $R/lane1.log
lanes_finish
