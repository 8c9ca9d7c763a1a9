#!/bin/bash
# s67 call 13: the second half of the GPU suite, as far as the session's
# device time goes: regen and graph_gpu (attention_gpu and gemm_gpu need
# ~420 s more than was left).
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup || exit 1
GPU=0
for s in regen:120 graph_gpu:175; do
  el "${s%%:*}"; gpu_suite "${s%%:*}.log" "${s##*:}" "${s%%:*}"
done
grep -h "^FAIL\|^ABORT" "$R"/*.log | head -8 | cut -c1-300
lanes_finish
