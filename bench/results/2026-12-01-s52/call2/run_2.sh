#!/bin/bash
# fifty-second session, call 2: aligned 16-bit rows of 2049-2560 ranked
# (RMSNorm 64 x 4 in 9 KiB, softmax 64 x 2 in 6 KiB `_al`: call 1's kp
# tune) -- float64 over the changed variants, ops_gpu; A/B against main's
# sm_90a pack in turns, two rounds (bf16), once in f16; then a probe
# (proto_rsw.cu, nvcc): a persistent RMSNorm+SwiGLU with w's slice resident
# in shared memory, x's rows 3 ahead by bulk copies (aligned rows only)
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup || exit 1
mkdir -p build/packs_old && xz -dc build/carry/packs_old.tar.xz | tar -C build/packs_old -xf - || exit 1
GPU=0
el "probe build"
(cd build/carry && /usr/local/cuda/bin/nvcc -O3 -arch=sm_90a -std=c++17 proto_rsw.cu -o $R/proto_rsw > $R/proto_build.log 2>&1; echo "nvcc rc=$?")
el "float64"
CUDA_VISIBLE_DEVICES=0 KP_REQUIRE_GPU=1 KP_TEST_TIMES=1 CK_RUN_SUITE=variants_gpu KP_TEST_ONLY="_stage_t64_v8_u2_s6|_stage_t64_v8_u4_s9|rmsnorm_f32_block_t128_v4_n1" \
  timeout $(left 60) build/tests/check_kernpack > $R/var.log 2>&1; echo "var rc=$?"
grep -E "Checks|:[EF]:|cases" $R/var.log | head -12 | cut -c1-250
gpu_suite ops.log 120 ops_gpu
el "ab"
SH=65536x2056,65536x2304,65536x2560,16384x2304,16384x2560,4096x2560
for round in 1 2; do
  for which in old new; do
    if [ $which = old ]; then PD=$PWD/build/packs_old; else PD=$PWD/build/packs; fi
    KP_PACK_DIR=$PD timeout $(left 300) python3 bench/side_by_side.py --ops softmax,rmsnorm \
      --shapes $SH --no-compile --reps 20 --warmup 4 --json $R/ab_${which}_$round.json > $R/ab_${which}_$round.log 2>&1
    echo "ab $which $round rc=$?"
  done
done
for which in old new; do
  if [ $which = old ]; then PD=$PWD/build/packs_old; else PD=$PWD/build/packs; fi
  KP_PACK_DIR=$PD timeout $(left 360) python3 bench/side_by_side.py --ops softmax,rmsnorm --dtypes f16 \
    --shapes 65536x2304,65536x2560 --no-compile --reps 20 --warmup 4 --json $R/ab16_${which}.json > $R/ab16_${which}.log 2>&1
  echo "ab16 $which rc=$?"
done
for f in $R/ab_*.log $R/ab16_*.log; do echo "== ${f##*/}"; grep -E "^ *(softmax|rmsnorm) " $f | cut -c1-100; done
el "probe"
timeout $(left 500) $R/proto_rsw > $R/proto.log 2>&1; echo "probe rc=$?"; cat $R/proto.log
lanes_finish
