#!/bin/bash
# Twenty-second session, call 9 (one GPU): the decode clusters' two modes
# at batch 1 (55 or 61 us on H100s, per process) against the cluster
# scheduling policy of the launch (KP_CLUSTER_POLICY, an experiment in
# launch.c: CU_LAUNCH_ATTRIBUTE_CLUSTER_SCHEDULING_POLICY_PREFERENCE spread
# / load-balancing / default).  Five processes a policy, in turns, batch 1
# d128 / d64 (the pick: `_c16`); the clusters that fit, from KP_LOG=info.
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup
for k in 1 2 3 4 5; do
  for pol in default spread balance; do
    KP_CLUSTER_POLICY=$pol KP_LOG=info timeout $(left 500) python3 bench/attn_bench.py --reps 30 \
      --decode-only --decode-dims 128,64 --decode-batches 1 > $R/p_${pol}_$k.log 2>&1
    echo "$pol $k: $(grep -E '^bfloat16' $R/p_${pol}_$k.log | awk '{print $7"-d"$6, $9, $12, $16}' | tr '\n' ' ') $(grep -oE '[0-9]+ clusters of 16 fit' $R/p_${pol}_$k.log | sort -u | tr '\n' ' ')"
  done
done
lanes_finish
