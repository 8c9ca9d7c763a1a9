#!/bin/bash
# s70 call 8: the landed ranking (d64 masked: 128-row `_pc` to 256, 192-row
# `_pc` 257-1023, 192-row `_ps` from 1024; unmasked: 128-row `_p` to 256,
# `_p_r` 257-1024): issue 13's table and the short-sequence sweep, one
# process each.
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup || exit 1
GPU=0
el "table"
timeout $(left 120) python3 bench/attn_bench.py --json "$R/attn_1.json" >"$R/attn_1.log" 2>&1
echo "attn rc=$?"; grep -E "^bfloat16|decode:" "$R/attn_1.log" | cut -c1-160
el "sweep"
timeout $(left 220) python3 bench/attn_bench.py --dims 128,64 --seqs 128,256,320,384,512,640,768,960 --no-decode \
  --json $R/sweep.json > $R/sweep.log 2>&1
echo "sweep rc=$?"; grep -E "^bfloat16" $R/sweep.log | cut -c1-140
lanes_finish
