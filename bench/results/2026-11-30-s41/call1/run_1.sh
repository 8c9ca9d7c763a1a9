#!/bin/bash
# 41st session call 1: the read-only ceiling of HBM (bench/read_ceiling.cu);
# the decode variants pinned at batch 1 / 8 with the paged cache's pages
# shuffled, in order, and of 64 / 256 tokens (issue 13's paged bar).
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup || exit 1
el "read ceiling"
nvcc -O3 -arch=sm_90a -o $R/rc bench/read_ceiling.cu && timeout $(left 120) $R/rc 1024 > $R/read_ceiling.log 2>&1
cat $R/read_ceiling.log; rm -f $R/rc
A="python3 bench/attn_bench.py --decode-only --decode-batches 1,8 --reps 20"
for cfg in "16 shuffled" "16 ordered" "64 shuffled" "256 shuffled" "16 shuffled"; do
  set -- $cfg; n=dec_p$1_$2_$(date +%s)
  el "$n"
  timeout $(left 520) $A --page $1 --page-order $2 --variants 'bf16_d128_dec_w(4x16_s3_c16|4x16_s2_sk|4x16_s4_c16|8x16_s2_c16)$' \
    --table-peers --json $R/$n.json > $R/$n.log 2>&1
  echo "$n rc=$?"; grep -E "^bf16|paged|best at" $R/$n.log | cut -c1-200
done
lanes_finish
