#!/bin/bash
# forty-fourth session, call 4: the split-KV decode (global merge, any SM)
# with 8 warps, one CTA an SM, and the clusters' flat tile addresses (`_f`)
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup || exit 1
el "trace"
timeout $(left 200) python3 build/carry/trace_c16.py attention_bf16_d128_dec_w8x16_s2_sk_f \
  attention_bf16_d128_dec_w8x16_s3_sk_f attention_bf16_d128_dec_w8x16_s2_sk attention_bf16_d128_dec_w4x16_s2_sk_f \
  attention_bf16_d128_dec_w4x16_s2_sk > $R/trace.log 2>&1
echo "trace rc=$?"; grep -E "^attention|Q\+tile0|loopend|^  end|SMs [0-9]" $R/trace.log | cut -c1-160
el "pinned, batch 1 and 8"
timeout $(left 480) python3 bench/attn_bench.py --decode-only --decode-batches 1,8 --reps 30 --page 16 \
  --variants "bf16_d128_dec_w(8x16_s[23]_sk|4x16_s2_sk|4x16_s3_c16)" --table-peers --json $R/pin.json > $R/pin.log 2>&1
echo "pin rc=$?"; grep -E "^bfloat16|decode:|dec_w|best at" $R/pin.log | cut -c1-250
lanes_finish
