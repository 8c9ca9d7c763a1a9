#!/bin/bash
# s66 call 11: `_ei` -- the producer thread sets up the barriers and issues
# the first tile's first stages before the block's barrier, tensor maps
# prefetched (call 10: the first loads left 0.9 us after entry, 0.4 of it
# the first TMA instruction) -- traced against the pick (trace_m128.py), then
# pinned in turns with cuBLAS beside the same tiles without it, bf16, five
# allocations each.
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup || exit 1
nvidia-smi --query-gpu=name,uuid --format=csv,noheader
timeout "$(left 120)" python3 bench/results/2026-12-04-s66/call9/trace_m128.py >"$R/trace.log" 2>&1
echo "trace rc=$?"; grep -E "^128|event|first load|first stage|last k-tile|stores done" "$R/trace.log" | cut -c1-150
el "pins"
timeout "$(left 420)" python3 bench/gemm_bench.py --dtypes bf16 --allocs 5 \
  --shapes "128,11008,4096;128,14336,4096;128,4096,4096;4096,4096,4096" --variants \
  --only 'wg_(128x88_s6_e88_|128x112_s6_e112_|64x64_s12_kp_|128x256_s3_e256_w0_)(ei_)?(pl_)?nk' \
  --json "$R/pins.json" >"$R/pins.log" 2>&1
echo "pins rc=$?"; grep -E "^bfloat16| us |failed" "$R/pins.log" | grep -v "does not apply" | cut -c1-110
lanes_finish
