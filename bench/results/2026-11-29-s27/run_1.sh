#!/bin/bash
# Call 1 (twenty-seventh session): RMSNorm+SwiGLU's persistent staged rows
# (`_r`, rmsnorm_swiglu_stage_ring): every ring variant against float64
# (three rounds of its grid and more, rows at every residue), memcheck over
# two, then kp tune over the long odd and aligned rows (every variant timed).
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup
GPU=0
KP_TEST_ONLY="c2_r|c4_r|c8_r|c16_r" gpu_suite t_variants.log 150 variants_gpu
grep -E "cases|every_variant" $R/t_variants.log | head -20 | cut -c1-300
el "tune"
timeout $(left 420) build/bin/kp tune --device 0 --families rmsnorm_swiglu --dtypes bf16 \
  --shapes build/carry/shapes_c1.txt -o $R/c1.tune > $R/tune.log 2>&1
echo "tune rc=$?"; grep -E "default" $R/tune.log | cut -c1-220
grep -E "_r |_r_pairs " $R/c1.tune | sort -k3,3 -k6,6n | cut -c1-150
el "memcheck"
san memcheck variants_gpu "bf16_stage_t512_v8_u2_s26_c4_r|bf16_stage_t512_v8_u2_s50_c8_r_pairs" san_memcheck.log 560
lanes_finish
