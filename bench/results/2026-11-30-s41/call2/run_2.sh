#!/bin/bash
# 41st session call 2: B streamed as a GEMM at m = 128 reads it (C bytes of a
# row a stage); the paged decode against its own cache read flat.
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup || exit 1
el "read ceiling"
nvcc -O3 -arch=sm_90a -o $R/rc bench/read_ceiling.cu && timeout $(left 150) $R/rc 1024 > $R/read_ceiling.log 2>&1
cat $R/read_ceiling.log | tail -12; rm -f $R/rc
A="python3 bench/attn_bench.py --decode-only --decode-batches 1,8 --reps 20"
for i in 1 2; do
  n=dec_ord$i
  el "$n"
  timeout $(left 400) $A --page 16 --page-order ordered --variants 'bf16_d128_dec_w(4x16_s3_c16|4x16_s2_sk)$' \
    --table-peers --json $R/$n.json > $R/$n.log 2>&1
  echo "$n rc=$?"; grep -E "paged|best at" $R/$n.log | cut -c1-250
done
lanes_finish
