#!/bin/bash
# Call 8 (forty-second session): the tensor maps prefetched at entry
# (`_pf`, prefetch.tensormap by the producer thread before the PDL wait)
# for the picks at the issue's one-round shapes and 4096^3: every-variant
# check, then pinned beside the same tiles without it, both dtypes, three
# rounds.
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup || exit 1
GPU=0
KP_TEST_ONLY="_pf_" CK_RUN_CASE=gemm gpu_suite gemm_pf.log 120 gemm_gpu
grep -hE "variants on" $R/gemm_pf.log | tail -2
S="128,14336,4096;128,11008,4096;128,4096,4096;4096,4096,4096"
el pinned
CUDA_VISIBLE_DEVICES=0 timeout $(left 480) python3 bench/gemm_bench.py --dtypes bf16,f16 --reps 25 --variants \
  --only "_wg_(128x112_s6_e112|128x88_s6_e88|64x64_s13)(_pf)?_pl_nk|_wg_128x256_s3_e256_w0(_pf)?_nk" \
  --shapes "$S;$S;$S" --json $R/pinned.json 2>&1 | grep -vE "$F" > $R/pinned.log
echo "pinned rc=$?"; grep -E "^(bfloat16|float16)|      gemm_|check\(s\)" $R/pinned.log | grep -v "does not apply" | sed 's/(vs cuBLAS.*//; s/; rel err.*//; s/gemm_b\?f16_wg_//' | cut -c1-90
lanes_finish
