#!/bin/bash
# Thirty-fourth session, call 3: where the row families' odd rows lose on an
# H200 -- every variant's time (kp tune) and ncu of the picks: RMSNorm and
# softmax at 512 x 151937 and 2048 x 50257, RMSNorm at 16384 x 4097.
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup
GPU=0
cat > $R/shapes.txt <<'S'
rmsnorm 16384 4097
rmsnorm 2048 50257
rmsnorm 512 151937
softmax 2048 50257
softmax 512 151937
S
el "tune"
timeout $(left 250) build/bin/kp tune --device 0 --families rmsnorm,softmax --reps 5 \
  --dtypes bf16 --time-budget 200 --shapes $R/shapes.txt -q -o $R/c3.tune > $R/tune.log 2>&1
echo "tune rc=$?"
for f in rmsnorm softmax; do for s in 16384x4097 2048x50257 512x151937; do
  grep "^$f bf16 $s " $R/c3.tune | sort -k6 -n | head -4 | awk '{print $1, $3, $5, $6}'; done; done
one() { # ncu FAMILY ROWS COLS VARIANT
  echo "$1 $2 $3" > $R/one.txt
  el "ncu $4"
  timeout $(left $5) ncu -k "regex:^$4\$" --launch-skip 1 --launch-count 1 \
    --section SpeedOfLight --section Occupancy --section WarpStateStats --section SchedulerStats \
    --section MemoryWorkloadAnalysis --section LaunchStats build/bin/kp tune --device 0 --families $1 \
    --dtypes bf16 --reps 3 --shapes $R/one.txt -q -o $R/x.tune > $R/ncu_$4_$3.log 2>&1
  grep -E "Duration|DRAM Throughput|L1/TEX Hit|L2 Hit|Issued Warp Per|No Eligible|Achieved Active|Achieved Occ|Block Limit" $R/ncu_$4_$3.log | head -14
  grep -E "^\s+Stall|Warp Cycles Per Issued" $R/ncu_$4_$3.log | head -4
}
one rmsnorm 512 151937 rmsnorm_bf16_stage_t512_v8_u2_s50_c8 330
one rmsnorm 16384 4097 rmsnorm_bf16_stage_t128_v8_u2_s16 400
one softmax 512 151937 softmax_bf16_stage_t512_v8_u2_s100_c4 470
lanes_finish
