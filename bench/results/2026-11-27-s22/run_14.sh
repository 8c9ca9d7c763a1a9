#!/bin/bash
# Twenty-second session, call 14 (one GPU): `_c16r` (each CTA of a decode
# cluster begun at its own offset into its keys) against the allocation-
# dependent modes of `_c16` at batch 1 (call 13): attention_gpu's every-
# variant case over `_c16r`, then c16r_alloc.py in three processes.
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup
GPU=0
export KP_TEST_ONLY=_c16r CK_RUN_CASE=attention
gpu_suite t_att_c16r.log 120 attention_gpu
unset KP_TEST_ONLY CK_RUN_CASE
for p in 1 2 3; do
  timeout $(left 400) python3 build/carry/c16r_alloc.py 2>&1 | grep -vE "$F" | tee $R/c16r_$p.log
done
lanes_finish
