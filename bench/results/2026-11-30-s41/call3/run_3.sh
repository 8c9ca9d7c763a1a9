#!/bin/bash
# 41st session call 3: the decode clusters with their rows found a tile ahead
# (`_c16a`) against `_c16`, paged (ordered, shuffled) and contiguous; their
# every-variant check against float64.
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup || exit 1
A="python3 bench/attn_bench.py --decode-only --decode-batches 1,8 --reps 20"
V='bf16_d128_dec_w(4x16_s3_c16|4x16_s3_c16a|4x16_s2_sk)$'
for cfg in "ordered 1" "shuffled 1" "ordered 2" "shuffled 2"; do
  set -- $cfg; n=dec_$1$2
  el "$n"
  timeout $(left 300) $A --page 16 --page-order $1 --variants "$V" --table-peers --json $R/$n.json > $R/$n.log 2>&1
  echo "$n rc=$?"; grep -E "paged|best at" $R/$n.log | cut -c1-250
done
KP_TEST_ONLY="d128_dec_w4x16_s3_c16" CK_RUN_CASE=attention gpu_suite t_dec.log 480 attention_gpu
grep -E "cases|variant" $R/t_dec.log | head -5
lanes_finish
