#!/bin/bash
# 41st session call 10: the split-KV decode at batch 8 (d128): the grid's
# shares wherever they fall (`_skg`) and 8 warps, one CTA an SM (w8 `_sk`,
# 2 / 3 stages), pinned beside `_s2_sk` and SDPA, twice; their float64 check.
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup || exit 1
for i in 1 2; do
  el "b8 $i"
  timeout $(left 300) python3 bench/attn_bench.py --decode-only --decode-batches 8,1 --reps 30 --page 0 \
    --variants 'bf16_d128_dec_w[48]x16_s[23]_skg?$' --table-peers --json $R/b8_$i.json > $R/b8_$i.log 2>&1
  echo "b8 rc=$?"; grep -E "^bfloat16|  attention_|best at" $R/b8_$i.log | cut -c1-170
done
KP_TEST_ONLY="d128_dec_w4x16_s2_skg|d128_dec_w8x16" CK_RUN_CASE=attention gpu_suite t_dec.log 480 attention_gpu
grep -E ": [0-9]+ cases" $R/t_dec.log | head -5
lanes_finish
