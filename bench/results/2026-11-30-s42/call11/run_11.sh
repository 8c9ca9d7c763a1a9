#!/bin/bash
# Call 11 (forty-second session): 64x64 s13 (the pick at m = 128, n <= 4352)
# with its D by TMA (ec = 32, a consumer's columns): every-variant check,
# then pinned beside the register-store tile, both dtypes, at m = 128 after
# the large shapes (the table's order) and alone.
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup || exit 1
GPU=0
KP_TEST_ONLY="64x64_s13_e32" CK_RUN_CASE=gemm gpu_suite gemm_exp.log 60 gemm_gpu
grep -hE "variants on" $R/gemm_exp.log | tail -2
S="128,4096,4096;128,4096,11008;4096,4096,4096;8192,8192,8192;128,4096,4096;128,4096,11008;128,4096,4096"
el pinned
CUDA_VISIBLE_DEVICES=0 timeout $(left 250) python3 bench/gemm_bench.py --dtypes bf16,f16 --reps 25 --variants \
  --only "_wg_64x64_s13(_e32)?_pl_nk" \
  --shapes "$S" --json $R/pinned.json 2>&1 | grep -vE "$F" > $R/pinned.log
echo "pinned rc=$?"; grep -E "^(bfloat16|float16)|      gemm_|check\(s\)" $R/pinned.log | grep -v "does not apply" | sed 's/(vs cuBLAS.*//; s/; rel err.*//; s/gemm_b\?f16_wg_//' | cut -c1-90
lanes_finish
