#!/bin/bash
# Call 5 (fortieth session): compute-sanitizer over call 4's landed m <= 64
# variants (64x64_s13_k2, 64x96_s11, 64x112_s10 and their `_pl` twins, both
# dtypes); then split pairs for the one-round shapes at m <= 64, n =
# 5120-9216 (bf16 experiment variants 64x128_s8_k2, 64x144_s8_k2,
# 64x96_s11_k2), checked against float64 and pinned with cuBLAS.
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup || exit 1
GPU=0
L="64x64_s13_k2_|64x96_s11_|64x112_s10_"
san memcheck gemm_gpu "$L" mem.log 120
san racecheck gemm_gpu "$L" race.log 200
san synccheck gemm_gpu "$L" sync.log 260
grep -hE "variants on" $R/mem.log $R/race.log $R/sync.log
NEW="64x128_s8_k2|64x144_s8_k2|64x96_s11_k2"
KP_TEST_ONLY="$NEW" CK_RUN_CASE=gemm gpu_suite gemm_new.log 300 gemm_gpu
grep -hE "variants on" $R/gemm_new.log | tail -2
S="64,5120,4096;64,6144,4096;64,8192,4096;64,9216,4096;64,11008,4096;32,8192,4096;64,4096,4096;64,8192,8192"
el pinned
CUDA_VISIBLE_DEVICES=0 timeout $(left 560) python3 bench/gemm_bench.py --dtypes bf16 --reps 15 --variants \
  --only "bf16_wg_(64x64_s13_k2|64x64_s13_a2|64x96_s11|64x112_s10|64x256_s5|64x128_s8_k2|64x144_s8_k2|64x96_s11_k2)_nk" \
  --shapes "$S" --json $R/pinned.json 2>&1 | grep -vE "$F" > $R/pinned.log
echo "pinned rc=$?"; grep -E "^bfloat16|best:|check\(s\)" $R/pinned.log | cut -c1-110
lanes_finish
