#!/bin/bash
# GPU call F (2026-11-26, eighth session): the GPU suites call E left out (its full
# suite ran no suite: lanes.sh's gpu_suite set CK_RUN_SUITE empty, fixed), other than
# attention_gpu and gemm_gpu (run on the final code in calls D and E): one GPU each.
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup
lane0() { GPU=0; for s in ops_gpu variants_gpu jit; do el "$s"; gpu_suite tests_$s.log 200 $s; done; }
lane1() { GPU=1; for s in graph_gpu concurrency regen api; do el "$s"; gpu_suite tests_$s.log 200 $s; done; }
lane0 > $R/lane0.log 2>&1 &
lane1 > $R/lane1.log 2>&1 &
wait
cat $R/lane0.log $R/lane1.log
lanes_finish
