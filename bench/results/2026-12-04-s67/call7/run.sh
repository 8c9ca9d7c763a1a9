#!/bin/bash
# s67 call 7: gemm_bench's time_allocs (3a87d24: one helper for the table's
# shapes and the pinned variants, not run on a GPU before) -- the m = 128
# shapes over 5 allocations, both dtypes, and the 128 x 11008 tiles pinned
# over 3 allocations.
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup || exit 1
nvidia-smi --query-gpu=name,uuid --format=csv,noheader
el "m = 128 over allocations"
timeout "$(left 200)" python3 bench/gemm_bench.py --allocs 5 \
  --shapes "128,4096,4096;128,11008,4096;128,4096,11008;128,14336,4096" \
  --json "$R/m128.json" >"$R/m128.log" 2>&1
echo "m128 rc=$?"; grep -vE "^ *(ok|check)" "$R/m128.log" | tail -24 | cut -c1-170
el "pinned"
timeout "$(left 330)" python3 bench/gemm_bench.py --allocs 3 --dtypes bf16 --variants --only "128x88|128x96|128x112" \
  --shapes "128,11008,4096" --json "$R/pinned.json" >"$R/pinned.log" 2>&1
echo "pinned rc=$?"; grep -vE "^ *(ok|check)" "$R/pinned.log" | tail -24 | cut -c1-170
lanes_finish
