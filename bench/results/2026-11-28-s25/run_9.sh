#!/bin/bash
# Call 9 (twenty-fifth session): `_pairs` stage variants of 36 KiB slices
# over 3, 8 and 12 CTAs (three CTAs an SM where registers allow) for the
# long odd rows: RMSNorm+SwiGLU's stage variants against float64, kp tune.
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup
GPU=0
KP_TEST_ONLY="rmsnorm_swiglu_bf16_stage|rmsnorm_swiglu_f16_stage|rmsnorm_swiglu_f32_stage" gpu_suite t_variants.log 60 variants_gpu
el "tune"
timeout $(left 200) build/bin/kp tune --device 0 --families rmsnorm_swiglu --dtypes bf16 \
  --shapes build/carry/shapes_c9.txt -o $R/c9.tune > $R/tune.log 2>&1
echo "tune rc=$?"; grep -E "default" $R/tune.log | cut -c1-200
for s in 1024x45001 2048x50257 1024x128257 512x151937 512x199999; do grep " $s " $R/c9.tune | head -4 | awk '{print $3, $5, $6}'; done
lanes_finish
