#!/bin/bash
# Next session's first call (written by the thirtieth session, NOTES item
# 64): on an H100 if one is lent (none since the twenty-sixth session), else
# an H200.  Before it:
#   git apply bench/results/next/loop_u8.patch   (RMSNorm+SwiGLU's 4-byte-
#     grid loops of 128 and 256 threads with U 8, for the tuner: a row's
#     pass 1 in one step, half the threads for the row's fixed work)
#   git apply bench/results/next/pairs_tail.patch   (the pairs pass's end
#     of a row: the head and tail columns in one scalar path, not two in
#     turn; whole steps while every thread's are whole, so no warp runs
#     both a whole and the guarded step -- at 1001 outputs lanes 0-18 took
#     a fourth whole step and the rest the guarded one.  Every pairs loop,
#     so the picks' times move with it; tune once without it first if the
#     device time allows)
#   git apply bench/results/next/stage_pairs_tail.patch   (the staged pairs
#     pass the same way: one guarded step where a loop of single pairs
#     waited on w's loads once a pair, up to U - 1 times in turn; the
#     512-thread `_pairs` stage variants go from 40 to 49 registers -- at 36
#     KiB slices 2 CTAs an SM instead of 3: watch 1024 x 128257)
# then make, copy this script to build/carry/ and carry the packs as
# build/carry/packs.tar.xz (bench/lanes.sh).
# - float64 over every RMSNorm+SwiGLU variant; memcheck and racecheck over
#   every 4-byte-grid variant, loops and staged (their f32 case fails by
#   design: the filter names 16-bit variants alone);
# - kp tune of RMSNorm+SwiGLU over odd rows of 1001-16001 (the thirtieth
#   session's rankings on this GPU; loop_u8's variants at 3001-8001), and
#   of the long odd rows (the staged pairs after stage_pairs_tail.patch);
# (The decode rows, measured in the thirtieth session's call 1, are left
# out: the steps above fill the call.)
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup
GPU=0
el "float64"
CUDA_VISIBLE_DEVICES=0 KP_REQUIRE_GPU=1 CK_RUN_SUITE=variants_gpu KP_TEST_ONLY=rmsnorm_swiglu \
  timeout $(left 60) build/tests/check_kernpack > $R/var.log 2>&1; echo "var rc=$?"
grep -E "Checks|:[EF]:" $R/var.log | head -4 | cut -c1-250
san memcheck variants_gpu _pairs mem.log 200
san racecheck variants_gpu _pairs race.log 300
cat > $R/shapes.txt <<'S'
rmsnorm_swiglu 131072 1001
rmsnorm_swiglu 98304 1501
rmsnorm_swiglu 65536 2001
rmsnorm_swiglu 32768 3001
rmsnorm_swiglu 16384 4097
rmsnorm_swiglu 16384 6001
rmsnorm_swiglu 8192 8001
rmsnorm_swiglu 8192 11007
rmsnorm_swiglu 4096 16001
rmsnorm_swiglu 2048 50257
rmsnorm_swiglu 1024 128257
rmsnorm_swiglu 512 151937
rmsnorm_swiglu 512 199999
add_rmsnorm 1024 128257
S
el "tune"
timeout $(left 560) build/bin/kp tune --device 0 --families add_rmsnorm,rmsnorm_swiglu \
  --dtypes bf16 --shapes $R/shapes.txt -o $R/next.tune > $R/tune.log 2>&1
echo "tune rc=$?"; grep -E "default" $R/tune.log | cut -c1-200
lanes_finish
