#!/bin/bash
# forty-ninth session, call 4: the ranking at 8K-24K columns (softmax's
# plain loop for 12289-24576, add+RMSNorm's 512 x 3 for rows off the grid
# alone and 1024 x 4 from 24577, RMSNorm's loop copy `_cols12k` for whole
# 8193-12288) -- float64 over every RMSNorm / add+RMSNorm / softmax variant,
# ops_gpu, graph_gpu; the changed shapes against main's sm_90a pack
# (packs_old) in turns, two rounds; the friendly sweep with the new picks
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup || exit 1
mkdir -p build/packs_old && xz -dc build/carry/packs_old.tar.xz | tar -C build/packs_old -xf - || exit 1
GPU=0
el "float64"
CUDA_VISIBLE_DEVICES=0 KP_REQUIRE_GPU=1 KP_TEST_TIMES=1 CK_RUN_SUITE=variants_gpu KP_TEST_ONLY="rmsnorm_|softmax_" \
  timeout $(left 120) build/tests/check_kernpack > $R/var.log 2>&1; echo "var rc=$?"
grep -E "Checks|:[EF]:|cases" $R/var.log | head -12 | cut -c1-250
gpu_suite ops.log 200 ops_gpu
gpu_suite graph.log 240 graph_gpu
SH=8192x10240,8192x11008,8192x12288,8192x13823,8192x14336,4096x16384,4096x18943,4096x18944,4096x20480,4096x22001,4096x24576
i=0
for round in 1 2; do
  for which in old new; do
    i=$((i + 1))
    el "ab $which $round"
    if [ $which = old ]; then PD=$PWD/build/packs_old; else PD=$PWD/build/packs; fi
    KP_PACK_DIR=$PD timeout $(left $((240 + 40 * i))) python3 bench/side_by_side.py --ops rmsnorm,add_rmsnorm,softmax \
      --shapes $SH --no-compile --reps 20 --warmup 4 --json $R/ab_${which}_$round.json > $R/ab_${which}_$round.log 2>&1
    echo "rc=$?"
  done
done
for f in $R/ab_*.log; do echo "== $f"; grep -E "^ *(rmsnorm|add_rmsnorm|softmax) " $f | cut -c1-100; done
el "sweep"
SH=32768x2048,32768x3072,16384x4096,16384x5120,16384x6144,16384x7168,8192x8192,8192x10240,8192x11008,8192x12288,8192x13824,8192x14336,4096x16384,4096x18944,4096x20480,4096x24576,4096x28672
timeout $(left 420) python3 bench/side_by_side.py --ops rmsnorm,add_rmsnorm,rmsnorm_swiglu,softmax \
  --shapes $SH --no-compile --reps 30 --warmup 5 --json $R/sweep.json > $R/sweep.log 2>&1
echo "sweep rc=$?"; grep -E "^ *(rmsnorm|add_rmsnorm|rmsnorm_swiglu|softmax) " $R/sweep.log | cut -c1-150
lanes_finish
