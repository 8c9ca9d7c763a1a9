#!/bin/bash
# forty-fourth session, call 5: the split-KV decode's last CTA merging its
# tile's partials staged in shared memory by cp.async (a chunk's copies all
# in flight): every `_sk` variant against float64, traced, pinned
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup || exit 1
KP_TEST_ONLY="_sk" CK_RUN_CASE=attention gpu_suite att_sk.log 150 attention_gpu
grep -E "cases|left out" $R/att_sk.log | head -5
el "trace"
timeout $(left 250) python3 build/carry/trace_c16.py attention_bf16_d128_dec_w4x16_s2_sk \
  attention_bf16_d128_dec_w4x16_s2_sk_f attention_bf16_d128_dec_w8x16_s2_sk_f > $R/trace.log 2>&1
echo "trace rc=$?"; grep -E "^attention|Q\+tile0|loopend|^  end|SMs [0-9]" $R/trace.log | cut -c1-160
el "pinned, batch 1 and 8"
timeout $(left 500) python3 bench/attn_bench.py --decode-only --decode-batches 1,8 --reps 30 --page 16 \
  --variants "bf16_d128_dec_w(8x16_s[23]_sk|4x16_s[23]_sk|4x16_s3_c16)" --table-peers --json $R/pin.json > $R/pin.log 2>&1
echo "pin rc=$?"; grep -E "^bfloat16|decode:|dec_w|best at" $R/pin.log | cut -c1-250
lanes_finish
