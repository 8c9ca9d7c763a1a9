#!/bin/bash
# fifty-first session, call 4: the odd rows of 1025-4096 ranked (softmax,
# RMSNorm, add+RMSNorm: a warp a row of 6 / 8 vectors a lane, one-CTA
# stages of 6-9 KiB) -- float64 over every variant of the three families,
# ops_gpu; A/B against main's sm_90a pack at odd 1501-4095 in turns, two
# rounds; memcheck / racecheck over the new picks; 2001 / 3001 side by
# side with eager, F.* and torch.compile
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup || exit 1
mkdir -p build/packs_old && xz -dc build/carry/packs_old.tar.xz | tar -C build/packs_old -xf - || exit 1
GPU=0
el "float64"
CUDA_VISIBLE_DEVICES=0 KP_REQUIRE_GPU=1 KP_TEST_TIMES=1 CK_RUN_SUITE=variants_gpu KP_TEST_ONLY="softmax_|rmsnorm_bf16|rmsnorm_f16|rmsnorm_f32" \
  timeout $(left 80) build/tests/check_kernpack > $R/var.log 2>&1; echo "var rc=$?"
grep -E "Checks|:[EF]:|cases" $R/var.log | head -12 | cut -c1-250
gpu_suite ops.log 140 ops_gpu
el "ab"
for round in 1 2; do
  for which in old new; do
    if [ $which = old ]; then PD=$PWD/build/packs_old; else PD=$PWD/build/packs; fi
    KP_PACK_DIR=$PD timeout $(left 300) python3 bench/side_by_side.py --ops softmax,rmsnorm,add_rmsnorm \
      --shapes 65536x1501,65536x2001,65536x2501,65536x3001,65536x3501,32768x4095 --no-compile \
      --reps 20 --warmup 4 --json $R/ab_${which}_$round.json > $R/ab_${which}_$round.log 2>&1
    echo "ab $which $round rc=$?"
  done
done
for f in $R/ab_*.log; do echo "== ${f##*/}"; grep -E "^ *(softmax|rmsnorm|add_rmsnorm) " $f | cut -c1-100; done
export KP_TEST_TIMES=1
S="rmsnorm_f32_block_t128_v4_n1|_warp_v8_n6|_warp_v8_n8|_stage_t128_v8_u2_s6|_stage_t128_v8_u2_s8|_stage_t64_v8_u2_s6|_stage_t64_v8_u4_s9"
el "memcheck"; san memcheck variants_gpu "$S" memcheck.log 370
el "racecheck"; san racecheck variants_gpu "$S" racecheck.log 440
el "compile"
timeout $(left 530) python3 bench/side_by_side.py --ops softmax,rmsnorm,add_rmsnorm --shapes 65536x2001,65536x3001 \
  --reps 20 --warmup 4 --json $R/odd_new.json > $R/odd_new.log 2>&1
echo "compile rc=$?"; grep -E "^ *(softmax|rmsnorm|add_rmsnorm) " $R/odd_new.log | cut -c1-130
lanes_finish
