#!/bin/bash
# Next session's first call (written by the thirty-second session, NOTES item
# 66): on an H100 if one is lent (none since the twenty-sixth session), else
# an H200.  Before it:
#   git apply bench/results/next/warps_blk.patch   (RMSNorm+SwiGLU's image
#     warps with the image filled by one cp.async.bulk a row (`_blk`,
#     rmsnorm_swiglu_bsumsq): lane 0 copies the row's whole 16-byte vectors,
#     the lanes its head and tail elements, pass 1 sums from shared memory.
#     x reaches the image without registers or L1 -- item 66's ncu had the
#     L1/TEX pipe at 85% under the register image.  Twins of the six picks
#     (and 1K 8 x 4 and 4 x 8: the latter, 205 KiB of shared memory, ran
#     18% behind 8 x 4 with the register image -- does the bulk copy,
#     not through L1, care?), sm_90a, for the tuner; 56-61 registers, no spills;
#     compiled and CPU-tested (243 checks, tools_cpu), not run)
# then make, copy this script to build/carry/ and carry the packs as
# build/carry/packs.tar.xz (bench/lanes.sh; re-pack after make).  Run it as
# it is: lanes_finish packs what comes back.
# - float64 over every `_blk` variant (the f32 case fails by design: the
#   filter names 16-bit variants alone); memcheck, racecheck, synccheck over
#   them; racecheck also over every `_w16` variant (the 1280 / 2560 / 3K
#   ones, three of them picks, had memcheck alone in the thirty-second
#   session);
# - kp tune of RMSNorm+SwiGLU over odd rows of 521-3001 (every variant's
#   time in c1.tune: each `_blk` against its register twin);
# - ncu of the 1K pick and its `_blk` twin at 131072 x 1001 (L1/TEX
#   throughput, issue, DRAM).
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup
GPU=0
el "float64"
CUDA_VISIBLE_DEVICES=0 KP_REQUIRE_GPU=1 CK_RUN_SUITE=variants_gpu KP_TEST_ONLY='_blk' \
  timeout $(left 40) build/tests/check_kernpack > $R/var.log 2>&1; echo "var rc=$?"
grep -E "Checks|:[EF]:" $R/var.log | head -3 | cut -c1-250
san memcheck variants_gpu _blk mem.log 80
san racecheck variants_gpu "_blk|_w16" race.log 150
san synccheck variants_gpu _blk sync.log 190
cat > $R/shapes.txt <<'S'
rmsnorm_swiglu 131072 521
rmsnorm_swiglu 131072 1001
rmsnorm_swiglu 131072 1201
rmsnorm_swiglu 98304 1501
rmsnorm_swiglu 65536 2001
rmsnorm_swiglu 65536 2501
rmsnorm_swiglu 65536 3001
S
el "tune"
timeout $(left 420) build/bin/kp tune --device 0 --families rmsnorm_swiglu --reps 9 \
  --dtypes bf16 --shapes $R/shapes.txt -o $R/c1.tune > $R/tune.log 2>&1
echo "tune rc=$?"
for s in $(awk '{print $3}' $R/c1.tune | grep x | sort -t x -k2,2n -k1,1n -u); do
  grep " $s " $R/c1.tune | sort -k6 -n | head -3 | awk '{print $3, $5, $6}'
  grep " $s " $R/c1.tune | grep -E "_img(_w16)?(_blk)? " | grep -E "r16_p2_u4_1k|r4_p8_u4_1k|r8_p4_u4_1280|r8_p3_u4_1536|r8_p3_u4_2k|r8_p2_u4_2560|r8_p2_u4_3k" | awk '{print "  ", $5, $6}'; done
echo "rmsnorm_swiglu 131072 1001" > $R/one.txt
for v in rmsnorm_swiglu_bf16_warps_r16_p2_u4_1k_img rmsnorm_swiglu_bf16_warps_r16_p2_u4_1k_img_blk; do
  el "ncu $v"
  timeout $(left 560) ncu -k "regex:^$v\$" --launch-skip 1 --launch-count 1 \
    --section SpeedOfLight --section Occupancy --section WarpStateStats --section SchedulerStats \
    --section MemoryWorkloadAnalysis build/bin/kp tune --device 0 --families rmsnorm_swiglu \
    --dtypes bf16 --reps 3 --shapes $R/one.txt -q -o $R/x.tune > $R/ncu_$v.log 2>&1
  grep -E "Duration|DRAM Throughput|L1/TEX Hit|L1/TEX Cache Throughput|L2 Cache Throughput|Issued Warp Per|No Eligible|Achieved Active" $R/ncu_$v.log | head -10
done
lanes_finish
