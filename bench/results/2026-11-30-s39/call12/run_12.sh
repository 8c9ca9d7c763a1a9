#!/bin/bash
# s39 call 12: kp tune over the GEMM shapes (bench/shapes_gemm.txt, f16) on
# the landed code (28b2688): the H200's table, every variant timed, which one
# wins per shape and how far the ranking's pick is from it
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup || exit 1
el "tune"
CUDA_VISIBLE_DEVICES=0 timeout $(left 420) build/bin/kp tune --families gemm --dtypes f16 \
  --shapes bench/shapes_gemm.txt --time-budget 400 -o $R/gemm_f16.h200.tune > $R/tune.log 2>&1
echo "tune rc=$?"; grep -vE "^\s*\[|NVRTC|ETA" $R/tune.log | tail -60 | cut -c1-160
lanes_finish
