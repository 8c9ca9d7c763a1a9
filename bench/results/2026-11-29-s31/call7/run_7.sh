#!/bin/bash
# Thirty-first session, call 7: the staged-weights warps as one block of
# 16-32 warps an SM (one copy of the weights an SM: call 6's ncu put the 4-
# warp blocks' 16 KiB copies at 35% L1 hits, against 75% for the warp rows),
# `_warps_r32_p1`, `_warps_r16_p{1,2}`: float64, memcheck, kp tune at 1001-
# 2001.
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup
el "float64"
CUDA_VISIBLE_DEVICES=0 KP_REQUIRE_GPU=1 CK_RUN_SUITE=variants_gpu KP_TEST_ONLY='_warps_' \
  timeout $(left 30) build/tests/check_kernpack > $R/var.log 2>&1; echo "var rc=$?"
grep -E "Checks|:[EF]:" $R/var.log | head -3 | cut -c1-250
san memcheck variants_gpu '_warps_r32|_warps_r16' mem.log 70
cat > $R/shapes.txt <<'S'
rmsnorm_swiglu 131072 1001
rmsnorm_swiglu 98304 1501
rmsnorm_swiglu 65536 2001
S
el "tune"
timeout $(left 150) build/bin/kp tune --device 0 --families rmsnorm_swiglu \
  --dtypes bf16 --shapes $R/shapes.txt -o $R/c7.tune > $R/tune.log 2>&1
echo "tune rc=$?"
for s in $(awk '{print $3}' $R/c7.tune | sort -u); do
  grep " $s " $R/c7.tune | sort -k6 -n | head -6 | awk '{print $3, $5, $6}'; done
lanes_finish
