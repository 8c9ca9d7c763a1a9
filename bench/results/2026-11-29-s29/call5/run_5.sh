#!/bin/bash
# Twenty-ninth session, call 5: RMSNorm+SwiGLU's stage variants over
# 16-CTA clusters (for the tuner) against float64 and under kp tune at its
# long rows; ops_gpu and graph_gpu on the final code (glu_flatten's one row,
# GeGLU's erfc fit, add+RMSNorm's odd 98305-131072 over 16 CTAs); the odd
# sweep side by side.
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup
GPU=0
KP_TEST_ONLY="rmsnorm_swiglu_bf16_stage_t256_v8_u2_s2|rmsnorm_swiglu_f16_stage_t256_v8_u2_s2|rmsnorm_swiglu_bf16_stage_t256_v8_u2_s16_c16|rmsnorm_swiglu_f32_stage_t256_v4_u2_s" \
  gpu_suite t_variants_c16.log 100 variants_gpu
el "tune"
timeout $(left 220) build/bin/kp tune --device 0 --families rmsnorm_swiglu \
  --dtypes bf16 --shapes build/carry/shapes_c5.txt -o $R/c5.tune > $R/tune.log 2>&1
echo "tune rc=$?"; grep -E "default" $R/tune.log | cut -c1-200
grep -E "_c16" $R/c5.tune | head -40
gpu_suite t_ops_gpu.log 280 ops_gpu
gpu_suite t_graph_gpu.log 330 graph_gpu
el "odd sweep"
timeout $(left 450) python3 bench/side_by_side.py --shapes-file bench/shapes_odd.txt \
  --json $R/side_odd.json 2>&1 | grep -vE "$F" > $R/side_odd.log; echo "odd rc=$?"
grep -E "^(softmax|rmsnorm|add_|rmsnorm_sw|swiglu|geglu)" $R/side_odd.log | cut -c1-150
lanes_finish
