#!/bin/bash
# forty-sixth session, call 4 (main at 85625e3): (a) the TMA GEMV's ring
# depth and width at m = 1 / 16, n = 11008 (issue 12's m = 1 miss, 0.99x):
# the gemv_m16 TMA variants pinned beside cuBLAS, two rounds; (b) the
# split-KV decode's verification left open by the forty-fifth session:
# racecheck over the `_sk` variants it did not race (d96, d256, d128 s3,
# d64 s2) and synccheck over every `_sk`
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup || exit 1
GPU=0
S="1,11008,4096;16,11008,4096;1,14336,4096;1,4096,11008"
for k in 1 2; do
  el "gemv round $k"
  timeout $(left $((120 * k))) python3 bench/gemm_bench.py --reps 30 --shapes "$S" --variants \
    --only "gemv_m16_n(64|128)_s(3|5|10)(_k2|_k4)?_tma" --json $R/gemv_$k.json > $R/gemv_$k.log 2>&1
  echo "round $k rc=$?"; grep -E "^(bfloat16|float16)|best at|gemv_m16" $R/gemv_$k.log | grep -E "^(bfloat16|float16)|best at|11008" | cut -c1-150 | head -60
done
el "racecheck _sk"
san racecheck attention_gpu "d96_dec_w4x16_s2_sk|d256_dec_w2x16_s2_sk|d128_dec_w4x16_s3_sk|d64_dec_w4x16_s2_sk" race_sk.log 450
el "synccheck _sk"
san synccheck attention_gpu _sk sync_sk.log 580
lanes_finish
