#!/bin/bash
# Call 3 (twenty-fifth session): three more `_pairs` stage shapes (s24 and
# s36 over 2 CTAs, s28 over 3), every stage variant against float64, and
# kp tune over odd lengths from 8001 to 50257 (where the pairs take over).
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup
GPU=0
KP_TEST_ONLY="rmsnorm_swiglu_bf16_stage|rmsnorm_swiglu_f16_stage|rmsnorm_swiglu_f32_stage" gpu_suite t_variants.log 90 variants_gpu
grep -E "cases" $R/t_variants.log | head -5
el "tune"
timeout $(left 420) build/bin/kp tune --device 0 --families rmsnorm_swiglu --dtypes bf16 \
  --shapes build/carry/shapes_c3.txt -o $R/c3.tune > $R/tune.log 2>&1
echo "tune rc=$?"; grep -E "default" $R/tune.log | cut -c1-200
el "racecheck"
san racecheck variants_gpu "_s28_c3_pairs|_s24_c2_pairs" san_racecheck.log 540
lanes_finish
