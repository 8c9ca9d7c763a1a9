#!/bin/bash
# GPU call 7 of the twelfth session: host overhead per call (kpbench; now
# with kp_attention, whose persistent sm_90a variants encode four TMA maps)
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup
CUDA_VISIBLE_DEVICES=0 timeout 120 build/bin/kpbench --op rmsnorm --shape small --dtype bf16 \
  --overhead-n 10000 > $R/kpbench.log 2>&1; echo "kpbench rc=$?"
grep -A12 "^host overhead" $R/kpbench.log
lanes_finish
