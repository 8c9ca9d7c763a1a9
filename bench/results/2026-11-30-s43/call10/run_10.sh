#!/bin/bash
# Call 10 (forty-third session): `_kp` -- the 64x64 tile's k-tiles split by
# parity over its two consumers, each a whole m64n64 wgmma (cuBLAS's count:
# call 9 found the m = 128 pick's time proportional to the SM clock; it issues
# twice cuBLAS's HGMMAs, 64x32x16).  float64 over every `_kp` variant; pinned
# beside the pick and cuBLAS, fresh and in the state 60 x 8192^3 leave.
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup || exit 1
GPU=0
KP_TEST_ONLY="_kp_" CK_RUN_CASE=gemm gpu_suite gemm_exp.log 70 gemm_gpu
grep -hE "variants on|FAIL|fail|Checks" $R/gemm_exp.log | tail -4
for dt in f16 bf16; do
  el "$dt loaded state"
  CUDA_VISIBLE_DEVICES=0 timeout $(left 150) python3 bench/gemm_order.py --dtype $dt --places 4 --big-reps 60 --every-round \
    --after-rounds 5 --reps 7 --variants gemm_${dt}_wg_64x64_s13_pl_nk,gemm_${dt}_wg_64x64_s12_kp_pl_nk 2>&1 | grep -vE "$F" > $R/kp_$dt.log
  cat $R/kp_$dt.log | cut -c1-200
done
el pinned
S="128,4096,4096;64,4096,4096;96,4096,4096;128,2048,4096;128,4096,8192;32,4096,4096;128,4096,4096"
CUDA_VISIBLE_DEVICES=0 timeout $(left 520) python3 bench/gemm_bench.py --dtypes bf16,f16 --reps 21 --variants \
  --only "_wg_64x64_s1[23](_kp)?_pl_nk" \
  --shapes "$S" --json $R/pinned.json 2>&1 | grep -vE "$F" > $R/pinned.log
echo "pinned rc=$?"; grep -E "^(bfloat16|float16)|      gemm_|check\(s\)" $R/pinned.log | grep -v "does not apply" | sed 's/(vs cuBLAS.*//; s/; rel err.*//; s/gemm_b\?f16_wg_//' | cut -c1-90
lanes_finish
