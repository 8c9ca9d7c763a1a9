#!/bin/bash
# Twenty-ninth session, call 4: stage variants over 16-CTA clusters (256
# threads, slices of 16 / 26 KiB: 8 CTAs an SM) for softmax, RMSNorm and
# add+RMSNorm, for the tuner: every one against float64 (variants_gpu),
# then kp tune over the long rows, odd and aligned (shapes_c4.txt).
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup
GPU=0
KP_TEST_ONLY="_u2_s16_c16|_u2_s26_c16" gpu_suite t_variants_c16.log 150 variants_gpu
grep -E "c16" $R/t_variants_c16.log | head -5
el "tune"
timeout $(left 570) build/bin/kp tune --device 0 --families softmax,rmsnorm,add_rmsnorm \
  --dtypes bf16 --shapes build/carry/shapes_c4.txt -o $R/c4.tune > $R/tune.log 2>&1
echo "tune rc=$?"; grep -E "default" $R/tune.log | cut -c1-200
grep -E "_c16 " $R/c4.tune | head -60
lanes_finish
