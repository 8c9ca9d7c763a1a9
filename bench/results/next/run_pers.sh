#!/bin/bash
# For the next session (written by the fifty-second, bench/NOTES.md 87):
# RMSNorm+SwiGLU's `_pers` with pers_next.patch -- the write loop a vector a
# step (5-6% under `kp tune` as call 5's `_a1` twin) and one block barrier
# a row's sum with the reduction's scratch doubled (call 5's `_a2` / `_a3`
# raced without it: rows 0 and 1 shared one scratch array).  Apply the patch
# (`git apply bench/results/next/pers_next.patch`), build the sm_90a pack,
# keep main's pack as build/carry/packs_old.tar.xz (bench/lanes.sh's A/B
# recipe), copy this script to build/carry/ and run it: float64 over every
# `_pers`, memcheck / racecheck (with an f32 variant for the f32 case),
# synccheck (16-bit names only: the f32 case reports "no variant ran"),
# then the A/B in turns, two rounds.  Land the patch only if all pass and
# the A/B gains.
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup || exit 1
mkdir -p build/packs_old && xz -dc build/carry/packs_old.tar.xz | tar -C build/packs_old -xf - || exit 1
GPU=0
el "float64"
CUDA_VISIBLE_DEVICES=0 KP_REQUIRE_GPU=1 KP_TEST_TIMES=1 CK_RUN_SUITE=variants_gpu KP_TEST_ONLY="_pers_|rmsnorm_f32_block_t128_v4_n1" \
  timeout $(left 60) build/tests/check_kernpack > $R/var.log 2>&1; echo "var rc=$?"
grep -E "Checks|:[EF]:|cases|ran no" $R/var.log | head -12 | cut -c1-250
export KP_TEST_TIMES=1
el "memcheck"; san memcheck variants_gpu "rmsnorm_f32_block_t128_v4_n1|_pers_" memcheck.log 90
el "racecheck"; san racecheck variants_gpu "rmsnorm_f32_block_t128_v4_n1|_pers_" racecheck.log 200
grep -E "Race reported" $R/racecheck.log | head -4 | cut -c1-160
el "synccheck"; san synccheck variants_gpu "_pers_" synccheck.log 280
el "ab"
SH=2048x40968,2048x50256,512x131080,512x151936,512x200000,1024x200000
for round in 1 2; do
  for which in old new; do
    if [ $which = old ]; then PD=$PWD/build/packs_old; else PD=$PWD/build/packs; fi
    KP_PACK_DIR=$PD timeout $(left 480) python3 bench/side_by_side.py --ops rmsnorm_swiglu \
      --shapes $SH --no-compile --reps 20 --warmup 4 --json $R/ab_${which}_$round.json > $R/ab_${which}_$round.log 2>&1
    echo "ab $which $round rc=$?"
  done
done
for f in $R/ab_*.log; do echo "== ${f##*/}"; grep -E "^ *rmsnorm_swiglu " $f | cut -c1-110; done
lanes_finish
