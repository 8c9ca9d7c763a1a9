#!/bin/bash
# Call 8 (twenty-fifth session): the final GEMV ranking.  gemm_gpu (every
# variant against float64 and the selection's cases), the issue's table
# side by side with cuBLAS (gemm_bench: 4096^3, 8192^3, m = 4096 / 128 /
# 16 / 1 rows), memcheck / racecheck / synccheck over the ranked TMA GEMVs.
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup
GPU=0
gpu_suite t_gemm_gpu.log 200 gemm_gpu
el "issue table"
timeout $(left 330) python3 bench/gemm_bench.py --json $R/gemm_issue.json > $R/gemm_issue.log 2>&1
echo "bench rc=$?"; grep -vE "^check" $R/gemm_issue.log | cut -c1-150
el "sanitizers"
P="_n128_s5_tma|_n64_s10_k2_tma"
san memcheck gemm_gpu "$P" san_memcheck.log 420
san racecheck gemm_gpu "$P" san_racecheck.log 500
san synccheck gemm_gpu "$P" san_synccheck.log 560
lanes_finish
