#!/bin/bash
# s70 call 5: `_pc`'s whole rounds dealt rotated (an odd tile count's middle
# tile, a unit alone, went to the same half of the CTAs every round) and
# d64's 128-row `_p` first up to 256 unmasked rows.  (1) the sweep of call 4
# again with 640 and 1024; (2) the attention GPU suite (every FA3 variant
# against float64, the new picks in the ranking's cases); (3) issue 13's
# table, one process.
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup || exit 1
GPU=0
el "sweep"
timeout $(left 120) python3 bench/attn_bench.py --dims 128,64 --seqs 128,256,384,512,640,768,1024 --no-decode \
  --json $R/sweep.json > $R/sweep.log 2>&1
echo "sweep rc=$?"; grep -E "^bfloat16" $R/sweep.log | cut -c1-140
el "suite"; gpu_suite attention.log 400 attention_gpu
el "table"
timeout $(left 520) python3 bench/attn_bench.py --json "$R/attn_1.json" >"$R/attn_1.log" 2>&1
echo "attn rc=$?"; grep -E "^bfloat16|decode:" "$R/attn_1.log" | cut -c1-160
lanes_finish
