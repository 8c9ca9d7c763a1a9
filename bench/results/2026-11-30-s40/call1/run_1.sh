#!/bin/bash
# Call 1 (fortieth session): the thirty-ninth's unchecked code -- graph_gpu
# (its PDL chain ends in a GEMM that plain calls now route to a `_pl` twin),
# ops_gpu, and compute-sanitizer over the `_pl` twins and the TMA GEMV
# variants (every-variant cases of gemm_gpu, both dtypes).
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup || exit 1
GPU=0
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
gpu_suite graph.log 90 graph_gpu
gpu_suite ops.log 230 ops_gpu
el memcheck
san memcheck gemm_gpu "_pl_|_tma_nk" mem.log 400
grep -hE "_nk: [0-9]+ cases|variants on" $R/mem.log | tail -4
el racecheck
san racecheck gemm_gpu "_pl_" race.log 520
grep -hE "_nk: [0-9]+ cases" $R/race.log | wc -l
el synccheck
san synccheck gemm_gpu "_pl_" sync.log 590
grep -hE "_nk: [0-9]+ cases" $R/sync.log | wc -l
lanes_finish
