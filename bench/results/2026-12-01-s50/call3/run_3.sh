#!/bin/bash
# fiftieth session, call 3: the landed ranking (softmax's 64 KiB stage at
# any alignment for 24577-32768; RMSNorm+SwiGLU 512 x 3 / 512 x 4 blocks for
# whole rows of 8193-16384 outputs; add+RMSNorm over 2 CTAs of 20 / 24 KiB
# for odd 16385-24576) -- float64 over every RMSNorm / add+RMSNorm /
# RMSNorm+SwiGLU / softmax variant, ops_gpu, graph_gpu; memcheck and
# racecheck over the new picks and the forty-ninth session's softmax stage
# shapes; the changed shapes against main's sm_90a pack (packs_old) in
# turns, two rounds, side by side with PyTorch
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup || exit 1
mkdir -p build/packs_old && xz -dc build/carry/packs_old.tar.xz | tar -C build/packs_old -xf - || exit 1
GPU=0
el "float64"
CUDA_VISIBLE_DEVICES=0 KP_REQUIRE_GPU=1 KP_TEST_TIMES=1 CK_RUN_SUITE=variants_gpu KP_TEST_ONLY="rmsnorm_|softmax_" \
  timeout $(left 100) build/tests/check_kernpack > $R/var.log 2>&1; echo "var rc=$?"
grep -E "Checks|:[EF]:|cases" $R/var.log | head -12 | cut -c1-250
gpu_suite ops.log 170 ops_gpu
gpu_suite graph.log 200 graph_gpu
S="softmax_f32_stage_t512_v4_u2_s48|softmax_bf16_stage_t512_v8_u2_s48|softmax_f16_stage_t512_v8_u2_s48|softmax_bf16_stage_t256_v8_u2_s32|softmax_f16_stage_t512_v8_u2_s64|add_rmsnorm_bf16_stage_t256_v8_u2_s20_c2|add_rmsnorm_f16_stage_t512_v8_u2_s24_c2|rmsnorm_swiglu_bf16_block_t512_v8_n3|rmsnorm_swiglu_f16_block_t512_v8_n4"
el "memcheck"; san memcheck variants_gpu "$S" memcheck.log 330
el "racecheck"; san racecheck variants_gpu "$S" racecheck.log 460
ab() { # ab OPS SHAPES TAG DEADLINE
  for round in 1 2; do
    for which in old new; do
      if [ $which = old ]; then PD=$PWD/build/packs_old; else PD=$PWD/build/packs; fi
      KP_PACK_DIR=$PD timeout $(left $4) python3 bench/side_by_side.py --ops $1 --shapes $2 --no-compile \
        --reps 20 --warmup 4 --json $R/ab_$3_${which}_$round.json > $R/ab_$3_${which}_$round.log 2>&1
      echo "ab $3 $which $round rc=$?"
    done
  done
}
el "ab"
ab softmax 4096x26624,4096x28672,4096x32768 sm 500
ab rmsnorm_swiglu 8192x10240,8192x11008,8192x12288,8192x13824,4096x16384 gl 545
ab add_rmsnorm 4096x16385,4096x18943,4096x22001,4096x24575 ar 590
for f in $R/ab_*.log; do echo "== ${f##*/}"; grep -E "^ *(add_rmsnorm|rmsnorm_swiglu|softmax) " $f | cut -c1-120; done
lanes_finish
