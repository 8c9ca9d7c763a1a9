#!/bin/bash
# Call 4 (forty-second session): the `_ts` epilogue (D stored by TMA from
# the store warps' buffer) at m = 128 and 256: every-variant check of the
# `_ts` tiles (both forms), then pinned beside the store-warp tiles, `_fs`
# and `_nost` (a bound), three rounds.
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup || exit 1
GPU=0
KP_TEST_ONLY="_ts_" CK_RUN_CASE=gemm gpu_suite gemm_ts.log 120 gemm_gpu
grep -hE "variants on" $R/gemm_ts.log | tail -2
S="128,14336,4096;128,11008,4096;256,11008,4096;128,14336,4096;128,11008,4096;256,11008,4096;128,14336,4096;128,11008,4096"
el pinned
CUDA_VISIBLE_DEVICES=0 timeout $(left 420) python3 bench/gemm_bench.py --dtypes bf16 --reps 31 --variants \
  --only "bf16_wg_128x(112_s6_e112|88_s6_e88|168_s4_e168)(_fs|_nost|_ts)?_pl_nk" \
  --shapes "$S" --json $R/pinned.json 2>&1 | grep -vE "$F" > $R/pinned.log
echo "pinned rc=$?"; grep -E "^bfloat16|      gemm_|check\(s\)" $R/pinned.log | sed 's/(vs cuBLAS.*//; s/; rel err.*//; s/gemm_bf16_wg_//' | cut -c1-100
lanes_finish
