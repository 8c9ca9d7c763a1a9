#!/bin/bash
# s67 call 9: d64 1K (issue 13's one cell under 1.00x cuDNN, causal): every
# d64 Hopper attention variant pinned in turns with SDPA, two processes.
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup || exit 1
nvidia-smi --query-gpu=name,uuid --format=csv,noheader
for k in 1 2; do
  el "pinned $k"
  timeout $(left $((150 * k))) python3 bench/attn_bench.py --dims 64 --seqs 1024 --no-decode --reps 30 \
    --variants 'd64_wg' --json "$R/pin_$k.json" >"$R/pin_$k.log" 2>&1
  echo "pin $k rc=$?"; grep -vE "UserWarning|return F.scaled" "$R/pin_$k.log" | tail -30 | cut -c1-170
done
lanes_finish
