#!/bin/bash
# Call 12 (forty-third session): the issue tables with each shape timed after
# 0.3 s of idle (gemm_bench.py / attn_bench.py --settle-ms, default now): the
# GEMM table (both dtypes) and the attention table (prefill + decode).
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup || exit 1
GPU=0
el "gemm issue table, settled"
CUDA_VISIBLE_DEVICES=0 timeout $(left 200) python3 bench/gemm_bench.py --reps 15 --json $R/gemm_issue.json 2>&1 |
  grep -vE "$F" > $R/gemm_issue.log
echo "gemm rc=$?"; grep -E "^(bfloat16|float16)|check\(s\)" $R/gemm_issue.log | cut -c1-100
el "attention table, settled"
CUDA_VISIBLE_DEVICES=0 timeout $(left 540) python3 bench/attn_bench.py --decode-dims 128,64 --decode-batches 1,8 --reps 30 \
  --json $R/attn.json > $R/attn.log 2>&1
echo "attn rc=$?"; grep -E "^bf16|paged|decode:" $R/attn.log | cut -c1-200
lanes_finish
