#!/bin/bash
# s68 call 6: issue 13's table on main (f2867f7's kernels), two processes --
# more samples of the two cells at parity (d64 1K causal, decode batch 8).
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup || exit 1
nvidia-smi --query-gpu=name,uuid --format=csv,noheader
for k in 1 2; do
  el "attention table $k"
  timeout $(left $((250 * k))) python3 bench/attn_bench.py --json "$R/attn_$k.json" >"$R/attn_$k.log" 2>&1
  echo "attn $k rc=$?"; grep -E "^bfloat16|decode:" "$R/attn_$k.log" | cut -c1-200
done
lanes_finish
