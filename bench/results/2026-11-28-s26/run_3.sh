#!/bin/bash
# Twenty-sixth session, call 3 (an H200): kp tune over issue 12's skinny and
# m = 128 GEMM shapes (shapes_c3.txt: every applicable variant, the new 88 /
# 112-column tiles and A-sharing clusters among them); cuBLAS's kernels at
# the m = 128 shapes; kp tune over RMSNorm+SwiGLU's odd crossovers
# (rows_c3.txt, the twenty-fifth session's ranking, measured on H100s only).
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup
GPU=0
el "tune gemm"
timeout $(left 260) build/bin/kp tune --device 0 --families gemm --dtypes bf16,f16 \
  --shapes build/carry/shapes_c3.txt -o $R/gemm.tune > $R/tune_gemm.log 2>&1
echo "tune rc=$?"; grep -E "default" $R/tune_gemm.log | cut -c1-200
el "cuBLAS kernels"
timeout $(left 300) python3 bench/gemm_bench.py --dtypes bf16,f16 --peer-kernels \
  --shapes "128,4096,4096;128,11008,4096;128,14336,4096;16,11008,4096" > $R/peers.log 2>&1
grep -vE "^check" $R/peers.log | cut -c1-150
el "tune rows"
timeout $(left 560) build/bin/kp tune --device 0 --families rmsnorm_swiglu --dtypes bf16 \
  --shapes build/carry/rows_c3.txt -o $R/rows.tune > $R/tune_rows.log 2>&1
echo "tune rc=$?"; grep -E "default" $R/tune_rows.log | cut -c1-200
lanes_finish
