#!/bin/bash
# Call 3 (forty-third session): does the k rotation take A's placement out of
# the 64x64 pick's time (A moved over 12 places, `_r8` beside it)?  128x88
# with rotations over 2 / 4 / 8 / 16 groups at n = 11008.
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup || exit 1
GPU=0
KP_TEST_ONLY="_r2_|_r4_|_r8_|_r16_" CK_RUN_CASE=gemm gpu_suite gemm_exp.log 80 gemm_gpu
grep -hE "variants on|FAIL|fail" $R/gemm_exp.log | tail -4
for dt in bf16 f16; do
  el "place a $dt"
  CUDA_VISIBLE_DEVICES=0 timeout $(left 200) python3 bench/gemm_order.py --dtype $dt --move a --places 14 --after-rounds 2 \
    --variants gemm_${dt}_wg_64x64_s13_pl_nk,gemm_${dt}_wg_64x64_s13_r8_pl_nk 2>&1 | grep -vE "$F" > $R/place_a_$dt.log
  cat $R/place_a_$dt.log
done
el pinned
S="128,11008,4096;128,11008,4096;128,11008,4096"
CUDA_VISIBLE_DEVICES=0 timeout $(left 450) python3 bench/gemm_bench.py --dtypes bf16,f16 --reps 25 --variants \
  --only "_wg_128x88_s6_e88(_r[0-9]+)?_pl_nk" \
  --shapes "$S" --json $R/pinned.json 2>&1 | grep -vE "$F" > $R/pinned.log
echo "pinned rc=$?"; grep -E "^(bfloat16|float16)|      gemm_|check\(s\)" $R/pinned.log | grep -v "does not apply" | sed 's/(vs cuBLAS.*//; s/; rel err.*//; s/gemm_b\?f16_wg_//' | cut -c1-90
lanes_finish
