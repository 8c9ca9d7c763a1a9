#!/bin/bash
# s62 call 2: dbb1300 (a plain persistent grid capped at the CTAs that fit
# an SM): (1) the whole GPU suite; (2) the split-KV decode variants' every-
# variant case with the log on (the driver's count of their CTAs an SM);
# (3) ncu over RMSNorm+SwiGLU at 4096 x 18943 (odd, 70% of copy in the odd
# sweep) and 4096 x 18944 (aligned): where the odd rows' staged kernel loses.
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup || exit 1
GPU=0
el "suite"
gpu_suite tests.log 400
grep -E "fit an SM here|TIME" $R/tests.log | head -40 | cut -c1-200
el "sk with the log"
CUDA_VISIBLE_DEVICES=0 KP_REQUIRE_GPU=1 KP_LOG=info CK_RUN_SUITE=attention_gpu CK_RUN_CASE=attention \
  KP_TEST_ONLY="_sk" timeout $(left 480) build/tests/check_kernpack > $R/sk_log.log 2>&1
echo "sk rc=$? $(grep -E '^[0-9]+%: Checks' $R/sk_log.log)"
grep -E "CTAs an SM fit" $R/sk_log.log | sed 's/^.*kernpack[^:]*: //' | sort | uniq -c | head -12 | cut -c1-200
for s in 4096x18943; do
  el "ncu rsw $s"
  timeout $(left 540) ncu --section SpeedOfLight --section MemoryWorkloadAnalysis --section WarpStateStats \
    --section SchedulerStats --section Occupancy --section LaunchStats -k regex:rmsnorm_swiglu -s 12 -c 1 --csv \
    --page details python3 bench/side_by_side.py --ops rmsnorm_swiglu --shapes $s --no-compile --reps 20 \
    > $R/ncu_rsw_$s.csv 2> $R/ncu_rsw_$s.err
  echo "ncu $s rc=$?"
  grep -E "Kernel Name|Duration|DRAM Throughput|Memory Throughput|L1/TEX Cache Throughput|L2 Cache Throughput|Compute \(SM\) Throughput|Issue Slots Busy|No Eligible|Achieved Occupancy|Registers Per|Block Limit|Warp Cycles Per Issued|Stall" $R/ncu_rsw_$s.csv | awk -F'","' '{print $(NF-2)": "$NF}' | head -30 | cut -c1-150
done
lanes_finish
