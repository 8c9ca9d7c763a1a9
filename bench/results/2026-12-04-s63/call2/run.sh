#!/bin/bash
# Call 2: the GPU suites after variants_gpu (call 1 ran up to and through it,
# cut at 570 s inside gemm_gpu), each to its own deadline, the slow ones last.
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup || exit 1
GPU=0
for s in ops_gpu:70 jit:90 concurrency:100 tune:115 regen:150 graph_gpu:200; do
  el "${s%%:*}"; gpu_suite "${s%%:*}.log" "${s##*:}" "${s%%:*}"
done
el attention_gpu; gpu_suite attention_gpu.log 380 attention_gpu
el gemm_gpu; gpu_suite gemm_gpu.log 585 gemm_gpu
lanes_finish
