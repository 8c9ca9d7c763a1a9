#!/bin/bash
# s70 call 2: `_p_r` (d64's unmasked 192-row `_p` with SKIP and a rotated
# deal) pinned beside `_p` at short and odd unmasked lengths, bf16 and f16,
# two processes: where to rank it (call 1: 4% ahead at 1K, 0.5-1.7% behind
# at 2K-16K).
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup || exit 1
GPU=0
for k in 1 2; do
  el "pinned $k"
  timeout $(left $((280 * k))) python3 bench/attn_bench.py --dtypes bf16,f16 --dims 64 \
    --seqs 256,512,640,768,1000,1024,1536 --no-decode --reps 20 --table-peers \
    --variants 'd64_wg_192x128_s3_p(_r)?$' --json $R/pin_$k.json > $R/pin_$k.log 2>&1
  echo "pin $k rc=$?"; grep -E "^  attention" $R/pin_$k.log | cut -c1-110
done
lanes_finish
