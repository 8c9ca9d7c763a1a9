#!/bin/bash
# fifty-eighth session, call 4: call 3's probe again (torch's context made
# current first; call 3 ran it before and failed)
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup || exit 1
el "probe"
timeout $(left 200) python3 bench/results/2026-12-02-s58/call3/ld_probe.py > $R/probe.log 2>&1; echo "probe rc=$?"
grep -vE "$F" $R/probe.log | tail -8
# RMSNorm+SwiGLU's pick at odd 16384 x 4097 (77% of copy; 10 warps an SM):
# speed of light, occupancy, warp states
el "ncu rsw"
timeout $(left 420) ncu --target-processes all --clock-control none --section SpeedOfLight --section Occupancy \
  --section LaunchStats --section WarpStateStats --section MemoryWorkloadAnalysis -k "regex:^rmsnorm_swiglu_bf16_" -s 3 -c 1 \
  python3 bench/side_by_side.py --ops rmsnorm_swiglu --shapes 16384x4097 --no-compile --reps 4 --warmup 2 \
  > $R/ncu_rsw.txt 2> $R/ncu_rsw.err
echo "rc=$?"; grep -E "^ +(Duration|Memory Throughput|DRAM Throughput|Compute|Achieved|Theoretical Occ|Registers|Block Size|Grid Size|Waves|Dynamic Shared|Stall|Warp Cycles|Issued|Mem Busy|Max Bandwidth|L1/TEX Hit|L2 Hit)" $R/ncu_rsw.txt | cut -c1-110
lanes_finish
