#!/bin/bash
# s70 call 4: attention away from the bar shapes -- d128 / d64, Lq 128-2048
# (batch x Lq = 16K, 16 heads), causal and not, beside SDPA's backends, to
# find the cells a user would find weak (item 121 saw d64 256 unmasked at
# 0.80-0.90x); then d64's unmasked candidates pinned at 128-384.
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup || exit 1
GPU=0
el "sweep"
timeout $(left 300) python3 bench/attn_bench.py --dims 128,64 --seqs 128,256,384,512,768,2048 --no-decode \
  --json $R/sweep.json > $R/sweep.log 2>&1
echo "sweep rc=$?"; grep -E "^bfloat16" $R/sweep.log | cut -c1-140
el "pinned"
timeout $(left 450) python3 bench/attn_bench.py --dims 64 --seqs 128,256,384 --no-decode --reps 20 \
  --table-peers --variants 'd64_wg_(128x128_s3_p|192x128_s3_p_r|192x128_s3_p|128x128_s3|192x128_s3|128x128_s3_pp)$' \
  --json $R/pin.json > $R/pin.log 2>&1
echo "pin rc=$?"; grep -E "^  attention" $R/pin.log | cut -c1-110
lanes_finish
