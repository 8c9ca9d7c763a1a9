#!/bin/bash
# Call 8 (forty-third session): the m = 128 GEMM's order effect after a long
# stretch of 8192^3 (60 back to back, ~90 ms, as the table's 25 timed reps a
# side are), by cuBLAS and by ours; f16 and bf16; the same tensors throughout.
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup || exit 1
GPU=0
for dt in f16 bf16; do
  V=gemm_${dt}_wg_64x64_s13_pl_nk
  el "$dt: 60 x 8192^3 by cuBLAS"
  CUDA_VISIBLE_DEVICES=0 timeout $(left 150) python3 bench/gemm_order.py --dtype $dt --places 1 --big-reps 60 --after-rounds 16 \
    --variants $V 2>&1 | grep -vE "$F" > $R/long_cublas_$dt.log
  sed -n '/-- before/,$p' $R/long_cublas_$dt.log
  el "$dt: 60 x 8192^3 by ours"
  CUDA_VISIBLE_DEVICES=0 timeout $(left 300) python3 bench/gemm_order.py --dtype $dt --places 1 --big-reps 60 --big-kp --after-rounds 16 \
    --variants $V 2>&1 | grep -vE "$F" > $R/long_kp_$dt.log
  sed -n '/-- before/,$p' $R/long_kp_$dt.log
done
el "the table's order, f16 (call 11 of the forty-second session)"
S="128,4096,4096;4096,4096,4096;8192,8192,8192;128,4096,4096;128,4096,4096;128,4096,4096"
CUDA_VISIBLE_DEVICES=0 timeout $(left 480) python3 bench/gemm_bench.py --dtypes f16 --reps 25 \
  --shapes "$S" --json $R/table.json 2>&1 | grep -vE "$F" > $R/table.log
grep -E "^(bfloat16|float16)" $R/table.log | cut -c1-110
lanes_finish
