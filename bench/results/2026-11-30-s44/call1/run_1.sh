#!/bin/bash
# forty-fourth session, call 1: the decode at batch 1 / 8 with K and V in
# memory as (batch, seq, heads, dim) -- a KV head's rows 256 B in every 2 KB
# -- and as (batch, heads, seq, dim), a head's keys contiguous; the d128
# decode variants pinned at batch 1 in both.
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup || exit 1
for L in bshd bhsd; do
  el "decode rows, K/V $L"
  timeout $(left 200) python3 bench/attn_bench.py --decode-only --decode-batches 1,8 --reps 30 \
    --kv-layout $L --json $R/dec_$L.json > $R/dec_$L.log 2>&1
  echo "dec $L rc=$?"; grep -E "^bfloat16|decode:" $R/dec_$L.log | cut -c1-250
done
for L in bshd bhsd; do
  el "pinned d128 decode variants at batch 1, K/V $L"
  timeout $(left 480) python3 bench/attn_bench.py --decode-only --decode-batches 1 --reps 30 --page 0 \
    --kv-layout $L --variants "bf16_d128_dec" --table-peers --json $R/pin_$L.json > $R/pin_$L.log 2>&1
  echo "pin $L rc=$?"; grep -E "dec_w|best at" $R/pin_$L.log | cut -c1-200
done
lanes_finish
