#!/bin/bash
# Twenty-second session, call 17 (one GPU): GEMM m = 128, n = k = 4096 --
# every variant against cuBLAS, f16 and bf16, three processes (f16's pick
# ran 0.92-0.95x in calls 8 and 11, bf16's 0.95-1.00x): a ranking matter?
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup
for p in 1 2 3; do
  timeout $(left 500) python3 bench/gemm_bench.py --variants --dtypes f16,bf16 --shapes 128,4096,4096 > $R/v128_$p.log 2>&1
  echo "== process $p"; grep -E "us|x " $R/v128_$p.log | grep -vE "check ok" | sort -t'|' -k2 | head -40 | cut -c1-150
done
lanes_finish
