#!/bin/bash
# s66 call 5: issue 12's GEMM table (both dtypes, B as (n, k) and the three
# (k, n) shapes) with every shape timed over five allocations of its operands
# (gemm_bench --allocs 5: the medians of both times and of the ratios); then
# the m = 128 shapes alone over nine allocations, in a second process.
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup || exit 1
el "table"
timeout "$(left 420)" python3 bench/gemm_bench.py --allocs 5 --json "$R/table.json" >"$R/table.log" 2>&1
echo "table rc=$?"; grep -E "^(bfloat16|float16)|copy rate|failed" "$R/table.log" | cut -c1-175
el "m128"
timeout "$(left 560)" python3 bench/gemm_bench.py --allocs 9 \
  --shapes "128,4096,4096;128,11008,4096;128,4096,11008;128,14336,4096" \
  --json "$R/m128.json" >"$R/m128.log" 2>&1
echo "m128 rc=$?"; grep -E "^(bfloat16|float16)|failed" "$R/m128.log" | cut -c1-175
lanes_finish
