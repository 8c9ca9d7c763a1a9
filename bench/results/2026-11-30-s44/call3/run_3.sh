#!/bin/bash
# forty-fourth session, call 3: d128 decode clusters of 12 / 14 / 15 CTAs of
# 8 warps (one CTA an SM: 8 clusters fit where 16 fit 7), traced and pinned
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup || exit 1
el "trace"
timeout $(left 200) python3 build/carry/trace_c16.py attention_bf16_d128_dec_w8x16_s2_c14 \
  attention_bf16_d128_dec_w8x16_s2_c12 attention_bf16_d128_dec_w8x16_s3_c14 attention_bf16_d128_dec_w8x16_s2_c15 \
  > $R/trace.log 2>&1
echo "trace rc=$?"; grep -E "^attention|loopend|^  end|SMs [0-9]" $R/trace.log | cut -c1-160
el "pinned, batch 1 and 8"
timeout $(left 480) python3 bench/attn_bench.py --decode-only --decode-batches 1,8 --reps 30 --page 16 \
  --variants "bf16_d128_dec_w(8x16_s2_c1[2456]|8x16_s3_c14|4x16_s3_c16)" --table-peers --json $R/pin.json > $R/pin.log 2>&1
echo "pin rc=$?"; grep -E "^bfloat16|decode:|dec_w|best at" $R/pin.log | cut -c1-250
lanes_finish
