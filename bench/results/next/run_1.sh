#!/bin/bash
# Next session's first call (written by the thirty-seventh session, NOTES
# items 71-72): on an H100 if one is lent (none since the twenty-sixth
# session), else an H200.  Build (make; the CPU tests), copy this script to
# build/carry/, carry the packs as build/carry/packs.tar.xz (bench/lanes.sh;
# re-pack after make, and check it with `xz -t`), run it as it is.
# - the PDL chain with torch.compile and eager beside it (issue 14 part 2:
#   met on an H200 in item 71, 34.6 / 29.0 / 26.0% saved; the H100 has not
#   run it since item 60), twice;
# - the graph and ops suites;
# - the GEMM issue table (both dtypes: item 72 is the H200's).
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup || exit 1
GPU=0
for i in 1 2; do
  el "chain$i"
  CUDA_VISIBLE_DEVICES=0 timeout $(left $((60 + 60 * i))) python3 bench/pdl_bench.py --tokens 1,16,128 \
    --json $R/chain$i.json > $R/chain$i.log 2>&1
  echo "chain$i rc=$?"; grep -A5 "^tokens |" $R/chain$i.log | cut -c1-130
done
gpu_suite graph.log 160 graph_gpu
gpu_suite ops.log 200 ops_gpu
el "gemm issue table"
CUDA_VISIBLE_DEVICES=0 timeout $(left 320) python3 bench/gemm_bench.py --reps 15 --json $R/gemm_issue.json 2>&1 |
  grep -vE "$F" > $R/gemm_issue.log
echo "gemm rc=$?"; grep -E "^(bfloat16|float16)|check\(s\)" $R/gemm_issue.log | cut -c1-100
lanes_finish
