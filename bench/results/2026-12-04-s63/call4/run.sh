#!/bin/bash
# s63 call 4: (1) attention_gpu (its split-KV grids now one loop over three
# configurations); (2) issue 13's decode bar, d128, batch 8 and 1, three
# processes of attn_bench --decode-only, on main's code.
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup || exit 1
GPU=0
el attention_gpu; gpu_suite attention_gpu.log 230 attention_gpu
grep -c "one CTA an SM" "$R/attention_gpu.log"
for k in 1 2 3; do
  el "decode round $k"
  timeout $(left $((230 + 40 * k))) python3 bench/attn_bench.py --decode-only --decode-batches 8,1 \
    --decode-dims 128 --reps 40 --json $R/dec_$k.json > $R/dec_$k.log 2>&1
  echo "dec $k rc=$?"; grep -E "^bfloat16|decode:" $R/dec_$k.log | cut -c1-150
done
lanes_finish
