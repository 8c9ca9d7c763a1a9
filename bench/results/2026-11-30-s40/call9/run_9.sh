#!/bin/bash
# Call 9 (fortieth session): (1) call 8's decode MLP block ran 105.8 us a
# layer with PDL against 102.3 without at 64 tokens (its down projection
# now the 2-CTA split 64x64): A/B of the library as landed against one that
# launches no cluster kernel with PDL (build/lib/libkernpack_nocl.so),
# taking turns, twice; (2) kp tune over bench/shapes_gemm.txt (now with m =
# 32 / 64 shapes), both dtypes: the H200's GEMM tables on the landed code.
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup || exit 1
GPU=0
for i in 1 2; do
  for lib in libkernpack libkernpack_nocl; do
    KP_LIB=$PWD/build/lib/$lib.so CUDA_VISIBLE_DEVICES=0 timeout $(left $((40 + 50 * i))) \
      python3 bench/pdl_mlp_bench.py --tokens 16,64,128 --layers 4 --no-compile \
      --json $R/mlp_${lib}_$i.json > $R/mlp_${lib}_$i.log 2>&1
    echo "$lib $i rc=$?"; grep -E "^T=" $R/mlp_${lib}_$i.log | cut -c1-100
  done
done
for dt in bf16 f16; do
  el "tune $dt"
  CUDA_VISIBLE_DEVICES=0 timeout $(left $([ $dt = bf16 ] && echo 300 || echo 480)) build/bin/kp tune --families gemm --dtypes $dt \
    --shapes bench/shapes_gemm.txt --time-budget 170 -o $R/gemm_$dt.h200.tune > $R/tune_$dt.log 2>&1
  echo "tune $dt rc=$?"; grep -vE "^\s*\[|NVRTC|ETA" $R/tune_$dt.log | tail -8 | cut -c1-160
done
lanes_finish
