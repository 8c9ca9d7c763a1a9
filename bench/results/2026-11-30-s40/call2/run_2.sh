#!/bin/bash
# Call 2 (fortieth session): split-K pairs for m <= 128 (bf16 experiment
# variants 64x64_s13_k2, 64x176_s6_k2, 64x256_s5_k2, 128x176_s5_k2,
# 128x224_s4_k2): every-variant check against float64, then pinned side by
# side with the current picks and cuBLAS at m = 64 / 128; cuBLAS's kernels
# named at those shapes.
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup || exit 1
GPU=0
NEW="s13_k2_|176_s6_k2_|256_s5_k2_|176_s5_k2_|224_s4_k2_"
KP_TEST_ONLY="$NEW" CK_RUN_CASE=gemm gpu_suite gemm_new.log 90 gemm_gpu
grep -hE "_nk: [0-9]+ cases|variants on" $R/gemm_new.log | tail -7
S="64,4096,4096;64,11008,4096;64,4096,11008;64,14336,4096;128,14336,4096;128,11008,4096;128,4096,4096;128,4096,11008"
el pinned
CUDA_VISIBLE_DEVICES=0 timeout $(left 420) python3 bench/gemm_bench.py --dtypes bf16 --reps 15 --variants \
  --only "bf16_wg_(64x64_s13|64x64_s13_a2|64x256_s5|64x128_s8_k4|128x64_s8_k2|128x112_s6_e112|128x88_s6_e88|64x64_s13_k2|64x176_s6_k2|64x256_s5_k2|128x176_s5_k2|128x224_s4_k2)_nk" \
  --shapes "$S" --json $R/pinned.json 2>&1 | grep -vE "$F" > $R/pinned.log
echo "pinned rc=$?"; grep -E "^bfloat16|best:|check\(s\)" $R/pinned.log | cut -c1-110
el peers
CUDA_VISIBLE_DEVICES=0 timeout $(left 560) python3 bench/gemm_bench.py --dtypes bf16,f16 --reps 10 --peer-kernels \
  --shapes "$S" --json $R/peers.json 2>&1 | grep -vE "$F" > $R/peers.log
echo "peers rc=$?"; grep -E "^(bfloat16|float16)|cuBLAS:" $R/peers.log | cut -c1-130
lanes_finish
