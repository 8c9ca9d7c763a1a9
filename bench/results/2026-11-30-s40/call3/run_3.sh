#!/bin/bash
# Call 3 (fortieth session): cuBLAS's shapes at m = 64 / 128 (call 2's
# --peer-kernels: 112 / 144 / 96 columns, 9-10 stages, fewer CTAs than SMs,
# A shared over clusters) as bf16 experiment variants, and 64x64_s13_k2
# (call 2: 29.0 against the pick's 38.0 us at 64 x 4096 x 11008):
# every-variant check against float64, then pinned with cuBLAS.
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup || exit 1
GPU=0
NEW="64x112_s10|64x144_s8|64x96_s11|128x112_s7|128x96_s7|s13_k2_"
KP_TEST_ONLY="$NEW" CK_RUN_CASE=gemm gpu_suite gemm_new.log 90 gemm_gpu
grep -hE "_nk: [0-9]+ cases|variants on" $R/gemm_new.log | tail -10
S="64,11008,4096;64,14336,4096;128,14336,4096;128,11008,4096;64,4096,11008;64,4096,4096;32,4096,11008;32,4096,4096;48,11008,4096"
el pinned
CUDA_VISIBLE_DEVICES=0 timeout $(left 500) python3 bench/gemm_bench.py --dtypes bf16 --reps 15 --variants \
  --only "bf16_wg_(64x64_s13|64x64_s13_a2|64x256_s5|64x128_s8_k4|128x64_s8_k2|128x112_s6_e112|128x88_s6_e88|64x64_s13_k2|64x112_s10|64x112_s10_a2|64x144_s8|64x144_s8_a2|64x96_s11|128x112_s7|128x96_s7|128x96_s7_a2)_nk" \
  --shapes "$S" --json $R/pinned.json 2>&1 | grep -vE "$F" > $R/pinned.log
echo "pinned rc=$?"; grep -E "^bfloat16|best:|check\(s\)" $R/pinned.log | cut -c1-110
lanes_finish
