#!/bin/bash
# GPU call 7 of the eleventh session (2026-11-26): GEMM 64x64 with each
# tile-column's k loop rotated (`_r`, a tuner variant): gemm_gpu over it,
# memcheck / synccheck (racecheck left out: no synchronisation changed,
# only the order of the producer's k-tiles), then the whole GEMM table with the two
# 64x64 variants pinned beside the pick in the table's own order (the table
# runs gave 64x64 0.83-0.89x at m = 128, n = k = 4096 where runs of that
# shape alone gave 0.96-0.97x).
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup
lane0() {
  GPU=0; export CUDA_VISIBLE_DEVICES=0
  el "lane0: gemm_gpu _r_"; KP_TEST_ONLY=64x64_s13_r_ gpu_suite gemm_r.log 60 gemm_gpu
  while [ ! -e $R/san.done ] && [ $(left 110) -gt 5 ]; do sleep 2; done
  el "lane0: gemm table"
  timeout $(left 190) python3 bench/gemm_bench.py --variants --only 'wg_64x64_s13(_r)?_nk' \
    --json $R/gemm.json 2>&1 | grep -vE "$F" > $R/gemm.log; echo "gemm rc=$?"
  el "lane0 done"
}
lane1() {
  GPU=1
  san memcheck gemm_gpu 64x64_s13_r_ san_memcheck.log 50
  san synccheck gemm_gpu 64x64_s13_r_ san_synccheck.log 100
  touch $R/san.done
  el "lane1 done"
}
lane0 > $R/lane0.log 2>&1 &
lane1 > $R/lane1.log 2>&1 &
wait
cat $R/lane0.log $R/lane1.log
grep -E "cases|Checks" $R/gemm_r.log | head
grep -E "^(bfloat16|float16)|wg_64x64|best" $R/gemm.log | grep -B1 -A3 -E "^(bfloat16|float16)(/kn)? +128 " | head -60
lanes_finish
