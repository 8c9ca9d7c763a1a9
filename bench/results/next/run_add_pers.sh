#!/bin/bash
# For the next session (written by the fifty-fourth, bench/NOTES.md 89):
# add+RMSNorm's long rows on RMSNorm's persistent any-residue layout
# (add_pers.patch: add_rmsnorm_pers on res's 16-byte grid, h stored whole
# and kept in res's buffer; three tuner-only shapes; rmsnorm_pers's write
# loop moved to kp_device.cuh as kp_pers_norm_outs -- its SASS moved by a
# few instructions: re-time RMSNorm's ranked `_pers` beside it).  Compiled
# on the development machine (no spills), never run.  git apply the patch,
# make and make packs-whole, carry the packs as bench/lanes.sh says, copy
# this script and add_pers.txt (below) to build/carry/ and run it.
#   add_pers.txt:  add_rmsnorm 512 151937 / add_rmsnorm 512 199999 /
#   add_rmsnorm 1024 128257 / add_rmsnorm 1024 180001 / rmsnorm 512 199999
#   (one shape a line)
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup || exit 1
GPU=0
el "float64"
CUDA_VISIBLE_DEVICES=0 KP_REQUIRE_GPU=1 KP_TEST_TIMES=1 CK_RUN_SUITE=variants_gpu KP_TEST_ONLY="_pers_|rmsnorm_f32_block_t128_v4_n1" \
  timeout $(left 120) build/tests/check_kernpack > $R/var.log 2>&1; echo "var rc=$?"
grep -E "Checks|:[EF]:|cases|ran no" $R/var.log | head -12 | cut -c1-300
el "tune"
timeout $(left 330) stdbuf -oL build/bin/kp tune -o $R/ap.tune --dtypes bf16 --shapes build/carry/add_pers.txt \
  --reps 20 --time-budget 200 > $R/tune.log 2>&1
echo "tune rc=$?"; grep -E "default .* best" $R/tune.log | cut -c1-200
while read f r c; do echo "== $f $r x $c"; grep "^$f bf16 ${r}x$c " $R/ap.tune | sort -k6 -g | head -4 | awk '{print $5, $6}'; grep "^$f bf16 ${r}x$c .*_pers_" $R/ap.tune | sort -k6 -g | head -3 | awk '{print $5, $6}'; done < build/carry/add_pers.txt
S="add_rmsnorm_bf16_pers_t512_b3_w1600_c16|add_rmsnorm_f16_pers_t512_b2_w2400_c8|rmsnorm_f32_block_t128_v4_n1"
el "memcheck"; san memcheck variants_gpu "$S" memcheck.log 430
el "racecheck"; san racecheck variants_gpu "$S" racecheck.log 580
lanes_finish
