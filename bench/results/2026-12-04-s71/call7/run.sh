#!/bin/bash
# Seventy-first session, call 6 (26c9838's pack): short prefills against
# longer keys (LQ:LK, causal bottom-right, batch = 16K / LQ) beside SDPA, and
# the masked candidates pinned there.
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup || exit 1
GPU=0
el "prefill against keys"
timeout $(left 200) python3 bench/attn_bench.py --dims 64,128 --seqs 128:1024,128:4096,512:4096 \
  --no-decode --reps 20 \
  --json $R/kv.json > $R/kv.log 2>&1
echo "kv rc=$?"; grep -E "^bfloat16" $R/kv.log | cut -c1-130
grep -E "^  attention_.*causal=True" $R/kv.log | awk '{print $1, $4, $5, $7}'
lanes_finish
