#!/bin/bash
# GPU call 7 (2026-11-26, fourteenth session): what holds the odd-row norms
# below the aligned ones (rmsnorm 8192 x 11007 at 83% of copy, 11008 at 96%)
# and where the new softmax loop stands past 128K -- ncu, one kernel each
# (the code of call 6).
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup
NS="--section SpeedOfLight --section MemoryWorkloadAnalysis --section Occupancy --section LaunchStats --section WarpStateStats --section SchedulerStats --section InstructionStats"
prof() { # op shape tag
  CUDA_VISIBLE_DEVICES=$GPU timeout 60 ncu $NS --metrics dram__bytes_read.sum,dram__bytes_write.sum,smsp__inst_executed.sum \
    -k "regex:^$1_bf16_" -s 3 -c 1 python3 bench/side_by_side.py --ops $1 --shapes $2 --no-compile \
    --reps 3 --warmup 2 > $R/ncu_$1_$3.log 2>&1
  echo "ncu $1 $2 rc=$? $(grep -E '^\s+[a-z_]+_bf16_\S+ \(' $R/ncu_$1_$3.log | awk '{print $1}') $(grep -E 'Duration|DRAM Throughput|dram__bytes|inst_executed.sum|Issued Warp' $R/ncu_$1_$3.log | awk '{print $1"="$NF}' | tr '\n' ' ')"
}
lane0() {
  GPU=0
  prof rmsnorm 8192x11007 odd11007; prof rmsnorm 8192x11008 al11008
  prof add_rmsnorm 8192x11007 odd11007; prof add_rmsnorm 8192x11008 al11008
  el "lane0 done"
}
lane1() {
  GPU=1
  prof softmax 512x199999 odd199999; prof softmax 1024x128257 odd128257
  prof rmsnorm 16384x4097 odd4097; prof rmsnorm 16384x4096 al4096
  el "lane1 done"
}
lane0 > $R/lane0.log 2>&1 &
P0=$!
lane1 > $R/lane1.log 2>&1 &
P1=$!
wait $P0 $P1
cat $R/lane0.log $R/lane1.log
lanes_finish
