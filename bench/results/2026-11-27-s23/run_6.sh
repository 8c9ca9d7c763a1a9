#!/bin/bash
# Twenty-third session, call 6 (one H100): d256 `_pc` (pairs, O from the
# registers) past 1K query rows, against the plain 128x80 pick: 4K and 16K
# causal (call 5 had it only at 1K: 319.6 against 328.9 us).
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup
GPU=0
timeout $(left 200) python3 bench/attn_bench.py --reps 20 --dims 256 --seqs 1024,4096,16384 --no-decode \
  --variants 'bf16_d256_wg_128x(80_s2$|64_s2_pc)' --table-peers --json $R/pin.json 2>&1 | grep -vE "$F" > $R/pin.log
grep -E "^bfloat16|attention_|best at" $R/pin.log | cut -c1-170
lanes_finish
