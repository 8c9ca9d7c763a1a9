#!/bin/bash
# 41st session call 8: issue 13's bar table on the landed code (7214cfe):
# prefill at the 12 bar shapes, decode d128 / d64 at batch 1 / 8 with the
# paged form (pages of 16, shuffled), beside SDPA's flash and cuDNN; then
# the decode rows twice more.
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup || exit 1
el "attention table"
timeout $(left 420) python3 bench/attn_bench.py --decode-dims 128,64 --decode-batches 1,8 --reps 30 \
  --json $R/attn.json > $R/attn.log 2>&1
echo "attn rc=$?"; grep -E "^bf16|paged|decode:" $R/attn.log | cut -c1-200
for i in 2 3; do
  el "decode $i"
  timeout $(left 520) python3 bench/attn_bench.py --decode-only --decode-batches 1,8 --reps 30 \
    --json $R/dec$i.json > $R/dec$i.log 2>&1
  echo "dec$i rc=$?"; grep -E "^bf16|decode:" $R/dec$i.log | cut -c1-200
done
lanes_finish
