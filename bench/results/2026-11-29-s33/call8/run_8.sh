#!/bin/bash
# Thirty-third session, call 8: RMSNorm+SwiGLU's image warps with two to
# eight warps a row (`_k<wpr>`, a row's warps summing through shared memory
# at its named barrier), rows of 4K-16K outputs; for the tuner.
# - float64 over every `_blk_k` variant; memcheck, racecheck, synccheck
#   (65536 barriers) over them;
# - kp tune at 16384 x 4097, 8192 x 7001, 16384 x 8001, 8192 x 11007,
#   4096 x 16001 (reps 5).
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup
el "float64"
CUDA_VISIBLE_DEVICES=0 KP_REQUIRE_GPU=1 CK_RUN_SUITE=variants_gpu KP_TEST_ONLY='_blk_k' \
  timeout $(left 30) build/tests/check_kernpack > $R/var.log 2>&1; echo "var rc=$?"
grep -E "Checks|:[EF]:|ran no" $R/var.log | head -3 | cut -c1-250
san memcheck variants_gpu _blk_k mem.log 45
san racecheck variants_gpu _blk_k race.log 70
SAN_OPTS="--num-cuda-barriers 65536" san synccheck variants_gpu _blk_k sync.log 90
printf 'rmsnorm_swiglu 8192 7001\nrmsnorm_swiglu 16384 8001\nrmsnorm_swiglu 16384 4097\nrmsnorm_swiglu 8192 11007\nrmsnorm_swiglu 4096 16001\n' > $R/s.txt
el "tune"
timeout $(left 180) build/bin/kp tune --device 0 --families rmsnorm_swiglu --reps 5 --dtypes bf16 \
  --time-budget 110 \
  --shapes $R/s.txt -q -o $R/c8.tune > $R/t.log 2>&1; echo "tune rc=$?"
for s in $(awk '{print $3}' $R/c8.tune | grep x | sort -t x -k2,2n -u); do
  grep " $s " $R/c8.tune | sort -k6 -n | head -3 | awk '{print $3, $5, $6}'
  grep " $s " $R/c8.tune | grep "_blk_k" | sort -k6 -n | head -3 | awk '{print "  ", $5, $6}'
done
lanes_finish
