#!/bin/bash
# Thirty-eighth session, call 3: the TMA GEMV's ~2 us behind cuBLAS at
# every n (call 2): in the kernel or around it?  Each call's kernels by the
# profiler (gemm_bench --peer-kernels now names kp_gemm's too), m = 1 / 16.
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup || exit 1
el "gemv profiled"
S="1,8448,4096;1,11008,4096;16,11008,4096;1,14336,4096;16,14336,4096;1,16896,8192;128,11008,4096;128,14336,4096"
CUDA_VISIBLE_DEVICES=0 timeout $(left 250) python3 bench/gemm_bench.py --dtypes bf16 --reps 21 --shapes "$S" \
  --peer-kernels --json $R/gemv_prof.json 2>&1 | grep -vE "$F|^check" > $R/gemv_prof.log
echo "gemv rc=$?"; cut -c1-120 $R/gemv_prof.log
lanes_finish
