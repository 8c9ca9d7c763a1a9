#!/bin/bash
# s69 call 5: call 4's code with two more attention cases (d64's 192-row
# masked kernels took none of the old ones once ranked from 512 query rows:
# the every-variant test failed on it) -- Lq 600 GQA causal, Lq 520 causal
# + window_left 200.  (1) the attention GPU suite; (2) racecheck and
# synccheck over the 192-row SKIP kernels on the new cases.
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup || exit 1
GPU=0
el "attention_gpu"; gpu_suite attention_gpu.log 230 attention_gpu
for t in racecheck synccheck; do
  el "$t"; san $t attention_gpu "d64_wg_192x128_s3_ps|d64_wg_192x128_s3_pc" $t.log $(( $(date +%s) - T0 + 80 ))
done
lanes_finish
