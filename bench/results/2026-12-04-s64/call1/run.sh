#!/bin/bash
# s64 call 1: ncu over RMSNorm+SwiGLU at 4096 x 18943 (odd pick: stage pairs;
# and the peeled loop forced) and 4096 x 18944 (aligned pick: loop_t512_v8),
# clocks left as they are, with source counters (SASS CSVs) and the memory /
# warp-state sections.
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup || exit 1
S="--section SourceCounters --section InstructionStats --section SpeedOfLight --section WarpStateStats --section MemoryWorkloadAnalysis --section MemoryWorkloadAnalysis_Tables --section Occupancy --section LaunchStats --section SchedulerStats --section ComputeWorkloadAnalysis"
run() { # TAG SHAPE VARIANT DEADLINE
  el "ncu $1"
  KP_VARIANT=$3 timeout "$(left $4)" ncu --clock-control none $S -k regex:rmsnorm_swiglu -s 12 -c 1 -o "$R/$1" \
    python3 bench/side_by_side.py --ops rmsnorm_swiglu --shapes "$2" --no-compile --reps 20 >"$R/$1.log" 2>&1
  echo "ncu $1 rc=$?"
  ncu -i "$R/$1.ncu-rep" --page source --csv --print-source sass >"$R/$1_src.csv" 2>&1
  ncu -i "$R/$1.ncu-rep" --page details --csv >"$R/$1_details.csv" 2>&1
  xz -T4 "$R/$1_src.csv"
  grep -E '"(Duration|Executed Instructions|DRAM Throughput|No Eligible|Registers Per Thread|Achieved Occupancy)"' "$R/$1_details.csv" | awk -F'","' '{print $13": "$15}' | head -8
}
run odd 4096x18943 "" 150
run ali 4096x18944 "" 290
run oddloop 4096x18943 rmsnorm_swiglu_bf16_loop_t512_v8_p 420
lanes_finish
