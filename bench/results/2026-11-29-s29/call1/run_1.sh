#!/bin/bash
# Twenty-ninth session, call 1: the twenty-eighth's next-call script
# (bench/results/next/run_1.sh) plus the GLUs over one flat row.
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup
GPU=0
ONLY="d128_dec_w4x16_s3_c16|d64_dec_w4x16_s3_c16|dec_w4x16_s3_c12|dec_w4x16_s3_c8"
san memcheck attention_gpu "$ONLY" san_memcheck_dec.log 110
san racecheck attention_gpu "$ONLY" san_racecheck_dec.log 250
el "decode"
timeout $(left 330) python3 bench/attn_bench.py --decode-only --decode-dims 128,64 --decode-batches 1,2,8 \
  --reps 30 --json $R/dec.json 2>&1 | grep -vE "$F" > $R/dec.log
grep -E "^bfloat16|decode:" $R/dec.log | cut -c1-190
el "glu flat"
# the odd GLU shapes as the runtime flattens them now (rows of 512-4096) and as one row
timeout $(left 390) python3 bench/side_by_side.py --ops swiglu,geglu_tanh --reps 60 \
  --shapes 512x151937,1x77791744,512x199999,1x102399488,1024x128257,1x131335168,4096x32001,1x131076096 \
  --json $R/side_flat.json 2>&1 | grep -vE "$F" > $R/side_flat.log; echo "flat rc=$?"
grep -E "^(swiglu|geglu)" $R/side_flat.log | cut -c1-150
el "odd sweep"
timeout $(left 585) python3 bench/side_by_side.py --shapes-file bench/shapes_odd.txt \
  --json $R/side_odd.json 2>&1 | grep -vE "$F" > $R/side_odd.log; echo "odd rc=$?"
grep -E "^(softmax|rmsnorm|add_|rmsnorm_sw|swiglu|geglu)" $R/side_odd.log | cut -c1-150
lanes_finish
