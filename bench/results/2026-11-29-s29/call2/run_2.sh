#!/bin/bash
# Twenty-ninth session, call 2: 16-bit GLU calls over contiguous rows as one
# row (ops.c glu_flatten): ops_gpu and graph_gpu (every GLU shape against
# float64), the GLUs of the odd sweep side by side; racecheck over the bf16
# decode clusters of 8 and 12 CTAs (call 1's ran out of time there).
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup
GPU=0
gpu_suite t_ops_gpu.log 90 ops_gpu
gpu_suite t_graph_gpu.log 150 graph_gpu
el "glu odd sweep"
timeout $(left 300) python3 bench/side_by_side.py --ops swiglu,geglu_tanh,geglu_erf --shapes-file bench/shapes_odd.txt \
  --json $R/side_glu.json 2>&1 | grep -vE "$F" > $R/side_glu.log; echo "glu rc=$?"
grep -E "^(swiglu|geglu)" $R/side_glu.log | cut -c1-150
el "racecheck"
san racecheck attention_gpu "bf16_d128_dec_w4x16_s3_c12|bf16_d128_dec_w4x16_s3_c8" san_racecheck_dec2.log 560
lanes_finish
