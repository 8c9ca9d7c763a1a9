#!/bin/bash
# Next session's first call (written by the thirty-first session, NOTES item
# 65): on an H100 if one is lent (none since the twenty-sixth session), else
# an H200.  Before it:
#   git apply bench/results/next/warps_img.patch   (RMSNorm+SwiGLU's staged-
#     weights warps with each warp's row also held in shared memory as read
#     in pass 1, `_img`: pass 2 reads x from there, not again through L1 and
#     L2 -- item 65's ncu put those re-reads, not issue, at the limit.
#     sm_90a, for the tuner: 1K outputs 4 and 8 warps a block, 1536 and 2K
#     4 warps;
#     56-58 registers, no spills; compiled, not run.  Also the staged
#     warps without the image for rows of up to 1K (8 KiB of weights a
#     block, more of L1 left).  The ranked 2K variant's SASS moves a little
#     with it: same 2504 lines, a few compares reordered)
# then make, copy this script to build/carry/ and carry the packs as
# build/carry/packs.tar.xz (bench/lanes.sh; re-pack after make: the
# thirty-first session's call 2 carried stale packs).  Run it as it is:
# lanes_finish packs what comes back (a command after it packs an empty
# r/ over it, as in that session's call 1).
# - float64 over every `_warps_` variant (the f32 case fails by design: the
#   filter names 16-bit variants alone); memcheck and racecheck over `_img`;
# - kp tune of RMSNorm+SwiGLU over odd rows of 1001-2001 (every variant's
#   time in c1.tune), then ncu of the 1K image variant at 131072 x 1001 (L1
#   hits, L2 throughput, issue: compare call6/ of the thirty-first session).
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup
GPU=0
el "float64"
CUDA_VISIBLE_DEVICES=0 KP_REQUIRE_GPU=1 CK_RUN_SUITE=variants_gpu KP_TEST_ONLY='_warps_' \
  timeout $(left 40) build/tests/check_kernpack > $R/var.log 2>&1; echo "var rc=$?"
grep -E "Checks|:[EF]:" $R/var.log | head -3 | cut -c1-250
gpu_suite ops.log 110 ops_gpu
gpu_suite graph.log 150 graph_gpu
san memcheck variants_gpu _img mem.log 200
san racecheck variants_gpu _img race.log 250
cat > $R/shapes.txt <<'S'
rmsnorm_swiglu 131072 1001
rmsnorm_swiglu 131072 1201
rmsnorm_swiglu 98304 1501
rmsnorm_swiglu 65536 1801
rmsnorm_swiglu 65536 2001
S
el "tune"
timeout $(left 420) build/bin/kp tune --device 0 --families rmsnorm_swiglu \
  --dtypes bf16 --shapes $R/shapes.txt -o $R/c1.tune > $R/tune.log 2>&1
echo "tune rc=$?"
for s in $(awk '{print $3}' $R/c1.tune | sort -u); do
  grep " $s " $R/c1.tune | sort -k6 -n | head -5 | awk '{print $3, $5, $6}'; done
echo "rmsnorm_swiglu 131072 1001" > $R/one.txt
v=rmsnorm_swiglu_bf16_warps_r4_p8_u4_1k_img
el "ncu $v"
timeout $(left 500) ncu -k "regex:^$v\$" --launch-skip 2 --launch-count 1 \
  --section SpeedOfLight --section Occupancy --section WarpStateStats --section SchedulerStats \
  --section MemoryWorkloadAnalysis build/bin/kp tune --device 0 --families rmsnorm_swiglu \
  --dtypes bf16 --reps 3 --shapes $R/one.txt -q -o $R/x.tune > $R/ncu.log 2>&1
grep -E "Duration|DRAM Throughput|L1/TEX Hit|L2 Hit|L1/TEX Cache Throughput|L2 Cache Throughput|Issued Warp Per|No Eligible|Achieved Active" $R/ncu.log | head -12
lanes_finish
