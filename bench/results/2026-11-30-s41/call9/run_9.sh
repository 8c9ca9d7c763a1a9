#!/bin/bash
# 41st session call 9: issue 13's two shapes at parity -- every d64 FA3
# variant pinned at 1K (causal and not), and the split-KV decode's two depths
# at batch 8 (d128), each beside SDPA, twice.
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup || exit 1
for i in 1 2; do
  el "d64 1K $i"
  timeout $(left 250) python3 bench/attn_bench.py --dims 64 --seqs 1024 --no-decode --reps 30 \
    --variants 'bf16_d64_wg_' --table-peers --json $R/d64_$i.json > $R/d64_$i.log 2>&1
  echo "d64 rc=$?"; grep -E "^bfloat16|  attention_.*causal=True|best at" $R/d64_$i.log | cut -c1-170
  el "b8 $i"
  timeout $(left 500) python3 bench/attn_bench.py --decode-only --decode-batches 8 --reps 30 --page 0 \
    --variants 'bf16_d128_dec_w4x16_s[23]_sk$' --table-peers --json $R/b8_$i.json > $R/b8_$i.log 2>&1
  echo "b8 rc=$?"; grep -E "^bfloat16|  attention_|best at" $R/b8_$i.log | cut -c1-170
done
lanes_finish
