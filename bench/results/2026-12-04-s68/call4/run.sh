#!/bin/bash
# s68 call 4 (main's kernels, f2867f7): the GEMM GPU suite (last run in the
# sixty-fifth session), then issue 12's whole table over 3 allocations a
# shape, both dtypes.
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup || exit 1
GPU=0
nvidia-smi --query-gpu=name,uuid --format=csv,noheader
el "gemm_gpu"; gpu_suite gemm_gpu.log 240 gemm_gpu
el "table"
timeout "$(left 590)" python3 bench/gemm_bench.py --allocs 3 --json "$R/table.json" >"$R/table.log" 2>&1
echo "table rc=$?"; grep -vE "^ *(ok|check)" "$R/table.log" | tail -60 | cut -c1-170
lanes_finish
