#!/bin/bash
# Call 5 (forty-second session): `_ts` (D by TMA) for every `_e` tile shape:
# 64-column panels in the 128-byte swizzle (EC 64 / 128 / 256) or one box
# row after row (EC 88 / 112 / 168 / 176); every-variant check (both
# forms), then each pinned beside its store-warp twin where the ranking
# picks it, two rounds.
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup || exit 1
GPU=0
KP_TEST_ONLY="_ts_" CK_RUN_CASE=gemm gpu_suite gemm_ts.log 150 gemm_gpu
grep -hE "variants on" $R/gemm_ts.log | tail -2
S="128,14336,4096;128,11008,4096;256,11008,4096;512,4096,4096;256,14336,4096;128,8192,4096;4096,4096,4096;1024,11008,4096"
el pinned
CUDA_VISIBLE_DEVICES=0 timeout $(left 480) python3 bench/gemm_bench.py --dtypes bf16 --reps 25 --variants \
  --only "bf16_wg_128x(112_s6_e112|88_s6_e88|168_s4_e168|128_s6_e128|224_s4_e112|176_s4_e176|64_s8_e64)(_ts)?_pl_nk|bf16_wg_128x256_s3_e256_w0(_ts)?_nk" \
  --shapes "$S;$S" --json $R/pinned.json 2>&1 | grep -vE "$F" > $R/pinned.log
echo "pinned rc=$?"; grep -E "^bfloat16|      gemm_|check\(s\)" $R/pinned.log | grep -v "does not apply" | sed 's/(vs cuBLAS.*//; s/; rel err.*//; s/gemm_bf16_wg_//' | cut -c1-90
lanes_finish
