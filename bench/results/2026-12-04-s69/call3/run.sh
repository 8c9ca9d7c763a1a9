#!/bin/bash
# s69 call 3: SKIP on the 192-row `_ps` / `_pc` alone (the kernels that
# skip nothing lost ~2% to it in call 2), the 192-row `_ps` ranked first for
# masked d64 calls.  (1) racecheck over the SKIP kernels (call 2's ran out
# of time; ncnt is new producer-to-consumer traffic); (2) the masked d64
# candidates pinned at 256-2K, bf16 and f16; (3) issue 13's table, two
# processes.
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup || exit 1
GPU=0
el "racecheck"; san racecheck attention_gpu "d64_wg_192x128_s3_ps|d64_wg_192x128_s3_pc" racecheck.log 230
el "pinned"
timeout $(left 320) python3 bench/attn_bench.py --dtypes bf16,f16 --dims 64 --seqs 256,512,1024,2048 --no-decode \
  --reps 20 --table-peers --variants 'd64_wg_(128x128_s3_p[cs]|192x128_s3_p[cs])$' \
  --json $R/pin.json > $R/pin.log 2>&1
echo "pin rc=$?"; grep -E "^  attention|best at" $R/pin.log | grep "True" | cut -c1-150
for k in 1 2; do
  el "table $k"
  timeout $(left $((320 + 70 * k))) python3 bench/attn_bench.py --json "$R/attn_$k.json" >"$R/attn_$k.log" 2>&1
  echo "attn $k rc=$?"; grep -E "^bfloat16|decode:" "$R/attn_$k.log" | cut -c1-160
done
lanes_finish
