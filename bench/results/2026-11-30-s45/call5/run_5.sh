#!/bin/bash
# forty-fifth session, call 5: the compact merge + dry pass (the landing
# candidate; d128's decode with a workspace now ranks `_sk` over the
# clusters at one wave): d64 and d128 decode at batch 1, 2, 8, pinned
# `_sk` / `_c16` beside SDPA, two rounds; memcheck over every `_sk`,
# racecheck over d128 and d64 `_sk`
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup || exit 1
for k in 1 2; do
  el "round $k"
  timeout $(left $((80 + 70 * k))) python3 bench/attn_bench.py --decode-only --decode-batches 1,2,8 \
    --decode-dims 64,128 --reps 30 --page 16 \
    --variants "bf16_d(64|128)_dec_w4x16_s(2_sk|3_sk|3_c16)" --table-peers \
    --json $R/dec_$k.json > $R/dec_$k.log 2>&1
  echo "round $k rc=$?"; grep -E "^bfloat16|dec_w|best at" $R/dec_$k.log | cut -c1-150
done
el "memcheck"
san memcheck attention_gpu _sk mem_sk.log 330
el "racecheck"
san racecheck attention_gpu "d128_dec_w4x16_s2_sk|d64_dec_w4x16_s3_sk" race_sk.log 560
el end
lanes_finish
