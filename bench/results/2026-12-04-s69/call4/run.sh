#!/bin/bash
# s69 call 4: the landed form -- SKIP on the 192-row `_ps` / `_pc`, the
# 192-row `_ps` first for masked d64 calls from 385 query rows.  (1) the
# attention GPU suite; (2) the masked d64 candidates pinned at 384 / 512 /
# 768, bf16 and f16; (3) issue 13's table once more.
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup || exit 1
GPU=0
el "attention_gpu"; gpu_suite attention_gpu.log 200 attention_gpu
el "pinned"
timeout $(left 300) python3 bench/attn_bench.py --dtypes bf16,f16 --dims 64 --seqs 384,512,768 --no-decode \
  --reps 20 --table-peers --variants 'd64_wg_(128x128_s3_pc|192x128_s3_ps)$' \
  --json $R/pin.json > $R/pin.log 2>&1
echo "pin rc=$?"; grep -E "^  attention|best at" $R/pin.log | grep "True" | cut -c1-150
el "table"
timeout $(left 360) python3 bench/attn_bench.py --json "$R/attn.json" >"$R/attn.log" 2>&1
echo "attn rc=$?"; grep -E "^bfloat16|decode:" "$R/attn.log" | cut -c1-160
lanes_finish
