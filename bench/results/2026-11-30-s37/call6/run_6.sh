#!/bin/bash
# Thirty-seventh session, call 6 (call 5's host, warm): the rest of
# bench/results/2026-11-27-s24/run_8.sh on an H200 -- the issue's GEMM table
# (both dtypes) and the m = 256-2048 sweep on the picks.
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup || exit 1
GPU=0
el "issue table"
CUDA_VISIBLE_DEVICES=0 timeout $(left 150) python3 bench/gemm_bench.py --reps 15 --json $R/gemm_issue.json 2>&1 | grep -vE "$F" > $R/gemm_issue.log
echo "issue rc=$?"; grep -E "^(bfloat16|float16)|check\(s\)" $R/gemm_issue.log | cut -c1-100
el "gemm mid m"
S=""
for m in 256 512 1024 2048; do for nk in 4096,4096 11008,4096 4096,11008 14336,4096; do S="$S;$m,$nk"; done; done
CUDA_VISIBLE_DEVICES=0 timeout $(left 280) python3 bench/gemm_bench.py --reps 15 --shapes "${S#;}" --json $R/gemm_mid.json 2>&1 | grep -vE "$F" > $R/gemm_mid.log
echo "mid rc=$?"; grep -E "^(bfloat16|float16)" $R/gemm_mid.log | cut -c1-100
lanes_finish
