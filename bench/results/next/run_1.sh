#!/bin/bash
# Next session's first call (left by the twenty-fifth, 2026-11-28), best on
# an H200: the rankings measured on H100s only.  (1) kp tune over the
# skinny GEMM shapes (the 5-stage TMA GEMV and the 64-column K split
# against every GEMV; bench/results/2026-11-28-s25/shapes_c6.txt);
# (2) RMSNorm+SwiGLU's odd-row crossovers (shapes_c3.txt); (3) the issue's
# GEMM table side by side.  Copy this and the two shape files to
# build/carry/ first (and the fill tie-break's check, the twenty-fourth's
# run_8.sh, in a second call).
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup
GPU=0
el "tune gemv"
timeout $(left 120) build/bin/kp tune --device 0 --families gemm --dtypes bf16,f16 \
  --shapes build/carry/shapes_c6.txt -o $R/gemv.tune > $R/tune_gemv.log 2>&1
echo "tune rc=$?"; grep -E "default" $R/tune_gemv.log | cut -c1-200
el "tune rows"
timeout $(left 330) build/bin/kp tune --device 0 --families rmsnorm_swiglu --dtypes bf16 \
  --shapes build/carry/shapes_c3.txt -o $R/rows.tune > $R/tune_rows.log 2>&1
echo "tune rc=$?"; grep -E "default" $R/tune_rows.log | cut -c1-200
el "issue table"
timeout $(left 560) python3 bench/gemm_bench.py --json $R/gemm_issue.json > $R/gemm_issue.log 2>&1
echo "bench rc=$?"; grep -E "^(bfloat16|float16)|check\(s\)" $R/gemm_issue.log | cut -c1-100
lanes_finish
