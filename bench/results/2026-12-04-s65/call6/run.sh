#!/bin/bash
# s65 call 6: GEMM m = 128 at the issue's four (n, k), both dtypes, alone
# (no large shapes before them), five processes in turn: the spread of the
# cell call 5's table had at 0.94x (f16, n = 11008).
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup || exit 1
for k in 1 2 3 4 5; do
  for dt in f16 bf16; do
    timeout $(left $((40 * k + 20))) python3 bench/gemm_bench.py --reps 20 --dtypes $dt \
      --shapes "128,11008,4096;128,14336,4096;128,4096,4096;128,4096,11008" \
      --json "$R/m128_${dt}_$k.json" >"$R/m128_${dt}_$k.log" 2>&1
    echo "$k $dt rc=$? $(grep -E '^(float16|bfloat16) ' "$R/m128_${dt}_$k.log" | awk -F'|' '{print $4}' | awk '{print $1}' | paste -sd' ')"
  done
done
lanes_finish
