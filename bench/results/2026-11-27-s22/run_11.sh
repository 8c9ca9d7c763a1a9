#!/bin/bash
# Twenty-second session, call 11 (one GPU): what lands, the new method --
# the GEMM table three times (separate processes: m = 128's spread), and
# batch 1 d128 in four processes with `_s2_sk` and `_c16` pinned beside
# the pick (which of the two a slow-mode process should have run).
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup
for k in 1 2 3; do
  el "gemm $k"
  timeout $(left 300) python3 bench/gemm_bench.py --json $R/gemm_$k.json > $R/gemm_$k.log 2>&1
done
for k in 1 2 3 4; do
  el "b1 $k"
  timeout $(left 560) python3 bench/attn_bench.py --reps 30 --decode-only --decode-dims 128 \
    --decode-batches 1 --variants 'dec_w4x16_s2_sk$|dec_w4x16_s3_c16$' > $R/b1_$k.log 2>&1
  echo "b1 $k: $(grep -E '^bfloat16' $R/b1_$k.log | awk '{print $9, $12, $16}') $(grep -E '^  attention' $R/b1_$k.log | awk '{print $1, $(NF-6)}' | tr '\n' ' ')"
done
for k in 1 2 3; do grep -E "^(bfloat16|float16) +(128|4096) +4096 +4096" $R/gemm_$k.log | awk '{print $1,$2,$3,$4,$6,$10,$13}'; done
lanes_finish
