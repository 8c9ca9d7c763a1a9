#!/bin/bash
# s39 call 1: the GEMV's per-CTA timeline (gemv_clk.patch's _clk twins) and
# the GEMV against cuBLAS's kernel under ncu (bench/results/next/run_2.sh).
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup || exit 1
el "clk"
CUDA_VISIBLE_DEVICES=0 timeout $(left 150) python3 bench/gemv_clk.py > $R/clk.log 2>&1
echo "clk rc=$?"; cat $R/clk.log | cut -c1-150
S="SpeedOfLight,MemoryWorkloadAnalysis,MemoryWorkloadAnalysis_Tables,WarpStateStats,SchedulerStats,LaunchStats,Occupancy"
i=0
for shape in "1 11008 4096" "16 14336 4096"; do
  i=$((i + 1))
  tag=$(echo $shape | tr ' ' x)
  el "ncu $tag"
  CUDA_VISIBLE_DEVICES=0 timeout $(left $((150 + 120 * i))) ncu --clock-control none $(printf -- '--section %s ' ${S//,/ }) \
    -k regex:'gemm_|nvjet' -c 10 python3 bench/ncu_gemm.py $shape --cublas > $R/ncu_$tag.log 2>&1
  echo "ncu $tag rc=$?"
  grep -E "^  [a-z_]+.*\(|Duration|DRAM Throughput|Memory Throughput|L2 Hit|Eligible|Active Warps" \
    $R/ncu_$tag.log | cut -c1-120 | tail -24
done
lanes_finish
