#!/bin/bash
# Thirtieth session, call 8: ncu of RMSNorm+SwiGLU's picks at 131072 x 1001
# (4 warp rows of U 4) and 16384 x 4097 (the 256-thread pairs loop): issue,
# stalls, hit rates -- where the next step lies.
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup
GPU=0
echo "rmsnorm_swiglu 131072 1001" > $R/s1001.txt
echo "rmsnorm_swiglu 16384 4097" > $R/s4097.txt
for p in "rmsnorm_swiglu_bf16_loop_warp_r4_v8_u4_pairs_p s1001" "rmsnorm_swiglu_bf16_loop_t256_v8_pairs_p s4097"; do
  set -- $p
  el "ncu $1"
  timeout $(left 170) ncu -k "regex:^${1}\$" --launch-skip 2 --launch-count 1 \
    --section SpeedOfLight --section MemoryWorkloadAnalysis --section WarpStateStats \
    --section SchedulerStats --section Occupancy \
    --metrics l1tex__t_sector_hit_rate.pct,lts__t_sector_hit_rate.pct,sm__inst_executed.sum,smsp__average_warp_latency_issue_stalled_long_scoreboard.ratio,smsp__average_warp_latency_issue_stalled_barrier.ratio,smsp__average_warp_latency_issue_stalled_lg_throttle.ratio \
    build/bin/kp tune --device 0 --families rmsnorm_swiglu --dtypes bf16 --reps 3 \
    --shapes $R/$2.txt -o $R/ncu_tmp.tune -q > $R/ncu_$1.txt 2>&1
  echo "ncu rc=$?"
  grep -E "Duration|DRAM Throughput|No Eligible|Active Warps Per|Eligible Warps|Warp Cycles Per Issued|Achieved Occupancy|L1/TEX Hit|inst_executed.sum|stalled" $R/ncu_$1.txt | sed 's/  */ /g'
done
lanes_finish
