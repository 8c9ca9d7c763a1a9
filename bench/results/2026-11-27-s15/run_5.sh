#!/bin/bash
# GPU call 5 (2026-11-27, fifteenth session): RMSNorm `_stage_` variants
# with w staged too (`_sw`, a second image), for the tuner.  Lane 0: kp tune
# over the odd rmsnorm rows (every variant timed).  Lane 1: variants_gpu,
# memcheck and synccheck over the `_sw` variants.
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup
lane0() {
  GPU=0; export CUDA_VISIBLE_DEVICES=0
  el "tune"
  timeout $(left 200) build/bin/kp tune --device 0 --families rmsnorm --dtypes bf16 \
    --shapes build/carry/shapes_c5.txt -o $R/c5.tune > $R/tune.log 2>&1; echo "tune rc=$?"
  el "lane0 done"
}
lane1() {
  GPU=1; export CUDA_VISIBLE_DEVICES=1
  gpu_suite t_variants_gpu.log 80 variants_gpu
  san memcheck variants_gpu "_sw" san_memcheck.log 150
  san synccheck variants_gpu "_sw" san_synccheck.log 200
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
grep -v "^#" $R/c5.tune | awk 'NF>=6 {n[$3]++; if (n[$3]<=4 || $5 ~ /_sw/) print $3, $5, $6}'
lanes_finish
