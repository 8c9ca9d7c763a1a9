#!/bin/bash
# Thirty-second session, call 2: RMSNorm+SwiGLU's `_img` warps (each warp's
# row kept in shared memory from pass 1) over more shapes of block: 1K
# outputs 8 x 3, 16 x 2, 32 x 1 warps x blocks an SM; 1536: 8 x 3, 16 x 2;
# 2K: 8 x 2, 16 x 1 (call 1: 8 x 4 of 1K ran 131072 x 1001 in 205.2 us
# against the ranked warp rows' 214.3; 4 x 8 242.5).
# - float64 over every `_img` variant, memcheck and racecheck over them;
# - kp tune (reps 9) of odd rows of 521-2001;
# - ncu of the 1K image variants of 8 x 4 and 4 x 8 at 131072 x 1001.
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup
GPU=0
el "float64"
CUDA_VISIBLE_DEVICES=0 KP_REQUIRE_GPU=1 CK_RUN_SUITE=variants_gpu KP_TEST_ONLY='_img' \
  timeout $(left 40) build/tests/check_kernpack > $R/var.log 2>&1; echo "var rc=$?"
grep -E "Checks|:[EF]:" $R/var.log | head -3 | cut -c1-250
san memcheck variants_gpu _img mem.log 90
san racecheck variants_gpu _img race.log 140
cat > $R/shapes.txt <<'S'
rmsnorm_swiglu 131072 521
rmsnorm_swiglu 131072 641
rmsnorm_swiglu 131072 769
rmsnorm_swiglu 131072 897
rmsnorm_swiglu 131072 1001
rmsnorm_swiglu 131072 1023
rmsnorm_swiglu 131072 1201
rmsnorm_swiglu 131072 1301
rmsnorm_swiglu 98304 1501
rmsnorm_swiglu 65536 1801
rmsnorm_swiglu 65536 2001
S
el "tune"
timeout $(left 470) build/bin/kp tune --device 0 --families rmsnorm_swiglu --reps 9 \
  --dtypes bf16 --shapes $R/shapes.txt -o $R/c2.tune > $R/tune.log 2>&1
echo "tune rc=$?"
for s in $(awk '{print $3}' $R/c2.tune | grep x | sort -u); do
  grep " $s " $R/c2.tune | sort -k6 -n | head -4 | awk '{print $3, $5, $6}'; done
echo "rmsnorm_swiglu 131072 1001" > $R/one.txt
for v in r8_p4 r4_p8; do
  el "ncu $v"
  timeout $(left 545) ncu -k "regex:^rmsnorm_swiglu_bf16_warps_${v}_u4_1k_img\$" --launch-skip 1 --launch-count 1 \
    --section SpeedOfLight --section Occupancy --section WarpStateStats --section SchedulerStats \
    --section MemoryWorkloadAnalysis build/bin/kp tune --device 0 --families rmsnorm_swiglu \
    --dtypes bf16 --reps 3 --shapes $R/one.txt -q -o $R/x.tune > $R/ncu_$v.log 2>&1
  grep -E "Duration|DRAM Throughput|L1/TEX Hit|L2 Hit|L1/TEX Cache Throughput|L2 Cache Throughput|Issued Warp Per|No Eligible|Achieved Active|Shared Memory" $R/ncu_$v.log | head -14
done
lanes_finish
