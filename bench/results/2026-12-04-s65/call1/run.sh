#!/bin/bash
# s65 call 1: the shared-memory carveout hint (KP_CARVEOUT, percent of the
# SM's 228 KiB) over the staged row kernels at long odd rows: does an L1
# large enough for w's slices (w's L2 reads are ~40% of RMSNorm+SwiGLU's
# write pass) pay for the CTAs a smaller carveout costs?  (1) one round a
# carveout, bf16, RMSNorm+SwiGLU / RMSNorm / add+RMSNorm at 7 long odd
# shapes, the default first and last; (2) ncu (no source counters) of the
# RMSNorm+SwiGLU pick at 4096 x 18943, default against 58 (132 KiB).
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup || exit 1
SH=8192x16385,4096x18943,4096x32001,2048x50257,1024x128257,512x151937,512x199999
n=0
for co in -1 58 72 86 100 44 -1; do
  n=$((n + 1))
  el "carveout $co"
  if [ $co = -1 ]; then unset KP_CARVEOUT; else export KP_CARVEOUT=$co; fi
  timeout "$(left 400)" python3 bench/side_by_side.py --ops rmsnorm_swiglu,rmsnorm,add_rmsnorm \
    --dtypes bf16 --shapes $SH --no-compile --reps 20 --warmup 4 --json "$R/co${co}_$n.json" \
    >"$R/co${co}_$n.log" 2>&1
  echo "co $co rc=$? $(grep -E '^  ours' "$R/co${co}_$n.log" | cut -c1-24 | tr -s ' ' | paste -sd' ')"
done
unset KP_CARVEOUT
S="--section SpeedOfLight --section MemoryWorkloadAnalysis --section MemoryWorkloadAnalysis_Tables --section Occupancy --section LaunchStats"
for co in -1 58; do
  el "ncu $co"
  if [ $co = -1 ]; then unset KP_CARVEOUT; else export KP_CARVEOUT=$co; fi
  timeout "$(left 540)" ncu --clock-control none $S -k regex:rmsnorm_swiglu -s 6 -c 1 -o "$R/ncu$co" \
    python3 bench/side_by_side.py --ops rmsnorm_swiglu --shapes 4096x18943 --no-compile --reps 10 >"$R/ncu$co.log" 2>&1
  echo "ncu $co rc=$?"
  ncu -i "$R/ncu$co.ncu-rep" --page details --csv >"$R/ncu${co}_details.csv" 2>&1
  grep -E '"(Duration|L1/TEX Hit Rate|L2 Cache Throughput|Max Bandwidth|Shared Memory Configuration Size|Achieved Occupancy|Block Limit Shared Mem)"' "$R/ncu${co}_details.csv" | awk -F'","' '{print $13": "$15}'
done
lanes_finish
