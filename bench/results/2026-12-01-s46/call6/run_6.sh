#!/bin/bash
# forty-sixth session, call 6: the 48-column TMA GEMV ranked for n =
# 8449..12672: (a) pinned beside the 64-column ring around that range; (b)
# compute-sanitizer memcheck / racecheck / synccheck over the 48-column
# variants; (c) the GEMM issue table (the default picks); (d) graph_gpu
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup || exit 1
GPU=0
el "range sweep"
S="1,8192,4096;1,9216,4096;16,9216,4096;1,12288,4096;16,12672,4096;1,13312,4096"
timeout $(left 70) python3 bench/gemm_bench.py --dtypes bf16 --reps 30 --shapes "$S" --variants \
  --only "gemv_m16_n(48|64)_s5_tma_nk" --json $R/sweep.json > $R/sweep.log 2>&1
echo "sweep rc=$?"; grep -vE "^check ok|does not apply" $R/sweep.log | grep -E "^bfloat16|gemv_m16" | cut -c1-100
el "memcheck"; san memcheck gemm_gpu gemv_m16_n48_ memcheck_n48.log 130
el "racecheck"; san racecheck gemm_gpu gemv_m16_n48_ racecheck_n48.log 200
el "synccheck"; san synccheck gemm_gpu gemv_m16_n48_ synccheck_n48.log 250
el "gemm issue table"
CUDA_VISIBLE_DEVICES=0 timeout $(left 470) python3 bench/gemm_bench.py --reps 15 --json $R/gemm_issue.json \
  > $R/gemm_issue.log 2>&1
echo "gemm rc=$?"; grep -E "^(bfloat16|float16)|check\(s\)" $R/gemm_issue.log | cut -c1-100
gpu_suite graph.log 540 graph_gpu
lanes_finish
