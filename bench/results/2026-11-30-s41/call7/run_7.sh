#!/bin/bash
# 41st session call 7: the flat path's table entries a tile, not a page
# (one offset load a tile) -- pinned `_c16` / `_sk` with the pick's table,
# ordered / shuffled pages; ncu's instruction count; attention_gpu whole
# (with the long decode case: the table read in place).
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup || exit 1
A="python3 bench/attn_bench.py --decode-only --decode-batches 1,8 --reps 20"
V='bf16_d128_dec_w(4x16_s3_c16|4x16_s2_sk)$'
for cfg in "ordered 1" "shuffled 1" "ordered 2" "shuffled 2" "shuffled 3"; do
  set -- $cfg; n=dec_$1$2
  el "$n"
  timeout $(left 200) $A --page 16 --page-order $1 --variants "$V" --table-peers --json $R/$n.json > $R/$n.log 2>&1
  echo "$n rc=$?"; grep -E "paged|best at" $R/$n.log | cut -c1-250
done
el "ncu decode"
M=gpu__time_duration.sum,smsp__inst_executed.sum,sm__cycles_active.avg
KP_VARIANT=attention_bf16_d128_dec_w4x16_s3_c16 timeout $(left 250) ncu --metrics $M -k regex:attention_ \
  python3 bench/ncu_attn.py 1 32 8 1 32768 128 --paged 16 > $R/ncu_dec.log 2>&1
echo "ncu rc=$?"; grep -E "duration|inst_executed|cycles_active" $R/ncu_dec.log | cut -c1-150
gpu_suite t_attn.log 520 attention_gpu
grep -E "^TIME" $R/t_attn.log | head
lanes_finish
