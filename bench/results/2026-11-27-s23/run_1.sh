#!/bin/bash
# Twenty-third session, call 1 (one H100): the gap the twenty-second left --
# compute-sanitizer memcheck, racecheck and synccheck over the split-KV
# decode with 2 stages (`_s2_sk`, d128's pick since 5b80cce; d64's twin)
# through attention_gpu's every-variant case; then the baseline for head
# dims 96 and 256 (today the scalar `attention_*_simple` alone serves them)
# against SDPA, prefill at 1K and decode at batch 8 and 1.
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup
GPU=0
el "memcheck"; san memcheck attention_gpu _s2_sk san_mem.log 150
el "racecheck"; san racecheck attention_gpu _s2_sk san_race.log 340
el "synccheck"; san synccheck attention_gpu _s2_sk san_sync.log 430
for f in $R/san_*.log; do echo "== $f"; grep -E "attention_.*(pass|ok|ran)|variants? ran|Checks" $f | head -6 | cut -c1-200; done
el "baseline d96/d256"
timeout $(left 560) python3 bench/attn_bench.py --reps 5 --dims 256,96 --seqs 1024 \
  --decode-dims 256,96 --decode-batches 8,1 --json $R/base.json 2>&1 | grep -vE "$F" > $R/base.log
cat $R/base.log | cut -c1-160 | tail -30
lanes_finish
