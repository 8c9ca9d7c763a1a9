#!/bin/bash
# Call 3 (forty-second session): the store warps' tail at m = 128.  `_fs`:
# the whole-chunk store path (shared loads ahead of global stores, no
# divisions); `_nost`: no global stores at all (a timing bound only).
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup || exit 1
GPU=0
KP_TEST_ONLY="_fs_" CK_RUN_CASE=gemm gpu_suite gemm_fs.log 100 gemm_gpu
grep -hE "variants on" $R/gemm_fs.log | tail -2
S="128,14336,4096;128,11008,4096;128,14336,4096;128,11008,4096;128,14336,4096;128,11008,4096"
el pinned
CUDA_VISIBLE_DEVICES=0 timeout $(left 420) python3 bench/gemm_bench.py --dtypes bf16 --reps 31 --variants \
  --only "bf16_wg_128x(112_s6_e112|88_s6_e88)(_fs|_nost)?_pl_nk" \
  --shapes "$S" --json $R/pinned.json 2>&1 | grep -vE "$F" > $R/pinned.log
echo "pinned rc=$?"; grep -E "^bfloat16|      gemm_|check\(s\)" $R/pinned.log | sed 's/(vs cuBLAS.*//; s/; rel err.*//; s/gemm_bf16_wg_//' | cut -c1-100
lanes_finish
