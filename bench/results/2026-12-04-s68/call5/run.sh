#!/bin/bash
# s68 call 5: gemm_bench's --variants lines now print the median of the
# per-allocation ratios, as the table does (first GPU run of that change);
# the m = 128 cells at n = 11008 / 14336 pinned over their tiles, 3
# allocations, both dtypes; then the m = 128 shapes over 5 allocations.
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup || exit 1
nvidia-smi --query-gpu=name,uuid --format=csv,noheader
el "pinned"
timeout "$(left 250)" python3 bench/gemm_bench.py --allocs 3 --variants --only "128x88|128x96|128x112" \
  --shapes "128,11008,4096;128,14336,4096" --json "$R/pinned.json" >"$R/pinned.log" 2>&1
echo "pinned rc=$?"; grep -vE "^ *(ok|check)" "$R/pinned.log" | tail -40 | cut -c1-190
el "m = 128 over allocations"
timeout "$(left 400)" python3 bench/gemm_bench.py --allocs 5 \
  --shapes "128,4096,4096;128,11008,4096;128,4096,11008;128,14336,4096" \
  --json "$R/m128.json" >"$R/m128.log" 2>&1
echo "m128 rc=$?"; grep -vE "^ *(ok|check)" "$R/m128.log" | tail -12 | cut -c1-190
lanes_finish
