#!/bin/bash
# Call 11 (fortieth session): plain-only `_pl` twins of the fill group's
# tiles picked at m = 256-2048 (128x128_e128, 128x168, 128x176, 128x224;
# item 74's twins covered the m <= 128 picks alone): every-variant check of
# the twins (both dtypes), then each pinned beside its general tile and
# cuBLAS where the ranking picks it.
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup || exit 1
GPU=0
T="128x128_s6_e128_pl|128x168_s4_e168_pl|128x176_s4_e176_pl|128x224_s4_e112_pl"
KP_TEST_ONLY="$T" CK_RUN_CASE=gemm gpu_suite gemm_twins.log 80 gemm_gpu
grep -hE "variants on" $R/gemm_twins.log | tail -2
S="256,11008,4096;512,11008,4096;1024,11008,4096;256,14336,4096;128,28672,4096;512,4096,4096;512,4096,11008;1024,14336,4096;256,11008,4096;512,4096,4096"
el pinned
CUDA_VISIBLE_DEVICES=0 timeout $(left 380) python3 bench/gemm_bench.py --dtypes bf16 --reps 21 --variants \
  --only "bf16_wg_128x(128_s6_e128|168_s4_e168|176_s4_e176|224_s4_e112)(_pl)?_nk" \
  --shapes "$S" --json $R/pinned.json 2>&1 | grep -vE "$F" > $R/pinned.log
echo "pinned rc=$?"; grep -E "^bfloat16|      gemm_|check\(s\)" $R/pinned.log | sed 's/(vs cuBLAS.*//; s/; rel err.*//; s/gemm_bf16_wg_//' | cut -c1-100
lanes_finish
