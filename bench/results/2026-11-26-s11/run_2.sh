#!/bin/bash
# GPU call 2 of the eleventh session (2026-11-26): the GEMM variants shaped
# like cuBLAS's m = 128 kernel (64x64, 13 stages, clusters of 2 along m; and
# 64x64 without, 64x128 c2) checked (gemm_gpu, memcheck, synccheck,
# racecheck) and timed pinned at m = 128 beside the picks; attention's
# causal 1K d64 under ncu (ours `_ps` and cuDNN's); the attention table
# (prefill + decode) with `_ps` ranked first for masked calls.
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup
G='wg_64x'
lane0() {
  GPU=0; export CUDA_VISIBLE_DEVICES=0
  el "lane0: gemm_gpu $G"; KP_TEST_ONLY=$G gpu_suite gemm_new.log 60 gemm_gpu
  while [ ! -e $R/san.done ] && [ $(left 250) -gt 5 ]; do sleep 2; done
  el "lane0: gemm pinned m=128"
  timeout $(left 400) python3 bench/gemm_bench.py --dtypes bf16 --variants \
    --only 'wg_(64x64|64x128_s8_c2|128x64_s8_k2|64x256)' \
    --shapes '128,4096,4096;128,11008,4096;128,4096,11008;128,14336,4096' \
    --json $R/gemm_m128.json 2>&1 | grep -vE "$F" > $R/gemm_m128.log; echo "gemm rc=$?"
  el "lane0 done"
}
lane1() {
  GPU=1
  san memcheck gemm_gpu $G san_g_memcheck.log 80
  san synccheck gemm_gpu $G san_g_synccheck.log 150
  san racecheck gemm_gpu $G san_g_racecheck.log 250
  touch $R/san.done
  el "lane1: ncu causal 1K d64"
  CUDA_VISIBLE_DEVICES=1 timeout $(left 300) ncu --clock-control none --section SpeedOfLight --section WarpStateStats --section Occupancy \
    -k 'regex:attention_|cudnn|fmha|flash' -c 4 python3 bench/ncu_attn.py 16 16 16 1024 1024 64 --causal --sdpa > $R/ncu_c1k_d64.log 2>&1; echo "ncu rc=$?"
  el "lane1: attention table"
  CUDA_VISIBLE_DEVICES=1 timeout $(left 500) python3 bench/attn_bench.py --reps 20 --json $R/attn.json 2>&1 | grep -vE "$F" > $R/attn.log; echo "attn rc=$?"
  el "lane1 done"
}
lane0 > $R/lane0.log 2>&1 &
lane1 > $R/lane1.log 2>&1 &
wait
cat $R/lane0.log $R/lane1.log
grep -E "cases|Checks" $R/gemm_new.log | head -20
grep -E "^bf16|best:|wg_" $R/gemm_m128.log | head -60
grep -E "True|False" $R/attn.log | head -40
lanes_finish
