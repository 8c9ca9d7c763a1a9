#!/bin/bash
# Call 2: GEMM at mid m (256-2048) -- every sm_90a bf16 tile pinned, with
# the new 128x176 / 128x192 / 128x224 column tiles (waves on 132 SMs), and
# the kernels cuBLAS runs at each shape (--peer-kernels).
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup
GPU=0; gpu_suite t_gemm_gpu.log 150 gemm_gpu
el "gemm mid m"
S="256,11008,4096;256,14336,4096;256,4096,11008;256,4096,4096;512,11008,4096;512,14336,4096;512,4096,11008;1024,11008,4096;1024,14336,4096;2048,11008,4096;2048,4096,4096"
timeout $(left 500) python3 bench/gemm_bench.py --dtypes bf16 --reps 10 --shapes "$S" --peer-kernels \
  --variants --only "wg_(128x(64|128|176|192|224|256)|64x256|256x128)_.*nk" --json $R/gemm_mid.json \
  2>&1 | grep -vE "$F" > $R/gemm_mid.log
grep -vE "^check ok" $R/gemm_mid.log | cut -c1-200
lanes_finish
