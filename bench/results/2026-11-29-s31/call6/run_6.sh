#!/bin/bash
# Thirty-first session, call 6: ncu at 131072 x 1001 (bf16) of the warp rows
# ranked there (U 8) and the staged-weights persistent warps (30% fewer
# instructions in their loops, the same time: what holds them?).
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup
echo "rmsnorm_swiglu 131072 1001" > $R/one.txt
for v in rmsnorm_swiglu_bf16_loop_warp_r4_v8_u8_pairs_p rmsnorm_swiglu_bf16_warps_r4_p8_u4_2k; do
  el "$v"
  timeout $(left 150) ncu -k "regex:^$v\$" --launch-skip 2 --launch-count 1 \
    --section SpeedOfLight --section Occupancy --section WarpStateStats --section SchedulerStats \
    --section LaunchStats --section MemoryWorkloadAnalysis \
    build/bin/kp tune --device 0 --families rmsnorm_swiglu --dtypes bf16 --reps 3 \
    --shapes $R/one.txt -q -o $R/x.tune > $R/ncu_$v.log 2>&1
  grep -E "Duration|DRAM Throughput|Issue Slots Busy|Executed Ipc A|Achieved Occupancy|Theoretical Occ|Registers Per|Stall Long|Warp Cycles Per Issued|No Eligible|Eligible Warps|Active Warps Per|L1/TEX Hit|L2 Hit|Mem Busy|Max Bandwidth|Block Limit" $R/ncu_$v.log | head -30
done
lanes_finish
