#!/bin/bash
# Seventy-first session, call 5 (the landed ranking): compute-sanitizer's
# racecheck, synccheck and memcheck over the 64-key `_pc` with SKIP (d64 s4,
# d128 s3: SKIP's first two-consumer kernels), then the short causal cells
# beside SDPA on the picks, two processes.
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup || exit 1
GPU=0
el "racecheck"; san racecheck attention_gpu "x64_s4_pc|x64_s3_pc" racecheck.log 200
el "synccheck"; san synccheck attention_gpu "x64_s4_pc|x64_s3_pc" synccheck.log 290
el "memcheck"; san memcheck attention_gpu "x64_s4_pc|x64_s3_pc" memcheck.log 380
for k in 1 2; do
  el "short $k"
  timeout $(left $((380 + 40 * k))) python3 bench/attn_bench.py --dims 64,128 --seqs 128,256 \
    --no-decode --reps 20 --json $R/short_$k.json > $R/short_$k.log 2>&1
  echo "short $k rc=$?"; grep -E "^bfloat16" $R/short_$k.log | cut -c1-130
done
lanes_finish
