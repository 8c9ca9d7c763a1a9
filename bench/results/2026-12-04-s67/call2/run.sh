#!/bin/bash
# s67 call 2: issue 13's table on main (3a87d24), prefill and decode, in two
# processes (the full table last ran in the forty-third session).
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup || exit 1
nvidia-smi --query-gpu=name,uuid --format=csv,noheader
for k in 1 2; do
  el "attention table $k"
  timeout $(left $((240 * k))) python3 bench/attn_bench.py --json "$R/attn_$k.json" >"$R/attn_$k.log" 2>&1
  echo "attn $k rc=$?"; grep -vE "^ *(ok|check)" "$R/attn_$k.log" | tail -32 | cut -c1-200
done
lanes_finish
