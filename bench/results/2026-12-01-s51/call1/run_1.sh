#!/bin/bash
# fifty-first session, call 1: an experimental sm_90a pack (67bd8e8 plus
# the norms' register kernels loading w off the grid's residue by two
# aligned 16-byte loads (kp_ld16_shift2) where a whole vector follows, and
# stage variants of 4 vectors a step for the tuner) -- float64 over every
# RMSNorm / add+RMSNorm variant; memcheck over the changed picks and the
# new stages, racecheck over the new stages; A/B against main's pack at odd
# 1001-4095 in turns, two rounds; kp tune at odd 50257-199999
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup || exit 1
mkdir -p build/packs_old && xz -dc build/carry/packs_old.tar.xz | tar -C build/packs_old -xf - || exit 1
GPU=0
el "float64"
CUDA_VISIBLE_DEVICES=0 KP_REQUIRE_GPU=1 KP_TEST_TIMES=1 CK_RUN_SUITE=variants_gpu KP_TEST_ONLY="rmsnorm_bf16|rmsnorm_f16|rmsnorm_f32" \
  timeout $(left 110) build/tests/check_kernpack > $R/var.log 2>&1; echo "var rc=$?"
grep -E "Checks|:[EF]:|cases" $R/var.log | head -12 | cut -c1-250
el "ab"
for round in 1 2; do
  for which in old new; do
    if [ $which = old ]; then PD=$PWD/build/packs_old; else PD=$PWD/build/packs; fi
    KP_PACK_DIR=$PD timeout $(left 260) python3 bench/side_by_side.py --ops rmsnorm,add_rmsnorm --shapes 131072x1001,65536x2001,65536x3001,32768x4095 --no-compile \
      --reps 20 --warmup 4 --json $R/ab_${which}_$round.json > $R/ab_${which}_$round.log 2>&1
    echo "ab $which $round rc=$?"
  done
done
for f in $R/ab_*.log; do echo "== ${f##*/}"; grep -E "^ *(rmsnorm|add_rmsnorm) " $f | cut -c1-120; done
el "tune"
timeout $(left 430) stdbuf -oL build/bin/kp tune -o $R/t1.tune --dtypes bf16 --shapes build/carry/t1.txt \
  --reps 10 --time-budget 160 > $R/tune.log 2>&1
echo "tune rc=$?"; grep -E "default .* best" $R/tune.log | cut -c1-200
export KP_TEST_TIMES=1
S="rmsnorm_f32_block_t128_v4_n1|rmsnorm_bf16_warp_v8_n4|rmsnorm_f16_block_t128_v8_n2|rmsnorm_bf16_block_t256_v8_n2|_u4_s38_c8_wc|_u4_s50_c8_wc"
el "memcheck"; san memcheck variants_gpu "$S" memcheck.log 510
el "racecheck"; san racecheck variants_gpu "rmsnorm_f32_block_t128_v4_n1|_u4_s38_c8_wc|_u4_s50_c8_wc" racecheck.log 580
lanes_finish
