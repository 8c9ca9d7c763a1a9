#!/bin/bash
# Thirty-second session, call 4: RMSNorm+SwiGLU's image warps with the
# weights staged as 16-bit pairs (`_w16`, 4 bytes a column where floats took
# 8): 2K outputs 8 x 3 (24 warps an SM; float weights fit 8 x 2), 1536 8 x 4,
# 1K 8 x 4 and 16 x 2.
# - float64 over every `_w16` variant, memcheck and racecheck over them;
# - kp tune (reps 9) of odd rows of 769-2001 (every variant's time).
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup
GPU=0
el "float64"
CUDA_VISIBLE_DEVICES=0 KP_REQUIRE_GPU=1 CK_RUN_SUITE=variants_gpu KP_TEST_ONLY='_w16' \
  timeout $(left 40) build/tests/check_kernpack > $R/var.log 2>&1; echo "var rc=$?"
grep -E "Checks|:[EF]:" $R/var.log | head -3 | cut -c1-250
san memcheck variants_gpu _w16 mem.log 90
san racecheck variants_gpu _w16 race.log 140
cat > $R/shapes.txt <<'S'
rmsnorm_swiglu 131072 769
rmsnorm_swiglu 131072 1001
rmsnorm_swiglu 131072 1201
rmsnorm_swiglu 98304 1501
rmsnorm_swiglu 65536 1601
rmsnorm_swiglu 65536 1801
rmsnorm_swiglu 65536 2001
rmsnorm_swiglu 8192 2001
S
el "tune"
timeout $(left 400) build/bin/kp tune --device 0 --families rmsnorm_swiglu --reps 9 \
  --dtypes bf16 --shapes $R/shapes.txt -o $R/c4.tune > $R/tune.log 2>&1
echo "tune rc=$?"
for s in $(awk '{print $3}' $R/c4.tune | grep x | sort -t x -k2,2n -k1,1n -u); do
  grep " $s " $R/c4.tune | sort -k6 -n | head -4 | awk '{print $3, $5, $6}'
  grep " $s " $R/c4.tune | grep -E "r16_p2_u4_1k_img |r8_p3_u4_1536_img |r4_p6_u8_2k |loop_warp_r4_v8_u4_pairs_p " | awk '{print "  ", $5, $6}'; done
lanes_finish
