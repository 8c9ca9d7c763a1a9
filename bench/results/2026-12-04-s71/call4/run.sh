#!/bin/bash
# Seventy-first session, call 4 (b7939c5 + two tuner-only twins): (1) float64
# over the 64-key `_pc` with SKIP (d64 s4, d128 s3); (2) them pinned beside
# the masked picks at causal 128 / 256 / 384 / 512, two rounds; (3) the
# attention GPU suite whole; (4) issue 13's table; (5) memcheck over d64's
# masked kernels with item 123's fast path.
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup || exit 1
GPU=0
el "float64 64-key _pc"; f64 "x64_s4_pc|x64_s3_pc" 60 attention_gpu
for k in 1 2; do
  el "pinned $k"
  timeout $(left $((60 + 45 * k))) python3 bench/attn_bench.py --dims 64,128 --seqs 128,256,384,512 \
    --no-decode --reps 20 --table-peers \
    --variants 'd64_wg_128x(64_s4|128_s3)_pc$|d128_wg_128x(64_s3|128_s2)_pc$|d128_wg_128x128_s2_p_rm$|d64_wg_192x128_s3_pc$' \
    --json $R/pin_$k.json > $R/pin_$k.log 2>&1
  echo "pin $k rc=$?"
  grep -E "^  attention_.*causal=True" $R/pin_$k.log | awk '{print $1, $4, $5, $7}'
done
el "attention suite"; gpu_suite attention.log 390 attention_gpu
el "issue 13 table"; timeout $(left 480) python3 bench/attn_bench.py --json $R/attn.json > $R/attn.log 2>&1
echo "table rc=$?"; grep -E "^bfloat16" $R/attn.log | cut -c1-130
el "memcheck d64 masked"; san memcheck attention_gpu "d64_wg_128x128_s3_pc|d64_wg_192x128_s3_ps" memcheck.log 585
lanes_finish
