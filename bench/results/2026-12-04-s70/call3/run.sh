#!/bin/bash
# s70 call 3: `_p_r` ranked for unmasked d64 calls up to 1K query rows.
# (1) the attention GPU suite (its every-variant case over every FA3
# variant, `_p_r` among them, and the ranking's cases on the new picks);
# (2) issue 13's table, two processes.
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup || exit 1
GPU=0
el "suite"; gpu_suite attention.log 300 attention_gpu
for k in 1 2; do
  el "table $k"
  timeout $(left $((380 + 100 * k))) python3 bench/attn_bench.py --json "$R/attn_$k.json" >"$R/attn_$k.log" 2>&1
  echo "attn $k rc=$?"; grep -E "^bfloat16|decode:" "$R/attn_$k.log" | cut -c1-160
done
lanes_finish
