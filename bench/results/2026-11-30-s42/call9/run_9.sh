#!/bin/bash
# Call 9 (forty-second session): with D stored by TMA, cuBLAS's 96 columns at
# m = 128 (its kernel there: 96x128 4x1) and 64-row tiles with a TMA store
# (64x112 s9 e56, cuBLAS's 112 columns / 9 stages at m = 64; 64x96 s10 e48):
# every-variant check, then pinned beside the ranked tiles, both dtypes.
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup || exit 1
GPU=0
KP_TEST_ONLY="128x96_s6_e96|128x96_s7_e96|64x112_s9_e56|64x96_s10_e48" CK_RUN_CASE=gemm gpu_suite gemm_exp.log 120 gemm_gpu
grep -hE "variants on" $R/gemm_exp.log | tail -2
S="128,11008,4096;64,11008,4096;64,14336,4096;128,11008,4096;64,11008,4096;64,14336,4096;64,4096,4096"
el pinned
CUDA_VISIBLE_DEVICES=0 timeout $(left 480) python3 bench/gemm_bench.py --dtypes bf16,f16 --reps 25 --variants \
  --only "_wg_(128x96_s[67]_e96|128x88_s6_e88|128x112_s6_e112|64x112_s(9_e56|10)|64x96_s(10_e48|11)|64x64_s13_k2)_pl_nk" \
  --shapes "$S" --json $R/pinned.json 2>&1 | grep -vE "$F" > $R/pinned.log
echo "pinned rc=$?"; grep -E "^(bfloat16|float16)|      gemm_|check\(s\)" $R/pinned.log | grep -v "does not apply" | sed 's/(vs cuBLAS.*//; s/; rel err.*//; s/gemm_b\?f16_wg_//' | cut -c1-90
lanes_finish
