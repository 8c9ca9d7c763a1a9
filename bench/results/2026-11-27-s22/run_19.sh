#!/bin/bash
# Twenty-second session, call 19 (one GPU): the GPU suites the later code
# changes touch, on the final code -- jit (jit.c's new routes), api, ops,
# graph, concurrency, variants.
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup
GPU=0
for s in jit api ops_gpu graph_gpu concurrency variants_gpu; do gpu_suite t_$s.log 300 $s; done
lanes_finish
