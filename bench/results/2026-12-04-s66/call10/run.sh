#!/bin/bash
# s66 call 10 (call 9 with four more stamps in the prologue): per-CTA globaltimer stamps of the m = 128 GEMM picks (`_tr`
# twins: bench/results/2026-12-04-s66/call9/tr.patch, trace_m128.py), beside
# cuBLAS's whole-call time in the same process.
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup || exit 1
nvidia-smi --query-gpu=name,uuid --format=csv,noheader
timeout "$(left 300)" python3 bench/results/2026-12-04-s66/call9/trace_m128.py >"$R/trace.log" 2>&1
echo "trace rc=$?"; cat "$R/trace.log" | cut -c1-150
lanes_finish
