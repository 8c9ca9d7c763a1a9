#!/bin/bash
# fiftieth session, call 5: RMSNorm+SwiGLU's odd rows of 16385-22528 over
# 2 CTAs of 256 threads (20 / 24 KiB) ranked -- float64 over every
# RMSNorm+SwiGLU variant, ops_gpu, graph_gpu; memcheck and racecheck over
# the two new picks; the changed shapes against main's sm_90a pack in turns,
# two rounds; the odd sweep (bench/shapes_odd.txt) of the four row norms /
# softmax side by side with eager and F.* (no torch.compile)
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup || exit 1
mkdir -p build/packs_old && xz -dc build/carry/packs_old.tar.xz | tar -C build/packs_old -xf - || exit 1
GPU=0
el "float64"
CUDA_VISIBLE_DEVICES=0 KP_REQUIRE_GPU=1 KP_TEST_TIMES=1 CK_RUN_SUITE=variants_gpu KP_TEST_ONLY="rmsnorm_swiglu_" \
  timeout $(left 50) build/tests/check_kernpack > $R/var.log 2>&1; echo "var rc=$?"
grep -E "Checks|:[EF]:|cases" $R/var.log | head -12 | cut -c1-250
gpu_suite ops.log 120 ops_gpu
gpu_suite graph.log 150 graph_gpu
export KP_TEST_TIMES=1
S="rmsnorm_swiglu_f32_block_t512_v4_n2|rmsnorm_swiglu_bf16_stage_t256_v8_u2_s20_c2_pairs|rmsnorm_swiglu_f16_stage_t256_v8_u2_s24_c2_pairs"
el "memcheck"; san memcheck variants_gpu "$S" memcheck.log 200
el "racecheck"; san racecheck variants_gpu "$S" racecheck.log 250
grep -h "TIME" $R/memcheck.log $R/racecheck.log
el "ab"
for round in 1 2; do
  for which in old new; do
    if [ $which = old ]; then PD=$PWD/build/packs_old; else PD=$PWD/build/packs; fi
    KP_PACK_DIR=$PD timeout $(left 320) python3 bench/side_by_side.py --ops rmsnorm_swiglu --shapes 4096x16385,4096x18943,4096x20481,4096x22001 --no-compile \
      --reps 20 --warmup 4 --json $R/ab_${which}_$round.json > $R/ab_${which}_$round.log 2>&1
    echo "ab $which $round rc=$?"
  done
done
for f in $R/ab_*.log; do echo "== ${f##*/}"; grep -E "^ *rmsnorm_swiglu " $f | cut -c1-120; done
el "odd sweep"
timeout $(left 440) python3 bench/side_by_side.py --ops softmax,rmsnorm,add_rmsnorm,rmsnorm_swiglu --shapes-file build/carry/odd.txt \
  --no-compile --reps 20 --warmup 4 --json $R/odd.json > $R/odd.log 2>&1
echo "odd rc=$?"; grep -E "^ *(softmax|rmsnorm|add_rmsnorm|rmsnorm_swiglu) " $R/odd.log | cut -c1-130
lanes_finish
