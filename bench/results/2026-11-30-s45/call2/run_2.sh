#!/bin/bash
# forty-fifth session, call 2 (NOTES 79's next step, bench/results/next/
# run_2.sh narrowed): ncu's warp stall samples, per SASS instruction, of the
# split-KV decode `_sk` (w4 s2, pinned) at batch 1 -- where the merging CTAs'
# first partial loads wait
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup || exit 1
V=attention_bf16_d128_dec_w4x16_s2_sk
el "ncu $V"
timeout $(left 300) ncu --target-processes all -k "regex:${V#attention_bf16_}" -s 2 -c 1 \
  --clock-control none --section WarpStateStats --section SchedulerStats --section SourceCounters \
  --section MemoryWorkloadAnalysis --section LaunchStats --section Occupancy \
  --import-source no -o $R/ncu_sk python3 build/carry/dec_b1.py $V 4 > $R/ncu_sk.log 2>&1
echo "ncu rc=$?"; tail -3 $R/ncu_sk.log
ncu -i $R/ncu_sk.ncu-rep --page source --csv --print-source sass > $R/sass_sk.csv 2>&1; echo "print rc=$?"
ncu -i $R/ncu_sk.ncu-rep --page details --csv > $R/details_sk.csv 2>&1
ncu -i $R/ncu_sk.ncu-rep --page details --section WarpStateStats 2>/dev/null | grep -iE "stall|cycles" | head -30
el end
lanes_finish
