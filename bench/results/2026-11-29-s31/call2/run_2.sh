#!/bin/bash
# Thirty-first session, call 2: RMSNorm+SwiGLU's warp rows with the weights
# staged as floats in shared memory (rmsnorm_swiglu_warps, `_warps_`), with
# call 1's loop_u8 and pairs_tail patches (stage_pairs_tail reverted).
# - float64 over every `_warps_` and `_pairs` variant (the f32 case fails by
#   design: the filter names 16-bit variants alone);
# - memcheck and racecheck over `_warps_`;
# - kp tune of RMSNorm+SwiGLU over odd rows of 1001-16001 (every variant's
#   time in c2.tune).
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup
GPU=0
el "float64"
CUDA_VISIBLE_DEVICES=0 KP_REQUIRE_GPU=1 CK_RUN_SUITE=variants_gpu KP_TEST_ONLY='_warps_|_pairs' \
  timeout $(left 80) build/tests/check_kernpack > $R/var.log 2>&1; echo "var rc=$?"
grep -E "Checks|:[EF]:" $R/var.log | head -4 | cut -c1-250
grep -c "warps" $R/var.log
san memcheck variants_gpu _warps_ mem.log 150
san racecheck variants_gpu _warps_ race.log 220
cat > $R/shapes.txt <<'S'
rmsnorm_swiglu 131072 1001
rmsnorm_swiglu 131072 1201
rmsnorm_swiglu 98304 1501
rmsnorm_swiglu 65536 2001
rmsnorm_swiglu 49152 2501
rmsnorm_swiglu 32768 3001
rmsnorm_swiglu 16384 4097
rmsnorm_swiglu 16384 6001
rmsnorm_swiglu 8192 8001
rmsnorm_swiglu 8192 11007
S
el "tune"
timeout $(left 540) build/bin/kp tune --device 0 --families rmsnorm_swiglu \
  --dtypes bf16 --shapes $R/shapes.txt -o $R/c2.tune > $R/tune.log 2>&1
echo "tune rc=$?"; grep -E "default" $R/tune.log | cut -c1-220
for s in 131072x1001 131072x1201 98304x1501 65536x2001 49152x2501 32768x3001 16384x4097 16384x6001 8192x8001; do
  grep " $s " $R/c2.tune | sort -k6 -n | head -4 | awk '{print $3, $5, $6}'; done
lanes_finish
