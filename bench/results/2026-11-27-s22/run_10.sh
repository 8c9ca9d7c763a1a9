#!/bin/bash
# Twenty-second session, call 10 (the same warm H100 as call 9): more
# processes, default against load-balancing, batch 1 and 8, d128 (call 9:
# load-balancing ran batch 1 fast in 5 of 5 processes, default 4 of 5,
# spread 1 of 5).
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup
for k in 1 2 3 4 5 6 7 8; do
  for pol in default balance; do
    KP_CLUSTER_POLICY=$pol KP_LOG=info timeout $(left 500) python3 bench/attn_bench.py --reps 30 \
      --decode-only --decode-dims 128 --decode-batches 1,8 > $R/p_${pol}_$k.log 2>&1
    echo "$pol $k: $(grep -E '^bfloat16' $R/p_${pol}_$k.log | awk '{print "b"$2, $9, $12, $16}' | tr '\n' ' ') $(grep -oE '[0-9]+ clusters of 16 fit' $R/p_${pol}_$k.log | sort -u | tr '\n' ' ')"
  done
done
lanes_finish
