#!/bin/bash
# NOTES item 79's next step (written by the forty-fourth session): why the
# split-KV decode's merging CTAs issue their first partial loads only at one
# common moment.  ncu over the pinned `_sk` at batch 1 (bench/results/next/
# dec_b1.py): warp states and the source lines where warps stall (the merge's
# loads: lg_throttle, long_scoreboard, or a barrier?), beside `_c16`.  Copy
# this script and dec_b1.py to build/carry/ and run it as the other calls
# (bench/lanes.sh).
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup || exit 1
for V in attention_bf16_d128_dec_w4x16_s2_sk attention_bf16_d128_dec_w4x16_s3_c16; do
  el "ncu $V"
  timeout $(left $([ $V = attention_bf16_d128_dec_w4x16_s2_sk ] && echo 280 || echo 540)) \
    ncu --target-processes all -k "regex:${V#attention_bf16_}" -s 2 -c 1 \
    --section WarpStateStats --section SchedulerStats --section SourceCounters \
    --section MemoryWorkloadAnalysis --section LaunchStats --section Occupancy \
    --import-source no -o $R/ncu_$V python3 build/carry/dec_b1.py $V 4 > $R/ncu_$V.log 2>&1
  echo "ncu rc=$?"; tail -3 $R/ncu_$V.log
  ncu --import $R/ncu_$V.ncu-rep --page details --section WarpStateStats 2>/dev/null | grep -iE "stall|cycles" | head -20
done
lanes_finish
