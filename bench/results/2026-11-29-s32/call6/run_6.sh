#!/bin/bash
# Thirty-second session, call 6: image warps with 16-bit weights for rows
# of up to 1280 (8 x 4, 16 x 2), 2560 (8 x 2) and 3K (8 x 2, 4 x 4)
# outputs, against the picks at 1201 and 2501-3001.
# - float64 over every `_w16` variant, memcheck over them;
# - kp tune (reps 9).
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup
GPU=0
el "float64"
CUDA_VISIBLE_DEVICES=0 KP_REQUIRE_GPU=1 CK_RUN_SUITE=variants_gpu KP_TEST_ONLY='_w16' \
  timeout $(left 40) build/tests/check_kernpack > $R/var.log 2>&1; echo "var rc=$?"
grep -E "Checks|:[EF]:" $R/var.log | head -3 | cut -c1-250
san memcheck variants_gpu _w16 mem.log 90
cat > $R/shapes.txt <<'S'
rmsnorm_swiglu 131072 1201
rmsnorm_swiglu 65536 2301
rmsnorm_swiglu 65536 2501
rmsnorm_swiglu 65536 3001
S
el "tune"
timeout $(left 330) build/bin/kp tune --device 0 --families rmsnorm_swiglu --reps 9 \
  --dtypes bf16 --shapes $R/shapes.txt -o $R/c6.tune > $R/tune.log 2>&1
echo "tune rc=$?"
for s in $(awk '{print $3}' $R/c6.tune | grep x | sort -t x -k2,2n -k1,1n -u); do
  grep " $s " $R/c6.tune | sort -k6 -n | head -4 | awk '{print $3, $5, $6}'
  grep " $s " $R/c6.tune | grep -E "_img_w16 |r8_p3_u4_1536_img |loop_t128_v8_pairs_p |loop_t128_v8_u8_pairs_p " | awk '{print "  ", $5, $6}'; done
lanes_finish
