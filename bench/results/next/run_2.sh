#!/bin/bash
# A later call of the next session (written by the thirty-eighth session,
# NOTES item 73): the skinny GEMV's ~2 us behind cuBLAS, side by side under
# ncu at 1 x 11008 x 4096 and 16 x 14336 x 4096 (bf16): our pick and
# cuBLAS's nvjet kernel, the same operands (bench/ncu_gemm.py), DRAM and L2
# throughput and bytes, the warp states (the one producer thread's stalls),
# the launch and occupancy.  Run from build/carry/ as the other call scripts.
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup || exit 1
S="SpeedOfLight,MemoryWorkloadAnalysis,MemoryWorkloadAnalysis_Tables,WarpStateStats,SchedulerStats,LaunchStats,Occupancy"
i=0
for shape in "1 11008 4096" "16 14336 4096"; do
  i=$((i + 1))
  tag=$(echo $shape | tr ' ' x)
  el "ncu $tag"
  CUDA_VISIBLE_DEVICES=0 timeout $(left $((240 * i))) ncu --clock-control none $(printf -- '--section %s ' ${S//,/ }) \
    -k regex:'gemm_|nvjet' -c 10 python3 bench/ncu_gemm.py $shape --cublas > $R/ncu_$tag.log 2>&1
  echo "ncu $tag rc=$?"
  grep -E "^  [a-z_]+.*\(|Duration|DRAM Throughput|Memory Throughput|L2 Hit|Eligible|Active Warps" \
    $R/ncu_$tag.log | cut -c1-120 | head -60
done
lanes_finish
