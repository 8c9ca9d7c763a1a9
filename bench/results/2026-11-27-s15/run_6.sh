#!/bin/bash
# GPU call 6 (2026-11-27, fifteenth session): RMSNorm+SwiGLU `_stage_` variants
# (the two halves staged, two images), for the tuner.  Lane 0: kp tune
# over the odd rmsnorm_swiglu rows (every variant timed).  Lane 1: variants_gpu,
# memcheck and synccheck over the bf16 and f32 stage variants.
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup
lane0() {
  GPU=0; export CUDA_VISIBLE_DEVICES=0
  el "tune"
  timeout $(left 150) build/bin/kp tune --device 0 --families rmsnorm_swiglu --dtypes bf16 \
    --shapes build/carry/shapes_c6.txt -o $R/c6.tune > $R/tune.log 2>&1; echo "tune rc=$?"
  el "lane0 done"
}
lane1() {
  GPU=1; export CUDA_VISIBLE_DEVICES=1
  gpu_suite t_variants_gpu.log 60 variants_gpu
  san memcheck variants_gpu "swiglu_bf16_stage|swiglu_f32_stage" san_memcheck.log 110
  san synccheck variants_gpu "swiglu_bf16_stage|swiglu_f32_stage" san_synccheck.log 150
  el "lane1 done"
}
lane0 > $R/lane0.log 2>&1 &
P0=$!
lane1 > $R/lane1.log 2>&1 &
P1=$!
wait $P0 $P1
cat $R/lane0.log $R/lane1.log
grep -hE ":[EF]:" $R/t_*.log $R/san*.log | head
grep default $R/tune.log
grep -v "^#" $R/c6.tune | awk 'NF>=6 {n[$3]++; if (n[$3]<=4 || $5 ~ /_stage_/) print $3, $5, $6}'
lanes_finish
