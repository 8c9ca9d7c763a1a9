#!/bin/bash
# Call 1 (forty-third session): the m = 128 GEMM's order effect taken apart
# (bench/gemm_order.py: B's placement swept, then the same tensors before and
# after 8192^3) with the `_g2` experiment (64x64 pairs in one GPC by a 2-CTA
# cluster sharing nothing) beside the pick; `_r8` (k loops rotated over 8
# tile-column groups) at n = 11008 / 14336.  Every new variant against float64 first.
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup || exit 1
GPU=0
KP_TEST_ONLY="_g2_|_r8_" CK_RUN_CASE=gemm gpu_suite gemm_exp.log 70 gemm_gpu
grep -hE "variants on|FAIL|fail" $R/gemm_exp.log | tail -4
for dt in bf16 f16; do
  el "order $dt"
  CUDA_VISIBLE_DEVICES=0 timeout $(left 260) python3 bench/gemm_order.py --dtype $dt --places 10 \
    --variants gemm_${dt}_wg_64x64_s13_pl_nk,gemm_${dt}_wg_64x64_s13_g2_pl_nk 2>&1 | grep -vE "$F" > $R/order_$dt.log
  cat $R/order_$dt.log
done
el "pause control bf16"
CUDA_VISIBLE_DEVICES=0 timeout $(left 300) python3 bench/gemm_order.py --dtype bf16 --places 1 --sleep-ms 300 --after-rounds 4 \
  --variants gemm_bf16_wg_64x64_s13_pl_nk 2>&1 | grep -vE "$F" > $R/order_pause.log
cat $R/order_pause.log
el pinned
S="128,11008,4096;128,14336,4096;128,11008,4096;128,14336,4096"
CUDA_VISIBLE_DEVICES=0 timeout $(left 470) python3 bench/gemm_bench.py --dtypes bf16,f16 --reps 21 --variants \
  --only "_wg_128x(88|112)_s6_e(88|112)(_r8)?_pl_nk" \
  --shapes "$S" --json $R/pinned.json 2>&1 | grep -vE "$F" > $R/pinned.log
echo "pinned rc=$?"; grep -E "^(bfloat16|float16)|      gemm_|check\(s\)" $R/pinned.log | grep -v "does not apply" | sed 's/(vs cuBLAS.*//; s/; rel err.*//; s/gemm_b\?f16_wg_//' | cut -c1-90
lanes_finish
