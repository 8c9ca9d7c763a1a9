#!/bin/bash
# Twenty-ninth session, call 6 (the last): the stage variants over 16-CTA
# clusters (every family that has them, every dtype) under memcheck and
# racecheck; RMSNorm+SwiGLU (its pairs picks past 98304) and add+RMSNorm
# (98305-131072 over 16 CTAs) side by side at the odd sweep.
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup
GPU=0
ONLY="_u2_s16_c16|_u2_s20_c16|_u2_s26_c16"
san memcheck variants_gpu "$ONLY" san_memcheck_c16.log 110
san racecheck variants_gpu "$ONLY" san_racecheck_c16.log 290
el "odd sweep"
timeout $(left 400) python3 bench/side_by_side.py --ops rmsnorm_swiglu,add_rmsnorm --shapes-file bench/shapes_odd.txt \
  --json $R/side_odd.json 2>&1 | grep -vE "$F" > $R/side_odd.log; echo "odd rc=$?"
grep -E "^(add_|rmsnorm_sw)" $R/side_odd.log | cut -c1-150
lanes_finish
