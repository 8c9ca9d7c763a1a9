#!/bin/bash
# Call 5 (twenty-eighth session): the decode clusters at batch 1 with the
# grid cut to the working clusters (KP_X_GRID=128: 8 packed tiles x 16, an
# experiment in launch.c) against the default (14 clusters, 6 of them idle);
# ncu's SM-active spread for both.
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup
GPU=0
for k in 1 2; do
  for g in 0 128; do
    el "round $k grid $g"
    KP_X_GRID=$g timeout $(left 400) python3 bench/attn_bench.py --decode-only --decode-batches 1 \
      --decode-dims 128,64 --reps 30 --json $R/dec_g${g}_$k.json 2>&1 | grep -vE "$F" > $R/dec_g${g}_$k.log
    grep -E "^bfloat16|decode:" $R/dec_g${g}_$k.log | cut -c1-190
  done
done
M=gpu__time_duration.sum,launch__grid_size,sm__cycles_active.min,sm__cycles_active.avg,sm__cycles_active.max,dram__throughput.avg.pct_of_peak_sustained_elapsed
for g in 0 128; do
  el "ncu grid $g"
  KP_X_GRID=$g timeout $(left 560) ncu --metrics $M -k regex:'attention_' \
    python3 bench/ncu_attn.py 1 32 8 1 32768 128 --paged 16 > $R/ncu_g$g.log 2>&1
  grep -E "attention_bf16|gpu__time|launch__grid|sm__cycles|dram__" $R/ncu_g$g.log | tail -14 | cut -c1-120
done
lanes_finish
