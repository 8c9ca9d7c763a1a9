#!/bin/bash
# Next session's first call (written by the sixty-first, bench/NOTES.md
# 97-99; the sixtieth's steps ran as its calls 3, 5 and 6): issue 13's last
# cell, the decode at batch 8 (d128, 32 / 8 heads, 32K keys), 0.99x cuDNN
# in five rounds.  ncu's full set, clocks unlocked, over our `_sk` pick and
# SDPA's cuDNN pair (the LeanAttention-style fprop kernel and its
# lean_reduction), for the memory-side differences item 99's counters did
# not show (DRAM sectors and row-buffer behaviour are not exposed; L2
# hit / miss by source, achieved occupancy, issue stalls are).  Build (make
# packs-whole; the CPU tests), carry the packs (bench/lanes.sh), copy this
# script to build/carry/ and run it.
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup || exit 1
GPU=0
el "ncu full, decode batch 8"
timeout $(left 500) ncu --target-processes all --set full --clock-control none --import-source no \
  -k "regex:(attention_bf16_d128_dec|cudnn_generated|lean_reduction)" -c 6 -o $R/dec8 \
  python3 bench/attn_bench.py --decode-only --decode-batches 8 --decode-dims 128 --reps 2 \
  > $R/dec8.log 2>&1
echo "ncu rc=$?"
ncu -i $R/dec8.ncu-rep --page details --csv > $R/dec8.csv 2>/dev/null
grep -E '"(Duration|DRAM Throughput|Memory Throughput|L2 Hit Rate|L1/TEX Hit Rate|Achieved Occupancy|Issue Slots Busy|Registers Per Thread|Dynamic Shared Memory Per Block|Block Size|Grid Size|Waves Per SM|No Eligible)"' \
  $R/dec8.csv | awk -F'","' '{print substr($5,1,60)" | "$(NF-3)" | "$(NF-1)" "$NF}' | cut -c1-150
xz -T4 -9 $R/dec8.csv
lanes_finish
