#!/bin/bash
# s66 calls 6-7: the m = 128 shapes of issue 12 over nine allocations a
# shape (gemm_bench --allocs 9), both dtypes, on a freshly lent GPU each call.
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup || exit 1
nvidia-smi --query-gpu=name,uuid,clocks.max.sm,clocks.max.mem,power.limit,temperature.gpu --format=csv
el "m128"
timeout "$(left 300)" python3 bench/gemm_bench.py --allocs 9 \
  --shapes "128,4096,4096;128,11008,4096;128,4096,11008;128,14336,4096" \
  --json "$R/m128.json" >"$R/m128.log" 2>&1
echo "m128 rc=$?"; grep -E "^(bfloat16|float16)|failed" "$R/m128.log" | cut -c1-175
lanes_finish
