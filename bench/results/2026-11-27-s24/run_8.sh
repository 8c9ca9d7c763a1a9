#!/bin/bash
# Call 8 (H200 if one comes): the fill tie-break's rates were measured on
# H100s.  Every FILL tile pinned at call 3's shapes (are the picks still the
# best?), then the issue's GEMM table and the m = 256-2048 sweep on the picks.
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup
GPU=0
gpu_suite t_gemm_gpu.log 100 gemm_gpu
el "fill pinned"
S="256,11008,4096;256,14336,4096;256,4096,11008;256,4096,4096;512,11008,4096;512,14336,4096;512,4096,11008;1024,11008,4096;1024,14336,4096;2048,11008,4096;2048,4096,4096;4096,4096,4096;4096,11008,4096;4096,14336,4096;640,8192,8192;768,12288,4096;128,11008,4096;128,14336,4096"
timeout $(left 330) python3 bench/gemm_bench.py --dtypes bf16 --reps 10 --shapes "$S" \
  --variants --only "wg_(128x(64_s8_e64|128_s6_e128|168|176|192|224|256_s3)|64x256)_.*nk" --json $R/gemm_fill.json \
  2>&1 | grep -vE "$F" > $R/gemm_fill.log
grep -E "^bfloat16|best:" $R/gemm_fill.log | cut -c1-120
el "issue table"
timeout $(left 450) python3 bench/gemm_bench.py --reps 15 --json $R/gemm_issue.json 2>&1 | grep -vE "$F" > $R/gemm_issue.log
grep -E "^(bfloat16|float16)|check\(s\)" $R/gemm_issue.log | cut -c1-100
el "gemm mid m"
S=""
for m in 256 512 1024 2048; do for nk in 4096,4096 11008,4096 4096,11008 14336,4096; do S="$S;$m,$nk"; done; done
timeout $(left 580) python3 bench/gemm_bench.py --reps 15 --shapes "${S#;}" --json $R/gemm_mid.json 2>&1 | grep -vE "$F" > $R/gemm_mid.log
grep -E "^(bfloat16|float16)" $R/gemm_mid.log | cut -c1-100
lanes_finish
