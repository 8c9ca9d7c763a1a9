#!/bin/bash
# Call 4 (twenty-fifth session): the ranking with the `_pairs` stage
# variants for odd 16-bit rows (8193-12288 one CTA; 22001-40960 over 2
# CTAs): RMSNorm+SwiGLU's every variant against float64, ops_gpu, the
# crossovers left (kp tune), side by side with PyTorch at the odd lengths,
# memcheck and racecheck over the ranked pairs variants.
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup
GPU=0
KP_TEST_ONLY="rmsnorm_swiglu" gpu_suite t_variants.log 60 variants_gpu
gpu_suite t_ops_gpu.log 150 ops_gpu
el "tune"
timeout $(left 230) build/bin/kp tune --device 0 --families rmsnorm_swiglu --dtypes bf16 \
  --shapes build/carry/shapes_c4.txt -o $R/c4.tune > $R/tune.log 2>&1
echo "tune rc=$?"; grep -E "default" $R/tune.log | cut -c1-200
el "side by side"
timeout $(left 380) python3 bench/side_by_side.py --shapes-file build/carry/side_c4.txt \
  --ops rmsnorm_swiglu --json $R/side_c4.json 2>&1 | grep -vE "$F" > $R/side_c4.log; echo "side rc=$?"
grep -E "^rmsnorm_sw" $R/side_c4.log | cut -c1-150
el "sanitizers"
P="_s36_c2_pairs|_s24_c2_pairs|_s32_c2_pairs|_s50_c2_pairs|_u1_s24_pairs"
san memcheck variants_gpu "$P" san_memcheck.log 470
san racecheck variants_gpu "$P" san_racecheck.log 560
lanes_finish
