#!/bin/bash
# s70 call 7: d64's 192-row `_pc` (SKIP, rotated rounds) ranked first for
# masked calls of 256-1023 query rows.  (1) pinned beside the 128-row `_pc`
# at 256 / 320 / 384 (where the new rule starts); (2) the attention GPU
# suite; (3) issue 13's table, one process; (4) call 5's sweep again.
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup || exit 1
GPU=0
el "pinned"
timeout $(left 60) python3 bench/attn_bench.py --dims 64 --seqs 256,320,384 --no-decode \
  --reps 20 --variants 'd64_wg_(128x128_s3_pc|192x128_s3_pc)$' --json $R/pin.json > $R/pin.log 2>&1
echo "pin rc=$?"; grep -E "^  attention" $R/pin.log | grep "True" | cut -c1-120
el "suite"; gpu_suite attention.log 330 attention_gpu
el "table"
timeout $(left 400) python3 bench/attn_bench.py --json "$R/attn_1.json" >"$R/attn_1.log" 2>&1
echo "attn rc=$?"; grep -E "^bfloat16|decode:" "$R/attn_1.log" | cut -c1-160
el "sweep"
timeout $(left 450) python3 bench/attn_bench.py --dims 128,64 --seqs 128,256,384,512,640,768,960 --no-decode \
  --json $R/sweep.json > $R/sweep.log 2>&1
echo "sweep rc=$?"; grep -E "^bfloat16" $R/sweep.log | cut -c1-140
lanes_finish
