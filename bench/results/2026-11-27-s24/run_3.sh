#!/bin/bash
# Call 3: every persistent sm_90a bf16 tile pinned (the FILL group with the
# `_e` epilogue at 176 / 224 / 64 columns) at mid and large m, against the
# pick of the fill tie-break and cuBLAS: the per-element rates the model lacks.
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup
el "gemm fill"
S="256,11008,4096;256,14336,4096;256,4096,11008;256,4096,4096;512,11008,4096;512,14336,4096;512,4096,11008;1024,11008,4096;1024,14336,4096;2048,11008,4096;2048,4096,4096;4096,4096,4096;4096,11008,4096;4096,14336,4096;4096,4096,11008;8192,8192,8192;128,11008,4096;128,14336,4096"
timeout $(left 560) python3 bench/gemm_bench.py --dtypes bf16 --reps 10 --shapes "$S" \
  --variants --only "wg_(128x(64_s8_e64|128_s6_e128|176|192|224|256_s3)|64x256)_.*nk" --json $R/gemm_fill.json \
  2>&1 | grep -vE "$F" > $R/gemm_fill.log
grep -vE "^check ok" $R/gemm_fill.log | cut -c1-150
lanes_finish
