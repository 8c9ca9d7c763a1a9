#!/bin/bash
# s66 call 3: cuBLAS's m = 128, n = 11008 kernel shape in ours -- 96 columns,
# 7 stages, A shared by multicast over 4-CTA clusters (`_a4`; and 88 columns
# so, and 96 alone) -- pinned in turns with cuBLAS beside the pick, bf16, two
# rounds at n = 11008 and 14336.
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup || exit 1
for r in 1 2; do
  el "pins $r"
  timeout "$(left $((150 * r)))" python3 bench/gemm_bench.py --dtypes bf16 --reps 20 \
    --shapes "128,11008,4096;128,14336,4096" --variants \
    --only 'wg_128x(88_s6_e|112_s6_e|96_s7|88_s7_a4)' \
    --json "$R/pins$r.json" >"$R/pins$r.log" 2>&1
  echo "pins $r rc=$?"; grep -E "^bfloat16|best:| us |check|FAIL" "$R/pins$r.log" | cut -c1-130
done
lanes_finish
