#!/bin/bash
# forty-fourth session, call 7: the split-KV decode's last CTA merging a
# chunk of partials at a time (factors once a (row, partial), plain sums):
# every `_sk` variant against float64, the decode rows, `_sk` pinned,
# memcheck and racecheck over the d128 `_sk` variants
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup || exit 1
KP_TEST_ONLY="_sk" CK_RUN_CASE=attention gpu_suite att_sk.log 120 attention_gpu
grep -E "cases|left out" $R/att_sk.log | head -3
el "decode rows"
timeout $(left 220) python3 bench/attn_bench.py --decode-only --decode-batches 1,8 --reps 30 --page 16 \
  --variants "bf16_d128_dec_w4x16_s(2_sk|3_c16)" --table-peers --json $R/dec.json > $R/dec.log 2>&1
echo "dec rc=$?"; grep -E "^bfloat16|decode:|dec_w|best at" $R/dec.log | cut -c1-250
san memcheck attention_gpu d128_dec_w4x16_s2_sk mem_sk.log 380
san racecheck attention_gpu d128_dec_w4x16_s2_sk race_sk.log 540
lanes_finish
