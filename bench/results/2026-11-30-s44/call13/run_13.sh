#!/bin/bash
# forty-fourth session, call 13: the split-KV merge's partials by weak loads
# (LDG, not LDG.STRONG.GPU from __ldcg) -- traced, then pinned beside `_c16`
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup || exit 1
el "clock"
timeout $(left 60) python3 build/carry/clock_sk.py attention_bf16_d128_dec_w4x16_s2_sk > $R/clock.log 2>&1
echo "clock rc=$?"; grep -E "^b|merging" $R/clock.log | head -12 | cut -c1-190
el "pinned"
timeout $(left 200) python3 bench/attn_bench.py --decode-only --decode-batches 1,8 --reps 30 --page 0 \
  --variants "bf16_d128_dec_w4x16_s(2_sk|3_c16)" --table-peers --json $R/pin.json > $R/pin.log 2>&1
echo "pin rc=$?"; grep -E "^bfloat16|dec_w" $R/pin.log | cut -c1-200
lanes_finish
