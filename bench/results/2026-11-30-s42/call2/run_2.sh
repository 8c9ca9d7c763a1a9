#!/bin/bash
# Call 2 (forty-second session): the ring at m = 128 (call 1's warp states:
# the consumers wait on `full` 40% of samples, the producer on `empty` --
# the ring is full of loads in flight).  Experiments: w0 (a stage freed a
# k-tile sooner), 7 stages (no smem epilogue / e88), L2 hints (A
# evict_last, B evict_first), A shared with 7 stages.  Every-variant check,
# then each pinned beside cuBLAS, three rounds.
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup || exit 1
GPU=0
T="128x112_s7|128x88_s7|_w0_pl|_h_pl|128x112_s6_e112_w0"
KP_TEST_ONLY="$T" CK_RUN_CASE=gemm gpu_suite gemm_exp.log 100 gemm_gpu
grep -hE "variants on" $R/gemm_exp.log | tail -2
S="128,14336,4096;128,11008,4096;128,14336,4096;128,11008,4096;128,14336,4096;128,11008,4096"
el pinned
CUDA_VISIBLE_DEVICES=0 timeout $(left 420) python3 bench/gemm_bench.py --dtypes bf16 --reps 21 --variants \
  --only "bf16_wg_128x(112|88)_s[67](_e(112|88))?(_w0|_h)?_pl_nk|bf16_wg_128x112_s[67]_a2" \
  --shapes "$S" --json $R/pinned.json 2>&1 | grep -vE "$F" > $R/pinned.log
echo "pinned rc=$?"; grep -E "^bfloat16|      gemm_|check\(s\)" $R/pinned.log | sed 's/(vs cuBLAS.*//; s/; rel err.*//; s/gemm_bf16_wg_//' | cut -c1-100
lanes_finish
