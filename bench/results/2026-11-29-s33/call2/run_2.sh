#!/bin/bash
# Thirty-third session, call 2: RMSNorm+SwiGLU's bulk-copy image warps
# (`_blk`) over more block shapes and rows of 4K-8K outputs, and two images
# a warp (`_db`, the next row's copy in flight); the image picks' SASS moved
# (the loop's image pointer hoisted).
# - float64 over every `_warps_` variant (the f32 case fails by design);
#   memcheck, racecheck, synccheck over every `_blk` variant;
# - kp tune of RMSNorm+SwiGLU over odd rows of 521-8001 (reps 5).
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup
el "float64"
CUDA_VISIBLE_DEVICES=0 KP_REQUIRE_GPU=1 CK_RUN_SUITE=variants_gpu KP_TEST_ONLY='_warps_' \
  timeout $(left 60) build/tests/check_kernpack > $R/var.log 2>&1; echo "var rc=$?"
grep -E "Checks|:[EF]:|ran no" $R/var.log | head -5 | cut -c1-250
san memcheck variants_gpu _blk mem.log 100
san racecheck variants_gpu _blk race.log 150
san synccheck variants_gpu _blk sync.log 190
cat > $R/shapes.txt <<'S'
rmsnorm_swiglu 131072 521
rmsnorm_swiglu 131072 769
rmsnorm_swiglu 131072 1001
rmsnorm_swiglu 131072 1201
rmsnorm_swiglu 98304 1501
rmsnorm_swiglu 65536 1601
rmsnorm_swiglu 65536 1801
rmsnorm_swiglu 65536 2001
rmsnorm_swiglu 65536 2501
rmsnorm_swiglu 65536 3001
rmsnorm_swiglu 32768 3501
rmsnorm_swiglu 32768 4097
rmsnorm_swiglu 32768 5001
rmsnorm_swiglu 16384 6001
rmsnorm_swiglu 16384 8001
S
el "tune"
timeout $(left 560) build/bin/kp tune --device 0 --families rmsnorm_swiglu --reps 5 \
  --dtypes bf16 --shapes $R/shapes.txt -o $R/c2.tune > $R/tune.log 2>&1
echo "tune rc=$?"
for s in $(awk '{print $3}' $R/c2.tune | grep x | sort -t x -k2,2n -k1,1n -u); do
  grep " $s " $R/c2.tune | sort -k6 -n | head -4 | awk '{print $3, $5, $6}'
  grep " $s " $R/c2.tune | grep -vE "_blk|_img" | sort -k6 -n | head -1 | awk '{print "  nonimg", $5, $6}'
done
lanes_finish
